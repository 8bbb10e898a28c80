// Certified robustness of the probe's verdict at a query a*: over every query of a set around a* (the
// L-inf box a* +- gamma or the L2 ball |a - a*| <= gamma, on chosen coordinates, the others fixed),
// sound bounds of the latent mean, latent variance, judged probability and episteme
// (query_neighbourhood.h, measure_bounds.h), and optionally branch and bound (branch_and_bound.h) for
// the minimum and maximum judged probability, with witnesses.
//
// Branch and bound splits the L-inf box of offsets on the moving coordinates; for the L2 ball it
// covers the ball with the same boxes (bounding each box, a superset of its part of the ball, also by
// the whole ball's bounds), closes boxes that miss the ball, and takes candidates inside the ball only.
// It pays off when few coordinates move (say <= 10): its cost grows exponentially with their number.
//
// The verdict at a* is "positive" when its judged probability is >= 1/2. It can flip (`yes`) when a
// query of the set was found on the other side; it cannot (`no`) when the certified bound on that side
// stays clear of 1/2; otherwise `unknown`.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/certify/query_neighbourhood.h"
#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/fields.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

enum class VerdictFlip { no, yes, unknown };
inline constexpr EnumNames<VerdictFlip, 3> kVerdictFlipNames = {
    {{VerdictFlip::no, "no"}, {VerdictFlip::yes, "yes"}, {VerdictFlip::unknown, "unknown"}}};

// "no" / "yes" / "unknown".
inline const char* verdict_flip_name(VerdictFlip flip) { return name_of(kVerdictFlipNames, flip); }

struct CertifyOptions {
  double gamma = 0.0;  // radius of the set, finite and >= 0
  QueryNorm norm = QueryNorm::inf;
  std::vector<std::size_t> dims;       // coordinates that move, distinct; empty: all
  bool search = false;                 // branch and bound for the judged probability's min and max
  double tolerance = 1e-2;             // of each search: stop when U - L <= tolerance
  std::size_t max_iterations = 10000;  // of each search
  double time_limit_seconds = 0.0;     // of one query's certificate (both searches, one clock); 0: none
};

struct ProbeCertificate {
  double judged_probability = 0.0;  // at a* itself
  // Sound over the whole set: each true value at each query of the set lies inside.
  Interval judged_probability_bounds, latent_mean, latent_variance, episteme;
  // Judged probabilities attained inside the set, at the witnesses (d values each):
  // judged_probability_bounds.lower <= min <= lowest_found and highest_found <= max <= .upper.
  double lowest_found = 0.0, highest_found = 0.0;
  std::vector<double> lowest_witness, highest_witness;
  // Of the two searches (when run): total boxes split, and `converged` only if both converged.
  std::size_t iterations = 0;
  std::optional<SearchStatus> status;
  VerdictFlip verdict_can_flip = VerdictFlip::unknown;
};

GPPROBE_DESCRIBE(ProbeCertificate, "ProbeCertificateValue", GPPROBE_FIELD(judged_probability),
                 GPPROBE_FIELD(judged_probability_bounds), GPPROBE_FIELD(latent_mean), GPPROBE_FIELD(latent_variance),
                 GPPROBE_FIELD(episteme), GPPROBE_FIELD(lowest_found), GPPROBE_FIELD(highest_found),
                 GPPROBE_FIELD(lowest_witness), GPPROBE_FIELD(highest_witness), GPPROBE_FIELD(iterations),
                 GPPROBE_COVERED(status),
                 GPPROBE_COMPUTED("status",  // the search's status, or "bounds_only" when no search ran
                                  [](const ProbeCertificate& c) {
                                    return c.status ? name_of(kSearchStatusNames, *c.status) : "bounds_only";
                                  }),
                 GPPROBE_NAMED(verdict_can_flip, kVerdictFlipNames));

class ProbeCertifier {
 public:
  // invalid_argument naming the problem for a bad gamma, tolerance or coordinate list.
  static Result<ProbeCertifier> make(const Probe& probe, const CertifyOptions& options);

  // One query a* (d values). `progress` sees the iterations of the searches and may cancel them; the
  // certificate is then valid but wider (status `cancelled`).
  Result<ProbeCertificate> certify(const double* query, const ProgressCallback& progress = {}) const;

  // Every row of `queries` (n by d); progress after each query, cancel returns `cancelled`.
  Result<std::vector<ProbeCertificate>> certify(const MatrixView& queries, const ProgressCallback& progress = {}) const;

  const CertifyOptions& options() const { return options_; }

 private:
  ProbeCertifier(const CertifyOptions& options, MovingCoordinates moving)
      : options_(options), moving_(std::move(moving)) {}

  CertifyOptions options_;
  MovingCoordinates moving_;
};

}  // namespace gpprobe
