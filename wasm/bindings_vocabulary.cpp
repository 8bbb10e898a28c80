// Embind registration of the words and numbers the core owns and the TS side must not restate: the
// status codes, the anomaly status names, the defaults of every option, the named kernels with their
// parameters (the regression lab's fields come from here), the examples, and the build's backend.
// web/src/engine/vocabulary.ts reads them; its few tables that the page needs before any module is
// loaded (ERROR_CODES, ANOMALY_STATUSES, DEFAULTS) are tested against this binding.
// The vocabulary itself is the core's (gpprobe/evaluation/vocabulary.h), returned as it stands.
#include <string>

#include <emscripten/bind.h>

#include "gpprobe/evaluation/vocabulary.h"
#include "gpprobe/linalg/parallel_for.h"

#include "binding_support.h"
#include "described_values.h"

namespace gpprobe::wasm {
namespace {

// The threads of later scoring (parallel_for.h): stays 1 in the single-threaded module; 0 restores the
// default (every core, capped).
gpprobe::Status set_threads(int threads) {
  if (threads < 0) {
    return gpprobe::Status(gpprobe::StatusCode::invalid_argument,
                           "threads must be 0 (the default) or more, got " + std::to_string(threads));
  }
  gpprobe::set_thread_count(std::size_t(threads));
  return gpprobe::Status::success();
}

Reply<Vocabulary> vocabulary() { return reply(gpprobe::vocabulary()); }

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_vocabulary) {
  using namespace gpprobe::wasm;
  reply_object<gpprobe::Vocabulary>();
  bind_function<&vocabulary>("vocabulary");
  bind_function<&set_threads>("setThreads");
}
