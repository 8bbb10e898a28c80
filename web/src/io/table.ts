// What file parsers produce: embeddings (one row per item) and metadata columns (one value per item).
import type { Matrix } from '../engine/matrix.ts';

export type Column =
  { name: string; kind: 'number'; values: Float64Array } | { name: string; kind: 'string'; values: string[] };

/** Embeddings and/or metadata read from one file. */
export interface ParsedFile {
  fileName: string;
  /** Row-major embeddings; float32 files stay float32, float64 stay float64. */
  embeddings?: Matrix;
  columns: Column[];
  /** Column names the embedding dimensions came from, when they were named columns of a table. */
  dimensionNames?: string[];
  /** Rows described by the metadata columns (equals embeddings.rows when both are present). */
  rows: number;
  /** What the parser chose or skipped, for the user to read ("ignored 'classes': 10 values"). */
  notes: string[];
  /** The cells of line 1 when a delimited file's first line was taken as its header (none: no header). */
  header?: string[];
}

/** A problem with a file, with a message that names it: "x.csv: line 4 has 3 columns, line 2 has 4". */
export class FileError extends Error {
  readonly fileName: string;
  constructor(fileName: string, problem: string) {
    super(`${fileName}: ${problem}`);
    this.name = 'FileError';
    this.fileName = fileName;
  }
}

/** Larger files than this are refused before reading (uploads and downloads): a browser tab cannot hold them. */
export const MAX_FILE_BYTES = 1.5 * 2 ** 30;

/** "1.5 GB" or "12.3 MB", for messages about sizes. */
export function formatSize(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/** "x.npy: is 2.0 GB; the browser can load files up to 1.5 GB (...)". */
export function tooLarge(fileName: string, bytes: number): FileError {
  return new FileError(
    fileName,
    `is ${formatSize(bytes)}; the browser can load files up to ${formatSize(MAX_FILE_BYTES)} (try float32 .npy, or fewer rows)`,
  );
}

/** Called while a file is read or parsed: fraction in [0, 1]. */
export type ParseProgress = (fraction: number) => void;

export interface ParseOptions {
  onProgress?: ParseProgress;
  signal?: AbortSignal;
}

/** Throws FileError "<file>: loading cancelled" once `signal` is aborted (readers call it between chunks). */
export function checkAborted(signal: AbortSignal | undefined, fileName: string): void {
  if (signal?.aborted) throw new FileError(fileName, 'loading cancelled');
}

/** Checks every value of a matrix is finite; names the file and the element (its row counted from `firstRow`). */
export function checkFiniteEmbeddings(
  fileName: string,
  m: { data: Float32Array | Float64Array; cols: number },
  where = 'element',
  firstRow = 0,
): void {
  const { data, cols } = m;
  for (let k = 0; k < data.length; k++) {
    const v = data[k];
    if (v - v !== 0) {
      const what = Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
      throw new FileError(fileName, `${where} [${firstRow + Math.floor(k / cols)}, ${k % cols}] is ${what}`);
    }
  }
}
