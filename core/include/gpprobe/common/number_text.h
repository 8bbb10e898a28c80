// How every face writes a double as text: 17 significant digits ("%.17g") unless told otherwise, so a
// float64 survives the round trip through text exactly (CSV cells, JSON, and the numbers quoted in error
// messages).
#pragma once

#include <string>

namespace gpprobe {

// "%.*g" of v with `digits` significant digits: number_text(0.1) = "0.10000000000000001",
// number_text(1e-301) = "1.0000000000000001e-301", number_text(NaN) = "nan", number_text(-inf) = "-inf",
// number_text(2.5e9, 3) = "2.5e+09" (a size quoted in a message).
std::string number_text(double v, int digits = 17);

}  // namespace gpprobe
