"""gpprobe.Probe and gpprobe.loo against the independent references and the CLI.

- tests/reference/gpp_golden.json (accurate quadrature by independent code): every case in both posterior
  spaces to 1e-8, the tolerance the core's own golden test holds (tests/core/probe/golden_test.cpp), and
  float32 inputs to 1e-6 as there.
- `gpprobe probe` / `gpprobe loo` / `--certify-gamma` on the same inputs (npy files written here): every
  column to 1e-12 (the same core; the CLI prints 17 significant digits).
- the probe file fixtures of tests/reference/probe_file (written by numpy, not by our code) through
  Probe.load and `gpprobe probe --probe`, and save() read back by the CLI.
"""

import json
import pickle

import numpy as np
import pytest

import gpprobe
from conftest import REFERENCE, read_csv

MEASURES = list(gpprobe.MEASURES)
GOLDEN_KEYS = {"judged_probability": "judged", "episteme": "episteme", "alea": "alea", "latent_mean": "mean",
               "latent_variance": "var"}


def case_arrays(case):
    queries = np.array(case["queries"], dtype=np.float64)
    observations = np.array(case["observations"], dtype=np.float64).reshape(-1, queries.shape[1])
    labels = np.array(case["labels"], dtype=np.uint8)
    return observations, labels, queries


def assert_close(actual, expected, tolerance, what):
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, what
    worst = np.max(np.abs(actual - expected)) if actual.size else 0.0
    assert worst <= tolerance, f"{what}: largest difference {worst:.3g} > {tolerance:g}"


@pytest.mark.parametrize("space", ["function", "weight"])
def test_every_golden_case_in_both_spaces(gpp_golden, space):
    assert len(gpp_golden) == 8
    for case in gpp_golden:
        x, y, q = case_arrays(case)
        probe = gpprobe.Probe(x, y, epsilon=case["epsilon"], strength=case["strength"], space=space)
        scores = probe.score(q)
        assert set(scores) == set(MEASURES)
        for measure, key in GOLDEN_KEYS.items():
            assert_close(scores[measure], case["expected"][key], 1e-8, f"{case['name']} {space} {measure}")
        two_v = 2 * np.log(1 / case["epsilon"] + 1)
        variance = np.array(case["expected"]["var"])
        assert_close(scores["knowledge"], 1 - variance / two_v, 1e-8, f"{case['name']} knowledge")
        assert_close(scores["ood_score"], -variance, 1e-8, f"{case['name']} ood_score")


def test_float32_inputs_reproduce_the_golden_cases(gpp_golden):
    for case in gpp_golden:
        x, y, q = case_arrays(case)
        probe = gpprobe.Probe(x.astype(np.float32), y, epsilon=case["epsilon"], strength=case["strength"])
        scores = probe.score(q.astype(np.float32))
        for measure, key in GOLDEN_KEYS.items():
            assert_close(scores[measure], case["expected"][key], 1e-6, f"{case['name']} float32 {measure}")


@pytest.mark.parametrize("space", ["function", "weight"])
def test_scores_equal_the_cli(gpp_golden, cli, tmp_path, space):
    for i, case in enumerate(gpp_golden):
        x, y, q = case_arrays(case)
        files = {name: tmp_path / f"{i}_{name}.npy" for name in ("observations", "labels", "queries")}
        for name, values in zip(files, (x, y, q)):
            np.save(files[name], values)
        out = cli("probe", "--observations", files["observations"], "--labels", files["labels"], "--queries",
                  files["queries"], "--epsilon", repr(case["epsilon"]), "--strength", repr(case["strength"]),
                  "--space", space)
        header, columns = read_csv(out.stdout)
        assert header == ["query"] + MEASURES
        scores = gpprobe.Probe(x, y, epsilon=case["epsilon"], strength=case["strength"], space=space).score(q)
        for measure in MEASURES:
            assert_close(scores[measure], columns[measure], 1e-12, f"{case['name']} {space} {measure} vs CLI")


