#include "gpprobe/classification/laplace_classifier.h"

#include <cmath>

#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/row_products.h"

#include "classification/factor.h"
#include "common/input_checks.h"

namespace gpprobe {

namespace {

constexpr std::size_t kMaxHalvings = 60;

// log p(y|f) summed, and per point the gradient, W and (optionally) the third derivative.
struct Terms {
  double log_likelihood = 0.0;
  Eigen::VectorXd gradient, W, third;
};

Terms terms_at(ClassifierLikelihood likelihood, const Eigen::VectorXd& y, const Eigen::VectorXd& f) {
  const Eigen::Index n = f.size();
  Terms t;
  t.gradient.resize(n);
  t.W.resize(n);
  t.third.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const LikelihoodTerms p = likelihood_terms(likelihood, y[i], f[i]);
    t.log_likelihood += p.log_p;
    t.gradient[i] = p.gradient;
    t.W[i] = p.W;
    t.third[i] = p.third;
  }
  return t;
}

double log_likelihood(ClassifierLikelihood likelihood, const Eigen::VectorXd& y, const Eigen::VectorXd& f) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < f.size(); ++i) sum += likelihood_terms(likelihood, y[i], f[i]).log_p;
  return sum;
}

Eigen::VectorXd times(const RowMatrix& K, const Eigen::VectorXd& v) {
  Eigen::VectorXd out(K.rows());
  multiply_vector(K.data(), std::size_t(K.rows()), std::size_t(K.cols()), v.data(), out.data());
  return out;
}

}  // namespace

Result<LaplaceFit> fit_laplace(const ClassifierTrainingData& data, const Kernel& kernel,
                               ClassifierLikelihood likelihood, bool with_gradient, std::size_t max_iterations,
                               const RowMatrix* squared_distances) {
  const std::size_t n = data.size(), d = data.dimension();
  const Eigen::VectorXd& y = data.y;
  const TrainingKernel pairwise(kernel, data.x.data(), n, d, squared_distances);
  const RowMatrix K = pairwise.matrix();

  // Newton on Psi, parameterised by a (f = K a), from f = a = 0.
  Eigen::VectorXd f = Eigen::VectorXd::Zero(Eigen::Index(n)), a = f;
  double psi = log_likelihood(likelihood, y, f);
  LaplaceFit fit;
  bool converged = false;
  double last_step = 0.0, tolerance = 0.0;
  while (!converged && fit.iterations < max_iterations) {
    ++fit.iterations;
    const Terms t = terms_at(likelihood, y, f);
    const Eigen::VectorXd sW = t.W.cwiseSqrt();
    Result<RowMatrix> L = factor_b(K, sW, "Laplace");
    if (!L.ok()) return L.status();
    const RowMatrix& factor = L.value();
    const auto lower = factor.triangularView<Eigen::Lower>();
    const Eigen::VectorXd b = t.W.cwiseProduct(f) + t.gradient;
    const Eigen::VectorXd c = lower.solve(sW.cwiseProduct(times(K, b)));
    Eigen::VectorXd a_new = b - sW.cwiseProduct(lower.transpose().solve(c));
    Eigen::VectorXd f_new = times(K, a_new);
    double psi_new = log_likelihood(likelihood, y, f_new) - 0.5 * a_new.dot(f_new);
    // Psi is concave, so a full step lowers it only far from the mode; then halve (K a is linear in a).
    std::size_t halvings = 0;
    while (!(psi_new >= psi - 1e-12 * (1.0 + std::abs(psi))) && halvings < kMaxHalvings) {
      a_new = 0.5 * (a + a_new);
      f_new = 0.5 * (f + f_new);
      psi_new = log_likelihood(likelihood, y, f_new) - 0.5 * a_new.dot(f_new);
      ++halvings;
    }
    last_step = (f_new - f).lpNorm<Eigen::Infinity>();
    f = std::move(f_new);
    a = std::move(a_new);
    psi = psi_new;
    tolerance = 1e-10 * (1.0 + f.lpNorm<Eigen::Infinity>());
    converged = halvings == 0 && last_step <= tolerance;
  }
  if (!converged) {
    return Status(StatusCode::numerical_failure, "Laplace: Newton's method did not converge in " +
                                                     count_of(fit.iterations, "iteration") +
                                                     " (the last step moved f by " + number_text(last_step, 3) +
                                                     ", the tolerance is " + number_text(tolerance, 3) + ")");
  }

  // At the mode: W, L and alpha = grad log p(y|f^).
  const Terms t = terms_at(likelihood, y, f);
  const Eigen::VectorXd sW = t.W.cwiseSqrt();
  Result<RowMatrix> factor = factor_b(K, sW, "Laplace");
  if (!factor.ok()) return factor.status();
  const RowMatrix& L = factor.value();
  const double residual = (f - times(K, t.gradient)).lpNorm<Eigen::Infinity>();
  if (!(residual <= 1e-9 * (1.0 + f.lpNorm<Eigen::Infinity>()))) {
    return Status(StatusCode::numerical_failure, "Laplace: the mode does not satisfy f = K grad log p(y|f) (residual " +
                                                     number_text(residual, 3) + ")");
  }
  fit.f_hat = f;
  fit.W = t.W;
  fit.alpha = t.gradient;
  fit.log_marginal_likelihood = t.log_likelihood - 0.5 * fit.alpha.dot(f) - L.diagonal().array().log().sum();
  fit.variance_factor = variance_factor(L, sW);
  if (!with_gradient) return fit;

  // G = 1/2 alpha alpha' - 1/2 R + sym(c alpha'), c = s2 - R K s2, contracted with every dK/dtheta_p.
  const RowMatrix R = gram_of_factor(fit.variance_factor);
  const RowMatrix Ct = kernel_times_factor(K, fit.variance_factor);
  Eigen::VectorXd explained{Eigen::Index(n)};
  rowwise_dot(Ct.data(), Ct.data(), n, n, explained.data());  // diag C'C
  const Eigen::VectorXd s2 = 0.5 * (K.diagonal() - explained).cwiseProduct(t.third);
  const Eigen::VectorXd c = s2 - R * times(K, s2);
  const Eigen::VectorXd& alpha = fit.alpha;
  RowMatrix G{Eigen::Index(n), Eigen::Index(n)};
  for (Eigen::Index i = 0; i < Eigen::Index(n); ++i)
    for (Eigen::Index j = i; j < Eigen::Index(n); ++j)
      G(i, j) = 0.5 * (alpha[i] * alpha[j] - R(i, j) + c[i] * alpha[j] + alpha[i] * c[j]);
  fit.gradient = pairwise.contract(K, G.data());
  return fit;
}

}  // namespace gpprobe
