// The O(n^2) part of the latent-variance relaxation over a box (docs/design/certify.md, "Bounds over a
// box" item 4):
// every pair (i, l) of training points contributes Q_il e^{-(z_i + z_l)}, with z_i in [zL_i, zU_i] over
// the box. Its tangent at the midpoint and its interval ends are products of per-point factors, so
// they reduce to matrix-vector products; only the chord slope of e^{-w} over [zL_i + zL_l, zU_i + zU_l]
// is a genuine pair term:
//
//   g_il = expm1(-(D_i + D_l)) / (D_i + D_l),  D = zU - zL,  with expm1(-(D_i + D_l)) = em_i + ed_i em_l
//          (em = expm1(-D), ed = e^-D: no cancellation), and g_il = -1 when D_i + D_l = 0.
//
// With P = max(Q, 0) and N = min(Q, 0) (entrywise, so Q = P + N) this computes, for every i,
//
//   P mid, N mid, P low, N low, P high, N high      (mid = e^-zm, low = e^-zL, high = e^-zU)
//   chord_P_i = sum_l P_il low_l g_il,  chord_N_i = sum_l N_il low_l g_il
//
// in one pass over the lower triangle of Q (each pair's terms go to both its rows: half the divisions),
// in lanes of four so the compiler vectorises it without reassociation flags (natively and under
// -msimd128). Private to core/src.
#pragma once

#include <cstddef>

namespace gpprobe {

// Per-point inputs, n values each.
struct PairwiseFactors {
  const double* mid;           // e^{-(zL + zU)/2}
  const double* low;           // e^{-zL}
  const double* high;          // e^{-zU}
  const double* spread;        // D = zU - zL >= 0
  const double* spread_expm1;  // expm1(-D)
  const double* spread_exp;    // e^{-D}
};

enum PairwiseSum { kPMid, kNMid, kPLow, kNLow, kPHigh, kNHigh, kChordP, kChordN, kPairwiseSums };

// Q: n by n symmetric, row-major (its lower triangle is read). out: kPairwiseSums rows of n, row s
// holding sum s.
void pairwise_exponential_sums(const double* Q, std::size_t n, const PairwiseFactors& f, double* out);

}  // namespace gpprobe
