// The kernel the multi-class benchmark learns (scripts/bench/bench_multiclass.mjs: digits 3/5/8, the first 500
// rows of web/public/demo/classification/digits358.csv, one shared SE-ARD kernel from S = 1 and every
// length-scale 2, 10 L-BFGS iterations), as `gpprobe gpc --optimize --restarts 0 --max-iterations 10` printed it:
// the large-signal-variance case (S ~ 1590, latent variances of the differences ~ 100-200) the certified bounds
// are tested at. Also the bench's certify question: row 501 of the file, its 5 pixels of shortest length-scale.
#pragma once

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpprobe/classification/common_form.h"
#include "gpprobe/common/matrix_view.h"

namespace gpprobe::testing {

inline SeArdKernel digits_learned_kernel() {
  return {1590.536654237555,
          {2,
           5.751267027747005,
           9.172745446281963,
           24.731171973653968,
           3.7441622364363187,
           63.06462068603314,
           3.7631655975848255,
           2.2745779447734757,
           2.388404855921665,
           60.38062613272614,
           30.828328760074164,
           3.0215755149472514,
           4.0917227343265425,
           52.07973767146232,
           41.115762908640065,
           2.375331588956089,
           2.0986983805200707,
           57.861256142509205,
           3.966723363086313,
           4.213955607187954,
           2.7671422515458115,
           4.787013030538005,
           1.8985086206405404,
           2,
           2,
           22.056285099785963,
           3.7043291160145517,
           6.0572537830131,
           77.7532932471469,
           64.45519259930279,
           10.785372631985606,
           2,
           2,
           6.257090296091234,
           38.82318078689309,
           6.647608843021484,
           18.35683139648621,
           87.51611414463339,
           2.310510278758079,
           2,
           2,
           9.153781221534963,
           4.425645621059655,
           6.062132727367089,
           70.88162210305586,
           55.54575027994154,
           19.0130911933064,
           2,
           2,
           19.48604172192819,
           44.593407058970094,
           76.68426232367413,
           57.81070156939905,
           24.603507757694544,
           3.6528395232452158,
           2.1477801063542397,
           2,
           5.626364806586353,
           4.0583679479757855,
           13.273710721786529,
           50.91512173342032,
           66.66717846142859,
           19.635072603718704,
           2.2529586420486925}};
}

inline const std::vector<std::size_t> kDigitsShortestPixels = {7, 16, 22, 55, 63};

// The kernel scripts/bench/bench_certify_speed.mjs learns on the first 300 rows of digits358.csv (one shared SE-ARD
// kernel from S = 1 and every length-scale 1, `gpprobe gpc --likelihood softmax --optimize --restarts 0` of main),
// and its certify question: row 301, the 5 varying pixels of shortest length-scale (2.28-3.58), gamma 1 on [0, 1].
inline SeArdKernel digits300_learned_kernel() {
  return {1194.546605472705,
          {1,
           100000.00000000001,
           72921.07533205207,
           100000.00000000001,
           2.93447260226272,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           7.190884995011141,
           7.206080176602128,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           3.576321992482905,
           100000.00000000001,
           4.092246821137064,
           3.7104113102892904,
           100000.00000000001,
           1,
           1,
           100000.00000000001,
           5.003639318440167,
           4.456284978107033,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           1,
           1,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           2.2822290496792994,
           1,
           1,
           100000.00000000001,
           3.173296394254905,
           3.952647688792368,
           100000.00000000001,
           10.210144002998021,
           3.706119891183124,
           1,
           1,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           1,
           100000.00000000001,
           2.9301104818582275,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001,
           100000.00000000001}};
}

inline const std::vector<std::size_t> kDigits300ShortestPixels = {4, 18, 38, 42, 58};

// Rows of a CSV with one header line: features then the label (the last column).
struct DigitsRows {
  RowMatrix x;
  std::vector<double> labels;
};

inline DigitsRows read_digits(const std::string& name) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/web/public/demo/classification/" + name);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    std::string item;
    while (std::getline(ss, item, ',')) row.push_back(std::stod(item));
    rows.push_back(row);
  }
  DigitsRows out;
  const std::size_t d = rows.empty() ? 0 : rows[0].size() - 1;
  out.x = RowMatrix(Eigen::Index(rows.size()), Eigen::Index(d));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < d; ++j) out.x(Eigen::Index(i), Eigen::Index(j)) = rows[i][j];
    out.labels.push_back(rows[i][d]);
  }
  return out;
}

}  // namespace gpprobe::testing
