// Kernels: closed-form values, finite-difference gradients for every kind, PSD Gram matrices, errors.
#include "gpprobe/kernels/kernel.h"

#include <cmath>
#include <random>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/kernel_matrix.h"
#include "gpprobe/kernels/named_kernels.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

std::vector<std::pair<std::string, Kernel>> every_kernel() {
  const Kernel per = Kernel::periodic(0.9, 1.3);
  return {
      {"constant", Kernel::constant(1.7)},
      {"rbf", Kernel::constant(1.3) * Kernel::rbf({0.7})},
      {"rbf ard", Kernel::rbf({0.5, 2.0})},
      {"matern12", Kernel::matern12({0.8})},
      {"matern12 ard", Kernel::matern12({0.8, 1.9})},
      {"matern32", Kernel::matern32({0.6, 1.1})},
      {"matern52", Kernel::matern52({1.4})},
      {"periodic", per},
      {"locally periodic", Kernel::constant(2.0) * Kernel::locally_periodic(0.9, 1.3, 3.0)},
      {"linear", Kernel::constant(0.5) * Kernel::linear(0.4)},
      {"cosine", Kernel::constant(1.5) * Kernel::cosine()},
      {"sum", Kernel::rbf({0.7}) + Kernel::constant(0.3) * per},
      {"product", Kernel::matern32({1.2}) * Kernel::linear(0.9)},
  };
}

TEST(Kernel, ValuesMatchClosedForms) {
  const double a[] = {0.0, 0.0}, b[] = {1.0, 0.0}, c[] = {0.0, 1.0};
  EXPECT_NEAR(Kernel::rbf({2.0})(a, b, 2), std::exp(-1.0 / 8.0), 1e-15);
  EXPECT_NEAR(Kernel::rbf({2.0, 0.5})(a, c, 2), std::exp(-0.5 * 4.0), 1e-15);
  EXPECT_NEAR(Kernel::matern12({1.0})(a, b, 2), std::exp(-1.0), 1e-15);
  EXPECT_NEAR(Kernel::matern32({1.0})(a, b, 2), (1.0 + std::sqrt(3.0)) * std::exp(-std::sqrt(3.0)), 1e-15);
  EXPECT_NEAR(Kernel::matern52({1.0})(a, b, 2), (1.0 + std::sqrt(5.0) + 5.0 / 3.0) * std::exp(-std::sqrt(5.0)), 1e-15);
  EXPECT_NEAR(Kernel::periodic(0.7, 1.0)(a, b, 2), 1.0, 1e-15);                   // one full period apart
  EXPECT_NEAR(Kernel::periodic(1.0, 4.0)(a, b, 2), std::exp(-2.0 * 0.5), 1e-15);  // sin^2(pi/4) = 1/2
  EXPECT_NEAR(Kernel::linear(0.5)(b, b, 2), 1.25, 1e-15);
  EXPECT_NEAR(Kernel::cosine()(b, c, 2), 0.5, 1e-15);  // (0 + 1) / sqrt(2 * 2)
  EXPECT_NEAR(Kernel::cosine()(b, b, 2), 1.0, 1e-15);
  EXPECT_NEAR((Kernel::constant(2.0) * Kernel::rbf({1.0}) + Kernel::constant(0.5))(a, b, 2), 2.0 * std::exp(-0.5) + 0.5,
              1e-15);
}

TEST(Kernel, GradientsMatchCentralDifferencesInLogParameters) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (const auto& [name, kernel] : every_kernel()) {
    const std::size_t P = kernel.parameter_count();
    const std::vector<double> theta = kernel.log_parameters();
    for (int pair = 0; pair < 5; ++pair) {
      const double a[] = {u(rng), u(rng)}, b[] = {u(rng), u(rng)};
      std::vector<double> grad(P);
      kernel.evaluate(a, b, 2, grad.data());
      for (std::size_t p = 0; p < P; ++p) {
        const double h = 1e-6;
        std::vector<double> up = theta, down = theta;
        up[p] += h;
        down[p] -= h;
        const double fd =
            (kernel.with_log_parameters(up.data())(a, b, 2) - kernel.with_log_parameters(down.data())(a, b, 2)) /
            (2 * h);
        EXPECT_NEAR(grad[p], fd, 1e-7 * std::max(1.0, std::abs(fd))) << name << " parameter " << p;
      }
    }
  }
}

