"""The multi-class classifier's certificates and explanations, LIME and the constant-feature column of every
explanation, and the MAP hyperparameter priors, from Python, against the CLI on the same data:

- `gpprobe robustness --likelihood softmax` (JSON) and `gpprobe explain [--likelihood softmax]` (CSV and its
  JSON line on stderr) equal GPClassifier.certify / .explain and Probe.explain field for field, LIME's
  column, the rank and constant_in_training included;
- `gpprobe gpc --optimize --signal-variance-prior P --length-scale-prior P` (binary and softmax) and `gpprobe
  gpr` give the hyperparameters and the log prior GPClassifier / GPRegressor(signal_variance_prior=...,
  length_scale_prior=...) give, for the CLI's spellings and the tuple form.
"""

import json

import numpy as np
import pytest

import gpprobe
from conftest import read_csv, write_csv

CLOSE = 1e-12


def close_structures(ours, theirs, path=""):
    if isinstance(theirs, dict):
        assert set(ours) <= set(theirs), (path, set(ours) - set(theirs))
        for key in ours:
            close_structures(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            close_structures(a, b, f"{path}[{i}]")
    elif isinstance(theirs, float) or isinstance(ours, float):
        assert abs(ours - theirs) <= CLOSE * max(1.0, abs(theirs)), (path, ours, theirs)
    else:
        assert ours == theirs, (path, ours, theirs)


def three_classes(seed=0, n=36):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 3))
    y = np.argmax(x + 0.3 * rng.standard_normal((n, 3)), axis=1)
    return x, y


@pytest.mark.parametrize("flags, options", [
    ([], {}),
    (["--class", "2", "--dims", "0,2", "--tolerance", "0.01"], dict(class_index=2, dims=[0, 2], tolerance=0.01)),
    (["--valid-range", "-1,1", "--max-iterations", "50"], dict(valid_range=(-1, 1), max_iterations=50)),
])
def test_softmax_certificates_equal_the_cli(cli, tmp_path, flags, options):
    x, y = three_classes()
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    point = [0.2, 0.1, -0.3]
    out = cli("robustness", "--likelihood", "softmax", "--train", train, "--length-scales", "1.3", "--point",
              ",".join(map(str, point)), "--gamma", "0.15", *flags)
    expected = json.loads(out.stdout)
    model = gpprobe.GPClassifier(likelihood="softmax", length_scales=1.3).fit(x, np.array(["ant", "bee", "cat"])[y])
    certificate = model.certify(point, 0.15, **options)
    assert set(certificate) == set(expected) - {"seconds", "model"}
    close_structures(certificate, expected)
    minimum, maximum = certificate["minimum"], certificate["maximum"]
    c = certificate["class"]
    assert minimum["lower"] <= certificate["probability_at_point"][c] <= maximum["upper"]
    assert certificate["safety"]["status"] in ("certified", "refuted", "unknown")


def test_softmax_certificate_refuses_what_the_cli_refuses(tmp_path):
    x, y = three_classes()
    model = gpprobe.GPClassifier(likelihood="softmax").fit(x, y)
    with pytest.raises(ValueError, match="class_index"):
        model.certify([0, 0, 0], 0.1, class_index=3)
    with pytest.raises(ValueError, match="search"):
        model.certify([0, 0, 0], 0.1, search="adversarial")
    with pytest.raises(ValueError, match="class_index"):
        gpprobe.GPClassifier().fit(x, y == 0).certify([0, 0, 0], 0.1, class_index=1)


COLUMNS = ("feature", "delta_lower", "delta", "delta_upper", "lime", "rank", "constant_in_training",
           "nearly_constant_in_training", "varying_rows")
SUMMARY = ("value_at_point", "gamma", "lime_intercept", "lime_score", "lime_kernel_width", "unconverged_searches")


def assert_explanation_equals_the_cli(ours, out):
    header, columns = read_csv(out.stdout)
    assert tuple(header) == COLUMNS
    summary = json.loads(out.stderr.strip().splitlines()[-1])
    assert ours["feature"].tolist() == columns["feature"].astype(int).tolist()
    for name in ("delta_lower", "delta", "delta_upper", "lime"):
        np.testing.assert_allclose(ours[name], columns[name], rtol=0, atol=CLOSE, err_msg=name)
    ranks = [int(float(r)) if r not in ("", "nan") else 0 for r in np.asarray(columns["rank"], dtype=str)]
    assert ours["rank"].tolist() == ranks
    assert ["yes" if c else "no" for c in ours["constant_in_training"]] == columns["constant_in_training"].tolist()
    assert ["yes" if c else "no" for c in ours["nearly_constant_in_training"]] == \
        columns["nearly_constant_in_training"].tolist()
    assert ours["varying_rows"].tolist() == columns["varying_rows"].astype(int).tolist()
    for name in SUMMARY:
        close_structures(ours[name], summary[name], name)
    assert ours["constant_features"] == summary["constant_in_training"]
    assert ours["nearly_constant_features"] == summary["nearly_constant_in_training"]
    assert ours["nearly_constant_share"] == summary["nearly_constant_share"]
    assert ours["constant_ranked"] == summary["constant_ranked"]
    if "class" in summary:
        assert ours["class"] == summary["class"]


