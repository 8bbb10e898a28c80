// Errors as values: every fallible core call returns a Status (or a Result<T>) whose message names
// the input and the problem, e.g. "queries have 767 columns, observations have 768".
//
// The code is stable and crosses every face unchanged: the CLI prints the message, the wasm binding
// turns it into a JS Error subclass whose `code` is code_name(code).
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpprobe {

enum class StatusCode {
  ok = 0,
  invalid_argument,    // a value outside its domain (epsilon <= 0, a label of 2, an empty query set)
  dimension_mismatch,  // shapes that do not fit together (column counts, label counts)
  non_finite,          // NaN or Inf in an input
  numerical_failure,   // a factorisation failed although the inputs were valid
  parse_error,         // a file's content is not what its format promises
  io_error,            // a file could not be opened or read
  out_of_memory,       // the work needs more memory than this process may use
  cancelled,           // the caller asked to stop
  internal_error,      // an exception caught at a boundary (a bug, never a verdict on the input)
};

// "dimension_mismatch", ... : the name a JS Error carries as `.code` (kStatusCodeNames, enum_names.h).
const char* code_name(StatusCode code);

// "1 row", "3 rows", "2 entries" (plural defaults to singular + "s"): counts in messages.
std::string count_of(std::size_t n, const char* singular, const char* plural = nullptr);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status success() { return Status(); }

  bool ok() const { return code_ == StatusCode::ok; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {}

  bool ok() const { return status_.ok() && value_.has_value(); }
  const Status& status() const { return status_; }
  // The value; a failed Result has none: asking for it throws std::logic_error with the status's message (never
  // undefined behaviour: a test that asks a failed Result for its value fails with the reason, not a crash).
  T& value() & { return checked(), *value_; }
  const T& value() const& { return checked(), *value_; }
  T&& value() && { return checked(), std::move(*value_); }

 private:
  void checked() const {
    if (!value_.has_value()) throw std::logic_error("the value of a failed Result was asked for: " + status_.message());
  }
  std::optional<T> value_;
  Status status_;
};

// Return early from the enclosing function when `expr` yields a Status that is not ok.
#define GPPROBE_RETURN_IF_ERROR(expr)   \
  do {                                  \
    ::gpprobe::Status status_ = (expr); \
    if (!status_.ok()) return status_;  \
  } while (false)

}  // namespace gpprobe
