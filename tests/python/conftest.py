"""Shared fixtures of the Python module's tests: where the built module and the CLI are, the golden
files, and running the CLI.

The module is imported from the native build (build/native/python, written by CMake; scripts/test/test.sh
builds it), or from GPPROBE_BUILD_DIR/python when that is set; the CLI is the same build's `gpprobe`.
Worker processes of the Dask tests find the module through PYTHONPATH, set here too.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("GPPROBE_BUILD_DIR", ROOT / "build" / "native")).resolve()
PACKAGE_DIR = BUILD / "python"
CLI = BUILD / "gpprobe"
REFERENCE = ROOT / "tests" / "reference"

if not (PACKAGE_DIR / "gpprobe" / "__init__.py").exists():
    raise RuntimeError(f"{PACKAGE_DIR}/gpprobe is not built: run cmake --build {BUILD} (target gpprobe_python)")
sys.path.insert(0, str(PACKAGE_DIR))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_DIR), os.environ.get("PYTHONPATH")]))


@pytest.fixture(scope="session")
def cli():
    """Runs `gpprobe ARGS...`; returns the CompletedProcess (text stdout and stderr)."""
    if not CLI.exists():
        raise RuntimeError(f"{CLI} is not built")

    def run(*args, check=True):
        done = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"gpprobe {' '.join(map(str, args))} failed ({done.returncode}): {done.stderr}")
        return done

    return run


def read_csv(text):
    """The CLI's CSV output: header names and a dict of columns (numbers as float64, others as str)."""
    lines = text.strip().splitlines()
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    columns = {}
    for j, name in enumerate(header):
        values = [row[j] for row in rows]
        try:
            columns[name] = np.array([float(v) for v in values])
        except ValueError:
            columns[name] = np.array(values)
    return header, columns


def write_csv(path, matrix):
    """A matrix as CSV with 17 significant digits (the CLI reads back the same doubles)."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    with open(path, "w") as out:
        for row in matrix:
            out.write(",".join(repr(float(v)) for v in row) + "\n")
    return path


@pytest.fixture(scope="session")
def gpp_golden():
    with open(REFERENCE / "gpp_golden.json") as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="session")
def gpc_golden():
    with open(REFERENCE / "gpc_golden.json") as f:
        return json.load(f)["cases"]
