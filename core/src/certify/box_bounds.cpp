#include "gpprobe/certify/box_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpprobe/certify/probability_bounds.h"

#include "certify/centred_variance_bounds.h"
#include "certify/exponential_sum_bounds.h"
#include "certify/relaxed_variance_bounds.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {}  // namespace

ClassifierBoxBounds::ClassifierBoxBounds(const ClassifierCommonForm& form, const RobustnessRegion& region)
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

LatentBoxBounds ClassifierBoxBounds::latent(const Box& box, VarianceMethod variance) const {
  const std::size_t n = form_->size(), k = region_->size();
  const double s2 = form_->signal_variance();
  const MovingInputs inputs{n, k, moving_columns_.data(), moving_theta_.data()};
  const ExponentFactors e(inputs, fixed_z_, box);
  const double rounding = 8.0 * kUnitRoundoff * double(2 * n + k + 16);
  LatentBoxBounds out;

  // The reference relaxation alone bounds the mean as the authors' code does (VarianceMethod::relaxation).
  ExponentialSumBounds mean = exponential_sum_bounds(weights_.data(), e, inputs, fixed_z_, box, rounding,
                                                     variance != VarianceMethod::relaxation);
  out.mean = mean.value;
  out.mean_lower_point = std::move(mean.lower_point);
  out.mean_upper_point = std::move(mean.upper_point);

  // The variance: the centred form and the reference's pairwise relaxation (as asked), whichever is
  // tighter at each end (with its candidate point), clipped to [0, s2].
  CentredVarianceBounds bound{
      {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()}, {}, {}};
  if (variance != VarianceMethod::relaxation) {
    bound = centred_variance_bounds(form_->variance_factor(), s2, e, inputs, fixed_z_, box, rounding);
  }
  if (variance != VarianceMethod::centred) {
    RelaxedVarianceBounds relaxed = relaxed_variance_bounds(form_->Q(), s2, e, inputs, fixed_z_, box, rounding);
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

Interval ClassifierBoxBounds::probability(const LatentBoxBounds& latent) const {
  return probability_bounds(form_->likelihood(), latent.mean, latent.variance);
}

double ClassifierBoxBounds::probability_at(const std::vector<double>& moving) const {
  return form_->probability(region_->full(moving).data());
}

std::vector<double> ClassifierBoxBounds::probabilities_at(const std::vector<std::vector<double>>& moving) const {
  const std::size_t m = moving.size(), d = region_->dimension();
  RowMatrix points{Eigen::Index(m), Eigen::Index(d)};
  for (std::size_t r = 0; r < m; ++r) {
    const std::vector<double> x = region_->full(moving[r]);
    std::copy(x.begin(), x.end(), points.data() + r * d);
  }
  std::vector<double> out(m);
  ClassifierColumns columns;
  columns.probability = out.data();
  form_->evaluate(MatrixView(points), columns);  // finite points of the right size: it cannot fail
  return out;
}

}  // namespace gpprobe
