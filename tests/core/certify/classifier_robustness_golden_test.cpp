// Certified robustness on every box of tests/reference/gpc_golden.json (robustness[], robustness_sweep):
//   soundness      the root bounds of mean, variance and probability contain the reference's brute-force
//                  extrema (and our model's values at the reference's arg-extrema), with no tolerance
//   tightness      the reference's relaxation alone gives the reference's root bounds to 1e-9 relative;
//                  the bounds we report (that relaxation and the centred form) are at least as tight
//   branch & bound converged, U - L <= epsilon, the interval holds the empirical extremum and overlaps
//                  the reference run's, the witness lies in the box and pi(witness) is the reported end
//   sweep          the paper's Fig. 2 rows: root bounds, the adversarial side's interval and GPFGS
#include <iostream>

#include <gtest/gtest.h>

#include "gpprobe/certify/box_bounds.h"
#include "gpprobe/certify/classifier_robustness.h"

#include "classifier_robustness_fixtures.h"

namespace gpprobe {
namespace {

using testing::relatively_near;

struct GoldenBox {
  std::string label;
  nlohmann::json c, box;
};

std::vector<GoldenBox> golden_boxes() {
  std::vector<GoldenBox> boxes;
  for (const auto& c : testing::gpc_golden_cases())
    for (const auto& b : c["robustness"])
      boxes.push_back({c["name"].get<std::string>() + " " + b["model"].get<std::string>() + " gamma " +
                           std::to_string(b["gamma"].get<double>()),
                       c, b});
  return boxes;
}

RobustnessRegion region_of(const nlohmann::json& b) {
  return RobustnessRegion::linf_ball(b["x_star"].get<std::vector<double>>(), b["gamma"].get<double>(),
                                     b["dims"].get<std::vector<std::size_t>>())
      .value();
}

struct RootBounds {
  LatentBoxBounds latent;
  Interval probability;
};

RootBounds root_bounds(const ClassifierCommonForm& form, const RobustnessRegion& region,
                       VarianceMethod variance = VarianceMethod::both) {
  const ClassifierBoxBounds bounds(form, region);
  RootBounds r{bounds.latent(region.box(), variance), {}};
  r.probability = bounds.probability(r.latent);
  return r;
}

// Our model's mean, variance and probability at a point of R^d.
struct Values {
  double mean, variance, probability;
};
Values values_at(const ClassifierCommonForm& form, const nlohmann::json& point) {
  const std::vector<double> x = point.get<std::vector<double>>();
  const ClassifierCommonForm::Latent f = form.latent(x.data());
  return {f.mean, f.variance, form.probability(x.data())};
}

TEST(ClassifierRobustnessGolden, EveryBoxIsTheReferencesBox) {
  const std::vector<GoldenBox> boxes = golden_boxes();
  ASSERT_EQ(boxes.size(), 11u);
  for (const GoldenBox& g : boxes) {
    const RobustnessRegion region = region_of(g.box);
    const std::vector<double> lower = g.box["lower"], upper = g.box["upper"];
    for (std::size_t j = 0; j < lower.size(); ++j) {
      EXPECT_DOUBLE_EQ(region.lower()[j], lower[j]) << g.label;
      EXPECT_DOUBLE_EQ(region.upper()[j], upper[j]) << g.label;
    }
  }
}

// One end of a bound against the reference's: equal (the same relaxation) or at least as tight, to 1e-9
// relative.
struct Ends {
  const char* name;
  double value;
  bool lower;
};
std::vector<Ends> ends_of(const RootBounds& r) {
  return {{"mean_lower", r.latent.mean.lower, true},    {"mean_upper", r.latent.mean.upper, false},
          {"var_lower", r.latent.variance.lower, true}, {"var_upper", r.latent.variance.upper, false},
          {"prob_lower", r.probability.lower, true},    {"prob_upper", r.probability.upper, false}};
}

TEST(ClassifierRobustnessGolden, TheReferencesRelaxationGivesItsRootBounds) {
  testing::ErrorLog errors;
  for (const GoldenBox& g : golden_boxes()) {
    const ClassifierCommonForm form = testing::reference_form(g.c, g.box["model"]);
    const RootBounds r = root_bounds(form, region_of(g.box), VarianceMethod::relaxation);
    for (const Ends& end : ends_of(r)) {
      EXPECT_TRUE(relatively_near(end.value, g.box["root_bounds"][end.name], 1e-9)) << g.label << " " << end.name;
      errors.add(end.name, end.value, g.box["root_bounds"][end.name]);
    }
  }
}

TEST(ClassifierRobustnessGolden, RootBoundsAreSoundAndAtLeastAsTightAsTheReferences) {
  double tighter_variance = 0.0, reference_variance = 0.0;
  for (const GoldenBox& g : golden_boxes()) {
    const std::string model = g.box["model"];
    const ClassifierCommonForm form = testing::reference_form(g.c, model);
    const RobustnessRegion region = region_of(g.box);
    const RootBounds r = root_bounds(form, region);
    const nlohmann::json& e = g.box["empirical"];
    const std::pair<const char*, Interval> quantities[] = {
        {"latent_mean", r.latent.mean}, {"latent_variance", r.latent.variance}, {"prob", r.probability}};
    for (const auto& [name, bound] : quantities) {
      EXPECT_LE(bound.lower, e[name]["min"].get<double>()) << g.label << " " << name;
      EXPECT_GE(bound.upper, e[name]["max"].get<double>()) << g.label << " " << name;
    }
    // Our evaluation of the same model at the reference's arg-extrema.
    for (const char* which : {"argmin", "argmax"}) {
      const Values v = values_at(form, e["prob"][which]);
      EXPECT_TRUE(r.latent.mean.contains(v.mean) && r.latent.variance.contains(v.variance) &&
                  r.probability.contains(v.probability))
          << g.label << " at the " << which << " of the probability";
    }
    const nlohmann::json& ref = g.box["root_bounds"];
    for (const Ends& end : ends_of(r)) {
      const double reference = ref[end.name], slack = 1e-9 * std::max(1.0, std::abs(reference));
      if (end.lower) EXPECT_GE(end.value, reference - slack) << g.label << " " << end.name;
      else EXPECT_LE(end.value, reference + slack) << g.label << " " << end.name;
    }
    tighter_variance += r.latent.variance.width();
    reference_variance += ref["var_upper"].get<double>() - ref["var_lower"].get<double>();
  }
  std::cout << "  root variance bounds, summed widths over the boxes: " << tighter_variance << " (reference "
            << reference_variance << ")\n";
}

// The same boxes on our own fit of each model: sound against that model's values at the reference's
// arg-extrema of mean, variance and probability.
TEST(ClassifierRobustnessGolden, RootBoundsOfOurFitHoldAtTheReferencesExtrema) {
  for (const GoldenBox& g : golden_boxes()) {
    const ClassifierCommonForm form = testing::fitted_form(g.c, g.box["model"]);
    const RobustnessRegion region = region_of(g.box);
    const RootBounds r = root_bounds(form, region);
    for (const char* quantity : {"latent_mean", "latent_variance", "prob"}) {
      for (const char* which : {"argmin", "argmax"}) {
        const Values v = values_at(form, g.box["empirical"][quantity][which]);
        EXPECT_TRUE(r.latent.mean.contains(v.mean)) << g.label << " mean at " << quantity << " " << which;
        EXPECT_TRUE(r.latent.variance.contains(v.variance)) << g.label << " variance at " << quantity << " " << which;
        EXPECT_TRUE(r.probability.contains(v.probability)) << g.label << " probability at " << quantity << " " << which;
      }
    }
  }
}

void expect_witness(const ClassifierCommonForm& form, const ProbabilityExtreme& x, double attained,
                    const std::vector<double>& lower, const std::vector<double>& upper, const std::string& label) {
  ASSERT_EQ(x.witness.size(), lower.size()) << label;
  for (std::size_t j = 0; j < lower.size(); ++j) {
    EXPECT_GE(x.witness[j], lower[j]) << label;
    EXPECT_LE(x.witness[j], upper[j]) << label;
  }
  EXPECT_NEAR(form.probability(x.witness.data()), attained, 1e-12) << label;
}

TEST(ClassifierRobustnessGolden, BranchAndBoundConvergesAroundTheEmpiricalExtrema) {
  for (const GoldenBox& g : golden_boxes()) {
    const ClassifierCommonForm form = testing::reference_form(g.c, g.box["model"]);
    const nlohmann::json& ref = g.box["reference_bnb"];
    RobustnessOptions options;
    options.gamma = g.box["gamma"];
    options.dims = g.box["dims"].get<std::vector<std::size_t>>();
    options.tolerance = ref["epsilon"];
    const Result<RobustnessCertificate> r =
        certify_robustness(form, g.box["x_star"].get<std::vector<double>>(), options);
    ASSERT_TRUE(r.ok()) << g.label << ": " << r.status().message();
    const RobustnessCertificate& cert = r.value();
    EXPECT_TRUE(relatively_near(cert.probability_at_point, g.box["prob_at_x_star"], 1e-12)) << g.label;
    const double empirical_min = g.box["empirical"]["prob"]["min"], empirical_max = g.box["empirical"]["prob"]["max"];
    const std::vector<double> ref_min = ref["prob_min_interval"], ref_max = ref["prob_max_interval"];
    for (const ProbabilityExtreme* x : {&cert.minimum, &cert.maximum}) {
      const bool minimum = x == &cert.minimum;
      const std::string label = g.label + (minimum ? " minimum" : " maximum");
      EXPECT_EQ(x->status, SearchStatus::converged) << label;
      EXPECT_LE(x->upper - x->lower, options.tolerance) << label;
      const double empirical = minimum ? empirical_min : empirical_max;
      EXPECT_LE(x->lower, empirical + (minimum ? 0.0 : 1e-9)) << label;
      EXPECT_GE(x->upper, empirical - (minimum ? 1e-9 : 0.0)) << label;
      const std::vector<double>& reference = minimum ? ref_min : ref_max;
      EXPECT_LE(x->lower, reference[1]) << label << ": disjoint from the reference's interval";
      EXPECT_GE(x->upper, reference[0]) << label << ": disjoint from the reference's interval";
      expect_witness(form, *x, minimum ? x->upper : x->lower, cert.lower, cert.upper, label);
    }
    // The root bounds of the certificate are the single-box bounds, at least as tight as the reference's.
    EXPECT_GE(cert.probability.lower, g.box["root_bounds"]["prob_lower"].get<double>() - 1e-9) << g.label;
    EXPECT_LE(cert.probability.upper, g.box["root_bounds"]["prob_upper"].get<double>() + 1e-9) << g.label;
  }
}

TEST(ClassifierRobustnessGolden, SweepReproducesTheReferenceRows) {
  std::size_t rows_checked = 0;
  for (const auto& c : testing::gpc_golden_cases()) {
    if (!c.contains("robustness_sweep")) continue;
    const nlohmann::json& s = c["robustness_sweep"];
    const ClassifierCommonForm form = testing::reference_form(c, s["model"]);
    std::vector<double> gammas;
    for (const auto& row : s["rows"]) gammas.push_back(row["gamma"]);
    RobustnessOptions options;
    options.dims = s["dims"].get<std::vector<std::size_t>>();
    options.tolerance = 0.01;
    options.search = RobustnessSearch::adversarial;
    const Result<std::vector<RobustnessCertificate>> sweep =
        robustness_sweep(form, s["x_star"].get<std::vector<double>>(), gammas, options);
    ASSERT_TRUE(sweep.ok()) << sweep.status().message();
    ASSERT_EQ(sweep.value().size(), gammas.size());
    ASSERT_EQ(s["bnb_sense"], "max");
    for (std::size_t g = 0; g < gammas.size(); ++g) {
      const nlohmann::json& row = s["rows"][g];
      const RobustnessCertificate& cert = sweep.value()[g];
      const std::string label = "gamma " + std::to_string(gammas[g]);
      EXPECT_GE(cert.probability.lower, row["root_prob_lower"].get<double>() - 1e-9) << label;
      EXPECT_LE(cert.probability.upper, row["root_prob_upper"].get<double>() + 1e-9) << label;
      const ProbabilityExtreme& x = cert.maximum;
      EXPECT_EQ(x.status, SearchStatus::converged) << label;
      EXPECT_LE(x.upper - x.lower, 0.01) << label;
      EXPECT_LE(x.lower, row["prob_max"].get<double>() + 1e-9) << label;
      EXPECT_GE(x.upper, row["prob_max"].get<double>()) << label;
      EXPECT_LE(x.lower, row["bnb_interval"][1].get<double>()) << label;
      EXPECT_GE(x.upper, row["bnb_interval"][0].get<double>()) << label;
      expect_witness(form, x, x.lower, cert.lower, cert.upper, label);
      // The non-adversarial side stops at the root: still a valid interval around the empirical minimum.
      EXPECT_EQ(cert.minimum.iterations, 0u) << label;
      EXPECT_LE(cert.minimum.lower, row["prob_min"].get<double>()) << label;
      EXPECT_GE(cert.minimum.upper, row["prob_min"].get<double>()) << label;
      EXPECT_TRUE(relatively_near(cert.gpfgs.probability, row["gpfgs_prob"], 1e-9)) << label;
      ++rows_checked;
    }
    // Where GPFGS fails (gamma = 1.4: 0.475), branch and bound finds an adversarial example (0.82).
    EXPECT_EQ(sweep.value().back().verdict_can_flip, VerdictFlip::yes);
    EXPECT_LT(sweep.value().back().gpfgs.probability, 0.5);
    EXPECT_EQ(sweep.value().front().verdict_can_flip, VerdictFlip::no);
  }
  EXPECT_EQ(rows_checked, 4u);
}

}  // namespace
}  // namespace gpprobe
