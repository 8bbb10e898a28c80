// Shapes that lie or mean nothing (issue 40 item 5): a 0-d .npy whose one value is cut short is
// "truncated", never a RangeError called "too large for this browser tab's memory"; an embedding
// matrix of no rows (.npy, .npz, .safetensors; shape [0, 3] or JSON's [-0, 3]) is refused as empty,
// naming the file (and the array, by the Compare lab's readers, which take every 2-D array as an
// embedding; the Probe tab's loader refuses a dataset of no rows), and "-0" is never
// shown; negative or fractional dimensions are refused, naming the dimension.
import { describe, expect, it } from 'vitest';
import { loadDataset, parseFile } from '../../web/src/io/load_files.ts';
import { npyFloat32Matrix, safetensorsMatrices } from '../../web/src/io/multi_arrays.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { npzArrays, parseNpz } from '../../web/src/io/npz.ts';
import { safetensorsArrays } from '../../web/src/io/safetensors.ts';
import { npyBytes, npzBytes, safetensorsBytes } from './fixtures.ts';

/** A safetensors file whose header is `header` verbatim, followed by `data`. */
function rawSafetensors(header: string, data = new Uint8Array(0)): Uint8Array {
  const json = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** The Probe tab's load of one file (loadDataset: it refuses a dataset of no rows). */
const probe = (bytes: Uint8Array, name: string) => loadDataset([{ blob: new Blob([bytes.slice()]), name }]);

const message = async (f: () => unknown): Promise<string> => {
  try {
    await f();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('a 0-d .npy whose value is cut short', () => {
  // shape (), float64: one value of 8 bytes after a 64-byte header; the file keeps 4 of them.
  const whole = npyBytes('<f8', [], Float64Array.from([2.5]));
  const short = whole.subarray(0, whole.length - 4);

  it('is truncated, by the reader and by a Probe upload', async () => {
    const truncated = 'scalar.npy: truncated: the header promises 8 bytes of data, the file holds 4';
    expect(() => parseNpy(short, 'scalar.npy')).toThrow(truncated);
    const upload = await message(() => parseFile(new Blob([short.slice()]), 'scalar.npy'));
    expect(upload).toBe(truncated);
    expect(upload).not.toMatch(/memory|RangeError/);
  });

  it('reads when whole (its one value)', () => {
    const a = parseNpy(whole, 'scalar.npy');
    expect(a.shape).toEqual([]);
    expect(Array.from(a.data)).toEqual([2.5]);
  });
});

describe('an embedding matrix of no rows is refused as empty', () => {
  const empty = 'has shape (0, 3): an embedding matrix with no rows (an embedding needs at least one)';

  it('.safetensors, shape [0, 3] and [-0, 3]: by the Probe tab and the Compare lab, "-0" never shown', async () => {
    const zero = safetensorsBytes({ emb: { dtype: 'F32', shape: [0, 3], data: new Float32Array(0) } });
    const minusZero = rawSafetensors('{"emb":{"dtype":"F32","shape":[-0,3],"data_offsets":[0,0]}}');
    for (const [label, file] of [
      ['[0, 3]', zero],
      ['[-0, 3]', minusZero],
    ] as const) {
      expect(await message(() => probe(file, 'e.safetensors')), label).toBe(
        'e.safetensors: holds no rows (0 × 3 embeddings): there is nothing to probe',
      );
      expect(await message(() => safetensorsMatrices(new Blob([file.slice()]), 'e.safetensors')), label).toBe(
        `e.safetensors: tensor 'emb' ${empty}`,
      );
    }
    // Read whole, [-0, 3] is [0, 3]: no "-0" in a shape.
    const [a] = safetensorsArrays(minusZero, 'e.safetensors');
    expect(Object.is(a.shape[0], -0)).toBe(false);
  });

  it('.npz, a (0, 3) member: by the Probe tab and the Compare lab', async () => {
    const file = npzBytes({ 'emb.npy': npyBytes('<f4', [0, 3], new Float32Array(0)) });
    expect(await message(() => npzArrays(file, 'e.npz'))).toBe(`e.npz: array 'emb' ${empty}`);
    expect(await message(() => probe(file, 'e.npz'))).toBe(
      'e.npz: holds no rows (0 × 3 embeddings): there is nothing to probe',
    );
    expect(parseNpz(file, 'e.npz').rows).toBe(0); // read, then refused by the Probe tab's loader
  });

  it('.npy, shape (0, 3): by the Probe tab and the Compare lab', async () => {
    const file = npyBytes('<f4', [0, 3], new Float32Array(0));
    expect(await message(() => probe(file, 'e.npy'))).toBe(
      'e.npy: holds no rows (0 × 3 embeddings): there is nothing to probe',
    );
    expect(await message(() => npyFloat32Matrix(new Blob([file.slice()]), 'e.npy'))).toBe(`e.npy: the array ${empty}`);
  });
});

describe('negative or fractional dimensions are refused, naming the dimension', () => {
  it('.safetensors', () => {
    for (const [shape, shown] of [
      ['[-1,3]', '-1'],
      ['[1.5,3]', '1.5'],
      ['[2,-3]', '-3'],
    ]) {
      const file = rawSafetensors(`{"emb":{"dtype":"F32","shape":${shape},"data_offsets":[0,24]}}`, new Uint8Array(24));
      expect(() => safetensorsArrays(file, 'e.safetensors'), shape).toThrow(
        `e.safetensors: tensor 'emb' has shape ${shape}; dimensions are whole numbers ≥ 0, got ${shown}`,
      );
    }
  });

  it('.npy', () => {
    for (const [shape, axis, shown] of [
      ['-1, 3', 0, '-1'],
      ['2, 1.5', 1, '1.5'],
    ] as const) {
      const file = npyBytes('<f4', shape, new Float32Array(6));
      expect(() => parseNpy(file, 'e.npy'), shape).toThrow(
        `e.npy: the .npy header's shape (${shape}) is not a tuple of non-negative integers (dimension ${axis} is ${shown})`,
      );
    }
  });
});

describe("a .safetensors file's tensors cover its data exactly (as the format's reference reader requires)", () => {
  const f32 = (n: number) => new Uint8Array(Float32Array.from({ length: n }, (_, i) => i + 0.5).buffer);
  const file = (entries: Record<string, [number, number]>, dataBytes: number) =>
    rawSafetensors(
      JSON.stringify(
        Object.fromEntries(
          Object.entries(entries).map(([name, [a, b]]) => [
            name,
            { dtype: 'F32', shape: [2, (b - a) / 8], data_offsets: [a, b] },
          ]),
        ),
      ),
      f32(dataBytes / 4),
    );
  const cases: [string, Uint8Array, string][] = [
    [
      'two tensors sharing bytes',
      file({ a: [0, 16], b: [8, 24] }, 24),
      "tensors 'a' and 'b' share bytes (data_offsets [0, 16] and [8, 24]); each byte of the data belongs to one tensor",
    ],
    [
      'bytes of no tensor between two',
      file({ a: [0, 16], b: [24, 40] }, 40),
      "bytes 16 to 24 of the data belong to no tensor (before 'b'); the tensors must cover the data exactly",
    ],
    [
      'bytes after the last tensor',
      file({ a: [0, 16] }, 20),
      "4 bytes follow the last tensor's data (the tensors end at byte 16 of 20); the tensors must cover the data exactly",
    ],
  ];
  for (const [what, bytes, problem] of cases) {
    it(`${what} is refused by the whole-file reader and the Compare lab's`, async () => {
      expect(await message(() => safetensorsArrays(bytes, 't.safetensors'))).toBe(`t.safetensors: ${problem}`);
      expect(await message(() => safetensorsMatrices(new Blob([bytes.slice()]), 't.safetensors'))).toBe(
        `t.safetensors: ${problem}`,
      );
    });
  }

  it('tensors that tile the data read their own values', async () => {
    const bytes = file({ b: [16, 32], a: [0, 16] }, 32);
    const arrays = await safetensorsMatrices(new Blob([bytes.slice()]), 't.safetensors');
    expect(Object.fromEntries(arrays.map((a) => [a.name, Array.from(a.data)]))).toEqual({
      b: [4.5, 5.5, 6.5, 7.5],
      a: [0.5, 1.5, 2.5, 3.5],
    });
  });
});

describe('an .npz with two members of one name', () => {
  it('is refused, naming the member (which of the two is the array would depend on the reader)', async () => {
    const bytes = npzBytes({
      'x.npy': npyBytes('<f8', [2, 2], Float64Array.from([1, 2, 3, 4])),
      'y.npy': npyBytes('<f8', [2, 2], Float64Array.from([5, 6, 7, 8])),
    });
    // Every "y.npy" (local header and directory entry) renamed "x.npy": the same length, so nothing moves.
    const text = new TextDecoder('latin1').decode(bytes);
    const renamed = Uint8Array.from(text.replaceAll('y.npy', 'x.npy'), (c) => c.charCodeAt(0));
    const problem = "d.npz: member 'x.npy' appears twice in the archive's directory; which one is meant?";
    expect(await message(() => npzArrays(renamed, 'd.npz'))).toBe(problem);
    expect(await message(() => parseFile(new Blob([renamed.slice()]), 'd.npz'))).toBe(problem);
  });
});
