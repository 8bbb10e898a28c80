#include "gpprobe/classification/multiclass_laplace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Dense>

#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/row_products.h"

#include "classification/factor.h"
#include "classification/training_inputs.h"
#include "common/input_checks.h"
#include "common/numeric_constants.h"
#include "linalg/triangular_solve.h"

namespace gpprobe {

namespace multiclass_laplace_detail {

constexpr std::size_t kMaxStepHalvings = 60;
constexpr std::size_t kBlock = 256;

double row_log_sum_exp(const RowMatrix& F, Eigen::Index i) {
  const double largest = F.row(i).maxCoeff();
  return largest + std::log((F.row(i).array() - largest).exp().sum());
}

RowMatrix softmax_rows(const RowMatrix& F) {
  RowMatrix P(F.rows(), F.cols());
  for (Eigen::Index i = 0; i < F.rows(); ++i) {
    const double largest = F.row(i).maxCoeff();
    P.row(i) = (F.row(i).array() - largest).exp();
    P.row(i) /= P.row(i).sum();
  }
  return P;
}

// Psi = -1/2 a'f + y'f - sum_i logsumexp(f_i).
double objective(const RowMatrix& F, const RowMatrix& A, const std::vector<std::size_t>& labels) {
  double psi = -0.5 * A.cwiseProduct(F).sum();
  for (Eigen::Index i = 0; i < F.rows(); ++i) psi += F(i, Eigen::Index(labels[std::size_t(i)])) - row_log_sum_exp(F, i);
  return psi;
}

struct Factors {
  std::vector<RowMatrix> E;  // C, E_c = D_c^1/2 B_c^-1 D_c^1/2 (symmetric)
  RowMatrix M;               // lower, M M' = sum_c E_c
  double sum_log_L = 0.0, sum_log_M = 0.0;
};

Result<Factors> factor_at(const std::vector<RowMatrix>& K, const RowMatrix& Pi) {
  const std::size_t C = K.size();
  const Eigen::Index n = Pi.rows();
  Factors out;
  RowMatrix S = RowMatrix::Zero(n, n);
  for (std::size_t c = 0; c < C; ++c) {
    const Eigen::VectorXd sD = Pi.col(Eigen::Index(c)).cwiseSqrt();
    Result<RowMatrix> L = factor_b(K[c], sD, "multi-class Laplace (class " + std::to_string(c) + ")");
    if (!L.ok()) return L.status();
    out.sum_log_L += L.value().diagonal().array().log().sum();
    out.E.push_back(gram_of_factor(variance_factor(L.value(), sD)));
    S += out.E.back();
  }
  out.M = S;
  GPPROBE_RETURN_IF_ERROR(cholesky_in_place(out.M.data(), std::size_t(n), "multi-class Laplace: sum_c E_c"));
  out.sum_log_M = out.M.diagonal().array().log().sum();
  return out;
}

// x = S^-1 b with S = M M'.
Eigen::VectorXd solve_sum(const RowMatrix& M, const Eigen::VectorXd& b) {
  const auto lower = M.triangularView<Eigen::Lower>();
  return lower.transpose().solve(lower.solve(b));
}

// (I + W K)^-1 r, class by class (R&W Alg. 3.3 lines 7-10 applied to r).
RowMatrix solve_newton(const std::vector<RowMatrix>& K, const Factors& f, const RowMatrix& r) {
  const std::size_t C = K.size();
  RowMatrix out(r.rows(), r.cols());
  std::vector<Eigen::VectorXd> c_(C);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(r.rows());
  for (std::size_t c = 0; c < C; ++c) {
    c_[c] = f.E[c] * (K[c] * r.col(Eigen::Index(c)));
    total += c_[c];
  }
  const Eigen::VectorXd v = solve_sum(f.M, total);
  for (std::size_t c = 0; c < C; ++c) out.col(Eigen::Index(c)) = r.col(Eigen::Index(c)) - c_[c] + f.E[c] * v;
  return out;
}

// K E for E = D^1/2 (I + D^1/2 K D^1/2)^-1 D^1/2 = (K + D^-1)^-1 (D = diag(pi), pi > 0): (K + D^-1) E = I
// gives K E = I - D^-1 E, n^2 work instead of a product's 2 n^3. Row i of E carries the factor pi_i in
// every term of its computation (L's row i of B = I + D^1/2 K D^1/2 scales with pi_i^1/2, and E = V'V with
// V = L^-1 D^1/2), so E_i./pi_i keeps its relative accuracy however small pi_i is; only where pi_i is
// below kTinyWeight (0/0 once it underflows) is row i formed as the product K_i. E itself.
constexpr double kTinyWeight = 1e-150;
RowMatrix kernel_times_e(const RowMatrix& K, const RowMatrix& E, const Eigen::VectorXd& pi) {
  const Eigen::Index n = K.rows();
  RowMatrix KE(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (pi[i] >= kTinyWeight) {
      KE.row(i) = -E.row(i) / pi[i];
      KE(i, i) += 1.0;
    } else {
      KE.row(i).noalias() = K.row(i) * E;  // E symmetric
    }
  }
  return KE;
}

bool same_kernel(const SeArdKernel& a, const SeArdKernel& b) {
  return a.signal_variance == b.signal_variance && a.length_scales == b.length_scales;
}

}  // namespace multiclass_laplace_detail

Eigen::MatrixXd MulticlassLatent::covariance_at(std::size_t p) const {
  Eigen::MatrixXd S{Eigen::Index(classes), Eigen::Index(classes)};
  for (std::size_t c = 0; c < classes; ++c)
    for (std::size_t e = 0; e < classes; ++e)
      S(Eigen::Index(c), Eigen::Index(e)) = covariance[(p * classes + c) * classes + e];
  return S;
}

Result<MulticlassTrainingData> make_multiclass_training_data(const MatrixView& x, const double* labels, std::size_t n,
                                                             std::size_t classes) {
  if (classes < 2) {
    return Status(StatusCode::invalid_argument,
                  "the number of classes must be at least 2, got " + std::to_string(classes));
  }
  GPPROBE_RETURN_IF_ERROR(check_training_inputs(x, n));
  MulticlassTrainingData data;
  data.classes = classes;
  const std::string range = "; labels must be integers 0 to " + std::to_string(classes - 1) + " (" +
                            count_of(classes, "class", "classes") + ")";
  for (std::size_t i = 0; i < n; ++i) {
    const double y = labels[i];
    if (!std::isfinite(y)) {
      return Status(StatusCode::non_finite, "training label " + std::to_string(i) + " is " +
                                                (std::isnan(y) ? std::string("NaN") : number_text(y)));
    }
    if (y < 0.0 || y > double(classes - 1) || y != std::floor(y)) {
      return Status(StatusCode::invalid_argument,
                    "training label " + std::to_string(i) + " is " + number_text(y) + range);
    }
    data.labels.push_back(std::size_t(y));
  }
  data.x.resize(Eigen::Index(n), Eigen::Index(x.cols()));
  x.copy_rows(0, n, data.x.data());
  return data;
}

std::vector<double> MulticlassLaplace::tied_gradient() const {
  if (!tied_gradient_.empty()) return tied_gradient_;
  std::vector<double> sum;
  for (const std::vector<double>& row : gradient_) {
    sum.resize(row.size(), 0.0);
    for (std::size_t p = 0; p < row.size(); ++p) sum[p] += row[p];
  }
  return sum;
}

Result<MulticlassLaplace> MulticlassLaplace::fit(const MulticlassTrainingData& data,
                                                 const std::vector<SeArdKernel>& kernels,
                                                 const MulticlassOptions& options) {
  using namespace multiclass_laplace_detail;
  const std::size_t n = data.size(), d = data.dimension(), C = data.classes;
  if (C < 2) {
    return Status(StatusCode::invalid_argument, "the number of classes must be at least 2, got " + std::to_string(C));
  }
  if (data.labels.size() != n || n == 0) {
    return Status(StatusCode::dimension_mismatch, "training labels have " + count_of(data.labels.size(), "value") +
                                                      ", training inputs have " + count_of(n, "row"));
  }
  if (kernels.size() != 1 && kernels.size() != C) {
    return Status(StatusCode::dimension_mismatch, count_of(kernels.size(), "kernel") + " for " +
                                                      count_of(C, "class", "classes") + " (give 1 or " +
                                                      std::to_string(C) + ")");
  }
  if (options.max_iterations == 0) {
    return Status(StatusCode::invalid_argument, "max_iterations must be at least 1");
  }
  MulticlassLaplace model;
  model.x_ = data.x;
  model.C_ = C;
  for (std::size_t c = 0; c < C; ++c) {
    const SeArdKernel& k = kernels[kernels.size() == 1 ? 0 : c];
    const Status checked = k.check(d);
    if (!checked.ok()) {
      return Status(checked.code(), "kernel of class " + std::to_string(c) + ": " + checked.message());
    }
    model.kernels_.push_back(k.expanded(d));
  }
  model.shared_ = true;
  for (std::size_t c = 1; c < C; ++c)
    model.shared_ = model.shared_ && same_kernel(model.kernels_[c], model.kernels_[0]);

  std::vector<RowMatrix> K;
  for (std::size_t c = 0; c < C; ++c) {
    if (c > 0 && same_kernel(model.kernels_[c], model.kernels_[c - 1])) {
      K.push_back(K.back());
    } else {
      K.push_back(kernel_matrix(model.kernels_[c].kernel(), data.x.data(), n, d));
    }
    if (!K.back().allFinite()) {
      return Status(StatusCode::numerical_failure,
                    "the kernel matrix of class " + std::to_string(c) + " is not finite");
    }
  }
  RowMatrix Y = RowMatrix::Zero(Eigen::Index(n), Eigen::Index(C));
  for (std::size_t i = 0; i < n; ++i) Y(Eigen::Index(i), Eigen::Index(data.labels[i])) = 1.0;

  // Newton in the correction form from f = a = 0.
  RowMatrix F = RowMatrix::Zero(Eigen::Index(n), Eigen::Index(C)), A = F;
  double psi = objective(F, A, data.labels);
  if (options.start_a != nullptr && options.start_a->rows() == Eigen::Index(n) &&
      options.start_a->cols() == Eigen::Index(C) && options.start_a->allFinite()) {
    RowMatrix warm(F.rows(), F.cols());
    for (std::size_t c = 0; c < C; ++c) warm.col(Eigen::Index(c)) = K[c] * options.start_a->col(Eigen::Index(c));
    const double psi_warm = objective(warm, *options.start_a, data.labels);
    if (std::isfinite(psi_warm) && psi_warm > psi) {
      F = warm;
      A = *options.start_a;
      psi = psi_warm;
    }
  }
  // A mode at nearby hyperparameters, f0: one Newton step from it in the book form (R&W Alg. 3.3 applied
  // to b = W f0 + y - pi(f0), which needs f only, not an a with f0 = K a), taken when its Psi is above the
  // start's. It counts as a Newton step.
  double warm_step = kInfinity;
  if (options.start_f != nullptr && options.start_f->rows() == Eigen::Index(n) &&
      options.start_f->cols() == Eigen::Index(C) && options.start_f->allFinite()) {
    const RowMatrix& F0 = *options.start_f;
    const RowMatrix P0 = softmax_rows(F0);
    Result<Factors> factors = factor_at(K, P0);
    if (factors.ok()) {
      ++model.iterations_;
      RowMatrix b = Y - P0;
      for (Eigen::Index i = 0; i < Eigen::Index(n); ++i) {
        const double mean = P0.row(i).dot(F0.row(i));
        for (Eigen::Index c = 0; c < Eigen::Index(C); ++c) b(i, c) += P0(i, c) * (F0(i, c) - mean);
      }
      const RowMatrix A1 = solve_newton(K, factors.value(), b);
      RowMatrix F1(A1.rows(), A1.cols());
      for (std::size_t c = 0; c < C; ++c) F1.col(Eigen::Index(c)) = K[c] * A1.col(Eigen::Index(c));
      const double psi1 = objective(F1, A1, data.labels);
      if (std::isfinite(psi1) && psi1 > psi) {
        warm_step = (F1 - F0).cwiseAbs().maxCoeff();
        F = F1;
        A = A1;
        psi = psi1;
      }
    }
  }
  bool converged = false;
  // The step from f0, a full Newton step at these hyperparameters, is the first of the rate's pair.
  const bool predicted_stop = options.start_f != nullptr;
  double step = 0.0, previous_step = predicted_stop ? warm_step : kInfinity, tolerance = 0.0;
  std::size_t previous_halvings = 0;
  while (!converged && model.iterations_ < options.max_iterations) {
    ++model.iterations_;
    const RowMatrix Pi = softmax_rows(F);
    Result<Factors> factors = factor_at(K, Pi);
    if (!factors.ok()) return factors.status();
    RowMatrix dA = solve_newton(K, factors.value(), Y - Pi - A);
    RowMatrix dF(dA.rows(), dA.cols());
    for (std::size_t c = 0; c < C; ++c) dF.col(Eigen::Index(c)) = K[c] * dA.col(Eigen::Index(c));
    double psi_new = objective(F + dF, A + dA, data.labels);
    std::size_t halvings = 0;
    while (!(psi_new >= psi - 1e-12 * (1.0 + std::abs(psi))) && halvings < kMaxStepHalvings) {
      dA *= 0.5;
      dF *= 0.5;
      psi_new = objective(F + dF, A + dA, data.labels);
      ++halvings;
    }
    model.halvings_ += halvings;
    step = dF.cwiseAbs().maxCoeff();
    F += dF;
    A += dA;
    psi = psi_new;
    if (!F.allFinite() || !std::isfinite(psi)) {
      return Status(StatusCode::numerical_failure,
                    "multi-class Laplace: Newton's iterate is not finite after " + count_of(model.iterations_, "step"));
    }
    const double scale = 1.0 + F.cwiseAbs().maxCoeff();
    tolerance = 1e-13 * scale;
    // Quadratic convergence halves a small step at least; a step that does not is the rounding floor.
    converged = halvings == 0 && (step <= tolerance || (step <= 1e-10 * scale && step > 0.5 * previous_step));
    // From a nearby mode (start_f), one step sooner: at the rate of the last two full steps (next ~
    // step^3 / previous^2 when quadratic) the step Newton would take next is already within the tolerance.
    if (!converged && predicted_stop && halvings == 0 && previous_halvings == 0 && step < 0.5 * previous_step &&
        step <= 1e-6 * scale) {
      converged = step * (step / previous_step) * (step / previous_step) <= tolerance;
    }
    previous_halvings = halvings;
    previous_step = step;
  }
  if (!converged) {
    return Status(StatusCode::numerical_failure, "multi-class Laplace: Newton's method did not converge in " +
                                                     count_of(model.iterations_, "iteration") +
                                                     " (the last step moved f by " + number_text(step, 3) +
                                                     ", the tolerance is " + number_text(tolerance, 3) + ")");
  }

  // At the mode: pi^, the factors, alpha = y - pi^.
  const RowMatrix Pi = softmax_rows(F);
  Result<Factors> made = factor_at(K, Pi);
  if (!made.ok()) return made.status();
  Factors& f = made.value();
  const RowMatrix alpha = Y - Pi;
  double residual = 0.0;
  for (std::size_t c = 0; c < C; ++c) {
    residual = std::max(residual, (F.col(Eigen::Index(c)) - K[c] * alpha.col(Eigen::Index(c))).cwiseAbs().maxCoeff());
  }
  if (!(residual <= 1e-10 * (1.0 + F.cwiseAbs().maxCoeff()))) {
    return Status(
        StatusCode::numerical_failure,
        "multi-class Laplace: the mode does not satisfy f = K (y - pi) (residual " + number_text(residual, 3) + ")");
  }
  double lml = -0.5 * alpha.cwiseProduct(F).sum() - f.sum_log_L - f.sum_log_M;
  for (std::size_t i = 0; i < n; ++i) {
    lml += F(Eigen::Index(i), Eigen::Index(data.labels[i])) - row_log_sum_exp(F, Eigen::Index(i));
  }
  if (!std::isfinite(lml)) {
    return Status(StatusCode::numerical_failure, "multi-class Laplace: the log marginal likelihood is not finite");
  }
  model.f_hat_ = F;
  model.pi_hat_ = Pi;
  model.alpha_ = alpha;
  model.lml_ = lml;
  model.log_det_ = {f.sum_log_L, f.sum_log_M};
  model.E_ = f.E;
  model.M_ = f.M;
  if (!options.with_gradient) return model;

  // The gradient (docs/design/multiclass.md): N_c = M^-1 E_c, P_c = N_c K_c, so that
  // (K_c E_c S^-1 E_c' K_c')_ii = (P_c' P_c')_ii and E_c S^-1 E_c' = N_c' N_c'. All n^3 work runs through
  // row_products.h and solve_lower_rows (f64x2 kernels under wasm), in the transposed layout the row
  // solves give: Nt_c = N_c' = E_c M^-T and Pt_c = P_c' = (K_c E_c) M^-T, row-major.
  const std::size_t nn = n;
  std::vector<RowMatrix> Nt(C), Pt(C);
  std::vector<Eigen::VectorXd> own(C);  // (K_c - K_c E_c K_c)_ii
  // K_c E_c = I - D_c^-1 E_c (kernel_times_e) also gives Pt_c = M^-T - D_c^-1 Nt_c: one inverse of M
  // (n^3/3) shared by the classes instead of a product and a solve per class (3 n^3); rows whose weight
  // is below kTinyWeight take the solve of their row of K_c E_c.
  RowMatrix Mt{Eigen::Index(n), Eigen::Index(n)};
  invert_lower_transposed(f.M.data(), nn, Mt.data());  // M^-T, upper
  for (std::size_t c = 0; c < C; ++c) {
    Nt[c] = f.E[c];
    solve_lower_rows(f.M.data(), nn, Nt[c].data(), nn);
    const Eigen::VectorXd pi = Pi.col(Eigen::Index(c));
    const RowMatrix KE = kernel_times_e(K[c], f.E[c], pi);
    own[c].resize(Eigen::Index(n));
    rowwise_dot(KE.data(), K[c].data(), nn, nn, own[c].data());  // (K_c E_c K_c)_ii, K_c symmetric
    own[c] = K[c].diagonal() - own[c];
    Pt[c].resize(Eigen::Index(n), Eigen::Index(n));
    std::vector<Eigen::Index> tiny;
    for (Eigen::Index i = 0; i < Eigen::Index(n); ++i) {
      if (pi[i] >= kTinyWeight) {
        Pt[c].row(i) = Mt.row(i) - Nt[c].row(i) / pi[i];
      } else {
        tiny.push_back(i);
      }
    }
    if (!tiny.empty()) {
      RowMatrix rows{Eigen::Index(tiny.size()), Eigen::Index(n)};
      for (std::size_t r = 0; r < tiny.size(); ++r) rows.row(Eigen::Index(r)) = KE.row(tiny[r]);
      solve_lower_rows(f.M.data(), nn, rows.data(), tiny.size());
      for (std::size_t r = 0; r < tiny.size(); ++r) Pt[c].row(tiny[r]) = rows.row(Eigen::Index(r));
    }
  }
  // V_i[c][e] = delta_ce own_c,i + sum_k P_c(k, i) P_e(k, i).
  std::vector<std::vector<Eigen::VectorXd>> cross(C, std::vector<Eigen::VectorXd>(C));
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t e = c; e < C; ++e) {
      cross[c][e].resize(Eigen::Index(n));
      rowwise_dot(Pt[c].data(), Pt[e].data(), nn, nn, cross[c][e].data());
      cross[e][c] = cross[c][e];
    }
  RowMatrix s{Eigen::Index(n), Eigen::Index(C)};
  Eigen::MatrixXd V{Eigen::Index(C), Eigen::Index(C)};
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Index ii = Eigen::Index(i);
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t e = 0; e < C; ++e)
        V(Eigen::Index(c), Eigen::Index(e)) = cross[c][e][ii] + (c == e ? own[c][ii] : 0.0);
    const Eigen::VectorXd p = Pi.row(ii).transpose();
    const Eigen::VectorXd Vp = V * p;
    const double pVp = p.dot(Vp), trace = p.dot(V.diagonal());
    for (std::size_t e = 0; e < C; ++e) {
      const Eigen::Index ee = Eigen::Index(e);
      s(ii, ee) = -0.5 * p[ee] * (V(ee, ee) - trace - 2.0 * Vp[ee] + 2.0 * pVp);
    }
  }
  // t_c = s_c - E_c K_c s_c + E_c S^-1 sum_c' E_c' K_c' s_c'.
  std::vector<Eigen::VectorXd> w(C);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(Eigen::Index(n));
  for (std::size_t c = 0; c < C; ++c) {
    w[c] = f.E[c] * (K[c] * s.col(Eigen::Index(c)));
    total += w[c];
  }
  const Eigen::VectorXd u = solve_sum(f.M, total);
  const bool tied_only = options.tied_gradient_only && model.shared_;
  RowMatrix G;
  for (std::size_t c = 0; c < C; ++c) {
    const Eigen::VectorXd t = s.col(Eigen::Index(c)) - w[c] + f.E[c] * u;
    const Eigen::VectorXd a = alpha.col(Eigen::Index(c));
    // R_w,cc = E_c - N_c' N_c (G reads j >= i): N_c' N_c = Nt_c Nt_c', half a product.
    RowMatrix Rw{Eigen::Index(n), Eigen::Index(n)};
    multiply_self_transposed(Nt[c].data(), nn, nn, Rw.data());
    Rw = f.E[c] - Rw;
    // G's upper triangle (contract_gradient reads j >= i); summed over the classes when only the tied
    // gradient is asked for (one kernel, so sum_c contract(G_c) = contract(sum_c G_c): one contraction).
    if (!tied_only || c == 0) G = RowMatrix::Zero(Eigen::Index(n), Eigen::Index(n));
    for (Eigen::Index i = 0; i < Eigen::Index(n); ++i)
      for (Eigen::Index j = i; j < Eigen::Index(n); ++j)
        G(i, j) += 0.5 * (a[i] * a[j] - Rw(i, j) + t[i] * a[j] + a[i] * t[j]);
    if (tied_only) continue;
    model.gradient_.push_back(contract_gradient(model.kernels_[c].kernel(), data.x.data(), n, d, G.data()));
    for (double g : model.gradient_.back()) {
      if (!std::isfinite(g)) {
        return Status(StatusCode::numerical_failure,
                      "multi-class Laplace: the gradient of class " + std::to_string(c) + " is not finite");
      }
    }
  }
  if (tied_only) {
    model.tied_gradient_ = contract_gradient(model.kernels_[0].kernel(), data.x.data(), n, d, G.data());
    for (double g : model.tied_gradient_) {
      if (!std::isfinite(g)) {
        return Status(StatusCode::numerical_failure, "multi-class Laplace: the tied gradient is not finite");
      }
    }
  }
  return model;
}

