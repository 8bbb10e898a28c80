// The `gpprobe robustness` command end to end on golden boxes: the JSON's fields and invariants
// (minimum.lower <= pi_min <= minimum.upper = pi(witness), the same for the maximum, the box, root
// bounds around the reference's empirical extrema), pi(witness) as `gpprobe gpc` reports it, --dims,
// --valid-range, --sweep (Fig. 2 rows), --out, and one stderr line per bad input.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <sys/resource.h>

#include "classification/gpc_fixtures.h"
#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::run_cli;
using testing::TempFile;

std::string numbers(const nlohmann::json& values) {
  std::ostringstream os;
  os.precision(17);
  for (std::size_t i = 0; i < values.size(); ++i) os << (i ? "," : "") << values[i].get<double>();
  return os.str();
}

std::string model_flags(const nlohmann::json& c, const std::string& model) {
  std::string flags = " --signal-variance " + numbers(nlohmann::json::array({c["kernel"]["signal_variance"]})) +
                      " --length-scales " + numbers(c["kernel"]["lengthscales"]);
  if (model == "ep_probit") flags += " --method ep";
  if (model == "laplace_logistic") flags += " --likelihood logistic";
  return flags;
}

struct GoldenBoxFiles {
  nlohmann::json c, box;
  TempFile train;
  GoldenBoxFiles(std::size_t case_index, std::size_t box_index)
      : c(testing::gpc_golden_cases()[case_index]),
        box(c["robustness"][box_index]),
        train("robustness_train.csv", testing::golden_train_csv(c)) {}
  std::string args() const {
    std::string dims;
    for (std::size_t j = 0; j < box["dims"].size(); ++j)
      dims += (j ? "," : "") + std::to_string(box["dims"][j].get<int>());
    return "robustness --train " + train.path() + model_flags(c, box["model"]) + " --point " + numbers(box["x_star"]) +
           " --gamma " + numbers(nlohmann::json::array({box["gamma"]})) + " --dims " + dims;
  }
};

// pi at one point as `gpprobe gpc` prints it.
double gpc_probability(const GoldenBoxFiles& f, const nlohmann::json& point) {
  const TempFile test("robustness_witness.csv", numbers(point) + "\n");
  const auto r = run_cli("gpc --train " + f.train.path() + " --test " + test.path() + model_flags(f.c, f.box["model"]));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  return testing::parse_output(r.out, &header).at(0).at(3);
}

void expect_certificate(const nlohmann::json& j, const GoldenBoxFiles& f, double tolerance) {
  const nlohmann::json& box = f.box;
  const std::size_t d = box["x_star"].size();
  EXPECT_TRUE(testing::relatively_near(j["probability_at_point"], box["prob_at_x_star"], 1e-7));
  EXPECT_EQ(j["box"]["lower"], box["lower"]);
  EXPECT_EQ(j["box"]["upper"], box["upper"]);
  // The root bounds hold the reference's empirical extrema (our fit agrees with the reference's to 1e-7).
  const nlohmann::json& e = box["empirical"];
  for (const auto& [field, quantity] : {std::pair<const char*, const char*>{"mean", "latent_mean"},
                                        {"variance", "latent_variance"},
                                        {"probability", "prob"}}) {
    EXPECT_LE(j["root"][field][0].get<double>(), e[quantity]["min"].get<double>() + 1e-7) << field;
    EXPECT_GE(j["root"][field][1].get<double>(), e[quantity]["max"].get<double>() - 1e-7) << field;
  }
  const double at_point = j["probability_at_point"];
  for (const char* side : {"minimum", "maximum"}) {
    const nlohmann::json& x = j[side];
    EXPECT_EQ(x["status"], "converged") << side;
    EXPECT_LE(x["upper"].get<double>() - x["lower"].get<double>(), tolerance) << side;
    ASSERT_EQ(x["witness"].size(), d) << side;
    for (std::size_t i = 0; i < d; ++i) {
      EXPECT_GE(x["witness"][i].get<double>(), box["lower"][i].get<double>()) << side;
      EXPECT_LE(x["witness"][i].get<double>(), box["upper"][i].get<double>()) << side;
    }
    const bool minimum = std::string(side) == "minimum";
    const double attained = x[minimum ? "upper" : "lower"];
    EXPECT_NEAR(gpc_probability(f, x["witness"]), attained, 1e-12) << side << ": pi(witness) as gpprobe gpc prints it";
    // x* is in T: pi_min <= pi(x*) <= pi_max, and the searches start from it.
    if (minimum) EXPECT_LE(attained, at_point + 1e-15);
    else EXPECT_GE(attained, at_point - 1e-15);
    EXPECT_LE(j["root"]["probability"][0].get<double>(), x["lower"].get<double>()) << side;
    EXPECT_GE(j["root"]["probability"][1].get<double>(), x["upper"].get<double>()) << side;
  }
  EXPECT_LE(j["minimum"]["lower"].get<double>(), e["prob"]["min"].get<double>() + 1e-7);
  EXPECT_GE(j["maximum"]["upper"].get<double>(), e["prob"]["max"].get<double>() - 1e-7);
  EXPECT_EQ(j["gpfgs"]["point"].size(), d);
  EXPECT_NEAR(gpc_probability(f, j["gpfgs"]["point"]), j["gpfgs"]["probability"].get<double>(), 1e-12);
}

