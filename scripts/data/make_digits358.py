#!/usr/bin/python3
"""The robustness paper's multi-class digits (Blaas et al., AISTATS 2020, §6.3 Fig. 5: MNIST 3/5/8) rebuilt
from scikit-learn's bundled 8 x 8 handwritten digits (UCI optdigits test set, 1,797 images), written to
web/public/demo/robustness/digits358.csv: a header x1..x64,label, the 3s, 5s and 8s (183 + 182 + 174),
pixels / 16 in [0, 1], rows in a seeded random order (RandomStream(1).shuffle, as digits38.csv), label
0 = digit 3, 1 = digit 5, 2 = digit 8 (class indices for `gpprobe ... --likelihood softmax`). The stand-in
for the paper's MNIST358 at 14 x 14: smaller images, far fewer of them, and not the same digits.

Run with Debian's Python (numpy, scikit-learn):
    /usr/bin/python3 scripts/data/make_digits358.py          # writes the file
    /usr/bin/python3 scripts/data/make_digits358.py --check  # compares a fresh build with it
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_robustness_datasets import OUT, SEED, RandomStream, as_csv, shuffled  # noqa: E402

DIGITS = [3, 5, 8]


def digits358():
    from sklearn.datasets import load_digits
    digits = load_digits()
    keep = np.isin(digits.target, DIGITS)
    x = digits.data[keep] / 16.0
    y = np.array([DIGITS.index(t) for t in digits.target[keep]])
    order = shuffled(RandomStream(SEED), len(y))
    return x[order], y[order], '%.17g'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true', help='compare a fresh build with the committed file')
    args = parser.parse_args()
    x, y, number = digits358()
    text = as_csv(x, y, number, None)
    path = os.path.join(OUT, 'digits358.csv')
    if args.check:
        with open(path) as f:
            same = f.read() == text
        print(f'digits358: {"same" if same else "DIFFERENT"}')
        sys.exit(0 if same else 1)
    with open(path, 'w') as f:
        f.write(text)
    counts = ', '.join(f'{int((y == c).sum())} of digit {d}' for c, d in enumerate(DIGITS))
    print(f'digits358: {x.shape[0]} rows, {x.shape[1]} features ({counts}) -> {path}')


if __name__ == '__main__':
    main()
