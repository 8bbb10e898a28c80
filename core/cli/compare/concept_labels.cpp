#include "compare/concept_labels.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gpprobe/common/number_text.h"
#include "gpprobe/compare/representation_comparison.h"

#include "readers/delimited_reader.h"
#include "readers/loaded_matrix.h"
#include "readers/npy_reader.h"

namespace gpprobe::cli {

namespace {

// A table of text cells: a delimited file's cells as they are, or a .npy's numbers written out.
struct LabelTable {
  std::vector<std::string> header;  // may be empty
  std::vector<std::string> cells;   // rows by cols
  std::vector<double> numbers;      // rows by cols: each cell as a number, NaN where it is none
  std::size_t rows = 0, cols = 0;
};

bool as_number(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::string trimmed(const std::string& s) {
  const std::size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The cells of one line: `delimiter`-separated, "quoted" cells with "" for a quote (RFC 4180, one line).
std::vector<std::string> split_line(const std::string& line, char delimiter) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        cells.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == delimiter) {
      cells.emplace_back();
    } else {
      cells.back() += ch;
    }
  }
  for (std::string& cell : cells) cell = trimmed(cell);
  return cells;
}

Result<LabelTable> read_text_table(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open the file");
  const std::string ext = lower_extension(path);
  char delimiter = ext == "tsv" ? '\t' : ext == "csv" ? ',' : 0;
  LabelTable t;
  std::size_t line_number = 0;
  bool first = true;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trimmed(line).empty()) continue;
    if (delimiter == 0) {
      delimiter = line.find('\t') != std::string::npos ? '\t' : line.find(',') != std::string::npos ? ',' : ' ';
    }
    std::vector<std::string> cells = split_line(line, delimiter);
    if (first) {
      first = false;
      t.cols = cells.size();
      bool any_number = false;
      double v = 0;
      for (const std::string& cell : cells) any_number = any_number || as_number(cell, &v);
      if (!any_number) {  // a header: no cell is a number
        t.header = cells;
        continue;
      }
    }
    if (cells.size() != t.cols) {
      return Status(StatusCode::parse_error, path + ": line " + std::to_string(line_number) + " has " +
                                                 count_of(cells.size(), "column") + ", the first has " +
                                                 std::to_string(t.cols));
    }
    for (std::string& cell : cells) {
      double v = 0;
      t.numbers.push_back(as_number(cell, &v) ? v : NAN);
      t.cells.push_back(std::move(cell));
    }
    ++t.rows;
  }
  if (first) return Status(StatusCode::parse_error, path + ": file is empty");
  return t;
}

Result<LabelTable> read_table(const std::string& path) {
  if (lower_extension(path) != "npy") return read_text_table(path);
  Result<NpyArray> a = read_npy(path);
  if (!a.ok()) return a.status();
  const NpyArray& array = a.value();
  if (array.shape.empty() || array.shape.size() > 2 || array.fortran_order) {
    return Status(StatusCode::parse_error, path + ": expected a 1-D or 2-D C-ordered array of numbers");
  }
  LabelTable t;
  t.rows = array.shape[0];
  t.cols = array.shape.size() == 2 ? array.shape[1] : 1;
  for (std::size_t k = 0; k < array.size(); ++k) {
    const double v = array.value(k);
    t.numbers.push_back(v);
    t.cells.push_back(std::isnan(v) ? std::string() : number_text(v));
  }
  return t;
}

std::string column_list(const LabelTable& t) {
  if (t.header.empty()) return std::to_string(t.cols) + " unnamed, numbered from 1";
  std::string out;
  for (std::size_t c = 0; c < t.header.size(); ++c) out += (c ? ", " : "") + t.header[c];
  return out;
}

Result<std::size_t> find_column(const LabelTable& t, const std::string& column, const std::string& path) {
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    if (t.header[c] == column) return c;
  }
  if (!column.empty() && column.find_first_not_of("0123456789") == std::string::npos && column.size() < 10) {
    const std::size_t number = std::size_t(std::stoul(column));
    if (number >= 1 && number <= t.cols) return number - 1;
  }
  return Status(StatusCode::invalid_argument, path + ": no column '" + column + "' (columns: " + column_list(t) + ")");
}

Result<ConceptLabels> concept_of(const LabelTable& t, const std::string& spec, const std::string& path) {
  const std::size_t equals = spec.find('=');
  const std::string column = spec.substr(0, equals);
  Result<std::size_t> c = find_column(t, column, path);
  if (!c.ok()) return c.status();
  const bool equality = equals != std::string::npos;
  const std::string value = equality ? spec.substr(equals + 1) : "";
  double value_number = NAN;
  if (!as_number(value, &value_number)) value_number = NAN;
  ConceptLabels concept;
  concept.name = spec;
  concept.labels.resize(t.rows);
  for (std::size_t i = 0; i < t.rows; ++i) {
    const std::string& cell = t.cells[i * t.cols + c.value()];
    const double v = t.numbers[i * t.cols + c.value()];
    if (cell.empty()) {
      concept.labels[i] = kUnlabelled;
    } else if (equality) {
      // equal as text, or as numbers when both are ("1" and "1.0")
      const bool equal = cell == value || (!std::isnan(v) && !std::isnan(value_number) && v == value_number);
      concept.labels[i] = equal ? 1 : 0;
    } else if (v == 0.0 || v == 1.0) {
      concept.labels[i] = std::uint8_t(v);
    } else {
      return Status(StatusCode::invalid_argument,
                    path + ": column '" + column + "' holds '" + cell + "' on data row " + std::to_string(i + 1) +
                        "; a concept column holds 0 or 1 (or write " + column + "=VALUE)");
    }
  }
  return concept;
}

}  // namespace

Result<std::vector<ConceptLabels>> read_concepts(const std::string& path, const std::vector<std::string>& specs) {
  std::vector<ConceptLabels> concepts;
  if (specs.empty()) {
    Result<std::vector<std::uint8_t>> labels = read_labels(path);
    if (!labels.ok()) return labels.status();
    concepts.push_back({path, std::move(labels.value())});
    return concepts;
  }
  Result<LabelTable> table = read_table(path);
  if (!table.ok()) return table.status();
  for (const std::string& spec : specs) {
    Result<ConceptLabels> concept = concept_of(table.value(), spec, path);
    if (!concept.ok()) return concept.status();
    concepts.push_back(std::move(concept.value()));
  }
  return concepts;
}

}  // namespace gpprobe::cli
