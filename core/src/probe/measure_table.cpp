#include "probe/measure_table.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <vector>

#include "common/numeric_constants.h"
#include "linalg/lanes.h"

namespace gpprobe {

namespace {

constexpr double kMeanLimit = 24.0;    // cells cover |mean| in [0, 24)
constexpr int kMeanCells = 24;         // of width 1
constexpr int kMeanPoints = 12;        // degree 11 in the mean
constexpr int kMeanPadded = 12;        // three lanes
constexpr int kSdPoints = 9;           // degree 8 in the sd
constexpr double kSdCellWidth = 0.25;  // at most
constexpr double kSdFloor = 0.5;       // below it the measures bend too sharply for these degrees
constexpr double kCheckTolerance = 2e-12;
constexpr std::size_t kMaxTables = 16;  // beyond this many distinct priors, the quadrature answers

struct Coefficients {
  bool usable = false;
  double c[3][kSdPoints][kMeanPadded] = {};  // [measure][degree in sd][degree in mean], zero-padded
};

struct Cell {
  std::once_flag built;
  std::unique_ptr<Coefficients> coefficients;
};

// The measures are symmetric in the mean (judged(-u) = 1 - judged(u); episteme and alea even), so cells
// cover u = |mean| and keep, from the measures m at mean -u:
//   the smaller judged probability m.judged(-u), in the first cell as (1/2 - m.judged(-u)) / u (so that the
//     prior, mean 0, gives exactly 1/2 and the two signs stay exactly symmetric);
//   the episteme plus log(sd) (its -log(sd) term is the one part that bends sharply at small sds: it is
//     added back per query);
//   the alea.
struct Kept {
  double v[3];
};

Kept kept_of(int cell, double u, double sd, const UncertaintyMeasures& m) {
  return {{cell == 0 ? (0.5 - m.judged_probability) / u : m.judged_probability, m.episteme + std::log(sd), m.alea}};
}

UncertaintyMeasures measures_of(int cell, double mean, double sd, const Kept& k) {
  const double u = std::fabs(mean);
  const double lower = cell == 0 ? 0.5 - u * k.v[0] : k.v[0];  // judged(-u)
  return {mean < 0.0 ? lower : 1.0 - lower, k.v[1] - std::log(sd), k.v[2]};
}

// Chebyshev point k of n (first kind) on [-1, 1].
double chebyshev_point(int k, int n) { return std::cos(kPi * (k + 0.5) / n); }

template <int N>
void chebyshev_values(double x, double* t) {
  t[0] = 1.0;
  t[1] = x;
  for (int i = 2; i < N; ++i) t[i] = 2.0 * x * t[i - 1] - t[i - 2];
}

class MeasureTable {
 public:
  explicit MeasureTable(double prior_variance) : prior_variance_(prior_variance) {
    sd_max_ = std::sqrt(prior_variance);
    sd_min_ = std::max(sd_max_ / 4.0, kSdFloor);
    sd_cells_ = sd_min_ < sd_max_ ? static_cast<int>(std::ceil((sd_max_ - sd_min_) / kSdCellWidth)) : 0;
    sd_width_ = sd_cells_ > 0 ? (sd_max_ - sd_min_) / sd_cells_ : 0.0;
    cells_.reset(new Cell[static_cast<std::size_t>(kMeanCells) * sd_cells_]);
  }

  double prior_variance() const { return prior_variance_; }

  UncertaintyMeasures measures(double mean, double variance) const {
    const double sd = std::sqrt(variance);
    const double u = std::fabs(mean);
    if (!(u < kMeanLimit && sd >= sd_min_ && sd <= sd_max_ && sd_cells_ > 0))
      return uncertainty_measures(mean, variance);
    const int i = std::min(kMeanCells - 1, static_cast<int>(u));
    const int j = std::min(sd_cells_ - 1, static_cast<int>((sd - sd_min_) / sd_width_));
    Cell& cell = cells_[static_cast<std::size_t>(j) * kMeanCells + i];
    std::call_once(cell.built, [&] { cell.coefficients = build(i, j); });
    if (!cell.coefficients->usable) return uncertainty_measures(mean, variance);
    return measures_of(
        i, mean, sd, evaluate(*cell.coefficients, 2.0 * (u - mean_centre(i)), (sd - sd_centre(j)) / (0.5 * sd_width_)));
  }

 private:
  double mean_centre(int i) const { return i + 0.5; }
  double sd_centre(int j) const { return sd_min_ + (j + 0.5) * sd_width_; }

