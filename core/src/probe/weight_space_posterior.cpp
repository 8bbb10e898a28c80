#include "probe/weight_space_posterior.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "gpprobe/linalg/blocked_cholesky.h"
#include "gpprobe/linalg/cholesky_update.h"
#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/linalg/row_products.h"

#include "linalg/float32_products.h"

namespace gpprobe {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// Float32 variances are kept while q = sum_j S_jj (psi - m)_j^2 <= this times the variance (see the header):
// measured, their relative error is then below ~1e-7 sqrt(64) = 8e-7.
constexpr double kFloat32Cancellation = 64.0;

// The largest D fitted by Eigen's LLT on the calling thread (refresh()): one 64-row block of the blocked
// factorisation, which has no second block to give another thread.
constexpr Index kLargestSerialFit = 64;

// G = Psi_c' Psi_c and s = Psi_c' 1 over the rows of one label class.
void class_statistics(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, std::uint8_t label, MatrixXd* G,
                      VectorXd* s) {
  const Index D = psi.cols();
  std::vector<Index> rows;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == label) rows.push_back(Index(i));
  // The transposed class block, D by n_c row-major: its rows are the columns of Psi_c, so the Gram
  // matrix Psi_c' Psi_c is one row product.
  // Filled in bands of 64 of its rows on the pool (each band reads 64 consecutive values of every class
  // row), with each row's sum.
  const Index n = Index(rows.size());
  RowMatrix T(D, n);
  s->resize(D);
  constexpr Index kBand = 64;
  parallel_for(std::size_t((D + kBand - 1) / kBand), [&](std::size_t begin, std::size_t end) {
    const Index first = Index(begin) * kBand, last = std::min(D, Index(end) * kBand);
    for (Index c = 0; c < n; ++c) {
      const double* from = psi.data() + rows[std::size_t(c)] * D;
      for (Index j = first; j < last; ++j) T(j, c) = from[j];
    }
    s->segment(first, last - first) = T.middleRows(first, last - first).rowwise().sum();
  });
  G->resize(D, D);
  multiply_self_transposed(T.data(), std::size_t(D), rows.size(), G->data());
}

}  // namespace

Status WeightSpacePosterior::fit(const RowMatrix& psi, const std::vector<std::uint8_t>& labels) {
  class_statistics(psi, labels, 1, &G_positive_, &s_positive_);
  class_statistics(psi, labels, 0, &G_negative_, &s_negative_);
  observations_ = double(labels.size());
  return refresh();
}

Status WeightSpacePosterior::add(const RowMatrix&, const double* psi_new, std::uint8_t label) {
  return change(Eigen::Map<const VectorXd>(psi_new, G_positive_.rows()), label != 0, 1.0);
}

Status WeightSpacePosterior::remove(const RowMatrix& psi, const std::vector<std::uint8_t>& labels, Index i) {
  return change(psi.row(i).transpose(), labels[std::size_t(i)] != 0, -1.0);
}

Status WeightSpacePosterior::change(const VectorXd& x, bool positive, double sign) {
  (positive ? G_positive_ : G_negative_).noalias() += sign * x * x.transpose();
  (positive ? s_positive_ : s_negative_) += sign * x;
  observations_ += sign;
  // Sherman-Morrison per GP, O(D^2): taking an observation out is adding one of noise -n. A downdate
  // whose denominator n - x'C x is not clearly positive (the point dominated its neighbourhood) or an
  // inverse that drifted from the statistics (checked below) is refactored from G and s instead.
  bool refactor = false;
  for (auto [C, u, raises] : {std::tuple{&C_alpha_, &u_alpha_, positive}, std::tuple{&C_beta_, &u_beta_, !positive}}) {
    const SyntheticObservation o = synthetic_observation(prior_, raises);
    const VectorXd g = *C * x;
    const double denominator = sign * o.noise + x.dot(g);
    if (!(sign * denominator > 1e-6 * o.noise)) refactor = true;
    if (refactor) break;
    C->noalias() -= (g / denominator) * g.transpose();
    *u += g * ((o.residual - x.dot(*u)) / denominator);
  }
  if (refactor || !accurate()) return refresh();
  S_ = C_alpha_ + C_beta_;
  std::atomic_store(&variance_factor_, std::shared_ptr<const VarianceFactor>());
  u_ = u_alpha_ - u_beta_;
  return Status::success();
}