TEST(Kernel, GramMatricesArePositiveSemidefinite) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<double> x(40 * 2);
  for (double& v : x) v = u(rng);
  for (const auto& [name, kernel] : every_kernel()) {
    // The periodic kernel of the Euclidean distance is positive definite on one-dimensional inputs only.
    const bool periodic = name == "periodic" || name == "locally periodic" || name == "sum";
    if (periodic && kernel.parameter_count() > 0) {
      const Eigen::MatrixXd K1 = kernel_matrix(kernel, x.data(), 80, 1);
      EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K1).eigenvalues().minCoeff(),
                -1e-10 * K1.diagonal().maxCoeff())
          << name;
      continue;
    }
    const Eigen::MatrixXd K = kernel_matrix(kernel, x.data(), 40, 2);
    const double smallest = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues().minCoeff();
    EXPECT_GT(smallest, -1e-10 * K.diagonal().maxCoeff()) << name;
  }
}

TEST(Kernel, ParametersFollowSklearnOrder) {
  const Kernel k = Kernel::constant(2.0) * Kernel::locally_periodic(0.9, 1.3, 3.0);
  const std::vector<KernelParameter> ps = k.parameters();
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_EQ(ps[0].name, "constant.value");
  EXPECT_EQ(ps[1].name, "periodic.length_scale");
  EXPECT_EQ(ps[2].name, "periodic.period");
  EXPECT_EQ(ps[3].name, "rbf.length_scale");
  EXPECT_EQ(Kernel::rbf({1, 2}).parameters()[1].name, "rbf.length_scale[1]");
  const std::vector<double> theta{0.0, 1.0, 2.0, 3.0};
  const Kernel moved = k.with_log_parameters(theta.data());
  EXPECT_NEAR(moved.parameters()[3].value, std::exp(3.0), 1e-12);
  EXPECT_EQ(k.with_bounds(1, 0.5, 0.5).parameters()[1].lower, 0.5);
  EXPECT_EQ(moved.describe(), "constant(1) * periodic(2.71828, 7.38906) * rbf(20.0855)");
}

TEST(Kernel, BadParametersAreNamed) {
  EXPECT_EQ(Kernel::rbf({1.0, 2.0, 3.0}).check(2).message(),
            "rbf.length_scale has 3 entries, the inputs have 2 columns");
  EXPECT_EQ(Kernel::rbf({1.0, 2.0, 3.0}).check(2).code(), StatusCode::dimension_mismatch);
  EXPECT_EQ((Kernel::constant(1.0) * Kernel::rbf({-1.0})).check(1).message(),
            "rbf.length_scale must be a finite number > 0, got -1");
  EXPECT_EQ(Kernel::periodic(1.0, NAN).check(1).message(), "periodic.period must be a finite number > 0, got nan");
  EXPECT_EQ(Kernel::linear(1.0).with_bounds(0, 2.0, 1.0).check(1).message(),
            "linear.offset has bounds [2, 1]; they must satisfy 0 < lower <= upper < inf");
  EXPECT_EQ(
      named_kernel("gaussian").status().message(),
      "kernel must be rbf, matern12, matern32, matern52, periodic, locally-periodic, linear or cosine, got 'gaussian'");
  ASSERT_TRUE(named_kernel("locally-periodic").ok());
  EXPECT_EQ(ok_value(named_kernel("locally-periodic")).parameter_count(), 4u);
}

}  // namespace
}  // namespace gpprobe

