// Layer numbers read from names, and the sentence for each situation a comparison can be in, on
// comparisons written by hand (the numbers are chosen, not computed).
#include "gpprobe/compare/comparison_sentence.h"

#include <cmath>

#include <gtest/gtest.h>

namespace gpprobe {
namespace {

TEST(LayerNames, ReadTheNumberThatVaries) {
  const LayerNames files = layer_names({"layer_00.npy", "layer_01.npy", "layer_11.npy"});
  EXPECT_TRUE(files.layered);
  EXPECT_EQ(files.noun, "layer");
  EXPECT_EQ(files.numbers, (std::vector<long long>{0, 1, 11}));
  // The last run that varies; what follows it may differ.
  const LayerNames model = layer_names({"model2_layer_3", "model2_layer_10", "model2_layer_7"});
  EXPECT_EQ(model.numbers, (std::vector<long long>{3, 10, 7}));
  EXPECT_EQ(model.noun, "layer");
  const LayerNames described = layer_names({"layer_0_pixels.npy", "layer_1_hidden.npy", "layer_3_logits.npy"});
  EXPECT_TRUE(described.layered);
  EXPECT_EQ(described.numbers, (std::vector<long long>{0, 1, 3}));
  const LayerNames dotted = layer_names({"bert.h.2", "bert.h.5"});
  EXPECT_EQ(dotted.noun, "h");
  // Not layers: different prefixes, repeated numbers, different counts of numbers.
  EXPECT_FALSE(layer_names({"pixels.npy", "hidden.npy"}).layered);
  EXPECT_FALSE(layer_names({"a1.npy", "b2.npy"}).layered);
  EXPECT_FALSE(layer_names({"layer_1.npy", "layer_1.npy"}).layered);
  EXPECT_FALSE(layer_names({"layer_1.npy", "layer_1_2.npy"}).layered);
}

// Every sentence of one set of observations says so.
constexpr const char* kOneSet =
    " This is one set of 16 observations: other observations may rank the embeddings differently.";

// K probes named layer_0 ... with the given AUROC, interval and verdicts on the held-out basis.
ConceptComparison comparison(const std::vector<double>& auroc, const std::vector<bool>& separates,
                             const std::vector<bool>& tied, std::size_t best) {
  ConceptComparison c;
  c.basis = ComparisonBasis::heldout;
  c.basis_rows = 1781;
  c.best = best;
  for (std::size_t k = 0; k < auroc.size(); ++k) {
    RepresentationProbe p;
    p.name = "layer_" + std::to_string(k) + ".npy";
    p.basis_auroc = auroc[k];
    p.basis_auroc_lower = auroc[k] - 0.01;
    p.basis_auroc_upper = auroc[k] + 0.01;
    p.separates = separates[k];
    p.below_half = p.basis_auroc_upper < 0.5;
    p.indistinguishable_from_best = tied[k];
    p.observations = 16;
    c.probes.push_back(p);
  }
  return c;
}

std::vector<std::string> names_of(const ConceptComparison& c) {
  std::vector<std::string> names;
  for (const auto& p : c.probes) names.push_back(p.name);
  return names;
}

TEST(ComparisonSentence, SaysWhichLayersTieAndWhichDoNotSeparate) {
  const ConceptComparison c = comparison({0.5, 0.52, 0.49, 0.51, 0.8, 0.9, 0.95, 0.97, 0.981, 0.975},
                                         {false, false, false, false, true, true, true, true, true, true},
                                         {false, false, false, false, false, false, false, true, true, true}, 8);
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layers 7\u20139 are indistinguishable at 99 % (DeLong's paired test on the same 1,781 held-out rows), "
            "layer 8 highest with held-out AUROC 0.981 (99 % interval 0.971\u20130.991); layers 4\u20136 separate it "
            "less well (lower at 99 %); layers 0\u20133 do not separate the concept (their AUROC interval reaches "
            "\u00bd)." +
                std::string(kOneSet));
}

TEST(ComparisonSentence, ABestAboveEveryOther) {
  const ConceptComparison c = comparison({0.7, 0.99, 0.8}, {true, true, true}, {false, true, false}, 1);
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layer 1 holds the concept best: held-out AUROC 0.990 (99 % interval 0.980\u20131.000), above every "
            "other embedding at 99 % (DeLong's paired test on the same 1,781 held-out rows)." +
                std::string(kOneSet));
}

TEST(ComparisonSentence, NamesThatAreNotLayersAreListed) {
  ConceptComparison c = comparison({0.5, 0.9, 0.91}, {false, true, true}, {false, true, true}, 2);
  c.probes[0].name = "pixels";
  c.probes[1].name = "hidden";
  c.probes[2].name = "logits";
  c.basis = ComparisonBasis::leave_one_out;
  c.basis_rows = 16;
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "hidden and logits are indistinguishable at 99 % (DeLong's paired test on the same 16 observations), "
            "logits highest with leave-one-out AUROC 0.910 (99 % interval 0.900\u20130.920); pixels does not "
            "separate the concept (its AUROC interval reaches \u00bd)." +
                std::string(kOneSet));
}

