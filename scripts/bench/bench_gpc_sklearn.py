#!/usr/bin/python3
"""Times scikit-learn's GP classification (Laplace, logistic likelihood) on the data `gpprobe bench-gpc
--data DIR` wrote, the same work the native (and later the wasm) benchmark times:

  fit       GaussianProcessClassifier(ConstantKernel(s2) * RBF(l), optimizer=None).fit(X, y)
  evidence  log_marginal_likelihood(theta, eval_gradient=True)
  predict   predict_proba(X_test)  (sklearn's 5-erf approximation of E[sigmoid f])

Prints one JSON list on stdout, one entry per dimension, with the log marginal likelihood so the caller can
check that both sides fitted the same model. numpy's BLAS decides sklearn's speed: run on OpenBLAS
(libopenblas0-pthread), and set OPENBLAS_NUM_THREADS=1 for a single-core comparison.
  /usr/bin/python3 scripts/bench/bench_gpc_sklearn.py DIR
"""
import json
import sys
import time

import numpy as np
from sklearn.gaussian_process import GaussianProcessClassifier
from sklearn.gaussian_process import kernels as K


def seconds(f):
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def main(directory):
    with open(f'{directory}/gpc_bench.json') as f:
        meta = json.load(f)
    rows = []
    for case in meta['cases']:
        train = np.loadtxt(case['train'], delimiter=',', ndmin=2)
        test = np.loadtxt(case['test'], delimiter=',', ndmin=2)
        x, y = train[:, :-1], train[:, -1]
        d = x.shape[1]
        # Free (not 'fixed') parameters so that theta, and the gradient, exist; optimizer=None keeps them.
        kernel = K.ConstantKernel(case['signal_variance']) * K.RBF([case['length_scale']] * d)
        gpc = GaussianProcessClassifier(kernel, optimizer=None)
        fit_s, _ = seconds(lambda: gpc.fit(x, y))
        evidence_s, (value, _) = seconds(
            lambda: gpc.log_marginal_likelihood(gpc.kernel_.theta, eval_gradient=True))
        predict_s, p = seconds(lambda: gpc.predict_proba(test))
        rows.append({'dimension': d, 'approximation': 'laplace-logistic', 'fit_seconds': fit_s,
                     'evidence_seconds': evidence_s, 'predict_seconds': predict_s,
                     'log_marginal_likelihood': float(value), 'checksum': float(p[0, 1])})
    json.dump(rows, sys.stdout)
    print()


if __name__ == '__main__':
    main(sys.argv[1])
