#include "gpprobe/gpc_box_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "centred_variance_bounds.h"
#include "exponential_sum_bounds.h"
#include "gpprobe/gpc_probability_bounds.h"
#include "pairwise_exponential_sums.h"

namespace gpprobe {

namespace {

constexpr double kUnitRoundoff = 0x1.0p-53;

double dot(const std::vector<double>& a, const double* b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

struct RelaxedVariance {
  Interval variance;
  std::vector<double> lower_point, upper_point;
};

// GPC.md item 4: Sigma = s2 - S, S = sum R_il e^{-(z_i + z_l)}, R = s2^2 Q. Lower lines of S (P: tangent,
// N: chord) give Sigma^U, upper lines (P: chord, N: tangent) Sigma^L, intersected with the pairwise
// interval sum (not yet clipped).
RelaxedVariance relaxed_variance_bounds(const RowMatrix& Q, double s2, const ExponentFactors& e,
                                       const MovingInputs& inputs, const std::vector<double>& fixed_z, const Box& box,
                                       double rounding) {
  const std::size_t n = inputs.n;
  std::vector<double> sums(kPairwiseSums * n);
  const PairwiseFactors factors{e.mid.data(),    e.low.data(),          e.high.data(),
                                e.spread.data(), e.spread_expm1.data(), e.spread_exp.data()};
  pairwise_exponential_sums(Q.data(), n, factors, sums.data());
  const auto sum = [&](PairwiseSum s) { return sums.data() + std::size_t(s) * n; };
  std::vector<double> beta_lower(n), beta_upper_negated(n), weighted_mid(n), weighted_low(n);
  for (std::size_t i = 0; i < n; ++i) {
    beta_lower[i] = 2.0 * (e.low[i] * sum(kChordN)[i] - e.mid[i] * sum(kPMid)[i]);
    beta_upper_negated[i] = -2.0 * (e.low[i] * sum(kChordP)[i] - e.mid[i] * sum(kNMid)[i]);
    weighted_mid[i] = e.mid[i] * (1.0 + 2.0 * e.zm[i]);
    weighted_low[i] = 2.0 * e.zL[i] * e.low[i];
  }
  const double a_lower = dot(weighted_mid, sum(kPMid)) + dot(e.low, sum(kNLow)) - dot(weighted_low, sum(kChordN));
  const double a_upper = dot(e.low, sum(kPLow)) - dot(weighted_low, sum(kChordP)) + dot(weighted_mid, sum(kNMid));
  SeparableMinimum lowest = minimise_separable(inputs, beta_lower.data(), box);
  SeparableMinimum highest = minimise_separable(inputs, beta_upper_negated.data(), box);
  const double r = s2 * s2;
  const double lines_lower = r * (a_lower + dot(beta_lower, fixed_z.data()) + lowest.value);
  const double lines_upper = r * (a_upper - dot(beta_upper_negated, fixed_z.data()) - highest.value);
  const double ia_lower = r * (dot(e.high, sum(kPHigh)) + dot(e.low, sum(kNLow)));
  const double ia_upper = r * (dot(e.low, sum(kPLow)) + dot(e.high, sum(kNHigh)));
  double mass = 0.0;
  for (std::size_t i = 0; i < n; ++i) mass += e.low[i] * (1.0 + 2.0 * e.zU[i]) * (sum(kPLow)[i] - sum(kNLow)[i]);
  const double allowance = rounding * (s2 + r * mass);
  RelaxedVariance out;
  out.variance.lower = s2 - std::min(lines_upper, ia_upper) - allowance;
  out.variance.upper = s2 - std::max(lines_lower, ia_lower) + allowance;
  out.upper_point = std::move(lowest.point);
  out.lower_point = std::move(highest.point);
  return out;
}

}  // namespace

GpcBoxBounds::GpcBoxBounds(const GpcCommonForm& form, const RobustnessRegion& region)
    : form_(&form), region_(&region) {
  const std::size_t n = form.size(), d = form.dimension(), k = region.size();
  const RowMatrix& X = form.inputs();
  std::vector<double> theta(d);
  for (std::size_t j = 0; j < d; ++j) theta[j] = 0.5 / (form.length_scales()[j] * form.length_scales()[j]);
  std::vector<bool> moving(d, false);
  for (std::size_t j : region.dims()) moving[j] = true;
  fixed_z_.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) {
      if (moving[j]) continue;
      const double r = region.point()[j] - X(Eigen::Index(i), Eigen::Index(j));
      fixed_z_[i] += theta[j] * r * r;
    }
  }
  weights_.resize(n);
  for (std::size_t i = 0; i < n; ++i) weights_[i] = form.signal_variance() * form.alpha()[Eigen::Index(i)];
  moving_columns_.resize(k * n);
  moving_theta_.resize(k);
  for (std::size_t a = 0; a < k; ++a) {
    const std::size_t j = region.dims()[a];
    moving_theta_[a] = theta[j];
    for (std::size_t i = 0; i < n; ++i) moving_columns_[a * n + i] = X(Eigen::Index(i), Eigen::Index(j));
  }
}