@pytest.mark.parametrize("fixture, golden_name, tolerance", [
    ("random_o40_d16.float64.probe.json", "random O=40 d=16", 1e-8),
    ("random_o30_d64.float32.probe.json", "random O=30 d=64", 4.5e-7),
])
def test_probe_files_load_as_the_cli_reads_them(gpp_golden, cli, tmp_path, fixture, golden_name, tolerance):
    path = REFERENCE / "probe_file" / fixture
    case = next(c for c in gpp_golden if c["name"] == golden_name)
    _, _, q = case_arrays(case)
    np.save(tmp_path / "q.npy", q)
    probe = gpprobe.Probe.load(path)
    stored = json.loads(path.read_text())
    assert (probe.epsilon, probe.strength, probe.space) == (stored["epsilon"], stored["strength"], stored["space"])
    assert probe.observations.dtype == (np.float32 if "float32" in fixture else np.float64)
    scores = probe.score(q)
    _, columns = read_csv(cli("probe", "--probe", path, "--queries", tmp_path / "q.npy").stdout)
    for measure in MEASURES:
        assert_close(scores[measure], columns[measure], 1e-12, f"{fixture} {measure} vs CLI")
    for measure, key in GOLDEN_KEYS.items():
        assert_close(scores[measure], case["expected"][key], tolerance, f"{fixture} {measure} vs golden")
    from_bytes = gpprobe.Probe.from_file_bytes(path.read_bytes(), name=fixture)
    for measure in MEASURES:
        assert np.array_equal(from_bytes.score(q)[measure], scores[measure]), measure
    with pytest.raises(gpprobe.Error, match=f"^{fixture}: not JSON$"):
        gpprobe.Probe.from_file_bytes(path.read_bytes()[:100], name=fixture)
    other = "function" if probe.space == "weight" else "weight"
    overridden = gpprobe.Probe.load(path, space=other)
    assert overridden.space == other
    _, columns = read_csv(cli("probe", "--probe", path, "--queries", tmp_path / "q.npy", "--space", other).stdout)
    for measure in MEASURES:
        assert_close(overridden.score(q)[measure], columns[measure], 1e-12, f"{fixture} --space {other} {measure}")


def test_save_writes_a_file_the_cli_reads_back(tmp_path, cli):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((25, 12)).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.uint8)
    q = rng.standard_normal((50, 12))
    probe = gpprobe.Probe(x, y, epsilon=0.25, strength=3.0)
    probe.save(tmp_path / "p.probe.json", observation_rows=list(range(100, 125)),
               data={"name": "random", "rows": 200, "cols": 12, "dtype": "float32"})
    stored = json.loads((tmp_path / "p.probe.json").read_text())
    assert stored["format"] == "gpprobe-probe" and stored["version"] == 1
    assert (stored["epsilon"], stored["strength"], stored["space"]) == (0.25, 3.0, probe.space)
    o = stored["observations"]
    assert (o["rows"], o["cols"], o["dtype"]) == (25, 12, "float32")
    import base64
    np.testing.assert_array_equal(np.frombuffer(base64.b64decode(o["data"]), dtype="<f4").reshape(25, 12), x)
    assert stored["labels"] == y.tolist()
    assert stored["observation_rows"] == list(range(100, 125))
    np.save(tmp_path / "q.npy", q)
    _, columns = read_csv(cli("probe", "--probe", tmp_path / "p.probe.json", "--queries", tmp_path / "q.npy").stdout)
    scores = probe.score(q)
    for measure in MEASURES:
        assert_close(scores[measure], columns[measure], 1e-12, f"saved probe {measure} vs CLI")


def test_a_fixture_saved_again_keeps_every_field_a_fit_needs(tmp_path):
    for fixture in ("random_o40_d16.float64.probe.json", "random_o30_d64.float32.probe.json"):
        original = json.loads((REFERENCE / "probe_file" / fixture).read_text())
        gpprobe.Probe.load(REFERENCE / "probe_file" / fixture).save(tmp_path / fixture)
        saved = json.loads((tmp_path / fixture).read_text())
        for key in ("format", "version", "epsilon", "strength", "space", "observations", "labels"):
            assert saved[key] == original[key], f"{fixture}: {key}"


