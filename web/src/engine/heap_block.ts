// One block of the wasm heap. The module addresses up to 4 GiB (MAXIMUM_MEMORY=4GB), so addresses and
// sizes are unsigned 32-bit numbers: `_malloc` returns addresses at and above 2 GiB as negative int32,
// which `>>> 0` turns back into the address; and a byte count of 2^32 or more would wrap when passed to
// the 32-bit `malloc`, so it is refused here as out of memory before the call.
//
// One block of 2 GiB or more (issue 23, item 7): the single-threaded module's allocator (Emscripten's
// dlmalloc) asks sbrk for less than 2 GiB at a time (HALF_MAX_SIZE_T: sbrk's increment is signed), so on
// a fresh heap any block above 2^31 − 3,844 bytes failed, however empty the heap. When such a block fails,
// the heap is grown first by blocks of 1 GiB, which are freed at once and join the allocator's free top,
// and the block is asked for again: blocks up to the 4 GiB heap less the module's own memory work. A
// block that still fails is refused with the largest one the heap can give now (found by halving), and
// "free some data first" only when data in the heap is what stands in the way.
import type { HeapAccess } from './generated/gpprobe.mjs';
import { GpprobeError } from './errors.ts';

/** The most the wasm heap can ever hold (the module's maximum memory). */
export const MAX_HEAP_BYTES = 2 ** 32;

function formatBytes(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/** The blocks the heap is grown by before a large block is asked for again: below dlmalloc's 2 GiB. */
const GROWTH_STEP = 2 ** 30;
/** Blocks smaller than this never need growing first (dlmalloc's limit is 2^31 − 3,844 bytes on a fresh heap). */
const LARGE_BLOCK = 2 ** 30;
/** The module's own memory (code data, stack, allocator state) is below this: a heap with a free block
 * this close to its maximum holds no data to free. */
const OWN_MEMORY = 64 * 2 ** 20;

/**
 * malloc, and for a large block that fails, the heap grown by blocks of 1 GiB (and smaller near the
 * maximum), freed again at once so they join the allocator's free top, and malloc once more.
 */
function mallocLarge(module: HeapAccess, bytes: number): number {
  const pointer = module._malloc(Math.max(bytes, 8)) >>> 0;
  if (pointer !== 0 || bytes < LARGE_BLOCK) return pointer;
  const steps: number[] = [];
  try {
    // 1 GiB at a time, then halves of that as the heap nears its maximum, down to 64 KiB.
    for (let grown = 0, size = GROWTH_STEP; grown < bytes + GROWTH_STEP && size >= 2 ** 16;) {
      const step = module._malloc(size) >>> 0;
      if (step === 0) {
        size /= 2;
        continue;
      }
      steps.push(step);
      grown += size;
    }
  } finally {
    for (const step of steps) module._free(step);
  }
  return steps.length === 0 ? 0 : module._malloc(bytes) >>> 0;
}

/**
 * The largest block the heap can give now, to 64 KiB (allocated and freed again by halving): what a
 * refused block's message names as the size that works.
 */
export function largestBlock(module: HeapAccess): number {
  const unit = 2 ** 16;
  let lo = 0,
    hi = MAX_HEAP_BYTES / unit; // in units: lo works (or is 0), hi does not
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const pointer = mallocLarge(module, mid * unit);
    if (pointer === 0) {
      hi = mid;
    } else {
      module._free(pointer);
      lo = mid;
    }
  }
  return lo * unit;
}

/**
 * `bytes` of uninitialised heap, 8-byte aligned, as an unsigned address. Throws the GpprobeError
 * out_of_memory (naming `what`, and the largest block that works now) when the heap cannot hold them;
 * allocates nothing then.
 */
export function allocateBlock(module: HeapAccess, bytes: number, what: string): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new GpprobeError('invalid_argument', `${what} would need ${bytes} bytes, not a byte count`);
  }
  if (bytes >= MAX_HEAP_BYTES) {
    throw new GpprobeError(
      'out_of_memory',
      `${what} would need ${formatBytes(bytes)}; the wasm heap holds ${formatBytes(MAX_HEAP_BYTES)} at most`,
    );
  }
  const pointer = mallocLarge(module, bytes);
  if (pointer === 0) {
    const largest = largestBlock(module);
    const cause =
      largest >= MAX_HEAP_BYTES - OWN_MEMORY
        ? `one block can be at most ${formatBytes(largest)} (${largest} bytes): the heap holds ${formatBytes(MAX_HEAP_BYTES)} at most, less the module's own memory`
        : `the largest free block is ${formatBytes(largest)} (${largest} bytes) now, of a heap that holds ${formatBytes(MAX_HEAP_BYTES)} at most; free some data first`;
    throw new GpprobeError(
      'out_of_memory',
      `cannot allocate ${formatBytes(bytes)} in the wasm heap for ${what}: ${cause}`,
    );
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
