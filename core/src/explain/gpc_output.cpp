#include "gpprobe/explain/gpc_output.h"

#include <algorithm>
#include <string>
#include <utility>

#include "gpprobe/certify/robustness_region.h"

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// The box bounds of one region (the point, with `dims` moving); the region lives here so that the
// bounds, which keep a reference to it, stay valid as long as this object.
class ClassifierBoxBounder final : public BoxBounder {
 public:
  ClassifierBoxBounder(const ClassifierCommonForm& form, RobustnessRegion region, VarianceMethod variance)
      : region_(std::move(region)), bounds_(form, region_), variance_(variance) {
    for (std::size_t j : region_.dims()) scales_.push_back(form.length_scales()[j]);
  }
  ClassifierBoxBounder(const ClassifierBoxBounder&) = delete;  // bounds_ points at region_
  ClassifierBoxBounder& operator=(const ClassifierBoxBounder&) = delete;

  BoxBound bound(const Box& box, Extremum extremum, bool root) const override {
    const VarianceMethod variance = variance_ == VarianceMethod::both && !root ? VarianceMethod::centred : variance_;
    LatentBoxBounds latent = bounds_.latent(box, variance);
    const Interval p = bounds_.probability(latent);
    BoxBound out;
    out.bound = extremum == Extremum::minimum ? p.lower : p.upper;
    std::vector<std::vector<double>> points;
    auto add = [&](std::vector<double> point) {
      if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(std::move(point));
    };
    add(std::move(latent.mean_lower_point));
    add(std::move(latent.mean_upper_point));
    add(std::move(latent.variance_lower_point));
    add(std::move(latent.variance_upper_point));
    add(box.centre());
    if (box.dimension() == 1) {
      add(box.lower);
      add(box.upper);
    }
    const std::vector<double> values = bounds_.probabilities_at(points);
    for (std::size_t c = 0; c < points.size(); ++c) out.candidates.push_back({std::move(points[c]), values[c]});
    return out;
  }

  std::vector<double> scales() const override { return scales_; }

 private:
  RobustnessRegion region_;
  ClassifierBoxBounds bounds_;
  VarianceMethod variance_;
  std::vector<double> scales_;
};

}  // namespace

Status ClassifierOutput::values(const MatrixView& points, double* out) const {
  ClassifierColumns columns;
  columns.probability = out;
  return form_->evaluate(points, columns);
}

Result<std::unique_ptr<BoxBounder>> ClassifierOutput::around(const std::vector<double>& point,
                                                             const std::vector<std::size_t>& dims) const {
  if (point.size() != form_->dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the training inputs have " +
                                                      count_of(form_->dimension(), "column"));
  }
  // The region's own box (radius 0) is never searched: the bounder's boxes are the caller's, and the
  // bounds only use the region's fixed coordinates and the list of moving ones.
  Result<RobustnessRegion> region = RobustnessRegion::linf_ball(point, 0.0, dims);
  if (!region.ok()) return region.status();
  return std::unique_ptr<BoxBounder>(new ClassifierBoxBounder(*form_, std::move(region).value(), variance_));
}

}  // namespace gpprobe