LatentBoxBounds GpcBoxBounds::latent(const Box& box, VarianceMethod variance) const {
  const std::size_t n = form_->size(), k = region_->size();
  const double s2 = form_->signal_variance();
  const MovingInputs inputs{n, k, moving_columns_.data(), moving_theta_.data()};
  const ExponentFactors e(inputs, fixed_z_, box);
  const double rounding = 8.0 * kUnitRoundoff * double(2 * n + k + 16);
  LatentBoxBounds out;

  ExponentialSumBounds mean = exponential_sum_bounds(weights_.data(), e, inputs, fixed_z_, box, rounding);
  out.mean = mean.value;
  out.mean_lower_point = std::move(mean.lower_point);
  out.mean_upper_point = std::move(mean.upper_point);

  // The variance: the centred form and the reference's pairwise relaxation (as asked), whichever is
  // tighter at each end (with its candidate point), clipped to [0, s2].
  CentredVarianceBounds bound{{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()}, {}, {}};
  if (variance != VarianceMethod::relaxation) {
    bound = centred_variance_bounds(form_->variance_factor(), s2, e, inputs, fixed_z_, box, rounding);
  }
  if (variance != VarianceMethod::centred) {
    RelaxedVariance relaxed = relaxed_variance_bounds(form_->Q(), s2, e, inputs, fixed_z_, box, rounding);
    if (relaxed.variance.lower > bound.variance.lower) {
      bound.variance.lower = relaxed.variance.lower;
      bound.lower_point = std::move(relaxed.lower_point);
    }
    if (relaxed.variance.upper < bound.variance.upper) {
      bound.variance.upper = relaxed.variance.upper;
      bound.upper_point = std::move(relaxed.upper_point);
    }
  }
  out.variance.lower = std::clamp(bound.variance.lower, 0.0, s2);
  out.variance.upper = std::clamp(bound.variance.upper, out.variance.lower, s2);
  out.variance_lower_point = std::move(bound.lower_point);
  out.variance_upper_point = std::move(bound.upper_point);
  return out;
}

Interval GpcBoxBounds::probability(const LatentBoxBounds& latent) const {
  return probability_bounds(form_->likelihood(), latent.mean, latent.variance);
}

double GpcBoxBounds::probability_at(const std::vector<double>& moving) const {
  return form_->probability(region_->full(moving).data());
}

std::vector<double> GpcBoxBounds::probabilities_at(const std::vector<std::vector<double>>& moving) const {
  const std::size_t m = moving.size(), d = region_->dimension();
  RowMatrix points{Eigen::Index(m), Eigen::Index(d)};
  for (std::size_t r = 0; r < m; ++r) {
    const std::vector<double> x = region_->full(moving[r]);
    std::copy(x.begin(), x.end(), points.data() + r * d);
  }
  std::vector<double> out(m);
  GpcColumns columns;
  columns.probability = out.data();
  form_->evaluate(MatrixView(points), columns);  // finite points of the right size: it cannot fail
  return out;
}

}  // namespace gpprobe
