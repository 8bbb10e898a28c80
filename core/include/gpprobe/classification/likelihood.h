// The two likelihoods of binary GP classification and their derivatives in the latent f (docs/design/
// classification.md, "Model"), for a label y in {-1, +1} and z = y f:
//
//              log p(y|f)          d/df              W = -d2/df2       d3/df3
//   probit     log Phi(z)          y r               r (z + r)         y r ((z + r)(z + 2r) - 1)
//   logistic   -softplus(-z)       (y+1)/2 - s(f)    s (1 - s)         -s (1 - s)(1 - 2s)
//
// with the Mills ratio r = phi(z) / Phi(z) and s = sigmoid(f). Probit is GPML's likErf (lambda = 1).
// Both are log-concave, so W > 0: every B = I + W^1/2 K W^1/2 below has eigenvalues >= 1.
//
// The Mills ratio and log Phi are never formed as phi / Phi (both underflow): for z < 0 they use the
// scaled complementary error function erfcx(x) = exp(x^2) erfc(x), x = -z / sqrt 2, so that
//   Phi(z) = erfcx(x) exp(-z^2/2) / 2,   log Phi(z) = log(erfcx(x) / 2) - z^2/2,   r = sqrt(2/pi) / erfcx(x),
// which is exp(log phi - log Phi) without the cancellation of two large logarithms. log Phi and r are
// accurate to a few ulp for every finite z (r(-1e6) = 1e6, log Phi(-40) = -804.608...); Phi itself to a
// few ulp times 1 + z^2, its condition number in the lower tail (tested against mpmath).
#pragma once

#include <string>

#include "gpprobe/common/enum_names.h"
#include "gpprobe/common/status.h"

namespace gpprobe {

enum class ClassifierLikelihood { probit, logistic };
inline constexpr EnumNames<ClassifierLikelihood, 2> kClassifierLikelihoodNames = {
    {{ClassifierLikelihood::probit, "probit"}, {ClassifierLikelihood::logistic, "logistic"}}};

// "probit" or "logistic": the name the CLI flag, the JSON and the app use.
inline const char* likelihood_name(ClassifierLikelihood likelihood) {
  return name_of(kClassifierLikelihoodNames, likelihood);
}
// invalid_argument "likelihood must be probit or logistic, got 'x'".
inline Result<ClassifierLikelihood> parse_likelihood(const std::string& name) {
  return parse_name(kClassifierLikelihoodNames, name, "likelihood");
}

// log p(y|f) and its first three derivatives in f, at one training point.
struct LikelihoodTerms {
  double log_p = 0.0;
  double gradient = 0.0;  // d log p / df
  double W = 0.0;         // -d2 log p / df2 (> 0)
  double third = 0.0;     // d3 log p / df3
};

// y is -1 or +1.
LikelihoodTerms likelihood_terms(ClassifierLikelihood likelihood, double y, double f);

// Phi(z), log Phi(z) and r(z) = phi(z) / Phi(z) of the standard normal, accurate in both tails.
double normal_cdf(double z);
double log_normal_cdf(double z);
double normal_mills_ratio(double z);
// exp(x^2) erfc(x), finite and accurate for every x >= 0 (about 1 / (x sqrt pi) for large x).
double scaled_erfc(double x);

}  // namespace gpprobe
