"""The package as users get it: the extension's type stubs name exactly what the extension registers,
and `pip install --no-build-isolation ./python` in a fresh virtual environment installs a module that
scores like the built one (the install reuses the native build's compiled core: GPPROBE_CMAKE_BUILD_DIR)."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gpprobe
from gpprobe import _gpprobe
from conftest import BUILD, PACKAGE_DIR, REFERENCE, ROOT


def stub_names(tree):
    """Top-level names of a .pyi, and each class's members (not the TypedDicts of the results: dict types)."""
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) == "TypedDict" for b in node.bases):
            continue
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


def read_only_mounts_work():
    """True when this process may make a private mount namespace with a read-only bind mount (root, or a
    user namespace): how the test below makes the checkout truly read-only, for root too."""
    if shutil.which("unshare") is None:
        return False
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && ! touch "{folder}/x"'
        probe = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not read_only_mounts_work(), reason="needs unshare and mount namespaces (a read-only bind "
                    "mount of the checkout); without them test_pip_installs_... only checks nothing is written")
def test_pip_installs_from_a_read_only_checkout(tmp_path):
    # The checkout is bind-mounted read-only in a private mount namespace (writes fail with EROFS even for
    # root); the native build folder, where the install reuses the compiled core, stays writable (mounted
    # back over its place when it lies inside the checkout). The venv and pip's scratch are outside.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    writable = tmp_path / "build-view"
    writable.mkdir()
    inside = str(BUILD).startswith(str(ROOT) + os.sep)
    script = "set -e\n"
    if inside:
        script += f'mount --bind "{BUILD}" "{writable}"\n'
    script += f'mount --bind "{ROOT}" "{ROOT}"\nmount -o remount,bind,ro "{ROOT}"\n'
    if inside:
        script += f'mount --bind "{writable}" "{BUILD}"\n'
    script += (f'if touch "{ROOT}/python/.gpprobe-write-test" 2>/dev/null; then echo "checkout is writable" >&2; '
               f'exit 3; fi\n'
               f'cd "{tmp_path}"\n'
               f'"{python}" -m pip install --no-build-isolation --no-deps --no-index -q "{ROOT}/python"\n'
               f'"{python}" -c "import sys, gpprobe; assert gpprobe.__file__.startswith(sys.prefix); '
               f'print(gpprobe.Probe(__import__(\'numpy\').eye(2), [0, 1]).score([[1.0, 0.0]])'
               f'[\'judged_probability\'][0])"\n')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["GPPROBE_CMAKE_BUILD_DIR"] = str(BUILD)
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"install from a read-only checkout failed ({done.returncode}):\n{done.stderr[-4000:]}"
    expected = gpprobe.Probe(np.eye(2), [0, 1]).score([[1.0, 0.0]])["judged_probability"][0]
    assert float(done.stdout.strip().splitlines()[-1]) == pytest.approx(expected, rel=0, abs=1e-15)