bool WeightSpacePosterior::accurate() {
  // A C = I and A u = b for each GP, checked on x = the raising class's mean feature direction (any fixed
  // vector would do): residuals against 1e-13 plus what the condition estimate already admits.
  const double raised = prior_.raised.variance, base = prior_.variance;
  const double delta = prior_.raised.mean - prior_.mean;
  const Index D = G_positive_.rows();
  const VectorXd probe = VectorXd::Ones(D) / std::sqrt(double(D));
  double condition = 1.0;
  for (auto [C, u, G_raised, G_base, s] : {std::tuple{&C_alpha_, &u_alpha_, &G_positive_, &G_negative_, &s_positive_},
                                           std::tuple{&C_beta_, &u_beta_, &G_negative_, &G_positive_, &s_negative_}}) {
    const MatrixXd& raising = *G_raised;
    const MatrixXd& lowering = *G_base;
    const VectorXd diagonal = VectorXd::Ones(D) + raising.diagonal() / raised + lowering.diagonal() / base;
    condition = std::max(condition, diagonal.dot(C->diagonal()));
    const double tolerance = 1e-13 + 1e-15 * condition_;
    const VectorXd b = *s * (delta / raised);
    const VectorXd y = *C * probe;
    if ((y + raising * (y / raised) + lowering * (y / base) - probe).norm() > tolerance) return false;
    if ((*u + raising * (*u / raised) + lowering * (*u / base) - b).norm() > tolerance * std::max(1.0, b.norm()))
      return false;
  }
  condition_ = condition;
  return true;
}

Status WeightSpacePosterior::refresh() {
  const Index D = G_positive_.rows();
  const double raised = prior_.raised.variance;
  const double base = prior_.variance;
  const double delta = prior_.raised.mean - prior_.mean;
  // Each GP: A = L L' by the blocked Cholesky, then C = A^-1 = L^-T L^-1 (blocked_cholesky.h), with a
  // partition of the work that does not depend on the thread count, so the fit has the same bits on any
  // number of threads. u = A^-1 b with b = s delta / n+ (a class's raising observations) by two triangular
  // solves (O(D^2)).
  // Up to one block (D <= kLargestSerialFit) there is nothing to share between threads, and Eigen's LLT is
  // kept: small probes (the golden files, certificates compared between builds to 1e-9, where a search
  // follows the rounding) keep the arithmetic they always had. Nothing is kept unless both GPs factor.
  double condition[2] = {1.0, 1.0};
  // The large matrices are allocated here, on the calling thread, not inside the tasks: malloc serves a
  // pool thread from its own arena, whose freed megabytes go back to the kernel, so each fit faulted them
  // in afresh (in a Python process at O = 4,000: 5,200 page faults a fit before, 4,700 after).
  RowMatrix C[2], factor[2];
  VectorXd u[2];
  if (D > kLargestSerialFit) {
    for (int gp = 0; gp < 2; ++gp) {
      C[gp].resize(D, D);
      factor[gp].resize(D, D);
    }
  }
  const auto fit_gp = [&](std::size_t gp) -> Status {  // 0: f_alpha, raised by the positives; 1: f_beta
    const MatrixXd& G_raised = gp == 0 ? G_positive_ : G_negative_;
    const MatrixXd& G_base = gp == 0 ? G_negative_ : G_positive_;
    const char* what = gp == 0 ? "the weight precision of f_alpha" : "the weight precision of f_beta";
    u[gp] = (gp == 0 ? s_positive_ : s_negative_) * (delta / raised);
    if (D <= kLargestSerialFit) {
      C[gp].resize(D, D);
      MatrixXd L;
      GPPROBE_RETURN_IF_ERROR(cholesky_factor(MatrixXd::Identity(D, D) + G_raised / raised + G_base / base, &L, what));
      L.triangularView<Eigen::Lower>().solveInPlace(u[gp]);
      L.triangularView<Eigen::Lower>().transpose().solveInPlace(u[gp]);
      inverse_from_cholesky(L, C[gp].data());
      condition[gp] = scaled_condition(L, C[gp].diagonal());
      return Status::success();
    }
    // A's lower triangle, row by row. G is symmetric (mirrored exactly) and column-major, so its memory
    // read row-major is G itself: contiguous reads, the same values and operations as (I + G/raised) +
    // G'/base element by element.
    RowMatrix& L = factor[gp];
    const double* gr = G_raised.data();
    const double* gb = G_base.data();
    parallel_for(
        std::size_t(D),
        [&](std::size_t begin, std::size_t end) {
          for (std::size_t i = begin; i < end; ++i) {
            double* row = L.data() + i * std::size_t(D);
            const std::size_t at = i * std::size_t(D);
            for (std::size_t j = 0; j <= i; ++j)
              row[j] = ((i == j ? 1.0 : 0.0) + gr[at + j] / raised) + gb[at + j] / base;
            std::fill(row + i + 1, row + D, 0.0);
          }
        },
        64);
    GPPROBE_RETURN_IF_ERROR(cholesky_in_place(L.data(), std::size_t(D), what));
    L.triangularView<Eigen::Lower>().solveInPlace(u[gp]);
    L.triangularView<Eigen::Lower>().transpose().solveInPlace(u[gp]);
    invert_lower_transposed(L.data(), std::size_t(D), C[gp].data());
    gram_of_upper_in_place(C[gp].data(), std::size_t(D), true);
    condition[gp] = L.rowwise().squaredNorm().dot(C[gp].diagonal());  // scaled_condition
    return Status::success();
  };
  // On two threads the two GPs run side by side, each on its own thread with its products serial there
  // (parallel_for.h: a loop inside a task runs on the task's thread): no hand-offs between the many small
  // steps of the blocked factorisations. With more threads each GP runs in turn with its products on all
  // of them. The arithmetic is the same either way.
  if (thread_count() <= 2) {
    GPPROBE_RETURN_IF_ERROR(parallel_tasks(2, fit_gp, [](std::size_t) { return Status::success(); }));
  } else {
    for (std::size_t gp = 0; gp < 2; ++gp) GPPROBE_RETURN_IF_ERROR(fit_gp(gp));
  }
  // Both inverses are kept for the O(D^2) updates of change().
  C_alpha_ = std::move(C[0]);
  C_beta_ = std::move(C[1]);
  u_alpha_ = std::move(u[0]);
  u_beta_ = std::move(u[1]);
  u_ = u_alpha_ - u_beta_;
  condition_ = std::max({1.0, condition[0], condition[1]});
  S_.resize(D, D);
  parallel_for(
      std::size_t(D),
      [&](std::size_t begin, std::size_t end) {
        const std::size_t at = begin * std::size_t(D), count = (end - begin) * std::size_t(D);
        for (std::size_t e = 0; e < count; ++e) S_.data()[at + e] = C_alpha_.data()[at + e] + C_beta_.data()[at + e];
      },
      64);
  std::atomic_store(&variance_factor_, std::shared_ptr<const VarianceFactor>());
  return Status::success();
}

