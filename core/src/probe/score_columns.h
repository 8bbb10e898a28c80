// One query's latent mean and variance into the probe's output columns (probe.h ProbeScoreColumns),
// shared by Probe::score and the kept scores of scored_queries.h. Private to core/src.
#pragma once

#include <cstddef>

#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

// In exact arithmetic 0 < variance <= 2v; weight space adds two quadratic forms that are each <= v and
// may overshoot 2v by a few ulps, which is rounding and is cut back. Anything else (or a non-finite
// mean) is numerical_failure naming the query and the condition estimate.
Status check_latent(std::size_t query, double mean, double variance, double prior_variance, double condition);

// Row q of every requested column; the measures only when one of them is requested, read from the table of
// measure_table.h for this prior variance.
void write_score_columns(std::size_t q, double mean, double variance, double prior_variance,
                         const ProbeScoreColumns& out);

}  // namespace gpprobe
