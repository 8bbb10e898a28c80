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

namespace {

// What a sentence needs of each representation, from one set of observations or over draws.
struct Standing {
  double auroc = 0.0, lower = 0.0, upper = 0.0;
  bool tied = false, separates = false, below = false;
};

const std::string kHalf = "\u00bd";
const std::string kInverted = "the labels are inverted, or the concept is anti-aligned there";

std::string verdict_sentence(const std::vector<Standing>& s, std::size_t best, const std::vector<std::string>& names,
                             const LayerNames& layers, const std::string& best_numbers, const std::string& test) {
  const std::size_t K = s.size();
  std::vector<bool> is_best(K, false), tied(K, false), lower(K, false), chance(K, false), below(K, false);
  is_best[best] = true;
  std::size_t ties = 0, lowers = 0, chances = 0, belows = 0, separating = 0;
  for (std::size_t k = 0; k < K; ++k) {
    tied[k] = s[k].tied;
    below[k] = s[k].below;
    chance[k] = !s[k].separates && !s[k].below;
    lower[k] = !tied[k] && s[k].separates;
    ties += tied[k];
    lowers += lower[k];
    chances += chance[k];
    belows += below[k];
    separating += s[k].separates;
  }
  const std::string best_name = group_text(is_best, names, layers);
  if (K == 1) {
    if (s[0].separates) return sentence_start(best_name, layers) + " separates the concept: " + best_numbers + ".";
    if (s[0].below) {
      return sentence_start(best_name, layers) + " ranks the concept inverted at 99 %: " + best_numbers +
             ", an interval below " + kHalf + " (" + kInverted + ").";
    }
    return sentence_start(best_name, layers) + " does not separate the concept at 99 %: " + best_numbers +
           ", an interval that reaches " + kHalf + ".";
  }
  // "; layers 0–3 do not separate the concept (their AUROC interval reaches ½); layer 4 ranks it inverted
  // (its AUROC interval lies below ½: ...)"
  std::string tail;
  if (chances > 0) {
    tail += "; " + group_text(chance, names, layers) + (chances > 1 ? " do not" : " does not") +
            " separate the concept (" + (chances > 1 ? "their" : "its") + " AUROC interval reaches " + kHalf + ")";
  }
  if (belows > 0) {
    tail += "; " + group_text(below, names, layers) + (belows > 1 ? " rank" : " ranks") + " it inverted (" +
            (belows > 1 ? "their" : "its") + " AUROC interval lies below " + kHalf + ": " + kInverted + ")";
  }
  if (separating == 0) {
    std::string sentence =
        "No embedding separates the concept at 99 % (the highest, " + best_name + ", has " + best_numbers + ")";
    if (belows == 0) {
      return "No embedding separates the concept at 99 %: every AUROC interval reaches " + kHalf + " (the highest, " +
             best_name + ", has " + best_numbers + ").";
    }
    return sentence + tail + ".";
  }
  std::string sentence;
  if (ties > 1) {
    sentence = sentence_start(group_text(tied, names, layers), layers) + " are indistinguishable at 99 % (" + test +
               "), " + best_name + " highest with " + best_numbers;
  } else {
    sentence = sentence_start(best_name, layers) + " holds the concept best: " + best_numbers +
               ", above every other embedding at 99 % (" + test + ")";
  }
  if (ties > 1 && lowers > 0) {
    sentence += "; " + group_text(lower, names, layers) + (lowers > 1 ? " separate" : " separates") +
                " it less well (lower at 99 %)";
  }
  return sentence + tail + ".";
}

std::string count_text(std::size_t n, const std::string& noun) {
  return thousands(n) + " " + noun + (n == 1 ? "" : "s");
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
  const std::size_t observations = c.probes.front().observations;
  const DrawnComparison& d = c.draws;
  if (d.mode == DrawMode::none || d.probes.size() != K) {
    const std::string measure = heldout ? "held-out AUROC" : "leave-one-out AUROC";
    const std::string rows =
        heldout ? thousands(c.basis_rows) + " held-out rows" : thousands(c.basis_rows) + " observations";
    const RepresentationProbe& best = c.probes[c.best];
    const std::string best_numbers = measure + " " + decimals(best.basis_auroc) + " (99 % interval " +
                                     decimals(best.basis_auroc_lower) + "\u2013" + decimals(best.basis_auroc_upper) +
                                     ")";
    std::vector<Standing> s;
    for (const RepresentationProbe& p : c.probes) {
      s.push_back({p.basis_auroc, p.basis_auroc_lower, p.basis_auroc_upper, p.indistinguishable_from_best, p.separates,
                   p.below_half});
    }
    return verdict_sentence(s, c.best, names, layers, best_numbers, "DeLong's paired test on the same " + rows) +
           " This is one set of " + (observations ? count_text(observations, "observation") : "observations") +
           ": other observations may rank the embeddings differently.";
  }
  const std::string measure = heldout ? "held-out AUROC" : "leave-one-out AUROC";
  const DrawnProbe& best = d.probes[d.best];
  const std::string draws = count_text(d.draws, "draw");
  const std::string best_numbers = "mean " + measure + " " + decimals(best.mean) + " over " + draws +
                                   " (99 % interval " + decimals(best.lower) + "\u2013" + decimals(best.upper) + "; " +
                                   decimals(best.minimum) + " to " + decimals(best.maximum) + " from draw to draw)";
  std::vector<Standing> s;
  for (const DrawnProbe& p : d.probes)
    s.push_back({p.mean, p.lower, p.upper, p.indistinguishable_from_best, p.separates, p.below_half});
  const std::string test = "a t-test across the " + draws + " of the paired AUROC differences, Holm-corrected for " +
                           count_text(d.comparisons, "comparison");
  std::string condition;
  if (d.mode == DrawMode::redraw) {
    condition = " Conditional on these " + count_text(d.labelled_rows, "labelled row") + ": each draw takes " +
                count_text(observations, "observation") + " from them and is measured on " +
                (heldout ? "the " + thousands(d.basis_rows) + " it did not take."
                         : "its observations' leave-one-out probabilities.");
  } else {
    condition = " Conditional on the " + count_text(d.labelled_rows, "given observation") +
                ", resampled with replacement in each draw, and on the other labelled rows each draw is measured on.";
  }
  return verdict_sentence(s, d.best, names, layers, best_numbers, test) + condition;
}

}  // namespace gpprobe
