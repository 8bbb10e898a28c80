#include "gpprobe/certify/multiclass_box_bounds.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "certify/exponential_sum_bounds.h"
#include "common/numeric_constants.h"
#include "certify/separable_quadratic.h"

namespace gpprobe {

namespace multiclass_box_detail {

// The box's view of one class's exponentials e_i = e^{-z_i}.
struct ClassView {
  MovingInputs inputs;
  const std::vector<double>* fixed_z;
  ExponentFactors e;
  std::vector<double> centre;  // e_i at the box centre
  double largest_zU = 0.0;
};

// Bounds of S = sum_il R_il e_i^p e_l^q over the box: term by term, and the centred form; intersected.
Interval pairwise_sum(const RowMatrix& R, const ClassView& p, const ClassView& q, const Box& box, double rounding) {
  const Eigen::Index n = R.rows();
  double lo = 0.0, hi = 0.0, mass = 0.0, quad = 0.0;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(n), h(n);
  const Eigen::Map<const Eigen::VectorXd> cp(p.centre.data(), n), cq(q.centre.data(), n);
  std::vector<double> dq(std::size_t(n), 0.0);
  for (Eigen::Index l = 0; l < n; ++l) {
    dq[std::size_t(l)] = std::max(std::abs(q.e.low[std::size_t(l)] - cq[l]), std::abs(q.e.high[std::size_t(l)] - cq[l]));
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::size_t ii = std::size_t(i);
    double pos_high = 0.0, pos_low = 0.0, neg_high = 0.0, neg_low = 0.0, row_h = 0.0, row_abs = 0.0;
    const double* row = R.data() + i * n;
    for (Eigen::Index l = 0; l < n; ++l) {
      const double r = row[l];
      const std::size_t ll = std::size_t(l);
      if (r >= 0.0) {
        pos_high += r * q.e.high[ll];
        pos_low += r * q.e.low[ll];
      } else {
        neg_high += r * q.e.high[ll];
        neg_low += r * q.e.low[ll];
      }
      row_h += r * cq[l];
      row_abs += std::abs(r) * dq[ll];
      g[l] += r * cp[i];
    }
    lo += p.e.high[ii] * pos_high + p.e.low[ii] * neg_low;
    hi += p.e.low[ii] * pos_low + p.e.high[ii] * neg_high;
    mass += p.e.low[ii] * (pos_low - neg_low);
    h[i] = row_h;
    const double dp = std::max(std::abs(p.e.low[ii] - cp[i]), std::abs(p.e.high[ii] - cp[i]));
    quad += dp * row_abs;
  }
  const double at_centre = cp.dot(h);
  const ExponentialSumBounds lin_q = exponential_sum_bounds(g.data(), q.e, q.inputs, *q.fixed_z, box, rounding);
  const ExponentialSumBounds lin_p = exponential_sum_bounds(h.data(), p.e, p.inputs, *p.fixed_z, box, rounding);
  const double gq = g.dot(cq), hp = h.dot(cp);
  const Interval centred{at_centre + (lin_q.value.lower - gq) + (lin_p.value.lower - hp) - quad,
                         at_centre + (lin_q.value.upper - gq) + (lin_p.value.upper - hp) + quad};
  const double allowance = rounding * mass * (1.0 + p.largest_zU + q.largest_zU) + rounding * (mass + quad);
  return {std::max(lo, centred.lower) - allowance, std::min(hi, centred.upper) + allowance};
}

Interval minus(Interval a, Interval b) { return {a.lower - b.upper, a.upper - b.lower}; }
Interval add(Interval a, Interval b) { return {a.lower + b.lower, a.upper + b.upper}; }

}  // namespace multiclass_box_detail

std::size_t MulticlassBoxBounds::pair_index(std::size_t p, std::size_t q) const {
  if (p > q) std::swap(p, q);
  return p * C_ - p * (p + 1) / 2 + q;  // row p of the upper triangle
}

MulticlassBoxBounds::MulticlassBoxBounds(const MulticlassLaplace& model, const RobustnessRegion& region)
    : model_(&model), region_(&region) {
  n_ = model.size();
  C_ = model.classes();
  k_ = region.size();
  const std::size_t d = model.dimension(), r = C_ - 1;
  const RowMatrix& X = model.inputs();
  std::vector<bool> moving(d, false);
  for (std::size_t j : region.dims()) moving[j] = true;
  moving_columns_.resize(k_ * n_);
  for (std::size_t a = 0; a < k_; ++a)
    for (std::size_t i = 0; i < n_; ++i) moving_columns_[a * n_ + i] = X(Eigen::Index(i), Eigen::Index(region.dims()[a]));
  for (std::size_t c = 0; c < C_; ++c) {
    const SeArdKernel& kernel = model.kernels()[c];
    std::vector<double> theta(d);
    for (std::size_t j = 0; j < d; ++j) theta[j] = 0.5 / (kernel.length_scales[j] * kernel.length_scales[j]);
    std::vector<double> moving_theta(k_), fixed(n_, 0.0);
    for (std::size_t a = 0; a < k_; ++a) moving_theta[a] = theta[region.dims()[a]];
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        if (moving[j]) continue;
        const double v = region.point()[j] - X(Eigen::Index(i), Eigen::Index(j));
        fixed[i] += theta[j] * v * v;
      }
    theta_.push_back(std::move(moving_theta));
    fixed_z_.push_back(std::move(fixed));
    std::vector<double> w(n_);
    for (std::size_t i = 0; i < n_; ++i) w[i] = kernel.signal_variance * model.alpha()(Eigen::Index(i), Eigen::Index(c));
    weights_.push_back(std::move(w));
    same_scales_.push_back(kernel.length_scales == model.kernels()[r].length_scales);
  }
  // R^pq = s2_p s2_q (delta_pq E_p - N_p' N_q), N = M^-1 E.
  const auto lower = model.M().triangularView<Eigen::Lower>();
  std::vector<RowMatrix> N;
  for (std::size_t c = 0; c < C_; ++c) N.push_back(lower.solve(model.E()[c]));
  R_.resize(C_ * (C_ + 1) / 2);
  for (std::size_t p = 0; p < C_; ++p)
    for (std::size_t q = p; q < C_; ++q) {
      RowMatrix Rpq = -(N[p].transpose() * N[q]);
      if (p == q) Rpq += model.E()[p];
      R_[pair_index(p, q)] = model.kernels()[p].signal_variance * model.kernels()[q].signal_variance * Rpq;
    }
  bool all_same = true;
  for (bool s : same_scales_) all_same = all_same && s;
  if (all_same) {
    const std::size_t D = C_ - 1;
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t k = j; k < D; ++k) {
        difference_R_.push_back(R_[pair_index(j, k)] - R_[pair_index(j, r)] - R_[pair_index(k, r)].transpose() +
                                R_[pair_index(r, r)]);
      }
  }
}

