// Embind registration of the out-of-distribution baselines of the GPP paper (LP, SVM, LPE, MSP, Mahalanobis,
// kNN: core/src/baselines/). Conventions of binding_support.h.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "gpprobe/baselines/baselines.h"

#include "binding_support.h"

namespace gpprobe::wasm {
namespace {

struct BaselineRun : BindingStatus {
  val columns = val::null();  // string[]: which of score, probability, episteme, alea were written
};

// Writes 4 columns of `query_rows` doubles at `out` (score, probability, episteme, alea); the result
// names the columns the method has, the others are left as they were.
BaselineRun run_baseline(const std::string& method, std::uintptr_t observations, std::size_t rows, std::size_t cols,
                         int dtype, std::uintptr_t labels, std::size_t label_count, std::uintptr_t queries,
                         std::size_t query_rows, std::size_t query_cols, int query_dtype, double k, double seed,
                         double members, std::uintptr_t out, val progress) {
  Result<gpprobe::BaselineMethod> m = gpprobe::parse_baseline(method);
  if (!m.ok()) return failed<BaselineRun>(m.status());
  MatrixView x, q;
  if (Status s = view_of(observations, rows, cols, dtype, "observations", &x); !s.ok()) return failed<BaselineRun>(s);
  if (Status s = view_of(queries, query_rows, query_cols, query_dtype, "queries", &q); !s.ok())
    return failed<BaselineRun>(s);
  gpprobe::BaselineOptions options;
  for (const Status& checked : {count_argument("k", k, &options.k), seed_argument("seed", seed, &options.seed),
                                count_argument("members", members, &options.members)}) {
    if (!checked.ok()) return failed<BaselineRun>(checked);
  }
  Result<gpprobe::BaselineScores> r =
      gpprobe::run_baseline(m.value(), x, bytes(labels), label_count, q, options, progress_from(progress));
  if (!r.ok()) return failed<BaselineRun>(r.status());
  double* base = doubles_out(out);
  const gpprobe::BaselineScores& s = r.value();
  int column = 0;
  for (const std::vector<double>* c : {&s.score, &s.probability, &s.episteme, &s.alea}) {
    std::copy(c->begin(), c->end(), base + std::size_t(column++) * query_rows);
  }
  BaselineRun run;
  run.columns = array_of(gpprobe::baseline_columns(m.value()));
  return run;
}

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_baselines) {
  using namespace gpprobe::wasm;
  result_object<BaselineRun>("BaselineRun", [](auto& o) { o.field("columns", &BaselineRun::columns); });
  bind_function<&run_baseline>("runBaseline");
}