def test_softmax_explanations_equal_the_cli(cli, tmp_path):
    x, y = three_classes(1)
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    point = [0.1, -0.2, 0.3]
    model = gpprobe.GPClassifier(likelihood="softmax", length_scales=1.2).fit(x, y)
    out = cli("explain", "--likelihood", "softmax", "--train", train, "--length-scales", "1.2", "--point",
              ",".join(map(str, point)), "--gamma", "0.2", "--lime-samples", "40")
    ours = model.explain(point, 0.2, lime_samples=40)
    assert_explanation_equals_the_cli(ours, out)
    out = cli("explain", "--likelihood", "softmax", "--train", train, "--length-scales", "1.2", "--point",
              ",".join(map(str, point)), "--gamma", "0.3", "--class", "1", "--dims", "2,0", "--baseline", "zero",
              "--lime-samples", "30", "--seed", "7")
    ours = model.explain(point, 0.3, class_index=1, dims=[2, 0], baseline="zero", lime_samples=30, seed=7)
    assert ours["class"] == 1
    assert_explanation_equals_the_cli(ours, out)


def with_a_constant_feature(seed=2):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((25, 4))
    x[:, 1] = 0.5  # constant in training: not ranked unless include_constant
    y = (x[:, 0] - 0.5 * x[:, 2] > 0).astype(int)
    return x, y


@pytest.mark.parametrize("include_constant", [False, True])
def test_classifier_and_probe_explanations_carry_lime_rank_and_constant_features(cli, tmp_path, include_constant):
    x, y = with_a_constant_feature()
    point = [0.1, 0.5, 0.3, 0.0]
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    extra = ["--include-constant"] if include_constant else []
    out = cli("explain", "--train", train, "--length-scales", "1.2", "--point", ",".join(map(str, point)), "--gamma",
              "0.2", "--lime-samples", "60", "--seed", "3", *extra)
    model = gpprobe.GPClassifier(length_scales=1.2).fit(x, np.array([5, 9])[y])
    ours = model.explain(point, 0.2, lime_samples=60, seed=3, include_constant=include_constant)
    assert_explanation_equals_the_cli(ours, out)
    assert ours["constant_in_training"].tolist() == [False, True, False, False]
    assert (ours["rank"][1] > 0) == include_constant

    probe = gpprobe.Probe(x, y.astype(np.uint8))
    probe.save(tmp_path / "p.probe.json")
    write_csv(tmp_path / "row.csv", np.array([point]))
    out = cli("explain", "--probe", tmp_path / "p.probe.json", "--query", tmp_path / "row.csv", "--gamma", "0.5",
              "--valid-range", "-1,1", "--lime-samples", "50", *extra)
    ours = probe.explain(point, 0.5, valid_range=(-1, 1), lime_samples=50, include_constant=include_constant)
    assert_explanation_equals_the_cli(ours, out)
    assert ours["constant_features"] == [1]


def with_a_nearly_constant_feature(seed=2):
    x, y = with_a_constant_feature(seed)
    x[:, 3] = 0.0
    x[4, 3] = 0.8  # off its most common value (0) in 1 of 25 rows: fewer than max(2, 0.02 x 25)
    x[9, 2] = x[3, 2]  # column 2 keeps 23 of 25 rows off any one value
    return x, y


