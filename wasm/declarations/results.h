// The described results the wasm bindings return (Reply<T>, wasm/described_values.h), in the order their
// interfaces stand in wasm/gpprobe.d.mts. A binding that returns a new described result adds its type here
// and the two marker lines to the .d.mts (ts_declarations.h); gpprobe_declarations --write fills them in.
#pragma once

#include <tuple>

#include "gpprobe/certify/certify_defaults.h"
#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/multiclass_robustness.h"
#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/classification/classification_examples.h"
#include "gpprobe/compare/auroc_interval.h"
#include "gpprobe/compare/representation_comparison.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/evaluation/metrics.h"
#include "gpprobe/evaluation/vocabulary.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/regression/anomaly_experiment.h"
#include "gpprobe/regression/gated_roc.h"
#include "gpprobe/regression/regression_examples.h"
#include "gpprobe/regression/regression_state.h"

namespace gpprobe::declarations {

using Results = std::tuple<LeaveOneOut, RocCurve, ExperimentResult, GatedRocSweep, RegressionExample, RegressionState,
                           AnomalyExperiment, ClassificationExample, ClassificationVocabulary,
                           MulticlassRobustnessCertificate, RobustnessCertificate, RobustnessSweep, ProbeCertificate,
                           CertifyDefaults, ComparisonResult, AurocInterval, Vocabulary>;

// The described results the Python module returns as dicts (py_dict, python/src/described.h), in the order
// their TypedDicts stand in python/gpprobe/_gpprobe.pyi.
using PyResults = std::tuple<LeaveOneOut, ExperimentResult>;

}  // namespace gpprobe::declarations
