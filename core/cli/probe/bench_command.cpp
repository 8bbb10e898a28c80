// gpprobe bench [--observations 100,1000,4000] [--dimension 768] [--queries 10000] [--seed N] [--repeats R]
//               [--json]
// Times Probe::fit and Probe::score on seeded synthetic embeddings, the same workload the wasm
// benchmark (scripts/bench/bench.mjs) runs, so the two can be divided. With --repeats R, the fastest
// fit + score of R in this process per O (as the numpy and Python rows of bench_scale are measured).
#include <chrono>
#include <ostream>

#include "gpprobe/evaluation/synthetic_embeddings.h"
#include "gpprobe/linalg/parallel_for.h"
#include "gpprobe/linalg/row_products.h"
#include "gpprobe/probe/probe.h"

#include "arguments.h"
#include "commands.h"

namespace gpprobe::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Status run(const Args& raw, std::ostream& out) {
  Result<Arguments> parsed =
      Arguments::parse(raw, {"observations", "dimension", "queries", "seed", "repeats"}, {"json"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::vector<std::size_t>> sizes = args.counts("observations", "100,1000,4000");
  if (!sizes.ok()) return sizes.status();
  Result<long long> dimension = args.integer("dimension", 768);
  Result<long long> queries = args.integer("queries", 10000);
  Result<long long> seed = args.integer("seed", 7);
  Result<long long> repeats = args.integer("repeats", 1);
  for (const auto* r : {&dimension, &queries, &seed, &repeats})
    if (!r->ok()) return r->status();
  if (repeats.value() < 1) return Status(StatusCode::invalid_argument, "--repeats must be at least 1");
  const std::size_t d = std::size_t(dimension.value()), n = std::size_t(queries.value());

  const SyntheticEmbeddings query_data = synthetic_embeddings(n, d, std::uint64_t(seed.value()) + 1);
  // The thread pool starts its threads on first use; start them before the clock runs, as numpy's
  // OpenBLAS starts its own when it is imported (the timings compare the work, not thread creation).
  parallel_for(thread_count(), [](std::size_t, std::size_t) {});
  const bool json = args.has("json");
  if (json) out << "[";
  else out << "backend: " << row_products_backend() << "\n  O      d  queries  space     fit_s   score_s\n";
  bool first = true;
  for (std::size_t O : sizes.value()) {
    const SyntheticEmbeddings data = synthetic_embeddings(O, d, std::uint64_t(seed.value()));
    ProbeOptions options;
    options.expected_queries = n;
    std::vector<double> judged(n), episteme(n), alea(n), mean(n), variance(n), knowledge(n), ood(n);
    ProbeScoreColumns columns{judged.data(),   episteme.data(),  alea.data(), mean.data(),
                              variance.data(), knowledge.data(), ood.data()};
    double fit_s = 0.0, score_s = 0.0;
    Result<Probe> probe = Status(StatusCode::invalid_argument, "no run");
    for (long long r = 0; r < repeats.value(); ++r) {
      auto start = std::chrono::steady_clock::now();
      probe = Probe::fit(MatrixView(data.x), data.labels.data(), data.labels.size(), options);
      const double fit_r = seconds_since(start);
      if (!probe.ok()) return probe.status();
      start = std::chrono::steady_clock::now();
      GPPROBE_RETURN_IF_ERROR(probe.value().score(MatrixView(query_data.x), columns));
      const double score_r = seconds_since(start);
      if (r == 0 || fit_r + score_r < fit_s + score_s) fit_s = fit_r, score_s = score_r;
    }
    const char* space = space_name(probe.value().space());
    if (json) {
      out << (first ? "" : ",") << "{\"observations\":" << O << ",\"dimension\":" << d << ",\"queries\":" << n
          << ",\"space\":\"" << space << "\",\"fit_seconds\":" << fit_s << ",\"score_seconds\":" << score_s
          << ",\"checksum\":" << judged[0] + variance[n - 1] << "}";
    } else {
      char line[128];
      std::snprintf(line, sizeof line, "%5zu %6zu %8zu  %-8s %7.3f %9.3f\n", O, d, n, space, fit_s, score_s);
      out << line;
    }
    first = false;
  }
  if (json) out << "]\n";
  return Status::success();
}

}  // namespace

int bench_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("bench", run(args, out), err);
}

}  // namespace gpprobe::cli