TEST(ComparisonSentence, NoneSeparatesOneEmbeddingAndNoBasis) {
  const ConceptComparison none = comparison({0.5, 0.55}, {false, false}, {true, true}, 1);
  EXPECT_EQ(comparison_sentence(none, layer_names(names_of(none))),
            "No embedding separates the concept at 99 %: every AUROC interval reaches \u00bd (the highest, layer 1, "
            "has held-out AUROC 0.550 (99 % interval 0.540\u20130.560))." +
                std::string(kOneSet));
  const ConceptComparison one = comparison({0.8}, {true}, {true}, 0);
  EXPECT_EQ(
      comparison_sentence(one, layer_names(names_of(one))),
      "Layer 0 separates the concept: held-out AUROC 0.800 (99 % interval 0.790\u20130.810)." + std::string(kOneSet));
  const ConceptComparison weak = comparison({0.55}, {false}, {true}, 0);
  EXPECT_EQ(comparison_sentence(weak, layer_names(names_of(weak))),
            "Layer 0 does not separate the concept at 99 %: held-out AUROC 0.550 (99 % interval "
            "0.540\u20130.560), an interval that reaches \u00bd." +
                std::string(kOneSet));
  ConceptComparison no_basis = one;
  no_basis.basis = ComparisonBasis::none;
  EXPECT_EQ(comparison_sentence(no_basis, layer_names(names_of(no_basis))),
            "Too few labelled rows to compare the embeddings: the paired tests need at least 2 rows of each class "
            "among the held-out rows or among the observations.");
}

TEST(ComparisonSentence, AllAboveHalfAndIndistinguishable) {
  const ConceptComparison c = comparison({0.9, 0.91, 0.92}, {true, true, true}, {true, true, true}, 2);
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layers 0\u20132 are indistinguishable at 99 % (DeLong's paired test on the same 1,781 held-out rows), "
            "layer 2 highest with held-out AUROC 0.920 (99 % interval 0.910\u20130.930)." +
                std::string(kOneSet));
}

// Issue 40.3: an interval below 1/2 does not "reach 1/2"; it says the probe ranks the concept inverted.
TEST(ComparisonSentence, AnIntervalBelowHalfIsAnInvertedRankingNotChance) {
  ConceptComparison one = comparison({0.273}, {false}, {true}, 0);
  one.probes[0].basis_auroc_lower = 0.051;
  one.probes[0].basis_auroc_upper = 0.496;
  one.probes[0].below_half = true;
  EXPECT_EQ(comparison_sentence(one, layer_names(names_of(one))),
            "Layer 0 ranks the concept inverted at 99 %: held-out AUROC 0.273 (99 % interval 0.051\u20130.496), an "
            "interval below \u00bd (the labels are inverted, or the concept is anti-aligned there)." +
                std::string(kOneSet));
  const ConceptComparison three = comparison({0.9, 0.55, 0.2}, {true, false, false}, {true, false, false}, 0);
  EXPECT_EQ(comparison_sentence(three, layer_names(names_of(three))),
            "Layer 0 holds the concept best: held-out AUROC 0.900 (99 % interval 0.890\u20130.910), above every "
            "other embedding at 99 % (DeLong's paired test on the same 1,781 held-out rows); layer 1 does not "
            "separate the concept (its AUROC interval reaches \u00bd); layer 2 ranks it inverted (its AUROC "
            "interval lies below \u00bd: the labels are inverted, or the concept is anti-aligned there)." +
                std::string(kOneSet));
}