Result<MulticlassLatent> MulticlassLaplace::latent(const MatrixView& points, const ProgressCallback& progress) const {
  const std::size_t n = size(), d = dimension(), C = C_, m = points.rows();
  if (m == 0) return Status(StatusCode::invalid_argument, "test inputs are empty (0 rows)");
  if (points.cols() != d) {
    return Status(StatusCode::dimension_mismatch, "test inputs have " + count_of(points.cols(), "column") +
                                                      ", training inputs have " + count_of(d, "column"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite(points, "test inputs"));
  MulticlassLatent out;
  out.classes = C;
  out.mean.resize(Eigen::Index(m), Eigen::Index(C));
  out.covariance.assign(m * C * C, 0.0);
  RowMatrix block;
  for (std::size_t first = 0; first < m; first += multiclass_laplace_detail::kBlock) {
    const std::size_t b = std::min(multiclass_laplace_detail::kBlock, m - first);
    block.resize(Eigen::Index(b), Eigen::Index(d));
    points.copy_rows(first, b, block.data());
    // Per class, with Ks = k_c(x*, X) (b by n; computed once when the classes share a kernel):
    // Bt = Ks E_c (= B', B = E_c Ks'), own = s2_c - (Ks E_c Ks')_pp, Gt_c = Bt M^-T (= (M^-1 B)'), so the
    // shared term b_c' S^-1 b_e = (Gt_c Gt_e')_pp: products and row solves through the SIMD primitives.
    std::vector<RowMatrix> Gt(C);
    std::vector<Eigen::VectorXd> own(C);
    RowMatrix Ks{Eigen::Index(b), Eigen::Index(n)};
    for (std::size_t c = 0; c < C; ++c) {
      if (c == 0 || !multiclass_laplace_detail::same_kernel(kernels_[c], kernels_[c - 1])) {
        cross_kernel_matrix(kernels_[c].kernel(), block.data(), b, x_.data(), n, d, Ks.data());
      }
      const Eigen::VectorXd a = alpha_.col(Eigen::Index(c));
      Eigen::VectorXd mean(Eigen::Index(b), 1);
      multiply_vector(Ks.data(), b, n, a.data(), mean.data());
      out.mean.block(Eigen::Index(first), Eigen::Index(c), Eigen::Index(b), 1) = mean;
      RowMatrix Bt{Eigen::Index(b), Eigen::Index(n)};
      multiply_transposed(Ks.data(), b, E_[c].data(), n, n, Bt.data());  // Ks E_c' = Ks E_c
      own[c].resize(Eigen::Index(b));
      rowwise_dot(Ks.data(), Bt.data(), b, n, own[c].data());
      own[c] = kernels_[c].signal_variance - own[c].array();
      solve_lower_rows(M_.data(), n, Bt.data(), b);
      Gt[c] = std::move(Bt);
    }
    for (std::size_t c = 0; c < C; ++c) {
      for (std::size_t e = c; e < C; ++e) {
        Eigen::VectorXd shared(Eigen::Index(b), 1);
        rowwise_dot(Gt[c].data(), Gt[e].data(), b, n, shared.data());
        for (std::size_t p = 0; p < b; ++p) {
          const double v = shared[Eigen::Index(p)] + (c == e ? own[c][Eigen::Index(p)] : 0.0);
          out.covariance[((first + p) * C + c) * C + e] = v;
          out.covariance[((first + p) * C + e) * C + c] = v;
        }
      }
    }
    if (!report_progress(progress, first + b, m)) {
      return Status(StatusCode::cancelled,
                    "prediction cancelled after " + count_of(first + b, "point") + " of " + std::to_string(m));
    }
  }
  if (!out.mean.allFinite()) return Status(StatusCode::numerical_failure, "test inputs: the latent mean is not finite");
  for (double v : out.covariance) {
    if (!std::isfinite(v))
      return Status(StatusCode::numerical_failure, "test inputs: the latent covariance is not finite");
  }
  return out;
}

Result<MulticlassPrediction> MulticlassLaplace::predict(const MatrixView& points,
                                                        const SoftmaxExpectationOptions& options,
                                                        const ProgressCallback& progress) const {
  Result<MulticlassLatent> made = latent(points, progress);
  if (!made.ok()) return made.status();
  MulticlassPrediction out;
  out.latent = std::move(made).value();
  const std::size_t m = out.latent.size(), C = C_;
  out.probability.resize(Eigen::Index(m), Eigen::Index(C));
  for (std::size_t p = 0; p < m; ++p) {
    Result<SoftmaxExpectation> e =
        softmax_expectation(out.latent.mean.row(Eigen::Index(p)).transpose(), out.latent.covariance_at(p), options);
    if (!e.ok()) {
      return Status(e.status().code(), "test inputs row " + std::to_string(p) + ": " + e.status().message());
    }
    for (std::size_t c = 0; c < C; ++c) out.probability(Eigen::Index(p), Eigen::Index(c)) = e.value().probabilities[c];
    e.value().probabilities.clear();
    out.quadrature.push_back(std::move(e).value());
  }
  return out;
}

std::vector<double> MulticlassLaplace::probability_at(const double* x, const SoftmaxExpectationOptions& options) const {
  Result<MulticlassPrediction> p = predict(MatrixView(x, 1, dimension()), options);
  if (!p.ok()) return std::vector<double>(C_, std::numeric_limits<double>::quiet_NaN());
  return std::vector<double>(p.value().probability.data(), p.value().probability.data() + C_);
}

}  // namespace gpprobe