TEST(CliRobustness, CertifiesTheGoldenBoxesWithTheStatedInvariants) {
  // xor-2d Laplace probit (both coordinates), blobs-5d-ard EP (coordinates 0 and 2 of 5 move).
  for (const auto& [case_index, box_index] : {std::pair<std::size_t, std::size_t>{2, 0}, {3, 1}, {1, 3}}) {
    const GoldenBoxFiles f(case_index, box_index);
    const auto r = run_cli(f.args());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const nlohmann::json j = nlohmann::json::parse(r.out);
    for (const char* field : {"point", "dims", "tolerance", "search", "gamma", "probability_at_point", "box", "root",
                              "minimum", "maximum", "gpfgs", "verdict_can_flip", "seconds", "model"}) {
      EXPECT_TRUE(j.contains(field)) << field;
    }
    EXPECT_EQ(j["dims"], f.box["dims"]);
    EXPECT_EQ(j["search"], "both");
    EXPECT_EQ(j["model"]["method"], f.box["model"] == "ep_probit" ? "ep" : "laplace");
    expect_certificate(j, f, 0.01);
  }
}

TEST(CliRobustness, SweepGivesOneRowPerGammaOnTheAdversarialSide) {
  const nlohmann::json c = testing::gpc_golden_cases()[4];
  const nlohmann::json& s = c["robustness_sweep"];
  const TempFile train("robustness_sweep_train.csv", testing::golden_train_csv(c));
  std::string gammas;
  for (const auto& row : s["rows"])
    gammas += (gammas.empty() ? "" : ",") + numbers(nlohmann::json::array({row["gamma"]}));
  const auto r = run_cli("robustness --train " + train.path() + model_flags(c, "laplace_probit") + " --point " +
                         numbers(s["x_star"]) + " --sweep " + gammas);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["search"], "adversarial");
  ASSERT_EQ(j["rows"].size(), s["rows"].size());
  for (std::size_t g = 0; g < s["rows"].size(); ++g) {
    const nlohmann::json &row = j["rows"][g], &ref = s["rows"][g];
    EXPECT_EQ(row["gamma"], ref["gamma"]);
    EXPECT_EQ(row["minimum"]["iterations"], 0) << "the minimum is not refined";
    EXPECT_LE(row["maximum"]["lower"].get<double>(), ref["prob_max"].get<double>() + 1e-7);
    EXPECT_GE(row["maximum"]["upper"].get<double>(), ref["prob_max"].get<double>() - 1e-7);
    EXPECT_TRUE(testing::relatively_near(row["gpfgs"]["probability"], ref["gpfgs_prob"], 1e-7));
  }
  EXPECT_EQ(j["rows"].back()["verdict_can_flip"], "yes");
}

TEST(CliRobustness, ValidRangeClipsTheBoxAndOutWritesTheFile) {
  const GoldenBoxFiles f(2, 0);  // x* = (-1.677, -1.782), gamma 0.2
  const TempFile out("robustness_out.json", "");
  const auto r = run_cli(f.args() + " --valid-range -1.8,0 --out " + out.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(out.path()));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(j["box"]["lower"][i].get<double>(), -1.8);
    EXPECT_DOUBLE_EQ(j["box"]["upper"][i].get<double>(), f.box["upper"][i].get<double>());
    EXPECT_GE(j["minimum"]["witness"][i].get<double>(), -1.8);
    EXPECT_GE(j["maximum"]["witness"][i].get<double>(), -1.8);
    EXPECT_GE(j["gpfgs"]["point"][i].get<double>(), -1.8);
  }
}

