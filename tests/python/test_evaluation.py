"""gpprobe.baseline and gpprobe.evaluate against `gpprobe baseline` and `gpprobe evaluate` on the same files:
every column to 1e-12 (the CLI prints 17 significant digits), the curve table row for row, the fuzzy
experiment's clouds, and the schedule's limit."""

import numpy as np
import pytest

import gpprobe
from conftest import read_csv


def data(seed=0, n=80, d=6):
    rng = np.random.default_rng(seed)
    y = (rng.uniform(size=n) < 0.5).astype(np.uint8)
    x = rng.standard_normal((n, d)) + 1.0 * (2.0 * y[:, None] - 1.0) * np.eye(d)[0]
    return x, y


@pytest.mark.parametrize("method", gpprobe.BASELINES)
def test_baselines_equal_the_cli(cli, tmp_path, method):
    x, y = data(seed=1)
    q = np.random.default_rng(2).standard_normal((25, 6)) * 2
    for name, values in (("o", x[:40]), ("l", y[:40]), ("q", q)):
        np.save(tmp_path / f"{name}.npy", values)
    header, columns = read_csv(cli("baseline", "--method", method, "--observations", tmp_path / "o.npy", "--labels",
                                   tmp_path / "l.npy", "--queries", tmp_path / "q.npy", "--k", "3", "--seed", "5",
                                   "--members", "20").stdout)
    ours = gpprobe.baseline(method, x[:40], y[:40], q, k=3, seed=5, members=20)
    assert ["query"] + list(ours) == header
    for name, values in ours.items():
        np.testing.assert_allclose(values, columns[name], rtol=0, atol=1e-12, err_msg=f"{method} {name}")


@pytest.mark.parametrize("experiment", ["probing", "fuzzy", "ood"])
def test_experiments_equal_the_cli(cli, tmp_path, experiment):
    x, y = data(seed=3, n=60)
    ood = np.random.default_rng(4).standard_normal((30, 6)) * 3 + 4
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    np.save(tmp_path / "ood.npy", ood)
    flags = ["--trials", "2", "--seed", "7", "--max-observations", "32", "--members", "10"]
    extra = ["--ood", tmp_path / "ood.npy"] if experiment == "ood" else []
    clouds = ["--clouds", tmp_path / "clouds.csv"] if experiment == "fuzzy" else []
    out = cli("evaluate", "--embeddings", tmp_path / "x.npy", "--labels", tmp_path / "y.npy", "--experiment",
              experiment, *flags, *extra, *clouds)
    header, columns = read_csv(out.stdout)
    result = gpprobe.evaluate(x, y, experiment, ood=ood if experiment == "ood" else None, trials=2, seed=7,
                              max_observations=32, members=10)
    assert list(result.table.columns) == header
    for name in header:
        ours = result.table[name].to_numpy()
        if columns[name].dtype.kind == "f":
            np.testing.assert_allclose(ours.astype(float), columns[name], rtol=0, atol=1e-12, err_msg=name)
        else:
            assert [str(v) for v in ours] == list(columns[name]), name
    assert len(result.table) >= 4 and result.trials == 2
    limit = [line for line in out.stderr.splitlines() if line.startswith("gpprobe evaluate: ")]
    assert (["gpprobe evaluate: " + result.schedule_limit] if result.schedule_limit else []) == limit
    for c in result.curves:
        assert c["values"].shape == (2, len(result.observation_counts))
    if experiment == "fuzzy":
        cloud_header, cloud_columns = read_csv((tmp_path / "clouds.csv").read_text())
        assert list(result.clouds.columns) == cloud_header and len(result.clouds) > 0
        for name in cloud_header:
            ours = result.clouds[name].to_numpy()
            if cloud_columns[name].dtype.kind == "f":
                np.testing.assert_allclose(ours.astype(float), cloud_columns[name], rtol=0, atol=1e-12, err_msg=name)
            else:
                assert [str(v) for v in ours] == list(cloud_columns[name]), name


def test_evaluate_refuses_what_the_cli_refuses():
    x, y = data(n=20)
    with pytest.raises(gpprobe.Error, match="the ood experiment needs ood embeddings"):
        gpprobe.evaluate(x, y, "ood")
    with pytest.raises(gpprobe.Error, match="experiment must be probing, fuzzy or ood, got 'probe'"):
        gpprobe.evaluate(x, y, "probe")
    with pytest.raises(gpprobe.Error, match="method must be lp, svm, lpe, msp, maha or knn, got 'x'"):
        gpprobe.baseline("x", x, y, x)
