// Threaded module only (--post-js): a pool thread may grow the shared memory, after which the views
// Module.HEAP* of the engine's thread are stale until Emscripten's own JS next touches the heap. The
// engine (web/src/engine/heap_block.ts) calls this before it reads or writes through the views.
Module['refreshHeapViews'] = function () {
  if (wasmMemory.buffer != buffer) updateGlobalBufferAndViews(wasmMemory.buffer);
};