TEST(ComparisonSentence, TwoBelowHalfAreNotEveryIntervalReachingHalf) {
  const ConceptComparison two = comparison({0.27, 0.3}, {false, false}, {false, true}, 1);
  EXPECT_EQ(comparison_sentence(two, layer_names(names_of(two))),
            "No embedding separates the concept at 99 % (the highest, layer 1, has held-out AUROC 0.300 (99 % "
            "interval 0.290\u20130.310)); layers 0\u20131 rank it inverted (their AUROC interval lies below \u00bd: "
            "the labels are inverted, or the concept is anti-aligned there)." +
                std::string(kOneSet));
  const ConceptComparison mixed = comparison({0.27, 0.52, 0.3}, {false, false, false}, {false, true, false}, 1);
  EXPECT_EQ(comparison_sentence(mixed, layer_names(names_of(mixed))),
            "No embedding separates the concept at 99 % (the highest, layer 1, has held-out AUROC 0.520 (99 % "
            "interval 0.510\u20130.530)); layer 1 does not separate the concept (its AUROC interval reaches "
            "\u00bd); layers 0 and 2 rank it inverted (their AUROC interval lies below \u00bd: the labels are "
            "inverted, or the concept is anti-aligned there)." +
                std::string(kOneSet));
}

// Over draws: the numbers of the draws, the test across them, and what the evidence is conditional on.
TEST(ComparisonSentence, OverDrawsSaysWhatItIsConditionalOn) {
  ConceptComparison c = comparison({0.7, 0.99, 0.8}, {true, true, true}, {false, true, false}, 1);
  c.basis_rows = 1765;
  c.draws.mode = DrawMode::redraw;
  c.draws.draws = 20;
  c.draws.labelled_rows = 1797;
  c.draws.basis_rows = 1765;
  c.draws.comparisons = 2;
  c.draws.best = 2;
  const double mean[3] = {0.6, 0.86, 0.87};
  for (std::size_t k = 0; k < 3; ++k) {
    DrawnProbe p;
    p.mean = mean[k];
    p.lower = mean[k] - 0.04;
    p.upper = mean[k] + 0.04;
    p.minimum = mean[k] - 0.1;
    p.maximum = mean[k] + 0.05;
    p.separates = true;
    p.indistinguishable_from_best = k > 0;
    c.draws.probes.push_back(p);
  }
  c.probes[0].observations = 32;
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layers 1\u20132 are indistinguishable at 99 % (a t-test across the 20 draws of the paired AUROC "
            "differences, Holm-corrected for 2 comparisons), layer 2 highest with mean held-out AUROC 0.870 over 20 "
            "draws (99 % interval 0.830\u20130.910; 0.770 to 0.920 from draw to draw); layer 0 separates it less "
            "well (lower at 99 %). Conditional on these 1,797 labelled rows: each draw takes 32 observations from "
            "them and is measured on the 1,765 it did not take.");
  c.draws.mode = DrawMode::bootstrap;
  c.draws.labelled_rows = 32;
  c.draws.probes[1].indistinguishable_from_best = false;
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layer 2 holds the concept best: mean held-out AUROC 0.870 over 20 draws (99 % interval "
            "0.830\u20130.910; 0.770 to 0.920 from draw to draw), above every other embedding at 99 % (a t-test "
            "across the 20 draws of the paired AUROC differences, Holm-corrected for 2 comparisons). Conditional on "
            "the 32 given observations, resampled with replacement in each draw, and on the other labelled rows each "
            "draw is measured on.");
}

}  // namespace
}  // namespace gpprobe
