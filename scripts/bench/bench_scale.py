#!/usr/bin/python3
"""The Python columns of `npm run bench`'s scale table (scripts/bench/bench_scale.mjs), on the files that
script wrote in DIR (scale.json and .npy files of the core's seeded synthetic embeddings, the data
`gpprobe bench` makes from the same seed):

  numpy     fit + score per O, every formulation of bench_probe_numpy.py (function space; weight space as
            rowwise (P S) . P, or S = A_a^-1 + A_b^-1 summed, factored once, and |P L|^2 by gemm or trmm),
            best of `repeats` each, the fastest kept; numpy's BLAS threads are the caller's
            (OPENBLAS_NUM_THREADS) and named from threadpoolctl. Each formulation's five columns must equal
            the Python module's to 1e-9, or the script fails (then it is not the same work).
  python    gpprobe.Probe(x, labels, expected_queries=n) + .score(queries) on `threads` core threads, best
            of `repeats`, with the checksum `gpprobe bench --json` prints (judged[0] + variance[n - 1]).
  dask      with --dask-rows R > 0: gpprobe.dask.score of an R x dimension float32 .npy (memory-mapped,
            written here in a fresh folder under --folder and deleted at the end) on a distributed
            LocalCluster of 1 worker and one of 2 workers (1 Dask thread and 1 core thread each), each warmed
            once (every worker fits the probe and maps the file), then timed in interleaved rounds, best
            round each; both must give the same scores to the bit.

  /usr/bin/python3 scripts/bench/bench_scale.py DIR [--threads 2] [--repeats 3] [--dask-repeats 3]
      [--dask-rows 2000000] [--dask-dimension 768] [--dask-observations 100] [--folder /tmp]
      [--parts module,numpy,dask]   (bench_scale.mjs runs the module alone, interleaved with the CLI)
  -> one JSON object on stdout; progress on stderr
"""
import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_probe_numpy  # noqa: E402  (the numpy formulations and their quadrature)

TOLERANCE = 1e-9


def say(message):
    print(message, file=sys.stderr, flush=True)


def python_module(gpprobe, x, labels, queries, meta, threads, repeats):
    """Best fit + score of `repeats` through the module on `threads` threads; its columns in numpy's order."""
    gpprobe.set_thread_count(threads)
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        probe = gpprobe.Probe(x, labels, epsilon=meta["epsilon"], strength=meta["strength"],
                              expected_queries=len(queries))
        fitted = time.perf_counter()
        s = probe.score(queries)
        done = time.perf_counter()
        if best is None or done - start < best["fit_seconds"] + best["score_seconds"]:
            best = {"fit_seconds": fitted - start, "score_seconds": done - fitted, "space": probe.space,
                    "checksum": float(s["judged_probability"][0] + s["latent_variance"][-1]),
                    "columns": [s[name] for name in ("latent_mean", "latent_variance", "judged_probability",
                                                     "episteme", "alea")]}
    gpprobe.set_thread_count(0)
    return best


def numpy_best(x, labels, queries, meta, quadrature, ours, repeats):
    """The fastest formulation (fit + score, best of `repeats` each) after checking each against `ours`."""
    best = None
    for name in bench_probe_numpy.FORMULATIONS:
        runs = [bench_probe_numpy.run(name, x, labels, queries, meta, quadrature) for _ in range(repeats)]
        fit_s, score_s, columns = min(runs, key=lambda r: r[0] + r[1])
        difference = max(float(np.max(np.abs(a - b))) for a, b in zip(columns, ours))
        if not difference <= TOLERANCE:
            sys.exit(f"numpy's {name} formulation differs from gpprobe by {difference:.2e} at O = {len(x)} "
                     f"(more than {TOLERANCE:g}): not the same work")
        if best is None or fit_s + score_s < best["fit_seconds"] + best["score_seconds"]:
            best = {"formulation": name, "fit_seconds": fit_s, "score_seconds": score_s, "max_difference": difference}
    return best


