// The probe API on small decoded problems: up to 12 observations in up to 5 dimensions, epsilon and
// strength anywhere (edge doubles included), duplicated rows, float32 or float64, either space, then
// adds and removes. Whatever fits must score inside the maths: finite means, 0 < variance <= 2v,
// knowledge and judged probability in [0, 1]; both spaces agree where both are well-conditioned; a
// failed update leaves every score as it was.
#include <vector>

#include "gpprobe/probe/probe.h"

#include "fuzz_support.h"

using namespace gpprobe;

namespace {

struct Scores {
  std::vector<double> judged, episteme, alea, mean, variance, knowledge, ood;
  explicit Scores(std::size_t n) : judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n) {}
  ProbeScoreColumns columns() {
    return {judged.data(), episteme.data(), alea.data(), mean.data(), variance.data(), knowledge.data(), ood.data()};
  }
};

// Scores the queries; on success checks every invariant of docs/design/probe.md.
Status score_and_check(const Probe& probe, const RowMatrix& queries, Scores* s) {
  const Status status = probe.score(MatrixView(queries), s->columns());
  if (!status.ok()) {
    fuzz::require(status.code() == StatusCode::numerical_failure || status.code() == StatusCode::non_finite,
                  "scoring fails only on NaN/Inf queries or numerically");
    return status;
  }
  const double two_v = 2.0 * probe.prior().variance;
  for (std::size_t q = 0; q < s->mean.size(); ++q) {
    fuzz::require(std::isfinite(s->mean[q]), "latent mean finite", s->mean[q]);
    fuzz::require(s->variance[q] > 0.0 && s->variance[q] <= two_v, "0 < variance <= 2v", s->variance[q]);
    fuzz::require(s->knowledge[q] >= 0.0 && s->knowledge[q] <= 1.0, "knowledge in [0, 1]", s->knowledge[q]);
    fuzz::require(s->judged[q] >= 0.0 && s->judged[q] <= 1.0, "judged probability in [0, 1]", s->judged[q]);
    fuzz::require(std::isfinite(s->episteme[q]) && std::isfinite(s->alea[q]), "episteme and alea finite");
    fuzz::require(s->ood[q] == -s->variance[q], "ood score = -variance");
  }
  return status;
}

RowMatrix rows(fuzz::Input& in, std::size_t n, std::size_t d, const RowMatrix* copy_from) {
  RowMatrix m{Eigen::Index(n), Eigen::Index(d)};
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const std::uint8_t how = in.byte();
    if (copy_from && copy_from->rows() > 0 && how < 64) {  // a repeated row: ill-conditioning on purpose
      m.row(i) = copy_from->row(how % copy_from->rows());
    } else if (how < 80 && i > 0) {
      m.row(i) = m.row(how % i);
    } else {
      for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = in.value();
    }
  }
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const std::size_t O = in.in_range(0, 12), d = in.in_range(1, 5), n = in.in_range(1, 6);
  ProbeOptions options;
  options.epsilon = in.byte() < 16 ? in.raw_double() : in.positive(-9, 3);
  options.strength = in.byte() < 16 ? in.raw_double() : in.positive(-3, 13);
  const PosteriorSpace spaces[] = {PosteriorSpace::automatic, PosteriorSpace::function, PosteriorSpace::weight};
  options.space = spaces[in.byte() % 3];
  const bool float32 = in.flag();
  RowMatrix X = rows(in, O, d, nullptr);
  std::vector<std::uint8_t> y(O);
  for (auto& label : y) {
    const std::uint8_t b = in.byte();
    label = b < 250 ? b & 1 : b;  // now and then a label that is neither 0 nor 1
  }
  const RowMatrix Q = rows(in, n, d, &X);
  std::vector<float> X32(X.data(), X.data() + X.size());
  const MatrixView observations = float32 ? MatrixView(X32.data(), O, d) : MatrixView(X);

  Result<Probe> fitted = Probe::fit(observations, y.data(), y.size(), options);
  if (!fitted.ok()) return 0;
  Probe& probe = fitted.value();
  Scores scores(n);
  const bool scored = score_and_check(probe, Q, &scores).ok();

  // The other space, forced: where both are well-conditioned they must agree (Woodbury).
  ProbeOptions other = options;
  other.space = probe.space() == PosteriorSpace::function ? PosteriorSpace::weight : PosteriorSpace::function;
  Result<Probe> twin = Probe::fit(observations, y.data(), y.size(), other);
  if (scored && twin.ok() && twin.value().space() != probe.space() && probe.condition() < 1e6 &&
      twin.value().condition() < 1e6) {
    Scores t(n);
    if (score_and_check(twin.value(), Q, &t).ok()) {
      const double delta = std::fabs(probe.prior().raised.mean - probe.prior().mean);
      for (std::size_t q = 0; q < n; ++q) {
        const double scale = 1.0 + std::fabs(scores.mean[q]) + delta * double(O);
        fuzz::require(std::fabs(t.mean[q] - scores.mean[q]) <= 1e-6 * scale, "spaces agree on the mean",
                      t.mean[q] - scores.mean[q]);
        fuzz::require(std::fabs(t.variance[q] - scores.variance[q]) <= 1e-6 * scores.variance[q],
                      "spaces agree on the variance", t.variance[q] - scores.variance[q]);
      }
    }
  }

  // Up to four updates; a failed one changes nothing.
  for (int step = 0; step < 4 && scored; ++step) {
    Scores before(n);
    if (!score_and_check(probe, Q, &before).ok()) break;
    const std::uint8_t op = in.byte();
    Status status;
    if (op & 1) {
      const RowMatrix row = rows(in, 1, d, &X);
      std::vector<float> row32(row.data(), row.data() + row.size());
      const MatrixView view = float32 ? MatrixView(row32.data(), 1, d) : MatrixView(row);
      const std::uint8_t b = in.byte();
      status = probe.add_observation(view, b < 250 ? b & 1 : b);
    } else {
      status = probe.remove_observation(in.byte() % (probe.observation_count() + 1));
    }
    Scores after(n);
    if (!score_and_check(probe, Q, &after).ok()) break;
    if (!status.ok()) {
      for (std::size_t q = 0; q < n; ++q) {
        fuzz::require(after.mean[q] == before.mean[q] && after.variance[q] == before.variance[q],
                      "a failed update leaves the probe as it was");
      }
    }
  }
  return 0;
}
