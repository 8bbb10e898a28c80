#include "gpprobe/compare/delong.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// 1-based ranks of x[0..n), tied values sharing the mean of their ranks.
std::vector<double> mid_ranks(const std::vector<double>& x) {
  const std::size_t n = x.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&x](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> rank(n);
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first + 1;
    while (last < n && x[order[last]] == x[order[first]]) ++last;
    // ranks first + 1 .. last share their mean
    const double shared = 0.5 * double(first + 1 + last);
    for (std::size_t k = first; k < last; ++k) rank[order[k]] = shared;
    first = last;
  }
  return rank;
}

// Sample covariance (denominator rows - 1) of the K columns of `x` (rows by K, row-major), added to `S`
// times `scale`.
void add_sample_covariance(const std::vector<double>& x, std::size_t rows, std::size_t K, double scale,
                           std::vector<double>* S) {
  std::vector<double> mean(K, 0.0);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < K; ++k) mean[k] += x[i * K + k];
  for (double& m : mean) m /= double(rows);
  for (std::size_t a = 0; a < K; ++a) {
    for (std::size_t b = a; b < K; ++b) {
      double sum = 0.0;
      for (std::size_t i = 0; i < rows; ++i) sum += (x[i * K + a] - mean[a]) * (x[i * K + b] - mean[b]);
      const double c = scale * sum / double(rows - 1);
      (*S)[a * K + b] += c;
      if (b != a) (*S)[b * K + a] += c;
    }
  }
}

}  // namespace

double AurocCovariance::standard_error(std::size_t k) const {
  return std::sqrt(std::max(0.0, covariance[k * scorers + k]));
}

Result<AurocCovariance> delong_covariance(const std::uint8_t* labels, std::size_t n,
                                          const std::vector<const double*>& scores) {
  const std::size_t K = scores.size();
  if (K == 0) return Status(StatusCode::invalid_argument, "delong_covariance needs at least one scorer");
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (labels[i] > 1) {
      return Status(StatusCode::invalid_argument, "delong_covariance: label " + std::to_string(i) + " is " +
                                                      std::to_string(int(labels[i])) + "; labels must be 0 or 1");
    }
    m += labels[i];
  }
  const std::size_t negatives = n - m;
  if (m < 2 || negatives < 2) {
    return Status(StatusCode::invalid_argument, "delong_covariance needs at least 2 labels of each class, got " +
                                                    std::to_string(m) + " positive and " + std::to_string(negatives) +
                                                    " negative");
  }
  for (std::size_t k = 0; k < K; ++k) {
    GPPROBE_RETURN_IF_ERROR(check_finite_values(scores[k], n, "scores " + std::to_string(k)));
  }

  AurocCovariance c;
  c.scorers = K;
  c.positives = m;
  c.negatives = negatives;
  c.auroc.assign(K, 0.0);
  c.covariance.assign(K * K, 0.0);
  std::vector<double> V(m * K), W(negatives * K);  // placements, rows by scorers
  std::vector<double> all(n), positive(m), negative(negatives);
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t i = 0, p = 0, q = 0; i < n; ++i) {
      all[i] = scores[k][i];
      (labels[i] ? positive[p++] : negative[q++]) = scores[k][i];
    }
    const std::vector<double> rank_all = mid_ranks(all), rank_positive = mid_ranks(positive),
                              rank_negative = mid_ranks(negative);
    // A positive's rank among all rows exceeds its rank among the positives by the negatives below it
    // (ties counting 1/2); a negative's, by the positives below it.
    double sum = 0.0;
    for (std::size_t i = 0, p = 0, q = 0; i < n; ++i) {
      if (labels[i]) {
        V[p * K + k] = (rank_all[i] - rank_positive[p]) / double(negatives);
        sum += V[p * K + k];
        ++p;
      } else {
        W[q * K + k] = 1.0 - (rank_all[i] - rank_negative[q]) / double(m);
        ++q;
      }
    }
    c.auroc[k] = sum / double(m);
  }
  add_sample_covariance(V, m, K, 1.0 / double(m), &c.covariance);
  add_sample_covariance(W, negatives, K, 1.0 / double(negatives), &c.covariance);
  return c;
}

PairedAurocTest paired_auroc_test(const AurocCovariance& c, std::size_t a, std::size_t b) {
  const std::size_t K = c.scorers;
  PairedAurocTest t;
  t.difference = c.auroc[a] - c.auroc[b];
  const double variance = c.covariance[a * K + a] + c.covariance[b * K + b] - 2.0 * c.covariance[a * K + b];
  // Rounding can leave the variance of two identical rankings a hair below 0.
  t.standard_error = std::sqrt(std::max(0.0, variance));
  if (t.standard_error == 0.0) {
    t.p_value = t.difference == 0.0 ? 1.0 : 0.0;
  } else {
    t.p_value = std::erfc(std::fabs(t.difference / t.standard_error) / std::sqrt(2.0));
  }
  return t;
}

}  // namespace gpprobe
