// gpprobe gpc --train FILE --test FILE [--method laplace|ep] [--likelihood probit|logistic]
//             [--signal-variance S] [--length-scales L1,L2,...]
//             [--optimize [--restarts R] [--seed N] [--shared-length-scale]] [--out FILE]
// Binary GP classification with the SE-ARD kernel: train = feature columns then one label column (0/1 or
// -1/+1), test = the feature columns. Writes point,latent_mean,latent_variance,probability (17 significant
// digits) and one JSON line on stderr with the method, likelihood, hyperparameters, log marginal
// likelihood and its gradient in [log S, log L1, ..., log Ld], iterations and convergence.
// --likelihood softmax: multi-class classification (multiclass_gpc_command.cpp).
// --shared-length-scale learns one length-scale for every column (an isotropic RBF) instead of one each.
#include <ostream>

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
  std::set<std::string> valued = gpc_model_flags();
  valued.insert({"test", "out"});
  Result<Arguments> parsed = Arguments::parse(raw, valued, gpc_model_switches());
  if (!parsed.ok()) return parsed.status();
  const Arguments& args = parsed.value();
  Result<TrainTestPaths> paths = required_train_test(args);
  if (!paths.ok()) return paths.status();
  const std::string& test_path = paths.value().test;
  Result<ClassifierModelFlags> flags = parse_gpc_model_flags(args);
  if (!flags.ok()) return flags.status();

  Result<LoadedMatrix> train = read_matrix(paths.value().train);
  if (!train.ok()) return train.status();
  Result<LoadedMatrix> test = read_matrix(test_path);
  if (!test.ok()) return test.status();
  Result<std::size_t> d = feature_columns(flags.value(), train.value().view());
  if (!d.ok()) return d.status();
  GPPROBE_RETURN_IF_ERROR(check_test_columns(paths.value(), test.value().cols, d.value()));
  const std::vector<std::pair<std::string, std::string>> files = {{"test", test_path}};
  Result<ClassifierModel> model = fit_gpc_model(flags.value(), train.value().view(), files);
  if (!model.ok()) return model.status();
  const GpClassifier& gpc = model.value().gpc;

  const std::size_t m = test.value().rows;
  std::vector<double> mean(m), variance(m), probability(m);
  PredictionReport report;
  const Status predicted =
      gpc.predict(test.value().view(), {mean.data(), variance.data(), probability.data()}, {}, &report);
  if (!predicted.ok()) return with_file_names(predicted, {{"test", test_path}});

  CsvOutput csv(args.get("out", ""), out);
  GPPROBE_RETURN_IF_ERROR(csv.status());
  std::ostream& os = csv.stream();
  os << "point,latent_mean,latent_variance,probability\n";
  for (std::size_t i = 0; i < m; ++i) {
    os << i << ',' << format_number(mean[i]) << ',' << format_number(variance[i]) << ','
       << format_number(probability[i]) << '\n';
  }
  GPPROBE_RETURN_IF_ERROR(csv.finish());
  err << "{" << gpc_model_fields(model.value(), flags.value()) << ",\"test_points\":" << m
      << ",\"clamped_variances\":" << report.clamped_variances << "}\n";
  return Status::success();
}

}  // namespace

int gpc_command(const Args& args, std::ostream& out, std::ostream& err) {
  if (wants_softmax(args)) return multiclass_gpc_command(args, out, err);
  return exit_code("gpc", run(args, out, err), err);
}

}  // namespace gpprobe::cli
