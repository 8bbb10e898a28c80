"""GPClassifier and GPRegressor against the independent references and the CLI.

- tests/reference/gpc_golden.json (R&W's algorithms in an independent implementation): every case's
  predictions, log marginal likelihood and gradient at the tolerances of tests/core/classification/
  gpc_golden_test.cpp, compared relatively: |a - b| <= tol * max(1, |b|).
- tests/reference/regression/likelihood.json (scikit-learn 1.2.1): the eleven kernels' predictions to 1e-8
  and log marginal likelihoods to 1e-6, as tests/core/regression/marginal_likelihood_test.cpp holds them.
- `gpprobe gpc` and `gpprobe gpr` on the same files: every column and the log marginal likelihood to
  1e-12, with fixed and with optimised hyperparameters.
"""

import json

import numpy as np
import pytest

import gpprobe
from conftest import REFERENCE, read_csv, write_csv

BLOCKS = {"laplace_probit": ("laplace", "probit"), "laplace_logistic": ("laplace", "logistic"), "ep_probit": ("ep", "probit")}
# (latent mean and variance, probability, log marginal likelihood, gradient) per block.
TOLERANCES = {"laplace_probit": (1e-8, 1e-8, 1e-9, 1e-7), "laplace_logistic": (1e-8, 1e-9, 1e-9, 1e-7),
              "ep_probit": (1e-7, 1e-7, 1e-7, 1e-5)}


def relatively_close(actual, expected, tolerance, what):
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, what
    excess = np.abs(actual - expected) - tolerance * np.maximum(1.0, np.abs(expected))
    assert np.all(excess <= 0), f"{what}: off by {np.max(np.abs(actual - expected)):.3g}"


def classifier(case, block):
    method, likelihood = BLOCKS[block]
    kernel = case["kernel"]
    return gpprobe.GPClassifier(method=method, likelihood=likelihood, signal_variance=kernel["signal_variance"],
                                length_scales=kernel["lengthscales"])


def test_every_golden_classification_case(gpc_golden):
    checked = 0
    for case in gpc_golden:
        x, y, test = (np.array(case[k], dtype=np.float64) for k in ("X_train", "y_train", "X_test"))
        for block, (latent_tol, prob_tol, lml_tol, grad_tol) in TOLERANCES.items():
            if block not in case:
                continue
            expected = case[block]
            model = classifier(case, block).fit(x, y)
            name = f"{case['name']} {block}"
            mean, variance = model.predict_latent(test)
            relatively_close(mean, expected["latent_mean"], latent_tol, name + " latent mean")
            relatively_close(variance, expected["latent_variance"], latent_tol, name + " latent variance")
            relatively_close(model.predict_proba(test)[:, 1], expected["prob"], prob_tol, name + " probability")
            relatively_close(model.log_marginal_likelihood_value_, expected["log_marginal_likelihood"], lml_tol, name + " LML")
            relatively_close(model.log_marginal_likelihood_gradient_, expected["lml_gradient"], grad_tol, name + " gradient")
            assert model.classes_.tolist() == [-1, 1]
            assert set(model.predict(test)) <= {-1, 1}
            checked += 1
    assert checked == 13


def train_file(path, x, y):
    return write_csv(path, np.column_stack([x, y]))


@pytest.mark.parametrize("block", list(BLOCKS))
def test_classification_equals_the_cli(gpc_golden, cli, tmp_path, block):
    for i, case in enumerate(c for c in gpc_golden if block in c):
        x, y, test = (np.array(case[k], dtype=np.float64) for k in ("X_train", "y_train", "X_test"))
        train, points = train_file(tmp_path / f"t{i}.csv", x, y), write_csv(tmp_path / f"q{i}.csv", test)
        kernel = case["kernel"]
        method, likelihood = BLOCKS[block]
        out = cli("gpc", "--train", train, "--test", points, "--method", method, "--likelihood", likelihood,
                  "--signal-variance", repr(kernel["signal_variance"]),
                  "--length-scales", ",".join(repr(v) for v in kernel["lengthscales"]))
        _, columns = read_csv(out.stdout)
        summary = json.loads(out.stderr)
        r = classifier(case, block).fit(x, y).predictions(test)
        for key in ("latent_mean", "latent_variance", "probability"):
            np.testing.assert_allclose(r[key], columns[key], rtol=0, atol=1e-12, err_msg=f"{case['name']} {key}")
        model = classifier(case, block).fit(x, y)
        assert abs(model.log_marginal_likelihood_value_ - summary["log_marginal_likelihood"]) <= 1e-12
        np.testing.assert_allclose(model.log_marginal_likelihood_gradient_, summary["log_marginal_likelihood_gradient"],
                                   rtol=0, atol=1e-12)
        assert model.n_iter_ == summary["iterations"]


def test_optimised_classification_equals_the_cli(gpc_golden, cli, tmp_path):
    case = gpc_golden[0]
    x, y, test = (np.array(case[k], dtype=np.float64) for k in ("X_train", "y_train", "X_test"))
    train, points = train_file(tmp_path / "t.csv", x, y), write_csv(tmp_path / "q.csv", test)
    for shared in (False, True):
        flags = ["--shared-length-scale"] if shared else []
        out = cli("gpc", "--train", train, "--test", points, "--optimize", "--restarts", "2", "--seed", "5", *flags)
        _, columns = read_csv(out.stdout)
        summary = json.loads(out.stderr)
        model = gpprobe.GPClassifier(optimize=True, restarts=2, seed=5, shared_length_scale=shared).fit(x, y)
        assert model.signal_variance_ == summary["signal_variance"]
        assert model.length_scales_.tolist() == summary["length_scales"]
        assert model.optimizer_["iterations"] == summary["optimizer_iterations"]
        np.testing.assert_allclose(model.predict_proba(test)[:, 1], columns["probability"], rtol=0, atol=1e-12)