TEST(CliRobustness, BenchCertifiesWhatTheCommandCertifiesOnItsData) {
  // bench-robustness --data writes the very training set it certifies on; `robustness` on that file,
  // with the same hyperparameters, point and options, gives the same adversarial interval.
  const std::string dir = ::testing::TempDir() + "gpprobe_bench_robustness";
  std::filesystem::create_directories(dir);
  const auto bench = run_cli("bench-robustness --n 150 --gammas 0.5 --data " + dir + " --json");
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  const nlohmann::json b = nlohmann::json::parse(bench.out);
  ASSERT_EQ(b["rows"].size(), 1u);
  const nlohmann::json& row = b["rows"][0];
  EXPECT_EQ(row["status"], "converged");
  EXPECT_LE(row["interval"][1].get<double>() - row["interval"][0].get<double>(), 0.02);
  const auto r = run_cli("robustness --train " + dir + "/robustness_train.csv --signal-variance " +
                         numbers(nlohmann::json::array({b["signal_variance"]})) + " --length-scales " +
                         numbers(b["length_scales"]) + " --point " + numbers(b["point"]) +
                         " --gamma 0.5 --tolerance 0.02 --search adversarial");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& x = j[b["sense"] == "min" ? "minimum" : "maximum"];
  EXPECT_EQ(x["lower"], row["interval"][0]);
  EXPECT_EQ(x["upper"], row["interval"][1]);
  EXPECT_EQ(x["iterations"], row["iterations"]);
  EXPECT_EQ(j["gpfgs"]["probability"], row["gpfgs_probability"]);
  EXPECT_EQ(run_cli("bench-robustness --n 1100").err,
            "gpprobe bench-robustness: --n must be between 2 and 1000 (Synthetic2D has 1,200 points, 200 of them for "
            "testing), got 1100\n");
}

TEST(CliRobustness, EachBadInputIsOneLineNamingTheProblem) {
  const GoldenBoxFiles f(2, 0);
  const std::string base = "robustness --train " + f.train.path() + " --point -1.67,-1.78";
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } cases[] = {
      {"robustness --point 1,2 --gamma 1", 1, "missing --train"},
      {"robustness --train " + f.train.path() + " --gamma 1", 1, "missing --point"},
      {base, 1, "give --gamma G or --sweep G1,G2,..."},
      {base + " --gamma 1 --sweep 1,2", 2, "--gamma and --sweep exclude each other"},
      {base + " --gamma -1", 2, "--gamma must be >= 0, got -1"},
      {base + " --gamma 1,2", 2, "--gamma expects a finite number, got '1,2'"},
      {base + " --sweep 0,x", 2, "--sweep expects numbers separated by commas, got '0,x'"},
      {base + " --sweep 0.5,-0.1", 2, "--sweep values must be >= 0, got -0.10000000000000001"},
      {"robustness --train " + f.train.path() + " --point 1,x --gamma 1", 2,
       "--point expects numbers separated by commas, got '1,x'"},
      {"robustness --train " + f.train.path() + " --point 1 --gamma 1", 2,
       "--point has 1 value; " + f.train.path() + " has 2 feature columns"},
      {base + " --gamma 1 --dims 0,5", 2, "--dims: coordinate 5 is out of range: the point has 2 coordinates (0 to 1)"},
      {base + " --gamma 1 --dims 1,1", 2, "--dims: coordinate 1 is listed twice"},
      {base + " --gamma 1 --valid-range 0", 2, "--valid-range expects two numbers LO,HI, got '0'"},
      {base + " --gamma 1 --valid-range 1,0", 2, "--valid-range: the valid range [1, 0] is empty or not finite"},
      {base + " --gamma 1 --valid-range 0,1", 2,
       "--valid-range: the point's coordinate 0 is -1.6699999999999999, outside the valid range [0, 1]"},
      {base + " --gamma 1 --search all", 2, "--search must be both or adversarial, got 'all'"},
      {base + " --gamma 1 --tolerance -0.1", 2, "--tolerance must be >= 0, got -0.10000000000000001"},
      {base + " --gamma 1 --max-iterations x", 2, "--max-iterations expects a non-negative integer, got 'x'"},
      {base + " --gamma 1 --method ep --likelihood logistic", 2,
       "--likelihood logistic is not available with --method ep (EP's site moments are closed-form for probit "
       "only); use --method laplace"},
      {base + " --gamma 1 --bogus 1", 1, "unknown option --bogus"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(r.err, "gpprobe robustness: " + c.message + "\n") << c.args;
  }
}

