// The browser parsers as fuzz targets (scripts/test/fuzz_browser_parsers.mjs bundles this file for Node):
// each format's parser called directly — not through load_files.ts, whose catch-all would hide a
// parser's own TypeError behind "could not be read" — with valid seed files of that format. In a
// worker thread the module answers {target, bytes} with what the parser did; the runner times it.
import { parentPort } from 'node:worker_threads';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parseDelimitedText } from '../../../web/src/io/delimited.ts';
import { parseJson, parseJsonLines } from '../../../web/src/io/json.ts';
import { fromArrays, type NamedArray } from '../../../web/src/io/arrays.ts';
import {
  npyFloat32Matrix,
  parquetMatrices,
  rowCountProblem,
  safetensorsMatrices,
} from '../../../web/src/io/multi_arrays.ts';
import { parseNpy } from '../../../web/src/io/npy.ts';
import { parseNpz } from '../../../web/src/io/npz.ts';
import { readParquet } from '../../../web/src/io/parquet.ts';
import { parseProjectorConfig, parseTensorBytes } from '../../../web/src/io/projector.ts';
import { parseSafetensors } from '../../../web/src/io/safetensors.ts';
import { FileError, type ParsedFile } from '../../../web/src/io/table.ts';
import { uploads } from '../../e2e/formats.ts';
import { npyBytes, npzBytes, safetensorsBytes } from '../../web/fixtures.ts';
import { LIES, parquetLie } from '../../../scripts/fixtures/make_parquet_lies.mjs';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const arrayBuffer = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

interface Target {
  name: string; // the file name the parser is given (its messages must name it)
  parse(bytes: Uint8Array, name: string): ParsedFile | unknown | Promise<ParsedFile | unknown>;
}

export const TARGETS: Record<string, Target> = {
  npy: {
    name: 'f.npy',
    parse: (b, n) => {
      const a = parseNpy(b, n);
      return fromArrays(n, [{ name: 'x', shape: a.shape, data: a.data }]);
    },
  },
  npz: { name: 'f.npz', parse: (b, n) => parseNpz(b, n, 64 * 2 ** 20) },
  safetensors: { name: 'f.safetensors', parse: parseSafetensors },
  parquet: { name: 'f.parquet', parse: (b, n) => readParquet(arrayBuffer(b), n) },
  csv: { name: 'f.csv', parse: (b, n) => parseDelimitedText(text(b), n) },
  tsv: { name: 'f.tsv', parse: (b, n) => parseDelimitedText(text(b), n) },
  json: { name: 'f.json', parse: (b, n) => parseJson(text(b), n) },
  jsonl: { name: 'f.jsonl', parse: (b, n) => parseJsonLines(text(b), n) },
  projector_config: {
    name: 'projector_config.json',
    parse: (b, n) => parseProjectorConfig(text(b), 'https://example.org/p/projector_config.json', n),
  },
  projector_tensor: { name: 'f.bytes', parse: (b, n) => parseTensorBytes(b, [4, 2], n) },
  // The Compare lab's readers of several embeddings (io/multi_arrays.ts), each given a Blob as the lab
  // gives it; what they return is checked as arrays (arraysOutcome), a row-count mismatch between them
  // must be refused naming the file.
  safetensors_matrices: {
    name: 'f.safetensors',
    parse: (b, n) => safetensorsMatrices(new Blob([b as BlobPart]), n).then((a) => multi(a, n)),
  },
  parquet_matrices: { name: 'f.parquet', parse: (b, n) => parquetMatrices(arrayBuffer(b), n).then((a) => multi(a, n)) },
  npy_stream: {
    name: 'f.npy',
    parse: (b, n) => npyFloat32Matrix(new Blob([b as BlobPart]), n).then((a) => multi(a ? [a] : [], n)),
  },
};

/** Arrays read by a Compare reader, marked for arraysOutcome; a row-count mismatch is refused as the lab refuses it. */
function multi(arrays: NamedArray[], name: string): { arrays: NamedArray[] } {
  const problem = rowCountProblem(arrays.map((a) => ({ name: `${name}/${a.name}`, source: name, rows: a.shape[0] })));
  if (problem) throw problem;
  return { arrays };
}

/** A defect in the arrays of a Compare reader: each 2-D, more than one column, rows × width values, all finite. */
function arraysDefect(arrays: NamedArray[]): string | null {
  for (const a of arrays) {
    const [rows, cols] = a.shape;
    if (a.shape.length !== 2 || !Number.isSafeInteger(rows) || !Number.isSafeInteger(cols) || rows < 0 || cols < 2) {
      return `'${a.name}' has shape [${a.shape.join(', ')}]`;
    }
    if (!(a.data instanceof Float32Array || a.data instanceof Float64Array))
      return `'${a.name}' is not float32 or float64`;
    if (a.data.length !== rows * cols) return `'${a.name}' holds ${a.data.length} values for ${rows} × ${cols}`;
    for (const v of a.data) if (!Number.isFinite(v)) return `'${a.name}' passed a non-finite value (${v})`;
  }
  return null;
}

