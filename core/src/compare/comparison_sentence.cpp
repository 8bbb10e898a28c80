#include "gpprobe/compare/comparison_sentence.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>

namespace gpprobe {

namespace {

std::string decimals(double v, int digits = 3) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

// 1781 -> "1,781".
std::string thousands(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

// Positions 0..K-1 in profile order: by layer number when layered, else as given.
std::vector<std::size_t> profile_order(std::size_t K, const LayerNames& layers) {
  std::vector<std::size_t> order(K);
  std::iota(order.begin(), order.end(), 0);
  if (layers.layered) {
    std::stable_sort(order.begin(), order.end(),
                     [&layers](std::size_t a, std::size_t b) { return layers.numbers[a] < layers.numbers[b]; });
  }
  return order;
}

// "layers 0–3 and 5", "layer 8", or "a.npy, b.npy and c.npy".
std::string group_text(const std::vector<bool>& member, const std::vector<std::string>& names,
                       const LayerNames& layers) {
  const std::size_t K = member.size();
  const std::vector<std::size_t> order = profile_order(K, layers);
  std::vector<std::string> parts;
  std::size_t count = 0;
  if (layers.layered && !layers.noun.empty()) {
    for (std::size_t p = 0; p < K;) {
      if (!member[order[p]]) {
        ++p;
        continue;
      }
      std::size_t q = p;
      while (q + 1 < K && member[order[q + 1]]) ++q;
      const std::string first = std::to_string(layers.numbers[order[p]]);
      parts.push_back(q == p ? first : first + "\u2013" + std::to_string(layers.numbers[order[q]]));
      count += q - p + 1;
      p = q + 1;
    }
    return layers.noun + (count > 1 ? "s " : " ") + joined(parts);
  }
  for (std::size_t p = 0; p < K; ++p) {
    if (member[order[p]]) parts.push_back(names[order[p]]);
  }
  return joined(parts);
}

// Capitalised when it starts with the layer noun; names are kept as they are written.
std::string sentence_start(std::string s, const LayerNames& layers) {
  if (layers.layered && !layers.noun.empty() && !s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

std::string comparison_sentence(const ConceptComparison& c, const LayerNames& layers) {
  const std::size_t K = c.probes.size();
  if (c.basis == ComparisonBasis::none) {
    return "Too few labelled rows to compare the embeddings: the paired tests need at least 2 rows of each "
           "class among the held-out rows or among the observations.";
  }
  std::vector<std::string> names;
  for (const RepresentationProbe& p : c.probes) names.push_back(p.name);
  const bool heldout = c.basis == ComparisonBasis::heldout;
  const std::string measure = heldout ? "held-out AUROC" : "leave-one-out AUROC";
  const std::string rows =
      heldout ? thousands(c.basis_rows) + " held-out rows" : thousands(c.basis_rows) + " observations";
  const RepresentationProbe& best = c.probes[c.best];
  const std::string best_numbers = measure + " " + decimals(best.basis_auroc) + " (99 % interval " +
                                   decimals(best.basis_auroc_lower) + "\u2013" + decimals(best.basis_auroc_upper) + ")";
  std::vector<bool> is_best(K, false), tied(K, false), lower(K, false), chance(K, false);
  is_best[c.best] = true;
  std::size_t ties = 0, lowers = 0, chances = 0, separating = 0;
  for (std::size_t k = 0; k < K; ++k) {
    tied[k] = c.probes[k].indistinguishable_from_best;
    chance[k] = !c.probes[k].separates;
    lower[k] = !tied[k] && !chance[k];
    ties += tied[k];
    lowers += lower[k];
    chances += chance[k];
    separating += c.probes[k].separates;
  }
  const std::string best_name = group_text(is_best, names, layers);
  if (K == 1) {
    return sentence_start(best_name, layers) +
           (best.separates ? " separates the concept: " : " does not separate the concept at 99 %: ") + best_numbers +
           (best.separates ? "." : ", an interval that reaches \u00bd.");
  }
  if (separating == 0) {
    return "No embedding separates the concept at 99 %: every AUROC interval reaches \u00bd (the highest, " +
           best_name + ", has " + best_numbers + ").";
  }
  std::string sentence;
  if (ties > 1) {
    sentence = sentence_start(group_text(tied, names, layers), layers) +
               " are indistinguishable at 99 % (DeLong's paired test on the same " + rows + "), " + best_name +
               " highest with " + best_numbers;
  } else {
    sentence = sentence_start(best_name, layers) + " holds the concept best: " + best_numbers +
               ", above every other embedding at 99 % (DeLong's paired test on the same " + rows + ")";
  }
  if (ties > 1 && lowers > 0) {
    sentence += "; " + group_text(lower, names, layers) + (lowers > 1 ? " separate" : " separates") +
                " it less well (lower at 99 %)";
  }
  if (chances > 0) {
    sentence += "; " + group_text(chance, names, layers) + (chances > 1 ? " do not" : " does not") +
                " separate the concept (" + (chances > 1 ? "their" : "its") + " AUROC interval reaches \u00bd)";
  }
  return sentence + ".";
}

}  // namespace gpprobe
