"""gpprobe.dask on a real distributed.LocalCluster (2 worker processes, 1 thread each).

- 2,000,000 x 128 float32 rows (a seeded .npy, memory-mapped) scored on the cluster equal one process's
  Probe.score of the whole array bit for bit, and each worker fitted the probe file once;
- a worker process killed mid-run (SIGKILL): the scheduler recomputes its tasks on the other worker and
  on the one its nanny starts, and the result is complete and equal, bit for bit;
- a probe whose width differs from the data's fails at once with one gpprobe.Error; a row of NaN fails
  the computation with the core's message and the rows concerned; a probe file changed after the graph
  was made fails it (never a mix of two probes); none of these hangs (every wait has a timeout);
- a Probe object, a scattered Probe, a Zarr array, certify and the DataFrame form likewise equal one
  process's results.
"""

import logging
import os
import signal
import time

import numpy as np
import pytest

import gpprobe
import gpprobe.dask as gd

distributed = pytest.importorskip("distributed")

ROWS, COLS = 2_000_000, 128
WAIT = 600  # seconds: no computation here may hang


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The embeddings (.npy, float32, seeded), a probe file of 100 observations, and one process's scores."""
    folder = tmp_path_factory.mktemp("dask")
    rng = np.random.default_rng(2024)
    x = rng.standard_normal((100, COLS)).astype(np.float32)
    y = (x[:, :4].sum(axis=1) > 0).astype(np.uint8)
    probe = gpprobe.Probe(x, y, epsilon=0.1, strength=5.0)
    probe_path = folder / "concept.probe.json"
    probe.save(probe_path)
    npy = folder / "embeddings.npy"
    out = np.lib.format.open_memmap(npy, mode="w+", dtype=np.float32, shape=(ROWS, COLS))
    for start in range(0, ROWS, 250_000):
        out[start:start + 250_000] = rng.standard_normal((250_000, COLS), dtype=np.float32)
    out.flush()
    del out
    reference = gpprobe.Probe.load(probe_path).score(np.load(npy, mmap_mode="r"))
    return {"folder": folder, "probe": probe, "probe_path": probe_path, "npy": npy, "reference": reference}


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(2, timeout=120)
        yield c


def assert_same_bits(scores, reference, rows=slice(None)):
    assert scores.shape == (len(reference["latent_mean"][rows]), len(gpprobe.MEASURES))
    for j, measure in enumerate(gpprobe.MEASURES):
        expected = reference[measure][rows]
        assert np.array_equal(scores[:, j].view(np.uint64), expected.view(np.uint64)), measure


def test_two_million_rows_on_two_workers_equal_one_process(data, client):
    queries = gd.from_npy(data["npy"], rows_per_chunk=131072)
    assert queries.chunks[0] == (131072,) * 15 + (33920,)
    scores = client.compute(gd.score(data["probe_path"], queries)).result(timeout=WAIT)
    assert_same_bits(scores, data["reference"])
    loads = client.run(gd.loaded_probes)
    assert len(loads) == 2
    for worker, fitted in loads.items():
        assert fitted == {str(data["probe_path"]): 1}, worker


def test_a_killed_worker_is_replaced_and_the_result_is_complete(data, client):
    graph = gd.score(data["probe_path"], gd.from_npy(data["npy"], rows_per_chunk=32768))
    name = graph.name
    before = set(client.scheduler_info()["workers"])
    future = client.compute(graph)

    def finished(dask_scheduler, name=name):
        return sum(1 for key, ts in dask_scheduler.tasks.items() if name in str(key) and ts.state == "memory")

    deadline, busy = time.monotonic() + WAIT, []
    while client.run_on_scheduler(finished) < 3 or not busy:
        assert time.monotonic() < deadline and not future.done(), "the run ended before a worker could be killed"
        time.sleep(0.05)
        busy = [worker for worker, keys in client.processing().items() if any(name in str(k) for k in keys)]
    victim = busy[0]
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    scores = future.result(timeout=WAIT)
    assert_same_bits(scores, data["reference"])
    client.wait_for_workers(2, timeout=120)
    after = set(client.scheduler_info()["workers"])
    assert victim in before and victim not in after, "the killed worker is gone and another took its place"


