// The probe's judged probability E[sigmoid f] of a query (probe.h) as a BoundedOutput
// (scalar_output.h): values by the probe's own scoring, bounds over a box of moving embedding
// coordinates by the probe's certificate (docs/design/certify.md, "The probe's certificate"): the latent
// mean and variance over the box of offsets from query_neighbourhood.h, then the judged probability's
// bounds from measure_bounds.h, both sound for the values the probe reports. Candidates: the box's
// centre and its lower and upper corners (for one moving coordinate: its two ends), each judged
// through the same weight-space latent (QueryNeighbourhood::at, then uncertainty_measures).
//
//   probe  fitted, with at least one observation; its latent weights (latent_weights.h, O(D^2) in
//          weight space) are taken when this object is made: later changes to the probe are not seen
//          by the bounds, and the probe must outlive this object for values().
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "gpprobe/explain/scalar_output.h"
#include "gpprobe/probe/latent_weights.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

class ProbeOutput final : public BoundedOutput {
 public:
  // invalid_argument "the probe has no dimension yet: it has no observation".
  static Result<ProbeOutput> make(const Probe& probe);

  std::size_t dimension() const override { return probe_->dimension(); }
  // The judged probability of every row (queries of the probe's dimension).
  Status values(const MatrixView& points, double* out) const override;
  // The observations a_i, recovered from their features psi(a_i) = sqrt(v) [a_i; 1] / sqrt(|a_i|^2 + 1)
  // as psi_j / psi_d (to rounding), when the probe was made.
  const RowMatrix* training_inputs() const override { return observations_.get(); }
  Result<std::unique_ptr<BoxBounder>> around(const std::vector<double>& point,
                                             const std::vector<std::size_t>& dims) const override;

 private:
  ProbeOutput(const Probe& probe, std::shared_ptr<const LatentWeights> weights,
              std::shared_ptr<const RowMatrix> observations)
      : probe_(&probe), weights_(std::move(weights)), observations_(std::move(observations)) {}

  const Probe* probe_;
  std::shared_ptr<const LatentWeights> weights_;
  std::shared_ptr<const RowMatrix> observations_;
};

}  // namespace gpprobe
