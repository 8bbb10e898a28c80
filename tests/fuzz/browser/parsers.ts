// The browser parsers as fuzz targets (scripts/test/fuzz_browser_parsers.mjs bundles this file for Node):
// each format's parser called directly — not through load_files.ts, whose catch-all would hide a
// parser's own TypeError behind "could not be read" — with valid seed files of that format. In a
// worker thread the module answers {target, bytes} with what the parser did; the runner times it.
import { parentPort } from 'node:worker_threads';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parseDelimitedText } from '../../../web/src/io/delimited.ts';
import { parseJson, parseJsonLines } from '../../../web/src/io/json.ts';
import { fromArrays } from '../../../web/src/io/arrays.ts';
import { parseNpy } from '../../../web/src/io/npy.ts';
import { parseNpz } from '../../../web/src/io/npz.ts';
import { readParquet } from '../../../web/src/io/parquet.ts';
import { parseProjectorConfig, parseTensorBytes } from '../../../web/src/io/projector.ts';
import { parseSafetensors } from '../../../web/src/io/safetensors.ts';
import { FileError, type ParsedFile } from '../../../web/src/io/table.ts';
import { uploads } from '../../e2e/formats.ts';
import { npyBytes, npzBytes } from '../../web/fixtures.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const arrayBuffer = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

interface Target {
  name: string;  // the file name the parser is given (its messages must name it)
  parse(bytes: Uint8Array, name: string): ParsedFile | unknown | Promise<ParsedFile | unknown>;
}

export const TARGETS: Record<string, Target> = {
  npy: { name: 'f.npy', parse: (b, n) => { const a = parseNpy(b, n); return fromArrays(n, [{ name: 'x', shape: a.shape, data: a.data }]); } },
  npz: { name: 'f.npz', parse: (b, n) => parseNpz(b, n, 64 * 2 ** 20) },
  safetensors: { name: 'f.safetensors', parse: parseSafetensors },
  parquet: { name: 'f.parquet', parse: (b, n) => readParquet(arrayBuffer(b), n) },
  csv: { name: 'f.csv', parse: (b, n) => parseDelimitedText(text(b), n) },
  tsv: { name: 'f.tsv', parse: (b, n) => parseDelimitedText(text(b), n) },
  json: { name: 'f.json', parse: (b, n) => parseJson(text(b), n) },
  jsonl: { name: 'f.jsonl', parse: (b, n) => parseJsonLines(text(b), n) },
  projector_config: { name: 'projector_config.json', parse: (b, n) => parseProjectorConfig(text(b), 'https://example.org/p/projector_config.json', n) },
  projector_tensor: { name: 'f.bytes', parse: (b, n) => parseTensorBytes(b, [4, 2], n) },
};

/** Valid files of each target: the e2e upload set plus the variants the readers branch on. */
export function seeds(): Record<string, Uint8Array[]> {
  const u = uploads();
  const bytes = (name: string) => Object.values(u).flat().filter((f) => f.name === name).map((f) => new Uint8Array(f.buffer));
  const f8 = Float64Array.from([1, 2, 3, 4, 5, 6]);
  const nullable = Array.from({ length: 16 }, (_, i) => (i % 3 ? i / 4 : null));
  return {
    npy: [...bytes('emb.npy'), ...bytes('kind.npy'), npyBytes('>f8', [3, 2], f8, true), npyBytes('|u1', [2, 3], Uint8Array.from([0, 1, 2, 3, 4, 255]))],
    npz: [...bytes('data.npz'), npzBytes({ 'x.npy': npyBytes('<f8', [3, 2], f8) }, false)],
    safetensors: bytes('data.safetensors'),
    parquet: [...bytes('data.parquet'), new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'vector', data: nullable.map((_, i) => [i, i / 2, -i]) },
      { name: 'score', data: nullable, type: 'DOUBLE', nullable: true },
    ] }))],
    csv: bytes('data.csv'),
    tsv: [...bytes('data.tsv'), ...bytes('vectors.tsv')],
    json: bytes('data.json'),
    jsonl: bytes('data.jsonl'),
    projector_config: [new TextEncoder().encode(JSON.stringify({ embeddings: [
      { tensorName: 't', tensorShape: [4, 2], tensorPath: 't.bytes', metadataPath: 'm.tsv', sprite: { imagePath: 's.png', singleImageDim: [8, 8] } }] }))],
    projector_tensor: [new Uint8Array(Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]).buffer)],
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
    if (error instanceof FileError && (error.message.startsWith(`${name}: `) || error.message.startsWith(`${name}/`))) return { kind: 'refused' };
    if (error instanceof FileError) return { kind: 'defect', detail: `a message that does not name the file: ${error.message}` };
    return { kind: 'defect', detail: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  }
  const p = result as ParsedFile;
  if (target === 'projector_config') return { kind: 'parsed' };
  const m = p.embeddings;
  if (m && (m.data.length !== m.rows * m.cols || !Number.isInteger(m.rows) || m.rows < 0 || m.cols < 0)) {
    return { kind: 'defect', detail: `embeddings of ${m.data.length} values for ${m.rows} × ${m.cols}` };
  }
  if (m && m.data.some((v) => !Number.isFinite(v))) return { kind: 'defect', detail: 'non-finite embeddings passed' };
  const short = p.columns.find((c) => c.values.length !== p.rows);
  if (short) return { kind: 'defect', detail: `column '${short.name}' has ${short.values.length} values for ${p.rows} rows` };
  return { kind: 'parsed' };
}

parentPort?.on('message', async ({ target, bytes }: { target: string; bytes: Uint8Array }) => {
  parentPort!.postMessage(await outcomeOf(target, bytes));
});
// Loaded: the runner starts timing inputs only now (a loaded machine can take seconds to get here).
parentPort?.postMessage({ kind: 'ready' });