def test_a_probe_of_another_width_fails_at_once(data, client, tmp_path):
    rng = np.random.default_rng(1)
    narrow = tmp_path / "narrow.probe.json"
    gpprobe.Probe(rng.standard_normal((10, 64)), rng.integers(0, 2, 10)).save(narrow)
    queries = gd.from_npy(data["npy"])
    start = time.monotonic()
    with pytest.raises(gpprobe.Error) as error:
        gd.score(narrow, queries)
    assert str(error.value) == f"queries have 128 columns, the observations of {narrow} have 64 columns"
    assert error.value.code == "dimension_mismatch"
    with pytest.raises(gpprobe.Error, match="queries have 128 columns"):
        gd.certify(narrow, queries, 0.1)
    assert time.monotonic() - start < 10


def test_certify_takes_the_keywords_of_probe_certify_and_no_other(data):
    # One reading of the arguments for both (gpprobe.probe.certify_options): a misspelt keyword fails with
    # Python's own TypeError before any graph is made, and the defaults are Probe.certify's.
    queries = gd.from_npy(data["npy"])
    with pytest.raises(TypeError, match="nrom"):
        gd.certify(data["probe_path"], queries, 0.1, nrom="2")
    assert gpprobe.probe.certify_options(0.1) == dict(
        gamma=0.1, norm="inf", dims=None, tolerance=0.01, max_iterations=10000, time_limit=0.0
    )
    assert gpprobe.probe.certify_options(1, dims=np.array([3, 1]), max_iterations=5.0)["dims"] == [3, 1]


def test_an_error_inside_a_block_fails_the_computation_with_its_rows(data, client, tmp_path):
    x = np.random.default_rng(5).standard_normal((5000, COLS)).astype(np.float32)
    x[3000, 7] = np.nan
    np.save(tmp_path / "nan.npy", x)
    graph = gd.score(data["probe_path"], gd.from_npy(tmp_path / "nan.npy", rows_per_chunk=1024))
    with pytest.raises(gpprobe.Error) as error:
        client.compute(graph).result(timeout=WAIT)
    assert str(error.value) == "rows 2048 to 3071 of the queries: queries row 952, column 7 is NaN"
    assert error.value.code == "non_finite"


def test_a_probe_file_changed_after_the_graph_was_made_fails_it(data, client, tmp_path):
    path = tmp_path / "changing.probe.json"
    data["probe"].save(path)
    graph = gd.score(path, gd.from_npy(data["npy"]))
    rng = np.random.default_rng(2)
    gpprobe.Probe(rng.standard_normal((12, COLS)), rng.integers(0, 2, 12), epsilon=0.3).save(path)
    with pytest.raises(gpprobe.Error, match="the probe file changed after the graph was made"):
        client.compute(graph).result(timeout=WAIT)


def test_a_probe_object_and_a_scattered_probe_score_like_one_process(data, client):
    rows = slice(0, 300_000)
    queries = gd.from_npy(data["npy"])[rows]
    shipped = client.compute(gd.score(data["probe"], queries)).result(timeout=WAIT)
    assert_same_bits(shipped, data["reference"], rows)
    scattered = client.scatter(data["probe"], broadcast=True)
    assert_same_bits(client.compute(gd.score(scattered, queries)).result(timeout=WAIT), data["reference"], rows)


def test_a_zarr_array_scores_like_one_process(data, client, tmp_path):
    zarr = pytest.importorskip("zarr")
    import dask.array as da

    rows = 150_000
    stored = zarr.open(str(tmp_path / "x.zarr"), mode="w", shape=(rows, COLS), chunks=(50_000, COLS), dtype="f4")
    stored[:] = np.load(data["npy"], mmap_mode="r")[:rows]
    queries = da.from_zarr(str(tmp_path / "x.zarr"))
    graph = gd.score(data["probe_path"], queries)
    assert graph.chunks[0] == (50176, 50176, 49648)  # aligned to the core's 256-row blocks
    assert_same_bits(client.compute(graph).result(timeout=WAIT), data["reference"], slice(0, rows))


