// The reference value of the bounds' F_c(m, Gamma) = E[softmax_c(g)], g ~ N(m, Gamma), for the certify tests:
// softmax_expectation's own quadrature at a tight tolerance on the latent vector (m, 0) with Gamma in its
// top-left block (the last class's latent fixed at 0, as the bounds put it).
#pragma once

#include <cstddef>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "gpprobe/classification/multiclass_probability.h"

namespace gpprobe::reference {

inline double exact_f(const Eigen::VectorXd& m, const Eigen::MatrixXd& gamma, std::size_t c, double tolerance = 1e-10) {
  const Eigen::Index D = m.size();
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(D + 1);
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(D + 1, D + 1);
  mean.head(D) = m;
  cov.topLeftCorner(D, D) = gamma;
  SoftmaxExpectationOptions options;
  options.tolerance = tolerance;
  const SoftmaxExpectation e = softmax_expectation(mean, cov, options).value();
  EXPECT_TRUE(e.converged);
  return e.probabilities[c];
}

}  // namespace gpprobe::reference