namespace gpprobe {
namespace {

TEST(KernelExpression, ParsesWhatDescribePrints) {
  const Kernel k = Kernel::constant(1.3) * Kernel::rbf({0.7, 2.0}) + Kernel::constant(0.5) * Kernel::periodic(1.0, 2.5);
  Result<Kernel> parsed = parse_kernel(k.describe());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed.value().describe(), k.describe());
  const double a[] = {0.3, -1.0}, b[] = {1.2, 0.4};
  EXPECT_EQ(parsed.value()(a, b, 2), k(a, b, 2));
  EXPECT_EQ(ok_value(parse_kernel("locally_periodic(1, 2, 3) * (linear(0.5) + cosine())")).parameter_count(), 4u);
}

TEST(KernelExpression, ErrorsSayWhere) {
  EXPECT_EQ(parse_kernel("rbf(0.5").status().message(), "kernel expression 'rbf(0.5' at character 8: expected ')'");
  EXPECT_EQ(parse_kernel("rbf(0.5) +").status().message(),
            "kernel expression 'rbf(0.5) +' at character 11: expected a kernel name");
  EXPECT_EQ(parse_kernel("periodic(1)").status().message(),
            "kernel expression 'periodic(1)' at character 12: no kernel periodic with 1 parameter");
  EXPECT_EQ(parse_kernel("rbf(x)").status().message(), "kernel expression 'rbf(x)' at character 5: expected a number");
  const Kernel k = Kernel::constant(1.0) * Kernel::rbf({0.5});
  Result<Kernel> fixed = fix_parameters(k, {"constant.value"});
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed.value().parameters()[0].lower, 1.0);
  EXPECT_EQ(fixed.value().parameters()[0].upper, 1.0);
  EXPECT_EQ(fix_parameters(k, {"variance"}).status().message(),
            "the kernel has no parameter 'variance' (it has: constant.value, rbf.length_scale)");
}

std::string repeated(const std::string& s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(KernelExpression, DeepNestingIsAnErrorNotAStackOverflow) {
  // 20,000 nested parentheses recursed 60,000 frames deep (a RangeError, then a trapped wasm instance).
  const std::string deep = repeated("(", 20000) + "rbf(1)" + repeated(")", 20000);
  const Status s = parse_kernel(deep).status();
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  // The 257th '(' is character 257; a text this long is named by its length, not quoted.
  EXPECT_EQ(s.message(), "kernel expression of 40006 characters at character 257: parentheses nested deeper than 256");
  // 256 levels are fine and mean what they say.
  Result<Kernel> nested = parse_kernel(repeated("(", 256) + "rbf(2)" + repeated(")", 256));
  ASSERT_TRUE(nested.ok()) << nested.status().message();
  const double a[] = {0.0}, b[] = {1.0};
  EXPECT_EQ(nested.value()(a, b, 1), std::exp(-0.125));
}

TEST(KernelExpression, LengthAndKernelCountAreBounded) {
  EXPECT_EQ(parse_kernel(std::string(70000, ' ')).status().message(),
            "kernel expression of 70000 characters is too long (at most 65536)");
  // A sum of n kernels is a tree n deep, evaluated recursively: at most 256 of them.
  Result<Kernel> most = parse_kernel(repeated("rbf(1) + ", 255) + "rbf(1)");
  ASSERT_TRUE(most.ok()) << most.status().message();
  const double a[] = {0.0}, b[] = {2.0};
  EXPECT_NEAR(most.value()(a, b, 1), 256 * std::exp(-2.0), 1e-11);  // 256 roundings of ~1e-16 * 35
  // Its text nests 255 sums deep and parses back to the same kernel.
  const std::string text = most.value().describe();
  EXPECT_EQ(text.rfind(repeated("(", 255) + "rbf(1) + rbf(1))", 0), 0u);
  Result<Kernel> again = parse_kernel(text);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again.value().describe(), text);
  EXPECT_EQ(parse_kernel(repeated("rbf(1) + ", 256) + "rbf(1)").status().message(),
            "kernel expression of 2310 characters at character 2305: more than 256 kernels");
}

