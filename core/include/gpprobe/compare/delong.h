// DeLong's comparison of correlated AUROCs: K scorers (a probe in each of K embeddings) rank the same
// labelled rows, so their AUROCs are estimated from the same positives and negatives and their
// difference has a smaller variance than two independent estimates would (DeLong, DeLong &
// Clarke-Pearson 1988, Biometrics 44:837).
//
// For scorer k, with m positives X_i and n negatives Y_j and psi(x, y) = 1 if x > y, 1/2 if x = y, else 0:
//   placements   V_k,i = (1/n) sum_j psi(X_i, Y_j)      (each positive)
//                W_k,j = (1/m) sum_i psi(X_i, Y_j)      (each negative)
//   AUROC        A_k = mean_i V_k,i = mean_j W_k,j
//   covariance   S = S_V / m + S_W / n,  S_V (K by K) the sample covariance (m - 1) of the V_k,i over
//                the positives, S_W that of the W_k,j over the negatives
// so sqrt(S_kk) is auroc_standard_error (metrics.h) of scorer k alone. The placements come from mid-ranks
// (Sun & Xu 2014, IEEE SPL 21:1389): V_k,i = (rank of X_i among all rows - rank among the positives) / n,
// O(K (m + n) log(m + n)) instead of O(K m n).
//
// Paired test of A_a = A_b: the difference d = A_a - A_b has standard error
// se = sqrt(S_aa + S_bb - 2 S_ab), z = d / se, and the two-sided p-value is erfc(|z| / sqrt 2).
// When se = 0 (the same ranking twice, or both perfect) the p-value is 1 for d = 0 and 0 otherwise.
//
//   labels  n values in {0, 1}, at least 2 of each;  scores  K arrays of n finite values
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpprobe/common/status.h"

namespace gpprobe {

struct AurocCovariance {
  std::size_t scorers = 0, positives = 0, negatives = 0;
  std::vector<double> auroc;       // K
  std::vector<double> covariance;  // K by K, row-major, symmetric

  // sqrt(S_kk): DeLong's standard error of scorer k's AUROC.
  double standard_error(std::size_t k) const;
};

// invalid_argument for no scorer, a label other than 0/1, fewer than 2 labels of a class; non_finite
// naming the scorer and row of a NaN or infinite score ("scores 2 entry 7 is NaN").
Result<AurocCovariance> delong_covariance(const std::uint8_t* labels, std::size_t n,
                                          const std::vector<const double*>& scores);

struct PairedAurocTest {
  double difference = 0.0;      // A_a - A_b
  double standard_error = 0.0;  // of the difference
  double p_value = 1.0;         // two-sided
};

// The test of scorers a and b (both < covariance.scorers).
PairedAurocTest paired_auroc_test(const AurocCovariance& covariance, std::size_t a, std::size_t b);

}  // namespace gpprobe
