#include "gpprobe/certify/gpfgs_attack.h"

#include <algorithm>
#include <cmath>

namespace gpprobe {

std::vector<double> latent_mean_gradient(const ClassifierCommonForm& form, const double* x) {
  const std::size_t n = form.size(), d = form.dimension();
  const RowMatrix& X = form.inputs();
  std::vector<double> theta(d), gradient(d, 0.0);
  for (std::size_t j = 0; j < d; ++j) theta[j] = 0.5 / (form.length_scales()[j] * form.length_scales()[j]);
  for (std::size_t i = 0; i < n; ++i) {
    double z = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      const double r = x[j] - X(Eigen::Index(i), Eigen::Index(j));
      z += theta[j] * r * r;
    }
    const double weight = form.signal_variance() * form.alpha()[Eigen::Index(i)] * std::exp(-z);
    for (std::size_t j = 0; j < d; ++j) gradient[j] += weight * (x[j] - X(Eigen::Index(i), Eigen::Index(j)));
  }
  for (std::size_t j = 0; j < d; ++j) gradient[j] *= -2.0 * theta[j];
  return gradient;
}

GpfgsAttack gpfgs_attack(const ClassifierCommonForm& form, const RobustnessRegion& region) {
  const std::vector<double>& x = region.point();
  const double direction = form.probability(x.data()) > 0.5 ? -1.0 : 1.0;
  const std::vector<double> gradient = latent_mean_gradient(form, x.data());
  std::vector<double> moving(region.size());
  for (std::size_t a = 0; a < region.size(); ++a) {
    const double g = gradient[region.dims()[a]];
    const double sign = g > 0.0 ? 1.0 : g < 0.0 ? -1.0 : 0.0;
    const double step = x[region.dims()[a]] + direction * region.gamma() * sign;
    moving[a] = std::clamp(step, region.box().lower[a], region.box().upper[a]);
  }
  GpfgsAttack attack;
  attack.point = region.full(moving);
  attack.probability = form.probability(attack.point.data());
  return attack;
}

}  // namespace gpprobe
