// Files built to break the browser parsers (issue 9, items 9 and 10): decompression bombs in .npz,
// .npy shapes that are not counts, safetensors headers with missing or wrong fields. Each must end in
// a FileError that names the file and the problem, before anything large is allocated.
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../web/src/io/npy.ts';
import { parseNpz } from '../../web/src/io/npz.ts';
import { parseSafetensors } from '../../web/src/io/safetensors.ts';
import { FileError } from '../../web/src/io/table.ts';
import { npyBytes, npzBytes, safetensorsBytes } from './fixtures.ts';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FileError);
    return (error as Error).message;
  }
  throw new Error('expected a FileError');
}

/** Sets the uncompressed size of every member in the local headers and the central directory. */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.length; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50) view.setUint32(at + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return out;
}

describe('npz decompression bombs', () => {
  // 100 MiB of zeros as a float64 .npy: deflates to about 100 KB.
  const zeros = npyBytes('<f8', [12_800, 1024], new Float64Array(12_800 * 1024));
  const bomb = zipSync({ 'x.npy': [zeros, { level: 9 }] });

  it('refuses a header that claims 4 GB before inflating anything', () => {
    const claim = declareSize(npzBytes({ 'x.npy': npyBytes('<f8', [1, 2], Float64Array.from([1, 2])) }), 0xffffffff);
    expect(claim.length).toBeLessThan(300);
    expect(messageOf(() => parseNpz(claim, 'claim.npz'))).toBe(
      "claim.npz: its members declare 4.0 GB uncompressed ('x.npy' 4.0 GB); gpprobe reads at most 1.5 GB",
    );
  });

  it('refuses an honest archive that expands past the limit, by its declared size', () => {
    expect(bomb.length).toBeLessThan(1e6);
    expect(messageOf(() => parseNpz(bomb, 'big.npz', 64 * 2 ** 20))).toBe(
      "big.npz: its members declare 100.0 MB uncompressed ('x.npy' 100.0 MB); gpprobe reads at most 64.0 MB",
    );
  });

  it('stops inflating a member that expands past the size it declares', () => {
    const liar = declareSize(bomb, 4096);
    const started = process.cpuUsage();
    expect(messageOf(() => parseNpz(liar, 'liar.npz'))).toBe(
      "liar.npz: member 'x.npy' expands past the 4096 bytes it declares (a decompression bomb or a damaged archive)",
    );
    // One 16 KB step of input at most, not the whole 100 MiB: held to CPU time, which a busy machine does not
    // stretch (its wall time does; issue 35, item 3).
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });

  it('still reads the same archive with the default limit, and members that are too short are named', () => {
    const p = parseNpz(bomb, 'big.npz');
    expect([p.embeddings!.rows, p.embeddings!.cols]).toEqual([12_800, 1024]);
    const small = npzBytes({ 'x.npy': npyBytes('<f8', [2, 2], Float64Array.from([1, 2, 3, 4])) });
    expect(messageOf(() => parseNpz(declareSize(small, 5000), 's.npz'))).toBe(
      "s.npz: member 'x.npy' holds 160 bytes, its header says 5000",
    );
  });
});

describe('npz archives written by NumPy', () => {
  it('reads np.savez (zip64 local headers) and np.savez_compressed', () => {
    const expected = Array.from({ length: 12 }, (_, k) => (k - 5.5) / 4);
    for (const name of ['numpy_savez.npz', 'numpy_savez_compressed.npz']) {
      const p = parseNpz(new Uint8Array(readFileSync(new URL(`../reference/npz/${name}`, import.meta.url))), name);
      expect([p.embeddings!.rows, p.embeddings!.cols]).toEqual([4, 3]);
      expect(Array.from(p.embeddings!.data)).toEqual(expected);
    }
    const labelled = parseNpz(
      new Uint8Array(readFileSync(new URL('../reference/npz/numpy_savez_compressed.npz', import.meta.url))),
      'c.npz',
    );
    expect(labelled.columns.map((c) => [c.name, Array.from(c.values as Float64Array)])).toEqual([
      ['label', [0, 1, 0, 1]],
    ]);
  });
});