  // Cell (i, j): the quadrature at its Chebyshev points, two one-dimensional cosine transforms, the check.
  std::unique_ptr<Coefficients> build(int i, int j) const {
    auto out = std::make_unique<Coefficients>();
    double values[3][kSdPoints][kMeanPoints];
    for (int b = 0; b < kSdPoints; ++b) {
      const double sd = sd_centre(j) + 0.5 * sd_width_ * chebyshev_point(b, kSdPoints);
      for (int a = 0; a < kMeanPoints; ++a) {
        const double u = mean_centre(i) + 0.5 * chebyshev_point(a, kMeanPoints);
        const Kept kept = kept_of(i, u, sd, uncertainty_measures(-u, sd * sd));
        for (int k = 0; k < 3; ++k) values[k][b][a] = kept.v[k];
      }
    }
    for (int k = 0; k < 3; ++k) {
      double along_mean[kSdPoints][kMeanPoints];
      for (int b = 0; b < kSdPoints; ++b) {
        for (int l = 0; l < kMeanPoints; ++l) {
          double s = 0.0;
          for (int a = 0; a < kMeanPoints; ++a) s += values[k][b][a] * std::cos(kPi * l * (a + 0.5) / kMeanPoints);
          along_mean[b][l] = s * (l == 0 ? 1.0 : 2.0) / kMeanPoints;
        }
      }
      for (int m = 0; m < kSdPoints; ++m) {
        for (int l = 0; l < kMeanPoints; ++l) {
          double s = 0.0;
          for (int b = 0; b < kSdPoints; ++b) s += along_mean[b][l] * std::cos(kPi * m * (b + 0.5) / kSdPoints);
          out->c[k][m][l] = s * (m == 0 ? 1.0 : 2.0) / kSdPoints;
        }
      }
    }
    // Three points off the interpolation grid, one near a corner.
    constexpr double kCheck[3][2] = {{0.37, -0.61}, {-0.83, 0.29}, {0.97, 0.95}};
    out->usable = true;
    for (const auto& p : kCheck) {
      const double sd = sd_centre(j) + 0.5 * sd_width_ * p[1];
      for (double mean : {-(mean_centre(i) + 0.5 * p[0]), mean_centre(i) + 0.5 * p[0]}) {
        const UncertaintyMeasures exact = uncertainty_measures(mean, sd * sd);
        const UncertaintyMeasures table = measures_of(i, mean, sd, evaluate(*out, p[0], p[1]));
        const double gaps[3][2] = {{table.judged_probability, exact.judged_probability},
                                   {table.episteme, exact.episteme},
                                   {table.alea, exact.alea}};
        for (const auto& g : gaps) {
          if (!(std::fabs(g[0] - g[1]) <= kCheckTolerance * std::max(1.0, std::fabs(g[1])))) out->usable = false;
        }
      }
    }
    return out;
  }

  // The three interpolants at (x, y) in [-1, 1]^2 of the cell.
  static Kept evaluate(const Coefficients& c, double x, double y) {
    double tx[kMeanPadded] = {}, ty[kSdPoints];
    chebyshev_values<kMeanPoints>(x, tx);
    chebyshev_values<kSdPoints>(y, ty);
    const Lanes t0 = load(tx), t1 = load(tx + 4), t2 = load(tx + 8);
    Kept result;
    for (int k = 0; k < 3; ++k) {
      Lanes acc = splat(0.0);
      for (int m = 0; m < kSdPoints; ++m) {
        const double* row = c.c[k][m];
        acc = madd(splat(ty[m]), madd(load(row + 8), t2, madd(load(row + 4), t1, load(row) * t0)), acc);
      }
      result.v[k] = sum(acc);
    }
    return result;
  }

  double prior_variance_ = 0.0, sd_max_ = 0.0, sd_min_ = 0.0, sd_width_ = 0.0;
  int sd_cells_ = 0;
  std::unique_ptr<Cell[]> cells_;
};

// The table for a prior variance: built once per process and kept (at most kMaxTables of them).
const MeasureTable* table_for(double prior_variance) {
  thread_local const MeasureTable* last = nullptr;
  if (last != nullptr && last->prior_variance() == prior_variance) return last;
  static std::mutex mutex;
  static std::vector<std::unique_ptr<MeasureTable>> tables;
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& t : tables) {
    if (t->prior_variance() == prior_variance) return last = t.get();
  }
  if (tables.size() >= kMaxTables) return nullptr;
  tables.push_back(std::make_unique<MeasureTable>(prior_variance));
  return last = tables.back().get();
}

}  // namespace

UncertaintyMeasures tabulated_uncertainty_measures(double mean, double variance, double prior_variance) {
  const MeasureTable* table = table_for(prior_variance);
  return table != nullptr ? table->measures(mean, variance) : uncertainty_measures(mean, variance);
}

}  // namespace gpprobe
