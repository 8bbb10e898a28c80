// gpprobe gpc --likelihood softmax --train FILE --test FILE [--signal-variance S | S0,...,S(C-1)]
//             [--length-scales L1,...,Ld | --length-scales-per-class "L...;L...;..."]
//             [--optimize [--restarts R] [--seed N] [--max-iterations K]] [--out FILE]
// Multi-class GP classification (softmax likelihood, Laplace; multiclass_laplace.h): train = feature columns
// then one label column of class indices 0..C-1 (C = the largest + 1), test = the feature columns. Writes
// point, latent_mean_0..C-1, latent_cov_c_k for c <= k (row-major upper triangle), probability_0..C-1 (17
// significant digits) and one JSON line on stderr with the model (multiclass_model_flags.h), the number of
// test points and how the class probabilities were integrated (the rules used and the largest error
// estimate; exact tensor rules for C <= 4, quasi-Monte Carlo with its estimated error beyond).
// --max-iterations caps L-BFGS's iterations per run (default 200).
#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>

#include "arguments.h"
#include "classification/gpc_model_flags.h"
#include "classification/multiclass_model_flags.h"
#include "commands.h"
#include "csv_output.h"
#include "readers/file_messages.h"
#include "readers/loaded_matrix.h"
#include "readers/train_test.h"

namespace gpprobe::cli {

namespace {

Status run(const Args& raw, std::ostream& out, std::ostream& err) {
  std::set<std::string> valued = multiclass_model_flags();
  valued.insert({"test", "out", "max-iterations"});
  Result<Arguments> parsed = Arguments::parse(raw, valued, multiclass_model_switches());
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<TrainTestPaths> paths = required_train_test(args);
  if (!paths.ok()) return paths.status();
  const std::string& test_path = paths.value().test;
  Result<MulticlassModelFlags> flags = parse_multiclass_model_flags(args);
  if (!flags.ok()) return flags.status();
  if (args.has("max-iterations")) {
    if (!flags.value().optimize) {
      return Status(StatusCode::invalid_argument, "--max-iterations only applies with --optimize");
    }
    Result<long long> iterations = args.integer("max-iterations", 0);
    if (!iterations.ok()) return iterations.status();
    if (iterations.value() < 1) {
      return Status(StatusCode::invalid_argument,
                    "--max-iterations must be at least 1, got " + args.get("max-iterations", ""));
    }
    flags.value().fit_options.max_iterations = std::size_t(iterations.value());
  }

  Result<LoadedMatrix> train = read_matrix(paths.value().train);
  if (!train.ok()) return train.status();
  Result<LoadedMatrix> test = read_matrix(test_path);
  if (!test.ok()) return test.status();
  if (train.value().cols >= 2) {
    GPPROBE_RETURN_IF_ERROR(check_test_columns(paths.value(), test.value().cols, train.value().cols - 1));
  }
  const std::vector<std::pair<std::string, std::string>> files = {{"test", test_path}};
  Result<MulticlassModel> model = fit_multiclass_model(flags.value(), train.value().view(), files);
  if (!model.ok()) return model.status();
  const MulticlassLaplace& gpc = model.value().model;
  const std::size_t C = gpc.classes();

  Result<MulticlassPrediction> predicted = gpc.predict(test.value().view());
  if (!predicted.ok()) return with_file_names(predicted.status(), files);
  const MulticlassPrediction& p = predicted.value();
  const std::size_t m = p.latent.size();
  double largest_error = 0.0;
  std::size_t unconverged = 0;
  std::set<std::string> rules;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t c = 0; c < C; ++c) {
      if (!std::isfinite(p.probability(Eigen::Index(i), Eigen::Index(c)))) {
        return Status(StatusCode::numerical_failure, test_path + ": the probability of class " + std::to_string(c) +
                                                         " at row " + std::to_string(i) + " is not finite");
      }
    }
    largest_error = std::max(largest_error, p.quadrature[i].error_estimate);
    unconverged += !p.quadrature[i].converged;
    rules.insert(softmax_rule_name(p.quadrature[i].rule));
  }

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "point";
  for (std::size_t c = 0; c < C; ++c) os << ",latent_mean_" << c;
  for (std::size_t c = 0; c < C; ++c)
    for (std::size_t k = c; k < C; ++k) os << ",latent_cov_" << c << '_' << k;
  for (std::size_t c = 0; c < C; ++c) os << ",probability_" << c;
  os << '\n';
  for (std::size_t i = 0; i < m; ++i) {
    os << i;
    for (std::size_t c = 0; c < C; ++c) os << ',' << format_number(p.latent.mean(Eigen::Index(i), Eigen::Index(c)));
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t k = c; k < C; ++k) os << ',' << format_number(p.latent.covariance[(i * C + c) * C + k]);
    for (std::size_t c = 0; c < C; ++c) os << ',' << format_number(p.probability(Eigen::Index(i), Eigen::Index(c)));
    os << '\n';
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  std::string rule_list = "[";
  for (const std::string& r : rules) rule_list += (rule_list.size() > 1 ? ",\"" : "\"") + r + "\"";
  err << "{" << multiclass_model_fields(model.value(), flags.value()) << ",\"test_points\":" << m
      << ",\"probability_rules\":" << rule_list << "]"
      << ",\"probability_error_estimate\":" << format_number(largest_error)
      << ",\"probability_unconverged\":" << unconverged << "}\n";
  return Status::success();
}

}  // namespace

int multiclass_gpc_command(const Args& args, std::ostream& out, std::ostream& err) {
  return exit_code("gpc", run(args, out, err), err);
}

}  // namespace gpprobe::cli
