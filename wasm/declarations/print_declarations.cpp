// gpprobe_declarations: prints the TypeScript interfaces and the Python TypedDicts of the described results
// (results.h), or with --write FILE... rewrites them between their markers in each FILE (wasm/gpprobe.d.mts:
// the interfaces; python/gpprobe/_gpprobe.pyi: the TypedDicts). Exit 1 when a root's markers are missing.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "py_declarations.h"
#include "results.h"
#include "ts_declarations.h"

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpprobe::declarations;
  const std::vector<Region> ts = regions<Results>();
  const std::vector<Region> python = py::regions<PyResults>();
  if (argc == 1) {
    for (const std::vector<Region>* all : {&ts, &python})
      for (const Region& r : *all)
        std::cout << begin_marker(r.root, r.comment) << r.text << end_marker(r.root, r.comment);
    return 0;
  }
  if (argc < 3 || std::string(argv[1]) != "--write") {
    std::cerr << "usage: gpprobe_declarations [--write wasm/gpprobe.d.mts python/gpprobe/_gpprobe.pyi]\n";
    return 2;
  }
  int code = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string path = argv[i];
    if (!ends_with(path, ".d.mts") && !ends_with(path, ".pyi")) {
      std::cerr << "gpprobe_declarations: " << path << " is neither a .d.mts nor a .pyi\n";
      return 2;
    }
    const std::vector<Region>& all = ends_with(path, ".pyi") ? python : ts;
    std::ifstream in(path);
    if (!in) {
      std::cerr << "gpprobe_declarations: cannot read " << path << "\n";
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> missing;
    const std::string out = rewritten(text.str(), all, &missing);
    for (const std::string& root : missing) {
      const std::string comment = all.front().comment;
      std::cerr << "gpprobe_declarations: " << path << " lacks the markers of " << root << ":\n  "
                << begin_marker(root, comment) << "  " << end_marker(root, comment);
    }
    if (!missing.empty()) {
      code = 1;
      continue;
    }
    std::ofstream(path) << out;
  }
  return code;
}
