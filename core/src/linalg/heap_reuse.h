// The hyperparameter fits allocate dozens of n by n temporaries per evaluation (each factorisation, E_c,
// the gradient's products) and free them again. glibc's defaults hand each block of more than 128 KiB
// back to the system (mmap, or a trim of the heap's top) and the next evaluation faults it in again, page
// by page and zeroed: a fifth of the multi-class fit's CPU on 300 points. keep_freed_blocks() raises both
// thresholds once per process (blocks up to 32 MiB come from the heap; the heap is trimmed only beyond
// 256 MiB free), so the freed blocks are reused; the process keeps its peak heap. Elsewhere (WebAssembly's
// memory never shrinks) it does nothing. Private to core/src.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpprobe {

inline void keep_freed_blocks() {
#if defined(__GLIBC__)
  static const bool kept = [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return true;
  }();
  (void)kept;
#endif
}

}  // namespace gpprobe
