// The described results the wasm bindings return (Reply<T>, wasm/described_values.h), in the order their
// interfaces stand in wasm/gpprobe.d.mts. A binding that returns a new described result adds its type here
// and the two marker lines to the .d.mts (ts_declarations.h); gpprobe_declarations --write fills them in.
#pragma once

#include <tuple>

#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/representation_comparison.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/probe/leave_one_out.h"

namespace gpprobe::declarations {

using Results = std::tuple<LeaveOneOut, RocCurve, ExperimentResult, ComparisonResult, AurocInterval>;

}  // namespace gpprobe::declarations
