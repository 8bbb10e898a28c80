#include "gpprobe/regression/anomaly_experiment.h"

#include <cmath>

#include "gpprobe/common/random_stream.h"
#include "gpprobe/regression/gp_regression.h"
#include "gpprobe/regression/hyperparameter_fit.h"

namespace gpprobe {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// n points of the generating process with x ~ U(lower, upper).
void draw(RandomStream* rng, std::size_t n, double lower, double upper, const AnomalyExperimentOptions& o, RowMatrix* x,
          std::vector<double>* y, std::vector<std::uint8_t>* anomaly) {
  x->resize(Eigen::Index(n), 1);
  y->resize(n);
  anomaly->resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = rng->uniform(lower, upper);
    (*x)(Eigen::Index(i), 0) = t;
    const double clean = std::sin(kTwoPi * t) + 2.0 * t + o.noise_sd * rng->normal();
    const bool outlier = rng->uniform() < o.anomaly_fraction;
    const double wild = rng->uniform(-5.0, 5.0);  // drawn always, so the stream does not depend on labels
    (*anomaly)[i] = outlier ? 1 : 0;
    (*y)[i] = outlier ? wild : clean;
  }
}

Status check_options(const AnomalyExperimentOptions& o) {
  if (o.training < 2) return Status(StatusCode::invalid_argument, "training must be at least 2 points");
  if (o.test == 0) return Status(StatusCode::invalid_argument, "test must be at least 1 point");
  if (!(o.anomaly_fraction >= 0.0 && o.anomaly_fraction < 1.0)) {
    return Status(StatusCode::invalid_argument, "anomaly fraction must be in [0, 1)");
  }
  if (!(o.noise_sd > 0.0 && std::isfinite(o.noise_sd))) {
    return Status(StatusCode::invalid_argument, "noise sd must be a finite number > 0");
  }
  if (!(o.test_lower < o.test_upper && std::isfinite(o.test_lower) && std::isfinite(o.test_upper))) {
    return Status(StatusCode::invalid_argument, "the test range must satisfy lower < upper");
  }
  if (o.grid_points < 2) return Status(StatusCode::invalid_argument, "grid_points must be at least 2");
  GPPROBE_RETURN_IF_ERROR(check_thresholds({o.status_rho, o.theta}));
  for (double rho : o.rhos) GPPROBE_RETURN_IF_ERROR(check_thresholds({rho, o.theta}));
  return Status::success();
}

}  // namespace

Result<AnomalyExperiment> run_anomaly_experiment(const AnomalyExperimentOptions& o, const ProgressCallback& progress) {
  GPPROBE_RETURN_IF_ERROR(check_options(o));
  RandomStream rng(o.seed);
  AnomalyExperiment e;
  draw(&rng, o.training, 0.0, 1.0, o, &e.train_x, &e.train_y, &e.train_anomaly);
  draw(&rng, o.test, o.test_lower, o.test_upper, o, &e.test_x, &e.test_y, &e.test_anomaly);

  std::vector<double> clean_x, clean_y;
  for (std::size_t i = 0; i < o.training; ++i) {
    if (e.train_anomaly[i]) continue;
    clean_x.push_back(e.train_x(Eigen::Index(i), 0));
    clean_y.push_back(e.train_y[i]);
  }
  if (clean_x.size() < 2) return Status(StatusCode::invalid_argument, "fewer than 2 normal training points were drawn");
  const MatrixView train(clean_x.data(), clean_x.size(), 1);
  HyperparameterFitOptions fit_options;
  fit_options.restarts = o.restarts;
  fit_options.seed = o.seed;
  Result<HyperparameterFit> fit = fit_hyperparameters(
      train, clean_y.data(), clean_y.size(), Kernel::constant(1.0) * Kernel::rbf({0.2}), 0.01, fit_options, progress);
  if (!fit.ok()) return fit.status();
  e.kernel = fit.value().kernel;
  e.noise_variance = fit.value().noise_variance;
  Result<GpRegression> gp = GpRegression::fit(train, clean_y.data(), clean_y.size(), e.kernel, e.noise_variance);
  if (!gp.ok()) return gp.status();
  e.log_marginal_likelihood = gp.value().log_marginal_likelihood();

  const std::size_t m = o.test;
  for (auto* v : {&e.mean, &e.latent_variance, &e.observation_variance, &e.knowledge, &e.score}) v->resize(m);
  PredictionColumns columns;
  columns.mean = e.mean.data();
  columns.latent_variance = e.latent_variance.data();
  columns.observation_variance = e.observation_variance.data();
  columns.knowledge = e.knowledge.data();
  GPPROBE_RETURN_IF_ERROR(gp.value().predict(MatrixView(e.test_x), columns));
  anomaly_scores(e.test_y.data(), e.mean.data(), e.observation_variance.data(), m, e.score.data());
  e.status.resize(m);
  GPPROBE_RETURN_IF_ERROR(classify_points(e.test_y.data(), e.mean.data(), e.observation_variance.data(),
                                          e.knowledge.data(), m, {o.status_rho, o.theta}, e.status.data()));
  e.ungated = gated_roc(e.score.data(), e.test_anomaly.data(), nullptr, m, 0.0);
  e.gated = gated_roc_sweep(e.score.data(), e.test_anomaly.data(), e.knowledge.data(), m, o.rhos);
  e.grid_x.resize(o.grid_points);
  for (std::size_t i = 0; i < o.grid_points; ++i) {
    e.grid_x[i] = o.test_lower + (o.test_upper - o.test_lower) * double(i) / double(o.grid_points - 1);
  }
  e.grid = Predictions::sized(o.grid_points);
  GPPROBE_RETURN_IF_ERROR(gp.value().predict(MatrixView(e.grid_x.data(), o.grid_points, 1), e.grid.columns()));
  return e;
}

}  // namespace gpprobe
