#!/usr/bin/python3
"""Builds the multi-layer demo web/public/demo/digits_layers/: the same 1,797 handwritten digits as
web/public/demo/digits/, seen by every layer of the same trained network (scripts/data/make_digits_dataset.py:
the same split, seeds and MLPClassifier), for the Compare lab and `gpprobe compare`:

  layer_0_pixels.npy   1797 x 64   the input: pixels scaled to [0, 1]
  layer_1_hidden.npy   1797 x 128  relu(x W1 + b1)
  layer_2_hidden.npy   1797 x 64   relu(h1 W2 + b2)  (equal to digits/embeddings.npy, checked)
  layer_3_logits.npy   1797 x 10   h2 W3 + b3, the network's logits
  ood_layer_*.npy      512 x ...   the same layers for the demo's 512 uniform-noise images
  metadata.csv         the demo's metadata (index,digit,even,closed_loop,ge5,split), row i = image i

All float32 (about 2.4 MB together). Run with Debian's Python (numpy, scikit-learn 1.2):
/usr/bin/python3 scripts/data/make_digits_layers.py [--check]"""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one thread: floating-point sums in a fixed order

import argparse
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_digits_dataset as demo  # noqa: E402  (the network, split and seeds of the single-layer demo)
from demo_files import npy_bytes, write_or_check  # noqa: E402

OUT = os.path.join(demo.ROOT, "web", "public", "demo", "digits_layers")
NAMES = ("layer_0_pixels", "layer_1_hidden", "layer_2_hidden", "layer_3_logits")


def layers(net, x):
    """The input, each hidden layer and the logits, as float32."""
    out = [x]
    a = x
    for k, (w, b) in enumerate(zip(net.coefs_, net.intercepts_)):
        a = a @ w + b
        if k < len(net.coefs_) - 1:
            a = np.maximum(a, 0.0)
        out.append(a)
    return [layer.astype(np.float32) for layer in out]


def build():
    x, _, _, net, noise = demo.trained()
    files = {}
    for name, layer, ood in zip(NAMES, layers(net, x), layers(net, noise)):
        files[name + ".npy"] = npy_bytes(layer)
        files["ood_" + name + ".npy"] = npy_bytes(ood)
    single = os.path.join(demo.OUT, "embeddings.npy")
    if os.path.exists(single) and open(single, "rb").read() != files["layer_2_hidden.npy"]:
        sys.exit("layer_2_hidden differs from digits/embeddings.npy: not the demo's network")
    files["metadata.csv"] = open(os.path.join(demo.OUT, "metadata.csv"), "rb").read()
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    files = build()
    write_or_check(files, OUT, demo.ROOT, args.check)


if __name__ == "__main__":
    main()
