// A matrix copied into the wasm heap once and used by many engine calls (scoring after every change
// of the observations, PCA) without crossing the boundary again. Row-major, float32 or float64.
import type { HeapAccess } from './generated/gpprobe.mjs';
import { GpprobeError } from './errors.ts';
import { copyToBlock, heapViews } from './heap_block.ts';
import { checkMatrix, type Matrix } from './matrix.ts';

export class ResidentMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly dtype: 32 | 64;
  readonly #module: HeapAccess;
  #pointer: number;

  /** @internal Use ProbeEngine.upload. */
  constructor(module: HeapAccess, m: Matrix, what: string) {
    checkMatrix(what, m);
    this.#module = module;
    this.rows = m.rows;
    this.cols = m.cols;
    this.dtype = m.data instanceof Float32Array ? 32 : 64;
    this.#pointer = copyToBlock(module, m.data, what);
  }

  /** @internal Heap address of row `first`. */
  pointer(first = 0): number {
    if (this.#pointer === 0) throw new GpprobeError('disposed', 'this resident matrix was disposed');
    return this.#pointer + first * this.cols * (this.dtype / 8);
  }

  get disposed(): boolean {
    return this.#pointer === 0;
  }

  /** A copy of the given rows (same precision), e.g. the observations among all embeddings. */
  gatherRows(indices: ArrayLike<number>): Matrix {
    const base = this.pointer();
    const out =
      this.dtype === 32 ? new Float32Array(indices.length * this.cols) : new Float64Array(indices.length * this.cols);
    const views = heapViews(this.#module);
    const heap = this.dtype === 32 ? views.HEAPF32 : views.HEAPF64;
    const start = base / (this.dtype / 8);
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k];
      if (!Number.isInteger(i) || i < 0 || i >= this.rows) {
        throw new GpprobeError('invalid_argument', `row ${i} is outside the matrix (${this.rows} rows)`);
      }
      out.set(heap.subarray(start + i * this.cols, start + (i + 1) * this.cols), k * this.cols);
    }
    return { data: out, rows: indices.length, cols: this.cols };
  }

  /** @internal The matrix as a view of the wasm heap, valid until the heap next grows (any allocation). */
  view(): Matrix {
    const views = heapViews(this.#module);
    const heap = this.dtype === 32 ? views.HEAPF32 : views.HEAPF64;
    const start = this.pointer() / (this.dtype / 8);
    return { data: heap.subarray(start, start + this.rows * this.cols), rows: this.rows, cols: this.cols };
  }

  dispose(): void {
    if (this.#pointer !== 0) this.#module._free(this.#pointer);
    this.#pointer = 0;
  }
}

/** What engine calls accept: a plain matrix (copied for the call) or one resident in the heap. */
export type MatrixInput = Matrix | ResidentMatrix;