@pytest.mark.parametrize("share", [None, 0.0])
def test_a_nearly_constant_feature_is_marked_with_its_count_and_not_ranked(cli, tmp_path, share):
    x, y = with_a_nearly_constant_feature()
    point = [0.1, 0.5, 0.3, 0.0]
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    extra = [] if share is None else ["--nearly-constant-share", str(share)]
    options = {} if share is None else {"nearly_constant_share": share}
    out = cli("explain", "--train", train, "--length-scales", "1.2", "--point", ",".join(map(str, point)), "--gamma",
              "0.2", "--lime-samples", "60", "--seed", "3", *extra)
    model = gpprobe.GPClassifier(length_scales=1.2).fit(x, y)
    ours = model.explain(point, 0.2, lime_samples=60, seed=3, **options)
    assert_explanation_equals_the_cli(ours, out)
    # Counted by hand: 0 rows vary in column 1 (constant), 1 in column 3, 23 in column 2, 24 in column 0.
    assert ours["varying_rows"].tolist() == [24, 0, 23, 1]
    assert ours["constant_in_training"].tolist() == [False, True, False, False]
    assert ours["nearly_constant_in_training"].tolist() == [False, False, False, share is None]
    assert ours["nearly_constant_features"] == ([3] if share is None else [])
    assert (ours["rank"][3] > 0) == (share is not None)
    assert ours["rank"][1] == 0
    with pytest.raises(ValueError, match="nearly-constant share"):
        model.explain(point, 0.2, nearly_constant_share=2.0)

    probe = gpprobe.Probe(x, y.astype(np.uint8))
    probe.save(tmp_path / "p.probe.json")
    write_csv(tmp_path / "row.csv", np.array([point]))
    out = cli("explain", "--probe", tmp_path / "p.probe.json", "--query", tmp_path / "row.csv", "--gamma", "0.5",
              "--valid-range", "-1,1", "--lime-samples", "50", *extra)
    ours = probe.explain(point, 0.5, valid_range=(-1, 1), lime_samples=50, **options)
    assert_explanation_equals_the_cli(ours, out)
    assert ours["nearly_constant_features"] == ([3] if share is None else [])


def test_explain_refuses_bad_lime_arguments():
    x, y = with_a_constant_feature()
    model = gpprobe.GPClassifier().fit(x, y)
    with pytest.raises(ValueError, match="baseline"):
        model.explain(x[0], 0.2, baseline="median")
    with pytest.raises(ValueError, match="lime_samples"):
        model.explain(x[0], 0.2, lime_samples=1)


def gpc_summary(out):
    return json.loads(out.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("signal, length, ours", [
    ("lognormal:0,1", "student-t:0,1,4", dict(signal_variance_prior="lognormal:0,1",
                                               length_scale_prior=("student-t", 0, 1, 4))),
    ("student-t:0.5,2,3", "lognormal:-0.5,0.25", dict(signal_variance_prior=("student-t", 0.5, 2, 3),
                                                      length_scale_prior="lognormal:-0.5,0.25")),
])
def test_binary_map_priors_equal_the_cli(cli, tmp_path, signal, length, ours):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((30, 3))
    x[:, 2] = 1.0  # no gradient for its length-scale: the prior pulls it towards exp(mu)
    y = (x[:, 0] + 0.4 * x[:, 1] > 0).astype(int)
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    test = write_csv(tmp_path / "q.csv", x[:3])
    out = cli("gpc", "--train", train, "--test", test, "--optimize", "--signal-variance-prior", signal,
              "--length-scale-prior", length)
    expected = gpc_summary(out)
    assert expected["signal_variance_prior"] == signal and expected["log_prior"] != 0
    model = gpprobe.GPClassifier(optimize=True, **ours).fit(x, y)
    assert abs(model.signal_variance_ - expected["signal_variance"]) <= CLOSE * expected["signal_variance"]
    np.testing.assert_allclose(model.length_scales_, expected["length_scales"], rtol=CLOSE)
    close_structures(model.log_prior_, expected["log_prior"])
    close_structures(model.log_marginal_likelihood_value_, expected["log_marginal_likelihood"])
    # Without the prior the fit is another one (the prior acts).
    plain = gpprobe.GPClassifier(optimize=True).fit(x, y)
    assert plain.log_prior_ == 0.0
    assert abs(plain.signal_variance_ - model.signal_variance_) > 1e-3 * model.signal_variance_


def test_softmax_map_priors_equal_the_cli(cli, tmp_path):
    x, y = three_classes(3, 30)
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    test = write_csv(tmp_path / "q.csv", x[:2])
    out = cli("gpc", "--likelihood", "softmax", "--train", train, "--test", test, "--optimize",
              "--signal-variance-prior", "lognormal:0,1", "--length-scale-prior", "lognormal:0,0.5")
    expected = gpc_summary(out)
    model = gpprobe.GPClassifier(likelihood="softmax", optimize=True, signal_variance_prior=("lognormal", 0, 1),
                                 length_scale_prior="lognormal:0,0.5").fit(x, y)
    np.testing.assert_allclose(model.signal_variance_, expected["signal_variances"], rtol=CLOSE)
    np.testing.assert_allclose(model.length_scales_, expected["length_scales"], rtol=CLOSE)
    close_structures(model.log_prior_, expected["log_prior"])


def test_regression_map_priors_equal_the_cli(cli, tmp_path):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((25, 2))
    t = np.sin(x[:, 0]) + 0.1 * rng.standard_normal(25)
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, t]))
    test = write_csv(tmp_path / "q.csv", x[:2])
    out = cli("gpr", "--train", train, "--test", test, "--kernel", "matern52", "--noise-variance", "0.1",
              "--optimize", "--signal-variance-prior", "student-t:1,2,3", "--length-scale-prior", "lognormal:0,0.5")
    expected = gpc_summary(out)
    model = gpprobe.GPRegressor("matern52", noise_variance=0.1, optimize=True,
                                signal_variance_prior="student-t:1,2,3",
                                length_scale_prior=("lognormal", 0.0, 0.5)).fit(x, t)
    close_structures(model.parameters_, expected["parameters"])
    close_structures(model.noise_variance_, expected["noise_variance"])
    close_structures(model.log_prior_, expected["log_prior"])