def memory_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def dask_scaling(gpprobe, rows, dimension, observations, rounds, folder):
    """Seconds of gpprobe.dask.score over rows x dimension float32 on 1 and on 2 local workers."""
    import distributed
    import gpprobe.dask as gd

    size = rows * dimension * 4
    free = shutil.disk_usage(folder).free
    if size * 1.1 > free:
        sys.exit(f"the Dask workload needs {size / 2**30:.1f} GiB in {folder}, which has {free / 2**30:.1f} GiB free")
    cached = size < memory_available()
    say(f"dask: {rows:,} x {dimension} float32 ({size / 2**30:.1f} GiB, "
        f"{'held in the page cache' if cached else 'more than the memory available: read from disk'})")
    work = Path(tempfile.mkdtemp(prefix="gpprobe-bench-dask-", dir=folder))
    clusters = []
    try:
        rng = np.random.default_rng(17)
        x = rng.standard_normal((observations, dimension)).astype(np.float32)
        probe_path = work / "probe.json"
        gpprobe.Probe(x, (x[:, :4].sum(axis=1) > 0).astype(np.uint8)).save(probe_path)
        npy = work / "rows.npy"
        out = np.lib.format.open_memmap(npy, mode="w+", dtype=np.float32, shape=(rows, dimension))
        for start in range(0, rows, 100_000):
            stop = min(rows, start + 100_000)
            out[start:stop] = rng.standard_normal((stop - start, dimension), dtype=np.float32)
        out.flush()
        del out
        clients = {}
        for workers in (1, 2):
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.CRITICAL)
            clusters.append(cluster)
            clients[workers] = distributed.Client(cluster)

        def run(workers):
            return clients[workers].compute(gd.score(str(probe_path), gd.from_npy(str(npy)), threads=1)).result()

        scores = {workers: run(workers) for workers in (1, 2)}  # warm: each worker fits and maps once
        if not np.array_equal(scores[1], scores[2]):
            sys.exit("Dask on 2 workers gave other scores than on 1")
        del scores
        best = {1: float("inf"), 2: float("inf")}
        for round_ in range(rounds):
            for workers in (1, 2):
                start = time.perf_counter()
                run(workers)
                best[workers] = min(best[workers], time.perf_counter() - start)
            say(f"dask round {round_ + 1}: 1 worker {best[1]:.2f} s, 2 workers {best[2]:.2f} s")
        for client in clients.values():
            client.close()
        return {"rows": rows, "dimension": dimension, "observations": observations, "page_cache": cached,
                "one_worker_seconds": best[1], "two_workers_seconds": best[2]}
    finally:
        for cluster in clusters:
            cluster.close()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dask-repeats", type=int, default=3)
    parser.add_argument("--dask-rows", type=int, default=0)
    parser.add_argument("--dask-dimension", type=int, default=768)
    parser.add_argument("--dask-observations", type=int, default=100)
    parser.add_argument("--folder", default="/tmp")
    parser.add_argument("--parts", default="module,numpy,dask", help="which of module, numpy, dask to run")
    args = parser.parse_args()

    import gpprobe

    directory = Path(args.directory)
    meta = json.loads((directory / "scale.json").read_text())
    queries = np.load(directory / meta["queries"])
    nodes, weights = np.polynomial.hermite_e.hermegauss(128)
    quadrature = (nodes, weights / weights.sum())
    cases = [(np.load(directory / case["observations"]), np.load(directory / case["labels"])) for case in meta["cases"]]
    parts = set(args.parts.split(","))
    out = {"threads": args.threads}
    # The module's rows come from their own run (--parts module), as the CLI's come from its own process:
    # timed after numpy's runs in the same process, the module's fit at O = 4,000 took 2-4 ms longer (page
    # faults: the heap malloc had grown for numpy's arrays was given back and faulted in again), which is
    # the state of the process's allocator, not the module.
    if "module" in parts:
        out["python"] = []
        for x, labels in cases:
            say(f"python module at O = {len(x)}")
            row = python_module(gpprobe, x, labels, queries, meta, args.threads, args.repeats)
            row.pop("columns")
            out["python"].append({"observations": len(x), **row})
    if "numpy" in parts:
        out["blas"] = bench_probe_numpy.blas_name()
        out["numpy"] = []
        for x, labels in cases:
            say(f"numpy at O = {len(x)}")
            ours = python_module(gpprobe, x, labels, queries, meta, args.threads, 1)["columns"]  # to check numpy against
            out["numpy"].append({"observations": len(x), **numpy_best(x, labels, queries, meta, quadrature, ours, args.repeats)})
    if "dask" in parts and args.dask_rows > 0:
        out["dask"] = dask_scaling(gpprobe, args.dask_rows, args.dask_dimension, args.dask_observations,
                                   args.dask_repeats, args.folder)
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
