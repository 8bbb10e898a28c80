#!/usr/bin/env python3
"""How tight are the probe's certified bounds? (README, "Certified bounds of the probe").

On the digits demo embeddings (64-d, web/public/demo/digits/): a probe on 40 train images for the
concept `even`, 20 test images as queries. For each set (L-inf box or L2 ball, all 64 coordinates or
3 of them with branch and bound, several radii) it runs `gpprobe probe --certify-gamma ...`, then scores
10,000 queries sampled in each query's set with the same command and compares the certified width of
the judged probability and of the latent variance with the range actually seen (the samples and the
witnesses the certifier found). The time per query comes from certifying 200 other test images
(minus the same command without certification). Prints a markdown table. Standard library only.

    python3 scripts/bench/measure_certify_tightness.py [--gpprobe build/native/gpprobe] [--queries 20]
"""
import argparse
import array
import csv
import io
import math
import os
import random
import statistics
import struct
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGITS = os.path.join(ROOT, "web", "public", "demo", "digits")


def read_npy_float32(path):
    with open(path, "rb") as f:
        assert f.read(6) == b"\x93NUMPY"
        major = f.read(2)[0]
        header_len = struct.unpack("<H" if major == 1 else "<I", f.read(2 if major == 1 else 4))[0]
        header = f.read(header_len).decode()
        assert "'<f4'" in header and "False" in header
        shape = tuple(int(x) for x in header.split("(")[1].split(")")[0].split(",") if x.strip())
        data = array.array("f")
        data.frombytes(f.read())
    n, d = shape
    return [list(data[i * d:(i + 1) * d]) for i in range(n)]


def write_npy_float64(path, rows):
    d = len(rows[0])
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), d)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(array.array("d", [x for r in rows for x in r]).tobytes())


def run_probe(gpprobe, files, queries_path, flags=()):
    start = time.perf_counter()
    out = subprocess.run([gpprobe, "probe", "--observations", files["obs"], "--labels", files["labels"],
                          "--queries", queries_path, *flags], check=True, capture_output=True, text=True).stdout
    return list(csv.DictReader(io.StringIO(out))), time.perf_counter() - start


