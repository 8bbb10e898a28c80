#include "readers/delimited_reader.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>

namespace gpprobe::cli {

std::string lower_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

namespace {

constexpr char kWhitespace = ' ';  // stands for "runs of whitespace" as a delimiter
// Every character std::isspace accepts in the C locale (what `>>` splits on): a line of only these,
// "\f" or "\v" included, is a blank line.
constexpr const char* kSpaces = " \t\n\v\f\r";

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(kSpaces);
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(kSpaces);
  std::string t = s.substr(begin, end - begin + 1);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return t;
}

std::vector<std::string> split(const std::string& line, char delimiter) {
  std::vector<std::string> cells;
  if (delimiter == kWhitespace) {
    std::istringstream in(line);
    for (std::string cell; in >> cell;) cells.push_back(cell);
    return cells;
  }
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, delimiter)) cells.push_back(trim(cell));
  if (!line.empty() && line.back() == delimiter) cells.push_back("");
  return cells;
}

bool parse_number(const std::string& cell, double* value) {
  if (cell.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

// A cell as it may appear in a message: printable, at most 24 characters.
std::string quoted(const std::string& cell) {
  std::string out;
  for (char c : cell.substr(0, 24)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return "'" + out + (cell.size() > 24 ? "...'" : "'");
}

char detect_delimiter(const std::string& first_line) {
  if (first_line.find('\t') != std::string::npos) return '\t';
  if (first_line.find(',') != std::string::npos) return ',';
  return kWhitespace;
}

}  // namespace

Result<DelimitedTable> parse_delimited(const std::string& text, const std::string& name, char delimiter) {
  DelimitedTable table;
  if (text.find('\0') != std::string::npos) {
    return Status(StatusCode::parse_error, name + ": looks like a binary file, not delimited text");
  }
  std::istringstream in(text);
  std::string line;
  std::size_t line_number = 0, first_data_line = 0;
  bool header_checked = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    if (delimiter == 0) delimiter = detect_delimiter(line);
    const std::vector<std::string> cells = split(line, delimiter);
    std::vector<double> row(cells.size());
    std::size_t numeric = 0;
    for (std::size_t c = 0; c < cells.size(); ++c) numeric += parse_number(cells[c], &row[c]) ? 1 : 0;
    if (!header_checked) {
      header_checked = true;
      if (numeric == 0) {  // a header: no cell is a number
        table.header = cells;
        continue;
      }
    }
    if (table.cols == 0) {
      table.cols = cells.size();
      first_data_line = line_number;
    } else if (cells.size() != table.cols) {
      return Status(StatusCode::parse_error,
                    name + ": line " + std::to_string(line_number) + " has " + std::to_string(cells.size()) +
                        " columns, line " + std::to_string(first_data_line) + " has " + std::to_string(table.cols));
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string where = name + ": line " + std::to_string(line_number) + ", column " + std::to_string(c + 1);
      double value = 0.0;
      if (!parse_number(cells[c], &value)) {
        return Status(StatusCode::parse_error,
                      cells[c].empty() ? where + " is empty" : where + ": " + quoted(cells[c]) + " is not a number");
      }
      if (!std::isfinite(value)) {
        return Status(StatusCode::non_finite, where + " is " +
                                                  (std::isnan(value) ? "NaN"
                                                   : value > 0       ? "+Inf"
                                                                     : "-Inf"));
      }
      table.values.push_back(value);
    }
    ++table.rows;
  }
  if (line_number == 0) return Status(StatusCode::parse_error, name + ": file is empty");
  if (table.rows == 0) return Status(StatusCode::parse_error, name + ": no data rows");
  if (!table.header.empty() && table.header.size() != table.cols) {
    return Status(StatusCode::parse_error, name + ": the header has " + std::to_string(table.header.size()) +
                                               " columns, the data has " + std::to_string(table.cols));
  }
  return table;
}

Result<DelimitedTable> read_delimited(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::io_error, path + ": cannot open file");
  const std::string ext = lower_extension(path);
  const char delimiter = ext == "tsv" ? '\t' : ext == "csv" ? ',' : 0;
  try {
    std::ostringstream text;
    text << in.rdbuf();
    return parse_delimited(text.str(), path, delimiter);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::out_of_memory, path + ": not enough memory to load it");
  }
}

}  // namespace gpprobe::cli
