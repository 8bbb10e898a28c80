// The CLI answers --help for every command and caps the flags that set an amount of work (issue 23,
// item 10): `gpprobe gpc --help` said "unknown option --help", and `--restarts 4294967297` was accepted
// and would have run for days.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli_runner.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;

TEST(TrustCli, EveryCommandPrintsItsUsageOnHelp) {
  const CliRun all = run_cli("help");
  ASSERT_EQ(all.exit_code, 0);
  // command, a piece of its usage only it has
  const std::vector<std::pair<std::string, std::string>> commands = {{"probe", "--certify-gamma G"},
                                                                     {"loo", "leave-one-out check of the probe"},
                                                                     {"bench", "[--dimension 768]"},
                                                                     {"gpr", "--noise-variance N"},
                                                                     {"baseline", "--method lp|svm|lpe|msp|maha|knn"},
                                                                     {"evaluate", "--experiment probing|fuzzy|ood"},
                                                                     {"draw", "--per-class N"},
                                                                     {"gpc", "[--method laplace|ep]"},
                                                                     {"bench-gpc", "[--dimensions 2,10]"},
                                                                     {"robustness", "--point x1,...,xd"},
                                                                     {"bench-robustness", "Synthetic2D"}};
  for (const auto& [command, own] : commands) {
    for (const std::string& flag : {std::string(" --help"), std::string(" -h"), std::string(" --train x.csv --help")}) {
      const CliRun r = run_cli(command + flag);
      EXPECT_EQ(r.exit_code, 0) << command << flag;
      EXPECT_EQ(r.err, "") << command << flag;
      EXPECT_EQ(r.out.rfind("usage: gpprobe " + command + " ", 0), 0u) << r.out;
      EXPECT_NE(r.out.find(own), std::string::npos) << command;
      EXPECT_NE(r.out.find("Every command takes --threads N"), std::string::npos) << command;
      EXPECT_NE(all.out.find(own), std::string::npos) << command;  // the same block in `gpprobe help`
    }
    // Only its own block: no other command's usage line.
    const CliRun r = run_cli(command + " --help");
    for (const auto& [other, other_own] : commands)
      if (other != command) EXPECT_EQ(r.out.find(other_own), std::string::npos) << command << " shows " << other;
  }
}

TEST(TrustCli, WorkFlagsAreCappedWithAMessageNamingTheFlagAndTheLimit) {
  const std::string cap = " (a cap on the work one command may ask for)";
  // Each is refused while reading the flags: before any file is opened or any work starts.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"gpc --train t.csv --test q.csv --optimize --restarts 4294967297",
       "gpc: --restarts must be at most 1000, got '4294967297'"},
      {"gpc --train t.csv --test q.csv --optimize --restarts 1001", "gpc: --restarts must be at most 1000, got '1001'"},
      {"gpr --train t.csv --test q.csv --optimize --restarts 5000", "gpr: --restarts must be at most 1000, got '5000'"},
      {"robustness --train t.csv --point 0,0 --gamma 0.1 --max-iterations 1000001",
       "robustness: --max-iterations must be at most 1000000, got '1000001'"},
      {"robustness --train t.csv --point 0,0 --gamma 0.1 --time-limit 1e9",
       "robustness: --time-limit must be at most 86400, got '1e9'"},
      {"probe --observations o.csv --labels l.txt --queries q.csv --certify-gamma 0.1 --certify-dims 0 "
       "--max-iterations 99999999999",
       "probe: --max-iterations must be at most 1000000, got '99999999999'"},
      {"evaluate --embeddings e.npy --labels l.txt --experiment probing --trials 100000",
       "evaluate: --trials must be at most 1000, got '100000'"},
      {"evaluate --embeddings e.npy --labels l.txt --experiment probing --members 20000",
       "evaluate: --members must be at most 10000, got '20000'"},
      {"baseline --method lpe --observations o.csv --labels l.txt --queries q.csv --members 4294967297",
       "baseline: --members must be at most 10000, got '4294967297'"},
      {"bench --observations 100,1000000", "bench: --observations must be at most 100000, got '1000000'"},
      {"bench --queries 10000001", "bench: --queries must be at most 10000000, got '10000001'"},
      {"bench --dimension 200000", "bench: --dimension must be at most 100000, got '200000'"},
      {"bench --repeats 101", "bench: --repeats must be at most 100, got '101'"},
      {"bench-gpc --n 50000", "bench-gpc: --n must be at most 20000, got '50000'"},
      {"bench-gpc --dimensions 2,20000", "bench-gpc: --dimensions must be at most 10000, got '20000'"},
      {"bench-gpc --test 20000000", "bench-gpc: --test must be at most 10000000, got '20000000'"},
      {"bench-robustness --n 30000", "bench-robustness: --n must be at most 20000, got '30000'"},
  };
  for (const auto& [args, message] : cases) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "gpprobe " + message + cap + "\n") << args;
  }
  const CliRun none = run_cli("bench --repeats 0");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "gpprobe bench: --repeats must be at least 1\n");
  // A sweep of 1,001 gammas is 1,001 certifications.
  std::string gammas = "0";
  for (int i = 1; i <= 1000; ++i) gammas += ",0.001";
  const CliRun sweep = run_cli("robustness --train t.csv --point 0,0 --sweep " + gammas);
  EXPECT_EQ(sweep.exit_code, 2);
  EXPECT_EQ(sweep.err, "gpprobe robustness: --sweep must be at most 1000, got '1001 values'" + cap + "\n");
}

TEST(TrustCli, WorkFlagsAtTheirLimitsAreAccepted) {
  // The limit itself is allowed: these fail later, on the missing file, not on the flag.
  for (const std::string& args : {std::string("gpc --train missing.csv --test q.csv --optimize --restarts 1000"),
                                  std::string("robustness --train missing.csv --point 0 --gamma 0.1 --max-iterations "
                                              "1000000 --time-limit 86400")}) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_NE(r.err.find("missing.csv"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace gpprobe