void WeightSpacePosterior::prepare(std::size_t queries) const {
  // D^3/3 to factor against D^2/2 saved per query, and the factor serves every later pass until S
  // changes (kept scores score in blocks of 512): from D/2 queries on. Single drift checks never factor.
  const std::size_t D = std::size_t(S_.rows());
  if (D == 0 || !long_pass(queries) || std::atomic_load(&variance_factor_)) return;
  // S = T'T with T lower is the Cholesky factor of S with its rows and columns reversed (J S J = L L'
  // gives T = J L' J): T_ij = L_(D-1-j)(D-1-i).
  // The copies below run in bands of 64 rows on the pool, the transposing one in 64 by 64 tiles.
  constexpr std::size_t kBand = 64;
  const std::size_t bands = (D + kBand - 1) / kBand;
  const auto by_bands = [&](const auto& band) {
    parallel_for(bands, [&](std::size_t begin, std::size_t end) {
      for (std::size_t b = begin; b < end; ++b) band(b * kBand, std::min(D, (b + 1) * kBand));
    });
  };
  RowMatrix reversed{Index(D), Index(D)};
  by_bands([&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      for (std::size_t j = 0; j < D; ++j) reversed.data()[i * D + j] = S_.data()[(D - 1 - i) * D + (D - 1 - j)];
  });
  if (!cholesky_in_place(reversed.data(), D, "S").ok()) return;  // S itself still serves predict()
  auto factor = std::make_shared<VarianceFactor>();
  factor->T.resize(Index(D), Index(D));
  factor->T32.resize(D * D);  // zeros above the diagonal, as float32_products.h needs
  by_bands([&](std::size_t first, std::size_t last) {
    double* T = factor->T.data();
    for (std::size_t j0 = 0; j0 < D; j0 += kBand)
      for (std::size_t i = first; i < last; ++i)
        for (std::size_t j = j0; j < std::min(D, j0 + kBand); ++j)
          T[i * D + j] = reversed.data()[(D - 1 - j) * D + (D - 1 - i)];
    for (std::size_t i = first; i < last; ++i)
      for (std::size_t j = 0; j < D; ++j) factor->T32[i * D + j] = j <= i ? float(T[i * D + j]) : 0.0f;
  });
  factor->S_diagonal = S_.diagonal();
  factor->centre =
      observations_ > 0.0 ? VectorXd((s_positive_ + s_negative_) / observations_) : VectorXd::Zero(Index(D));
  factor->centre_image = factor->T.triangularView<Eigen::Lower>() * factor->centre;
  std::atomic_store(&variance_factor_, std::shared_ptr<const VarianceFactor>(std::move(factor)));
}