describe('npy shapes that are not counts', () => {
  const data = new Float64Array(8);
  const withShape = (shape: string) => npyBytes('<f8', shape, new Float64Array(8));
  it.each([
    ['"", 4', 0, '""'],
    ['1.5, 2', 0, '1.5'],
    ['True, 4', 0, 'True'],
    ['-1, 3', 0, '-1'],
    ['2, 4e0', 1, '4e0'],
  ])('names shape (%s)', (shape, axis, item) => {
    expect(messageOf(() => parseNpy(withShape(shape), 'bad.npy'))).toBe(
      `bad.npy: the .npy header's shape (${shape}) is not a tuple of non-negative integers (dimension ${axis} is ${item})`,
    );
  });

  it('checks the element count against the file before allocating', () => {
    expect(messageOf(() => parseNpy(withShape('4, 4611686018427387905'), 'huge.npy'))).toBe(
      "huge.npy: the .npy header's shape (4, 4611686018427387905) has dimension 1 = 4611686018427387905, more values than any file holds",
    );
    expect(messageOf(() => parseNpy(withShape('4, 2251799813685248'), 'big.npy'))).toBe(
      'big.npy: truncated: the header promises 72057594037927940 bytes of data, the file holds 64',
    );
  });
});

describe('safetensors headers with missing or wrong fields', () => {
  const good = safetensorsBytes({ x: { dtype: 'F32', shape: [2, 2], data: new Float32Array(4) } });
  /** `good` with its tensor entry replaced (the header keeps its length: padded with spaces). */
  function withEntry(entry: unknown): Uint8Array {
    const length = Number(new DataView(good.buffer).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(good.subarray(8, 8 + length)));
    header.x = entry;
    const json = new TextEncoder().encode(JSON.stringify(header));
    const out = new Uint8Array(8 + json.length + 16);
    new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
    out.set(json, 8);
    return out;
  }
  it.each([
    [{ dtype: 'F32', data_offsets: [0, 16] }, "tensor 'x' has no shape"],
    [{ shape: [2, 2], data_offsets: [0, 16] }, "tensor 'x' has no dtype"],
    [
      { dtype: 'F32', shape: [2, -2], data_offsets: [0, 16] },
      "tensor 'x' has shape [2,-2]; dimensions are whole numbers ≥ 0, got -2",
    ],
    [
      { dtype: 'F32', shape: ['2', 2], data_offsets: [0, 16] },
      `tensor 'x' has shape ["2",2]; dimensions are whole numbers ≥ 0, got "2"`,
    ],
    [
      { dtype: 'F32', shape: [2, 2], data_offsets: ['0', 16] },
      `tensor 'x' has data_offsets ["0",16]; expected [begin, end], whole numbers with begin ≤ end`,
    ],
    [
      { dtype: 'F32', shape: [2, 2], data_offsets: [-16, 0] },
      "tensor 'x' has data_offsets [-16,0]; expected [begin, end], whole numbers with begin ≤ end",
    ],
    [
      { dtype: 'F32', shape: [2, 2] },
      "tensor 'x' has data_offsets missing; expected [begin, end], whole numbers with begin ≤ end",
    ],
    ['F32', "tensor 'x' is not a {dtype, shape, data_offsets} entry"],
  ])('names %j', (entry, problem) => {
    expect(messageOf(() => parseSafetensors(withEntry(entry), 'm.safetensors'))).toBe(`m.safetensors: ${problem}`);
  });

  it('refuses a header that is JSON but not an object', () => {
    const json = new TextEncoder().encode('null');
    const bytes = new Uint8Array(8 + json.length);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
    bytes.set(json, 8);
    expect(messageOf(() => parseSafetensors(bytes, 'n.safetensors'))).toBe(
      'n.safetensors: not a safetensors file (header is not a JSON object)',
    );
  });
});

describe('files without rows (issue 23, item 6)', () => {
  it('are refused at load, naming the file, in every format that can hold 0 × d embeddings', async () => {
    const { loadDataset } = await import('../../web/src/io/load_files.ts');
    const load = (bytes: Uint8Array | string, name: string) =>
      loadDataset([{ blob: new Blob([bytes as BlobPart]), name }]);
    await expect(load(npyBytes('<f4', [0, 768], new Float32Array(0)), 'empty.npy')).rejects.toThrow(
      new FileError('empty.npy', 'holds no rows (0 × 768 embeddings): there is nothing to probe'),
    );
    await expect(
      load(npzBytes({ 'x.npy': npyBytes('<f8', [0, 4], new Float64Array(0)) }), 'empty.npz'),
    ).rejects.toThrow(new FileError('empty.npz', 'holds no rows (0 × 4 embeddings): there is nothing to probe'));
    await expect(
      load(safetensorsBytes({ x: { dtype: 'F32', shape: [0, 3], data: new Float32Array(0) } }), 'empty.safetensors'),
    ).rejects.toThrow(
      new FileError('empty.safetensors', 'holds no rows (0 × 3 embeddings): there is nothing to probe'),
    );
    // One row is data: it loads.
    const one = await load(npyBytes('<f4', [1, 3], Float32Array.from([1, 2, 3])), 'one.npy');
    expect(one.embeddings.rows).toBe(1);
  });
});
