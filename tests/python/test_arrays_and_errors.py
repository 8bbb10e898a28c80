"""The boundary: dtypes and layouts (read in place when C-contiguous, copied once otherwise, same bits
either way), the GIL released while the core works, and every error a Python exception carrying the
core's message (the same text the CLI prints for the same input)."""

import json
import threading
import time
import tracemalloc

import numpy as np
import pytest

import gpprobe
from conftest import REFERENCE


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((60, 32))
    y = (x[:, :3].sum(axis=1) > 0).astype(np.uint8)
    return gpprobe.Probe(x, y, epsilon=0.1, strength=5.0), rng.standard_normal((3000, 32))


def same_bits(a, b):
    return all(np.array_equal(a[k].view(np.uint64), b[k].view(np.uint64)) for k in gpprobe.MEASURES)


def test_float32_float64_c_and_fortran_order_give_the_same_bits(fitted):
    probe, q = fitted
    q32 = q.astype(np.float32)
    reference32 = probe.score(q32)
    # The core widens float32 rows to float64 as it reads them: a float64 copy of the same values agrees.
    assert same_bits(reference32, probe.score(q32.astype(np.float64)))
    assert same_bits(reference32, probe.score(np.asfortranarray(q32)))
    reference64 = probe.score(q)
    assert same_bits(reference64, probe.score(np.asfortranarray(q)))
    assert same_bits(probe.score(q[::3]), probe.score(np.ascontiguousarray(q[::3])))
    assert same_bits(probe.score(q[:, ::-1][:, ::-1]), reference64)
    swapped = q.astype(q.dtype.newbyteorder(">"))
    assert same_bits(probe.score(swapped), reference64)
    assert same_bits(probe.score(q.tolist()), reference64)  # sequences become float64


def test_c_order_is_read_in_place_and_other_layouts_are_copied_once(fitted):
    probe, _ = fitted
    q = np.random.default_rng(5).standard_normal((40000, 32)).astype(np.float32)  # 5.1 MB
    outputs = 7 * 40000 * 8                                                        # 2.2 MB of scores
    for layout, expect_copy in ((q, False), (np.asfortranarray(q), True)):
        tracemalloc.start()
        probe.score(layout)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        if expect_copy:
            assert peak >= q.nbytes + outputs, f"a Fortran-order input is copied: peak {peak}"
        else:
            assert peak < outputs + q.nbytes // 4, f"a C-order input is not copied: peak {peak}"


def test_the_gil_is_released_while_the_core_scores(fitted):
    probe, _ = fitted
    q = np.random.default_rng(6).standard_normal((1_000_000, 32), dtype=np.float32)
    ticks, done = [0], threading.Event()

    def score():
        probe.score(q)
        done.set()

    worker = threading.Thread(target=score)
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks[0] += 1
    worker.join()
    elapsed = time.perf_counter() - start
    # With the GIL held for the whole call this loop could not run at all until the call returned.
    assert elapsed > 0.05, f"scoring took only {elapsed:.3f} s: too short to tell"
    assert ticks[0] > 1000, f"the main thread ran {ticks[0]} iterations while the core scored for {elapsed:.2f} s"


