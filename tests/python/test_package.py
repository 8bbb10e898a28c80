"""The package as users get it: the extension's type stubs name exactly what the extension registers,
and `pip install --no-build-isolation ./python` in a fresh virtual environment installs a module that
scores like the built one (the install reuses the native build's compiled core: GPPROBE_CMAKE_BUILD_DIR)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import gpprobe
from gpprobe import _gpprobe
from conftest import BUILD, PACKAGE_DIR, REFERENCE, ROOT


def stub_names(tree):
    """Top-level names of a .pyi, and each class's members."""
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


def test_the_stubs_name_what_the_extension_registers():
    names, members = stub_names(ast.parse((ROOT / "python" / "gpprobe" / "_gpprobe.pyi").read_text()))
    registered = {n for n in dir(_gpprobe) if not n.startswith("_")}
    assert names - {"MatrixLike"} == registered
    for cls in ("ProbeHandle", "ClassifierHandle", "MulticlassHandle", "RegressionHandle"):
        defined = {n for n in dir(getattr(_gpprobe, cls)) if not n.startswith("_")}
        assert members[cls] == defined, cls


def source_tree(folder):
    """Every path under `folder` (what a read-only checkout would refuse to have written into it)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_pip_installs_the_module_in_a_fresh_virtual_environment(tmp_path):
    before = source_tree(ROOT / "python")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["GPPROBE_CMAKE_BUILD_DIR"] = str(BUILD)
    subprocess.run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index", "-q",
                    str(ROOT / "python")], check=True, env=env, cwd=tmp_path)
    # nothing written into the source tree (no build/, no gpprobe.egg-info/): a read-only checkout installs
    assert source_tree(ROOT / "python") == before
    fixture = REFERENCE / "probe_file" / "random_o40_d16.float64.probe.json"
    script = (
        "import sys, numpy as np, gpprobe\n"
        "assert gpprobe.__file__.startswith(sys.prefix), gpprobe.__file__\n"
        f"s = gpprobe.Probe.load({str(fixture)!r}).score(np.load({str(tmp_path / 'q.npy')!r}))\n"
        f"np.save({str(tmp_path / 'installed.npy')!r}, np.column_stack([s[m] for m in gpprobe.MEASURES]))\n"
    )
    q = np.random.default_rng(9).standard_normal((500, 16))
    np.save(tmp_path / "q.npy", q)
    subprocess.run([str(python), "-c", script], check=True, env=env, cwd=tmp_path)
    expected = gpprobe.Probe.load(fixture).score(q)
    installed = np.load(tmp_path / "installed.npy")
    for j, measure in enumerate(gpprobe.MEASURES):
        assert np.array_equal(installed[:, j], expected[measure]), measure
