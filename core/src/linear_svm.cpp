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

  std::vector<std::size_t> order(O);
  std::iota(order.begin(), order.end(), 0);
  RandomStream random(0);  // any order converges to the same optimum; a fixed one keeps runs identical
  LinearSvm svm;
  double gap = std::numeric_limits<double>::infinity();
  for (; svm.sweeps_ < options.max_sweeps; ++svm.sweeps_) {
    random.shuffle(order);
    double pg_max = -std::numeric_limits<double>::infinity(), pg_min = std::numeric_limits<double>::infinity();
    for (std::size_t i : order) {
      const double* x = &X[i * D];
      const double G = y[i] * std::inner_product(x, x + D, w.data(), 0.0) - 1.0;
      // Projected gradient: at a bound only the direction back into the box counts.
      double PG = G;
      if (alpha[i] <= 0.0) PG = std::min(G, 0.0);
      else if (alpha[i] >= C) PG = std::max(G, 0.0);
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
      svm.w_ = Eigen::Map<const Eigen::VectorXd>(w.data(), Index(d));
      svm.b_ = w[d];
      ++svm.sweeps_;
      return svm;
    }
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
