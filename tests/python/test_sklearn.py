"""GPClassifier, GPRegressor and ProbeClassifier as scikit-learn estimators (docs/python.md, "scikit-learn").

- scikit-learn's own estimator checks (sklearn.utils.estimator_checks), every one, on each estimator;
  EXPECTED_FAILURES lists any that may fail, each with its reason (today: none).
- Any labels: a fit on {1, 2}, on ["even", "odd"] and on -1/+1 predicts what `gpprobe gpc` (0/1 labels)
  predicts, columns in classes_ order; the probe estimator what `gpprobe probe` scores.
- Model selection: is_classifier, clone, Pipeline, stratified cross_val_score (label-sorted data, ROC AUC),
  GridSearchCV over the probe's epsilon and strength, each against scikit-learn's own fold splitting and
  metrics.
- Pickle and deepcopy of every fitted estimator give the same bits, and the same as the CLI.
- Multi-class: GPClassifier(likelihood="softmax") against tests/reference/gpc_multiclass_golden.json at the
  core's golden tolerances and against `gpprobe gpc --likelihood softmax` to 1e-12, with any labels.
"""

import copy
import json
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.exceptions import NotFittedError
from sklearn.metrics import accuracy_score, r2_score, roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

import gpprobe
from conftest import REFERENCE, read_csv, write_csv

ESTIMATORS = {
    "GPClassifier": lambda: gpprobe.GPClassifier(),
    "GPClassifier-softmax": lambda: gpprobe.GPClassifier(likelihood="softmax"),
    "GPRegressor": lambda: gpprobe.GPRegressor(),
    "ProbeClassifier": lambda: gpprobe.ProbeClassifier(),
}

# Checks of sklearn.utils.estimator_checks that may fail, by estimator: {check name: the reason}. Every
# check passes today (scikit-learn 1.2.1), so the lists are empty; a check that starts failing must either
# be fixed or be entered here with its reason.
EXPECTED_FAILURES = {name: {} for name in ESTIMATORS}


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_scikit_learns_estimator_checks(name):
    failures = {}
    checks = list(check_estimator(ESTIMATORS[name](), generate_only=True))
    assert len(checks) >= 40
    for estimator, check in checks:
        check_name = getattr(check, "func", check).__name__
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                check(estimator)
            except Exception as e:  # noqa: BLE001 - every failure is collected and reported
                failures[check_name] = f"{type(e).__name__}: {e}"
    unexpected = {k: v for k, v in failures.items() if k not in EXPECTED_FAILURES[name]}
    assert not unexpected, f"{name}: {unexpected}"


def test_estimator_kinds():
    assert is_classifier(gpprobe.GPClassifier()) and is_classifier(gpprobe.ProbeClassifier())
    assert is_classifier(gpprobe.GPClassifier(likelihood="softmax"))
    assert is_regressor(gpprobe.GPRegressor()) and not is_classifier(gpprobe.GPRegressor())


@pytest.mark.parametrize("estimator", [gpprobe.GPClassifier(), gpprobe.GPRegressor(), gpprobe.ProbeClassifier()])
def test_unfitted_estimators_raise_not_fitted_error(estimator):
    x = np.zeros((2, 3))
    for method in ("predict", "predict_proba", "predictions", "measures"):
        if hasattr(estimator, method):
            with pytest.raises(NotFittedError, match="is not fitted yet"):
                getattr(estimator, method)(x)
    assert issubclass(gpprobe.NotFittedError, NotFittedError)