// Six classes at a tie (issue 40, item 1): each class's two rows lie on its own ray from the origin, at angles
// 2 pi c / 6 and radii 1 and 2, so at x* = (0, 0) the classes are symmetric. The bound of one box there (six
// classes: quasi-Monte Carlo quadratures for every class, a 3^5-cell latent grid) took minutes, and neither
// --time-limit nor --max-iterations stopped it (296 s for --time-limit 1). The limits now hold inside a box's
// bound: the command returns within seconds with "stop":"time_limit" and intervals that still hold every sampled
// value (`gpprobe gpc` at a grid of points of the box, an independent path).
std::string six_class_tie_csv() {
  std::ostringstream os;
  os.precision(17);
  os << "x0,x1,label\n";
  for (int c = 0; c < 6; ++c) {
    const double angle = 2.0 * 3.14159265358979323846 * c / 6.0;
    for (double radius : {1.0, 2.0})
      os << radius * std::cos(angle) << ',' << radius * std::sin(angle) << ',' << c << '\n';
  }
  return os.str();
}

TEST(CliRobustness, SoftmaxTimeLimitHoldsInsideOneBoxBound) {
  const TempFile train("six_class_tie.csv", six_class_tie_csv());
  const std::string model = " --likelihood softmax --signal-variance 1 --length-scales 1,1";
  // The fit and the prediction at x* as `gpc` runs them: the robustness command does them too (the prediction
  // twice), before its three searches of at most 1 s each. Allowed: a few of those plus the limits, so that a
  // loaded machine does not fail the test (before: 296 s).
  // Work is the commands' CPU time (the children's, once waited for), which a busy machine does not stretch as
  // it stretches the wall clock (issue 35, item 3); each 1 s limit is wall time, in which every thread works.
  const TempFile point_file("six_class_point.csv", "0,0\n");
  const auto children_cpu = [] {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  };
  const double threads = std::max(1u, std::thread::hardware_concurrency());
  double start = children_cpu();
  ASSERT_EQ(run_cli("gpc --train " + train.path() + " --test " + point_file.path() + model).exit_code, 0);
  const double prediction = children_cpu() - start;
  start = children_cpu();
  const auto r = run_cli("robustness --train " + train.path() + model +
                         " --point 0,0 --gamma 0.1 --time-limit 1 --max-iterations 1");
  const double seconds = children_cpu() - start;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(seconds, 4.0 * prediction + 3.0 * 2.0 * threads + 2.0) << "gpc took " << prediction << " s of CPU time";
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& safety = j["safety"];
  EXPECT_EQ(safety["stop"], "time_limit") << r.out;
  EXPECT_NE(safety["status"], "certified") << r.out;  // a tie is never certified
  const std::size_t cls = j["class"];
  const std::vector<double> at_point = j["probability_at_point"];
  ASSERT_EQ(at_point.size(), 6u);
  for (double p : at_point) EXPECT_NEAR(p, 1.0 / 6.0, 1e-3);  // the tie (up to the quadrature's 1e-4 error)

  // Soundness against sampled points: a 3 x 3 grid of the box (corners, edge midpoints, centre), scored by
  // `gpprobe gpc` (quasi-Monte Carlo for C = 6: ~0.5 s a point).
  std::ostringstream grid;
  grid.precision(17);
  for (int a = 0; a <= 2; ++a)
    for (int b = 0; b <= 2; ++b) grid << -0.1 + 0.1 * a << ',' << -0.1 + 0.1 * b << '\n';
  const TempFile points("six_class_grid.csv", grid.str());
  const auto scored = run_cli("gpc --train " + train.path() + " --test " + points.path() + model);
  ASSERT_EQ(scored.exit_code, 0) << scored.err;
  std::string header;
  const auto rows = testing::parse_output(scored.out, &header);
  ASSERT_EQ(rows.size(), 9u);
  const std::size_t predicted = safety["predicted_class"];
  double lowest_margin = 1.0, lowest = 1.0, highest = 0.0;
  for (const auto& row : rows) {
    const std::vector<double> p(row.end() - 6, row.end());
    double other = -1.0;
    for (std::size_t c = 0; c < 6; ++c)
      if (c != predicted) other = std::max(other, p[c]);
    lowest_margin = std::min(lowest_margin, p[predicted] - other);
    lowest = std::min(lowest, p[cls]);
    highest = std::max(highest, p[cls]);
  }
  const double sampling = 1e-3;  // the quadrature's error at each sampled point
  EXPECT_LE(safety["margin_lower"].get<double>(), lowest_margin + sampling);
  EXPECT_LE(safety["margin_lower"].get<double>(), safety["margin_upper"].get<double>());
  EXPECT_LE(j["minimum"]["lower"].get<double>(), lowest + sampling);
  EXPECT_GE(j["maximum"]["upper"].get<double>(), highest - sampling);
  for (const char* side : {"minimum", "maximum"}) {
    EXPECT_LE(j[side]["lower"].get<double>(), j[side]["upper"].get<double>()) << side;
    EXPECT_TRUE(j[side]["status"] == "time_limit" || j[side]["status"] == "converged") << j[side];
  }
}

