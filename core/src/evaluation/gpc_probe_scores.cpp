// GP classification as a probe of the probing experiment (experiment.h, options.gpc): the probit
// likelihood, an isotropic RBF kernel on the embeddings, and its two hyperparameters learned on each
// step's observations by type-II maximum likelihood (hyperparameter_fit.h, shared length-scale).
//
//   start     signal variance 1, length-scale the median distance between the observations (the scale
//             of the data: an RBF with it neither sees every pair as unrelated nor as the same point)
//   Laplace   L-BFGS from the start, ClassifierProbeOptions::laplace_iterations at most, no restarts
//   EP        L-BFGS from Laplace's optimum, ClassifierProbeOptions::ep_iterations at most: the optima are close (the
//             approximations differ little in their evidence), and an EP evaluation costs about ten
//             Laplace ones (sweeps of rank-one updates instead of a few Newton steps)
// The probe's score is p(y = +1 | query) of each model (probability.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_fit.h"

#include "evaluation/experiment_protocol.h"

namespace gpprobe {

namespace {

// The median of the O (O - 1) / 2 distances between the rows of x (1 when every row is the same).
double median_distance(const RowMatrix& x) {
  const Eigen::Index n = x.rows();
  std::vector<double> distances;
  distances.reserve(std::size_t(n * (n - 1) / 2));
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j) distances.push_back((x.row(i) - x.row(j)).norm());
  if (distances.empty()) return 1.0;
  auto middle = distances.begin() + std::ptrdiff_t(distances.size() / 2);
  std::nth_element(distances.begin(), middle, distances.end());
  return *middle > 0.0 ? *middle : 1.0;
}

Status predict(const ClassifierTrainingData& data, const SeArdKernel& kernel, ClassifierMethod method,
               const MatrixView& queries, double* probability) {
  ClassifierOptions options;
  options.method = method;
  options.with_gradient = false;
  Result<GpClassifier> gpc = GpClassifier::fit(data, kernel, options);
  if (!gpc.ok()) return gpc.status();
  return gpc.value().predict(queries, {nullptr, nullptr, probability});
}

}  // namespace

Status gpc_scores(const StepObservations& obs, const MatrixView& queries, const ClassifierProbeOptions& probe,
                  double* laplace, double* ep) {
  std::vector<double> labels(obs.labels.begin(), obs.labels.end());
  Result<ClassifierTrainingData> data = make_gpc_training_data(MatrixView(obs.x), labels.data(), labels.size());
  if (!data.ok()) return data.status();
  ClassifierOptions options;  // probit
  ClassifierHyperparameterOptions fit;
  fit.shared_length_scale = true;

  options.method = ClassifierMethod::laplace;
  fit.max_iterations = probe.laplace_iterations;
  Result<ClassifierHyperparameterFit> learned =
      fit_gpc_hyperparameters(data.value(), SeArdKernel{1.0, {median_distance(obs.x)}}, options, fit);
  if (!learned.ok()) return learned.status();
  GPPROBE_RETURN_IF_ERROR(predict(data.value(), learned.value().kernel, ClassifierMethod::laplace, queries, laplace));

  options.method = ClassifierMethod::ep;
  fit.max_iterations = probe.ep_iterations;
  learned = fit_gpc_hyperparameters(data.value(), learned.value().kernel, options, fit);
  if (!learned.ok()) return learned.status();
  return predict(data.value(), learned.value().kernel, ClassifierMethod::ep, queries, ep);
}

}  // namespace gpprobe
