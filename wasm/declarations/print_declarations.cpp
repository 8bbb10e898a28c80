// gpprobe_declarations: prints the TypeScript interfaces of the described results (results.h), or with
// --write FILE rewrites them between their markers in FILE (wasm/gpprobe.d.mts). Exit 1 when a root's
// markers are missing.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "results.h"
#include "ts_declarations.h"

int main(int argc, char** argv) {
  using namespace gpprobe::declarations;
  const std::vector<Region> all = regions<Results>();
  if (argc == 1) {
    for (const Region& r : all) std::cout << begin_marker(r.root) << r.text << end_marker(r.root);
    return 0;
  }
  if (argc != 3 || std::string(argv[1]) != "--write") {
    std::cerr << "usage: gpprobe_declarations [--write wasm/gpprobe.d.mts]\n";
    return 2;
  }
  std::ifstream in(argv[2]);
  if (!in) {
    std::cerr << "gpprobe_declarations: cannot read " << argv[2] << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> missing;
  const std::string out = rewritten(text.str(), all, &missing);
  for (const std::string& root : missing)
    std::cerr << "gpprobe_declarations: " << argv[2] << " lacks the markers of " << root << ":\n  "
              << begin_marker(root) << "  " << end_marker(root);
  if (!missing.empty()) return 1;
  std::ofstream(argv[2]) << out;
  return 0;
}
