// The tabulated measures (core/src/probe/measure_table.h) against the quadrature they replace, over the whole
// table of several priors, and against an independent trapezoid integration in long double.
#include "core/src/probe/measure_table.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/probe/beta_prior.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "result_assertions.h"

namespace gpprobe {
namespace {

double relative_gap(double a, double b) { return std::fabs(a - b) / std::max(1.0, std::fabs(b)); }

double worst_gap(const UncertaintyMeasures& a, const UncertaintyMeasures& b) {
  return std::max({relative_gap(a.judged_probability, b.judged_probability), relative_gap(a.episteme, b.episteme),
                   relative_gap(a.alea, b.alea)});
}

// 2v for an epsilon: the prior variance of the latent difference.
double prior_variance(double epsilon) { return 2.0 * ok_value(BetaGpPrior::make(epsilon, 1.0)).variance; }

TEST(MeasureTable, EqualsTheQuadratureEverywhereInTheTable) {
  std::mt19937_64 rng(20261123);
  // epsilon 10 puts the whole table below its sd floor (quadrature only); 1e-3 gives sd 3.7.
  for (double epsilon : {10.0, 1.0, 0.1, 0.01, 1e-3}) {
    const double pv = prior_variance(epsilon), sd_max = std::sqrt(pv);
    std::uniform_real_distribution<double> mean(-26.0, 26.0), sd(0.0, sd_max);
    double worst = 0.0;
    for (int t = 0; t < 20000; ++t) {
      const double m = mean(rng), s = std::max(sd(rng), 1e-6);
      worst = std::max(worst, worst_gap(tabulated_uncertainty_measures(m, s * s, pv), uncertainty_measures(m, s * s)));
    }
    // The prior itself, where most queries far from every observation sit.
    for (double m : {-23.99, -5.0, -0.5, 0.0, 0.5, 5.0, 23.99}) {
      worst = std::max(worst, worst_gap(tabulated_uncertainty_measures(m, pv, pv), uncertainty_measures(m, pv)));
    }
    EXPECT_LE(worst, 2e-13) << "epsilon " << epsilon;  // measured: at most 5.3e-14
  }
}

// The measures by the trapezoid rule on +-40 sd in long double: for these integrands (smooth, Gaussian
// tails) it converges geometrically, to far below 1e-13 with this step.
UncertaintyMeasures trapezoid(double m, double s2) {
  const long double sd = std::sqrt(static_cast<long double>(s2)), h = 0.004L;
  const long double norm = 1.0L / std::sqrt(2.0L * 3.14159265358979323846264338L);
  long double judged = 0, alea = 0, sp_neg_sum = 0;
  for (long k = -10000; k <= 10000; ++k) {
    const long double t = k * h, w = h * norm * std::exp(-t * t / 2), f = m + sd * t;
    const long double e = std::exp(-std::fabs(f)), sp_neg = std::log1p(e) + std::max(-f, 0.0L), sp_pos = sp_neg + f;
    const long double g = f >= 0 ? 1 / (1 + e) : e / (1 + e);
    judged += w * g;
    alea += w * (g * sp_neg + (1 - g) * sp_pos);
    sp_neg_sum += w * sp_neg;
  }
  const double episteme = static_cast<double>(
      -(0.5L * (std::log(2.0L * 3.14159265358979323846264338L) + 1.0L + std::log(static_cast<long double>(s2))) - m -
        2 * sp_neg_sum));
  return {static_cast<double>(judged), episteme, static_cast<double>(alea)};
}

TEST(MeasureTable, AgreesWithIndependentIntegrationAtTheDefaultPrior) {
  const double pv = prior_variance(0.1);  // the app's default; sd 2.19
  for (double m : {-17.3, -3.1, -0.77, 0.0, 0.25, 1.9, 6.6, 21.0}) {
    for (double sd : {0.56, 0.9, 1.37, 1.8, 2.05, std::sqrt(pv)}) {
      EXPECT_LE(worst_gap(tabulated_uncertainty_measures(m, sd * sd, pv), trapezoid(m, sd * sd)), 1e-12)
          << "mean " << m << " sd " << sd;
    }
  }
}

TEST(MeasureTable, KeepsThePriorAndTheSymmetryExact) {
  const double pv = prior_variance(0.1);
  EXPECT_EQ(tabulated_uncertainty_measures(0.0, pv, pv).judged_probability, 0.5);
  EXPECT_EQ(tabulated_uncertainty_measures(-0.0, 1.1, pv).judged_probability, 0.5);
  for (double m : {1e-9, 0.3, 0.999, 1.0, 2.5, 17.0}) {
    const UncertaintyMeasures plus = tabulated_uncertainty_measures(m, 1.7, pv),
                              minus = tabulated_uncertainty_measures(-m, 1.7, pv);
    EXPECT_EQ(plus.judged_probability + minus.judged_probability, 1.0) << m;
    EXPECT_EQ(plus.episteme, minus.episteme) << m;
    EXPECT_EQ(plus.alea, minus.alea) << m;
  }
  // Far on the negative side the small judged probability keeps its relative precision.
  const UncertaintyMeasures far = tabulated_uncertainty_measures(-20.0, 1.0, pv);
  EXPECT_NEAR(far.judged_probability / uncertainty_measures(-20.0, 1.0).judged_probability, 1.0, 1e-12);
}

// Cells built concurrently (a prior no other test uses, so every cell is new) hold what one thread builds.
TEST(MeasureTable, CellsBuiltByManyThreadsAtOnceGiveTheSameBits) {
  const double pv = prior_variance(0.0373);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mean(-12.0, 12.0), sd(0.5, std::sqrt(pv));
  const std::size_t n = 20000;
  std::vector<double> m(n), s2(n), judged(n), episteme(n), alea(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = mean(rng), s2[i] = std::pow(sd(rng), 2);
  set_thread_count(4);
  parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const UncertaintyMeasures u = tabulated_uncertainty_measures(m[i], s2[i], pv);
      judged[i] = u.judged_probability, episteme[i] = u.episteme, alea[i] = u.alea;
    }
  });
  set_thread_count(0);
  for (std::size_t i = 0; i < n; ++i) {
    const UncertaintyMeasures again = tabulated_uncertainty_measures(m[i], s2[i], pv);
    ASSERT_EQ(again.judged_probability, judged[i]) << i;
    ASSERT_EQ(again.episteme, episteme[i]) << i;
    ASSERT_EQ(again.alea, alea[i]) << i;
    ASSERT_LE(worst_gap(again, uncertainty_measures(m[i], s2[i])), 2e-13) << i;
  }
}

TEST(MeasureTable, OutsideTheTableTheQuadratureAnswers) {
  const double pv = prior_variance(0.1);
  for (double m : {-1e3, -24.0001, 24.0, 30.0, 1e3}) {
    const UncertaintyMeasures a = tabulated_uncertainty_measures(m, 1.5, pv), b = uncertainty_measures(m, 1.5);
    EXPECT_EQ(a.judged_probability, b.judged_probability);
    EXPECT_EQ(a.episteme, b.episteme);
    EXPECT_EQ(a.alea, b.alea);
  }
  for (double s2 : {1e-12, 1e-3, 0.2}) {  // sd below max(sd_max / 4, 0.5)
    const UncertaintyMeasures a = tabulated_uncertainty_measures(0.7, s2, pv), b = uncertainty_measures(0.7, s2);
    EXPECT_EQ(a.judged_probability, b.judged_probability);
    EXPECT_EQ(a.alea, b.alea);
  }
}

}  // namespace
}  // namespace gpprobe
