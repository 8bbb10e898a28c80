// Every case of the golden reference (tests/reference/gpp_golden.json) to 1e-8 absolute on all five
// outputs, in both posterior spaces, and within 1e-6 when the inputs arrive as float32.
#include <gtest/gtest.h>

#include "gpprobe/probe/probe.h"

#include "test_support.h"

namespace gpprobe {
namespace {

using testing::GoldenCase;

struct Outputs {
  std::vector<double> judged, episteme, alea, mean, variance, knowledge, ood;
  explicit Outputs(std::size_t n) : judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n) {}
  ProbeScoreColumns columns() {
    return {judged.data(), episteme.data(), alea.data(), mean.data(), variance.data(), knowledge.data(), ood.data()};
  }
};

void expect_matches(const GoldenCase& g, const Outputs& out, double tolerance, const std::string& label) {
  for (std::size_t q = 0; q < g.mean.size(); ++q) {
    SCOPED_TRACE(g.name + " / " + label + " / query " + std::to_string(q));
    EXPECT_NEAR(out.mean[q], g.mean[q], tolerance);
    EXPECT_NEAR(out.variance[q], g.variance[q], tolerance);
    EXPECT_NEAR(out.judged[q], g.judged[q], tolerance);
    EXPECT_NEAR(out.episteme[q], g.episteme[q], tolerance);
    EXPECT_NEAR(out.alea[q], g.alea[q], tolerance);
  }
}

TEST(Golden, EveryCaseInBothSpacesFloat64) {
  const auto cases = testing::golden_cases();
  ASSERT_EQ(cases.size(), 8u);
  for (const GoldenCase& g : cases) {
    for (PosteriorSpace space : {PosteriorSpace::function, PosteriorSpace::weight}) {
      ProbeOptions options;
      options.epsilon = g.epsilon;
      options.strength = g.strength;
      options.space = space;
      Result<Probe> probe = Probe::fit(MatrixView(g.observations), g.labels.data(), g.labels.size(), options);
      ASSERT_TRUE(probe.ok()) << probe.status().message();
      Outputs out(g.mean.size());
      ASSERT_TRUE(probe.value().score(MatrixView(g.queries), out.columns()).ok());
      expect_matches(g, out, 1e-8, space_name(space));
      // Knowledge and OOD score follow from the variance: G = 1 - var/(2v), ood = -var.
      const double two_v = 2.0 * std::log1p(1.0 / g.epsilon);
      for (std::size_t q = 0; q < g.variance.size(); ++q) {
        EXPECT_NEAR(out.knowledge[q], 1.0 - g.variance[q] / two_v, 1e-8);
        EXPECT_NEAR(out.ood[q], -g.variance[q], 1e-8);
      }
    }
  }
}

TEST(Golden, Float32InputsStayWithin1e6) {
  for (const GoldenCase& g : testing::golden_cases()) {
    using FloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const FloatRows obs32 = g.observations.cast<float>();
    const FloatRows queries32 = g.queries.cast<float>();
    ProbeOptions options;
    options.epsilon = g.epsilon;
    options.strength = g.strength;
    Result<Probe> probe = Probe::fit(MatrixView(obs32.data(), std::size_t(obs32.rows()), g.dimension), g.labels.data(),
                                     g.labels.size(), options);
    ASSERT_TRUE(probe.ok()) << probe.status().message();
    Outputs out(g.mean.size());
    ASSERT_TRUE(probe.value()
                    .score(MatrixView(queries32.data(), std::size_t(queries32.rows()), g.dimension), out.columns())
                    .ok());
    expect_matches(g, out, 1e-6, "float32");
  }
}

}  // namespace
}  // namespace gpprobe
