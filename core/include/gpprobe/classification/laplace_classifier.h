// The Laplace approximation of binary GP classification (Rasmussen & Williams Alg. 3.1, 3.2, 5.1, with
// the stopping rule and sign correction of docs/design/classification.md, "Laplace"):
//
//   mode        f^ = argmax Psi(f),  Psi = log p(y|f) - 1/2 f'K^-1 f, by Newton from f = 0:
//               W, sW = sqrt W, L = chol(B), B = I + sW K sW, b = W f + grad log p,
//               a = b - sW (L' \ (L \ (sW K b))),  f = K a;
//               a step that lowers Psi = log p(y|f) - 1/2 a'f is halved (in a, hence in f); stop when
//               max|delta f| <= 1e-10 (1 + max|f|) after a full step (quadratic convergence: f^ is then
//               exact to ~1e-13); W and L are recomputed at f^.
//   weights     alpha = grad log p(y|f^) (= K^-1 f^; checked: |f^ - K alpha|_inf <= 1e-9 (1 + max|f^|))
//   evidence    log q(y|X) = log p(y|f^) - 1/2 alpha'f^ - sum_i log L_ii                (eq. 3.32)
//   gradient    per kernel parameter theta_p, with R = Q = sW B^-1 sW, C = L \ (sW K) (Alg. 5.1):
//               s2 = +1/2 (diag K - diag C'C) * d3 log p          (the book prints -1/2: docs/design/classification.md, "Corrections to the sources")
//               dlog q/dtheta_p = 1/2 alpha' dK alpha - 1/2 tr(R dK) + s2'(b - K R b),  b = dK grad log p
//               computed as one contraction sum_ij G_ij dK_ij/dtheta_p (kernel_matrix.h) with
//               G = 1/2 alpha alpha' - 1/2 R + sym(c alpha'),  c = s2 - R K s2  (no dK is stored).
//
//   data     n training points, labels in {-1, +1}      kernel  any Kernel (its theta order)
// Cost per Newton step n^3/3 (Cholesky); the gradient adds about 2 n^3 (L^-1, Q, C).
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "gpprobe/classification/likelihood.h"
#include "gpprobe/classification/training_data.h"
#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/status.h"
#include "gpprobe/kernels/kernel.h"

namespace gpprobe {

struct LaplaceFit {
  Eigen::VectorXd f_hat;      // n, the posterior mode of the latent f at the training points
  Eigen::VectorXd W;          // n, -d2 log p(y|f^)
  Eigen::VectorXd alpha;      // n, grad log p(y|f^): the mean weights of the common form
  RowMatrix variance_factor;  // n by n lower, M = L^-1 diag(sqrt W): Q = M'M (common_form.h)
  double log_marginal_likelihood = 0.0;
  std::vector<double> gradient;  // d log q / d theta (kernel.parameter_count() values) when asked
  std::size_t iterations = 0;    // Newton steps
};

// numerical_failure "Laplace: Newton's method did not converge in 100 iterations (...)" with the last
// step's size, never a silent result.
//
// squared_distances: the training points' D2 (kernel_matrix.h's squared_distances), or null. With it, an
// isotropic constant(c) * rbf(l) kernel is evaluated from D2 (no O(n^2 d) work per fit).
Result<LaplaceFit> fit_laplace(const ClassifierTrainingData& data, const Kernel& kernel,
                               ClassifierLikelihood likelihood, bool with_gradient, std::size_t max_iterations = 100,
                               const RowMatrix* squared_distances = nullptr);

}  // namespace gpprobe