// Issue 36, item 3: --time-limit is the wall time of the whole request, not of each of its three searches ("Time
// limit 30" took 152 s in the app). Three classes at a near-tie, a tolerance no search reaches: before, the class's
// minimum and maximum each had the limit of their own (2 s each, after the margin's); now the searches share one
// clock, so the one reached after the limit splits no box, says time_limit and keeps a sound interval.
TEST(CliRobustness, SoftmaxTimeLimitIsTheWallTimeOfTheWholeRequest) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "x0,x1,label\n";
  for (int c = 0; c < 3; ++c) {
    const double angle = 2.0 * 3.14159265358979323846 * c / 3.0;
    for (double radius : {1.0, 2.0, 3.0})
      csv << radius * std::cos(angle) << ',' << radius * std::sin(angle) << ',' << c << '\n';
  }
  const TempFile train("three_class_tie.csv", csv.str());
  const std::string model = " --likelihood softmax --signal-variance 1 --length-scales 1,1";
  const auto children_cpu = [] {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  };
  const double threads = std::max(1u, std::thread::hardware_concurrency());
  const TempFile point_file("three_class_point.csv", "0.2,-0.1\n");
  double start = children_cpu();
  ASSERT_EQ(run_cli("gpc --train " + train.path() + " --test " + point_file.path() + model).exit_code, 0);
  const double fit = children_cpu() - start;  // the fit and one prediction, as the command does them
  start = children_cpu();
  const auto r = run_cli("robustness --train " + train.path() + model +
                         " --point 0.2,-0.1 --gamma 1 --tolerance 1e-9 --max-iterations 1000000 --time-limit 2");
  const double cpu = children_cpu() - start;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_LT(cpu, 2.0 * threads + 3.0 * fit + 1.0) << "gpc took " << fit << " s of CPU time";
  EXPECT_LT(j["seconds"].get<double>(), 2.0 + 1.0) << r.out;  // wall time, with a loaded machine's slack
  // The class's minimum runs before its maximum, on one clock: if the minimum stopped on time, the maximum
  // split no box (root bound only). At tolerance 1e-9 the work needs more than 2 s, so one of them stops on
  // time (which one depends on the machine's speed).
  const bool minimum_on_time = j["minimum"]["status"] == "time_limit";
  EXPECT_TRUE(minimum_on_time || j["maximum"]["status"] == "time_limit") << r.out;
  if (minimum_on_time) {
    EXPECT_EQ(j["maximum"]["status"], "time_limit") << r.out;
    EXPECT_EQ(j["maximum"]["iterations"], 0) << "the maximum ran on its own clock: " << r.out;
  }
  EXPECT_LE(j["maximum"]["lower"].get<double>(), j["maximum"]["upper"].get<double>());
  EXPECT_LE(j["minimum"]["lower"].get<double>(), j["minimum"]["upper"].get<double>());
  const auto help = run_cli("robustness --help");
  EXPECT_NE(help.out.find("--time-limit S is the wall time of the whole request"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace gpprobe
