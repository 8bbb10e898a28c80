#!/usr/bin/python3
"""The robustness paper's MNIST experiments at their scale, on data anyone has offline: Fashion-MNIST
(Xiao, Rasul & Vollgraf, "Fashion-MNIST: a Novel Image Dataset for Benchmarking Machine Learning
Algorithms", 2017; Debian's dataset-fashion-mnist: 70,000 grey 28 x 28 images, 10 classes), prepared as
Blaas et al. ("Adversarial Robustness Guarantees for Classification with Gaussian Processes", AISTATS
2020, supp. F) prepare MNIST38 and MNIST358: pixels / 255, downsampled to 14 x 14 (here: the mean of
each 2 x 2 block, so pixels stay in [0, 1]), a random 1,000 training images (binary) or 500
(three classes) and 200 test images each.

  fashion_pullover_coat.csv    label 0 = pullover (class 2), 1 = coat (class 4): two garments of the
                               same outline (long sleeves), as 3 and 8 share most strokes; 1,200
                               rows (1,000 train + 200 test)
  fashion_footwear.csv         labels 0/1/2 = sandal (class 5), sneaker (class 7), ankle boot (class
                               9): three similar shapes, as 3/5/8 share strokes; 700 rows (500 train +
                               200 test)

Both: a header x1..x196,label, pixels row by row (x1 the top-left), rounded to 4 decimals (the 2 x 2
means are multiples of 1/1020), rows drawn from all 70,000 images of those classes (train and t10k
together) in a seeded random order (numpy default_rng(1)): the first rows train (`gpprobe
paper-robustness --train-rows N`). Written to web/public/demo/robustness/ (each under 2 MB).

Run with Debian's Python (numpy) after `apt-get install dataset-fashion-mnist`:
    /usr/bin/python3 scripts/data/make_fashion_mnist_datasets.py          # writes the two files
    /usr/bin/python3 scripts/data/make_fashion_mnist_datasets.py --check  # compares a fresh build with them
"""
import argparse
import gzip
import io
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'web', 'public', 'demo', 'robustness')
SOURCE = '/usr/share/datasets/fashion-mnist'
SEED = 1

SETS = [
    # file, Fashion-MNIST classes in label order, rows
    ('fashion_pullover_coat.csv', [2, 4], 1200),
    ('fashion_footwear.csv', [5, 7, 9], 700),
]


def read_idx(name):
    path = os.path.join(SOURCE, name)
    if not os.path.exists(path):
        sys.exit(f'{path} is missing: apt-get install dataset-fashion-mnist')
    with gzip.open(path, 'rb') as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], 'big')
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(magic & 0xFF)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * len(dims)).reshape(dims)


def load():
    images = np.concatenate([read_idx('train-images-idx3-ubyte.gz'), read_idx('t10k-images-idx3-ubyte.gz')])
    labels = np.concatenate([read_idx('train-labels-idx1-ubyte.gz'), read_idx('t10k-labels-idx1-ubyte.gz')])
    assert images.shape == (70000, 28, 28) and labels.shape == (70000,)
    return images, labels


def downsample(images):
    """28 x 28 bytes -> 14 x 14 in [0, 1]: each 2 x 2 block's mean of pixel / 255."""
    x = images.astype(np.float64) / 255.0
    return x.reshape(len(x), 14, 2, 14, 2).mean(axis=(2, 4)).reshape(len(x), 196)


def build(images, labels, classes, rows):
    rng = np.random.default_rng(SEED)
    chosen = np.flatnonzero(np.isin(labels, classes))
    order = rng.permutation(chosen)[:rows]
    x = downsample(images[order])
    y = np.array([classes.index(int(c)) for c in labels[order]])
    out = io.StringIO()
    out.write(','.join([f'x{j + 1}' for j in range(196)] + ['label']) + '\n')
    for row, label in zip(x, y):
        out.write(','.join('%.4g' % round(v, 4) if v else '0' for v in row) + f',{label}\n')
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true', help='compare a fresh build with the files')
    args = parser.parse_args()
    images, labels = load()
    failed = False
    for name, classes, rows in SETS:
        text = build(images, labels, classes, rows)
        path = os.path.join(OUT, name)
        if args.check:
            with open(path) as f:
                same = f.read() == text
            print(f'{name}: {"same" if same else "DIFFERS"}')
            failed |= not same
        else:
            with open(path, 'w') as f:
                f.write(text)
            counts = np.bincount([int(line.rsplit(',', 1)[1]) for line in text.splitlines()[1:]])
            print(f'{name}: {rows} rows, per label {counts.tolist()}, {len(text)} bytes')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
