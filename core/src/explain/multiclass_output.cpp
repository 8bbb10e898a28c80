#include "gpprobe/explain/multiclass_output.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "gpprobe/certify/multiclass_box_bounds.h"
#include "gpprobe/certify/robustness_region.h"

#include "common/input_checks.h"
#include "common/numeric_constants.h"

namespace gpprobe {

namespace {

// The multi-class box bounds of one region (the point, with `dims` moving), for one class; the region
// lives here so that the bounds, which keep a reference to it, stay valid as long as this object.
class MulticlassBoxBounder final : public BoxBounder {
 public:
  MulticlassBoxBounder(const MulticlassLaplace& model, RobustnessRegion region, std::size_t c,
                       LatentPartitionOptions partition, SoftmaxExpectationOptions quadrature,
                       std::shared_ptr<const MulticlassBoundTerms> terms)
      : region_(std::move(region)),
        bounds_(model, region_, std::move(terms)),
        class_(c),
        partition_(partition),
        quadrature_(quadrature) {
    // Per moving coordinate the smallest length-scale over the classes, as certify_class_probability.
    for (std::size_t j : region_.dims()) {
      double s = kInfinity;
      for (const SeArdKernel& k : model.kernels()) s = std::min(s, k.length_scales[j]);
      scales_.push_back(s);
    }
  }
  MulticlassBoxBounder(const MulticlassBoxBounder&) = delete;  // bounds_ points at region_
  MulticlassBoxBounder& operator=(const MulticlassBoxBounder&) = delete;

  // The four searches of a feature (the minimum and the maximum over each side) split the same root boxes the
  // same way (at the widest side's midpoint), and neighbouring boxes share their ends: each box's bounds
  // (both ends of the class's interval, computed once whichever end is asked) and each candidate's value are
  // computed once per feature and remembered, so every search sees exactly the numbers it would have computed.
  BoxBound bound(const Box& box, Extremum extremum, bool) const override {
    const std::size_t c = class_;
    auto known = boxes_.find(std::make_pair(box.lower, box.upper));
    if (known == boxes_.end()) {
      MulticlassLatentBounds latent = bounds_.latent(box);
      const ClassProbabilityBounds p = bounds_.probability(latent, {c}, partition_);
      KnownBox k{p.probability[c], std::move(latent.mean_lower_point[c]), std::move(latent.mean_upper_point[c])};
      known = boxes_.emplace(std::make_pair(box.lower, box.upper), std::move(k)).first;
    }
    const KnownBox& k = known->second;
    BoxBound out;
    out.bound = extremum == Extremum::minimum ? k.probability.lower : k.probability.upper;
    std::vector<std::vector<double>> points{box.centre()};
    auto add = [&](const std::vector<double>& point) {
      if (!point.empty() && box.contains(point) && std::find(points.begin(), points.end(), point) == points.end())
        points.push_back(point);
    };
    add(extremum == Extremum::minimum ? k.mean_lower_point : k.mean_upper_point);
    if (box.dimension() == 1) {
      add(box.lower);
      add(box.upper);
    }
    for (std::vector<double>& x : points) {
      auto value = values_.find(x);
      if (value == values_.end()) value = values_.emplace(x, bounds_.probabilities_at(x, quadrature_)[c]).first;
      if (std::isfinite(value->second)) out.candidates.push_back({std::move(x), value->second});
    }
    return out;
  }

  std::vector<double> scales() const override { return scales_; }

 private:
  RobustnessRegion region_;
  MulticlassBoxBounds bounds_;
  std::size_t class_;
  LatentPartitionOptions partition_;
  SoftmaxExpectationOptions quadrature_;
  std::vector<double> scales_;
  // What the searches of this region have computed (see bound); a bounder serves one feature on one thread.
  struct KnownBox {
    Interval probability;
    std::vector<double> mean_lower_point, mean_upper_point;
  };
  mutable std::map<std::pair<std::vector<double>, std::vector<double>>, KnownBox> boxes_;
  mutable std::map<std::vector<double>, double> values_;
};

}  // namespace

Result<MulticlassOutput> MulticlassOutput::make(const MulticlassLaplace& model, std::size_t class_index,
                                                LatentPartitionOptions partition, SoftmaxExpectationOptions quadrature,
                                                std::shared_ptr<const MulticlassBoundTerms> terms) {
  if (class_index >= model.classes()) {
    return Status(StatusCode::invalid_argument, "class " + std::to_string(class_index) +
                                                    " is out of range: the model has " +
                                                    count_of(model.classes(), "class", "classes") + " (0 to " +
                                                    std::to_string(model.classes() - 1) + ")");
  }
  if (!(partition.target_gap > 0.0)) partition.target_gap = 2.5e-4;
  if (!terms || terms->model != &model) terms = MulticlassBoundTerms::make(model);
  return MulticlassOutput(model, class_index, partition, quadrature, std::move(terms));
}

Status MulticlassOutput::values(const MatrixView& points, double* out) const {
  Result<MulticlassPrediction> p = model_->predict(points, quadrature_);
  if (!p.ok()) return p.status();
  for (std::size_t i = 0; i < points.rows(); ++i) {
    out[i] = p.value().probability(Eigen::Index(i), Eigen::Index(class_));
    if (!std::isfinite(out[i])) {
      return Status(StatusCode::numerical_failure, "the probability of class " + std::to_string(class_) +
                                                       " at test input " + std::to_string(i) + " is not finite");
    }
  }
  return Status::success();
}

Result<std::unique_ptr<BoxBounder>> MulticlassOutput::around(const std::vector<double>& point,
                                                             const std::vector<std::size_t>& dims) const {
  if (point.size() != model_->dimension()) {
    return Status(StatusCode::dimension_mismatch, "the point has " + count_of(point.size(), "coordinate") +
                                                      ", the training inputs have " +
                                                      count_of(model_->dimension(), "column"));
  }
  // The region's own box (radius 0) is never searched: the bounder's boxes are the caller's.
  Result<RobustnessRegion> region = RobustnessRegion::linf_ball(point, 0.0, dims);
  if (!region.ok()) return region.status();
  return std::unique_ptr<BoxBounder>(
      new MulticlassBoxBounder(*model_, std::move(region).value(), class_, partition_, quadrature_, terms_));
}

}  // namespace gpprobe
