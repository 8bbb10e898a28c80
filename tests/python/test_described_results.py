"""The dicts of the described results (python/src/described.h py_dict) have exactly the keys of their
TypedDicts in python/gpprobe/_gpprobe.pyi (printed from the same descriptions), nested dicts included, and
values of the declared kinds (numpy arrays where the stub says NDArray, lists where it says List)."""

import ast

import numpy as np

import gpprobe
from gpprobe import _gpprobe
from conftest import ROOT


def typed_dicts():
    """Each TypedDict of the stub: its fields' annotations as source text."""
    tree = ast.parse((ROOT / "python" / "gpprobe" / "_gpprobe.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) == "TypedDict" for b in node.bases):
            out[node.name] = {n.target.id: ast.unparse(n.annotation) for n in node.body if isinstance(n, ast.AnnAssign)}
    return out


def check(value, name, dicts, where):
    fields = dicts[name]
    assert isinstance(value, dict), where
    assert list(value) == list(fields), f"{where}: keys {list(value)} vs {name}'s {list(fields)}"
    for key, annotation in fields.items():
        v = value[key]
        at = f"{where}[{key!r}]"
        if annotation.startswith("npt.NDArray"):
            assert isinstance(v, np.ndarray) and v.dtype == np.float64, at
        elif annotation.startswith("List["):
            inner = annotation[len("List["):-1]
            assert isinstance(v, list), at
            for i, item in enumerate(v):
                if inner in dicts:
                    check(item, inner, dicts, f"{at}[{i}]")
                else:
                    assert isinstance(item, {"int": int, "str": str, "float": float}[inner]), at
        elif annotation in dicts:
            check(v, annotation, dicts, at)
        elif annotation.startswith("Literal["):
            assert v in ast.literal_eval(annotation[len("Literal"):].replace("[", "(").replace("]", ",)")), at
        else:
            assert type(v) is {"int": int, "str": str, "float": float, "bool": bool}[annotation], at


def data(seed=0, n=60, d=5):
    rng = np.random.default_rng(seed)
    y = (rng.uniform(size=n) < 0.5).astype(np.uint8)
    x = rng.standard_normal((n, d)) + (2.0 * y[:, None] - 1.0) * np.eye(d)[0]
    return x, y


def test_leave_one_out_has_the_keys_of_its_typed_dict():
    x, y = data()
    handle = _gpprobe.fit_probe(x, y)
    check(handle.leave_one_out(), "LeaveOneOut", typed_dicts(), "leave_one_out()")


def test_an_experiment_has_the_keys_of_its_typed_dict():
    x, y = data(seed=3)
    dicts = typed_dicts()
    for experiment in ("probing", "fuzzy"):
        result = _gpprobe.run_experiment(experiment, x, y, trials=1, seed=1, max_observations=16, max_queries=20,
                                         members=5)
        check(result, "ExperimentResult", dicts, experiment)
        if experiment == "fuzzy":
            assert result["clouds"], "the fuzzy experiment's clouds are checked too"


def test_a_stub_without_a_key_fails_the_check():
    x, y = data()
    dicts = typed_dicts()
    del dicts["LeaveOneOut"]["verdict"]
    try:
        check(_gpprobe.fit_probe(x, y).leave_one_out(), "LeaveOneOut", dicts, "leave_one_out()")
    except AssertionError:
        return
    raise AssertionError("a key missing from the TypedDict went unnoticed")
