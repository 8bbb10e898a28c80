#include "linalg/signed_lower_products.h"

#include <algorithm>

#include "linalg/lanes.h"

namespace gpprobe {

void signed_lower_products(const double* M, std::size_t n, const double* V, std::size_t m, double* P, double* N,
                           std::size_t column, double* transposed) {
  const std::size_t chunks = (m + kLaneCount - 1) / kLaneCount;
  // V in chunks of four columns, each chunk n rows of four (zero-padded): one load per row and chunk.
  std::vector<double> packed(chunks * n * kLaneCount, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) packed[((j / kLaneCount) * n + i) * kLaneCount + j % kLaneCount] = V[i * m + j];
  if (transposed) std::fill(transposed, transposed + n, 0.0);
  std::vector<double> plus(n), minus(n);
  for (std::size_t r = 0; r < n; ++r) {
    const double* row = M + r * n;
    for (std::size_t i = 0; i <= r; ++i) {
      plus[i] = row[i] > 0.0 ? row[i] : 0.0;
      minus[i] = row[i] - plus[i];
    }
    for (std::size_t c = 0; c < chunks; ++c) {
      const double* v = packed.data() + c * n * kLaneCount;
      // Four independent pairs of accumulators, so the additions' latency overlaps.
      Lanes p[4] = {}, q[4] = {};
      std::size_t i = 0;
      for (; i + 4 <= r + 1; i += 4) {
        for (std::size_t u = 0; u < 4; ++u) {
          const Lanes vi = load(v + (i + u) * kLaneCount);
          p[u] += splat(plus[i + u]) * vi;
          q[u] += splat(minus[i + u]) * vi;
        }
      }
      for (; i <= r; ++i) {
        const Lanes vi = load(v + i * kLaneCount);
        p[0] += splat(plus[i]) * vi;
        q[0] += splat(minus[i]) * vi;
      }
      p[0] = (p[0] + p[1]) + (p[2] + p[3]);
      q[0] = (q[0] + q[1]) + (q[2] + q[3]);
      for (std::size_t w = 0; w < kLaneCount && c * kLaneCount + w < m; ++w) {
        P[r * m + c * kLaneCount + w] = p[0][w];
        N[r * m + c * kLaneCount + w] = q[0][w];
      }
    }
    if (transposed) {
      // t_i += M_ri y_r for i <= r.
      const double y = P[r * m + column] + N[r * m + column];
      const Lanes s = splat(y);
      std::size_t i = 0;
      for (; i + kLaneCount <= r + 1; i += kLaneCount) store(transposed + i, load(transposed + i) + s * load(row + i));
      for (; i <= r; ++i) transposed[i] += y * row[i];
    }
  }
}

}  // namespace gpprobe
