// Both sides of the thresholds where the code changes its arithmetic (issue 23, items 13 and 14): a
// threshold moved the wrong way must fail a test, not only give the same outputs by another path.
//
// The cosine kernel takes the plain formula while both squared norms are below 1e150 and rescales
// [a; 1] by a power of two past it (cosine_kernel.cpp). Raising the threshold to 1e200 let
// (|a|^2 + 1)(|b|^2 + 1) overflow for norms near 1e80 (k = -0 instead of -1.118), yet no test looked
// between 1e75 and 1e155. Here: norms on both sides of 1e75 (squares 1e150), at 1e80, 1e100, 1e120 and
// 1e153 (the squares' product overflows past ~1e77 each), against the formula in long double (whose
// exponent range holds squares up to 1e4932).
//
// cheaper_space picks the form with the smaller leading flop count (probe.cpp):
//   function  0.5 O^2 D + 2 O^3 + n (O D + O^2)        weight  0.5 O D^2 + 7/3 D^3 + 0.5 n D^2   (D = d + 1)
// Counting 0.5 O^2 per query instead of O^2 gave the same outputs (both forms are exact) and only moved
// the crossover; the cases below sit on both sides of it, e.g. d 768, n 10000: O = 354 costs 4.1123e9
// (function) against 4.1226e9 (weight), O = 355 4.1281e9 against 4.1229e9 (hand-counted; with 0.5 O^2
// the crossover moves to O = 406).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/kernels/cosine_kernel.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {
namespace {

// v (a'b + 1) / sqrt((|a|^2 + 1)(|b|^2 + 1)) in long double.
double reference_kernel(double v, const std::vector<double>& a, const std::vector<double>& b) {
  long double ab = 1.0L, aa = 1.0L, bb = 1.0L;
  for (std::size_t j = 0; j < a.size(); ++j) {
    ab += (long double)a[j] * b[j];
    aa += (long double)a[j] * a[j];
    bb += (long double)b[j] * b[j];
  }
  return double((long double)v * ab / std::sqrt(aa * bb));
}

std::vector<double> scaled(std::vector<double> x, double c) {
  for (double& v : x) v *= c;
  return x;
}

TEST(TrustThresholds, CosineKernelOnBothSidesOfItsOverflowThreshold) {
  const CosineKernel kernel(2.5);
  const std::vector<double> a{3.0, -4.0}, b{1.0, 2.0}, small{0.3, 0.7};
  // |3,-4| = 5 and |1,2| = sqrt(5): squared norms 25 c^2 and 5 c^2 straddle 1e150 around c = 2e74.
  for (double c : {1e74, 1.9e74, 2.1e74, 4.4e74, 4.5e74, 1e75, 1e76, 1e77, 1e78, 1e80, 1e100, 1e120, 1e153}) {
    const std::vector<double> ca = scaled(a, c), cb = scaled(b, c);
    struct Pair {
      const std::vector<double>* x;
      const std::vector<double>* y;
    };
    for (const Pair& p : {Pair{&ca, &cb}, Pair{&cb, &ca}, Pair{&ca, &ca}, Pair{&ca, &small}, Pair{&small, &cb}}) {
      const double expected = reference_kernel(2.5, *p.x, *p.y);
      const double k = kernel(p.x->data(), p.y->data(), 2);
      EXPECT_NEAR(k, expected, 1e-15 * 2.5) << c;
    }
    // -v / sqrt(5) = -1.118...: the value near 1e80.
    EXPECT_NEAR(kernel(ca.data(), cb.data(), 2), -2.5 / std::sqrt(5.0), 1e-14) << c;
    // Features on both sides of the same threshold (their own branch tests |a|^2 alone).
    const RowMatrix psi = kernel.features(MatrixView(ca.data(), 1, 2));
    const long double norm = std::sqrt(1.0L + (long double)ca[0] * ca[0] + (long double)ca[1] * ca[1]);
    EXPECT_NEAR(psi(0, 0), double(std::sqrt(2.5L) * ca[0] / norm), 1e-15) << c;
    EXPECT_NEAR(psi(0, 1), double(std::sqrt(2.5L) * ca[1] / norm), 1e-15) << c;
    EXPECT_NEAR(psi(0, 2), double(std::sqrt(2.5L) / norm), 1e-15) << c;
  }
}

TEST(TrustThresholds, CheaperSpaceOnBothSidesOfItsCrossover) {
  struct Case {
    std::size_t d, n, last_function;  // O = last_function picks function space, O + 1 weight space
  };
  // Hand-counted crossovers (see the file's comment); with 0.5 O^2 per query they move to 405, 679,
  // 16, 1957 and 313 (and stay at 806 without queries, where the per-query term is 0).
  for (const Case c : {Case{768, 10000, 354}, Case{768, 1000, 631}, Case{16, 10, 15}, Case{4096, 100000, 1716},
                       Case{400, 1000, 282}, Case{768, 0, 806}}) {
    EXPECT_EQ(cheaper_space(c.last_function, c.d, c.n), PosteriorSpace::function) << c.d << " " << c.n;
    EXPECT_EQ(cheaper_space(c.last_function + 1, c.d, c.n), PosteriorSpace::weight) << c.d << " " << c.n;
  }
  // The example: 400 observations of 768 dimensions and 10,000 queries are cheaper in weight space.
  EXPECT_EQ(cheaper_space(400, 768, 10000), PosteriorSpace::weight);
}

}  // namespace
}  // namespace gpprobe
