#include "certify/pairwise_exponential_sums.h"

#include <algorithm>

#include "linalg/lanes.h"

namespace gpprobe {

namespace {

// The terms of the pairs (i, l), l < i, of one row: row i's in `acc`, row l's added to `out` at l.
template <class T>
struct PairTerms {
  T p, m, g;  // max(Q_il, 0), min(Q_il, 0), the chord factor g_il
};

template <class T>
PairTerms<T> pair_terms(T q, T spread_sum, T numerator) {
  PairTerms<T> r;
  r.p = q > T(0.0) ? q : T(0.0);
  r.m = q - r.p;
  r.g = spread_sum > 0.0 ? numerator / spread_sum : -1.0;
  return r;
}

template <>
PairTerms<Lanes> pair_terms(Lanes q, Lanes spread_sum, Lanes numerator) {
  PairTerms<Lanes> r;
  r.p = positive_part(q);
  r.m = q - r.p;
  // Where D_i + D_l = 0 the numerator is 0 too, and g = -1: (0 - 1) / (0 + 1).
  const Lanes zero = keep(spread_sum == splat(0.0), splat(1.0));
  r.g = (numerator - zero) / (spread_sum + zero);
  return r;
}

}  // namespace

void pairwise_exponential_sums(const double* Q, std::size_t n, const PairwiseFactors& f, double* out) {
  std::fill(out, out + kPairwiseSums * n, 0.0);
  double* o[kPairwiseSums];
  for (int s = 0; s < kPairwiseSums; ++s) o[s] = out + std::size_t(s) * n;
  for (std::size_t i = 0; i < n; ++i) {
    const double* q = Q + i * n;
    const double mid = f.mid[i], low = f.low[i], high = f.high[i];
    const Lanes em_i = splat(f.spread_expm1[i]), ed_i = splat(f.spread_exp[i]), spread_i = splat(f.spread[i]);
    Lanes acc[kPairwiseSums] = {};
    std::size_t l = 0;
    for (; l + kLaneCount <= i; l += kLaneCount) {
      const PairTerms<Lanes> t =
          pair_terms(load(q + l), spread_i + load(f.spread + l), em_i + ed_i * load(f.spread_expm1 + l));
      const Lanes mid_l = load(f.mid + l), low_l = load(f.low + l), high_l = load(f.high + l);
      const Lanes chord_l = low_l * t.g, chord_i = splat(low) * t.g;
      acc[kPMid] += t.p * mid_l;
      acc[kNMid] += t.m * mid_l;
      acc[kPLow] += t.p * low_l;
      acc[kNLow] += t.m * low_l;
      acc[kPHigh] += t.p * high_l;
      acc[kNHigh] += t.m * high_l;
      acc[kChordP] += t.p * chord_l;
      acc[kChordN] += t.m * chord_l;
      store(o[kPMid] + l, load(o[kPMid] + l) + t.p * splat(mid));
      store(o[kNMid] + l, load(o[kNMid] + l) + t.m * splat(mid));
      store(o[kPLow] + l, load(o[kPLow] + l) + t.p * splat(low));
      store(o[kNLow] + l, load(o[kNLow] + l) + t.m * splat(low));
      store(o[kPHigh] + l, load(o[kPHigh] + l) + t.p * splat(high));
      store(o[kNHigh] + l, load(o[kNHigh] + l) + t.m * splat(high));
      store(o[kChordP] + l, load(o[kChordP] + l) + t.p * chord_i);
      store(o[kChordN] + l, load(o[kChordN] + l) + t.m * chord_i);
    }
    double row[kPairwiseSums];
    for (int s = 0; s < kPairwiseSums; ++s) row[s] = sum(acc[s]);
    // The last pairs l < i one by one, then the diagonal pair (i, i), counted once.
    for (; l <= i; ++l) {
      const PairTerms<double> t =
          pair_terms(q[l], f.spread[i] + f.spread[l], f.spread_expm1[i] + f.spread_exp[i] * f.spread_expm1[l]);
      const double terms_i[kPairwiseSums] = {t.p * f.mid[l],       t.m * f.mid[l],      t.p * f.low[l],
                                             t.m * f.low[l],       t.p * f.high[l],     t.m * f.high[l],
                                             t.p * f.low[l] * t.g, t.m * f.low[l] * t.g};
      for (int s = 0; s < kPairwiseSums; ++s) row[s] += terms_i[s];
      if (l == i) break;
      const double terms_l[kPairwiseSums] = {t.p * mid,  t.m * mid,  t.p * low,       t.m * low,
                                             t.p * high, t.m * high, t.p * low * t.g, t.m * low * t.g};
      for (int s = 0; s < kPairwiseSums; ++s) o[s][l] += terms_l[s];
    }
    for (int s = 0; s < kPairwiseSums; ++s) o[s][i] += row[s];
  }
}

}  // namespace gpprobe
