// Binary GP classification with the SE-ARD kernel: one fitted model, whichever approximation made it.
//
//   method      laplace (laplace_classifier.h; probit or logistic) or ep (ep_classifier.h; probit only)
//   fit         the approximation at fixed hyperparameters, its log marginal likelihood and the gradient
//               in theta = [log s2, log l_1, ..., log l_d] (scikit-learn's order)
//   predict     latent mean, latent variance and p(y = +1 | x) at test points, through the common form
//               (common_form.h), which is also what the robustness bounds consume
//
//   x       n by d training inputs        labels  n values, 0/1 or -1/+1 (training_data.h)
//   kernel  signal variance and 1 or d length-scales
// Hyperparameter learning is hyperparameter_fit.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpprobe/classification/common_form.h"
#include "gpprobe/classification/likelihood.h"
#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

enum class ClassifierMethod { laplace, ep };
inline constexpr EnumNames<ClassifierMethod, 2> kClassifierMethodNames = {
    {{ClassifierMethod::laplace, "laplace"}, {ClassifierMethod::ep, "ep"}}};

// "laplace" or "ep".
inline const char* method_name(ClassifierMethod method) { return name_of(kClassifierMethodNames, method); }
// invalid_argument "method must be laplace or ep, got 'x'".
inline Result<ClassifierMethod> parse_method(const std::string& name) {
  return parse_name(kClassifierMethodNames, name, "method");
}

struct ClassifierOptions {
  ClassifierMethod method = ClassifierMethod::laplace;
  ClassifierLikelihood likelihood = ClassifierLikelihood::probit;
  std::size_t max_iterations = 100;  // Newton steps (Laplace) or sweeps (EP)
  bool with_gradient = true;
};

// invalid_argument for EP with the logistic likelihood and for max_iterations = 0.
Status check_options(const ClassifierOptions& options);

// The approximation's log marginal likelihood and (when asked) its gradient in [log s2, log l_1..l_d],
// at a kernel with d length-scales. numerical_failure when the approximation does not converge.
struct ClassifierEvidence {
  double value = 0.0;
  std::vector<double> gradient;
  std::size_t iterations = 0;
};
Result<ClassifierEvidence> gpc_log_marginal_likelihood(const ClassifierTrainingData& data, const SeArdKernel& kernel,
                                                       const ClassifierOptions& options);

// The same evidence at the isotropic kernel (one length-scale for every column), its gradient in
// [log s2, log l] (2 values: the sum over the columns of the expanded kernel's length-scale entries),
// evaluated from the training points' squared distances (kernel_matrix.h's squared_distances, computed
// once): no O(n^2 d) work per evaluation. Equal to gpc_log_marginal_likelihood at the expanded kernel to
// rounding. dimension_mismatch when squared_distances is not n by n.
Result<ClassifierEvidence> gpc_isotropic_log_marginal_likelihood(const ClassifierTrainingData& data,
                                                                 const RowMatrix& squared_distances,
                                                                 double signal_variance, double length_scale,
                                                                 const ClassifierOptions& options);

class GpClassifier {
 public:
  static Result<GpClassifier> fit(const MatrixView& x, const double* labels, std::size_t n, const SeArdKernel& kernel,
                                  const ClassifierOptions& options = {});
  static Result<GpClassifier> fit(const ClassifierTrainingData& data, const SeArdKernel& kernel,
                                  const ClassifierOptions& options = {});

  // Columns of length m = points.rows(); errors name "test inputs".
  Status predict(const MatrixView& points, const ClassifierColumns& out, const ProgressCallback& progress = {},
                 PredictionReport* report = nullptr) const {
    return form_.evaluate(points, out, progress, report);
  }

  const ClassifierCommonForm& common_form() const { return form_; }
  ClassifierMethod method() const { return options_.method; }
  ClassifierLikelihood likelihood() const { return options_.likelihood; }
  const SeArdKernel& kernel() const { return form_.kernel(); }  // d length-scales
  double log_marginal_likelihood() const { return evidence_.value; }
  // d log q / d[log s2, log l_1..l_d]; empty when options.with_gradient was false.
  const std::vector<double>& log_marginal_likelihood_gradient() const { return evidence_.gradient; }
  std::size_t iterations() const { return evidence_.iterations; }  // Newton steps or EP sweeps

 private:
  GpClassifier(ClassifierCommonForm form, ClassifierOptions options, ClassifierEvidence evidence)
      : form_(std::move(form)), options_(options), evidence_(std::move(evidence)) {}

  ClassifierCommonForm form_;
  ClassifierOptions options_;
  ClassifierEvidence evidence_;
};

}  // namespace gpprobe
