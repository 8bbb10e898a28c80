// One small labelled dataset written in every format the app reads, for the upload tests.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { npyBytes, npzBytes, safetensorsBytes } from '../web/fixtures.ts';

export const ROWS = 60;
export const COLS = 6;

/** Deterministic embeddings: two clusters along the first axis, plus a label column "kind". */
export function dataset(): { x: number[][]; kind: string[] } {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const x: number[][] = [],
    kind: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const positive = i % 3 === 0;
    x.push(Array.from({ length: COLS }, (_, j) => Number(((j === 0 ? (positive ? 1.5 : -1) : 0) + next()).toFixed(6))));
    kind.push(positive ? 'cat' : 'dog');
  }
  return { x, kind };
}

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const file = (name: string, content: Uint8Array | string, mimeType = 'application/octet-stream'): UploadFile => ({
  name,
  mimeType,
  buffer: Buffer.from(typeof content === 'string' ? new TextEncoder().encode(content) : content),
});

/** Each format as the files a user would choose together. */
export function uploads(): Record<string, UploadFile[]> {
  const { x, kind } = dataset();
  const flat = Float32Array.from(x.flat());
  const kindCodes = BigInt64Array.from(kind.map((k) => (k === 'cat' ? 1n : 0n)));
  const header = [...Array(COLS).keys()].map((j) => `x${j}`).join(',');
  const csv = `${header},kind\n` + x.map((r, i) => `${r.join(',')},${kind[i]}`).join('\n') + '\n';
  return {
    npy: [file('emb.npy', npyBytes('<f4', [ROWS, COLS], flat)), file('kind.npy', npyBytes('<i8', [ROWS], kindCodes))],
    npz: [
      file(
        'data.npz',
        npzBytes({
          'embeddings.npy': npyBytes('<f4', [ROWS, COLS], flat),
          'kind.npy': npyBytes('<i8', [ROWS], kindCodes),
        }),
      ),
    ],
    csv: [file('data.csv', csv, 'text/csv')],
    tsv: [file('data.tsv', csv.replace(/,/g, '\t'), 'text/tab-separated-values')],
    projector: [
      file('vectors.tsv', x.map((r) => r.join('\t')).join('\n') + '\n'),
      file('metadata.tsv', kind.join('\n') + '\n'),
    ],
    json: [file('data.json', JSON.stringify(x.map((v, i) => ({ embedding: v, kind: kind[i] }))), 'application/json')],
    jsonl: [file('data.jsonl', x.map((v, i) => JSON.stringify({ embedding: v, kind: kind[i] })).join('\n') + '\n')],
    safetensors: [
      file(
        'data.safetensors',
        safetensorsBytes({
          embeddings: { dtype: 'F32', shape: [ROWS, COLS], data: flat },
          kind: { dtype: 'I64', shape: [ROWS], data: kindCodes },
        }),
      ),
    ],
    parquet: [
      file(
        'data.parquet',
        new Uint8Array(
          parquetWriteBuffer({
            columnData: [
              { name: 'embedding', data: x.map((r) => Float32Array.from(r)).map((r) => Array.from(r)) },
              { name: 'kind', data: kind, type: 'STRING' },
            ],
          }),
        ),
      ),
    ],
  };
}
