// Embind registration of what the classification lab offers besides the classifier itself
// (bindings_classification.cpp): the bundled examples (classification_examples.h), the benchmark's seeded
// synthetic data (synthetic_classification.h) and the lab's vocabulary — methods, likelihoods, examples
// and the defaults of the model, the hyperparameter fit and the probing experiment's probes.
// The example and the vocabulary are the core's structs, returned as they stand (described_values.h).
// Conventions of binding_support.h; no mathematics.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/classification/classification_examples.h"
#include "gpprobe/classification/synthetic_classification.h"
#include "gpprobe/evaluation/vocabulary.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

Reply<ClassificationExample> classification_example_value(const std::string& name, double seed) {
  using Value = Reply<ClassificationExample>;
  std::uint64_t s = 0;
  if (Status checked = seed_argument("seed", seed, &s); !checked.ok()) return failed<Value>(checked);
  Result<ClassificationExample> e = classification_example(name, s);
  if (!e.ok()) return failed<Value>(e.status());
  return reply(std::move(e).value());
}

// Seeded synthetic classification data (synthetic_classification.h, the benchmark's workload): x as
// float64 rows * dimension at `x`, labels 0/1 as float64 at `labels`.
Status synthetic_classification_data(double rows, double dimension, double seed, std::uintptr_t x,
                                     std::uintptr_t labels) {
  std::size_t n = 0, d = 0;
  std::uint64_t s = 0;
  GPPROBE_RETURN_IF_ERROR(count_argument("rows", rows, &n));
  GPPROBE_RETURN_IF_ERROR(count_argument("dimension", dimension, &d));
  GPPROBE_RETURN_IF_ERROR(seed_argument("seed", seed, &s));
  if (n < 1 || d < 1) {
    return Status(StatusCode::invalid_argument, "synthetic classification data need rows >= 1 and dimension >= 1");
  }
  const SyntheticClassification data = synthetic_classification(n, d, s);
  std::copy(data.x.data(), data.x.data() + data.x.size(), doubles_out(x));
  std::copy(data.labels.begin(), data.labels.end(), doubles_out(labels));
  return Status::success();
}

Reply<ClassificationVocabulary> classification_vocabulary() { return reply(gpprobe::classification_vocabulary()); }

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_classification_examples) {
  using namespace gpprobe::wasm;
  reply_object<gpprobe::ClassificationExample>();
  reply_object<gpprobe::ClassificationVocabulary>();

  bind_function<&classification_example_value>("classificationExample");
  bind_function<&synthetic_classification_data>("syntheticClassification");
  bind_function<&classification_vocabulary>("classificationVocabulary");
}
