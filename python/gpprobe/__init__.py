"""gpprobe: Gaussian process probes on embeddings, on the same C++ core as the gpprobe app and CLI.

    import gpprobe
    probe = gpprobe.Probe(observations, labels, epsilon=0.1, strength=5.0)   # or Probe.load("x.probe.json")
    scores = probe.score(X)          # dict of numpy arrays: judged_probability, episteme, alea, ...
    bounds = probe.certify(X, gamma=0.05)
    probe.save("x.probe.json")       # the file the app exports and `gpprobe probe --probe` reads
    gpprobe.loo(probe)               # leave-one-out verdict
    gpprobe.compare([layer_a, layer_b], labels).table   # which representation holds the concept
    gpprobe.GPClassifier().fit(X, y).predict_proba(X_test)    # likelihood="softmax": any number of classes
    gpprobe.ProbeClassifier(epsilon=0.1, strength=5).fit(X, y)  # the probe as a scikit-learn classifier
    gpprobe.GPRegressor("rbf").fit(X, y).predict(X_test, return_std=True)
    gpprobe.show(X, metadata, concept="label=cat")   # the live probe in a notebook cell (one-file page)
    gpprobe.publish(X, metadata, concept="label=cat", path="demo.html")   # the same page as one file
    gpprobe.load_probe("cat.probe.json")             # a probe exported from the page, back in Python

For data larger than one machine, ``gpprobe.dask`` maps a probe over the row blocks of a dask array
(docs/scale.md). The API: docs/python.md. Errors are ``gpprobe.Error`` (a ValueError; ``.code`` names the
core's status) with the core's message, ``gpprobe.FileError`` (an OSError) for unreadable files, and
TypeError for arrays of the wrong dtype.
"""

from ._gpprobe import Error, FileError, named_kernels, set_thread_count, thread_count
from ._estimator import NotFittedError
from .compare import COMPARE_COLUMNS, Comparison, compare, draw
from .evaluation import BASELINES, Evaluation, baseline, evaluate
from .models import ARDWarning, GPClassifier, GPRegressor
from .one_file import publish, show
from .probe import CERTIFY_COLUMNS, MEASURES, Probe, loo
from .probe_classifier import ProbeClassifier

#: A probe file (the app's or the one-file page's Export probe, or Probe.save) as a fitted Probe.
load_probe = Probe.load

__version__ = "0.1.0"

__all__ = [
    "ARDWarning",
    "BASELINES",
    "Evaluation",
    "baseline",
    "evaluate",
    "CERTIFY_COLUMNS",
    "COMPARE_COLUMNS",
    "Comparison",
    "Error",
    "compare",
    "draw",
    "FileError",
    "GPClassifier",
    "GPRegressor",
    "MEASURES",
    "NotFittedError",
    "Probe",
    "ProbeClassifier",
    "publish",
    "show",
    "load_probe",
    "loo",
    "named_kernels",
    "set_thread_count",
    "thread_count",
]