def test_priors_are_refused_as_the_cli_refuses_them():
    x, y = three_classes()
    with pytest.raises(ValueError, match="only applies with optimize"):
        gpprobe.GPClassifier(length_scale_prior="lognormal:0,1").fit(x, y == 0)
    with pytest.raises(ValueError, match="length_scale_prior must be none, lognormal"):
        gpprobe.GPClassifier(optimize=True, length_scale_prior="gamma:1,2").fit(x, y == 0)
    with pytest.raises(ValueError, match="sigma > 0"):
        gpprobe.GPRegressor(optimize=True, signal_variance_prior=("lognormal", 0, -1)).fit(x, x[:, 0])
    with pytest.raises(ValueError, match="signal_variance_prior must be"):
        gpprobe.GPClassifier(optimize=True, signal_variance_prior=3.0).fit(x, y == 0)


def test_lime_equals_the_independent_reference(gpc_golden):
    # tests/reference/explain/lime_reference.json (scripts/fixtures/reference_lime.py: LIME written from the
    # published algorithm in numpy, checked against scikit-learn's Ridge) on gpc_golden.json's blobs-5d-ard
    # Laplace probit classifier. The reference's outputs come from the golden model (probabilities to 1e-8),
    # so the coefficients agree to about that.
    from conftest import REFERENCE

    with open(REFERENCE / "explain" / "lime_reference.json") as f:
        reference = json.load(f)["cases"]
    case = next(c for c in gpc_golden if c["name"] == "blobs-5d-ard")
    x, y = np.array(case["X_train"]), np.array(case["y_train"])
    kernel = case["kernel"]
    model = gpprobe.GPClassifier(signal_variance=kernel["signal_variance"], length_scales=kernel["lengthscales"])
    model.fit(x, y)
    for r in reference:
        ours = model.explain(r["point"], 0.1, dims=r["dims"], max_iterations=20, lime_samples=r["samples"],
                             seed=r["seed"], baseline="mean" if r["baseline_kind"] == "training_mean" else "zero")
        np.testing.assert_allclose(ours["lime"], r["coefficients"], rtol=0, atol=1e-8)
        assert abs(ours["lime_intercept"] - r["intercept"]) <= 1e-8
        assert abs(ours["lime_score"] - r["score"]) <= 1e-7
        assert ours["lime_kernel_width"] == pytest.approx(r["kernel_width"], rel=1e-15)


def test_the_probe_estimator_explains_and_ranks_rows_to_label_as_its_probe(cli, tmp_path):
    x, y = with_a_constant_feature(7)
    est = gpprobe.ProbeClassifier(epsilon=0.2, strength=3).fit(x, np.array(["no", "yes"])[y])
    gpprobe.Probe(x, y.astype(np.uint8), epsilon=0.2, strength=3).save(tmp_path / "p.probe.json")
    point = [0.3, 0.5, -0.2, 0.1]
    write_csv(tmp_path / "row.csv", np.array([point]))
    out = cli("explain", "--probe", tmp_path / "p.probe.json", "--query", tmp_path / "row.csv", "--gamma", "0.3",
              "--lime-samples", "40", "--seed", "2")
    assert_explanation_equals_the_cli(est.explain(point, 0.3, lime_samples=40, seed=2), out)
    gain = est.knowledge_gain(x[:5])
    assert np.array_equal(gain, est.probe_.knowledge_gain(x[:5])) and np.all((gain >= 0) & (gain < 1))
