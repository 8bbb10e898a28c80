// Which row to label next: the expected knowledge gain of one more observation at a query, by the
// probe's own update (what the app's "label next" suggestions rank by).
//
// Labelling a query a with y in {0, 1} adds to each latent GP g an observation at a with noise variance
// n_g(y) (docs/design/probe.md, "Beta prior": n+ = var(eps + s) for the GP the label raises, v for the other). With f_g(a)'s posterior
// variance s_g now, one more Gaussian factor at a leaves
//   s_g'(y) = s_g n_g(y) / (s_g + n_g(y))          (variances do not depend on the targets)
// so the latent variance sigma^2 = s_alpha + s_beta becomes sigma'^2(y) = s_alpha'(y) + s_beta'(y), and
//   knowledge_gain(a) = [sigma^2 - p sigma'^2(1) - (1 - p) sigma'^2(0)] / (2v),   p = the judged probability at a,
// the expected rise of the knowledge score G(a) = 1 - sigma^2/(2v) at a from its label, in [0, 1).
// It is largest where the probe knows least; a row far from all others (an outlier) can rank high, so
// the app shows each suggestion's OOD score beside it.
//
//   queries  n by d  ->  gain: n values (caller-owned)
// Cost: one fit of the two latent GPs apart (as leave_one_out.h), then per query about twice a score.
#pragma once

#include <cstddef>

#include "gpprobe/common/matrix_view.h"
#include "gpprobe/common/progress.h"
#include "gpprobe/common/status.h"
#include "gpprobe/probe/probe.h"

namespace gpprobe {

// Progress after each block of 256 queries; cancelled leaves `gain` partly written.
Status knowledge_gain(const Probe& probe, const MatrixView& queries, double* gain,
                      const ProgressCallback& progress = {}, PosteriorSpace space = PosteriorSpace::automatic);

}  // namespace gpprobe
