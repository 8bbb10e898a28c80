#!/usr/bin/python3
"""Fits and scores the probe in numpy on the data `scripts/bench/bench.mjs` wrote, the same maths as the core
(MATH.md), so that `npm run bench` compares the same work:

  features   psi(a) = sqrt(v) [a; 1] / sqrt(|a|^2 + 1)           (the cosine kernel's feature map)
  function   K = Psi Psi' + diag(noise) = L L' per latent GP; at the queries Z = P Psi', V = L^-1 Z',
             mean = V_a' c_a - V_b' c_b, variance = (v - |V_a|^2) + (v - |V_b|^2)
  weight     A = I + G_raising / n+ + G_other / v per GP, u = A_a^-1 b_a - A_b^-1 b_b, S = A_a^-1 + A_b^-1,
             mean = P u, variance = rowwise (P S) . P
  measures   E[sigmoid f], E[H_b], -H[g] over f ~ N(mean, variance) by 128-node Gauss-Hermite quadrature

Every formulation of FORMULATIONS is timed (fit + score, best of 3) and the fastest is numpy's figure:
function space, and weight space as rowwise (P S) . P, or with S = L L' factored once (after the two
covariances are summed) and |P L|^2 by gemm or by trmm. Each formulation's numbers are checked against
gpprobe's (wasm) outputs that bench.mjs saved: the largest absolute difference over the five columns is
reported, and the script fails if it exceeds 1e-9 (then it is not the same work).
numpy's BLAS decides the speed: it is named from threadpoolctl (or numpy.show_config()).
  /usr/bin/python3 scripts/bench/bench_probe_numpy.py DIR   ->  one JSON object on stdout
"""
import json
import sys
import time

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve_triangular
from scipy.linalg.blas import dtrmm
from scipy.linalg.lapack import dpotri

TOLERANCE = 1e-9


def blas_name():
    try:
        from threadpoolctl import threadpool_info
        for pool in threadpool_info():
            if pool.get('user_api') == 'blas':
                return f"{pool['internal_api']} {pool.get('version')} ({pool.get('threading_layer')}, " \
                       f"{pool['num_threads']} threads, {pool.get('architecture')})"
    except ImportError:
        pass
    config = np.__config__
    info = getattr(config, 'blas_opt_info', {}) or {}
    return ','.join(info.get('libraries', ['unknown BLAS']))


def prior(epsilon, strength):
    v = np.log1p(1.0 / epsilon)
    raised_v = np.log1p(1.0 / (epsilon + strength))
    mean = np.log(epsilon) - 0.5 * v
    raised_mean = np.log(epsilon + strength) - 0.5 * raised_v
    return v, raised_v, raised_mean - mean


def features(x, v):
    scale = np.sqrt(v / (np.einsum('ij,ij->i', x, x) + 1.0))
    return np.hstack([x * scale[:, None], scale[:, None]])


def fit_function(psi, labels, v, raised, delta):
    K = psi @ psi.T
    positive = labels == 1
    out = []
    for raises in (positive, ~positive):  # f_alpha is raised by label 1, f_beta by label 0
        noise = np.where(raises, raised, v)
        L = np.linalg.cholesky(K + np.diag(noise))
        c = solve_triangular(L, np.where(raises, delta, 0.0), lower=True)
        out.append((L, c))
    return out


def score_function(model, psi, P, v, Z=None):
    Z = P @ psi.T if Z is None else Z
    mean = np.zeros(len(P))
    variance = np.zeros(len(P))
    for sign, (L, c) in zip((1.0, -1.0), model):
        V = solve_triangular(L, Z.T, lower=True, check_finite=False)
        mean += sign * (V.T @ c)
        variance += v - np.einsum('ij,ij->j', V, V)
    return mean, variance


def class_sides(psi, labels):
    """Both GPs' sides: (sign, Gram of the raised class, Gram of the other, sum of the raised class's rows)."""
    positive = labels == 1
    G1, G0 = psi[positive].T @ psi[positive], psi[~positive].T @ psi[~positive]
    s1, s0 = psi[positive].sum(axis=0), psi[~positive].sum(axis=0)
    return ((1.0, G1, G0, s1), (-1.0, G0, G1, s0))


def fit_weight(psi, labels, v, raised, delta):
    identity = np.eye(psi.shape[1])
    u = np.zeros(psi.shape[1])
    S = np.zeros_like(identity)
    for sign, G_raise, G_other, s in class_sides(psi, labels):
        factor = cho_factor(identity + G_raise / raised + G_other / v)
        u += sign * cho_solve(factor, s * (delta / raised))
        S += cho_solve(factor, identity)
    return u, S


def score_weight(model, psi, P, v):
    u, S = model
    return P @ u, np.einsum('ij,ij->i', P @ S, P)


def fit_weight_factor(psi, labels, v, raised, delta):
    # The best numpy form of weight space: each A^-1 from its Cholesky factor by LAPACK's potri (n^3 flops,
    # not a solve against I), the two covariances summed into S, then S = L L' once, so a query's variance
    # is |L' p|^2: one triangular product per block of queries.
    identity = np.eye(psi.shape[1])
    u = np.zeros(psi.shape[1])
    S = np.zeros_like(identity)
    for sign, G_raise, G_other, s in class_sides(psi, labels):
        factor = cho_factor(identity + G_raise / raised + G_other / v, lower=True)
        u += sign * cho_solve(factor, s * (delta / raised))
        inverse, info = dpotri(factor[0], lower=1)
        if info != 0:
            sys.exit(f'potri failed ({info})')
        S += np.tril(inverse) + np.tril(inverse, -1).T
    return u, np.linalg.cholesky(S)


