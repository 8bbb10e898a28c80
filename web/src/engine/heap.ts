// Copies between JavaScript typed arrays and the wasm heap: whole arrays, once, freed together.
import type { HeapAccess } from './generated/gpprobe.mjs';
import { throwIfFailed } from './errors.ts';
import { allocateBlock, copyToBlock, heapViews } from './heap_block.ts';
import { checkMatrix } from './matrix.ts';
import { ResidentMatrix, type MatrixInput } from './resident_matrix.ts';

/** Allocations for one engine call; free() releases them all (call it in a finally block). */
export class HeapScope {
  readonly #module: HeapAccess;
  readonly #pointers: number[] = [];

  constructor(module: HeapAccess) {
    this.#module = module;
  }

  /** `bytes` of uninitialised heap, 8-byte aligned (heap_block.ts). `what` names the buffer in an out-of-memory error. */
  allocate(bytes: number, what: string): number {
    const pointer = allocateBlock(this.#module, bytes, what);
    this.#pointers.push(pointer);
    return pointer;
  }

  /** Copies `data` into the heap and returns its address. */
  copyIn(data: Float32Array | Float64Array | Uint8Array, what: string): number {
    const pointer = copyToBlock(this.#module, data, what);
    this.#pointers.push(pointer);
    return pointer;
  }

  /** Heap address and shape of `m`: resident matrices are used in place, plain ones copied in. */
  matrix(m: MatrixInput, what: string): { pointer: number; rows: number; cols: number; dtype: 32 | 64 } {
    if (m instanceof ResidentMatrix) return { pointer: m.pointer(), rows: m.rows, cols: m.cols, dtype: m.dtype };
    checkMatrix(what, m);
    return { pointer: this.copyIn(m.data, what), rows: m.rows, cols: m.cols, dtype: dtypeOf(m.data) };
  }

  /** A copy of `count` doubles at `pointer`. */
  readFloat64(pointer: number, count: number): Float64Array {
    return heapViews(this.#module).HEAPF64.slice(pointer / 8, pointer / 8 + count);
  }

  readUint8(pointer: number, count: number): Uint8Array {
    return heapViews(this.#module).HEAPU8.slice(pointer, pointer + count);
  }

  free(): void {
    for (const pointer of this.#pointers) this.#module._free(pointer);
    this.#pointers.length = 0;
  }
}

/**
 * A handle of the module filled by one binding call: `fill` gets a fresh heap scope for copies of its
 * inputs and returns the call's status. On any failure the handle is deleted and the error thrown (a
 * failed fit leaves nothing behind); the heap scope is freed either way.
 */
export function filledHandle<H extends { delete(): void }>(
  module: HeapAccess,
  handle: H,
  fill: (heap: HeapScope) => { code: string; message: string },
): H {
  const heap = new HeapScope(module);
  try {
    throwIfFailed(fill(heap));
  } catch (error) {
    handle.delete();
    throw error;
  } finally {
    heap.free();
  }
  return handle;
}

export function dtypeOf(data: Float32Array | Float64Array): 32 | 64 {
  return data instanceof Float32Array ? 32 : 64;
}
