// One block of the wasm heap. The module addresses up to 4 GiB (MAXIMUM_MEMORY=4GB), so addresses and
// sizes are unsigned 32-bit numbers: `_malloc` returns addresses at and above 2 GiB as negative int32,
// which `>>> 0` turns back into the address; and a byte count of 2^32 or more would wrap when passed to
// the 32-bit `malloc`, so it is refused here as out of memory before the call.
import type { HeapAccess } from './generated/gpprobe.mjs';
import { GpprobeError } from './errors.ts';

/** The most the wasm heap can ever hold (the module's maximum memory). */
export const MAX_HEAP_BYTES = 2 ** 32;

function formatBytes(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/**
 * `bytes` of uninitialised heap, 8-byte aligned, as an unsigned address. Throws the GpprobeError
 * out_of_memory (naming `what`) when the heap cannot hold them; allocates nothing then.
 */
export function allocateBlock(module: HeapAccess, bytes: number, what: string): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new GpprobeError('invalid_argument', `${what} would need ${bytes} bytes, not a byte count`);
  }
  if (bytes >= MAX_HEAP_BYTES) {
    throw new GpprobeError('out_of_memory',
      `${what} would need ${formatBytes(bytes)}; the wasm heap holds ${formatBytes(MAX_HEAP_BYTES)} at most`);
  }
  const pointer = module._malloc(Math.max(bytes, 8)) >>> 0;
  if (pointer === 0) {
    throw new GpprobeError('out_of_memory',
      `cannot allocate ${formatBytes(bytes)} in the wasm heap for ${what} (it holds ${formatBytes(MAX_HEAP_BYTES)} at most; free some data first)`);
  }
  return pointer;
}

/**
 * The module with current HEAP* views: in the threaded module a pool thread may have grown the shared
 * memory since this thread last looked (the single-threaded module's views are always current).
 */
export function heapViews(module: HeapAccess): HeapAccess {
  module.refreshHeapViews?.();
  return module;
}

/** Copies `data` to the block at `pointer` (unsigned, aligned for the element type). */
export function writeBlock(module: HeapAccess, pointer: number, data: Float32Array | Float64Array | Uint8Array): void {
  // Views are taken after malloc: growing the heap replaces the buffer behind HEAP*.
  const heap = heapViews(module);
  if (data instanceof Float64Array) heap.HEAPF64.set(data, pointer / 8);
  else if (data instanceof Float32Array) heap.HEAPF32.set(data, pointer / 4);
  else heap.HEAPU8.set(data, pointer);
}

/** A newly allocated block holding a copy of `data`; nothing stays allocated if the copy fails. */
export function copyToBlock(module: HeapAccess, data: Float32Array | Float64Array | Uint8Array, what: string): number {
  const pointer = allocateBlock(module, data.byteLength, what);
  try {
    writeBlock(module, pointer, data);
  } catch (error) {
    module._free(pointer);
    throw error;
  }
  return pointer;
}
