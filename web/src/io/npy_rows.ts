// Rows of a 2-D float .npy file read from the file itself, a slice at a time (Blob.slice), for
// embeddings too large to hold whole: a 1,000,000 x 768 float32 file is 3 GB, more than the wasm heap.
// The header is read and checked once (npy.ts); every read after that returns float32 rows as float32
// and float64 rows as float64 in C order, byte-swapped when the file is big-endian.
import type { Matrix } from '../engine/matrix.ts';
import { npyLayout } from './npy.ts';
import { checkFiniteEmbeddings, FileError } from './table.ts';

/** Bytes enough for any .npy header we accept. */
const HEAD_BYTES = 1 << 16;

export class NpyRows {
  readonly fileName: string;
  readonly rows: number;
  readonly cols: number;
  readonly dtype: 32 | 64;
  readonly #blob: Blob;
  readonly #dataStart: number;
  readonly #little: boolean;

  /** @internal Use openNpyRows. */
  constructor(
    blob: Blob,
    fileName: string,
    layout: { rows: number; cols: number; dtype: 32 | 64; dataStart: number; little: boolean },
  ) {
    this.#blob = blob;
    this.fileName = fileName;
    this.rows = layout.rows;
    this.cols = layout.cols;
    this.dtype = layout.dtype;
    this.#dataStart = layout.dataStart;
    this.#little = layout.little;
  }

  get rowBytes(): number {
    return this.cols * (this.dtype / 8);
  }

  /** Bytes of the embeddings (the file less its header). */
  get dataBytes(): number {
    return this.rows * this.rowBytes;
  }

  /**
   * Rows [first, first + count) as a matrix, values unchecked: the core refuses non-finite queries
   * itself (faster than a pass in JS over gigabytes), and nonFiniteError names what it refused.
   */
  async readRows(first: number, count: number): Promise<Matrix> {
    if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > this.rows) {
      throw new FileError(this.fileName, `rows ${first} to ${first + count} are outside the file (${this.rows} rows)`);
    }
    const start = this.#dataStart + first * this.rowBytes;
    let buffer: ArrayBuffer;
    try {
      buffer = await this.#blob.slice(start, start + count * this.rowBytes).arrayBuffer();
    } catch (error) {
      // A browser refuses to read a file that changed or moved since it was chosen (NotReadableError).
      throw new FileError(
        this.fileName,
        `could not be read at rows ${first} to ${first + count} (${(error as Error).message}); ` +
          'was it changed or moved since it was chosen? Choose it again',
      );
    }
    if (buffer.byteLength !== count * this.rowBytes) {
      // The file changed (or was cut short) after its header was checked.
      throw new FileError(
        this.fileName,
        `truncated: rows ${first} to ${first + count} end past the file's ${this.#blob.size} bytes`,
      );
    }
    return { data: this.#values(buffer, count * this.cols), rows: count, cols: this.cols };
  }

  /**
   * The error naming the first non-finite value of `rows` (rows `first`... of this file) by the file and
   * its row in the whole file, as the in-memory reader names it at load time; null when every value is finite.
   */
  nonFiniteError(rows: Matrix, first: number): FileError | null {
    try {
      checkFiniteEmbeddings(this.fileName, rows, 'element', first);
      return null;
    } catch (error) {
      return error as FileError;
    }
  }

  /** Rows [first, first + count), every value checked finite (a FileError naming the element otherwise). */
  async readCheckedRows(first: number, count: number): Promise<Matrix> {
    const rows = await this.readRows(first, count);
    const error = this.nonFiniteError(rows, first);
    if (error) throw error;
    return rows;
  }

  /**
   * The rows `indices` (any order, repeats allowed) as a matrix, in that order, every value checked
   * finite: one read per run of nearby rows.
   */
  async gatherRows(indices: ArrayLike<number>): Promise<Matrix> {
    const out =
      this.dtype === 32 ? new Float32Array(indices.length * this.cols) : new Float64Array(indices.length * this.cols);
    const order = Array.from({ length: indices.length }, (_, k) => k).sort((a, b) => indices[a] - indices[b]);
    for (const i of Array.from(indices)) {
      if (!Number.isInteger(i) || i < 0 || i >= this.rows)
        throw new FileError(this.fileName, `row ${i} is outside the file (${this.rows} rows)`);
    }
    for (let k = 0; k < order.length;) {
      const first = indices[order[k]];
      let end = k + 1;
      // Rows close together share one read (a few rows between them read and dropped).
      while (
        end < order.length &&
        indices[order[end]] - indices[order[end - 1]] <= 64 &&
        indices[order[end]] - first < 4096
      )
        end++;
      const last = indices[order[end - 1]];
      const run = await this.readCheckedRows(first, last - first + 1);
      for (let j = k; j < end; j++) {
        const r = indices[order[j]] - first;
        out.set(run.data.subarray(r * this.cols, (r + 1) * this.cols), order[j] * this.cols);
      }
      k = end;
    }
    return { data: out, rows: indices.length, cols: this.cols };
  }

  #values(buffer: ArrayBuffer, count: number): Float32Array | Float64Array {
    if (this.#little) return this.dtype === 32 ? new Float32Array(buffer) : new Float64Array(buffer);
    const view = new DataView(buffer);
    const out = this.dtype === 32 ? new Float32Array(count) : new Float64Array(count);
    for (let k = 0; k < count; k++)
      out[k] = this.dtype === 32 ? view.getFloat32(4 * k, false) : view.getFloat64(8 * k, false);
    return out;
  }
}

/**
 * The rows of `blob` when it is a .npy file of 2-D float32 or float64 embeddings in C order, its header
 * checked against its size; null when it is a .npy file of some other kind (other dtypes, Fortran
 * order, other shapes: the in-memory reader handles those). Throws FileError naming the file when the
 * header is damaged or the file shorter than the header promises.
 */
export async function openNpyRows(blob: Blob, fileName: string): Promise<NpyRows | null> {
  const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
  const layout = npyLayout(head, blob.size, fileName);
  if (layout.kind !== 'f' || (layout.itemsize !== 4 && layout.itemsize !== 8)) return null;
  if (layout.fortran || layout.shape.length !== 2 || layout.shape[1] < 2) return null;
  return new NpyRows(blob, fileName, {
    rows: layout.shape[0],
    cols: layout.shape[1],
    dtype: layout.itemsize === 4 ? 32 : 64,
    dataStart: layout.dataStart,
    little: layout.little,
  });
}