def blobs(n=30, d=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    x = rng.standard_normal((n, d)) + 1.2 * (2 * y[:, None] - 1)
    return x, y


def cli_gpc(cli, tmp_path, x, y01, test, *flags):
    train, points = write_csv(tmp_path / "t.csv", np.column_stack([x, y01])), write_csv(tmp_path / "q.csv", test)
    out = cli("gpc", "--train", train, "--test", points, *flags)
    return read_csv(out.stdout)[1], json.loads(out.stderr)


@pytest.mark.parametrize("labels", [(0, 1), (-1, 1), (1, 2), ("even", "odd"), (True, False)])
def test_any_two_labels_classify_as_the_cli(cli, tmp_path, labels):
    x, y01 = blobs()
    test = np.random.default_rng(1).standard_normal((9, 3))
    columns, _ = cli_gpc(cli, tmp_path, x, y01, test, "--likelihood", "logistic")
    classes = sorted(labels)
    y = np.array([classes[v] for v in y01], dtype=object if isinstance(labels[0], str) else None)
    model = gpprobe.GPClassifier(likelihood="logistic").fit(x, y)
    assert model.classes_.tolist() == classes
    p = model.predict_proba(test)
    np.testing.assert_allclose(p[:, 1], columns["probability"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(p[:, 0], 1.0 - columns["probability"], rtol=0, atol=1e-12)
    assert model.predict(test).tolist() == [classes[int(v >= 0.5)] for v in columns["probability"]]
    assert model.score(x, y) == accuracy_score(y, [classes[int(v >= 0.5)] for v in model.predict_proba(x)[:, 1]])


def test_one_class_and_three_classes_are_refused():
    x, _ = blobs(n=6)
    with pytest.raises(ValueError, match=r"needs at least two classes in y; it holds 1 class \('a'\)"):
        gpprobe.GPClassifier().fit(x, ["a"] * 6)
    with pytest.raises(ValueError, match=r"the probe is binary: y holds 3 classes \(1, 2, 3\)"):
        gpprobe.ProbeClassifier().fit(x, [1, 2, 3, 1, 2, 3])


def test_regressor_score_is_r2_of_the_cli_mean(cli, tmp_path):
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (25, 2))
    y = np.sin(x[:, 0]) + 0.1 * rng.standard_normal(25)
    test = rng.uniform(-2, 2, (15, 2))
    t = np.cos(test[:, 1]) + np.sin(test[:, 0])
    out = cli("gpr", "--train", write_csv(tmp_path / "t.csv", np.column_stack([x, y])), "--test",
              write_csv(tmp_path / "q.csv", test), "--kernel", "matern52", "--noise", "0.05")
    mean = read_csv(out.stdout)[1]["mean"]
    model = gpprobe.GPRegressor("matern52", noise_variance=0.05).fit(x, y)
    assert abs(model.score(test, t) - r2_score(t, mean)) <= 1e-12
    assert model.score(test, t) < 0.99  # a real R^2, not a constant


def cli_probe(cli, tmp_path, x, y01, q, epsilon=0.1, strength=5.0):
    for name, values in (("o", x), ("l", np.asarray(y01, dtype=np.uint8)), ("q", q)):
        np.save(tmp_path / f"{name}.npy", values)
    out = cli("probe", "--observations", tmp_path / "o.npy", "--labels", tmp_path / "l.npy", "--queries",
              tmp_path / "q.npy", "--epsilon", repr(epsilon), "--strength", repr(strength))
    return read_csv(out.stdout)[1]


def test_probe_classifier_equals_the_cli(cli, tmp_path):
    x, y01 = blobs(n=20, d=5, seed=4)
    q = np.random.default_rng(5).standard_normal((11, 5))
    columns = cli_probe(cli, tmp_path, x, y01, q, epsilon=0.2, strength=3.0)
    names = np.array(["no", "yes"])[y01]
    model = gpprobe.ProbeClassifier(epsilon=0.2, strength=3.0).fit(x, names)
    assert model.classes_.tolist() == ["no", "yes"]
    np.testing.assert_allclose(model.predict_proba(q)[:, 1], columns["judged_probability"], rtol=0, atol=1e-12)
    measures = model.measures(q)
    assert list(measures) == list(gpprobe.MEASURES)
    for m in gpprobe.MEASURES:
        np.testing.assert_allclose(measures[m], columns[m], rtol=0, atol=1e-12, err_msg=m)
    expected = np.where(columns["judged_probability"] >= 0.5, "yes", "no")
    assert model.predict(q).tolist() == expected.tolist()
    assert model.score(q, expected[::-1]) == accuracy_score(expected[::-1], expected)
    assert model.get_params() == {"epsilon": 0.2, "strength": 3.0, "space": "automatic", "expected_queries": 10000}


def sorted_labels(n=60, d=4, seed=7):
    """Label-sorted data (every negative, then every positive): unstratified 5-fold splits put one class in
    most test folds, where ROC AUC is undefined."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    x = rng.standard_normal((n, d)) + 0.9 * (2 * y[:, None] - 1)
    return x, y


def test_cross_val_score_is_stratified_and_equals_scikit_learns_folds():
    x, y = sorted_labels()
    for model in (gpprobe.GPClassifier(length_scales=2.0), gpprobe.ProbeClassifier()):
        pipeline = make_pipeline(StandardScaler(), model)
        scores = cross_val_score(pipeline, x, y, cv=5, scoring="roc_auc")
        assert np.all(np.isfinite(scores)), scores
        expected = []
        for train, test in StratifiedKFold(n_splits=5).split(x, y):
            scaler = StandardScaler().fit(x[train])
            fitted = clone(model).fit(scaler.transform(x[train]), y[train])
            expected.append(roc_auc_score(y[test], fitted.predict_proba(scaler.transform(x[test]))[:, 1]))
        assert scores.tolist() == expected
        assert 0.8 < np.mean(scores) <= 1.0


def test_grid_search_tunes_the_probes_epsilon_and_strength():
    x, y = sorted_labels(n=40, d=6, seed=11)
    grid = {"epsilon": [0.01, 0.1, 1.0], "strength": [1.0, 5.0, 20.0]}
    search = GridSearchCV(gpprobe.ProbeClassifier(), grid, cv=4, scoring="neg_log_loss").fit(x, y)
    folds = list(StratifiedKFold(n_splits=4).split(x, y))
    means = {}
    for epsilon in grid["epsilon"]:
        for strength in grid["strength"]:
            losses = []
            for train, test in folds:
                probe = gpprobe.Probe(x[train], y[train], epsilon=epsilon, strength=strength)
                p = np.clip(probe.score(x[test])["judged_probability"], 1e-15, 1 - 1e-15)
                losses.append(-np.mean(y[test] * np.log(p) + (1 - y[test]) * np.log(1 - p)))
            means[(epsilon, strength)] = -np.mean(losses)
    best = max(means, key=means.get)
    assert (search.best_params_["epsilon"], search.best_params_["strength"]) == best
    assert abs(search.best_score_ - means[best]) <= 1e-12
    assert len(set(np.round(list(means.values()), 6))) > 1  # the grid matters


@pytest.mark.parametrize("make", [
    lambda: gpprobe.GPClassifier(),
    lambda: gpprobe.GPClassifier(optimize=True, restarts=1, seed=3),
    lambda: gpprobe.GPClassifier(method="ep", length_scales=[0.5, 1.0, 2.0]),
    lambda: gpprobe.GPClassifier(likelihood="softmax", optimize=True),
    lambda: gpprobe.GPRegressor("matern32", optimize=True, restarts=1, seed=2),
    lambda: gpprobe.GPRegressor("constant(1.3) * rbf(0.7) + constant(0.5) * periodic(1, 2)"),
    lambda: gpprobe.ProbeClassifier(epsilon=0.3, strength=2.0),
])
def test_fitted_estimators_pickle_and_deepcopy_to_the_same_bits(make):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((24, 3))
    model = make()
    if is_classifier(model):
        y = np.array(["a", "b", "c"])[np.arange(24) % (3 if getattr(model, "likelihood", "") == "softmax" else 2)]
    else:
        y = np.sin(x[:, 0]) + x[:, 1]
    model.fit(x, y)
    q = rng.standard_normal((50, 3))
    method = "predict_proba" if is_classifier(model) else "predictions"
    before = getattr(model, method)(q)
    for again in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        after = getattr(again, method)(q)
        if isinstance(before, dict):
            for key in before:
                assert np.array_equal(before[key], after[key]), key
        else:
            assert np.array_equal(before, after)
        assert np.array_equal(again.predict(q), model.predict(q))
        for name, value in vars(model).items():
            if name.endswith("_") and not name.startswith("_") and name != "probe_":
                assert repr(getattr(again, name)) == repr(value), name


def multiclass_cases():
    return json.loads((REFERENCE / "gpc_multiclass_golden.json").read_text())["cases"]


def relatively_close(actual, expected, tolerance, what):
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, what
    excess = np.abs(actual - expected) - tolerance * np.maximum(1.0, np.abs(expected))
    assert np.all(excess <= 0), f"{what}: off by {np.max(np.abs(actual - expected)):.3g}"


def softmax_model(case):
    kernels = case["kernels"]
    if case["shared_kernel"]:
        return gpprobe.GPClassifier(likelihood="softmax", signal_variance=kernels[0]["signal_variance"],
                                    length_scales=kernels[0]["lengthscales"])
    return gpprobe.GPClassifier(likelihood="softmax", signal_variance=[k["signal_variance"] for k in kernels],
                                length_scales=[k["lengthscales"] for k in kernels])


def test_softmax_matches_the_multiclass_golden_file():
    cases = multiclass_cases()
    assert len(cases) == 6
    for case in cases:
        x, test = np.array(case["X_train"]), np.array(case["X_test"])
        names = np.array([f"class {c}" for c in range(case["C"])])
        y = names[np.array(case["y"])]  # string labels; sorted order is class order for C <= 10
        model = softmax_model(case).fit(x, y)
        name = case["name"]
        assert model.classes_.tolist() == names[np.unique(case["y"])].tolist()
        relatively_close(model.log_marginal_likelihood_value_, case["log_marginal_likelihood"], 1e-9, name + " LML")
        relatively_close(model.log_marginal_likelihood_gradient_, case["lml_gradient"], 1e-7, name + " gradient")
        mean, covariance = model.predict_latent(test)
        relatively_close(mean, case["latent_mean"], 1e-8, name + " latent mean")
        relatively_close(covariance, case["latent_cov"], 1e-8, name + " latent covariance")
        relatively_close(model.predict_proba(test), case["prob"], 1e-9, name + " probability")
        assert model.predict(test).tolist() == names[np.argmax(case["prob"], axis=1)].tolist()
        assert model.n_iter_ == case["newton_iterations"]


@pytest.mark.parametrize("optimize", [False, True])
def test_softmax_equals_the_cli_with_any_labels(cli, tmp_path, optimize):
    case = multiclass_cases()[1]  # three classes, one kernel each
    x, test, y = np.array(case["X_train"]), np.array(case["X_test"]), np.array(case["y"])
    kernels = case["kernels"]
    flags = ["--likelihood", "softmax", "--signal-variance", ",".join(repr(k["signal_variance"]) for k in kernels),
             "--length-scales-per-class", ";".join(",".join(map(repr, k["lengthscales"])) for k in kernels)]
    if optimize:
        flags += ["--optimize", "--restarts", "1", "--seed", "3"]
    columns, summary = cli_gpc(cli, tmp_path, x, y, test, *flags)
    labels = np.array([10, 20, 30])[y]
    model = softmax_model(case).set_params(optimize=optimize, restarts=1, seed=3).fit(x, labels)
    assert model.classes_.tolist() == [10, 20, 30]
    r = model.predictions(test)
    C = 3
    for c in range(C):
        np.testing.assert_allclose(r["probability"][:, c], columns[f"probability_{c}"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(r["latent_mean"][:, c], columns[f"latent_mean_{c}"], rtol=0, atol=1e-12)
        for k in range(c, C):
            np.testing.assert_allclose(r["latent_covariance"][:, c, k], columns[f"latent_cov_{c}_{k}"], rtol=0,
                                       atol=1e-12)
    assert abs(model.log_marginal_likelihood_value_ - summary["log_marginal_likelihood"]) <= 1e-12
    assert model.signal_variance_.tolist() == summary["signal_variances"]
    assert model.length_scales_.tolist() == summary["length_scales"]
    assert model.n_iter_ == summary["iterations"]
    if optimize:
        assert model.optimizer_["iterations"] == summary["optimizer_iterations"]


def test_softmax_refuses_what_the_cli_refuses():
    x, _ = blobs(n=9)
    y = np.arange(9) % 3
    with pytest.raises(ValueError, match=r"method 'ep' is not available with likelihood=\"softmax\""):
        gpprobe.GPClassifier(likelihood="softmax", method="ep").fit(x, y)
    with pytest.raises(gpprobe.Error, match=r"signal_variance has 2 values for 3 classes: give 1 or 3"):
        gpprobe.GPClassifier(likelihood="softmax", signal_variance=[1.0, 2.0]).fit(x, y)
    with pytest.raises(gpprobe.Error, match=r"kernel of class 1: length-scale 1 must be a finite number > 0, got -1"):
        gpprobe.GPClassifier(likelihood="softmax", length_scales=[[1.0], [-1.0], [1.0]]).fit(x, y)


def test_learning_more_length_scales_than_observations_warns():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 128))
    y = np.arange(16) % 2
    with pytest.warns(gpprobe.ARDWarning, match=r"learns 128 length-scales \(one per feature, ARD\) from 16 "
                                                r"observations.*shared_length_scale=True"):
        gpprobe.GPClassifier(optimize=True).fit(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gpprobe.GPClassifier(optimize=True, shared_length_scale=True).fit(x, y)
        gpprobe.GPClassifier().fit(x, y)  # nothing learned
        gpprobe.GPClassifier(optimize=True).fit(x[:, :8], y)  # 8 length-scales from 16 observations


def close_structures(ours, theirs, path=""):
    """Nested dicts/lists of the CLI's JSON: numbers to 1e-12, the rest equal."""
    if isinstance(theirs, dict):
        assert set(ours) <= set(theirs), path
        for key in ours:
            close_structures(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            close_structures(a, b, f"{path}[{i}]")
    elif isinstance(theirs, float) or isinstance(ours, float):
        assert abs(ours - theirs) <= 1e-12 * max(1.0, abs(theirs)), path
    else:
        assert ours == theirs, path


@pytest.mark.parametrize("flags, options", [
    (["--gamma", "0.1", "--dims", "0,1"], dict(gamma=0.1, dims=[0, 1])),
    (["--gamma", "0.4", "--valid-range", "-1,1", "--search", "adversarial", "--tolerance", "0.001"],
     dict(gamma=0.4, valid_range=(-1, 1), search="adversarial", tolerance=0.001)),
])
def test_classifier_certificates_equal_the_cli(cli, tmp_path, flags, options):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((30, 3))
    y = (x[:, 0] + 0.3 * x[:, 1] > 0).astype(int)
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    point = [0.2, 0.1, -0.3]
    out = cli("robustness", "--train", train, "--length-scales", "1.5", "--likelihood", "logistic", "--point",
              ",".join(map(str, point)), *flags)
    expected = json.loads(out.stdout)
    model = gpprobe.GPClassifier(length_scales=1.5, likelihood="logistic").fit(x, np.array(["neg", "pos"])[y])
    gamma = options.pop("gamma")
    certificate = model.certify(point, gamma, **options)
    assert set(certificate) == {"gamma", "probability_at_point", "box", "root", "minimum", "maximum", "gpfgs",
                                "verdict_can_flip"}
    close_structures(certificate, expected)
    lower, upper = certificate["root"]["probability"]
    assert lower <= certificate["minimum"]["lower"] <= certificate["probability_at_point"] <= upper


def test_the_estimators_work_without_scikit_learn(tmp_path):
    # In a process where importing scikit-learn fails, the same classes fit and score; their numbers
    # equal those of the scikit-learn-backed classes here (accuracy, R^2 by scikit-learn's r2_score).
    import subprocess
    import sys

    rng = np.random.default_rng(6)
    x = rng.standard_normal((30, 3))
    y = np.array(["a", "b"])[(x[:, 0] > 0).astype(int)]
    t = x[:, 1] + 0.3 * x[:, 2] ** 2
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    np.save(tmp_path / "t.npy", t)
    script = (
        "import sys, numpy as np\n"
        "sys.modules['sklearn'] = None\n"
        "import gpprobe\n"
        "from gpprobe import _estimator\n"
        "assert not _estimator.HAVE_SKLEARN\n"
        f"x, y, t = (np.load({str(tmp_path)!r} + f'/{{n}}.npy') for n in 'xyt')\n"
        "try:\n"
        "    gpprobe.GPClassifier().predict(x)\n"
        "except gpprobe.NotFittedError as e:\n"
        "    assert isinstance(e, ValueError) and isinstance(e, AttributeError)\n"
        "c = gpprobe.GPClassifier().fit(x, y)\n"
        "p = gpprobe.ProbeClassifier().fit(x, y)\n"
        "r = gpprobe.GPRegressor('matern52').fit(x[:20], t[:20])\n"
        "print(c.classes_.tolist(), c.score(x, y), p.score(x, y), repr(r.score(x[20:], t[20:])))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    classes, accuracy, probe_accuracy, r2 = done.stdout.split("] ")[0] + "]", *done.stdout.split("] ")[1].split()
    assert classes == "['a', 'b']"
    assert float(accuracy) == gpprobe.GPClassifier().fit(x, y).score(x, y)
    assert float(probe_accuracy) == gpprobe.ProbeClassifier().fit(x, y).score(x, y)
    mean = gpprobe.GPRegressor("matern52").fit(x[:20], t[:20]).predict(x[20:])
    assert abs(float(r2) - r2_score(t[20:], mean)) <= 1e-12


def assert_explanation_equals_the_cli(ours, out):
    _, columns = read_csv(out.stdout)
    summary = json.loads(out.stderr.strip().splitlines()[-1])
    assert ours["feature"].tolist() == columns["feature"].astype(int).tolist()
    for name in ("delta_lower", "delta", "delta_upper"):
        np.testing.assert_allclose(ours[name], columns[name], rtol=0, atol=1e-12, err_msg=name)
    assert abs(ours["value_at_point"] - summary["value_at_point"]) <= 1e-12
    assert ours["unconverged_searches"] == summary["unconverged_searches"]
    assert np.all(ours["delta_lower"] <= ours["delta"]) and np.all(ours["delta"] <= ours["delta_upper"])


def test_explanations_equal_the_cli(cli, tmp_path):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((25, 4))
    y = (x[:, 0] - 0.5 * x[:, 2] > 0).astype(int)
    point = [0.1, -0.2, 0.3, 0.0]
    train = write_csv(tmp_path / "t.csv", np.column_stack([x, y]))
    out = cli("explain", "--train", train, "--length-scales", "1.2", "--point", ",".join(map(str, point)), "--gamma",
              "0.2", "--dims", "0,2,3", "--lime-samples", "10")
    model = gpprobe.GPClassifier(length_scales=1.2).fit(x, np.array([5, 9])[y])
    assert_explanation_equals_the_cli(model.explain(point, 0.2, dims=[0, 2, 3]), out)

    probe = gpprobe.Probe(x, y.astype(np.uint8))
    probe.save(tmp_path / "p.probe.json")
    write_csv(tmp_path / "row.csv", np.array([point]))
    out = cli("explain", "--probe", tmp_path / "p.probe.json", "--query", tmp_path / "row.csv", "--gamma", "0.5",
              "--valid-range", "-1,1", "--lime-samples", "10")
    assert_explanation_equals_the_cli(probe.explain(point, 0.5, valid_range=(-1, 1)), out)
