// Constants shared by the core's sources (one definition, so that sources compiled together in a unity
// batch do not each define their own).
#pragma once

#include <limits>

namespace gpprobe {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kInverseSqrtTwoPi = 0.39894228040143267794;  // 1 / sqrt(2 pi)
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline constexpr double kUnitRoundoff = 0x1.0p-53;  // 2^-53, double's unit roundoff

}  // namespace gpprobe
