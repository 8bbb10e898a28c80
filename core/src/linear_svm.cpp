#include "gpprobe/linear_svm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "gpprobe/linear_probe.h"
#include "gpprobe/random_stream.h"
#include "input_checks.h"

namespace gpprobe {

using Eigen::Index;

Result<LinearSvm> LinearSvm::fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                                 const LinearSvmOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_positive("C", options.C));
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, "svm needs observations of both classes"));
  const std::size_t O = observations.rows(), d = observations.cols(), D = d + 1;
  const double C = options.C;

  // x~_i = [x_i; 1], row-major O by D, and the diagonal Q_ii = |x~_i|².
  std::vector<double> X(O * D);
  for (std::size_t i = 0; i < O; ++i) {
    observations.copy_rows(i, 1, &X[i * D]);
    X[i * D + d] = 1.0;
  }
  std::vector<double> Qii(O), y(O), alpha(O, 0.0), w(D, 0.0);
  for (std::size_t i = 0; i < O; ++i) {
    const double* x = &X[i * D];
    Qii[i] = std::inner_product(x, x + D, x, 0.0);
    y[i] = labels[i] ? 1.0 : -1.0;
  }

  // Shrinking as in liblinear: a variable at a bound whose gradient points further out than the last
  // sweep's extreme projected gradients leaves the active set; convergence is always confirmed on all.
  std::vector<std::size_t> index(O);
  std::iota(index.begin(), index.end(), 0);
  std::size_t active = O;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double pg_max_old = kInf, pg_min_old = -kInf, gap = kInf;
  RandomStream random(0);  // any order converges to the same optimum; a fixed one keeps runs identical
  LinearSvm svm;
  for (; svm.sweeps_ < options.max_sweeps; ++svm.sweeps_) {
    for (std::size_t s = active; s > 1; --s) std::swap(index[s - 1], index[random.index(s)]);
    double pg_max = -kInf, pg_min = kInf;
    for (std::size_t s = 0; s < active; ++s) {
      const std::size_t i = index[s];
      const double* x = &X[i * D];
      const double G = y[i] * std::inner_product(x, x + D, w.data(), 0.0) - 1.0;
      // Projected gradient: at a bound only the direction back into the box counts.
      double PG = G;
      if (alpha[i] <= 0.0) {
        if (G > pg_max_old) {
          std::swap(index[s--], index[--active]);
          continue;
        }
        PG = std::min(G, 0.0);
      } else if (alpha[i] >= C) {
        if (G < pg_min_old) {
          std::swap(index[s--], index[--active]);
          continue;
        }
        PG = std::max(G, 0.0);
      }
      pg_max = std::max(pg_max, PG);
      pg_min = std::min(pg_min, PG);
      if (PG == 0.0) continue;
      const double updated = std::clamp(alpha[i] - G / Qii[i], 0.0, C);
      const double change = (updated - alpha[i]) * y[i];
      alpha[i] = updated;
      for (std::size_t j = 0; j < D; ++j) w[j] += change * x[j];
    }
    gap = pg_max - pg_min;
    if (gap <= options.tolerance) {
      if (active == O) {
        svm.w_ = Eigen::Map<const Eigen::VectorXd>(w.data(), Index(d));
        svm.b_ = w[d];
        ++svm.sweeps_;
        return svm;
      }
      active = O;  // confirm on every variable
      pg_max_old = kInf;
      pg_min_old = -kInf;
      continue;
    }
    pg_max_old = pg_max > 0 ? pg_max : kInf;
    pg_min_old = pg_min < 0 ? pg_min : -kInf;
  }
  return Status(StatusCode::numerical_failure, "svm: coordinate descent did not converge in " +
                                                   std::to_string(options.max_sweeps) +
                                                   " sweeps (projected-gradient span " + std::to_string(gap) + ")");
}

Status LinearSvm::decision(const MatrixView& queries, double* out) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, std::size_t(w_.size())));
  linear_scores(queries, w_.data(), b_, out);
  return Status::success();
}

}  // namespace gpprobe
