// What a comparison of representations supports, in one plain sentence. With layer names
// (layer_names.h) it speaks of "layers 7–9" (runs of neighbours in layer order); other names are listed
// as they are.
//
// The sentence (ConceptComparison, representation_comparison.h), for instance
//   "Layers 7–9 are indistinguishable at 99 % (DeLong's paired test on the same 1,781 held-out rows),
//    layer 8 highest with held-out AUROC 0.981 (99 % interval 0.975–0.988); layers 4–6 separate it less
//    well (lower at 99 %); layers 0–3 do not separate the concept (their AUROC interval reaches ½)."
// or, when the best is above every other at 99 %, "Layer 8 holds the concept best: ...; above every other
// embedding at 99 % ...". An embedding whose interval lies below 1/2 "ranks it inverted (its AUROC interval
// lies below 1/2: the labels are inverted, or the concept is anti-aligned there)", never "reaches 1/2". No
// separating embedding, a single embedding, and too few labelled rows for a paired test each have their own
// sentence. The sentence ends with what it is conditional on: one set of N observations ("other
// observations may rank the embeddings differently"), or, over draws (ConceptComparison::draws,
// draw_comparison.h), the labelled rows drawn from or the given observations resampled; then the numbers
// are the means over draws and the test is the t-test across draws, Holm-corrected.
#pragma once

#include <string>
#include <vector>

#include "gpprobe/compare/layer_names.h"
#include "gpprobe/compare/representation_comparison.h"

namespace gpprobe {

std::string comparison_sentence(const ConceptComparison& comparison, const LayerNames& layers);

}  // namespace gpprobe
