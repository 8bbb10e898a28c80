#include "gpprobe/baselines/linear_probe.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpprobe/linalg/row_products.h"

#include "baselines/linear_probe_design.h"
#include "baselines/logistic_newton.h"
#include "common/input_checks.h"

namespace gpprobe {

Status LinearProbe::check_options(const LinearProbeOptions& options) { return check_positive("C", options.C); }

Result<LinearProbe> LinearProbe::fit(const MatrixView& observations, const std::uint8_t* labels, std::size_t count,
                                     const LinearProbeOptions& options) {
  GPPROBE_RETURN_IF_ERROR(check_options(options));
  GPPROBE_RETURN_IF_ERROR(check_observations(observations, labels, count));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, count, "lp needs observations of both classes"));
  const ProbeDesign design = probe_design(observations);
  Result<NewtonSolution> solved = solve_logistic(design.Z, labels, nullptr, options.C);
  if (!solved.ok()) return solved.status();
  const Eigen::VectorXd full = expand_solution(design, solved.value().theta);
  LinearProbe probe;
  const Eigen::Index d = Eigen::Index(observations.cols());
  probe.w_ = full.head(d);
  probe.b_ = full[d];
  probe.iterations_ = solved.value().iterations;
  return probe;
}

Status LinearProbe::decision(const MatrixView& queries, double* out) const {
  GPPROBE_RETURN_IF_ERROR(check_queries(queries, std::size_t(w_.size())));
  linear_scores(queries, w_.data(), b_, out);
  return Status::success();
}

Status LinearProbe::probability(const MatrixView& queries, double* out) const {
  GPPROBE_RETURN_IF_ERROR(decision(queries, out));
  for (std::size_t i = 0; i < queries.rows(); ++i) out[i] = sigmoid(out[i]);
  return Status::success();
}

void linear_scores(const MatrixView& queries, const double* w, double b, double* out) {
  constexpr std::size_t kBlockRows = 256;
  const std::size_t n = queries.rows(), d = queries.cols();
  std::vector<double> block(kBlockRows * d);
  for (std::size_t first = 0; first < n; first += kBlockRows) {
    const std::size_t count = std::min(kBlockRows, n - first);
    queries.copy_rows(first, count, block.data());
    multiply_vector(block.data(), count, d, w, out + first);
    for (std::size_t i = 0; i < count; ++i) out[first + i] += b;
  }
}

}  // namespace gpprobe
