// Names of enum values, from one table per enum: every face (CLI flags and output, wasm values, JSON)
// spells a value the same way, and reading a name back is the same loop with the same message for every
// enum. A table lists each value once with its name, in the enum's order:
//
//   inline constexpr EnumNames<ClassifierMethod, 2> kClassifierMethodNames = {
//       {{ClassifierMethod::laplace, "laplace"}, {ClassifierMethod::ep, "ep"}}};
//   name_of(kClassifierMethodNames, ClassifierMethod::ep)        "ep"
//   parse_name(kClassifierMethodNames, "ep", "method")           ClassifierMethod::ep
//   parse_name(kClassifierMethodNames, "svm", "method")          invalid_argument "method must be laplace or ep,
//                                                                got 'svm'"
//   names_of(kClassifierMethodNames)                             "laplace or ep"
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "gpprobe/common/status.h"

namespace gpprobe {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

// The table's values, in its order.
template <class Enum, std::size_t N>
constexpr std::array<Enum, N> values_of(const EnumNames<Enum, N>& table) {
  std::array<Enum, N> values{};
  for (std::size_t i = 0; i < N; ++i) values[i] = table[i].value;
  return values;
}

// The table's name of `value`; "unknown" for a value outside the table (a cast from a bad integer).
template <class Enum, std::size_t N>
constexpr const char* name_of(const EnumNames<Enum, N>& table, Enum value) {
  for (const EnumName<Enum>& entry : table)
    if (entry.value == value) return entry.name;
  return "unknown";
}

// The accepted names as a reader is told them: "a", "a or b", "a, b or c".
template <class Enum, std::size_t N>
std::string names_of(const EnumNames<Enum, N>& table) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) {
    if (i) text += i + 1 == N ? " or " : ", ";
    text += table[i].name;
  }
  return text;
}

// The value named `name` (exact, case-sensitive); otherwise invalid_argument naming `what`, the accepted
// names and the name given: "<what> must be <names_of(table)>, got '<name>'".
template <class Enum, std::size_t N>
Result<Enum> parse_name(const EnumNames<Enum, N>& table, const std::string& name, const char* what) {
  for (const EnumName<Enum>& entry : table)
    if (name == entry.name) return entry.value;
  return Status(StatusCode::invalid_argument,
                std::string(what) + " must be " + names_of(table) + ", got '" + name + "'");
}

// Every status code, in declaration order: the vocabulary the faces name errors by (code_name; the TS
// engine's ERROR_CODES is tested against it through the wasm module). Here rather than in status.h,
// which this header needs.
inline constexpr EnumNames<StatusCode, 10> kStatusCodeNames = {{{StatusCode::ok, "ok"},
                                                                {StatusCode::invalid_argument, "invalid_argument"},
                                                                {StatusCode::dimension_mismatch, "dimension_mismatch"},
                                                                {StatusCode::non_finite, "non_finite"},
                                                                {StatusCode::numerical_failure, "numerical_failure"},
                                                                {StatusCode::parse_error, "parse_error"},
                                                                {StatusCode::io_error, "io_error"},
                                                                {StatusCode::out_of_memory, "out_of_memory"},
                                                                {StatusCode::cancelled, "cancelled"},
                                                                {StatusCode::internal_error, "internal_error"}}};
inline constexpr std::array<StatusCode, 10> kStatusCodes = values_of(kStatusCodeNames);

}  // namespace gpprobe