void WeightSpacePosterior::predict(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass,
                                   double* mean, double* variance) const {
  const std::size_t D = std::size_t(psi.cols());
  multiply_vector(P, count, D, u_.data(), mean);
  thread_local std::vector<double> PS;  // per-thread scratch (probe.cpp, score)
  PS.resize(count * D);
  if (const std::shared_ptr<const VarianceFactor> factor = factored(pass)) {
    multiply_lower_transposed(P, count, factor->T.data(), D, PS.data());  // rows (T psi)'
    rowwise_dot(PS.data(), PS.data(), count, D, variance);
    return;
  }
  multiply_transposed(P, count, S_.data(), D, D, PS.data());  // S is symmetric: rows = columns
  rowwise_dot(P, PS.data(), count, D, variance);
}

void WeightSpacePosterior::predict_float32(const RowMatrix& psi, const double* P, std::size_t count, std::size_t pass,
                                           double* mean, double* variance) const {
  const std::shared_ptr<const VarianceFactor> factor = factored(pass);
  if (!factor) return predict(psi, P, count, pass, mean, variance);
  const std::size_t D = std::size_t(psi.cols());
  multiply_vector(P, count, D, u_.data(), mean);
  // Rows (psi - m)' rounded to float, and q for each.
  std::vector<float> P32(count * D);
  std::vector<double> q(count, 0.0);
  const double* s = factor->S_diagonal.data();
  const double* m = factor->centre.data();
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = 0; j < D; ++j) {
      const double offset = P[i * D + j] - m[j];
      P32[i * D + j] = float(offset);
      q[i] += s[j] * (offset * offset);
    }
  }
  std::vector<double> Y(count * D);
  multiply_lower_transposed(P32.data(), count, factor->T32.data(), D, Y.data());  // rows (T (psi - m))'
  const double* image = factor->centre_image.data();
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = 0; j < D; ++j) Y[i * D + j] += image[j];  // rows (T psi)'
  rowwise_dot(Y.data(), Y.data(), count, D, variance);
  // Queries whose T psi cancels: again in float64, gathered into one product.
  std::vector<std::size_t> again;
  for (std::size_t i = 0; i < count; ++i)
    if (!(kFloat32Cancellation * variance[i] >= q[i])) again.push_back(i);
  if (again.empty()) return;
  std::vector<double> rows(again.size() * D), products(again.size() * D), exact(again.size());
  for (std::size_t r = 0; r < again.size(); ++r)
    std::copy(P + again[r] * D, P + (again[r] + 1) * D, rows.data() + r * D);
  multiply_lower_transposed(rows.data(), again.size(), factor->T.data(), D, products.data());
  rowwise_dot(products.data(), products.data(), again.size(), D, exact.data());
  for (std::size_t r = 0; r < again.size(); ++r) variance[again[r]] = exact[r];
}

ObservationInfluence WeightSpacePosterior::influence(const RowMatrix&, const double* x_data, std::uint8_t label) const {
  const Eigen::Map<const VectorXd> x(x_data, C_alpha_.rows());
  ObservationInfluence out;
  for (auto [C, u, raises, share] : {std::tuple{&C_alpha_, &u_alpha_, label != 0, &out.alpha},
                                     std::tuple{&C_beta_, &u_beta_, label == 0, &out.beta}}) {
    VectorXd g = *C * x;
    const double p = x.dot(g);
    set_influence(synthetic_observation(prior_, raises), std::move(g), x.dot(*u), p, share);
  }
  return out;
}

LatentWeights WeightSpacePosterior::weights(const RowMatrix& psi) const {
  return LatentWeights::from_weight_space(prior_.variance, u_, S_, std::size_t(psi.rows()));
}

}  // namespace gpprobe