def sample_set(rng, centre, dims, norm, gamma, n):
    """n points of the set: interior, corners / sphere, and face mixtures."""
    points = []
    for i in range(n):
        a = list(centre)
        if norm == "inf":
            for j in dims:
                u = rng.uniform(-1, 1)
                kind = i % 3
                o = u if kind == 0 else (1 if u > 0 else -1) if kind == 1 else (2 * u if abs(u) < 0.5 else math.copysign(1, u))
                a[j] += gamma * o
        else:
            g = [rng.gauss(0, 1) for _ in dims]
            s = math.sqrt(sum(x * x for x in g))
            r = gamma if i % 2 else gamma * rng.random() ** (1 / len(dims))
            for j, x in zip(dims, g):
                a[j] += r * x / s
        points.append(a)
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gpprobe", default=os.path.join(ROOT, "build", "native", "gpprobe"))
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--samples", type=int, default=10000)
    args = parser.parse_args()

    embeddings = read_npy_float32(os.path.join(DIGITS, "embeddings.npy"))
    with open(os.path.join(DIGITS, "metadata.csv")) as f:
        meta = list(csv.DictReader(f))
    rng = random.Random(7)
    train = [int(m["index"]) for m in meta if m["split"] == "train"]
    test = [int(m["index"]) for m in meta if m["split"] == "test"]
    observed = rng.sample(train, 40)
    queried = rng.sample(test, args.queries)
    # Three coordinates that vary across the data (ReLU units that are rarely zero).
    active = sorted(range(64), key=lambda j: -sum(1 for i in train if embeddings[i][j] > 0))[:12]
    few = sorted(rng.sample(active, 3))

    tmp = tempfile.mkdtemp(prefix="certify_tightness_")
    files = {"obs": os.path.join(tmp, "obs.npy"), "labels": os.path.join(tmp, "labels.txt"),
             "queries": os.path.join(tmp, "queries.npy")}
    write_npy_float64(files["obs"], [embeddings[i] for i in observed])
    with open(files["labels"], "w") as f:
        f.write("".join(meta[i]["even"] + "\n" for i in observed))
    write_npy_float64(files["queries"], [embeddings[i] for i in queried])
    timed = dict(files, queries=os.path.join(tmp, "timed.npy"))
    timed_rows = [embeddings[i] for i in rng.sample(test, 200)]
    write_npy_float64(timed["queries"], timed_rows)
    _, plain_seconds = run_probe(args.gpprobe, timed, timed["queries"])

    settings = [("inf", None, g) for g in (0.05, 0.2, 0.5)] + [("2", None, g) for g in (0.5, 2.0, 5.0)]
    settings += [("inf", few, g) for g in (0.5, 2.0, 5.0)] + [("2", few, g) for g in (0.5, 2.0, 5.0)]
    print("| set | gamma | judged width: certified / seen (median) | ratio | variance width: certified / seen "
          "| ratio | can flip yes/no/unknown | B&B splits (median) | ms per query |")
    print("|---|---|---|---|---|---|---|---|---|")
    for norm, dims, gamma in settings:
        flags = ["--certify-gamma", str(gamma), "--norm", norm]
        if dims:
            flags += ["--certify-dims", ",".join(map(str, dims)), "--tolerance", "0.001"]
        rows, _ = run_probe(args.gpprobe, files, files["queries"], flags)
        _, seconds = run_probe(args.gpprobe, timed, timed["queries"], flags)
        moving = dims or list(range(64))
        judged_ratio, variance_ratio, judged_w, judged_seen, var_w, var_seen, splits = [], [], [], [], [], [], []
        flips = {"yes": 0, "no": 0, "unknown": 0}
        for q, row in zip(queried, rows):
            points = sample_set(rng, embeddings[q], moving, norm, gamma, args.samples)
            sample_path = os.path.join(tmp, "samples.npy")
            write_npy_float64(sample_path, points)
            scored, _ = run_probe(args.gpprobe, files, sample_path)
            p = [float(s["judged_probability"]) for s in scored]
            v = [float(s["latent_variance"]) for s in scored]
            low = min(min(p), float(row["judged_probability_lowest_found"]))
            high = max(max(p), float(row["judged_probability_highest_found"]))
            width = float(row["judged_probability_upper"]) - float(row["judged_probability_lower"])
            assert float(row["judged_probability_lower"]) <= low and high <= float(row["judged_probability_upper"])
            v_width = float(row["latent_variance_upper"]) - float(row["latent_variance_lower"])
            assert float(row["latent_variance_lower"]) <= min(v) and max(v) <= float(row["latent_variance_upper"])
            judged_w.append(width), judged_seen.append(high - low), judged_ratio.append(width / (high - low))
            var_w.append(v_width), var_seen.append(max(v) - min(v)), variance_ratio.append(v_width / (max(v) - min(v)))
            flips[row["verdict_can_flip"]] += 1
            splits.append(int(row["certify_iterations"]))
        name = ("L-inf box" if norm == "inf" else "L2 ball") + (", 64 coords" if not dims else ", 3 coords + B&B")
        med = statistics.median
        print(f"| {name} | {gamma:g} | {med(judged_w):.3g} / {med(judged_seen):.3g} | {med(judged_ratio):.2f} "
              f"| {med(var_w):.3g} / {med(var_seen):.3g} | {med(variance_ratio):.1f} "
              f"| {flips['yes']}/{flips['no']}/{flips['unknown']} | {med(splits):g} "
              f"| {1000 * max(0.0, seconds - plain_seconds) / len(timed_rows):.2f} |", flush=True)


if __name__ == "__main__":
    main()
