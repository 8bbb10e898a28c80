// The experiments of the robustness paper (Blaas, Patane, Laurenti, Cardelli, Kwiatkowska & Roberts,
// "Adversarial Robustness Guarantees for Classification with Gaussian Processes", AISTATS 2020, §6 and
// supp. E-G), Figs 3-7, as functions of the core any face can call: each takes the data split into
// training rows and test points and its options, and returns its numbers; `gpprobe paper-robustness`
// (core/cli/explain/) parses the flags into the options and prints CSV and a JSON line.
//
// Binary figures (3, 4, 6, 7) train as the authors do (fit_for_epochs, robustness_experiments.h):
// probit likelihood, SE-ARD from s2 = 1, l = 1, at most `epochs` evaluations of the approximation's
// log marginal likelihood. Fig. 5 is multi-class (softmax, Laplace): one SE-ARD kernel tied over the
// classes, at most `epochs` L-BFGS iterations of the Laplace evidence (MAP with a HyperparameterPrior).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpprobe/certify/classifier_robustness.h"
#include "gpprobe/certify/interval.h"
#include "gpprobe/classification/gp_classifier.h"
#include "gpprobe/classification/hyperparameter_prior.h"
#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/explain/feature_sensitivity.h"
#include "gpprobe/explain/robustness_experiments.h"

