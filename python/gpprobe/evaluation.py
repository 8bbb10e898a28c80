"""The GPP paper's baselines and experiments from Python: ``gpprobe.baseline`` (``gpprobe baseline``) and
``gpprobe.evaluate`` (``gpprobe evaluate``, the app's Evaluate), on the same core (docs/python.md).

Nothing here computes: the baselines (linear probe, SVM, linear-probe ensemble, MSP, Mahalanobis, kNN)
and the experiments' protocol are the core's (gpprobe/baselines/baselines.h, gpprobe/evaluation/
experiment.h); this file names the columns as the CLI does and builds the tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from . import _gpprobe

#: The methods of :func:`baseline`.
BASELINES = ("lp", "svm", "lpe", "msp", "maha", "knn")


def baseline(
    method: str,
    observations: Any,
    labels: Any,
    queries: Any,
    *,
    k: int = 1,
    seed: int = 0,
    members: int = 100,
    C: float = 1.0,
) -> Dict[str, np.ndarray]:
    """A baseline fitted on labelled observations, scoring the queries, as ``gpprobe baseline --method``:

    ======  ============================================  =====================================
    method  ``score`` (what it ranks by)                  other columns
    ======  ============================================  =====================================
    lp      decision w'q + b (log-odds)                   probability sigmoid(w'q + b)
    svm     decision w'q + b                              (none)
    lpe     -variance of the members' probabilities       probability, episteme, alea
    msp     max(p, 1 - p) of the linear probe             probability p
    maha    -min over classes of the squared Mahalanobis  (none)
    knn     -distance to the k-th nearest normalised      (none)
            observation
    ======  ============================================  =====================================

    ``k`` (knn), ``seed`` and ``members`` (lpe resamples) and ``C`` (the L2 penalty's inverse: lp, svm,
    lpe, msp) as the CLI's flags (C has no flag: 1 there). Returns a dict of float64 columns, ``score``
    first, in the CLI's order.
    """
    return _gpprobe.run_baseline(method, observations, labels, queries, int(k), int(seed), int(members), float(C))


@dataclass
class Evaluation:
    """What :func:`evaluate` returns.

    ``table``: the CLI's CSV (method, metric, observations, mean, sd, trials), one row per curve point that
    ran (a pandas DataFrame when pandas is installed, else a dict of numpy columns). ``curves``: per curve
    its ``method``, ``metric``, every trial's ``values`` (trials by points; NaN where the method did not
    run), ``mean`` and ``sd``. ``observation_counts``: the points. ``schedule_limit``: why the points stop
    short of max_observations ("" when max_observations ended them; the CLI prints it on stderr).
    ``clouds``: the fuzzy experiment's per-query measures of trial 0 (the CLI's ``--clouds`` CSV rows:
    method, label_probability, observations, row, judged_probability, episteme, alea), as a table.
    """

    experiment: str
    table: Any
    curves: List[Dict[str, Any]] = field(default_factory=list)
    observation_counts: List[int] = field(default_factory=list)
    schedule_limit: str = ""
    trials: int = 0
    clouds: Any = None


def _table(columns: Dict[str, List[Any]], dtypes: Dict[str, Any]) -> Any:
    arrays = {name: np.array(values, dtype=dtypes[name]) for name, values in columns.items()}
    try:
        import pandas

        return pandas.DataFrame(arrays, columns=list(columns))
    except ImportError:
        return arrays


def evaluate(
    embeddings: Any,
    labels: Any,
    experiment: str = "probing",
    *,
    ood: Optional[Any] = None,
    query_mask: Optional[Any] = None,
    trials: int = 10,
    seed: int = 0,
    max_observations: int = 512,
    max_queries: int = 1000,
    members: int = 100,
    k: int = 1,
    epsilon: float = 0.1,
    strength: float = 5.0,
    gpc: bool = False,
    gpc_max_observations: int = 128,
) -> Evaluation:
    """An experiment of the GPP paper on labelled embeddings, as ``gpprobe evaluate --experiment``:

    - ``probing``: held-out AUROC of the probe's judged probability, LP's and SVM's decision values and
      LPE's judged probability as the observations grow 2, 4, 8, ... (``gpc=True`` adds GP classification,
      Laplace and EP, up to ``gpc_max_observations``);
    - ``fuzzy``: labels of positive observations flipped with probability 1 - p; Pearson r between p and the
      judged probability (and the per-query clouds of trial 0);
    - ``ood``: AUROC telling held-out queries from ``ood`` rows by the probe's -latent variance, MSP,
      Mahalanobis, kNN and LPE.

    The protocol (splits, schedule, seeds) is the core's (docs/python.md, "Evaluate"); the arguments are
    the CLI's flags. Returns an :class:`Evaluation`.
    """
    r = _gpprobe.run_experiment(
        experiment, embeddings, labels, ood, query_mask, int(trials), int(seed), int(max_observations),
        int(max_queries), int(members), int(k), float(epsilon), float(strength), bool(gpc), int(gpc_max_observations),
    )
    counts = list(r["observation_counts"])
    rows: Dict[str, List[Any]] = {name: [] for name in ("method", "metric", "observations", "mean", "sd", "trials")}
    for c in r["curves"]:
        for j, o in enumerate(counts):
            if np.isnan(c["mean"][j]):  # not run at this O (as the CLI leaves the row out)
                continue
            for name, value in (("method", c["method"]), ("metric", c["metric"]), ("observations", o),
                                ("mean", c["mean"][j]), ("sd", c["sd"][j]), ("trials", r["trials"])):
                rows[name].append(value)
    table = _table(rows, {"method": object, "metric": object, "observations": np.int64, "mean": np.float64,
                          "sd": np.float64, "trials": np.int64})
    cloud_rows: Dict[str, List[Any]] = {
        name: [] for name in ("method", "label_probability", "observations", "row", "judged_probability", "episteme",
                              "alea")
    }
    for c in r["clouds"]:
        for i, row in enumerate(c["rows"]):
            for name, value in (("method", c["method"]), ("label_probability", c["label_probability"]),
                                ("observations", c["observations"]), ("row", row),
                                ("judged_probability", c["judged_probability"][i]), ("episteme", c["episteme"][i]),
                                ("alea", c["alea"][i])):
                cloud_rows[name].append(value)
    clouds = _table(cloud_rows, {"method": object, "label_probability": np.float64, "observations": np.int64,
                                 "row": np.int64, "judged_probability": np.float64, "episteme": np.float64,
                                 "alea": np.float64})
    return Evaluation(experiment=r["experiment"], table=table, curves=list(r["curves"]), observation_counts=counts,
                      schedule_limit=r["schedule_limit"], trials=int(r["trials"]), clouds=clouds)