def score_weight_factor(model, psi, P, v):
    # P L as a dense product (BLAS gemm beats trmm on the triangle's zeros).
    u, L = model
    Y = P @ L
    return P @ u, np.einsum('ij,ij->i', Y, Y)


def score_weight_trmm(model, psi, P, v):
    # L' P' by BLAS trmm on the transposed (Fortran-order) view of P: the triangular product itself.
    u, L = model
    Y = dtrmm(1.0, L, P.T, side=0, lower=1, trans_a=1)
    return P @ u, np.einsum('ij,ij->j', Y, Y)


# Every formulation is timed; the fastest is numpy's figure.
FORMULATIONS = {
    'function': (fit_function, score_function),
    'weight': (fit_weight, score_weight),
    'weight-factor': (fit_weight_factor, score_weight_factor),
    'weight-trmm': (fit_weight_factor, score_weight_trmm),
}


def score_function32(model, psi, P, v):
    # The kernel rows in float32 (sgemm), the triangular solves in float64.
    return score_function(model, psi, P, v, (P.astype(np.float32) @ psi.astype(np.float32).T).astype(np.float64))


def score_weight32(model, psi, P, v):
    # The mean in float64 (n D), the quadratic form's product in float32 (sgemm), as gpprobe's float32Products.
    u, S = model
    P32 = P.astype(np.float32)
    return P @ u, np.einsum('ij,ij->i', P32 @ S.astype(np.float32), P32).astype(np.float64)


def measures(mean, variance, nodes, weights):
    f = mean[:, None] + np.sqrt(variance)[:, None] * nodes[None, :]
    e = np.exp(-np.abs(f))
    log1p_e = np.log1p(e)
    sp_neg = np.maximum(-f, 0.0) + log1p_e
    sp_pos = np.maximum(f, 0.0) + log1p_e
    g = np.where(f >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))
    judged = (g * weights).sum(axis=1)
    alea = ((g * sp_neg + (1.0 - g) * sp_pos) * weights).sum(axis=1)
    softplus_neg = (sp_neg * weights).sum(axis=1)
    episteme = -(0.5 * (np.log(2.0 * np.pi * np.e) + np.log(variance)) - mean - 2.0 * softplus_neg)
    return judged, episteme, alea


def run(space, x, labels, queries, meta, quadrature, block=2048, float32=False):
    v, raised, delta = prior(meta['epsilon'], meta['strength'])
    fit, score = FORMULATIONS[space]
    if float32:
        fit, score = (fit_function, score_function32) if space == 'function' else (fit_weight, score_weight32)
        queries = queries.astype(np.float64)  # exact: the features are computed in float64, as gpprobe does
    start = time.perf_counter()
    psi = features(x, v)
    model = fit(psi, labels, v, raised, delta)
    fitted = time.perf_counter()
    columns = [np.empty(len(queries)) for _ in range(5)]
    for first in range(0, len(queries), block):
        P = features(queries[first:first + block], v)
        mean, variance = score(model, psi, P, v)
        variance = np.minimum(variance, 2.0 * v)
        for column, values in zip(columns, (mean, variance, *measures(mean, variance, *quadrature))):
            column[first:first + block] = values
    done = time.perf_counter()
    return fitted - start, done - fitted, columns


def main(directory):
    with open(f'{directory}/probe_bench.json') as f:
        meta = json.load(f)
    nodes, weights = np.polynomial.hermite_e.hermegauss(128)
    quadrature = (nodes, weights / weights.sum())
    queries = np.load(f"{directory}/{meta['queries']}")
    rows = []
    rows32 = []
    queries32 = np.load(f"{directory}/{meta['queries32']}") if 'queries32' in meta else None
    for case in meta['cases']:
        x = np.load(f"{directory}/{case['observations']}")
        labels = np.load(f"{directory}/{case['labels']}")
        ours = [np.load(f"{directory}/{name}") for name in case['outputs']]
        best = None
        for space in FORMULATIONS:
            runs = [run(space, x, labels, queries, meta, quadrature) for _ in range(meta.get('repeats', 3))]
            fit_s, score_s, columns = min(runs, key=lambda r: r[0] + r[1])
            difference = max(float(np.max(np.abs(a - b))) for a, b in zip(columns, ours))
            if not difference <= TOLERANCE:
                sys.exit(f"numpy {space} space differs from gpprobe by {difference:.2e} at O = {len(x)} "
                         f"(more than {TOLERANCE:g}): not the same work")
            entry = {'observations': len(x), 'space': space, 'fit_seconds': fit_s, 'score_seconds': score_s,
                     'max_difference': difference}
            if best is None or fit_s + score_s < best['fit_seconds'] + best['score_seconds']:
                best = entry
        rows.append(best)
        if queries32 is None:
            continue
        # float32 queries with float32 products: compared with gpprobe's exact scores of the same float32
        # queries (reported, not a check: float32 products are not the same numbers to 1e-9).
        exact32 = [np.load(f"{directory}/{name}") for name in case['outputs32']]
        best32 = None
        for space in ('function', 'weight'):
            runs = [run(space, x, labels, queries32, meta, quadrature, float32=True) for _ in range(meta.get('repeats', 3))]
            fit_s, score_s, columns = min(runs, key=lambda r: r[0] + r[1])
            difference = max(float(np.max(np.abs(a - b))) for a, b in zip(columns, exact32))
            entry = {'observations': len(x), 'space': space, 'fit_seconds': fit_s, 'score_seconds': score_s,
                     'max_difference': difference}
            if best32 is None or fit_s + score_s < best32['fit_seconds'] + best32['score_seconds']:
                best32 = entry
        rows32.append(best32)
    json.dump({'blas': blas_name(), 'rows': rows, 'rows32': rows32}, sys.stdout)
    print()


if __name__ == '__main__':
    main(sys.argv[1])