namespace gpprobe {

// A binary figure's data: the training rows and, in file order, the test points with their 0/1 labels.
struct PaperBinaryData {
  std::string source;  // named in error messages (the file)
  ClassifierTrainingData train;
  RowMatrix test;
  std::vector<double> test_labels;
  std::optional<Interval> valid_range;
};

// The authors' training (see above) and the fitted classifier, `source: ` before any error.
struct PaperModel {
  EpochFit fit;
  GpClassifier gpc;
};
Result<PaperModel> train_paper_model(const PaperBinaryData& data, ClassifierMethod method, std::size_t epochs);

// ---- Fig. 3: safety over growing gamma, the certified adversarial extreme beside the GPFGS attack ----
struct Figure3Options {
  ClassifierMethod method = ClassifierMethod::laplace;
  std::size_t epochs = 10;
  std::size_t pixels = 3;  // the box moves the `pixels` shortest length-scales (among features that vary)
  std::vector<double> gammas{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  double tolerance = 0.02;
  std::vector<std::size_t> points;  // test points; empty: the first test point of each label (0, then 1)
};
struct Figure3Point {
  std::size_t point = 0;
  std::vector<RobustnessCertificate> certificates;  // one per gamma, adversarial search
};
struct Figure3Result {
  std::vector<std::size_t> pixels;
  std::vector<Figure3Point> points;
};
Result<Figure3Result> run_figure_3(const PaperBinaryData& data, const Figure3Options& options);

// ---- Fig. 4: delta = pi_max(T) - pi_min(T) over the gamma-box, per method and training budget ----
struct Figure4Options {
  std::vector<ClassifierMethod> methods{ClassifierMethod::laplace, ClassifierMethod::ep};
  std::vector<std::size_t> budgets{10, 40, 100};  // epochs
  double gamma = 0.1;
  double tolerance = 0.001;
  double time_limit_seconds = 0.0;  // per search; 0: none
  std::size_t pixels = 0;           // 0: every feature moves; K: the K shortest length-scales
};
struct Figure4Run {
  ClassifierMethod method = ClassifierMethod::laplace;
  std::size_t epochs = 0;
  EpochFit fit;
  std::vector<DeltaRobustness> deltas;  // per test point
  Interval median;                      // the medians of the delta intervals' lower and upper ends
};
// Runs in the order methods x budgets.
Result<std::vector<Figure4Run>> run_figure_4(const PaperBinaryData& data, const Figure4Options& options);

// ---- Fig. 6: global sensitivity, the mean certified Delta_gamma beside LIME's mean coefficient ----
struct Figure6Options {
  ClassifierMethod method = ClassifierMethod::laplace;
  std::size_t epochs = 40;
  std::size_t lime_samples = 5000;
  std::uint64_t seed = 0;  // test point p uses derive_seed(seed, {p})
  std::vector<double> gammas{0.1, 2.0};
  double tolerance = 0.001;
  bool baseline_mean = true;  // LIME's switched-off value: the training mean (else 0)
};
struct Figure6Result {
  std::vector<double> lime_mean, lime_slope_mean;  // per feature, over the test points
  std::vector<GlobalSensitivity> global;           // one per gamma
};
Result<Figure6Result> run_figure_6(const PaperBinaryData& data, const Figure6Options& options);

// ---- Fig. 7: branch-and-bound time for pi_max against the box dimension and the tolerance ----
struct Figure7Options {
  ClassifierMethod method = ClassifierMethod::laplace;
  std::size_t epochs = 10;
  std::vector<std::size_t> dimensions{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> gammas{0.125, 0.25};
  std::vector<double> epsilons{0.005, 0.01, 0.015, 0.02, 0.025};
  std::size_t fixed_dimension = 5;
  double fixed_epsilon = 0.025;
  double time_limit_seconds = 60.0;  // per search
  std::size_t max_iterations = 1000000;
};
struct Figure7Row {
  const char* sweep = "dimension";  // "dimension" or "epsilon"
  double gamma = 0.0, epsilon = 0.0;
  std::size_t dimension = 0, point = 0;
  TimedExtreme result;
};
// Per gamma: the dimension sweep then the epsilon sweep, each over every test point. A box wider than
// the features the training rows vary on is refused (invalid_argument, naming how many vary).
Result<std::vector<Figure7Row>> run_figure_7(const PaperBinaryData& data, const Figure7Options& options);

// ---- Fig. 5: local heat maps of a multi-class model, Delta vs LIME, and the whitening check ----
struct PaperMulticlassData {
  std::string source;
  RowMatrix train_x, test;
  std::vector<double> train_y, test_labels;  // class indices 0..classes-1
  std::size_t classes = 0;
};
struct Figure5Options {
  std::size_t epochs = 10;  // L-BFGS iterations of the Laplace evidence; 0: s2 = 1, l = 1 as they are
  std::size_t lime_samples = 5000;
  std::uint64_t seed = 0;  // test point p's LIME uses derive_seed(seed, {p})
  std::size_t patch = 3;   // K
  double gamma = 0.25, tolerance = 0.002;
  Interval valid_range{0.0, 1.0};   // LIME switches pixels off to its bottom; whitening sets its top
  std::vector<std::size_t> points;  // empty: the first test point of each class
  HyperparameterPrior prior;        // MAP training (needs epochs >= 1 when not flat)
  bool include_constant = false;    // let features constant or nearly constant in training into the patches
  double nearly_constant_share = kNearlyConstantShare;  // feature_sensitivity.h training_variation
};
struct Figure5Point {
  std::size_t point = 0, label = 0;     // the explained class is the point's own label
  LocalSensitivity sensitivity;         // Delta of class `label`'s probability, every feature
  std::vector<double> lime;             // LIME's coefficients, per feature
  std::vector<double> probabilities;    // all C at the image
  std::vector<std::size_t> patch;       // the K most negative certified Delta (whole interval < 0)
  std::vector<double> whitened;         // all C with the patch set to the valid range's top
  std::vector<std::size_t> lime_patch;  // LIME's K most negative coefficients
  std::vector<double> lime_whitened;    // all C with LIME's patch whitened
  // The explained output (class `label`'s probability, through MulticlassOutput) at the whitened images.
  double whitened_probability = 0.0, lime_whitened_probability = 0.0;
};
struct Figure5Result {
  SeArdKernel kernel;  // tied over the classes, d length-scales
  double start_log_marginal_likelihood = 0.0, log_marginal_likelihood = 0.0, log_prior = 0.0;
  std::vector<bool> constant_in_training;         // per feature
  std::vector<bool> nearly_constant_in_training;  // per feature
  std::vector<std::size_t> varying_rows;          // per feature: training rows off its most common value
  std::vector<Figure5Point> points;
  // Class specificity: the Pearson correlation of the points' Delta maps (the `delta` values), pair by
  // pair (points x points, 1 on the diagonal), over the features neither constant nor nearly constant in
  // training (every feature with include_constant). NaN where a map is constant there (the correlation is undefined).
  std::vector<std::vector<double>> delta_correlation;
};
Result<Figure5Result> run_figure_5(const PaperMulticlassData& data, const Figure5Options& options);

// Pearson's correlation of a and b over the entries not `excluded` (excluded empty: all); NaN when
// fewer than 2 entries remain or either is constant on them. a, b (and excluded) of equal length.
double pearson_correlation(const std::vector<double>& a, const std::vector<double>& b,
                           const std::vector<bool>& excluded = {});

}  // namespace gpprobe