def test_certify_and_the_dataframe_form_equal_one_process(data, client):
    queries = gd.from_npy(data["npy"], rows_per_chunk=512)[:2048]
    records = client.compute(gd.certify(data["probe_path"], queries, 0.02)).result(timeout=WAIT)
    expected = gpprobe.Probe.load(data["probe_path"]).certify(np.load(data["npy"], mmap_mode="r")[:2048], 0.02)
    assert records.dtype == gd.CERTIFY_DTYPE
    for field in gd.CERTIFY_DTYPE.names:
        assert np.array_equal(records[field], expected[field]), field
    frame = client.compute(gd.score(data["probe_path"], gd.from_npy(data["npy"])[:70_000], frame=True)).result(timeout=WAIT)
    assert list(frame.columns) == list(gpprobe.MEASURES)
    assert_same_bits(frame.to_numpy(), data["reference"], slice(0, 70_000))


def test_row_chunks_keep_the_cores_blocks():
    assert gd.row_chunks(1000, 128, 300) == (512, 488)
    assert gd.row_chunks(1100, 128, 256) == (256, 256, 256, 332)  # a remainder under 256 rows joins the last chunk
    assert gd.row_chunks(1100, 128, 512) == (512, 588)
    assert gd.row_chunks(100, 768, None) == (100,)
    assert gd.row_chunks(2600, 768, 256) == (512, 512, 512, 512, 552)  # at least (d + 1)/2 = 385 rows, whole blocks


def small_probe():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((20, 7))
    return gpprobe.Probe(x, (x[:, 0] > 0).astype(np.uint8)), rng


def test_an_empty_array_gives_an_empty_result():
    import dask.array as da

    probe, _ = small_probe()
    for chunks in ((10, 7), (0, 7)):
        empty = da.zeros((0, 7), chunks=chunks)
        scores = gd.score(probe, empty).compute(scheduler="synchronous")
        assert scores.shape == (0, len(gpprobe.MEASURES)) and scores.dtype == np.float64
        records = gd.certify(probe, empty, 0.1).compute(scheduler="synchronous")
        assert records.shape == (0,) and records.dtype == gd.CERTIFY_DTYPE
        assert len(gd.score(probe, empty, frame=True).compute(scheduler="synchronous")) == 0


def test_unknown_chunk_sizes_are_refused_with_a_message():
    import dask.array as da

    probe, rng = small_probe()
    q = da.from_array(rng.standard_normal((3000, 7)), chunks=(1000, 7))
    filtered = q[q[:, 0] > 0]
    with pytest.raises(gpprobe.Error, match=r"chunk sizes are unknown .*call queries.compute_chunk_sizes\(\) first"):
        gd.score(probe, filtered)
    known = filtered.compute_chunk_sizes()
    expected = probe.score(known.compute())
    scores = gd.score(probe, known).compute(scheduler="synchronous")
    np.testing.assert_allclose(scores[:, 0], expected["judged_probability"], rtol=0, atol=1e-12)


def test_blocks_with_more_rows_than_declared_are_refused():
    import dask.array as da

    probe, rng = small_probe()
    q = da.from_array(rng.standard_normal((3000, 7)), chunks=(3000, 7))
    liar = q.map_blocks(lambda b: np.vstack([b, b[:3]]), chunks=((3000,), (7,)))
    with pytest.raises(gpprobe.Error, match=r"rows 0 to 2999 of the queries: the block holds 3003 x 7 values but the "
                                            r"dask array declares 3000 x 7"):
        gd.score(probe, liar).compute(scheduler="synchronous")
    with pytest.raises(gpprobe.Error, match="the block holds 3003 x 7 values"):
        gd.certify(probe, liar, 0.1).compute(scheduler="synchronous")
