#include "gpprobe/certify/multiclass_probability_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpprobe/classification/likelihood.h"

#include "common/numeric_constants.h"

namespace gpprobe {

namespace multiclass_bounds_detail {

constexpr double kRoundingMargin = 1e-12;

// Phi(z) with its limits at +-inf.
double phi_cdf(double z) {
  if (z == kInfinity) return 1.0;
  if (z == -kInfinity) return 0.0;
  return normal_cdf(z);
}

// (x - m) / s with the limits of s -> 0 (s >= 0) and of infinite x (m finite).
double standardised(double x, double m, double s) {
  if (std::isinf(x)) return x;
  const double r = x - m;
  if (s > 0.0) return r / s;
  return r > 0.0 ? kInfinity : r < 0.0 ? -kInfinity : 0.0;
}

// G(a, b; m, v) for a finite m; Phi's upper tail is taken by symmetry (no 1 - Phi cancellation).
double mass(double a, double b, double m, double v) {
  const double s = std::sqrt(std::max(v, 0.0));
  const double za = standardised(a, m, s), zb = standardised(b, m, s);
  if (za > 0.0) return std::max(phi_cdf(-za) - phi_cdf(-zb), 0.0);
  return std::max(phi_cdf(zb) - phi_cdf(za), 0.0);
}

// Interval arithmetic where an end may be infinite: 0 * inf counts as 0 (a zero end is exact).
double product(double x, double y) { return (x == 0.0 || y == 0.0) ? 0.0 : x * y; }

Interval times_extended(Interval a, Interval b) {
  const double p[] = {product(a.lower, b.lower), product(a.lower, b.upper), product(a.upper, b.lower),
                      product(a.upper, b.upper)};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

Interval plus(Interval a, Interval b) {
  // inf + (-inf) cannot occur: lower ends are never +inf and upper ends never -inf.
  return {a.lower + b.lower, a.upper + b.upper};
}

struct Cell {
  std::vector<double> lower, upper;  // D each
  double mass_lower = 0.0, mass_upper = 0.0;
  std::vector<double> low, high;  // C: the cell's contributions min softmax * min P, max softmax * max P
  double priority = 0.0;
};

// The elimination of Prop. 4, shared by every cell.
struct Conditioning {
  std::size_t D = 0;
  std::vector<Interval> mean;               // D
  std::vector<Interval> pivot;              // D: conditional variance of g_s given g_{s+1..}
  std::vector<std::vector<Interval>> coef;  // coef[s][j], j < s
  bool failed = false;
};

Conditioning eliminate(const std::vector<Interval>& mean, const std::vector<Interval>& covariance) {
  Conditioning out;
  const std::size_t D = mean.size();
  out.D = D;
  out.mean = mean;
  out.pivot.resize(D);
  out.coef.assign(D, std::vector<Interval>(D));
  std::vector<Interval> A = covariance;
  auto at = [&](std::size_t j, std::size_t k) -> Interval& { return A[j * D + k]; };
  for (std::size_t s = D; s-- > 0;) {
    Interval p = at(s, s);
    p.lower = std::max(p.lower, 0.0);
    out.pivot[s] = p;
    if (!(p.lower > 0.0) || !std::isfinite(p.upper)) {
      out.failed = true;
      return out;
    }
    for (std::size_t j = 0; j < s; ++j) out.coef[s][j] = over(at(j, s), p);
    for (std::size_t j = 0; j < s; ++j) {
      for (std::size_t k = j; k < s; ++k) {
        Interval v;
        if (j == k) {
          const Interval sq = square(at(j, s).lower, at(j, s).upper);
          const Interval q = over(sq, p);
          v = {at(j, j).lower - q.upper, at(j, j).upper - q.lower};
          v.lower = std::max(v.lower, 0.0);  // a conditional variance of a positive definite Gamma
        } else {
          const Interval q = times(at(j, s), out.coef[s][k]);
          v = {at(j, k).lower - q.upper, at(j, k).upper - q.lower};
        }
        at(j, k) = v;
        at(k, j) = v;
      }
    }
  }
  return out;
}

// min P(S) and max P(S) over the moment intervals (Prop. 4 with Prop. 2 per factor).
void cell_mass(const Conditioning& c, Cell* cell) {
  std::vector<Interval> m = c.mean;
  double lo = 1.0, hi = 1.0;
  for (std::size_t s = c.D; s-- > 0;) {
    const Interval g = gaussian_mass_range(cell->lower[s], cell->upper[s], m[s], c.pivot[s]);
    lo *= g.lower;
    hi *= g.upper;
    if (hi == 0.0) break;
    const Interval offset{cell->lower[s] - m[s].upper, cell->upper[s] - m[s].lower};
    for (std::size_t j = 0; j < s; ++j) m[j] = plus(m[j], times_extended(c.coef[s][j], offset));
  }
  cell->mass_lower = lo;
  cell->mass_upper = hi;
}

void evaluate(const Conditioning& c, const std::vector<std::size_t>& asked, Cell* cell) {
  const std::size_t C = c.D + 1;
  cell_mass(c, cell);
  cell->low.assign(C, 0.0);
  cell->high.assign(C, 0.0);
  cell->priority = 0.0;
  for (std::size_t k = 0; k < C; ++k) {
    if (cell->mass_lower > 0.0)
      cell->low[k] = softmax_cell_extreme(cell->lower, cell->upper, k, true) * cell->mass_lower;
    if (cell->mass_upper > 0.0)
      cell->high[k] = softmax_cell_extreme(cell->lower, cell->upper, k, false) * cell->mass_upper;
  }
  for (std::size_t k : asked) cell->priority = std::max(cell->priority, cell->high[k] - cell->low[k]);
}

}  // namespace multiclass_bounds_detail

Interval gaussian_mass_range(double a, double b, Interval mean, Interval variance) {
  using namespace multiclass_bounds_detail;
  if (a == -kInfinity && b == kInfinity) return {1.0, 1.0};
  const double vl = std::max(variance.lower, 0.0), vu = std::max(variance.upper, vl);
  double most;
  if (a == -kInfinity) {  // Phi((b - m)/sqrt v): decreasing in m
    if (mean.lower == -kInfinity) {
      most = 1.0;
    } else {
      const double m = mean.lower;
      most = mass(a, b, m, m <= b ? vl : vu);
    }
  } else if (b == kInfinity) {  // increasing in m
    if (mean.upper == kInfinity) {
      most = 1.0;
    } else {
      const double m = mean.upper;
      most = mass(a, b, m, m >= a ? vl : vu);
    }
  } else {
    const double m = std::clamp(0.5 * (a + b), mean.lower, mean.upper);
    double v = vl;
    if (m < a || m > b) {
      const double star = ((m - a) * (m - a) - (m - b) * (m - b)) / (2.0 * std::log((m - a) / (m - b)));
      v = std::clamp(std::isfinite(star) ? star : vl, vl, vu);
    }
    most = mass(a, b, m, v);
  }
  double least = 0.0;
  if (std::isfinite(mean.lower) && std::isfinite(mean.upper)) {
    least = std::min({mass(a, b, mean.lower, vl), mass(a, b, mean.lower, vu), mass(a, b, mean.upper, vl),
                      mass(a, b, mean.upper, vu)});
  }
  return {least, most};
}

double softmax_cell_extreme(const std::vector<double>& lower, const std::vector<double>& upper, std::size_t c,
                            bool minimum) {
  const std::size_t D = lower.size();
  // Lemma 1's vertex: class c's own difference at one end, every other at the opposite one.
  auto entry = [&](std::size_t j) -> double {
    if (j == D) return 0.0;
    const bool own = j == c;
    return (own == minimum) ? lower[j] : upper[j];
  };
  const double own = entry(c);
  if (own == -kInfinity) return 0.0;
  bool other_infinite = false;
  double largest = own;
  for (std::size_t j = 0; j <= D; ++j) {
    if (j == c) continue;
    const double e = entry(j);
    if (e == kInfinity) other_infinite = true;
    else if (e > largest) largest = e;
  }
  if (own == kInfinity) return other_infinite ? (minimum ? 0.0 : 1.0) : 1.0;
  if (other_infinite) return 0.0;
  double total = std::exp(own - largest);
  const double numerator = total;
  for (std::size_t j = 0; j <= D; ++j) {
    if (j == c) continue;
    const double e = entry(j);
    if (e != -kInfinity) total += std::exp(e - largest);
  }
  return numerator / total;
}

ClassProbabilityBounds softmax_probability_bounds(const std::vector<Interval>& mean,
                                                  const std::vector<Interval>& covariance,
                                                  const std::vector<std::size_t>& classes,
                                                  const LatentPartitionOptions& options) {
  using namespace multiclass_bounds_detail;
  const std::size_t D = mean.size(), C = D + 1;
  std::vector<std::size_t> asked = classes;
  if (asked.empty())
    for (std::size_t k = 0; k < C; ++k) asked.push_back(k);
  ClassProbabilityBounds out;
  out.probability.assign(C, Interval{0.0, 1.0});
  const Conditioning conditioning = eliminate(mean, covariance);
  if (conditioning.failed) {
    out.conditioning_failed = true;
    return out;
  }

  // The initial grid: per axis two unbounded tails and `pieces` cells over [m_L - 7 sd, m_U + 7 sd].
  const std::size_t pieces = D <= 3 ? 4 : 1;
  {
    std::size_t grid = 1;
    for (std::size_t j = 0; j < D && grid <= kMaxLatentCells; ++j) grid *= pieces + 2;
    if (grid > kMaxLatentCells) {  // sized before anything is built: [0, 1] for every class
      out.grid_too_large = true;
      return out;
    }
  }
  const auto stopped = [&] { return options.stop && options.stop(); };
  std::vector<double> sd(D);
  std::vector<std::vector<double>> breaks(D);
  for (std::size_t j = 0; j < D; ++j) {
    sd[j] = std::sqrt(std::max(covariance[j * D + j].upper, 0.0));
    if (!(sd[j] > 0.0)) sd[j] = 1.0;
    double lo = mean[j].lower - options.coverage * sd[j], hi = mean[j].upper + options.coverage * sd[j];
    breaks[j].push_back(-kInfinity);
    for (std::size_t q = 0; q <= pieces; ++q) breaks[j].push_back(lo + (hi - lo) * double(q) / double(pieces));
    breaks[j].back() = hi;
    breaks[j].push_back(kInfinity);
  }
  std::vector<Cell> cells;
  std::vector<std::size_t> index(D, 0);
  while (true) {
    if (cells.size() % 1024 == 1023 && stopped()) {  // part of R^D uncovered: nothing sound to sum
      out.stopped = true;
      return out;
    }
    Cell cell;
    for (std::size_t j = 0; j < D; ++j) {
      cell.lower.push_back(breaks[j][index[j]]);
      cell.upper.push_back(breaks[j][index[j] + 1]);
    }
    evaluate(conditioning, asked, &cell);
    cells.push_back(std::move(cell));
    std::size_t j = 0;
    while (j < D && ++index[j] == breaks[j].size() - 1) index[j++] = 0;
    if (j == D) break;
  }
  std::vector<double> low(C, 0.0), high(C, 0.0);
  for (const Cell& cell : cells)
    for (std::size_t k = 0; k < C; ++k) low[k] += cell.low[k], high[k] += cell.high[k];
  auto gap = [&] {
    double g = 0.0;
    for (std::size_t k : asked) g = std::max(g, std::min(high[k], 1.0) - low[k]);
    return g;
  };
  auto later = [&](std::size_t a, std::size_t b) { return cells[a].priority < cells[b].priority; };
  std::vector<std::size_t> heap;
  for (std::size_t i = 0; i < cells.size(); ++i) heap.push_back(i);
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty() && cells.size() < options.max_cells && gap() > options.target_gap) {
    if (stopped()) {  // the partition so far is a partition: its sums stand
      out.stopped = true;
      break;
    }
    std::pop_heap(heap.begin(), heap.end(), later);
    const std::size_t i = heap.back();
    heap.pop_back();
    // The widest finite side, in standard deviations.
    std::size_t side = D;
    double widest = 0.0;
    for (std::size_t j = 0; j < D; ++j) {
      const double w = (cells[i].upper[j] - cells[i].lower[j]) / sd[j];
      if (std::isfinite(w) && w > widest) widest = w, side = j;
    }
    if (side == D) continue;  // nothing left to split: the cell stays as it is
    const double middle = cells[i].lower[side] + 0.5 * (cells[i].upper[side] - cells[i].lower[side]);
    if (!(middle > cells[i].lower[side] && middle < cells[i].upper[side])) continue;
    for (std::size_t k = 0; k < C; ++k) low[k] -= cells[i].low[k], high[k] -= cells[i].high[k];
    Cell right = cells[i];
    cells[i].upper[side] = middle;
    right.lower[side] = middle;
    evaluate(conditioning, asked, &cells[i]);
    evaluate(conditioning, asked, &right);
    cells.push_back(std::move(right));
    for (std::size_t j : {i, cells.size() - 1}) {
      for (std::size_t k = 0; k < C; ++k) low[k] += cells[j].low[k], high[k] += cells[j].high[k];
      heap.push_back(j);
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
  // Sums afresh (the running ones were updated by subtraction).
  std::fill(low.begin(), low.end(), 0.0);
  std::fill(high.begin(), high.end(), 0.0);
  for (const Cell& cell : cells)
    for (std::size_t k = 0; k < C; ++k) low[k] += cell.low[k], high[k] += cell.high[k];
  double low_total = 0.0, high_total = 0.0;
  for (std::size_t k = 0; k < C; ++k) low_total += low[k], high_total += std::min(high[k], 1.0);
  for (std::size_t k = 0; k < C; ++k) {
    const double lower = std::max(low[k], 1.0 - (high_total - std::min(high[k], 1.0)));
    const double upper = std::min(high[k], 1.0 - (low_total - low[k]));
    out.probability[k] = {std::clamp(lower - kRoundingMargin, 0.0, 1.0), std::clamp(upper + kRoundingMargin, 0.0, 1.0)};
  }
  out.cells = cells.size();
  return out;
}

}  // namespace gpprobe
