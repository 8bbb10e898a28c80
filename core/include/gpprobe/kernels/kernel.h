// Covariance functions for GP regression: small immutable values that evaluate one pair (tinygp style)
// together with the gradient in log-parameters. Parameterised exactly like scikit-learn's kernels, so
// a kernel here and its sklearn spelling give the same numbers:
//
//   constant(c)               k = c                                          sklearn ConstantKernel(c)
//   rbf(l)                    k = exp(-1/2 sum_j (d_j / l_j)^2)              RBF(length_scale=l)
//   matern12(l)               k = exp(-r),  r = |d / l|                      Matern(l, nu=0.5)
//   matern32(l)               k = (1 + sqrt3 r) exp(-sqrt3 r)                Matern(l, nu=1.5)
//   matern52(l)               k = (1 + sqrt5 r + 5/3 r^2) exp(-sqrt5 r)      Matern(l, nu=2.5)
//   periodic(l, p)            k = exp(-2 sin^2(pi |d| / p) / l^2)            ExpSineSquared(l, p)
//   locally_periodic(l, p, m) periodic(l, p) * rbf(m)                        ExpSineSquared * RBF
//                             (m is the rbf leaf's length_scale: how fast the periodic pattern decays)
//   linear(offset)            k = offset^2 + a'b                             DotProduct(sigma_0=offset)
//   cosine()                  k = (a'b + 1) / sqrt((|a|^2 + 1)(|b|^2 + 1))   the probe's CosineKernel, v = 1
//   k1 + k2, k1 * k2          sums and products                              Sum, Product
//
// d = a - b. The periodic kernel of |d| (as in sklearn) is positive definite for one-dimensional inputs
// only; in more dimensions a Cholesky may fail, and says so. A length-scale vector of size 1 is isotropic, of size D (the input dimension) is ARD.
// The signal variance is a constant factor (constant(v) * rbf(l), sklearn's `v * RBF(l)`); observation
// noise is not a kernel here but a parameter of the regression (sklearn's WhiteKernel).
//
// Parameters are positive; the optimiser works on theta = log(parameter), in sklearn's order
// (depth first, left operand first; within periodic: length_scale, period). Each parameter has
// bounds (default 1e-5 .. 1e5 like sklearn); lower == upper fixes it. A parameter's name is
// "<leaf>.<name>" ("constant.value", "rbf.length_scale", "periodic.period", "linear.offset"): the one
// name the CLI, the TS API and the app's fields use (kernel_parameters.h sets and fixes them by name).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe {

enum class KernelKind { constant, rbf, matern12, matern32, matern52, periodic, linear, cosine, sum, product };

struct KernelParameter {
  std::string name;  // "rbf.length_scale", "rbf.length_scale[1]" (ARD), "constant.value", "periodic.period", ...
  double value = 1.0;
  double lower = 1e-5;
  double upper = 1e5;
};

class Kernel {
 public:
  static Kernel constant(double value);
  static Kernel rbf(std::vector<double> length_scales);
  static Kernel matern12(std::vector<double> length_scales);
  static Kernel matern32(std::vector<double> length_scales);
  static Kernel matern52(std::vector<double> length_scales);
  static Kernel periodic(double length_scale, double period);
  static Kernel locally_periodic(double length_scale, double period, double rbf_length_scale);
  static Kernel linear(double offset);
  static Kernel cosine();
  friend Kernel operator+(const Kernel& k1, const Kernel& k2);
  friend Kernel operator*(const Kernel& k1, const Kernel& k2);

  KernelKind kind() const;
  // For constant(c) * rbf(l), the classifiers' kernel: c and l (1 or D entries); false for any other
  // kernel. kernel_matrix.h evaluates it without walking the expression, to the same bits.
  bool scaled_rbf(double* variance, std::vector<double>* length_scales) const;

  // k(a, b) for two points of dimension d.
  double operator()(const double* a, const double* b, std::size_t d) const;
  // k(a, b), and dk/dtheta_p for every parameter p into grad[0 .. parameter_count()).
  double evaluate(const double* a, const double* b, std::size_t d, double* grad) const;

  std::size_t parameter_count() const;
  // Every parameter with its name, value and bounds, in theta order.
  std::vector<KernelParameter> parameters() const;
  // theta = log(values).
  std::vector<double> log_parameters() const;
  // The same kernel with parameters exp(theta) (theta has parameter_count() entries); bounds are kept.
  Kernel with_log_parameters(const double* theta) const;
  // The same kernel with these parameter values, taken bit for bit (parameter_count() of them, in
  // theta order); bounds are kept.
  Kernel with_values(const double* values) const;
  // The same kernel with new bounds for parameter p (lower == upper fixes it).
  Kernel with_bounds(std::size_t p, double lower, double upper) const;

  // invalid_argument when the kernel cannot serve inputs of dimension d: an ARD length-scale vector
  // of another size, a parameter that is not finite and > 0, bounds not 0 < lower <= upper < inf.
  // (A value outside its bounds is allowed; the optimiser starts from its projection.)
  Status check(std::size_t d) const;

  // sklearn-like text for people to read: "1**2 * RBF(length_scale=0.5)" is written "constant(1) *
  // rbf(0.5)", 6 significant digits. Kernels travel between faces as values (names and doubles,
  // kernel_parameters.h), never through this text.
  std::string describe() const;

  struct Node;

 private:
  explicit Kernel(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

}  // namespace gpprobe
