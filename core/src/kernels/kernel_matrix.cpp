#include "gpprobe/kernels/kernel_matrix.h"

#include <cmath>
#include <utility>
#include <vector>

#include "kernels/scaled_distance.h"
#include "linalg/lanes_math.h"

namespace gpprobe {

namespace {

// constant(c) * rbf(l) without walking the expression (Kernel::scaled_rbf): the same operations in the
// same order as kernel.cpp's evaluate_node (both sum through scaled_distance.h), so the same bits, at a
// fraction of the time (the classifiers' evidence evaluates it O(n^2) times per step).
class ScaledRbf {
 public:
  ScaledRbf(double variance, std::vector<double> length_scales, std::size_t d)
      : c_(variance), l_(std::move(length_scales)), d_(d) {}

  // k(a, b); a and b are kept for add_gradient.
  double operator()(const double* a, const double* b) {
    const double* l = l_.data();
    const double r2 = l_.size() == 1 ? scaled_distance2(a, b, d_, IsotropicScale{l[0]})
                                     : scaled_distance2(a, b, d_, ard_scale([l](std::size_t j) { return l[j]; }));
    a_ = a;
    b_ = b;
    rbf_ = std::exp(-0.5 * r2);
    r2_ = r2;
    return c_ * rbf_;
  }

  // out += w * dk/dtheta at the pair of the last operator() call (theta = log c, then log l).
  void add_gradient(double w, bool isotropic, double* out) const {
    out[0] += w * (c_ * rbf_);
    if (isotropic) {
      out[1] += w * ((rbf_ * r2_) * c_);
      return;
    }
    for (std::size_t j = 0; j < d_; ++j) {
      const double t = (a_[j] - b_[j]) / l_[j];
      out[1 + j] += w * (((rbf_ * t) * t) * c_);
    }
  }

 private:
  double c_;
  std::vector<double> l_;
  std::size_t d_;
  const double* a_ = nullptr;
  const double* b_ = nullptr;
  double rbf_ = 0.0, r2_ = 0.0;
};

}  // namespace

RowMatrix kernel_matrix(const Kernel& kernel, const double* x, std::size_t n, std::size_t d) {
  RowMatrix K{Eigen::Index(n), Eigen::Index(n)};
  double c = 0.0;
  std::vector<double> l;
  if (kernel.scaled_rbf(&c, &l)) {
    ScaledRbf k(c, std::move(l), d);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = j; i < n; ++i)
        K(Eigen::Index(j), Eigen::Index(i)) = K(Eigen::Index(i), Eigen::Index(j)) = k(x + i * d, x + j * d);
    return K;
  }
  for (std::size_t j = 0; j < n; ++j) {
    const double* xj = x + j * d;
    for (std::size_t i = j; i < n; ++i) {
      const double k = kernel(x + i * d, xj, d);
      K(Eigen::Index(i), Eigen::Index(j)) = k;
      K(Eigen::Index(j), Eigen::Index(i)) = k;
    }
  }
  return K;
}

void cross_kernel_matrix(const Kernel& kernel, const double* a, std::size_t m, const double* x, std::size_t n,
                         std::size_t d, double* out) {
  double c = 0.0;
  std::vector<double> l;
  if (kernel.scaled_rbf(&c, &l)) {
    ScaledRbf k(c, std::move(l), d);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) out[i * n + j] = k(a + i * d, x + j * d);
    return;
  }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) out[i * n + j] = kernel(a + i * d, x + j * d, d);
}

void kernel_diagonal(const Kernel& kernel, const double* a, std::size_t m, std::size_t d, double* out) {
  for (std::size_t i = 0; i < m; ++i) out[i] = kernel(a + i * d, a + i * d, d);
}

std::vector<double> contract_gradient(const Kernel& kernel, const double* x, std::size_t n, std::size_t d,
                                      const double* W) {
  const std::size_t P = kernel.parameter_count();
  std::vector<double> out(P, 0.0), grad(P);
  double c = 0.0;
  std::vector<double> l;
  if (kernel.scaled_rbf(&c, &l)) {
    const bool isotropic = l.size() == 1;
    ScaledRbf k(c, std::move(l), d);
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t i = j; i < n; ++i) {
        k(x + i * d, x + j * d);
        k.add_gradient((i == j ? 1.0 : 2.0) * W[j * n + i], isotropic, out.data());
      }
    }
    return out;
  }
  for (std::size_t j = 0; j < n; ++j) {
    const double* xj = x + j * d;
    for (std::size_t i = j; i < n; ++i) {
      kernel.evaluate(x + i * d, xj, d, grad.data());
      // Off-diagonal pairs appear twice in the sum over i, j.
      const double w = (i == j ? 1.0 : 2.0) * W[j * n + i];
      for (std::size_t p = 0; p < P; ++p) out[p] += w * grad[p];
    }
  }
  return out;
}

RowMatrix squared_distances(const double* x, std::size_t n, std::size_t d) {
  RowMatrix D2{Eigen::Index(n), Eigen::Index(n)};
  for (std::size_t i = 0; i < n; ++i) {
    D2(Eigen::Index(i), Eigen::Index(i)) = 0.0;
    for (std::size_t j = 0; j < i; ++j) {
      const double r2 = scaled_distance2(x + i * d, x + j * d, d, IsotropicScale{1.0});
      D2(Eigen::Index(i), Eigen::Index(j)) = D2(Eigen::Index(j), Eigen::Index(i)) = r2;
    }
  }
  return D2;
}

RowMatrix isotropic_rbf_matrix(double c, double l, const RowMatrix& D2) {
  const std::size_t n = std::size_t(D2.rows());
  RowMatrix K{D2.rows(), D2.cols()};
  const Lanes scale = splat(-0.5 / (l * l)), variance = splat(c);
  // Row i up to its diagonal, four entries a step (the last few through one padded step), then mirrored:
  // each exponential once.
  for (std::size_t i = 0; i < n; ++i) {
    const double* in = D2.data() + i * n;
    double* out = K.data() + i * n;
    const std::size_t count = i + 1;
    std::size_t j = 0;
    for (; j + kLaneCount <= count; j += kLaneCount) store(out + j, variance * exp_nonpositive(load(in + j) * scale));
    if (j < count) {
      double tail[kLaneCount] = {0.0, 0.0, 0.0, 0.0};
      std::copy(in + j, in + count, tail);
      double values[kLaneCount];
      store(values, variance * exp_nonpositive(load(tail) * scale));
      std::copy(values, values + (count - j), out + j);
    }
    for (std::size_t k = 0; k < i; ++k) K(Eigen::Index(k), Eigen::Index(i)) = out[k];
  }
  return K;
}

std::vector<double> contract_isotropic_rbf_gradient(double l, const RowMatrix& K, const RowMatrix& D2,
                                                    const double* W) {
  const std::size_t n = std::size_t(K.rows());
  const double inverse_l2 = 1.0 / (l * l);
  double by_c = 0.0, by_l = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const double* k = K.data() + j * n;  // row j = column j (symmetric)
    const double* r2 = D2.data() + j * n;
    const double* w = W + j * n;
    by_c += w[j] * k[j];  // the diagonal: D2 = 0
    double row_c = 0.0, row_l = 0.0;
    for (std::size_t i = j + 1; i < n; ++i) {
      row_c += w[i] * k[i];
      row_l += (w[i] * k[i]) * r2[i];
    }
    by_c += 2.0 * row_c;
    by_l += 2.0 * row_l;
  }
  return {by_c, by_l * inverse_l2};
}

}  // namespace gpprobe
