// Every enum's name table (common/enum_names.h) against the names the faces are documented to use
// (CLI flags and output, the JSON lines, the wasm values): each table lists every enumerator once, in
// declaration order, under the expected name; every name reads back to its value; and a name outside
// the table is refused with a message listing the accepted names.
#include "gpprobe/common/enum_names.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/baselines/baselines.h"
#include "gpprobe/certify/box_bounds.h"
#include "gpprobe/certify/branch_and_bound.h"
#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/probe_certificate.h"
#include "gpprobe/certify/query_neighbourhood.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/likelihood.h"
#include "gpprobe/common/status.h"
#include "gpprobe/evaluation/experiment.h"
#include "gpprobe/probe/leave_one_out.h"
#include "gpprobe/probe/probe.h"
#include "gpprobe/regression/anomaly_detection.h"

namespace gpprobe {
namespace {

// The table holds the enumerators 0..N-1 in order under `names`, each name parses back to its value,
// and a name it does not hold gives "<what> must be <accepted>, got '<name>'".
template <class Enum, std::size_t N>
void expect_table(const EnumNames<Enum, N>& table, const std::vector<std::string>& names, const char* what,
                  const std::string& accepted) {
  ASSERT_EQ(N, names.size()) << what;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < N; ++i) {
    EXPECT_EQ(int(table[i].value), int(i)) << what << ": entry " << i << " out of declaration order";
    EXPECT_EQ(std::string(table[i].name), names[i]) << what;
    EXPECT_TRUE(seen.insert(table[i].name).second) << what << ": '" << table[i].name << "' twice";
    EXPECT_EQ(std::string(name_of(table, Enum(i))), names[i]) << what;
    Result<Enum> back = parse_name(table, names[i], what);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(int(back.value()), int(i)) << what << ": '" << names[i] << "'";
  }
  EXPECT_EQ(names_of(table), accepted) << what;
  EXPECT_STREQ(name_of(table, Enum(N)), "unknown") << what;
  for (const std::string& bad : {std::string(""), std::string("nonsense"), names[0] + " ", "X" + names[0]}) {
    Result<Enum> r = parse_name(table, bad, what);
    ASSERT_FALSE(r.ok()) << what << ": '" << bad << "'";
    EXPECT_EQ(r.status().code(), StatusCode::invalid_argument);
    EXPECT_EQ(r.status().message(), std::string(what) + " must be " + accepted + ", got '" + bad + "'");
  }
}

TEST(EnumNames, EveryTableRoundTrips) {
  expect_table(kBaselineMethodNames, {"lp", "svm", "lpe", "msp", "maha", "knn"}, "method",
               "lp, svm, lpe, msp, maha or knn");
  expect_table(kVarianceMethodNames, {"both", "centred", "relaxation"}, "variance", "both, centred or relaxation");
  expect_table(kExtremumNames, {"minimum", "maximum"}, "extremum", "minimum or maximum");
  expect_table(kSearchStatusNames, {"converged", "iteration_limit", "time_limit", "min_box", "cancelled"}, "status",
               "converged, iteration_limit, time_limit, min_box or cancelled");
  expect_table(kRobustnessSearchNames, {"both", "adversarial"}, "search", "both or adversarial");
  expect_table(kVerdictFlipNames, {"no", "yes", "unknown"}, "verdict", "no, yes or unknown");
  expect_table(kQueryNormNames, {"inf", "2"}, "norm", "inf or 2");
  expect_table(kClassifierMethodNames, {"laplace", "ep"}, "method", "laplace or ep");
  expect_table(kClassifierLikelihoodNames, {"probit", "logistic"}, "likelihood", "probit or logistic");
  expect_table(kExperimentKindNames, {"probing", "fuzzy", "ood"}, "experiment", "probing, fuzzy or ood");
  expect_table(kLooVerdictNames, {"too_few", "chance", "separates"}, "verdict", "too_few, chance or separates");
  expect_table(kPosteriorSpaceNames, {"automatic", "function", "weight"}, "space", "automatic, function or weight");
  expect_table(kPointStatusNames, {"normal", "anomaly", "unknown"}, "status", "normal, anomaly or unknown");
  expect_table(kStatusCodeNames,
               {"ok", "invalid_argument", "dimension_mismatch", "non_finite", "numerical_failure", "parse_error",
                "io_error", "out_of_memory", "cancelled", "internal_error"},
               "code",
               "ok, invalid_argument, dimension_mismatch, non_finite, numerical_failure, parse_error, io_error, "
               "out_of_memory, cancelled or internal_error");
}

// The named functions the faces call are the tables' (the messages the CLI and wasm tests pin).
TEST(EnumNames, NamedParsersKeepTheirMessages) {
  EXPECT_EQ(parse_baseline("LP").status().message(), "method must be lp, svm, lpe, msp, maha or knn, got 'LP'");
  EXPECT_EQ(parse_search("all").status().message(), "search must be both or adversarial, got 'all'");
  EXPECT_EQ(parse_variance_method("quick").status().message(),
            "variance must be both, centred or relaxation, got 'quick'");
  EXPECT_EQ(parse_norm("1").status().message(), "norm must be inf or 2, got '1'");
  EXPECT_EQ(parse_method("vb").status().message(), "method must be laplace or ep, got 'vb'");
  EXPECT_EQ(parse_likelihood("logit").status().message(), "likelihood must be probit or logistic, got 'logit'");
  EXPECT_EQ(parse_experiment("anomaly").status().message(), "experiment must be probing, fuzzy or ood, got 'anomaly'");
  EXPECT_EQ(parse_space("auto").status().message(), "space must be automatic, function or weight, got 'auto'");
  EXPECT_STREQ(code_name(StatusCode::dimension_mismatch), "dimension_mismatch");
  EXPECT_STREQ(status_name(PointStatus::anomaly), "anomaly");
  EXPECT_STREQ(verdict_flip_name(VerdictFlip::unknown), "unknown");
  EXPECT_STREQ(search_status_name(SearchStatus::min_box), "min_box");
  EXPECT_STREQ(verdict_name(LooVerdict::too_few), "too_few");
  EXPECT_STREQ(norm_name(QueryNorm::two), "2");
  EXPECT_STREQ(extremum_name(Extremum::maximum), "maximum");
  EXPECT_EQ(kStatusCodes.size(), 10u);
  EXPECT_EQ(kStatusCodes.back(), StatusCode::internal_error);
}

TEST(EnumNames, AcceptedNamesReadAsAList) {
  constexpr EnumNames<Extremum, 1> one = {{{Extremum::minimum, "minimum"}}};
  EXPECT_EQ(names_of(one), "minimum");
  EXPECT_EQ(parse_name(one, "maximum", "extremum").status().message(), "extremum must be minimum, got 'maximum'");
  static_assert(name_of(kClassifierMethodNames, ClassifierMethod::ep)[0] == 'e', "name_of is usable at compile time");
}

}  // namespace
}  // namespace gpprobe
