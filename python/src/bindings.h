// The registration functions of the module's parts (each in its own file), called once by module.cpp.
#pragma once

#include <pybind11/pybind11.h>

namespace gpprobe::python {

// ProbeHandle, fit_probe, read_probe_file, thread_count, set_thread_count (probe_bindings.cpp).
void register_probe(pybind11::module_& m);
// ClassifierHandle, fit_classifier, RegressionHandle, fit_regressor, named_kernels (model_bindings.cpp).
void register_models(pybind11::module_& m);
// draw_observations, compare_representations (compare_bindings.cpp).
void register_compare(pybind11::module_& m);
// run_baseline, run_experiment (evaluation_bindings.cpp).
void register_evaluation(pybind11::module_& m);

}  // namespace gpprobe::python