MulticlassLatentBounds MulticlassBoxBounds::latent(const Box& box) const {
  using namespace multiclass_box_detail;
  const std::size_t C = C_, D = C - 1, r = C - 1, n = n_;
  const double rounding = 8.0 * kUnitRoundoff * double(2 * n + k_ + 16);
  const std::vector<double> centre = box.centre();
  std::vector<ClassView> views;
  views.reserve(C);
  for (std::size_t c = 0; c < C; ++c) {
    const MovingInputs inputs{n, k_, moving_columns_.data(), theta_[c].data()};
    ClassView v{inputs, &fixed_z_[c], ExponentFactors(inputs, fixed_z_[c], box), std::vector<double>(n), 0.0};
    for (std::size_t i = 0; i < n; ++i) {
      double z = fixed_z_[c][i];
      for (std::size_t a = 0; a < k_; ++a) {
        const double t = centre[a] - moving_columns_[a * n + i];
        z += theta_[c][a] * t * t;
      }
      v.centre[i] = std::exp(-z);
      v.largest_zU = std::max(v.largest_zU, v.e.zU[i]);
    }
    views.push_back(std::move(v));
  }
  MulticlassLatentBounds out;
  for (std::size_t c = 0; c < C; ++c) {
    ExponentialSumBounds m =
        exponential_sum_bounds(weights_[c].data(), views[c].e, views[c].inputs, fixed_z_[c], box, rounding);
    out.mean.push_back(m.value);
    out.mean_lower_point.push_back(std::move(m.lower_point));
    out.mean_upper_point.push_back(std::move(m.upper_point));
  }
  out.covariance.assign(C * C, Interval{});
  for (std::size_t p = 0; p < C; ++p)
    for (std::size_t q = p; q < C; ++q) {
      const Interval S = pairwise_sum(R_[pair_index(p, q)], views[p], views[q], box, rounding);
      const double s2p = model_->kernels()[p].signal_variance, s2q = model_->kernels()[q].signal_variance;
      Interval v{(p == q ? s2p : 0.0) - S.upper, (p == q ? s2p : 0.0) - S.lower};
      if (p == q) {
        v = {std::clamp(v.lower, 0.0, s2p), std::clamp(v.upper, 0.0, s2p)};
      } else {
        const double bound = std::sqrt(s2p * s2q);
        v = {std::clamp(v.lower, -bound, bound), std::clamp(v.upper, -bound, bound)};
      }
      out.covariance[p * C + q] = v;
      out.covariance[q * C + p] = v;
    }
  // The differences to the last class.
  for (std::size_t j = 0; j < D; ++j) {
    Interval m = minus(out.mean[j], out.mean[r]);
    if (same_scales_[j]) {
      std::vector<double> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = weights_[j][i] - weights_[r][i];
      m = intersect(m, exponential_sum_bounds(w.data(), views[r].e, views[r].inputs, fixed_z_[r], box, rounding).value);
    }
    out.difference_mean.push_back(m);
  }
  out.difference_covariance.assign(D * D, Interval{});
  std::size_t combined = 0;
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t k = j; k < D; ++k) {
      const auto& S = out.covariance;
      Interval v = add(minus(S[j * C + k], add(S[j * C + r], S[k * C + r])), S[r * C + r]);
      if (!difference_R_.empty()) {
        const Interval sum = pairwise_sum(difference_R_[combined++], views[r], views[r], box, rounding);
        const double constant = (j == k ? model_->kernels()[j].signal_variance : 0.0) + model_->kernels()[r].signal_variance;
        v = intersect(v, Interval{constant - sum.upper, constant - sum.lower});
      }
      if (j == k) v.lower = std::max(v.lower, 0.0);
      out.difference_covariance[j * D + k] = v;
      out.difference_covariance[k * D + j] = v;
    }
  // The exact moments at the centre.
  const std::vector<double> x = region_->full(centre);
  Result<MulticlassLatent> at = model_->latent(MatrixView(x.data(), 1, x.size()));
  if (at.ok()) {
    const Eigen::MatrixXd S = at.value().covariance_at(0);
    const Eigen::Index rr = Eigen::Index(r);
    for (Eigen::Index j = 0; j < rr; ++j) {
      out.centre_difference_mean.push_back(at.value().mean(0, j) - at.value().mean(0, rr));
      for (Eigen::Index k = 0; k < rr; ++k) out.centre_difference_covariance.push_back(S(j, k) - S(j, rr) - S(k, rr) + S(rr, rr));
    }
  }
  return out;
}

