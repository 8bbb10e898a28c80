#include "readers/labelled_inputs.h"

#include "readers/file_messages.h"

namespace gpprobe::cli {

Result<LabelledInputs> LabelledInputs::paths(const Arguments& args) {
  LabelledInputs in;
  for (auto [flag, path] : {std::pair{"observations", &in.observations_path}, std::pair{"labels", &in.labels_path},
                            std::pair{"queries", &in.queries_path}}) {
    Result<std::string> value = args.required(flag);
    if (!value.ok()) return value.status();
    *path = value.value();
  }
  return in;
}

Status LabelledInputs::read() {
  Result<LoadedMatrix> x = read_matrix(observations_path);
  if (!x.ok()) return x.status();
  observations = std::move(x.value());
  Result<std::vector<std::uint8_t>> y = read_labels(labels_path);
  if (!y.ok()) return y.status();
  labels = std::move(y.value());
  Result<LoadedMatrix> q = read_matrix(queries_path);
  if (!q.ok()) return q.status();
  queries = std::move(q.value());
  if (labels.size() != observations.rows) {
    return Status(StatusCode::dimension_mismatch, labels_path + ": " + std::to_string(labels.size()) + " labels for " +
                                                      std::to_string(observations.rows) + " observation rows in " +
                                                      observations_path);
  }
  return Status::success();
}

Status LabelledInputs::name_files(const Status& status) const {
  return with_file_names(status, {{"observations", observations_path},
                                  {"queries", queries_path},
                                  {"labels", labels_path},
                                  {"label ", labels_path}});
}

}  // namespace gpprobe::cli