@pytest.mark.parametrize("value, text", [
    (5.0, "5"), (0.1, "0.1"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (1.5e-6, "0.0000015"), (123.456, "123.456"),
    (1e16, "10000000000000000"), (1e21, "1e+21"), (1.25e22, "1.25e+22"), (-0.5, "-0.5"), (0.0, "0"), (-0.0, "0"),
    (100.0, "100"), (2 ** 53, "9007199254740992"), (1 / 3, "0.3333333333333333"), (float("nan"), "null"),
])
def test_numbers_are_spelled_as_javascript_spells_them(value, text):
    # The values of ECMA-262's Number::toString, as JSON.stringify writes them in the app's export.
    from gpprobe.probe_file import js_number
    assert js_number(value) == text


def test_certify_equals_the_cli(gpp_golden, cli, tmp_path):
    case = next(c for c in gpp_golden if c["name"] == "random O=12 d=5")
    x, y, q = case_arrays(case)
    for name, values in (("o", x), ("l", y), ("q", q)):
        np.save(tmp_path / f"{name}.npy", values)
    probe = gpprobe.Probe(x, y, epsilon=case["epsilon"], strength=case["strength"], expected_queries=len(q))
    base = ["probe", "--observations", tmp_path / "o.npy", "--labels", tmp_path / "l.npy", "--queries",
            tmp_path / "q.npy", "--epsilon", repr(case["epsilon"]), "--strength", repr(case["strength"])]
    for flags, kwargs in (
        (["--certify-gamma", "0.05"], {}),
        (["--certify-gamma", "0.2", "--norm", "2"], {"norm": "2"}),
        (["--certify-gamma", "0.1", "--certify-dims", "0,2", "--tolerance", "0.001"], {"dims": [0, 2], "tolerance": 0.001}),
    ):
        _, columns = read_csv(cli(*base, *flags).stdout)
        certified = probe.certify(q, float(flags[1]), **kwargs)
        for name in gpprobe.CERTIFY_COLUMNS:
            assert_close(certified[name], columns[name], 1e-12, f"{flags} {name}")
        for name in ("verdict_can_flip", "certify_status"):
            assert certified[name].tolist() == columns[name].tolist(), f"{flags} {name}"
        assert certified["certify_iterations"].tolist() == columns["certify_iterations"].astype(int).tolist()
        if "dims" in kwargs:
            # Witnesses lie in the set and attain the reported judged probabilities.
            for side, found in (("lowest_witness", "judged_probability_lowest_found"),
                                ("highest_witness", "judged_probability_highest_found")):
                w = certified[side]
                assert w.shape == q.shape
                assert np.all(np.abs(w - q) <= 0.1 + 1e-12)
                assert np.array_equal(w[:, [1, 3, 4]], q[:, [1, 3, 4]])
                assert_close(probe.score(w)["judged_probability"], certified[found], 1e-12, side)


def _normal_quantile_995() -> float:
    try:
        from scipy.stats import norm
    except ImportError:
        return 2.5758293035489004  # scipy.stats.norm.ppf(0.995)
    return float(norm.ppf(0.995))


Z_99 = _normal_quantile_995()


def test_loo_equals_the_cli(gpp_golden, cli, tmp_path):
    for case in gpp_golden:
        x, y, _ = case_arrays(case)
        if len(y) < 2:
            continue
        np.save(tmp_path / "o.npy", x)
        np.save(tmp_path / "l.npy", y)
        for space in ("function", "weight"):
            out = cli("loo", "--observations", tmp_path / "o.npy", "--labels", tmp_path / "l.npy", "--epsilon",
                      repr(case["epsilon"]), "--strength", repr(case["strength"]), "--space", space)
            _, columns = read_csv(out.stdout)
            summary = json.loads(out.stderr)
            r = gpprobe.loo(x, y, epsilon=case["epsilon"], strength=case["strength"], space=space)
            for key in ("judged_probability", "latent_mean", "latent_variance"):
                assert_close(r[key], columns[key], 1e-12, f"{case['name']} {space} loo {key}")
            assert r["verdict"] == summary["verdict"]
            assert (r["positives"], r["negatives"]) == (summary["positives"], summary["negatives"])
            for key in ("auroc", "auroc_standard_error", "log_loss", "log_loss_standard_error", "confidence",
                        "auroc_lower", "auroc_upper", "auroc_delong_lower", "auroc_delong_upper", "log_loss_lower",
                        "log_loss_upper"):
                if summary[key] is None:
                    assert np.isnan(r[key]), f"{case['name']} {space} {key}"
                else:
                    assert abs(r[key] - summary[key]) <= 1e-12, f"{case['name']} {space} {key}"
            # DeLong's AUROC interval and the log loss's are value -/+ z SE at the 99 % level, z from the normal's
            # quantile, not the core; the honest AUROC interval holds DeLong's clipped to [0, 1].
            assert r["confidence"] == 0.99
            for value, lower, upper in (("auroc", "auroc_delong_lower", "auroc_delong_upper"),
                                        ("log_loss", "log_loss_lower", "log_loss_upper")):
                se = r[f"{value}_standard_error"]
                if np.isnan(r[value]) or np.isnan(se):
                    assert np.isnan(r[lower]) and np.isnan(r[upper]), f"{case['name']} {space} {value}"
                    continue
                assert abs(r[lower] - (r[value] - Z_99 * se)) <= 1e-12, f"{case['name']} {space} {lower}"
                assert abs(r[upper] - (r[value] + Z_99 * se)) <= 1e-12, f"{case['name']} {space} {upper}"
            if not np.isnan(r["auroc_delong_lower"]):
                assert r["auroc_lower"] <= max(0.0, r["auroc_delong_lower"]) + 1e-15
                assert r["auroc_upper"] >= min(1.0, r["auroc_delong_upper"]) - 1e-15
                assert 0.0 <= r["auroc_lower"] <= r["auroc_upper"] <= 1.0
            probe = gpprobe.Probe(x, y, epsilon=case["epsilon"], strength=case["strength"])
            assert gpprobe.loo(probe, space=space)["verdict"] == summary["verdict"]


def _perfectly_ranked(positives, negatives):
    rng = np.random.default_rng(21)
    y = np.array([1] * positives + [0] * negatives, dtype=np.uint8)
    x = 0.3 * rng.standard_normal((len(y), 6))
    x[:, 0] += np.where(y == 1, 2.0, -2.0)
    return x, y


def _reference_perfect_lower(positives, negatives):
    # Newcombe's score interval at AUROC 1 by scipy's root finder (scripts/fixtures/reference_compare_draws.py).
    with open(REFERENCE / "compare" / "draws.json") as f:
        cases = json.load(f)["score_intervals"]
    return next(c["lower"] for c in cases
                if c["auroc"] == 1.0 and (c["positives"], c["negatives"]) == (positives, negatives))


def test_loo_judges_a_perfect_ranking_by_the_honest_interval():
    # Issue 34: 8 + 8 ranked perfectly read "AUROC 1.00 +/- 0.00" (DeLong's standard error is 0 at AUROC 1).
    r = gpprobe.loo(*_perfectly_ranked(8, 8))
    assert (r["auroc"], r["auroc_standard_error"]) == (1.0, 0.0)
    assert (r["auroc_delong_lower"], r["auroc_delong_upper"]) == (1.0, 1.0)
    assert abs(r["auroc_lower"] - _reference_perfect_lower(8, 8)) <= 1e-10
    assert r["auroc_upper"] == 1.0
    assert r["verdict"] == "separates"
    # 3 + 5: DeLong's interval 1-1 said "separates"; the honest one (0.43-1) reaches 1/2: too few.
    r = gpprobe.loo(*_perfectly_ranked(3, 5))
    assert r["auroc"] == 1.0 and r["auroc_delong_lower"] > 0.5
    assert abs(r["auroc_lower"] - _reference_perfect_lower(3, 5)) <= 1e-10
    assert r["verdict"] == "too_few"


def test_a_pickled_probe_scores_with_the_same_bits():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((30, 20))
    y = (x[:, 0] > 0).astype(int)
    q = rng.standard_normal((700, 20)).astype(np.float32)
    probe = gpprobe.Probe(x, y, epsilon=0.2)
    again = pickle.loads(pickle.dumps(probe))
    assert (again.space, again.epsilon, again.dimension) == (probe.space, probe.epsilon, probe.dimension)
    a, b = probe.score(q), again.score(q)
    for measure in MEASURES:
        assert np.array_equal(a[measure], b[measure]), measure


APP_WRITER = """
import {{ createRequire }} from 'node:module';
import {{ readFileSync, writeFileSync }} from 'node:fs';
const require = createRequire({typescript!r});
const ts = require('typescript');
const out = {out!r};
for (const [source, target] of [[{errors!r}, 'errors.mjs'], [{probe_file!r}, 'probe_file.mjs']]) {{
  const js = ts.transpileModule(readFileSync(source, 'utf8'), {{
    compilerOptions: {{ module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }},
  }}).outputText.replace("'../errors.ts'", "'./errors.mjs'");
  writeFileSync(out + '/' + target, js);
}}
const {{ probeFileBytes }} = await import(out + '/probe_file.mjs');
const input = JSON.parse(readFileSync(out + '/input.json', 'utf8'));
const bytes = Buffer.from(input.data, 'base64');
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
const data = input.dtype === 'float32' ? new Float32Array(buffer) : new Float64Array(buffer);
writeFileSync(out + '/app.probe.json', probeFileBytes({{
  epsilon: input.epsilon, strength: input.strength, space: input.space,
  observations: {{ data, rows: input.rows, cols: input.cols }}, labels: Uint8Array.from(input.labels),
  observationRows: input.observation_rows, data: input.provenance,
}}));
"""


@pytest.mark.parametrize("dtype, epsilon, strength", [(np.float32, 0.1, 5.0), (np.float64, 1e-7, 100.0), (np.float64, 2.5, 0.3)])
def test_save_writes_the_bytes_the_apps_export_writes(tmp_path, dtype, epsilon, strength):
    # The app's own writer (web/src/engine/probe/probe_file.ts, transpiled by the repository's TypeScript)
    # run by Node on the same probe: the files are equal byte for byte.
    import base64
    import shutil
    import subprocess
    from conftest import ROOT

    typescript = ROOT / "node_modules" / "typescript" / "package.json"
    node = shutil.which("node")
    if not typescript.exists() or node is None:
        pytest.skip("the app's writer needs node and node_modules/typescript (npm ci, as scripts/make/setup.sh runs)")
    rng = np.random.default_rng(12)
    x = (rng.standard_normal((9, 5)) * 10.0 ** rng.integers(-8, 8, (9, 5))).astype(dtype)
    y = rng.integers(0, 2, 9).astype(np.uint8)
    probe = gpprobe.Probe(x, y, epsilon=epsilon, strength=strength)
    provenance = {"name": "shard 7", "rows": 1797, "cols": 5, "dtype": np.dtype(dtype).name, "sha256": "ab" * 32}
    rows = [int(r) for r in rng.integers(0, 1797, 9)]
    (tmp_path / "input.json").write_text(json.dumps({
        "epsilon": probe.epsilon, "strength": probe.strength, "space": probe.space, "rows": 9, "cols": 5,
        "dtype": np.dtype(dtype).name, "data": base64.b64encode(x.astype(x.dtype.newbyteorder("<")).tobytes()).decode(),
        "labels": y.tolist(), "observation_rows": rows, "provenance": provenance,
    }))
    script = tmp_path / "write.mjs"
    script.write_text(APP_WRITER.format(
        typescript=str(typescript), out=str(tmp_path),
        errors=str(ROOT / "web" / "src" / "engine" / "errors.ts"),
        probe_file=str(ROOT / "web" / "src" / "engine" / "probe" / "probe_file.ts")))
    subprocess.run([node, str(script)], check=True, capture_output=True, text=True)
    app = (tmp_path / "app.probe.json").read_bytes()
    assert probe.file_bytes(observation_rows=rows, data=provenance) == app


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_short_pass_scores_the_same_bits_after_a_long_one(cli, tmp_path, dtype):
    # Weight space keeps the triangular factor of S that a long pass (at least D/2 queries) made; a later
    # one-row pass used it too, and its latent variance moved by an ulp. Each pass now takes the path its
    # own length chooses: the one-row scores equal a fresh process's (the CLI's, printed to 17 digits).
    rng = np.random.default_rng(8)
    x = rng.standard_normal((40, 8)).astype(dtype)
    y = (rng.uniform(size=40) < 0.5).astype(np.uint8)
    probe = gpprobe.Probe(x, y)
    assert probe.space == "weight"
    queries = rng.standard_normal((3000, 8)).astype(dtype)
    one = queries[:1].copy()
    before = probe.score(one)
    probe.score(queries)
    after = probe.score(one)
    np.save(tmp_path / "o.npy", x)
    np.save(tmp_path / "l.npy", y)
    np.save(tmp_path / "q.npy", one)
    _, columns = read_csv(cli("probe", "--observations", tmp_path / "o.npy", "--labels", tmp_path / "l.npy",
                              "--queries", tmp_path / "q.npy").stdout)
    for measure in MEASURES:
        assert np.array_equal(before[measure], after[measure]), measure
        assert np.array_equal(after[measure], columns[measure]), measure


@pytest.mark.parametrize("space", ["function", "weight"])
def test_observations_added_and_removed_in_place_score_as_the_cli_fits_them(cli, tmp_path, space):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((30, 6))
    y = (x[:, 0] > 0).astype(np.uint8)
    q = rng.standard_normal((50, 6))
    probe = gpprobe.Probe(x[:20], y[:20], space=space)
    for i in range(20, 30):
        probe.add_observation(x[i], y[i])
    probe.remove_observation(3)
    keep = np.delete(np.arange(30), 3)
    assert probe.observation_count == 29 and np.array_equal(probe.observations, x[keep])
    assert probe.labels.tolist() == y[keep].tolist()
    np.save(tmp_path / "o.npy", x[keep])
    np.save(tmp_path / "l.npy", y[keep])
    np.save(tmp_path / "q.npy", q)
    _, columns = read_csv(cli("probe", "--observations", tmp_path / "o.npy", "--labels", tmp_path / "l.npy",
                              "--queries", tmp_path / "q.npy", "--space", space).stdout)
    scores = probe.score(q)
    for measure in MEASURES:  # rank-one updates against a fresh fit: rounding, relative 1e-16 x condition
        assert_close(scores[measure], columns[measure], 1e-10, f"{space} {measure}")
    probe.save(tmp_path / "p.probe.json")  # the file holds the observations now in the probe
    _, saved = read_csv(cli("probe", "--probe", tmp_path / "p.probe.json", "--queries", tmp_path / "q.npy",
                            "--space", space).stdout)
    for measure in MEASURES:
        assert np.array_equal(saved[measure], columns[measure]), measure
    with pytest.raises(gpprobe.Error, match=r"observation 29 does not exist \(29 observations\)"):
        probe.remove_observation(29)
    with pytest.raises(gpprobe.Error, match="labels must be 0 or 1"):
        probe.add_observation(x[0], 2)
    assert probe.observation_count == 29


@pytest.mark.parametrize("space", ["function", "weight"])
def test_knowledge_gain_is_the_expected_drop_of_the_variance_from_refits(space):
    # gain = [sigma^2 - p sigma'^2(1) - (1 - p) sigma'^2(0)] / 2v, with sigma'^2(y) the latent variance at the
    # query of a probe fitted afresh with that query added under label y (variances do not depend on targets).
    rng = np.random.default_rng(4)
    x = rng.standard_normal((25, 5))
    y = (x[:, 1] > 0).astype(np.uint8)
    q = rng.standard_normal((6, 5)) * np.array([[1], [1], [1], [1], [5], [0.1]])
    probe = gpprobe.Probe(x, y, space=space)
    gain = probe.knowledge_gain(q)
    s = probe.score(q)
    for i in range(len(q)):
        after = [gpprobe.Probe(np.vstack([x, q[i]]), np.append(y, label), space=space).score(q[i:i + 1])
                 ["latent_variance"][0] for label in (0, 1)]
        p = s["judged_probability"][i]
        expected = (s["latent_variance"][i] - p * after[1] - (1 - p) * after[0]) / (2 * probe.prior_variance)
        assert abs(gain[i] - expected) <= 1e-12, i
    assert np.all((gain >= 0) & (gain < 1))
