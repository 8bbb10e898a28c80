#include "gpprobe/evaluation/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "common/input_checks.h"

namespace gpprobe {

namespace {

// Labels 0/1 and n finite scores, at least one of each.
Status check_scored(const char* metric, const std::uint8_t* labels, const double* scores, std::size_t n,
                    const char* scores_name = "scores") {
  const std::string name(metric);
  if (n == 0) return Status(StatusCode::invalid_argument, name + ": no values (n = 0)");
  for (std::size_t i = 0; i < n; ++i) {
    if (labels[i] > 1) {
      return Status(StatusCode::invalid_argument, name + ": label " + std::to_string(i) + " is " +
                                                      std::to_string(int(labels[i])) + "; labels must be 0 or 1");
    }
  }
  return check_finite_values(scores, n, name + ": " + scores_name);
}

// Indices of `scores` sorted by decreasing score (ties keep their order).
std::vector<std::size_t> by_decreasing_score(const double* scores, std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [scores](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  return order;
}

// Calls visit(true_positives, false_positives, threshold) at the end of each run of tied scores,
// in decreasing score order: the points of scikit-learn's _binary_clf_curve.
template <class Visit>
void for_each_threshold(const std::uint8_t* labels, const double* scores, std::size_t n, Visit visit) {
  const std::vector<std::size_t> order = by_decreasing_score(scores, n);
  double tp = 0, fp = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    (labels[i] ? tp : fp) += 1;
    if (k + 1 == n || scores[order[k + 1]] != scores[i]) visit(tp, fp, scores[i]);
  }
}

}  // namespace

Result<double> auroc(const std::uint8_t* labels, const double* scores, std::size_t n) {
  GPPROBE_RETURN_IF_ERROR(check_scored("auroc", labels, scores, n));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, n, "auroc needs both classes"));
  // Trapezoids between successive threshold points: each run of ties adds fp·(tp_before + tp_after)/2
  // pairs, i.e. a positive and a negative with equal scores count ½. Integer-valued sums: exact.
  double area = 0, tp_before = 0, fp_before = 0;
  for_each_threshold(labels, scores, n, [&](double tp, double fp, double) {
    area += (fp - fp_before) * (tp + tp_before) / 2;
    tp_before = tp;
    fp_before = fp;
  });
  return area / (tp_before * fp_before);
}

Result<double> auroc_standard_error(const std::uint8_t* labels, const double* scores, std::size_t n) {
  GPPROBE_RETURN_IF_ERROR(check_scored("auroc_standard_error", labels, scores, n));
  std::vector<double> positive, negative;
  for (std::size_t i = 0; i < n; ++i) (labels[i] ? positive : negative).push_back(scores[i]);
  if (positive.size() < 2 || negative.size() < 2) {
    return Status(StatusCode::invalid_argument, "auroc_standard_error needs at least 2 labels of each class, got " +
                                                    std::to_string(positive.size()) + " positive and " +
                                                    std::to_string(negative.size()) + " negative");
  }
  // Placements: V_i over the negatives for each positive, W_j over the positives for each negative.
  std::vector<double> V(positive.size(), 0.0), W(negative.size(), 0.0);
  for (std::size_t i = 0; i < positive.size(); ++i) {
    for (std::size_t j = 0; j < negative.size(); ++j) {
      const double psi = positive[i] > negative[j] ? 1.0 : positive[i] == negative[j] ? 0.5 : 0.0;
      V[i] += psi;
      W[j] += psi;
    }
  }
  const double n_positive = double(positive.size()), n_negative = double(negative.size());
  for (double& v : V) v /= n_negative;
  for (double& w : W) w /= n_positive;
  auto sample_variance = [](const std::vector<double>& x) {
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / double(x.size());
    double sum = 0;
    for (double v : x) sum += (v - mean) * (v - mean);
    return sum / double(x.size() - 1);
  };
  return std::sqrt(sample_variance(V) / n_positive + sample_variance(W) / n_negative);
}

Result<double> auprc(const std::uint8_t* labels, const double* scores, std::size_t n) {
  GPPROBE_RETURN_IF_ERROR(check_scored("auprc", labels, scores, n));
  const double positives = double(std::count(labels, labels + n, std::uint8_t(1)));
  if (positives == 0) return Status(StatusCode::invalid_argument, "auprc needs at least one positive label");
  double ap = 0, recall_before = 0;
  for_each_threshold(labels, scores, n, [&](double tp, double fp, double) {
    const double recall = tp / positives;
    ap += (recall - recall_before) * (tp / (tp + fp));
    recall_before = recall;
  });
  return ap;
}

Result<double> accuracy(const std::uint8_t* labels, const double* probability, std::size_t n, double threshold) {
  GPPROBE_RETURN_IF_ERROR(check_scored("accuracy", labels, probability, n, "probability"));
  if (!std::isfinite(threshold)) return Status(StatusCode::invalid_argument, "accuracy: the threshold must be finite");
  std::size_t correct = 0;
  for (std::size_t i = 0; i < n; ++i) correct += (probability[i] > threshold) == (labels[i] == 1);
  return double(correct) / double(n);
}

Result<double> pearson(const double* x, const double* y, std::size_t n) {
  if (n < 2) return Status(StatusCode::invalid_argument, "pearson needs at least 2 pairs, got " + std::to_string(n));
  GPPROBE_RETURN_IF_ERROR(check_finite_values(x, n, "pearson: x"));
  GPPROBE_RETURN_IF_ERROR(check_finite_values(y, n, "pearson: y"));
  const double mx = std::accumulate(x, x + n, 0.0) / double(n);
  const double my = std::accumulate(y, y + n, 0.0) / double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0) return Status(StatusCode::invalid_argument, "pearson is undefined: x is constant");
  if (syy == 0) return Status(StatusCode::invalid_argument, "pearson is undefined: y is constant");
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

Result<RocCurve> roc_curve(const std::uint8_t* labels, const double* scores, std::size_t n) {
  GPPROBE_RETURN_IF_ERROR(check_scored("roc_curve", labels, scores, n));
  GPPROBE_RETURN_IF_ERROR(check_both_classes(labels, n, "roc_curve needs both classes"));
  const double positives = double(std::count(labels, labels + n, std::uint8_t(1)));
  const double negatives = double(n) - positives;
  RocCurve curve;
  curve.false_positive_rate.push_back(0);
  curve.true_positive_rate.push_back(0);
  curve.thresholds.push_back(std::numeric_limits<double>::infinity());
  for_each_threshold(labels, scores, n, [&](double tp, double fp, double threshold) {
    curve.false_positive_rate.push_back(fp / negatives);
    curve.true_positive_rate.push_back(tp / positives);
    curve.thresholds.push_back(threshold);
  });
  return curve;
}

}  // namespace gpprobe
