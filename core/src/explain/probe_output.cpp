#include "gpprobe/explain/probe_output.h"

#include <string>
#include <utility>

#include "gpprobe/certify/measure_bounds.h"
#include "gpprobe/certify/moving_coordinates.h"
#include "gpprobe/certify/query_neighbourhood.h"
#include "gpprobe/probe/uncertainty_measures.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// The judged probability around one query; boxes arrive in absolute coordinates and are bounded as
// offsets from the query (rounding is monotone, so a candidate's offset stays inside the box's offsets).
class ProbeBoxBounder final : public BoxBounder {
 public:
  ProbeBoxBounder(MovingCoordinates moving, const std::vector<double>& query)
      : moving_(std::move(moving)), around_(moving_, query.data()) {
    for (std::size_t j : moving_.dims()) centre_.push_back(query[j]);
  }
  ProbeBoxBounder(const ProbeBoxBounder&) = delete;  // around_ points at moving_
  ProbeBoxBounder& operator=(const ProbeBoxBounder&) = delete;

  BoxBound bound(const Box& box, Extremum extremum, bool) const override {
    const std::size_t k = centre_.size();
    std::vector<double> lower(k), upper(k);
    for (std::size_t j = 0; j < k; ++j) lower[j] = box.lower[j] - centre_[j], upper[j] = box.upper[j] - centre_[j];
    const LatentBounds latent = around_.over_box(lower.data(), upper.data());
    const Interval p = measure_bounds(latent.mean, latent.variance).judged_probability;
    BoxBound out{extremum == Extremum::minimum ? p.lower : p.upper, {}};
    for (const std::vector<double>* point : {&box.lower, &box.upper})
      out.candidates.push_back({*point, judged(*point)});
    std::vector<double> centre = box.centre();
    if (centre != box.lower && centre != box.upper) {
      const double value = judged(centre);
      out.candidates.push_back({std::move(centre), value});
    }
    return out;
  }

  std::vector<double> scales() const override { return std::vector<double>(centre_.size(), 1.0); }

 private:
  double judged(const std::vector<double>& point) const {
    std::vector<double> offset(point.size());
    for (std::size_t j = 0; j < point.size(); ++j) offset[j] = point[j] - centre_[j];
    const LatentValue at = around_.at(offset.data());
    return uncertainty_measures(at.mean, at.variance).judged_probability;
  }

  MovingCoordinates moving_;
  QueryNeighbourhood around_;
  std::vector<double> centre_;  // the query on the moving coordinates
};

}  // namespace

Result<ProbeOutput> ProbeOutput::make(const Probe& probe) {
  if (probe.dimension() == 0) {
    return Status(StatusCode::invalid_argument, "the probe has no dimension yet: it has no observation");
  }
  std::shared_ptr<const RowMatrix> observations;
  const RowMatrix& psi = probe.features();
  if (psi.rows() > 0) {
    // psi's last column sqrt(v) / sqrt(|a|^2 + 1) is > 0, so a_j = psi_j / psi_d.
    const Eigen::Index d = Eigen::Index(probe.dimension());
    RowMatrix a = psi.leftCols(d);
    for (Eigen::Index i = 0; i < a.rows(); ++i) a.row(i) /= psi(i, d);
    observations = std::make_shared<const RowMatrix>(std::move(a));
  }
  return ProbeOutput(probe, std::make_shared<const LatentWeights>(probe.latent_weights()), std::move(observations));
}

Status ProbeOutput::values(const MatrixView& points, double* out) const {
  ProbeScoreColumns columns;
  columns.judged_probability = out;
  return probe_->score(points, columns);
}

Result<std::unique_ptr<BoxBounder>> ProbeOutput::around(const std::vector<double>& point,
                                                        const std::vector<std::size_t>& dims) const {
  const std::size_t d = weights_->dimension();
  if (point.size() != d) {
    return Status(StatusCode::dimension_mismatch, "the query has " + count_of(point.size(), "coordinate") +
                                                      ", the probe's observations have " + count_of(d, "column"));
  }
  GPPROBE_RETURN_IF_ERROR(check_finite_values(point.data(), d, "the query"));
  Result<MovingCoordinates> moving = MovingCoordinates::make(weights_, dims);
  if (!moving.ok()) return moving.status();
  return std::unique_ptr<BoxBounder>(new ProbeBoxBounder(std::move(moving).value(), point));
}

}  // namespace gpprobe