// The classifiers' kernel constant(c) * rbf(l) has its own loops in kernel_matrix.cpp (Kernel::scaled_rbf):
// they must give the bits that the expression gives pair by pair, so that the GPC probes' curves stay as
// they were. Checked against Kernel::operator() and Kernel::evaluate, the expression walk.
TEST(KernelMatrix, ScaledRbfLoopsGiveTheExpressionsBitsPairByPair) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const std::size_t n = 9, m = 4, d = 6;
  std::vector<double> x(n * d), a(m * d), W(n * n);
  for (double& v : x) v = u(rng);
  for (double& v : a) v = u(rng);
  for (double& v : W) v = u(rng);
  const std::vector<std::pair<std::string, Kernel>> kernels = {
      {"isotropic", Kernel::constant(1.7) * Kernel::rbf({0.8})},
      {"ard", Kernel::constant(0.6) * Kernel::rbf({0.5, 1.1, 2.3, 0.9, 1.4, 3.0})},
      {"ard, equal entries (the GPC probe's expanded kernel)",
       Kernel::constant(2.5) * Kernel::rbf(std::vector<double>(d, 1.9))},
  };
  for (const auto& [name, kernel] : kernels) {
    double c = 0.0;
    std::vector<double> l;
    ASSERT_TRUE(kernel.scaled_rbf(&c, &l)) << name;
    const RowMatrix K = kernel_matrix(kernel, x.data(), n, d);
    std::vector<double> cross(m * n);
    cross_kernel_matrix(kernel, a.data(), m, x.data(), n, d, cross.data());
    const std::size_t P = kernel.parameter_count();
    std::vector<double> expected(P, 0.0), grad(P);
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t i = j; i < n; ++i) {
        EXPECT_EQ(K(Eigen::Index(i), Eigen::Index(j)), kernel(&x[i * d], &x[j * d], d))
            << name << " K " << i << "," << j;
        EXPECT_EQ(K(Eigen::Index(j), Eigen::Index(i)), K(Eigen::Index(i), Eigen::Index(j))) << name;
        kernel.evaluate(&x[i * d], &x[j * d], d, grad.data());
        const double w = (i == j ? 1.0 : 2.0) * W[j * n + i];
        for (std::size_t p = 0; p < P; ++p) expected[p] += w * grad[p];
      }
    }
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j)
        EXPECT_EQ(cross[i * n + j], kernel(&a[i * d], &x[j * d], d)) << name << " cross " << i << "," << j;
    const std::vector<double> gradient = contract_gradient(kernel, x.data(), n, d, W.data());
    ASSERT_EQ(gradient.size(), P);
    for (std::size_t p = 0; p < P; ++p) EXPECT_EQ(gradient[p], expected[p]) << name << " parameter " << p;
  }
  double c = 0.0;
  std::vector<double> l;
  EXPECT_FALSE(Kernel::rbf({0.8}).scaled_rbf(&c, &l));
  EXPECT_FALSE((Kernel::rbf({0.8}) * Kernel::constant(1.7)).scaled_rbf(&c, &l));
  EXPECT_FALSE((Kernel::constant(1.7) * Kernel::matern52({0.8})).scaled_rbf(&c, &l));
  EXPECT_FALSE((Kernel::constant(1.7) + Kernel::rbf({0.8})).scaled_rbf(&c, &l));
}

TEST(KernelMatrix, IsotropicRbfFromSquaredDistancesMatchesThePairByPairKernel) {
  // K = c exp(-D2 / (2 l^2)) with the exponentials four lanes at a time (n^2 = 121: a padded last step),
  // and the contraction [sum W dK/dlog c, sum W dK/dlog l] from K and D2, against the expression's values.
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const std::size_t n = 11, d = 7;
  std::vector<double> x(n * d), W(n * n);
  for (double& v : x) v = u(rng);
  for (double& v : W) v = u(rng);
  const RowMatrix D2 = squared_distances(x.data(), n, d);
  for (const auto& [c, l] : {std::pair{1.7, 0.8}, std::pair{0.3, 4.0}, std::pair{2.0, 0.05}}) {
    const Kernel kernel = Kernel::constant(c) * Kernel::rbf({l});
    const RowMatrix K = isotropic_rbf_matrix(c, l, D2);
    const RowMatrix expected = kernel_matrix(kernel, x.data(), n, d);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(D2(Eigen::Index(i), Eigen::Index(i)), 0.0);
      for (std::size_t j = 0; j < n; ++j) {
        EXPECT_EQ(K(Eigen::Index(i), Eigen::Index(j)), K(Eigen::Index(j), Eigen::Index(i)));
        EXPECT_NEAR(K(Eigen::Index(i), Eigen::Index(j)), expected(Eigen::Index(i), Eigen::Index(j)),
                    1e-15 * c + 4e-16 * expected(Eigen::Index(i), Eigen::Index(j)) *
                                    (1.0 + D2(Eigen::Index(i), Eigen::Index(j)) / (l * l)))
            << c << " " << l << " " << i << "," << j;
      }
    }
    const std::vector<double> g = contract_isotropic_rbf_gradient(l, K, D2, W.data());
    const std::vector<double> e = contract_gradient(kernel, x.data(), n, d, W.data());
    ASSERT_EQ(g.size(), 2u);
    ASSERT_EQ(e.size(), 2u);
    for (std::size_t p = 0; p < 2; ++p)
      EXPECT_NEAR(g[p], e[p], 1e-13 * (1.0 + std::abs(e[p]))) << c << " " << l << " " << p;
  }
}

}  // namespace
}  // namespace gpprobe
