#!/usr/bin/python3
"""The classification lab's multi-class examples, written to web/public/demo/classification/ as CSV: a
header (x1..xd, then label), feature columns then a label column of class indices 0..C-1, rows in a
seeded random order.

  three_blobs.csv  180 points in 2-D, 60 per class: draws of N(0, 0.8^2 I_2) around three centres on
                   the circle of radius 2 (angles 90, 210 and 330 degrees; classes 0, 1, 2), the normal
                   draws from RandomStream(seed 1) with RandomStream::normal's Box-Muller (the core's
                   generator, mirrored by scripts/fixtures/reference_random.py), shuffled by the same
                   stream; 17 significant digits
  digits358.csv    scikit-learn's bundled 8 x 8 handwritten digits (UCI optdigits test set), the 3s, 5s
                   and 8s (183 + 182 + 174 = 539 images), pixels / 16 in [0, 1] (row-major, x1 the top
                   left pixel), label 0 = digit 3, 1 = digit 5, 2 = digit 8, shuffled with
                   RandomStream(seed 1). The stand-in for the robustness paper's MNIST 3/5/8 (Blaas et
                   al. 2020, section 5): smaller images, fewer of them, not the same digits. The lab
                   trains on the first 400 rows and shows the other 139 as held-out images; the bench
                   takes the first 500.
  digits3589.csv   the same with the 9s added (label 3 = digit 9; 719 images): the bench's C = 4 case

Run with Debian's Python (numpy, scikit-learn):
    /usr/bin/python3 scripts/data/make_classification_datasets.py          # writes the files
    /usr/bin/python3 scripts/data/make_classification_datasets.py --check  # compares a fresh build with them
"""
import argparse
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_robustness_datasets import NormalStream, shuffled, write_csv_sets  # noqa: E402
sys.path.insert(0, os.path.join(HERE, '..', 'fixtures'))
from reference_random import RandomStream  # noqa: E402

OUT = os.path.join(HERE, '..', '..', 'web', 'public', 'demo', 'classification')
SEED = 1


def three_blobs():
    stream = NormalStream(SEED)
    per_class, radius, sd = 60, 2.0, 0.8
    rows, labels = [], []
    for c, angle in enumerate((90.0, 210.0, 330.0)):
        cx, cy = radius * math.cos(math.radians(angle)), radius * math.sin(math.radians(angle))
        for _ in range(per_class):
            rows.append((cx + sd * stream.normal(), cy + sd * stream.normal()))
            labels.append(c)
    order = shuffled(stream, len(labels))
    return np.array(rows)[order], np.array(labels)[order], '%.17g'


def digits(kept):
    from sklearn.datasets import load_digits
    d = load_digits()
    keep = np.isin(d.target, kept)
    x = d.data[keep] / 16.0
    y = np.array([kept.index(t) for t in d.target[keep]])
    order = shuffled(RandomStream(SEED), len(y))
    return x[order], y[order], '%.17g'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true', help='compare a fresh build with the committed files')
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    write_csv_sets((('three_blobs', three_blobs, None), ('digits358', lambda: digits([3, 5, 8]), None),
                    ('digits3589', lambda: digits([3, 5, 8, 9]), None)),
                   OUT, args.check, lambda x, y: f'per class {np.bincount(y).tolist()}')


if __name__ == '__main__':
    main()