ClassProbabilityBounds MulticlassBoxBounds::probability(const MulticlassLatentBounds& latent,
                                                        const std::vector<std::size_t>& classes,
                                                        const LatentPartitionOptions& options) const {
  using namespace multiclass_box_detail;
  const std::size_t C = C_, D = C - 1;
  std::vector<std::size_t> asked = classes;
  if (asked.empty())
    for (std::size_t c = 0; c < C; ++c) asked.push_back(c);
  // The vertex bound (see the header).
  std::vector<Interval> vertex(C, Interval{0.0, 1.0});
  double vertex_gap = 1.0;
  if (latent.centre_difference_covariance.size() == D * D) {
    double spread = 0.0;
    for (std::size_t e = 0; e < D * D; ++e) {
      const double g0 = latent.centre_difference_covariance[e];
      spread += std::max(std::abs(latent.difference_covariance[e].upper - g0), std::abs(g0 - latent.difference_covariance[e].lower));
    }
    const double curvature = 4.0 / 27.0 * spread;
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(Eigen::Index(C));
    Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(Eigen::Index(C), Eigen::Index(C));
    for (std::size_t j = 0; j < D; ++j)
      for (std::size_t k = 0; k < D; ++k) cov(Eigen::Index(j), Eigen::Index(k)) = latent.centre_difference_covariance[j * D + k];
    vertex_gap = 0.0;
    for (std::size_t c : asked) {
      double ends[2] = {0.0, 1.0};
      bool ok = true;
      for (int side = 0; side < 2; ++side) {
        const bool minimum = side == 0;
        for (std::size_t j = 0; j < D; ++j) {
          const Interval& m = latent.difference_mean[j];
          mean[Eigen::Index(j)] = ((j == c) == minimum) ? m.lower : m.upper;
        }
        SoftmaxExpectationOptions quadrature;
        quadrature.tolerance = 1e-10;  // far below any gap here; the margin takes 10 times its estimate
        Result<SoftmaxExpectation> e = softmax_expectation(mean, cov, quadrature);
        if (!e.ok()) {
          ok = false;
          break;
        }
        const double margin = 10.0 * e.value().error_estimate + 1e-12;
        ends[side] = minimum ? e.value().probabilities[c] - curvature - margin : e.value().probabilities[c] + curvature + margin;
      }
      if (!ok) {
        vertex_gap = 1.0;
        continue;
      }
      vertex[c] = {std::clamp(ends[0], 0.0, 1.0), std::clamp(ends[1], 0.0, 1.0)};
      vertex_gap = std::max(vertex_gap, vertex[c].width());
    }
  }
  LatentPartitionOptions partition = options;
  if (vertex_gap <= options.target_gap) partition.max_cells = 0;  // the initial grid only
  ClassProbabilityBounds out =
      softmax_probability_bounds(latent.difference_mean, latent.difference_covariance, classes, partition);
  for (std::size_t c = 0; c < C; ++c) out.probability[c] = intersect(out.probability[c], vertex[c]);
  // The C probabilities sum to 1.
  double low = 0.0, high = 0.0;
  for (const Interval& i : out.probability) low += i.lower, high += i.upper;
  for (Interval& i : out.probability) {
    i = {std::max(i.lower, 1.0 - (high - i.upper)), std::min(i.upper, 1.0 - (low - i.lower))};
  }
  return out;
}

std::vector<double> MulticlassBoxBounds::probabilities_at(const std::vector<double>& moving,
                                                          const SoftmaxExpectationOptions& quadrature) const {
  const std::vector<double> x = region_->full(moving);
  return model_->probability_at(x.data(), quadrature);
}

}  // namespace gpprobe
