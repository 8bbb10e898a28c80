#include "gpprobe/classification/common_form.h"

#include <algorithm>
#include <cmath>

#include "gpprobe/classification/probability.h"
#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/row_products.h"

#include "classification/factor.h"
#include "common/input_checks.h"

namespace gpprobe {

namespace {

constexpr std::size_t kClassifierCommonFormBlockRows = 256;

}  // namespace

Kernel SeArdKernel::kernel() const { return Kernel::constant(signal_variance) * Kernel::rbf(length_scales); }

SeArdKernel SeArdKernel::expanded(std::size_t d) const {
  SeArdKernel k = *this;
  if (k.length_scales.size() == 1) k.length_scales.assign(d, length_scales[0]);
  return k;
}

Status SeArdKernel::check(std::size_t d) const {
  GPPROBE_RETURN_IF_ERROR(check_positive("signal variance", signal_variance));
  if (length_scales.size() != d && length_scales.size() != 1) {
    return Status(StatusCode::dimension_mismatch,
                  count_of(length_scales.size(), "length-scale") + " for " + count_of(d, "input column"));
  }
  for (std::size_t j = 0; j < length_scales.size(); ++j) {
    GPPROBE_RETURN_IF_ERROR(check_positive(("length-scale " + std::to_string(j + 1)).c_str(), length_scales[j]));
  }
  return Status::success();
}

Result<ClassifierCommonForm> ClassifierCommonForm::from_factor(RowMatrix inputs, SeArdKernel kernel,
                                                               ClassifierLikelihood likelihood, Eigen::VectorXd alpha,
                                                               RowMatrix variance_factor) {
  const std::size_t n = std::size_t(inputs.rows()), d = std::size_t(inputs.cols());
  if (n == 0 || d == 0)
    return Status(StatusCode::invalid_argument, "the common form needs training inputs (n, d >= 1)");
  GPPROBE_RETURN_IF_ERROR(kernel.check(d));
  if (std::size_t(alpha.size()) != n || std::size_t(variance_factor.rows()) != n ||
      std::size_t(variance_factor.cols()) != n) {
    return Status(StatusCode::dimension_mismatch,
                  "the common form needs alpha of size n and an n by n factor (n = " + std::to_string(n) + ")");
  }
  ClassifierCommonForm form;
  form.inputs_ = std::move(inputs);
  form.kernel_ = kernel.expanded(d);
  form.pairwise_ = form.kernel_.kernel();
  form.likelihood_ = likelihood;
  form.alpha_ = std::move(alpha);
  form.factor_ = std::move(variance_factor);
  form.factor_.triangularView<Eigen::StrictlyUpper>().setZero();
  form.Q_ = gram_of_factor(form.factor_);
  return form;
}

Status ClassifierCommonForm::evaluate(const MatrixView& points, const ClassifierColumns& out,
                                      const ProgressCallback& progress, PredictionReport* report) const {
  const std::size_t n = size(), d = dimension();
  GPPROBE_RETURN_IF_ERROR(check_test_inputs(points, d));
  const std::size_t m = points.rows();
  const double s2 = kernel_.signal_variance;
  PredictionReport local;
  std::vector<double> a(kClassifierCommonFormBlockRows * d), Ks(kClassifierCommonFormBlockRows * n),
      V(kClassifierCommonFormBlockRows * n);
  std::vector<double> mean(kClassifierCommonFormBlockRows), explained(kClassifierCommonFormBlockRows);
  for (std::size_t first = 0; first < m; first += kClassifierCommonFormBlockRows) {
    const std::size_t count = std::min(kClassifierCommonFormBlockRows, m - first);
    points.copy_rows(first, count, a.data());
    cross_kernel_matrix(pairwise_, a.data(), count, inputs_.data(), n, d, Ks.data());
    multiply_vector(Ks.data(), count, n, alpha_.data(), mean.data());
    multiply_lower_transposed(Ks.data(), count, factor_.data(), n, V.data());  // rows (M k)'
    rowwise_dot(V.data(), V.data(), count, n, explained.data());
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t q = first + i;
      double variance = s2 - explained[i];
      if (variance < 0.0) {
        ++local.clamped_variances;
        local.most_negative_variance = std::min(local.most_negative_variance, variance);
        variance = 0.0;
      }
      if (out.latent_mean) out.latent_mean[q] = mean[i];
      if (out.latent_variance) out.latent_variance[q] = variance;
      if (out.probability) out.probability[q] = predictive_probability(likelihood_, mean[i], variance);
    }
    if (!report_progress(progress, first + count, m)) {
      return Status(StatusCode::cancelled,
                    "prediction cancelled after " + count_of(first + count, "test point") + " of " + std::to_string(m));
    }
  }
  if (report) *report = local;
  return Status::success();
}

ClassifierCommonForm::Latent ClassifierCommonForm::latent(const double* x) const {
  const std::size_t n = size(), d = dimension();
  Eigen::VectorXd k{Eigen::Index(n)}, v{Eigen::Index(n)};
  cross_kernel_matrix(pairwise_, x, 1, inputs_.data(), n, d, k.data());
  multiply_lower_transposed(k.data(), 1, factor_.data(), n, v.data());
  return {k.dot(alpha_), std::max(0.0, kernel_.signal_variance - v.squaredNorm())};
}

double ClassifierCommonForm::probability(const double* x) const {
  const Latent f = latent(x);
  return predictive_probability(likelihood_, f.mean, f.variance);
}

}  // namespace gpprobe