def test_errors_carry_the_cores_message_and_code(fitted):
    probe, q = fitted
    with pytest.raises(gpprobe.Error, match=r"^queries have 31 columns, observations have 32 columns$") as e:
        probe.score(q[:, :31])
    assert e.value.code == "dimension_mismatch" and isinstance(e.value, ValueError)
    bad = q[:5].copy()
    bad[3, 7] = np.nan
    with pytest.raises(gpprobe.Error, match=r"^queries row 3, column 7 is NaN$") as e:
        probe.score(bad)
    assert e.value.code == "non_finite"
    with pytest.raises(gpprobe.Error, match=r"^queries are empty \(0 rows\)$"):
        probe.score(np.zeros((0, 32)))
    with pytest.raises(gpprobe.Error, match=r"^queries: expected ndim = 2, got ndim = 3$"):
        probe.score(q.reshape(3, 1000, 32))
    with pytest.raises(TypeError, match=r"^queries must be float32 or float64, got int64$"):
        probe.score(q.astype(np.int64))
    with pytest.raises(TypeError, match=r"^queries must be float32 or float64, got float16$"):
        probe.score(q.astype(np.float16))
    x = q[:4]
    with pytest.raises(gpprobe.Error, match=r"^label 2 is 2; labels must be 0 or 1$"):
        gpprobe.Probe(x, np.array([0, 1, 2, 0], dtype=np.uint8))
    with pytest.raises(gpprobe.Error, match=r"^label 1 is 0.5; labels must be 0 or 1$"):
        gpprobe.Probe(x, [0, 0.5, 1, 0])
    with pytest.raises(gpprobe.Error, match=r"^labels have 3 entries, observations have 4 rows$"):
        gpprobe.Probe(x, [0, 1, 1])
    with pytest.raises(gpprobe.Error, match=r"^epsilon must be"):
        gpprobe.Probe(x, [0, 1, 1, 0], epsilon=0.0)
    with pytest.raises(gpprobe.Error, match=r"^space must be automatic, function or weight, got 'dual'$"):
        gpprobe.Probe(x, [0, 1, 1, 0], space="dual")
    with pytest.raises(gpprobe.Error, match=r"^norm must be"):
        probe.certify(q[:2], 0.1, norm="1")
    with pytest.raises(gpprobe.Error, match=r"coordinate 40 is out of range"):
        probe.certify(q[:2], 0.1, dims=[40])


def test_probe_file_errors_are_the_clis(tmp_path, cli):
    good = (REFERENCE / "probe_file" / "random_o40_d16.float64.probe.json").read_text()
    np.save(tmp_path / "q.npy", np.zeros((2, 16)))
    document = json.loads(good)
    document["labels"][3] = 2
    broken = {
        "labels.json": json.dumps(document),
        "notjson.json": good[: len(good) // 2],
        "version.json": good.replace('"version": 1', '"version": 2', 1),
    }
    for name, text in broken.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(gpprobe.Error) as e:
            gpprobe.Probe.load(path)
        assert e.value.code == "parse_error"
        printed = cli("probe", "--probe", path, "--queries", tmp_path / "q.npy", check=False)
        assert printed.returncode != 0
        assert printed.stderr.strip() == f"gpprobe probe: {e.value}", name
        assert str(path) in str(e.value)
    with pytest.raises(gpprobe.FileError, match="cannot open file") as e:
        gpprobe.Probe.load(tmp_path / "missing.probe.json")
    assert e.value.code == "io_error" and isinstance(e.value, OSError)


def test_models_raise_the_cores_messages():
    x = np.random.default_rng(2).standard_normal((6, 2))
    with pytest.raises(ValueError, match=r"^GPClassifier\(likelihood='probit'\) is binary: y holds 3 classes \(0, 1, 2\); "
                       r'GPClassifier\(likelihood="softmax"\) fits any number of classes$'):
        gpprobe.GPClassifier().fit(x, [0, 2, 1, 0, 1, 1])
    with pytest.raises(gpprobe.Error, match="EP is available with the probit likelihood only"):
        gpprobe.GPClassifier(method="ep", likelihood="logistic").fit(x, [0, 1, 1, 0, 1, 1])
    with pytest.raises(gpprobe.Error, match=r"3 length-scales for 2 input columns"):
        gpprobe.GPClassifier(length_scales=[1, 1, 1]).fit(x, [0, 1, 1, 0, 1, 1])
    with pytest.raises(gpprobe.Error, match=r"^the kernel has no parameter 'variance' \(it has: constant.value, rbf.length_scale\)$"):
        gpprobe.GPRegressor("rbf", parameters={"variance": 1.0}).fit(x, x[:, 0])
    with pytest.raises(gpprobe.Error, match=r"^kernel expression 'rbf\(0.5' at character 8: expected '\)'$"):
        gpprobe.GPRegressor("rbf(0.5").fit(x, x[:, 0])
    with pytest.raises(ValueError, match=r"^X has 3 features, but GPRegressor is expecting 2 features as input.$"):
        gpprobe.GPRegressor().fit(x, x[:, 0]).predict(np.zeros((1, 3)))
    with pytest.raises(gpprobe.NotFittedError, match="not fitted yet"):
        gpprobe.GPRegressor().predict(x)
