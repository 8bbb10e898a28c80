// Kernels by name: the named kernels and their parameters, setting and holding parameters by their one
// name bit for bit (the value typed in the app is the value the kernel computes with), the
// locally-periodic spelling, and the examples' suggested models.
#include "gpprobe/kernels/named_kernels.h"

#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "gpprobe/kernels/kernel_expression.h"
#include "gpprobe/kernels/kernel_parameters.h"
#include "gpprobe/regression/hyperparameter_fit.h"
#include "gpprobe/regression/regression_examples.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

std::vector<std::string> names_of(const Kernel& k) {
  std::vector<std::string> out;
  for (const KernelParameter& p : k.parameters()) out.push_back(p.name);
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(NamedKernels, AreVarianceTimesBaseWithTheirParametersByName) {
  std::vector<std::string> menu;
  for (const NamedKernel& k : named_kernels()) menu.push_back(k.name);
  EXPECT_EQ(menu, (std::vector<std::string>{"rbf", "matern12", "matern32", "matern52", "periodic", "locally-periodic",
                                            "linear", "cosine"}));
  EXPECT_EQ(
      names_of(ok_value(named_kernel("locally-periodic"))),
      (std::vector<std::string>{"constant.value", "periodic.length_scale", "periodic.period", "rbf.length_scale"}));
  EXPECT_EQ(names_of(ok_value(named_kernel("linear"))), (std::vector<std::string>{"constant.value", "linear.offset"}));
  EXPECT_EQ(names_of(ok_value(named_kernel("cosine"))), (std::vector<std::string>{"constant.value"}));
  // The starting values, and the same numbers as the kernel written out.
  const Kernel lp = ok_value(named_kernel("locally-periodic"));
  EXPECT_EQ(lp.parameters()[3].value, 10.0);
  const double a[] = {0.3}, b[] = {1.7};
  EXPECT_EQ(lp(a, b, 1), ok_value(parse_kernel("constant(1) * locally-periodic(1, 1, 10)"))(a, b, 1));
  EXPECT_EQ(ok_value(parse_kernel("locally-periodic(1, 2, 3)")).describe(),
            ok_value(parse_kernel("locally_periodic(1, 2, 3)")).describe());
}

TEST(KernelParameters, SetByNameBitForBit) {
  // 17 significant digits in, the same double out: no text on the way.
  const double typed = 0.12345678901234568, period = 2.718281828459045;
  Result<Kernel> k = set_parameters(ok_value(named_kernel("locally-periodic")), {"rbf.length_scale", "periodic.period"},
                                    {typed, period});
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(same_bits(k.value().parameters()[3].value, typed));
  EXPECT_TRUE(same_bits(k.value().parameters()[2].value, period));
  EXPECT_EQ(k.value().parameters()[1].value, 1.0);  // not named: kept
  // describe() rounds (it is for reading); the value does not.
  EXPECT_EQ(k.value().describe(), "constant(1) * periodic(1, 2.71828) * rbf(0.123457)");
  EXPECT_EQ(set_parameters(ok_value(named_kernel("rbf")), {"periodic.period"}, {1.0}).status().message(),
            "the kernel has no parameter 'periodic.period' (it has: constant.value, rbf.length_scale)");
  EXPECT_EQ(set_parameters(ok_value(named_kernel("rbf")), {"rbf.length_scale"}, {}).status().code(),
            StatusCode::dimension_mismatch);
}

TEST(KernelParameters, HeldValuesComeBackBitForBit) {
  // A held value is not sent through exp(log v): the optimum reports it exactly, noise included.
  const RegressionExample e = ok_value(regression_example("lecture", 1));
  const double held = 0.93456789012345678, noise = 0.061234567890123456;
  Kernel start = ok_value(set_parameters(ok_value(named_kernel("rbf")), {"constant.value"}, {held}));
  HyperparameterFitOptions options;
  options.fixed = {"constant.value", kNoiseVariance};
  Result<HyperparameterFit> fit = fit_hyperparameters(MatrixView(e.x), e.y.data(), e.y.size(), start, noise, options);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_TRUE(same_bits(fit.value().kernel.parameters()[0].value, held));
  EXPECT_TRUE(same_bits(fit.value().noise_variance, noise));
  EXPECT_NE(fit.value().kernel.parameters()[1].value, 1.0);  // the length-scale was learned
  options.fixed = {"variance"};
  EXPECT_EQ(fit_hyperparameters(MatrixView(e.x), e.y.data(), e.y.size(), start, noise, options).status().message(),
            "the kernel has no parameter 'variance' (it has: constant.value, rbf.length_scale)");
}

TEST(RegressionExamples, NameTheModelTheyAreMeantFor) {
  std::vector<std::string> names;
  for (const ExampleEntry& x : regression_examples()) names.push_back(x.name);
  EXPECT_EQ(names, (std::vector<std::string>{"lecture", "periodic-extrapolation", "missing-segments"}));
  const RegressionExample lecture = ok_value(regression_example("lecture", 1));
  EXPECT_EQ(lecture.kernel_name, "rbf");
  EXPECT_EQ(lecture.held, std::vector<std::string>{"constant.value"});
  EXPECT_EQ(lecture.noise_variance, kDefaultNoiseVariance);
  const RegressionExample periodic = ok_value(regression_example("periodic-extrapolation", 1));
  EXPECT_EQ(periodic.kernel_name, "locally-periodic");
  EXPECT_EQ(periodic.kernel.parameters()[2].name, "periodic.period");
  EXPECT_EQ(periodic.kernel.parameters()[2].value, 1.5);
  EXPECT_EQ(periodic.title, "Periodic series, censored tail (extrapolation)");
}

}  // namespace
}  // namespace gpprobe
