// Binary GP classification's class probability pi(x) = p(y = +1 | x) (Laplace or EP, through the common
// form, common_form.h) as a BoundedOutput (scalar_output.h): values by the form's own evaluation,
// bounds over a box of moving coordinates by the certified box bounds of the robustness search
// (box_bounds.h, docs/design/certify.md "Bounds over a box"), with the candidates that search uses: the
// optimisers of the four separable relaxations, the box's centre, and for one moving coordinate also
// the box's two ends (where a one-dimensional extreme often lies).
//
//   form      the fitted classifier's common form; must outlive this object and its bounders
//   variance  the variance bounds (box_bounds.h VarianceMethod): `both` uses both on a search's root
//             box and the centred form below it, as certify_robustness does
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "gpprobe/certify/box_bounds.h"
#include "gpprobe/classification/common_form.h"
#include "gpprobe/explain/scalar_output.h"

namespace gpprobe {

class ClassifierOutput final : public BoundedOutput {
 public:
  explicit ClassifierOutput(const ClassifierCommonForm& form, VarianceMethod variance = VarianceMethod::both)
      : form_(&form), variance_(variance) {}

  std::size_t dimension() const override { return form_->dimension(); }
  // pi at every row; errors name "test inputs".
  Status values(const MatrixView& points, double* out) const override;
  Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                             const std::vector<std::size_t>& dims) const override;

  const RowMatrix* training_inputs() const override { return &form_->inputs(); }
  const ClassifierCommonForm& form() const { return *form_; }

 private:
  const ClassifierCommonForm* form_;
  VarianceMethod variance_;
};

}  // namespace gpprobe
