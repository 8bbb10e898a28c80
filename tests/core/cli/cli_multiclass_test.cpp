// `gpprobe gpc --likelihood softmax` and `gpprobe robustness --likelihood softmax` end to end: every case of
// tests/reference/gpc_multiclass_golden.json through CSV files (latent moments 1e-8, probabilities 1e-9, log
// marginal likelihood 1e-9, gradient 1e-7), the exact header and 17 significant digits, hyperparameter
// learning against the reference's log marginal likelihood, certified class bounds and the safety margin
// holding every sampled point of the box with witnesses that `gpc` confirms, and one stderr line per bad input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "classification/multiclass_fixtures.h"
#include "cli_runner.h"

namespace gpprobe {
namespace {

using testing::run_cli;
using testing::TempFile;

std::string numbers(const std::vector<double>& values, const char* separator = ",") {
  std::ostringstream os;
  os.precision(17);
  for (std::size_t i = 0; i < values.size(); ++i) os << (i ? separator : "") << values[i];
  return os.str();
}

// A golden case's training set (features, then the class index) and test inputs as CSV files.
struct MulticlassFiles {
  nlohmann::json c;
  TempFile train, test;
  MulticlassFiles(std::size_t case_index, const std::string& tag)
      : c(testing::multiclass_golden_cases()[case_index]),
        train("multiclass_train_" + tag + ".csv", train_csv(c)),
        test("multiclass_test_" + tag + ".csv", testing::csv_of(testing::gpc_matrix(c["X_test"]))) {}
  static std::string train_csv(const nlohmann::json& c) {
    std::ostringstream os;
    os.precision(17);
    for (std::size_t j = 0; j < c["d"].get<std::size_t>(); ++j) os << 'x' << j << ',';
    os << "label\n" << testing::golden_train_csv(c, "y");
    return os.str();
  }
  // The case's kernels as flags: one S and one L list when shared, else per class.
  std::string model_flags() const {
    std::vector<double> s;
    std::string per_class;
    for (std::size_t k = 0; k < c["kernels"].size(); ++k) {
      s.push_back(c["kernels"][k]["signal_variance"]);
      per_class += (k ? ";" : "") + numbers(c["kernels"][k]["lengthscales"].get<std::vector<double>>());
    }
    if (c["shared_kernel"].get<bool>()) {
      return " --likelihood softmax --signal-variance " + numbers({s[0]}) + " --length-scales " +
             numbers(c["kernels"][0]["lengthscales"].get<std::vector<double>>());
    }
    return " --likelihood softmax --signal-variance " + numbers(s) + " --length-scales-per-class \"" + per_class + "\"";
  }
  std::string gpc(const std::string& test_path) const {
    return "gpc --train " + train.path() + " --test " + test_path + model_flags();
  }
};

std::string expected_header(std::size_t C) {
  std::string h = "point";
  for (std::size_t c = 0; c < C; ++c) h += ",latent_mean_" + std::to_string(c);
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t k = c; k < C; ++k) h += ",latent_cov_" + std::to_string(c) + "_" + std::to_string(k);
  for (std::size_t c = 0; c < C; ++c) h += ",probability_" + std::to_string(c);
  return h;
}

TEST(CliMulticlass, ClassifierReproducesEveryGoldenCaseThroughCsv) {
  const std::size_t cases = testing::multiclass_golden_cases().size();
  ASSERT_EQ(cases, 6u);
  for (std::size_t index = 0; index < cases; ++index) {
    const MulticlassFiles f(index, "golden");
    const nlohmann::json& c = f.c;
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::size_t C = c["C"], d = c["d"];
    const auto r = run_cli(f.gpc(f.test.path()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string header;
    const auto rows = testing::parse_output(r.out, &header);
    EXPECT_EQ(header, expected_header(C));
    ASSERT_EQ(rows.size(), c["X_test"].size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ASSERT_EQ(rows[i].size(), 1 + C + C * (C + 1) / 2 + C);
      EXPECT_EQ(rows[i][0], double(i));
      std::size_t at = 1;
      for (std::size_t k = 0; k < C; ++k)
        EXPECT_TRUE(testing::relatively_near(rows[i][at++], c["latent_mean"][i][k], 1e-8)) << "mean " << i << "," << k;
      for (std::size_t k = 0; k < C; ++k)
        for (std::size_t l = k; l < C; ++l)
          EXPECT_TRUE(testing::relatively_near(rows[i][at++], c["latent_cov"][i][k][l], 1e-8))
              << "cov " << i << "," << k << "," << l;
      for (std::size_t k = 0; k < C; ++k)
        EXPECT_TRUE(testing::relatively_near(rows[i][at++], c["prob"][i][k], 1e-9)) << "prob " << i << "," << k;
    }
    const nlohmann::json s = nlohmann::json::parse(r.err);
    EXPECT_EQ(s["likelihood"], "softmax");
    EXPECT_EQ(s["classes"], C);
    EXPECT_EQ(s["shared_kernel"], c["shared_kernel"]);
    EXPECT_TRUE(testing::relatively_near(s["log_marginal_likelihood"], c["log_marginal_likelihood"], 1e-9));
    ASSERT_EQ(s["log_marginal_likelihood_gradient"].size(), C);
    for (std::size_t k = 0; k < C; ++k) {
      ASSERT_EQ(s["log_marginal_likelihood_gradient"][k].size(), 1 + d);
      for (std::size_t p = 0; p <= d; ++p) {
        EXPECT_TRUE(
            testing::relatively_near(s["log_marginal_likelihood_gradient"][k][p], c["lml_gradient"][k][p], 1e-7))
            << "gradient " << k << "," << p;
      }
      EXPECT_EQ(s["signal_variances"][k], c["kernels"][k]["signal_variance"]);
      ASSERT_EQ(s["length_scales"][k].size(), d);
    }
    EXPECT_EQ(s["iterations"], c["newton_iterations"]);
    EXPECT_EQ(s["converged"], true);
    EXPECT_EQ(s["optimized"], false);
    EXPECT_EQ(s["training_points"], c["n"]);
    EXPECT_EQ(s["test_points"], c["X_test"].size());
    std::vector<double> counts(C, 0.0);
    for (const auto& y : c["y"]) counts[y.get<std::size_t>()] += 1.0;
    EXPECT_EQ(s["class_counts"].get<std::vector<double>>(), counts);
    EXPECT_EQ(s["probability_unconverged"], 0);
  }
}

TEST(CliMulticlass, ClassifierPrintsSeventeenSignificantDigitsAndWritesOut) {
  const MulticlassFiles f(0, "digits");
  const TempFile out("multiclass_out.csv", "");
  const auto r = run_cli(f.gpc(f.test.path()) + " --out " + out.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::ifstream in(out.path());
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  EXPECT_EQ(header, expected_header(3));
  EXPECT_GE(testing::expect_seventeen_digit_fields(line), 6) << line;
}

TEST(CliMulticlass, OptimizeRaisesTheLogMarginalLikelihoodToAStationaryPoint) {
  // Shared (tied) on the blobs and per class on the 3-d case, each started from the reference's kernels.
  for (std::size_t index : {0u, 1u}) {
    const MulticlassFiles f(index, "optimize");
    SCOPED_TRACE(f.c["name"].get<std::string>());
    const auto r = run_cli(f.gpc(f.test.path()) + " --optimize --restarts 1 --seed 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json s = nlohmann::json::parse(r.err);
    EXPECT_EQ(s["optimized"], true);
    EXPECT_EQ(s["tied_hyperparameters"], f.c["shared_kernel"]);
    EXPECT_TRUE(testing::relatively_near(s["start_log_marginal_likelihood"], f.c["log_marginal_likelihood"], 1e-9));
    EXPECT_GT(s["log_marginal_likelihood"].get<double>(), f.c["log_marginal_likelihood"].get<double>() + 1e-3);
    if (s["converged"].get<bool>()) {
      // At an interior optimum the (tied) gradient vanishes.
      const std::size_t C = f.c["C"], d = f.c["d"];
      for (std::size_t p = 0; p <= d; ++p) {
        double tied = 0.0;
        for (std::size_t k = 0; k < C; ++k) {
          const double g = s["log_marginal_likelihood_gradient"][k][p];
          if (f.c["shared_kernel"].get<bool>()) tied += g;
          else {
            EXPECT_LT(std::abs(g), 1e-3) << k << "," << p;
          }
        }
        if (f.c["shared_kernel"].get<bool>()) {
          const double log_s = std::log(s["signal_variances"][0].get<double>());
          const double log_l = p ? std::log(s["length_scales"][0][p - 1].get<double>()) : 0.0;
          // Unless the parameter sits at a bound of [1e-5, 1e5].
          if (std::abs(p ? log_l : log_s) < std::log(1e5) - 1e-3) {
            EXPECT_LT(std::abs(tied), 1e-3) << p;
          }
        }
      }
    }
  }
}

// Class probabilities at the rows of `points` (one per line) as `gpprobe gpc --likelihood softmax` prints them.
std::vector<std::vector<double>> gpc_probabilities(const MulticlassFiles& f, const std::string& points,
                                                   const std::string& tag) {
  const TempFile test("multiclass_points_" + tag + ".csv", points);
  const auto r = run_cli(f.gpc(test.path()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string header;
  const auto rows = testing::parse_output(r.out, &header);
  const std::size_t C = f.c["C"];
  std::vector<std::vector<double>> out;
  for (const auto& row : rows) out.emplace_back(row.end() - std::ptrdiff_t(C), row.end());
  return out;
}

double margin(const std::vector<double>& p, std::size_t predicted) {
  double other = -1.0;
  for (std::size_t c = 0; c < p.size(); ++c)
    if (c != predicted) other = std::max(other, p[c]);
  return p[predicted] - other;
}

struct BoxCase {
  std::size_t case_index, test_row;
  double gamma;
  std::string dims;  // --dims, or "" for all
  int class_index;   // --class, or -1 for the predicted class
};

void expect_sound_certificate(const BoxCase& b, const std::string& tag) {
  const MulticlassFiles f(b.case_index, "robustness_" + tag);
  const nlohmann::json& c = f.c;
  const std::size_t C = c["C"], d = c["d"];
  const std::vector<double> x = c["X_test"][b.test_row].get<std::vector<double>>();
  std::string args = "robustness --train " + f.train.path() + f.model_flags() + " --point " + numbers(x) + " --gamma " +
                     numbers({b.gamma}) + " --tolerance 0.02";
  if (!b.dims.empty()) args += " --dims " + b.dims;
  if (b.class_index >= 0) args += " --class " + std::to_string(b.class_index);
  const auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* field : {"point", "dims", "gamma", "tolerance", "classes", "probability_at_point", "class", "box",
                            "minimum", "maximum", "safety", "seconds", "model"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }
  EXPECT_EQ(j["classes"], C);
  ASSERT_EQ(j["probability_at_point"].size(), C);
  for (std::size_t k = 0; k < C; ++k)
    EXPECT_TRUE(testing::relatively_near(j["probability_at_point"][k], c["prob"][b.test_row][k], 1e-9)) << k;
  const std::vector<double> at_point = c["prob"][b.test_row].get<std::vector<double>>();
  const std::size_t predicted = std::size_t(std::max_element(at_point.begin(), at_point.end()) - at_point.begin());
  const std::size_t cls = b.class_index >= 0 ? std::size_t(b.class_index) : predicted;
  EXPECT_EQ(j["class"], cls);
  EXPECT_EQ(j["safety"]["predicted_class"], predicted);

  // The box: gamma around x on the moving coordinates, x elsewhere.
  const std::vector<double> lower = j["box"]["lower"], upper = j["box"]["upper"];
  std::vector<bool> moving(d, b.dims.empty());
  for (const auto& m : j["dims"]) moving[m.get<std::size_t>()] = true;
  for (std::size_t i = 0; i < d; ++i) {
    EXPECT_DOUBLE_EQ(lower[i], moving[i] ? x[i] - b.gamma : x[i]) << i;
    EXPECT_DOUBLE_EQ(upper[i], moving[i] ? x[i] + b.gamma : x[i]) << i;
  }

  // Witnesses: in the box, and gpc confirms the attained ends to 1e-12.
  const nlohmann::json& mn = j["minimum"];
  const nlohmann::json& mx = j["maximum"];
  const nlohmann::json& safety = j["safety"];
  std::ostringstream witnesses;
  for (const nlohmann::json* w : {&mn["witness"], &mx["witness"], &safety["witness"]}) {
    ASSERT_EQ(w->size(), d);
    for (std::size_t i = 0; i < d; ++i) {
      EXPECT_GE((*w)[i].get<double>(), lower[i]);
      EXPECT_LE((*w)[i].get<double>(), upper[i]);
    }
    witnesses << numbers(w->get<std::vector<double>>()) << '\n';
  }
  const auto confirmed = gpc_probabilities(f, witnesses.str(), tag + "_witness");
  ASSERT_EQ(confirmed.size(), 3u);
  EXPECT_NEAR(confirmed[0][cls], mn["upper"].get<double>(), 1e-12);
  EXPECT_NEAR(confirmed[1][cls], mx["lower"].get<double>(), 1e-12);
  EXPECT_NEAR(margin(confirmed[2], predicted), safety["margin_upper"].get<double>(), 1e-12);
  for (const nlohmann::json* e : {&mn, &mx}) {
    EXPECT_EQ((*e)["status"], "converged");
    EXPECT_LE((*e)["upper"].get<double>() - (*e)["lower"].get<double>(), 0.02);
    EXPECT_LE((*e)["lower"].get<double>(), (*e)["upper"].get<double>());
  }
  EXPECT_LE(mn["upper"].get<double>(), at_point[cls] + 1e-12);
  EXPECT_GE(mx["lower"].get<double>(), at_point[cls] - 1e-12);
  const double margin_lower = safety["margin_lower"], margin_upper = safety["margin_upper"];
  EXPECT_LE(margin_lower, margin_upper);
  EXPECT_LE(margin_upper, margin(at_point, predicted) + 1e-12);
  const std::string status = safety["status"];
  EXPECT_EQ(status, margin_lower > 0.0 ? "certified" : margin_upper < 0.0 ? "refuted" : "unknown");

  // Soundness: every point of a 41 x 41 grid over the moving coordinates (and the corners) lies within the
  // bounds: minimum.lower <= pi^c <= maximum.upper and margin >= margin_lower.
  std::vector<std::size_t> axes;
  for (std::size_t i = 0; i < d; ++i)
    if (moving[i]) axes.push_back(i);
  ASSERT_EQ(axes.size(), 2u);
  std::ostringstream grid;
  const int steps = 40;
  for (int a = 0; a <= steps; ++a) {
    for (int bb = 0; bb <= steps; ++bb) {
      std::vector<double> p = x;
      p[axes[0]] = lower[axes[0]] + (upper[axes[0]] - lower[axes[0]]) * a / steps;
      p[axes[1]] = lower[axes[1]] + (upper[axes[1]] - lower[axes[1]]) * bb / steps;
      grid << numbers(p) << '\n';
    }
  }
  const auto sampled = gpc_probabilities(f, grid.str(), tag + "_grid");
  ASSERT_EQ(sampled.size(), std::size_t((steps + 1) * (steps + 1)));
  double smallest = 1.0, largest = 0.0, smallest_margin = 1.0;
  for (const auto& p : sampled) {
    smallest = std::min(smallest, p[cls]);
    largest = std::max(largest, p[cls]);
    smallest_margin = std::min(smallest_margin, margin(p, predicted));
  }
  EXPECT_LE(mn["lower"].get<double>(), smallest);
  EXPECT_GE(mx["upper"].get<double>(), largest);
  EXPECT_LE(margin_lower, smallest_margin);
  // Converged to 0.02: the sampled extremes are near the certified ones.
  EXPECT_LE(smallest - mn["lower"].get<double>(), 0.02 + 1e-9);
  EXPECT_LE(mx["upper"].get<double>() - largest, 0.02 + 1e-9);
}

TEST(CliMulticlass, RobustnessBoundsHoldEverySampledPointOfTheBox) {
  expect_sound_certificate({0, 0, 0.3, "", -1}, "blobs");         // 2-D blobs, the predicted class
  expect_sound_certificate({2, 1, 0.25, "", 3}, "quadrants");     // 4 classes, an explicit class
  expect_sound_certificate({1, 2, 0.2, "0,2", -1}, "per_class");  // per-class kernels, 2 of 3 coordinates move
}

TEST(CliMulticlass, EachBadInputIsOneLineNamingTheProblem) {
  const MulticlassFiles f(0, "errors");
  const TempFile fractional("multiclass_fractional.csv", "0,0,0\n1,1,1.5\n2,2,2\n");
  const TempFile one_class("multiclass_one_class.csv", "0,0,0\n1,1,0\n");
  const TempFile negative("multiclass_negative.csv", "0,0,0\n1,1,-1\n");
  const TempFile missing_class("multiclass_missing.csv", "0,0,0\n1,1,2\n2,2,0\n3,3,2\n");
  const std::string train = " --train " + f.train.path() + " --test " + f.test.path();
  struct Case {
    std::string args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"gpc --likelihood softmax --train " + fractional.path() + " --test " + f.test.path(), 1,
       fractional.path() + ": label 1 (row 1, column 2) is 1.5; --likelihood softmax expects class indices 0, 1, ..., "
                           "C - 1 in the last column"},
      {"gpc --likelihood softmax --train " + negative.path() + " --test " + f.test.path(), 1,
       negative.path() + ": label 1 (row 1, column 2) is -1; --likelihood softmax expects class indices 0, 1, ..., "
                         "C - 1 in the last column"},
      {"gpc --likelihood softmax --train " + one_class.path() + " --test " + f.test.path(), 1,
       one_class.path() + ": every label is 0, so there is 1 class; --likelihood softmax needs at least 2 (labels 0 to "
                          "C - 1, C = the largest label + 1)"},
      {"gpc --likelihood softmax" + train + " --signal-variance 1,2", 2,
       "--signal-variance has 2 values; " + f.train.path() + " has 3 classes (labels 0 to 2): give 1 or 3"},
      {"gpc --likelihood softmax" + train + " --length-scales-per-class \"1,1;1,1\"", 2,
       "--length-scales-per-class has 2 lists; " + f.train.path() +
           " has 3 classes (labels 0 to 2): give 3, "
           "separated by ';'"},
      {"gpc --likelihood softmax" + train + " --length-scales-per-class \"1,1;1,1,1;1\"", 2,
       "--length-scales-per-class has 3 values for class 1; " + f.train.path() + " has 2 feature columns: give 1 or 2"},
      {"gpc --likelihood softmax" + train + " --length-scales-per-class \"1,1;x;1\"", 2,
       "--length-scales-per-class expects one list of numbers per class, the lists separated by ';' and the numbers "
       "by ',', got '1,1;x;1'"},
      {"gpc --likelihood softmax" + train + " --length-scales 1 --length-scales-per-class \"1;1;1\"", 2,
       "--length-scales and --length-scales-per-class exclude each other"},
      {"gpc --likelihood softmax" + train + " --signal-variance 1,0,1", 2,
       "--signal-variance values must be > 0, got 1,0,1"},
      {"gpc --likelihood softmax" + train + " --method ep", 2,
       "--method ep is not available with --likelihood softmax (multi-class classification uses the Laplace "
       "approximation); use --method laplace"},
      {"gpc --likelihood softmax" + train + " --seed 3", 2, "--seed only applies with --optimize"},
      {"robustness --likelihood softmax --train " + f.train.path() + " --point 0,0 --gamma 0.1 --class 3", 2,
       "--class is 3; " + f.train.path() + " has 3 classes (0 to 2)"},
      {"robustness --likelihood softmax --train " + f.train.path() + " --point 0,0 --sweep 0.1,0.2", 2,
       "--sweep is not available with --likelihood softmax (give --gamma G; both extremes of the class and the "
       "safety margin are certified)"},
      {"robustness --likelihood softmax --train " + f.train.path() + " --point 0,0", 1, "missing --gamma"},
      {"robustness --likelihood softmax --train " + f.train.path() + " --point 0,0,0 --gamma 0.1", 2,
       "--point has 3 values; " + f.train.path() + " has 2 feature columns"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_EQ(r.err, "gpprobe " + c.args.substr(0, c.args.find(' ')) + ": " + c.message + "\n") << c.args;
  }

  // A class below the largest label without an example is allowed: its latent GP keeps its prior mean 0 while
  // the others' rise at their examples, so it is never the most probable class at the training points.
  const auto r =
      run_cli("gpc --likelihood softmax --train " + missing_class.path() + " --test " + missing_class.path());
  EXPECT_EQ(r.exit_code, 1) << "the test file has the label column too";
  const TempFile test("multiclass_missing_test.csv", "0,0\n3,3\n");
  const auto ok = run_cli("gpc --likelihood softmax --train " + missing_class.path() + " --test " + test.path());
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const nlohmann::json s = nlohmann::json::parse(ok.err);
  EXPECT_EQ(s["classes"], 3);
  EXPECT_EQ(s["class_counts"].get<std::vector<double>>(), (std::vector<double>{2, 0, 2}));
  std::string header;
  const auto rows = testing::parse_output(ok.out, &header);
  ASSERT_EQ(rows.size(), 2u);
  // Columns: point, 3 means, 6 covariances, then probability_0..2 at 10..12.
  EXPECT_LT(rows[0][11], rows[0][10]);  // probability_1 < probability_0 at a class-0 example
  EXPECT_LT(rows[1][11], rows[1][12]);  // probability_1 < probability_2 at a class-2 example
}

}  // namespace
}  // namespace gpprobe
