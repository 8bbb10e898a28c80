#!/usr/bin/python3
"""The robustness paper's binary datasets (Blaas et al., AISTATS 2020, supp. F.1) rebuilt from sources
anyone has offline, written to web/public/demo/robustness/ as CSV: a header (x1..xd or the variables' names, then
label), feature columns then a 0/1
label, rows in a seeded random order (the first rows train, the rest test: `gpprobe paper-robustness
--train-rows N`).

  synthetic2d.csv  1,200 points: 600 draws of N(0, I_2) shifted by 5 along x1 (label 1), then 600 shifted
                   by 5 along x2 (label 0), standardised per column (sample sd), shuffled: exactly
                   core/src/classification/synthetic_classification.cpp's synthetic_2d_blobs(seed = 1)
                   (the same seeded stream through its Python mirror, scripts/fixtures/reference_random.py,
                   with RandomStream::normal's Box-Muller), written with 17 significant digits
  spam11.csv       the UCI SPAM data as Debian's r-cran-kernlab ships it (data(spam), 4,601 e-mails,
                   1,813 spam), the 11 variables the authors use (their load_spam_dataset.m columns
                   5 7 16 17 19 21 23 25 52 53 57: our, remove, free, business, you, your, num000, hp,
                   charExclamation, charDollar, capitalTotal), standardised over all 4,601 rows (sample sd),
                   then a seeded random 1,200 of them (the paper trains on 1,000 and tests on 200);
                   label 1 = spam; 9 significant digits
  digits38.csv     scikit-learn's bundled 8 x 8 handwritten digits (UCI optdigits test set, 1,797 images),
                   the 3s and 8s (183 + 174), pixels / 16 in [0, 1], shuffled; label 1 = digit 8. The
                   stand-in for the paper's MNIST38 (28 x 28 downsampled to 14 x 14): smaller images, far
                   fewer of them, and not the same digits

Run with Debian's Python (numpy, scikit-learn) and R (r-cran-kernlab):
    /usr/bin/python3 scripts/data/make_robustness_datasets.py          # writes the three files
    /usr/bin/python3 scripts/data/make_robustness_datasets.py --check  # compares a fresh build with them
"""
import argparse
import csv
import io
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'fixtures'))
from reference_random import RandomStream  # noqa: E402

OUT = os.path.join(HERE, '..', '..', 'web', 'public', 'demo', 'robustness')
SEED = 1

SPAM_COLUMNS = ['our', 'remove', 'free', 'business', 'you', 'your', 'num000', 'hp', 'charExclamation',
                'charDollar', 'capitalTotal']


class NormalStream(RandomStream):
    """RandomStream::normal of core/include/gpprobe/common/random_stream.h: Box-Muller, both values of a pair."""

    def __init__(self, seed):
        super().__init__(seed)
        self.spare = None

    def normal(self):
        if self.spare is not None:
            value, self.spare = self.spare, None
            return value
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        r = math.sqrt(-2.0 * math.log(u1))
        two_pi = 6.283185307179586
        self.spare = r * math.sin(two_pi * u2)
        return r * math.cos(two_pi * u2)


def standardise(x):
    mean = x.mean(axis=0)
    sd = np.sqrt(((x - mean) ** 2).sum(axis=0) / (x.shape[0] - 1))
    return (x - mean) / sd


def shuffled(stream, n):
    order = list(range(n))
    stream.shuffle(order)
    return order


def synthetic2d():
    stream = NormalStream(SEED)
    rows, labels = [], []
    for i in range(1200):
        first = i < 600
        a = stream.normal() + (5.0 if first else 0.0)
        b = stream.normal() + (0.0 if first else 5.0)
        rows.append((a, b))
        labels.append(1 if first else 0)
    x = standardise(np.array(rows))
    order = shuffled(stream, 1200)
    return x[order], np.array(labels)[order], '%.17g'


def spam():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'spam.csv')
        script = f'library(kernlab); data(spam); write.csv(spam, file = "{path}", row.names = FALSE)'
        subprocess.run(['Rscript', '-e', script], check=True, capture_output=True)
        with open(path) as f:
            table = list(csv.DictReader(f))
    assert len(table) == 4601, len(table)
    x = standardise(np.array([[float(r[c]) for c in SPAM_COLUMNS] for r in table]))
    y = np.array([1 if r['type'] == 'spam' else 0 for r in table])
    order = shuffled(RandomStream(SEED), len(y))[:1200]
    return x[order], y[order], '%.9g'


def digits38():
    from sklearn.datasets import load_digits
    digits = load_digits()
    keep = np.isin(digits.target, [3, 8])
    x = digits.data[keep] / 16.0
    y = (digits.target[keep] == 8).astype(int)
    order = shuffled(RandomStream(SEED), len(y))
    return x[order], y[order], '%.17g'


def as_csv(x, y, number, names):
    out = io.StringIO()
    d = x.shape[1]
    out.write(','.join((names or [f'x{j + 1}' for j in range(d)]) + ['label']) + '\n')
    for row, label in zip(x, y):
        out.write(','.join(number % v for v in row) + f',{label}\n')
    return out.getvalue()


def write_csv_sets(sets, out, check, summary):
    """Builds each (name, build, column names) set as CSV under `out`, or with `check` compares it with the
    committed file; exits 1 when a checked file differs. summary(x, y) says what was written."""
    failed = False
    for name, build, names in sets:
        x, y, number = build()
        text = as_csv(x, y, number, names)
        path = os.path.join(out, name + '.csv')
        if check:
            with open(path) as f:
                same = f.read() == text
            print(f'{name}: {"same" if same else "DIFFERENT"}')
            failed |= not same
        else:
            with open(path, 'w') as f:
                f.write(text)
            print(f'{name}: {x.shape[0]} rows, {x.shape[1]} features, {summary(x, y)} -> {path}')
    sys.exit(1 if failed else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true', help='compare a fresh build with the committed files')
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    write_csv_sets((('synthetic2d', synthetic2d, None), ('spam11', spam, SPAM_COLUMNS), ('digits38', digits38, None)),
                   OUT, args.check, lambda x, y: f'{int(y.sum())} labelled 1')


if __name__ == '__main__':
    main()
