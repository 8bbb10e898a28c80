"""Which representation holds the concept? ``gpprobe.compare`` (the CLI's ``gpprobe compare``, the app's
Compare) and ``gpprobe.draw`` (``gpprobe draw``) on the same core (docs/compare.md, docs/python.md).

Nothing here computes: the probes, leave-one-out and held-out AUROCs, DeLong's paired tests, the
comparison over draws of the observations and the sentence are the core's
(gpprobe/compare/representation_comparison.h, gpprobe/compare/draw_comparison.h); this file names the
columns as the CLI does and builds the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _gpprobe

#: The columns of :func:`compare`'s table, in the CLI's order (``gpprobe compare``'s CSV header).
COMPARE_COLUMNS = (
    "embedding",
    "width",
    "loo_auroc",
    "loo_auroc_lower",
    "loo_auroc_upper",
    "heldout_auroc",
    "mean_episteme",
    "mean_alea",
    "decided_fraction",
    "ood_auroc",
    "heldout_auroc_lower",
    "heldout_auroc_upper",
    "loo_verdict",
    "observations",
    "heldout_rows",
    "queries",
    "separates",
    "p_value_against_best",
    "indistinguishable_from_best",
    "concept",
    "below_half",
    "draws",
    "draw_mean_auroc",
    "draw_sd_auroc",
    "draw_min_auroc",
    "draw_max_auroc",
    "draw_auroc_lower",
    "draw_auroc_upper",
    "draw_difference_from_best",
    "draw_p_value_against_best",
    "draw_holm_p_value",
    "draw_indistinguishable_from_best",
    "draw_separates",
    "draw_below_half",
    "draw_highest_in",
    "draw_claimed_best_in",
)
_TEXT = {
    "embedding",
    "loo_verdict",
    "separates",
    "indistinguishable_from_best",
    "concept",
    "below_half",
    "draw_indistinguishable_from_best",
    "draw_separates",
    "draw_below_half",
}
_COUNTS = {"width", "observations", "heldout_rows", "queries", "draws"}


@dataclass
class Comparison:
    """What :func:`compare` returns.

    ``table``: one row per (concept, embedding) with the CLI's columns (:data:`COMPARE_COLUMNS`); a pandas
    DataFrame when pandas is installed, else a dict of numpy columns. Undefined numbers (the CLI's empty
    cells) are NaN; ``separates``, ``indistinguishable_from_best`` and ``below_half`` are "yes", "no", or
    "" when no paired test was possible (as in the CLI's CSV). The columns up to ``below_half`` are the
    first draw's; the ``draw_`` columns are the numbers over the draws (NaN and "" with one draw;
    ``draw_highest_in`` and ``draw_claimed_best_in`` are counts of draws, float64 for that NaN).
    ``sentence``: what the numbers support, in one sentence (the CLI's JSON "sentence"); with several
    concepts, the sentences one per line.
    ``concepts``: per concept the CLI's JSON line (concept, basis, basis_rows, best, episteme_threshold,
    sentence, draws) and ``observation_rows`` (the first draw's rows the probes were fitted on), the paired
    tests of every pair of embeddings in the first draw (K by K ``difference``, ``standard_error``,
    ``p_value``; NaN without a basis), and ``draw_auroc`` (R by K: each draw's AUROC on its basis; 0 by K
    with one draw).
    """

    table: Any
    sentence: str
    concepts: List[Dict[str, Any]] = field(default_factory=list)


def draw(labels: Any, per_class: int, seed: int = 0) -> np.ndarray:
    """N random observations per class: the rows ``gpprobe draw --labels FILE --per-class N --seed S``
    prints and the app's "draw N per class" picks for the same labels and seed (ascending row indices).

    For each class in the order 1, 0, a partial Fisher-Yates shuffle of its rows (ascending) takes
    min(per_class, its count) of them; one random stream serves both classes. ``labels``: 0/1 per row.
    """
    if isinstance(per_class, bool) or int(per_class) != per_class or per_class < 0:
        raise ValueError(f"per_class must be a whole number >= 0, got {per_class!r}")
    if isinstance(seed, bool) or int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    return np.array(_gpprobe.draw_observations(labels, int(per_class), int(seed)), dtype=np.int64)


def _missing(v: Any) -> bool:
    if v is None:
        return True
    try:
        return bool(v != v)  # NaN
    except TypeError:  # pandas.NA
        return True


def _label_vector(labels: Any, what: str) -> np.ndarray:
    """0/1 labels, NaN (or None, or pandas' NA) for an unlabelled row, as float64."""
    values = np.asarray(labels)
    if values.dtype == object:
        values = np.array([np.nan if _missing(v) else v for v in values.tolist()], dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D array of 0/1 (NaN for unlabelled), got shape {values.shape}")
    return values.astype(np.float64)


def compare(
    embeddings: Union[Sequence[Any], Mapping[str, Any]],
    labels: Any,
    per_class: int = 8,
    seed: int = 0,
    names: Optional[Sequence[str]] = None,
    *,
    observations: Optional[Sequence[int]] = None,
    ood: Optional[Sequence[Any]] = None,
    epsilon: float = 0.1,
    strength: float = 5.0,
    decided: float = 0.1,
    episteme_threshold: Optional[float] = None,
    concept: str = "concept",
    draws: Optional[int] = None,
) -> Comparison:
    """Probes the same concept with the same observation rows in every embedding of the same n items (one
    probe each, the same epsilon and strength) and judges them as ``gpprobe compare`` does (docs/compare.md).

    Parameters
    ----------
    embeddings : list of (n, d_k) float32/float64 arrays, or a dict name -> array
    labels : (n,) 0/1 with NaN (or None) for unlabelled rows; or a dict concept name -> such labels (several
        concepts, each compared on its own, as ``--concepts``)
    per_class, seed : the observations drawn per class among the labelled rows (:func:`draw`'s rows, as
        ``--per-class`` and ``--seed``), unless ``observations`` gives the rows
    names : the ``embedding`` column (default: the dict's keys, or "embedding 0", "embedding 1", ...)
    ood : one (m_k, d_k) OOD set per embedding (adds ``ood_auroc``)
    epsilon, strength : the probes' prior
    decided, episteme_threshold : what counts in ``decided_fraction`` (as ``--decided`` and
        ``--episteme-threshold``; None = the episteme one observation gives at its own point)
    concept : the ``concept`` column with one concept
    draws : R, how many draws of the observations to compare over (``--draws``; None: the CLI's default,
        20). With drawn observations each draw takes ``per_class`` labelled rows of each class afresh (the
        first is ``seed``'s) and is measured on the labelled rows it did not take; with ``observations``
        each draw after the first resamples them with replacement within each class, which needs 2 other
        labelled rows of each class: without them, draws=None compares the one set alone (the concept's
        ``draws`` says why) and an explicit draws refuses. 1: the one set of observations alone.

    Returns a :class:`Comparison`: the table, its sentence, and per concept the basis of the paired tests.
    """
    if isinstance(embeddings, Mapping):
        if names is None:
            names = [str(k) for k in embeddings]
        arrays = list(embeddings.values())
    else:
        arrays = list(embeddings)
    if not arrays:
        raise ValueError("embeddings is empty: give at least one (n, d) array")
    if names is None:
        names = [f"embedding {k}" for k in range(len(arrays))]
    names = [str(n) for n in names]
    if len(names) != len(arrays):
        raise ValueError(f"names has {len(names)} names for {len(arrays)} embeddings")
    if ood is not None and len(ood) != len(arrays):
        raise ValueError(f"ood has {len(ood)} sets for {len(arrays)} embeddings; give one per embedding, in order")
    for what, value in (("per_class", per_class), ("seed", seed)):
        if isinstance(value, bool) or int(value) != value or value < 0:
            raise ValueError(f"{what} must be a whole number >= 0, got {value!r}")
    if draws is not None and (isinstance(draws, bool) or int(draws) != draws or not 1 <= draws <= 10000):
        raise ValueError(
            f"draws must be a whole number from 1 to 10000 (1: the one set of observations alone), got {draws!r}"
        )
    concepts = labels.items() if isinstance(labels, Mapping) else [(concept, labels)]
    rows = None if observations is None else [int(r) for r in observations]
    given = [(str(name), _label_vector(values, f"labels of {name}"), rows) for name, values in concepts]
    threshold = float("nan") if episteme_threshold is None else float(episteme_threshold)
    results = _gpprobe.compare_representations(
        arrays, names, given, None if ood is None else list(ood), int(per_class), int(seed), float(epsilon),
        float(strength), float(decided), threshold, 20 if draws is None else int(draws), draws is not None,
    )
    table_rows = [dict(row, concept=c["concept"]) for c in results for row in c.pop("rows")]
    columns = {name: [row[name] for row in table_rows] for name in COMPARE_COLUMNS}
    for name in COMPARE_COLUMNS:
        if name in _TEXT:
            columns[name] = np.array(columns[name], dtype=object)
        elif name in _COUNTS:
            columns[name] = np.array(columns[name], dtype=np.int64)
        else:
            columns[name] = np.array(columns[name], dtype=np.float64)
    try:
        import pandas

        table: Any = pandas.DataFrame(columns, columns=list(COMPARE_COLUMNS))
    except ImportError:
        table = columns
    for c in results:
        c["observation_rows"] = np.array(c["observation_rows"], dtype=np.int64)
    return Comparison(table=table, sentence="\n".join(c["sentence"] for c in results), concepts=results)
