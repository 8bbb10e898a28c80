// The softmax classifier's class-c probability pi^c(x) = E[softmax_c f(x)] (multiclass_laplace.h) as a
// BoundedOutput (scalar_output.h), so the certified feature sensitivity works per class: values by the
// model's own quadrature, bounds over a box of moving coordinates by the multi-class certified box
// bounds (multiclass_box_bounds.h: latent moment intervals, then Prop. 3-4 with the vertex bound), the
// same bounds certify_class_probability (multiclass_robustness.h) searches with, and the same candidates:
// the box's centre, the optimiser of class c's mean relaxation on the side searched, and for one moving
// coordinate also the box's two ends.
//
//   model      fitted; must outlive this object and its bounders
//   class_index the class c explained, < C
//   partition  the latent partition of every box (target_gap 0: 2.5e-4, a quarter of the sensitivity's
//              default tolerance; at most 256 cells as the robustness search)
//   terms      what every region's bounds of this model share (multiclass_box_bounds.h): made here once when
//              not given, so the bounders of all the features explained (one region each) share one setup
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "gpprobe/certify/multiclass_box_bounds.h"
#include "gpprobe/certify/multiclass_probability_bounds.h"
#include "gpprobe/classification/multiclass_laplace.h"
#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

class MulticlassOutput final : public BoundedOutput {
 public:
  // The partition explanations use unless told (see above).
  static LatentPartitionOptions default_partition() { return {0.0, 256, 7.0}; }

  // invalid_argument naming the class when class_index >= C.
  static Result<MulticlassOutput> make(const MulticlassLaplace& model, std::size_t class_index,
                                       LatentPartitionOptions partition = default_partition(),
                                       SoftmaxExpectationOptions quadrature = {},
                                       std::shared_ptr<const MulticlassBoundTerms> terms = nullptr);

  std::size_t dimension() const override { return model_->dimension(); }
  std::size_t class_index() const { return class_; }
  const std::shared_ptr<const MulticlassBoundTerms>& terms() const { return terms_; }
  const RowMatrix* training_inputs() const override { return &model_->inputs(); }
  // pi^c at every row; errors name "test inputs".
  Status values(const MatrixView& points, double* out) const override;
  Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                             const std::vector<std::size_t>& dims) const override;

 private:
  MulticlassOutput(const MulticlassLaplace& model, std::size_t c, LatentPartitionOptions partition,
                   SoftmaxExpectationOptions quadrature, std::shared_ptr<const MulticlassBoundTerms> terms)
      : model_(&model), class_(c), partition_(partition), quadrature_(quadrature), terms_(std::move(terms)) {}

  const MulticlassLaplace* model_;
  std::size_t class_;
  LatentPartitionOptions partition_;
  SoftmaxExpectationOptions quadrature_;
  std::shared_ptr<const MulticlassBoundTerms> terms_;
};

}  // namespace gpprobe
