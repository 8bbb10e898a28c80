// The loop of the blocked products C (+)= A B' (row_products.cpp in float64, float32_products.cpp in
// float32 with float64 sums): k in chunks of KC values, the rows of B in panels of NC, the rows of A four
// at a time and the last one to three as one smaller block. block(rows, i, j0, p0, nc, kc) computes the
// block of C at rows [i, i + rows) and columns [j0, j0 + nc) from the chunk [p0, p0 + kc) of k; `rows` is
// a std::integral_constant<int, R>, so each kernel keeps its row count at compile time. Private to
// core/src.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace gpprobe {

template <std::size_t KC, std::size_t NC, class Block>
inline void for_row_blocks(std::size_t m, std::size_t n, std::size_t k, Block&& block) {
  for (std::size_t p0 = 0; p0 < k; p0 += KC) {
    const std::size_t kc = std::min(KC, k - p0);
    for (std::size_t j0 = 0; j0 < n; j0 += NC) {
      const std::size_t nc = std::min(NC, n - j0);
      std::size_t i = 0;
      for (; i + 4 <= m; i += 4) block(std::integral_constant<int, 4>{}, i, j0, p0, nc, kc);
      switch (m - i) {
        case 3:
          block(std::integral_constant<int, 3>{}, i, j0, p0, nc, kc);
          break;
        case 2:
          block(std::integral_constant<int, 2>{}, i, j0, p0, nc, kc);
          break;
        case 1:
          block(std::integral_constant<int, 1>{}, i, j0, p0, nc, kc);
          break;
        default:
          break;
      }
    }
  }
}

}  // namespace gpprobe
