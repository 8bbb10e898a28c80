// The layer numbers in a list of embedding names, which order a layer profile. Names like
// "layer_03.npy", "bert.layer.11", "layer_0_pixels.npy" carry a layer number: every name must have the
// same number of digit runs (after a trailing extension such as ".npy" is dropped); the last run position
// at which the text before the run is the same for every name and the numbers are distinct gives the
// layers. The noun is the last word of letters in that shared text ("layer"; "" when there is none).
#pragma once

#include <string>
#include <vector>

namespace gpprobe {

struct LayerNames {
  bool layered = false;
  std::string noun;                // "layer"; may be empty (then names are listed as they are)
  std::vector<long long> numbers;  // one per name when layered, else empty
};

LayerNames layer_names(const std::vector<std::string>& names);

}  // namespace gpprobe
