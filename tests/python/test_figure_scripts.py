"""The figure scripts of docs/robustness.md (docs/figures/figure4_svg.py, figure6_svg.py) against numpy: the numbers
they draw and print (box-plot quartiles, the Laplace/EP ratios of medians and means, the unit-scale vectors) are
recomputed here with numpy's own median, mean, percentile and norm on a CSV of the CLI's columns written by this
test, and the SVG must parse as XML. The scripts use Python's standard library only, so numpy is an independent
reference."""

import csv
import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np

FIGURES = Path(__file__).resolve().parents[2] / "docs" / "figures"


def run_script(name, *args):
    done = subprocess.run([sys.executable, str(FIGURES / name), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ElementTree.fromstring(done.stdout)
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_figure4_boxes_and_ratios_match_numpy(tmp_path):
    rng = np.random.default_rng(7)
    path = tmp_path / "fig4.csv"
    data = {}
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "epochs", "point", "probability", "delta_lower", "delta_upper", "status",
                    "log_marginal_likelihood", "evaluations"])
        for epochs in (10, 40):
            for method, scale in (("laplace", 0.2), ("ep", 0.01)):
                # 13 points: an odd count (the median is one value) with spread over orders of magnitude.
                lower = scale * np.exp(rng.normal(0.0, 1.5, 13))
                upper = lower + rng.uniform(0.0, 0.2, 13) * lower
                data[(epochs, method)] = (lower, upper)
                for p in range(13):
                    w.writerow([method, epochs, p, 0.5, repr(float(lower[p])), repr(float(upper[p])), "converged",
                                -1.0, epochs])
    summary = run_script("figure4_svg.py", path, "test")
    for epochs in (10, 40):
        got = summary[str(epochs)]
        (ll, lu), (el, eu) = data[(epochs, "laplace")], data[(epochs, "ep")]
        np.testing.assert_allclose(got["laplace_over_ep_median"],
                                   [np.median(ll) / np.median(eu), np.median(lu) / np.median(el)], rtol=1e-12)
        np.testing.assert_allclose(got["laplace_over_ep_mean"],
                                   [np.mean(ll) / np.mean(eu), np.mean(lu) / np.mean(el)], rtol=1e-12)
        for method, (lo, hi) in (("laplace", (ll, lu)), ("ep", (el, eu))):
            mid = 0.5 * (lo + hi)
            want = [mid.min(), *np.percentile(mid, [25, 50, 75]), mid.max()]
            np.testing.assert_allclose(got[f"{method}_box"], want, rtol=1e-12)
        assert got["points"] == 13


def test_figure4_median_of_an_even_count_is_the_mean_of_the_middle_two(tmp_path):
    path = tmp_path / "fig4.csv"
    with open(path, "w") as f:
        f.write("method,epochs,point,probability,delta_lower,delta_upper,status,log_marginal_likelihood,evaluations\n")
        for p, (a, b) in enumerate([(0.1, 0.1), (0.4, 0.4), (0.2, 0.2), (0.8, 0.8)]):
            f.write(f"laplace,10,{p},0.5,{a},{b},converged,-1,10\n")
        for p, v in enumerate([0.01, 0.02, 0.03, 0.06]):
            f.write(f"ep,10,{p},0.5,{v},{v},converged,-1,10\n")
    got = run_script("figure4_svg.py", path, "even")["10"]
    # Hand values: Laplace's median (0.2 + 0.4) / 2 = 0.3, mean 1.5 / 4 = 0.375; EP's 0.025 and 0.03.
    np.testing.assert_allclose(got["laplace_over_ep_median"], [12.0, 12.0], rtol=1e-12)
    np.testing.assert_allclose(got["laplace_over_ep_mean"], [12.5, 12.5], rtol=1e-12)
    np.testing.assert_allclose(got["laplace_box"], [0.1, 0.175, 0.3, 0.5, 0.8], rtol=1e-12)


def write_figure6(path, gammas, delta, lime, slope, width):
    with open(path, "w") as f:
        f.write("feature,gamma,delta_lower,delta,delta_upper,lime,lime_slope\n")
        for g, d in zip(gammas, delta):
            for j in range(len(d)):
                f.write(f"{j},{g},{d[j] - width[j]!r},{d[j]!r},{d[j] + width[j]!r},{lime[j]!r},{slope[j]!r}\n")


def test_figure6_unit_vectors_match_numpy(tmp_path):
    rng = np.random.default_rng(3)
    for features in (2, 11):  # the arrow panel and the bar panel
        gammas = ["0.02", "0.10000000000000001", "2"]  # as the CLI writes them (17 significant digits)
        keys = ["0.02", "0.1", "2"]
        delta = rng.normal(0.0, 0.05, (3, features))
        lime, slope, width = rng.normal(0, 0.1, features), rng.normal(0, 0.3, features), rng.uniform(0, 0.01, features)
        path = tmp_path / f"fig6_{features}.csv"
        write_figure6(path, gammas, delta, lime, slope, width)
        names = [f"f{j}" for j in range(features)]
        got = run_script("figure6_svg.py", path, "test", ",".join(names))
        assert got["names"] == names
        assert sorted(got["delta"]) == sorted(keys)
        for g, d in zip(keys, delta):
            n = np.linalg.norm(d)
            np.testing.assert_allclose(got["delta"][g]["length"], n, rtol=1e-12)
            np.testing.assert_allclose(got["delta"][g]["unit"], d / n, rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(got["delta"][g]["unit_lower"], (d - width) / n, rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(got["delta"][g]["unit_upper"], (d + width) / n, rtol=1e-12, atol=1e-15)
        for key, v in (("lime", lime), ("lime_slope", slope)):
            np.testing.assert_allclose(got[key]["unit"], v / np.linalg.norm(v), rtol=1e-12, atol=1e-15)


def test_figure6_hand_values():
    # A 3-4-5 triangle: Delta = (-0.003, 0.004) has length 0.005 and unit (-0.6, 0.8).
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fig6.csv"
        write_figure6(path, ["0.1"], [[-0.003, 0.004]], [0.5, 1.2], [3.0, -4.0], [0.001, 0.0])
        got = run_script("figure6_svg.py", path, "hand")
    np.testing.assert_allclose(got["delta"]["0.1"]["unit"], [-0.6, 0.8], rtol=1e-12)
    np.testing.assert_allclose(got["delta"]["0.1"]["unit_lower"], [-0.8, 0.8], rtol=1e-12)
    np.testing.assert_allclose(got["lime"]["unit"], [5 / 13, 12 / 13], rtol=1e-12)
    np.testing.assert_allclose(got["lime_slope"]["unit"], [0.6, -0.8], rtol=1e-12)
    assert got["names"] == ["x1", "x2"]