/** Valid files of each target: the e2e upload set plus the variants the readers branch on. */
export function seeds(): Record<string, Uint8Array[]> {
  const u = uploads();
  const bytes = (name: string) =>
    Object.values(u)
      .flat()
      .filter((f) => f.name === name)
      .map((f) => new Uint8Array(f.buffer));
  const f8 = Float64Array.from([1, 2, 3, 4, 5, 6]);
  const nullable = Array.from({ length: 16 }, (_, i) => (i % 3 ? i / 4 : null));
  return {
    npy: [
      ...bytes('emb.npy'),
      ...bytes('kind.npy'),
      npyBytes('>f8', [3, 2], f8, true),
      npyBytes('|u1', [2, 3], Uint8Array.from([0, 1, 2, 3, 4, 255])),
    ],
    npz: [...bytes('data.npz'), npzBytes({ 'x.npy': npyBytes('<f8', [3, 2], f8) }, false)],
    safetensors: bytes('data.safetensors'),
    parquet: [
      ...bytes('data.parquet'),
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'vector', data: nullable.map((_, i) => [i, i / 2, -i]) },
            { name: 'score', data: nullable, type: 'DOUBLE', nullable: true },
          ],
        }),
      ),
    ],
    csv: bytes('data.csv'),
    tsv: [...bytes('data.tsv'), ...bytes('vectors.tsv')],
    json: bytes('data.json'),
    jsonl: bytes('data.jsonl'),
    projector_config: [
      new TextEncoder().encode(
        JSON.stringify({
          embeddings: [
            {
              tensorName: 't',
              tensorShape: [4, 2],
              tensorPath: 't.bytes',
              metadataPath: 'm.tsv',
              sprite: { imagePath: 's.png', singleImageDim: [8, 8] },
            },
          ],
        }),
      ),
    ],
    projector_tensor: [new Uint8Array(Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]).buffer)],
    ...compareSeeds(),
  };
}

/**
 * Valid files of the Compare readers: .safetensors of several 2-D tensors (F32 read in place, F64 and
 * F16 through the whole-file reader, a 1-D and a one-column tensor skipped); Parquet with two list<float>
 * columns and a list<double> one beside scalar columns, one of 4,100 rows (two reads of 4,096 rows);
 * float32 .npy, one larger than a stream chunk of the Blob (64 KiB).
 */
function compareSeeds(): Record<string, Uint8Array[]> {
  const f32 = (n: number, at = 0) => Float32Array.from({ length: n }, (_, i) => Math.sin(i + at) * 4);
  const f64 = (n: number) => Float64Array.from({ length: n }, (_, i) => i / 8 - 1);
  const f16 = Uint16Array.from([0x3c00, 0x4000, 0xbc00, 0x3800, 0x0000, 0x4200]); // 1, 2, -1, 0.5, 0, 3
  const rowsOf = (data: ArrayLike<number>, cols: number) =>
    Array.from({ length: data.length / cols }, (_, i) => Array.from(data).slice(i * cols, (i + 1) * cols));
  const list = (name: string, type: 'FLOAT' | 'DOUBLE') =>
    [
      { name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type, repetition_type: 'REQUIRED' },
    ] as const;
  const parquet = (rows: number) =>
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: Array.from({ length: rows }, (_, i) => i) },
          { name: 'layer_0', data: rowsOf(f32(rows * 2), 2) },
          { name: 'layer_1', data: rowsOf(f32(rows * 3, 7), 3) },
          { name: 'layer_2', data: rowsOf(f64(rows * 2), 2) },
          { name: 'label', data: Array.from({ length: rows }, (_, i) => (i % 2 ? 'x' : 'y')) },
        ],
        schema: [
          { name: 'root', num_children: 5 },
          { name: 'id', type: 'INT32', repetition_type: 'OPTIONAL' },
          ...list('layer_0', 'FLOAT'),
          ...list('layer_1', 'FLOAT'),
          ...list('layer_2', 'DOUBLE'),
          { name: 'label', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
        ],
      }),
    );
  return {
    safetensors_matrices: [
      safetensorsBytes({
        a: { dtype: 'F32', shape: [3, 2], data: f32(6) },
        b: { dtype: 'F32', shape: [3, 4], data: f32(12, 3) },
        labels: { dtype: 'I64', shape: [3], data: BigInt64Array.from([1n, 0n, 1n]) },
        c: { dtype: 'F32', shape: [3, 1], data: f32(3) },
      }),
      safetensorsBytes({
        h: { dtype: 'F64', shape: [2, 3], data: f64(6) },
        g: { dtype: 'F16', shape: [2, 3], data: f16 },
      }),
    ],
    parquet_matrices: [parquet(6), parquet(4100)],
    npy_stream: [npyBytes('<f4', [3, 2], f32(6)), npyBytes('<f4', [2100, 8], f32(16800))],
  };
}