def kernel_text(tree):
    """A likelihood.json kernel tree as a kernel expression (kernel_expression.h), numbers by repr."""
    kind = tree["type"]
    numbers = lambda values: ", ".join(repr(float(v)) for v in values)  # noqa: E731
    if kind in ("sum", "product"):
        operator = " + " if kind == "sum" else " * "
        return "(" + kernel_text(tree["left"]) + operator + kernel_text(tree["right"]) + ")"
    if kind == "constant":
        return f"constant({numbers([tree['value']])})"
    if kind in ("rbf", "matern12", "matern32", "matern52"):
        return f"{kind}({numbers(tree['length_scale'])})"
    if kind == "periodic":
        return f"periodic({numbers([tree['length_scale'], tree['periodicity']])})"
    if kind == "linear":
        return f"linear({numbers([tree['offset']])})"
    if kind == "cosine":
        return "cosine()"
    raise AssertionError(f"unknown kernel type {kind}")


def test_regression_matches_scikit_learn():
    cases = json.loads((REFERENCE / "regression" / "likelihood.json").read_text())["cases"]
    assert len(cases) == 11
    for case in cases:
        x, y, test = (np.array(case[k], dtype=np.float64) for k in ("x", "y", "test"))
        model = gpprobe.GPRegressor(kernel_text(case["kernel"]), noise_variance=case["noise_variance"],
                                    mean=case["mean"]).fit(x, y)
        r = model.predictions(test)
        np.testing.assert_allclose(r["mean"], case["predicted_mean"], rtol=0, atol=1e-8, err_msg=case["name"])
        np.testing.assert_allclose(np.sqrt(r["observation_variance"]), case["predicted_observation_std"], rtol=0,
                                   atol=1e-8, err_msg=case["name"])
        assert abs(model.log_marginal_likelihood_value_ - case["log_marginal_likelihood"]) <= 1e-6, case["name"]
        assert model.mean_ == case["mean"]


@pytest.mark.parametrize("kernel, flags, parameters", [
    ("rbf", ["--lengthscale", "0.7", "--variance", "1.3"], {"rbf.length_scale": 0.7, "constant.value": 1.3}),
    ("matern32", ["--matern32-length-scale", "0.4"], {"matern32.length_scale": 0.4}),
    ("periodic", ["--periodic-period", "1.7"], {"periodic.period": 1.7}),
])
def test_regression_equals_the_cli(cli, tmp_path, kernel, flags, parameters):
    case = json.loads((REFERENCE / "regression" / "cli.json").read_text())["cases"][0]
    x, y, test = (np.array(case[k], dtype=np.float64) for k in ("x", "y", "test"))
    train, points = write_csv(tmp_path / "t.csv", np.column_stack([x, y])), write_csv(tmp_path / "q.csv", test)
    for optimize in (False, True):
        extra = ["--optimize", "--restarts", "1", "--seed", "4"] if optimize else []
        out = cli("gpr", "--train", train, "--test", points, "--kernel", kernel, "--noise", "0.1", *flags, *extra)
        _, columns = read_csv(out.stdout)
        summary = json.loads(out.stderr)
        model = gpprobe.GPRegressor(kernel, parameters=parameters, noise_variance=0.1, optimize=optimize, restarts=1,
                                    seed=4).fit(x, y)
        r = model.predictions(test)
        for key in ("mean", "latent_variance", "observation_variance", "knowledge"):
            np.testing.assert_allclose(r[key], columns[key], rtol=0, atol=1e-12, err_msg=f"{kernel} {key}")
        assert abs(model.log_marginal_likelihood_value_ - summary["log_marginal_likelihood"]) <= 1e-12
        assert model.parameters_ == summary["parameters"]
        assert model.noise_variance_ == summary["noise_variance"]
        mean, std = model.predict(test, return_std=True)
        assert np.array_equal(mean, r["mean"]) and np.array_equal(std, np.sqrt(r["latent_variance"]))


def test_estimators_follow_scikit_learns_conventions():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((40, 3))
    y01 = (x[:, 0] > 0).astype(int)
    model = gpprobe.GPClassifier(length_scales=2.0)
    assert model.get_params()["length_scales"] == 2.0
    assert model.set_params(signal_variance=3.0) is model and model.signal_variance == 3.0
    with pytest.raises(ValueError, match="has no parameter 'gamma'"):
        model.set_params(gamma=1)
    model.fit(x, y01)
    assert model.classes_.tolist() == [0, 1] and model.n_features_in_ == 3
    p = model.predict_proba(x)
    assert p.shape == (40, 2) and np.allclose(p.sum(axis=1), 1.0)
    assert np.array_equal(model.predict(x), np.where(p[:, 1] >= 0.5, 1, 0))
    assert model.score(x, y01) == np.mean(model.predict(x) == y01)
    regressor = gpprobe.GPRegressor("matern52", noise_variance=0.05).fit(x, x[:, 0])
    assert regressor.get_params()["kernel"] == "matern52"
    assert regressor.kernel_ == "constant(1) * matern52(1)"
    assert set(gpprobe.named_kernels()) >= {"rbf", "matern12", "matern32", "matern52", "periodic", "cosine"}
