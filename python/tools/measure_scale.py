"""Throughput of gpprobe's Python module and of gpprobe.dask, measured side by side (docs/scale.md).

    /usr/bin/python3 python/tools/measure_scale.py [--rows 500000] [--dimension 768] [--observations 100]
                                                    [--rounds 3] [--folder /tmp]

Writes a seeded float32 .npy of rows x dimension and a probe file of `observations` rows, then in each
round times, one after the other: Probe.score of the whole memory-mapped array in this process (core
threads 1 and 2), and gpprobe.dask.score on a LocalCluster of 1 worker and of 2 workers (1 Dask thread per
worker; core threads 1 per worker, and 2 for the one worker). Rounds interleave the configurations, so a
busy machine slows them alike. Each round's line gives that round's own times; the table gives each
configuration's best round, the spread of its rounds (slowest - fastest) and the ratios of the bests.
Then times `gpprobe probe` against the same fit + score through the module, on the same files (--cli,
default: the repository's build/native/gpprobe, else `gpprobe` on PATH; said and skipped when neither
exists).

Every file is written to a fresh folder inside --folder, removed at the end (also after an error or
Ctrl-C): nothing is left behind.
"""

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def cpu_seconds() -> float:
    """User + system CPU time of this process (all its threads) so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--dimension", type=int, default=768)
    parser.add_argument("--observations", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", default="/tmp")
    parser.add_argument("--cli", default=None, help="the gpprobe binary (default: build/native/gpprobe, or PATH's)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    folder = Path(tempfile.mkdtemp(prefix="gpprobe_scale_", dir=args.folder))
    try:
        measure(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def find_cli(given):
    """The gpprobe binary to compare with, or None."""
    if given is not None:
        return given if Path(given).exists() else None
    built = Path(__file__).resolve().parents[2] / "build" / "native" / "gpprobe"
    return str(built) if built.exists() else shutil.which("gpprobe")


def measure(args, folder: Path) -> None:
    import distributed
    import gpprobe
    import gpprobe.dask as gd

    npy, probe_path = folder / "gpprobe_scale.npy", folder / "gpprobe_scale.probe.json"
    rng = np.random.default_rng(17)
    x = rng.standard_normal((args.observations, args.dimension)).astype(np.float32)
    gpprobe.Probe(x, (x[:, :4].sum(axis=1) > 0).astype(np.uint8)).save(probe_path)
    out = np.lib.format.open_memmap(npy, mode="w+", dtype=np.float32, shape=(args.rows, args.dimension))
    for start in range(0, args.rows, 100_000):
        stop = min(args.rows, start + 100_000)
        out[start:stop] = rng.standard_normal((stop - start, args.dimension), dtype=np.float32)
    out.flush()
    del out
    memmap = np.load(npy, mmap_mode="r")
    probe = gpprobe.Probe.load(probe_path)
    print(f"{args.rows} x {args.dimension} float32, O = {args.observations} ({probe.space} space), "
          f"{os.cpu_count()} cores", flush=True)

    def in_process(threads):
        def run():
            gpprobe.set_thread_count(threads)
            probe.score(memmap)
            gpprobe.set_thread_count(0)
            return 0.0
        return run

    clusters = {}

    def on_cluster(workers, threads):
        def run():
            client = clusters[workers][1]
            before = client.run(cpu_seconds)
            client.compute(gd.score(probe_path, gd.from_npy(npy), threads=threads)).result()
            after = client.run(cpu_seconds)
            return sum(after[w] - before[w] for w in after)
        return run

    configurations = {
        "1 process, 1 core thread": in_process(1),
        "1 process, 2 core threads": in_process(2),
        "Dask, 1 worker x 1 core thread": on_cluster(1, 1),
        "Dask, 2 workers x 1 core thread": on_cluster(2, 1),
        "Dask, 1 worker x 2 core threads": on_cluster(1, 2),
    }
    for workers in (1, 2):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.CRITICAL)
        clusters[workers] = (cluster, distributed.Client(cluster))
        on_cluster(workers, 1)()  # each worker fits the probe and maps the file once before timing
    walls = {name: [] for name in configurations}
    cpu = {name: float("inf") for name in configurations}
    for round_ in range(args.rounds):
        for name, run in configurations.items():
            start, own = time.perf_counter(), cpu_seconds()
            workers_cpu = run()
            walls[name].append(time.perf_counter() - start)
            cpu[name] = min(cpu[name], cpu_seconds() - own + workers_cpu)
        # this round's own times (not the best so far)
        print(f"round {round_ + 1}: " + "; ".join(f"{n}: {walls[n][-1]:.2f}s" for n in configurations), flush=True)
    best = {name: min(times) for name, times in walls.items()}
    for cluster, client in clusters.values():
        client.close()
        cluster.close()

    base = best["1 process, 1 core thread"]
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("\n| configuration | wall, best round (s) | spread of the rounds (s) | rows/s | wall vs 1 process, 1 thread "
          "| CPU (s, all processes) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, seconds in best.items():
        spread = max(walls[name]) - min(walls[name])
        print(f"| {name} | {seconds:.2f} | {spread:.2f} | {args.rows / seconds:,.0f} | {base / seconds:.2f}x "
              f"| {cpu[name]:.2f} |")
    print(f"\nDask 2 workers / 1 worker (1 core thread each), wall: "
          f"{best['Dask, 1 worker x 1 core thread'] / best['Dask, 2 workers x 1 core thread']:.2f}x")

    cli = find_cli(args.cli)
    if cli is None:
        print(f"\nCLI comparison skipped: no gpprobe binary ({args.cli or 'build/native/gpprobe or PATH'}); "
              "pass --cli PATH to compare with `gpprobe probe`", flush=True)
    else:
        compare_with_cli(cli, args.dimension, args.rounds, folder)


def compare_with_cli(cli: str, dimension: int, rounds: int, folder: Path) -> None:
    """`gpprobe probe` against Probe(...).score(...) on the same .npy files (fit + score of 10,000 float64
    queries at O = 100, 1000, 4000), end to end from the files, interleaved. The CLI's time also holds its
    process start and writing the scores as CSV (to /dev/null); the Python time holds np.load."""
    import gpprobe

    sizes, queries = (100, 1000, 4000), 10_000
    rng = np.random.default_rng(5)
    q_path = folder / "gpprobe_scale_q.npy"
    np.save(q_path, rng.standard_normal((queries, dimension)))
    files = {}
    for o in sizes:
        files[o] = (folder / f"gpprobe_scale_o{o}.npy", folder / f"gpprobe_scale_l{o}.npy")
        np.save(files[o][0], rng.standard_normal((o, dimension)))
        np.save(files[o][1], rng.integers(0, 2, o).astype(np.uint8))
    cli_best = {o: float("inf") for o in sizes}
    python_best = {o: float("inf") for o in sizes}
    for _ in range(rounds):
        for o in sizes:
            x_path, y_path = files[o]
            start = time.perf_counter()
            subprocess.run([cli, "probe", "--observations", str(x_path), "--labels", str(y_path), "--queries",
                            str(q_path), "--out", os.devnull], check=True)
            cli_best[o] = min(cli_best[o], time.perf_counter() - start)
            start = time.perf_counter()
            q = np.load(q_path)
            gpprobe.Probe(np.load(x_path), np.load(y_path), expected_queries=len(q)).score(q)
            python_best[o] = min(python_best[o], time.perf_counter() - start)
    print("\n| O | gpprobe probe (s) | Python module (s) | Python / CLI |")
    print("| --- | --- | --- | --- |")
    for o in sizes:
        print(f"| {o} | {cli_best[o]:.3f} | {python_best[o]:.3f} | {python_best[o] / cli_best[o]:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
