// gpprobe paper-robustness --figure 3|4|5|6|7 --data FILE [--train-rows N] [--test-points M]
//     [--valid-range LO,HI] [--out FILE] [figure flags]
// The binary experiments of the robustness paper (Blaas et al., AISTATS 2020, §6 and supp. E) on a
// dataset of web/public/demo/robustness/ (scripts/data/make_robustness_datasets.py): feature columns then a 0/1 label,
// rows already in a seeded random order. The first N rows train (default: all but min(200, 30 %)), the
// next M are the test points (default: the rest, at most 50). Each figure writes CSV (paper_figures.cpp
// lists the columns); Fig. 5 is multi-class (class indices 0..C-1 in the label column: digits358.csv).
#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>

#include "certify/box_flags.h"
#include "commands.h"
#include "csv_output.h"
#include "explain/paper_figures.h"
#include "readers/loaded_matrix.h"

namespace gpprobe::cli {

namespace {

const char* kPaperUsage =
    "usage: gpprobe paper-robustness --figure 3|4|5|6|7 --data FILE [--train-rows N] [--test-points M]\n"
    "           [--valid-range LO,HI] [--out FILE] [figure flags]\n"
    "\n"
    "The robustness paper's binary experiments (Blaas et al. 2020) on FILE (feature columns, then a 0/1\n"
    "label; rows in random order: web/public/demo/robustness/*.csv). The first N rows train (default: all but\n"
    "min(200, 30%)); the next M rows are the test points (default: the rest, at most 50). Hyperparameters\n"
    "as the authors train them: SE-ARD from s2 = 1, l = 1, at most E marginal-likelihood evaluations.\n"
    "\n"
    "  --figure 3  safety over growing gamma on the K pixels with the shortest length-scales, certified\n"
    "              bound of the adversarial extreme vs the GPFGS attack. Flags: --points i,j (test points;\n"
    "              default the first of each label) --pixels K (3) --gammas (0,0.1,...,1) --tolerance (0.02)\n"
    "              --epochs E (10) --method laplace|ep (laplace). CSV point,label,probability,gamma,\n"
    "              pixels,side,bound_lower,bound_upper,gpfgs,verdict_can_flip,iterations,status\n"
    "  --figure 4  delta-robustness pi_max(T) - pi_min(T) over the gamma-box at each test point, per\n"
    "              method and training budget. Flags: --methods (laplace,ep) --epochs (10,40,100)\n"
    "              --gamma G (0.1) --pixels K (0: every feature moves; K: the K shortest length-scales)\n"
    "              --tolerance (0.001) --time-limit S (per test point, its two searches together; none).\n"
    "              CSV method,epochs,point,\n"
    "              probability,delta_lower,delta_upper,status,log_marginal_likelihood,evaluations; stderr:\n"
    "              one JSON line with the medians of the delta intervals' ends per method and budget\n"
    "              (median_delta) and the range they give the Laplace/EP ratio (laplace_over_ep)\n"
    "  --figure 6  global sensitivity: the mean certified Delta_gamma over the test points beside LIME.\n"
    "              Flags: --gammas (0.1,2) --epochs E (40) --method (laplace) --lime-samples N (5000)\n"
    "              --seed S (0) --baseline mean|zero (mean) --tolerance (0.001). CSV feature,gamma,\n"
    "              delta_lower,delta,delta_upper,lime,lime_slope (LIME's mean coefficient, and the mean of\n"
    "              coefficient / (x - baseline): its slope in input units)\n"
    "  --figure 7  branch-and-bound time for pi_max over the gamma-box on the K shortest length-scales:\n"
    "              against K (--dimensions 1,...,10 at --fixed-epsilon 0.025) and against epsilon\n"
    "              (--epsilons 0.005,...,0.025 at --fixed-dimension 5), for --gammas (0.125,0.25).\n"
    "              Flags also --epochs (10) --time-limit S (60, per search) --max-iterations (1000000).\n"
    "              CSV sweep,gamma,dimension,epsilon,point,seconds,iterations,status,lower,upper\n"
    "  --figure 5  local heat maps on a multi-class file (labels 0..C-1; digits358.csv): per chosen test\n"
    "              point, every feature's certified Delta_gamma of the point's own class beside LIME (pixels\n"
    "              switched off to the valid range's bottom), and the whitening check: the K pixels with the\n"
    "              most negative certified Delta set to the range's top, and LIME's K most negative.\n"
    "              Flags: --points i,j,k (default the first test point of each class) --gamma (0.25)\n"
    "              --valid-range (0,1) --patch K (3) --epochs E (10 L-BFGS iterations, tied SE-ARD; 0: s2 = 1,\n"
    "              l = 1) --lime-samples N (5000) --seed S (0) --tolerance (0.002)\n"
    "              --signal-variance-prior P --length-scale-prior P (MAP training, see gpprobe help gpc)\n"
    "              --include-constant (let pixels constant or nearly constant in the training images into\n"
    "              the patch: by default they are left out, since whitening one moves the image away from\n"
    "              (nearly) all the data and every class drifts towards 1/C: distance from the data, not\n"
    "              evidence) --nearly-constant-share S (0.02: a pixel off its most common value in fewer\n"
    "              than max(2, S x n) of the n training images is nearly constant; 0: only constant ones).\n"
    "              CSV point,label,class,probability,feature,row,col,value,delta_lower,delta,\n"
    "              delta_upper,lime,constant_in_training,nearly_constant_in_training (yes/no),\n"
    "              varying_rows (training images off the pixel's most common value); stderr: one JSON\n"
    "              line with the fit (priors, log_prior, length_scales), constant_in_training,\n"
    "              nearly_constant_in_training, and each point's probability\n"
    "              and probabilities (all C), patch, whitened_probability(ies), lime_patch and\n"
    "              lime_whitened_probability(ies); and delta_correlation, the Pearson correlation of\n"
    "              the points' Delta maps pair by pair over the pixels neither constant nor nearly\n"
    "              constant in training (all with\n"
    "              --include-constant; their number: delta_correlation_features): near 1, the maps are\n"
    "              alike whatever the class, so the metric is not class-specific there\n";

Result<PaperData> load_data(const Arguments& args) {
  Result<PaperSplit> split = read_paper_split(args);
  if (!split.ok()) return split.status();
  const RowMatrix& all = split.value().all;
  const std::size_t n = split.value().train, t = split.value().test, d = split.value().features;
  const std::string& path_value = split.value().path;
  const RowMatrix x = all.topLeftCorner(Eigen::Index(n), Eigen::Index(d));
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = all(Eigen::Index(i), Eigen::Index(d));
  Result<ClassifierTrainingData> train = make_gpc_training_data(MatrixView(x), y.data(), n);
  if (!train.ok()) return Status(train.status().code(), path_value + ": " + train.status().message());
  PaperData data;
  data.source = path_value;
  data.train = std::move(train).value();
  data.test = all.block(Eigen::Index(n), 0, Eigen::Index(t), Eigen::Index(d));
  for (std::size_t i = 0; i < t; ++i) data.test_labels.push_back(all(Eigen::Index(n + i), Eigen::Index(d)));
  Result<std::optional<Interval>> range = read_valid_range(args, RangeOrder::ordered);
  if (!range.ok()) return range.status();
  data.valid_range = range.value();
  return data;
}

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  for (const std::string& a : raw) {
    if (a == "--help" || a == "-h") {
      out << kPaperUsage;
      return Status::success();
    }
  }
  std::set<std::string> valued = figure_flags();
  valued.insert({"figure", "data", "train-rows", "test-points", "valid-range", "out"});
  Result<Arguments> parsed = Arguments::parse(raw, valued, {"include-constant"});
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<std::string> figure = args.required("figure");
  if (!figure.ok()) return figure.status();
  const std::string f = figure.value();
  if (f != "3" && f != "4" && f != "5" && f != "6" && f != "7") {
    return Status(StatusCode::invalid_argument, "--figure must be 3, 4, 5, 6 or 7, got '" + f + "'");
  }
  for (const char* flag :
       {"signal-variance-prior", "length-scale-prior", "include-constant", "nearly-constant-share"}) {
    if (f != "5" && args.has(flag))
      return Status(StatusCode::invalid_argument, std::string("--") + flag + " only applies with --figure 5");
  }
  if (f == "5") {
    CsvOutput csv(args.get("out", ""), out);
    GPPROBE_RETURN_IF_ERROR(csv.status());
    std::ostringstream table;
    GPPROBE_RETURN_IF_ERROR(figure_5(args, table, err));
    csv.stream() << table.str();
    return csv.finish();
  }
  Result<PaperData> data = load_data(args);
  if (!data.ok()) return data.status();
  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  // The CSV is written whole once the figure is done: a failure leaves no half table behind.
  std::ostringstream table;
  const Status done = f == "3"   ? figure_3(args, data.value(), table, err)
                      : f == "4" ? figure_4(args, data.value(), table, err)
                      : f == "6" ? figure_6(args, data.value(), table, err)
                                 : figure_7(args, data.value(), table, err);
  GPPROBE_RETURN_IF_ERROR(done);
  csv.stream() << table.str();
  return csv.finish();
}

}  // namespace

int paper_robustness_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("paper-robustness", run(args, out, err), err);
}

}  // namespace gpprobe::cli
