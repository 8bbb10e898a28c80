// The Compare lab's reading of representations (labs/compare/worker/representation_files.ts): several
// .npy files chosen together, every 2-D array of an .npz or .safetensors, every tensor of a Projector
// config uploaded with its .bytes, an ood_<name> file as <name>'s OOD set; float32 kept float32; and the
// refusals, naming the file.
import { readFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { readRepresentations } from '../../web/src/labs/compare/worker/representation_files.ts';
import { blob, npyBytes, npzBytes, safetensorsBytes } from './fixtures.ts';

const a = Float32Array.from([1, 2, 3, 4, 5, 6]); // 3 x 2
const b = Float64Array.from([1, 0, 0, 1, 1, 1, 0.5, 2, 3]); // 3 x 3

describe('the representations of the files chosen together', () => {
  it('reads several .npy files, one each, in the order chosen, float32 kept, with ood_<name> as an OOD set', async () => {
    const reps = await readRepresentations([
      { name: 'layer_1.npy', blob: blob(npyBytes('<f8', [3, 3], b)) },
      { name: 'layer_0.npy', blob: blob(npyBytes('<f4', [3, 2], a)) },
      { name: 'ood_layer_0.npy', blob: blob(npyBytes('<f4', [1, 2], Float32Array.from([9, 9]))) },
    ]);
    expect(reps.map((r) => r.name)).toEqual(['layer_1.npy', 'layer_0.npy']);
    expect(reps[1].embeddings.data).toBeInstanceOf(Float32Array);
    expect(Array.from(reps[1].embeddings.data)).toEqual(Array.from(a));
    expect(reps[0].embeddings.data).toBeInstanceOf(Float64Array);
    expect(reps[1].ood?.rows).toBe(1);
    expect(reps[0].ood).toBeUndefined();
  });

  it('takes every 2-D array of an .npz and of a .safetensors (one-column and 1-D arrays are not embeddings)', async () => {
    const npz = npzBytes({
      'h1.npy': npyBytes('<f4', [3, 2], a),
      'h2.npy': npyBytes('<f8', [3, 3], b),
      'labels.npy': npyBytes('<i8', [3], BigInt64Array.from([1n, 0n, 1n])),
    });
    const st = safetensorsBytes({
      x: { dtype: 'F32', shape: [3, 2], data: a },
      y: { dtype: 'F64', shape: [3, 3], data: b },
      c: { dtype: 'F32', shape: [3, 1], data: new Float32Array(3) },
    });
    const reps = await readRepresentations([
      { name: 'layers.npz', blob: blob(npz) },
      { name: 'm.safetensors', blob: blob(st) },
    ]);
    expect(reps.map((r) => [r.name, r.embeddings.rows, r.embeddings.cols])).toEqual([
      ['layers.npz/h1', 3, 2],
      ['layers.npz/h2', 3, 3],
      ['m.safetensors/x', 3, 2],
      ['m.safetensors/y', 3, 3],
    ]);
    expect(reps[0].embeddings.data).toBeInstanceOf(Float32Array);
  });

  it('takes every tensor of a Projector config uploaded with it, by tensorName, float32', async () => {
    const dir = 'tests/e2e/fixtures/projector/';
    const files = ['projector_config.json', 'hidden.bytes', 'pixels.bytes', 'metadata.tsv', 'sprite.png'].map(
      (name) => ({ name, blob: blob(new Uint8Array(readFileSync(dir + name))) }),
    );
    const reps = await readRepresentations(files);
    expect(
      reps.map((r) => [r.name, r.embeddings.rows, r.embeddings.cols, r.embeddings.data instanceof Float32Array]),
    ).toEqual([
      ['Digits: hidden layer', 300, 64, true],
      ['Digits: pixels', 300, 64, true],
    ]);
  });

  it('names where each tensor of a Projector config read by URL came from (the link reopens them)', async () => {
    const dir = 'tests/e2e/fixtures/projector/';
    const files = ['projector_config.json', 'hidden.bytes', 'pixels.bytes'].map((name) => ({
      name,
      blob: blob(new Uint8Array(readFileSync(dir + name))),
    }));
    const sources = new Map(files.map((f) => [f.name, `https://data.example/p/${f.name}`]));
    const reps = await readRepresentations(files, { sources });
    expect(reps.map((r) => [r.name, r.source])).toEqual([
      ['Digits: hidden layer', 'https://data.example/p/hidden.bytes'],
      ['Digits: pixels', 'https://data.example/p/pixels.bytes'],
    ]);
  });

  it('refuses what it cannot take, naming the file', async () => {
    await expect(
      readRepresentations([{ name: 'ood_x.npy', blob: blob(npyBytes('<f4', [1, 2], a.subarray(0, 2))) }]),
    ).rejects.toThrow('ood_x.npy: is named as an OOD set (ood_<name>), but no representation x.npy was chosen with it');
    await expect(
      readRepresentations([
        { name: 'x.npy', blob: blob(npyBytes('<f4', [3, 2], a)) },
        { name: 'ood_x.npy', blob: blob(npyBytes('<f8', [1, 3], b.subarray(0, 3))) },
      ]),
    ).rejects.toThrow('ood_x.npy: has 3 columns, x.npy has 2');
    const flat = npzBytes({ 'labels.npy': npyBytes('<i8', [3], BigInt64Array.from([1n, 0n, 1n])) });
    await expect(readRepresentations([{ name: 'l.npz', blob: blob(flat) }])).rejects.toThrow(
      'l.npz: holds no 2-D array of embeddings',
    );
  });

  it('takes every vector column of a Parquet file, in its order, one embedding each; scalar columns are not embeddings', async () => {
    const rowsOf = (data: ArrayLike<number>, cols: number) =>
      Array.from({ length: data.length / cols }, (_, i) => Array.from(data).slice(i * cols, (i + 1) * cols));
    const list = (name: string, type: 'FLOAT' | 'DOUBLE') =>
      [
        { name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type, repetition_type: 'REQUIRED' },
      ] as const;
    const file = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: [7, 8, 9] },
          { name: 'layer_0', data: rowsOf(a, 2) },
          { name: 'layer_1', data: rowsOf(b, 3) },
          { name: 'label', data: ['x', 'y', 'x'] },
        ],
        schema: [
          { name: 'root', num_children: 4 },
          { name: 'id', type: 'INT32', repetition_type: 'OPTIONAL' },
          ...list('layer_0', 'FLOAT'),
          ...list('layer_1', 'DOUBLE'),
          { name: 'label', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
        ],
      }),
    );
    const reps = await readRepresentations([{ name: 'layers.parquet', blob: blob(file) }]);
    expect(reps.map((r) => [r.name, r.embeddings.rows, r.embeddings.cols, r.source])).toEqual([
      ['layers.parquet/layer_0', 3, 2, 'layers.parquet'],
      ['layers.parquet/layer_1', 3, 3, 'layers.parquet'],
    ]);
    expect(Array.from(reps[0].embeddings.data)).toEqual(Array.from(a));
    expect(Array.from(reps[1].embeddings.data)).toEqual(Array.from(b));
    // A FLOAT column stays float32, a DOUBLE one float64.
    expect(reps[0].embeddings.data).toBeInstanceOf(Float32Array);
    expect(reps[1].embeddings.data).toBeInstanceOf(Float64Array);
    const single = new Uint8Array(
      parquetWriteBuffer({ columnData: [{ name: 'label', data: ['x', 'y', 'x'], type: 'STRING' }] }),
    );
    await expect(readRepresentations([{ name: 'flat.parquet', blob: blob(single) }])).rejects.toThrow(
      'flat.parquet: holds no vector column (list of numbers) to take as an embedding',
    );
  });

  it('reads a .safetensors tensor by tensor: an F32 tensor is a Float32Array over its own bytes', async () => {
    const st = safetensorsBytes({
      x: { dtype: 'F32', shape: [3, 2], data: a },
      y: { dtype: 'F64', shape: [3, 3], data: b },
    });
    const reps = await readRepresentations([{ name: 'm.safetensors', blob: blob(st) }]);
    expect(reps[0].embeddings.data).toBeInstanceOf(Float32Array);
    expect(reps[0].embeddings.data.byteOffset).toBe(0);
    expect(reps[0].embeddings.data.buffer.byteLength).toBe(3 * 2 * 4);
    expect(Array.from(reps[1].embeddings.data)).toEqual(Array.from(b));
    const cut = st.subarray(0, st.length - 8);
    await expect(readRepresentations([{ name: 'cut.safetensors', blob: blob(cut) }])).rejects.toThrow(
      /cut\.safetensors: tensor '.' is truncated/,
    );
  });

  it('streams a float32 .npy into its array and still refuses non-finite values and truncation, naming the file', async () => {
    const nan = Float32Array.from([1, 2, 3, NaN, 5, 6]);
    await expect(readRepresentations([{ name: 'bad.npy', blob: blob(npyBytes('<f4', [3, 2], nan)) }])).rejects.toThrow(
      'bad.npy: element [1, 1] is NaN',
    );
    const whole = npyBytes('<f4', [3, 2], a);
    await expect(
      readRepresentations([{ name: 'cut.npy', blob: blob(whole.subarray(0, whole.length - 4)) }]),
    ).rejects.toThrow(/^cut\.npy: truncated/);
  });

  it("refuses a hostile .safetensors header tensor by tensor with the whole-file reader's messages", async () => {
    const file = (header: unknown, body = new Uint8Array(0)) => {
      const text = new TextEncoder().encode(JSON.stringify(header));
      const bytes = new Uint8Array(8 + text.length + body.length);
      new DataView(bytes.buffer).setBigUint64(0, BigInt(text.length), true);
      bytes.set(text, 8);
      bytes.set(body, 8 + text.length);
      return bytes;
    };
    const read = (bytes: Uint8Array) => readRepresentations([{ name: 'h.safetensors', blob: blob(bytes) }]);
    await expect(read(file({ x: { dtype: 'F32', shape: [-1, 2], data_offsets: [0, 8] } }))).rejects.toThrow(
      "h.safetensors: tensor 'x' has shape [-1,2]; dimensions are whole numbers ≥ 0, got -1",
    );
    await expect(read(file({ x: { dtype: 'F32', shape: [2, 2], data_offsets: [8, 0] } }))).rejects.toThrow(
      "h.safetensors: tensor 'x' has data_offsets [8,0]; expected [begin, end], whole numbers with begin ≤ end",
    );
    await expect(read(file({ x: 5 }))).rejects.toThrow(
      "h.safetensors: tensor 'x' is not a {dtype, shape, data_offsets} entry",
    );
    await expect(
      read(file({ x: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 16] } }, new Uint8Array(8))),
    ).rejects.toThrow("h.safetensors: tensor 'x' is truncated or its offsets do not match its shape");
    await expect(
      read(file({ x: { dtype: 'Q9', shape: [1, 2], data_offsets: [0, 8] } }, new Uint8Array(8))),
    ).rejects.toThrow("h.safetensors: tensor 'x' has unsupported dtype Q9");
    const long = new Uint8Array(16);
    new DataView(long.buffer).setBigUint64(0, 2n ** 40n, true);
    await expect(read(long)).rejects.toThrow('h.safetensors: not a safetensors file (bad header length)');
  });

  it('refuses row counts that differ, naming both files', async () => {
    await expect(
      readRepresentations([
        { name: 'layer_0.npy', blob: blob(npyBytes('<f4', [3, 2], a)) },
        { name: 'short.npy', blob: blob(npyBytes('<f4', [2, 2], a.subarray(0, 4))) },
      ]),
    ).rejects.toThrow(
      "short.npy: embedding 'short.npy' has 2 rows, embedding 'layer_0.npy' has 3 rows; every embedding must hold the same rows",
    );
    const npz = npzBytes({ 'h1.npy': npyBytes('<f4', [3, 2], a), 'h2.npy': npyBytes('<f4', [2, 2], a.subarray(0, 4)) });
    await expect(readRepresentations([{ name: 'layers.npz', blob: blob(npz) }])).rejects.toThrow(
      "layers.npz: embedding 'layers.npz/h2' has 2 rows, embedding 'layers.npz/h1' has 3 rows",
    );
  });
});
