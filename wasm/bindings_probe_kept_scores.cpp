// Embind registration of scores kept up to date with a probe (scored_queries.h): adding or removing
// an observation updates every kept query by a rank-one change instead of scoring it again.
// Conventions of binding_support.h; no mathematics.
#include <cstdint>
#include <memory>

#include <emscripten/bind.h>

#include "gpprobe/probe/scored_queries.h"

#include "binding_support.h"
#include "probe_handle.h"

namespace gpprobe::wasm {
namespace {

struct KeptScoresState : BindingStatus {
  double rows = 0;
  double fullRescores = 0;
  bool current = false;  // every row scored by the probe as it is now
};

// Scores of one set of queries kept up to date with a probe (scored_queries.h). The queries stay in
// the wasm heap (a ResidentMatrix) for as long as this handle lives; every change goes through it.
class ScoredQueriesHandle {
 public:
  Status track(std::uintptr_t queries, std::size_t rows, std::size_t cols, int dtype) {
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(queries, rows, cols, dtype, "queries", &view));
    kept_ = std::make_unique<gpprobe::ScoredQueries>(view);
    return Status::success();
  }

  Status score_rows(ProbeHandle& probe, double first, double count) {
    if (!kept_ || !probe.probe()) return not_fitted();
    std::size_t f = 0, n = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("first", first, &f));
    GPPROBE_RETURN_IF_ERROR(count_argument("count", count, &n));
    return kept_->score_rows(*probe.probe(), f, n);
  }

  Status add_observation(ProbeHandle& probe, std::uintptr_t row, std::size_t cols, int dtype, double label) {
    if (!kept_ || !probe.probe()) return not_fitted();
    GPPROBE_RETURN_IF_ERROR(check_label(label));
    MatrixView view;
    GPPROBE_RETURN_IF_ERROR(view_of(row, 1, cols, dtype, "the observation", &view));
    return kept_->add_observation(probe.probe(), view, std::uint8_t(label));
  }

  Status remove_observation(ProbeHandle& probe, double index) {
    if (!kept_ || !probe.probe()) return not_fitted();
    std::size_t i = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("observation index", index, &i));
    return kept_->remove_observation(probe.probe(), i);
  }

  Status follow(ProbeHandle& probe, const ScoredQueriesHandle& leader) {
    if (!kept_ || !leader.kept_ || !probe.probe()) return not_fitted();
    return kept_->follow(*probe.probe(), *leader.kept_);
  }

  // 7 columns of `count` doubles at `out`, as ProbeHandle.score writes them, for rows [first, first + count).
  Status write(std::uintptr_t out, double first, double count) const {
    if (!kept_) return not_fitted();
    std::size_t f = 0, n = 0;
    GPPROBE_RETURN_IF_ERROR(count_argument("first", first, &f));
    GPPROBE_RETURN_IF_ERROR(count_argument("count", count, &n));
    double* base = doubles_out(out);
    const gpprobe::ProbeScoreColumns columns{base,         base + n,     base + 2 * n, base + 3 * n,
                                             base + 4 * n, base + 5 * n, base + 6 * n};
    return kept_->write(columns, f, n);
  }

  KeptScoresState state(ProbeHandle& probe) const {
    if (!kept_ || !probe.probe()) return failed<KeptScoresState>(not_fitted());
    KeptScoresState s;
    s.rows = double(kept_->rows());
    s.fullRescores = double(kept_->full_rescores());
    s.current = kept_->current(*probe.probe());
    return s;
  }

 private:
  std::unique_ptr<gpprobe::ScoredQueries> kept_;
};

}  // namespace
}  // namespace gpprobe::wasm

EMSCRIPTEN_BINDINGS(gpprobe_kept_scores) {
  using namespace gpprobe::wasm;
  result_object<KeptScoresState>("KeptScoresState", [](auto& o) {
    o.field("rows", &KeptScoresState::rows)
        .field("fullRescores", &KeptScoresState::fullRescores)
        .field("current", &KeptScoresState::current);
  });
  emscripten::class_<ScoredQueriesHandle> kept("ScoredQueriesHandle");
  kept.constructor<>();
  bind_method<&ScoredQueriesHandle::track>(kept, "ScoredQueriesHandle", "track");
  bind_method<&ScoredQueriesHandle::score_rows>(kept, "ScoredQueriesHandle", "scoreRows");
  bind_method<&ScoredQueriesHandle::add_observation>(kept, "ScoredQueriesHandle", "addObservation");
  bind_method<&ScoredQueriesHandle::remove_observation>(kept, "ScoredQueriesHandle", "removeObservation");
  bind_method<&ScoredQueriesHandle::follow>(kept, "ScoredQueriesHandle", "follow");
  bind_method<&ScoredQueriesHandle::write>(kept, "ScoredQueriesHandle", "write");
  bind_method<&ScoredQueriesHandle::state>(kept, "ScoredQueriesHandle", "state");
}
