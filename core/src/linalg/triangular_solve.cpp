#include "linalg/triangular_solve.h"

#include <algorithm>

#include "gpprobe/linalg/row_products.h"

#include "linalg/lanes.h"

namespace gpprobe {

void solve_lower_rows(const double* L, std::size_t n, double* B, std::size_t k) {
  constexpr std::size_t kPanel = 64;
  for (std::size_t first = 0; first < n; first += kPanel) {
    const std::size_t width = std::min(kPanel, n - first);
    // B[:, panel] -= B[:, 0:first] L[panel, 0:first]'.
    if (first > 0) add_product_transposed(B, n, L + first * n, n, k, width, first, -1.0, B + first, n);
    // The diagonal block: x_t = (b_t - L[t, panel start .. t) . x[panel start .. t)) / L[t, t], row by row.
    for (std::size_t r = 0; r < k; ++r) {
      double* x = B + r * n + first;
      for (std::size_t t = 0; t < width; ++t) {
        const double* row = L + (first + t) * n + first;
        x[t] = (x[t] - lanes_dot(row, x, t)) / row[t];
      }
    }
  }
}

}  // namespace gpprobe
