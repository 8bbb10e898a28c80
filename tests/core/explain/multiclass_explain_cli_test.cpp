// `gpprobe explain --likelihood softmax [--class c]` end to end on the golden model c3-per-class-kernels-3d
// of tests/reference/gpc_multiclass_golden.json (its training data and per-class kernels as flags): the
// CSV's header is feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training; each row equals, to the last
// bit, the certified interval and value the core computes for that class (multiclass_output.h, feature_sensitivity.h)
// and LIME's coefficient; without --class the predicted class is explained and named in the JSON line; a class out of
// range and --class without softmax are refused with the reason.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/lime.h"
#include "gpprobe/explain/multiclass_output.h"

#include "classification/multiclass_fixtures.h"
#include "cli/cli_runner.h"
#include "explain/explain_csv.h"

namespace gpprobe {
namespace {

using testing::CliRun;
using testing::run_cli;
using testing::TempFile;

std::string joined(const std::vector<double>& values, const char* separator = ",") {
  std::ostringstream os;
  os.precision(17);
  for (std::size_t i = 0; i < values.size(); ++i) os << (i ? separator : "") << values[i];
  return os.str();
}

struct Golden {
  nlohmann::json c = testing::multiclass_golden_cases()[1];
  TempFile train{"explain_multiclass_train.csv", train_csv()};
  std::vector<double> point = c["X_test"][1].get<std::vector<double>>();

  std::string train_csv() const {
    std::ostringstream os;
    os.precision(17);
    for (std::size_t i = 0; i < c["X_train"].size(); ++i) {
      for (const auto& v : c["X_train"][i]) os << v.get<double>() << ',';
      os << c["y"][i].get<int>() << '\n';
    }
    return os.str();
  }
  std::string flags() const {
    std::vector<double> s2;
    std::string scales;
    for (const auto& k : c["kernels"]) {
      s2.push_back(k["signal_variance"].get<double>());
      scales += (scales.empty() ? "" : ";") + joined(k["lengthscales"].get<std::vector<double>>());
    }
    return "explain --likelihood softmax --train " + train.path() + " --signal-variance " + joined(s2) +
           " --length-scales-per-class \"" + scales + "\" --point " + joined(point) +
           " --gamma 0.25 --lime-samples 400 --seed 3";
  }
};

TEST(MulticlassExplainCli, RowsAreTheCoresIntervalsForTheClass) {
  const Golden g;
  const MulticlassLaplace model =
      testing::fitted_multiclass(testing::multiclass_data(g.c), testing::multiclass_kernels(g.c), false);
  for (std::size_t c = 0; c < 3; ++c) {
    const CliRun run = run_cli(g.flags() + " --class " + std::to_string(c));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::vector<std::vector<double>> rows = testing::parse_explain_csv(run.out).rows;
    ASSERT_EQ(rows.size(), 3u);
    const MulticlassOutput output = ok_value(MulticlassOutput::make(model, c));
    SensitivityOptions options;
    options.gamma = 0.25;
    const LocalSensitivity local = ok_value(feature_sensitivity(output, g.point, options));
    LimeOptions lime_options;
    lime_options.samples = 400;
    lime_options.seed = 3;
    const RowMatrix X = testing::gpc_matrix(g.c["X_train"]);
    for (Eigen::Index j = 0; j < X.cols(); ++j) lime_options.baseline.push_back(X.col(j).mean());
    const LimeExplanation lime = ok_value(lime_explain(output, g.point, lime_options));
    for (std::size_t a = 0; a < 3; ++a) {
      EXPECT_EQ(rows[a][0], double(a));
      EXPECT_EQ(rows[a][1], local.features[a].delta_lower);
      EXPECT_EQ(rows[a][2], local.features[a].delta);
      EXPECT_EQ(rows[a][3], local.features[a].delta_upper);
      EXPECT_NEAR(rows[a][4], lime.coefficients[a], 1e-12);
    }
    EXPECT_NE(run.err.find("{\"class\":" + std::to_string(c) + ",\"value_at_point\":"), std::string::npos) << run.err;
  }
  // Without --class: the class predicted at the point (the reference's probabilities: class 0, 0.500).
  const CliRun predicted = run_cli(g.flags());
  ASSERT_EQ(predicted.exit_code, 0) << predicted.err;
  EXPECT_NE(predicted.err.find("{\"class\":0,"), std::string::npos) << predicted.err;
}

TEST(MulticlassExplainCli, RefusesAClassOutOfRangeAndClassWithoutSoftmax) {
  const Golden g;
  const CliRun bad = run_cli(g.flags() + " --class 3");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--class is 3; " + g.train.path() + " has 3 classes (0 to 2)"), std::string::npos) << bad.err;
  const CliRun binary = run_cli("explain --train " + g.train.path() + " --point 0,0,0 --gamma 0.1 --class 1");
  EXPECT_NE(binary.exit_code, 0);
  EXPECT_NE(binary.err.find("--class"), std::string::npos) << binary.err;
}

}  // namespace
}  // namespace gpprobe