/**
 * Files each target must refuse (naming the file): the lies its readers were fixed to catch, kept in the
 * mutation pool beside the valid seeds so the fuzzer starts next to them. Parquet: every lie of
 * scripts/fixtures/make_parquet_lies.mjs (footer, row group, column chunk and page counts that disagree;
 * num_rows -1 and 2^31); .npz: a stored member with one data bit flipped (its CRC-32 no longer matches);
 * .npy: a 0-d array cut short; the Compare readers: embedding matrices of no rows ([-0, 3] among them).
 */
export function hostileSeeds(): Record<string, Uint8Array[]> {
  const lies = LIES.map((lie) => parquetLie(lie, { rows: 12, cols: 4, claimed: 15, scalar: lie === 'scalar_values' }));
  const member = npyBytes('<f8', [3, 2], Float64Array.from([1, 2, 3, 4, 5, 6]));
  const flipped = npzBytes({ 'x.npy': member }, false);
  // The stored member's last byte is the archive's last data byte before its central directory.
  const dataEnd = flipped.length - 22 - (46 + 'x.npy'.length);
  flipped[dataEnd - 1] ^= 0x10;
  const scalar = npyBytes('<f8', [], Float64Array.from([2.5]));
  const json = new TextEncoder().encode('{"emb":{"dtype":"F32","shape":[-0,3],"data_offsets":[0,0]}}');
  const minusZero = new Uint8Array(8 + json.length);
  new DataView(minusZero.buffer).setBigUint64(0, BigInt(json.length), true);
  minusZero.set(json, 8);
  return {
    parquet: lies,
    parquet_matrices: lies.filter((_, i) => LIES[i] !== 'scalar_values'),
    npz: [flipped],
    npy: [scalar.subarray(0, scalar.length - 4)],
    safetensors_matrices: [minusZero],
    npy_stream: [npyBytes('<f4', [0, 3], new Float32Array(0))],
  };
}

export type Outcome = { kind: 'parsed' | 'refused' } | { kind: 'defect'; detail: string };

/** What a parse of `bytes` did: parsed (and consistent), refused with a FileError naming the file, or a defect. */
export async function outcomeOf(target: string, bytes: Uint8Array): Promise<Outcome> {
  const { name, parse } = TARGETS[target];
  let result: unknown;
  try {
    result = await parse(bytes, name);
  } catch (error) {
    // An archive's member is named inside it: "f.npz/x.npy: ...".
    if (error instanceof FileError && (error.message.startsWith(`${name}: `) || error.message.startsWith(`${name}/`)))
      return { kind: 'refused' };
    if (error instanceof FileError)
      return { kind: 'defect', detail: `a message that does not name the file: ${error.message}` };
    return {
      kind: 'defect',
      detail: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    };
  }
  if (target === 'projector_config') return { kind: 'parsed' };
  if (result && typeof result === 'object' && 'arrays' in result) {
    const defect = arraysDefect((result as { arrays: NamedArray[] }).arrays);
    return defect ? { kind: 'defect', detail: defect } : { kind: 'parsed' };
  }
  const p = result as ParsedFile;
  const m = p.embeddings;
  if (m && (m.data.length !== m.rows * m.cols || !Number.isInteger(m.rows) || m.rows < 0 || m.cols < 0)) {
    return { kind: 'defect', detail: `embeddings of ${m.data.length} values for ${m.rows} × ${m.cols}` };
  }
  if (m && m.data.some((v) => !Number.isFinite(v))) return { kind: 'defect', detail: 'non-finite embeddings passed' };
  const short = p.columns.find((c) => c.values.length !== p.rows);
  if (short)
    return { kind: 'defect', detail: `column '${short.name}' has ${short.values.length} values for ${p.rows} rows` };
  return { kind: 'parsed' };
}

// The runner's end: a worker thread's port, or, for the targets run in a child process of their own
// (parquet_matrices: hyparquet's unbounded runs abort the whole Node process, which a worker thread
// cannot survive), the child's IPC channel (GPPROBE_FUZZ_CHILD=1, structured-clone serialisation).
type PortMessage = Outcome | { kind: 'ready' };
const child = process.env.GPPROBE_FUZZ_CHILD === '1' && typeof process.send === 'function';
const port = parentPort
  ? {
      on: (f: (m: { target: string; bytes: Uint8Array }) => void) => parentPort!.on('message', f),
      post: (m: PortMessage) => parentPort!.postMessage(m),
    }
  : child
    ? {
        on: (f: (m: { target: string; bytes: Uint8Array }) => void) => process.on('message', f),
        post: (m: PortMessage) => process.send!(m),
      }
    : null;
port?.on(async ({ target, bytes }) => {
  port.post(await outcomeOf(target, bytes));
});
// Loaded: the runner starts timing inputs only now (a loaded machine can take seconds to get here).
port?.post({ kind: 'ready' });
