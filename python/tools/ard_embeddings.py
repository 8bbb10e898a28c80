"""Held-out AUROC of GPClassifier on 16 x 128 unit-norm embeddings: ARD length-scales learned
(optimize=True), one shared length-scale learned (shared_length_scale=True), and the fixed defaults.

The data: a concept along a random unit direction w in R^128, x = 0.5 z + (2y - 1) w (z standard normal),
normalised to unit length; 16 training rows (8 per class), 400 held-out rows; five seeds. docs/python.md
("Which kernel for embeddings") quotes its output. Run with the module on PYTHONPATH:

    PYTHONPATH=build/native/python python3 python/tools/ard_embeddings.py
"""

import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

import gpprobe


def main() -> None:
    results = {"ARD (optimize=True)": [], "shared (shared_length_scale=True)": [], "fixed (defaults)": []}
    for seed in range(5):
        rng = np.random.default_rng(seed)
        w = rng.standard_normal(128)
        w /= np.linalg.norm(w)

        def draw(n):
            y = np.arange(n) % 2
            x = 0.5 * rng.standard_normal((n, 128)) + np.outer(2 * y - 1, w)
            return x / np.linalg.norm(x, axis=1, keepdims=True), y

        x, y = draw(16)
        held_out, truth = draw(400)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", gpprobe.ARDWarning)
            models = [
                gpprobe.GPClassifier(optimize=True),
                gpprobe.GPClassifier(optimize=True, shared_length_scale=True),
                gpprobe.GPClassifier(),
            ]
            for name, model in zip(results, models):
                results[name].append(roc_auc_score(truth, model.fit(x, y).predict_proba(held_out)[:, 1]))
    for name, values in results.items():
        print(f"{name:36s} mean {np.mean(values):.3f}  min {np.min(values):.3f}  max {np.max(values):.3f}")


if __name__ == "__main__":
    main()
