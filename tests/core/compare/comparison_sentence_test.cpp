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
    p.indistinguishable_from_best = tied[k];
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
            "\u00bd).");
}

TEST(ComparisonSentence, ABestAboveEveryOther) {
  const ConceptComparison c = comparison({0.7, 0.99, 0.8}, {true, true, true}, {false, true, false}, 1);
  EXPECT_EQ(comparison_sentence(c, layer_names(names_of(c))),
            "Layer 1 holds the concept best: held-out AUROC 0.990 (99 % interval 0.980\u20131.000), above every "
            "other embedding at 99 % (DeLong's paired test on the same 1,781 held-out rows).");
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
            "separate the concept (its AUROC interval reaches \u00bd).");
}

TEST(ComparisonSentence, NoneSeparatesOneEmbeddingAndNoBasis) {
  const ConceptComparison none = comparison({0.5, 0.55}, {false, false}, {true, true}, 1);
  EXPECT_EQ(comparison_sentence(none, layer_names(names_of(none))),
            "No embedding separates the concept at 99 %: every AUROC interval reaches \u00bd (the highest, layer 1, "
            "has held-out AUROC 0.550 (99 % interval 0.540\u20130.560)).");
  const ConceptComparison one = comparison({0.8}, {true}, {true}, 0);
  EXPECT_EQ(comparison_sentence(one, layer_names(names_of(one))),
            "Layer 0 separates the concept: held-out AUROC 0.800 (99 % interval 0.790\u20130.810).");
  const ConceptComparison weak = comparison({0.55}, {false}, {true}, 0);
  EXPECT_EQ(comparison_sentence(weak, layer_names(names_of(weak))),
            "Layer 0 does not separate the concept at 99 %: held-out AUROC 0.550 (99 % interval "
            "0.540\u20130.560), an interval that reaches \u00bd.");
  ConceptComparison no_basis = one;
  no_basis.basis = ComparisonBasis::none;
  EXPECT_EQ(comparison_sentence(no_basis, layer_names(names_of(no_basis))),
            "Too few labelled rows to compare the embeddings: the paired tests need at least 2 rows of each class "
            "among the held-out rows or among the observations.");
}

}  // namespace
}  // namespace gpprobe
