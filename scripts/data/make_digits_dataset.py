#!/usr/bin/python3
"""Builds the shipped demo dataset web/public/demo/digits/: embeddings of scikit-learn's handwritten
digits taken from a hidden layer of a small trained network, concept labels from the digit, and
uniform-noise images passed through the same network as out-of-distribution queries.

Run with Debian's Python (numpy, scikit-learn 1.2): /usr/bin/python3 scripts/data/make_digits_dataset.py
Everything is seeded and BLAS runs single-threaded, so a rerun on the same machine reproduces the files
bit for bit (scripts/data/make_digits_dataset.py --check compares a fresh build with the committed files).
"""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one thread: floating-point sums in a fixed order

import argparse
import sys
import warnings

import numpy as np
import sklearn
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from demo_files import npy_bytes, write_or_check  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "web", "public", "demo", "digits")

SPLIT_SEED = 0     # which images train the network
NETWORK_SEED = 0   # MLPClassifier(random_state=...)
NOISE_SEED = 1     # the uniform-noise images
NOISE_IMAGES = 512
HIDDEN = (128, 64)  # the embedding is the second hidden layer: 64 ReLU units
CLOSED_LOOP = {0, 4, 6, 8, 9}


def split(digits):
    """Half of each digit's images (rounded down) train the network ("train"), the rest are "test"."""
    rng = np.random.default_rng(SPLIT_SEED)
    train = np.zeros(len(digits), dtype=bool)
    for d in range(10):
        idx = np.flatnonzero(digits == d)
        train[rng.permutation(idx)[: len(idx) // 2]] = True
    return train


def train_network(x, digits):
    net = MLPClassifier(hidden_layer_sizes=HIDDEN, activation="relu", solver="adam", alpha=1e-4,
                        batch_size=64, learning_rate_init=1e-3, max_iter=300, random_state=NETWORK_SEED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(x, digits)
    return net


def embed(net, x):
    """The activations of the last hidden layer: relu(relu(x W1 + b1) W2 + b2), as float32."""
    a = x
    for w, b in zip(net.coefs_[:-1], net.intercepts_[:-1]):
        a = np.maximum(a @ w + b, 0.0)
    return a.astype(np.float32)


def trained():
    """The images in [0, 1], their digits, the training split, the trained network and the noise images
    (also what make_digits_layers.py sees every layer of)."""
    data = load_digits()
    x = data.data / 16.0  # pixels 0..16 -> [0, 1]
    digits = data.target.astype(np.int64)
    train = split(digits)
    net = train_network(x[train], digits[train])
    noise = np.random.default_rng(NOISE_SEED).random((NOISE_IMAGES, x.shape[1]))  # uniform pixels in [0, 1)
    return x, digits, train, net, noise


def build():
    x, digits, train, net, noise = trained()
    files = {"embeddings.npy": npy_bytes(embed(net, x)), "ood_embeddings.npy": npy_bytes(embed(net, noise))}
    lines = ["index,digit,even,closed_loop,ge5,split"]
    for i, d in enumerate(digits):
        lines.append(f"{i},{d},{int(d % 2 == 0)},{int(d in CLOSED_LOOP)},{int(d >= 5)},{'train' if train[i] else 'test'}")
    files["metadata.csv"] = ("\n".join(lines) + "\n").encode()
    accuracy = {"train": net.score(x[train], digits[train]), "test": net.score(x[~train], digits[~train])}
    return files, accuracy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    files, accuracy = build()
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}; network accuracy "
          f"train {accuracy['train']:.4f}, test {accuracy['test']:.4f}")
    write_or_check(files, OUT, ROOT, args.check)


if __name__ == "__main__":
    main()
