"""The Gaussian process probe in Python's conventions (docs/python.md; the maths: docs/design/probe.md).

:class:`Probe` wraps the core's fitted probe: numpy in and out, float32 or float64 matrices read in place
when C-contiguous, the GIL released while the core works. :func:`loo` is the closed-form leave-one-out
check. Nothing here computes: every number is the core's (the same as the CLI's and the app's).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Dict, Mapping, Optional, Sequence, Union

import numpy as np

from . import _gpprobe
from .probe_file import probe_file_bytes

#: The per-query measures of :meth:`Probe.score`, in the CLI's column order.
MEASURES = ("judged_probability", "episteme", "alea", "latent_mean", "latent_variance", "knowledge", "ood_score")

#: The numeric columns of :meth:`Probe.certify`, in the CLI's column order (then verdict_can_flip,
#: certify_status, certify_iterations).
CERTIFY_COLUMNS = (
    "judged_probability",
    "judged_probability_lower",
    "judged_probability_lowest_found",
    "judged_probability_highest_found",
    "judged_probability_upper",
    "latent_mean_lower",
    "latent_mean_upper",
    "latent_variance_lower",
    "latent_variance_upper",
    "episteme_lower",
    "episteme_upper",
)

PathLike = Union[str, "os.PathLike[str]"]


def _kept_observations(observations: Any) -> np.ndarray:
    """A C-order copy of the observations in their precision (float32 stays float32), for save()."""
    if isinstance(observations, np.ndarray) and observations.dtype == np.float32:
        return np.array(observations, dtype=np.float32, order="C", copy=True)
    return np.array(observations, dtype=np.float64, order="C", copy=True)


class Probe:
    """A Gaussian process probe fitted to labelled embeddings (Wang et al., NeurIPS 2023).

    The Beta GP prior: g(a) = sigmoid(f(a)), f = f_alpha - f_beta, two GPs with the cosine kernel
    k(a, b) = v (a.b + 1) / sqrt((|a|^2 + 1)(|b|^2 + 1)), v = log(1/epsilon + 1), whose log-normal
    moments match Gamma(epsilon, 1), so that g(a) ~ Beta(epsilon, epsilon) a priori and an observation with
    label y moves it like Beta(epsilon + s y, epsilon + s (1 - y)) (s = ``strength``).

    Parameters
    ----------
    observations : (O, d) float32 or float64 array
        The labelled embeddings (O may be 0: the probe is then its prior).
    labels : (O,) array of 0/1
    epsilon : float
        The prior's concentration, > 0 (default 0.1).
    strength : float
        How far one observation moves the Beta parameters, > 0 (default 5).
    space : {"automatic", "function", "weight"}
        Where the posterior lives: function space costs O(O^2 D + O^3) to fit and O(O D + O^2) per query,
        weight space O(O D^2 + D^3) and O(D^2) (D = d + 1); both give the same numbers. ``automatic``
        takes the cheaper for ``expected_queries`` queries (and the better conditioned, if one is
        ill-conditioned): :attr:`space` says which.
    expected_queries : int
        The number of queries ``automatic`` weighs the costs for (default 10,000).

    Raises
    ------
    gpprobe.Error (a ValueError)
        With the core's message: "label 3 is 2; labels must be 0 or 1", "observations row 2, column 0 is
        NaN", "epsilon must be ...".
    TypeError
        For arrays that are not float32/float64.
    """

    __slots__ = ("_handle", "_observations", "_expected_queries")

    def __init__(
        self,
        observations: Any,
        labels: Any,
        *,
        epsilon: float = 0.1,
        strength: float = 5.0,
        space: str = "automatic",
        expected_queries: int = 10000,
    ) -> None:
        self._handle = _gpprobe.fit_probe(observations, labels, epsilon, strength, space, expected_queries)
        self._observations = _kept_observations(observations)
        self._expected_queries = int(expected_queries)

    @classmethod
    def load(cls, path: PathLike, *, space: Optional[str] = None, expected_queries: int = 10000) -> "Probe":
        """The probe of a probe file (the app's "Export probe", or :meth:`save`).

        Read by the core's reader, the one ``gpprobe probe --probe FILE`` uses, and fitted with the file's
        epsilon, strength and space; ``space`` overrides the file's, like the CLI's ``--space``. Errors
        name the file: "p.probe.json: \\"labels\\" has 15 values for 16 observation rows"
        (gpprobe.Error, code parse_error or dimension_mismatch); a missing file is a gpprobe.FileError
        (an OSError).
        """
        return cls._of_file(_gpprobe.read_probe_file(os.fspath(path)), space, expected_queries)

    @classmethod
    def from_file_bytes(
        cls, content: bytes, *, name: str = "probe file", space: Optional[str] = None, expected_queries: int = 10000
    ) -> "Probe":
        """The probe of a probe file's bytes (read elsewhere, e.g. from object storage); ``name`` names them in
        error messages. Otherwise as :meth:`load`."""
        return cls._of_file(_gpprobe.parse_probe_file(bytes(content), name), space, expected_queries)

    @classmethod
    def _of_file(cls, file: Mapping[str, Any], space: Optional[str], expected_queries: int) -> "Probe":
        return cls(
            file["observations"],
            file["labels"],
            epsilon=file["epsilon"],
            strength=file["strength"],
            space=space if space is not None else file["space"],
            expected_queries=expected_queries,
        )

    def score(self, queries: Any) -> Dict[str, np.ndarray]:
        """The probe's measures at each query row: a dict of seven float64 arrays of length n.

        With f ~ N(latent_mean, latent_variance) the posterior latent at the query and g = sigmoid(f)
        (expectations by Gauss-Hermite quadrature):

        - ``judged_probability`` E[g]
        - ``episteme``           -H[g], H[g] = 1/2 log(2 pi e variance) - mean - 2 E[softplus(-f)]
        - ``alea``               E[H_b(g)], the expected binary entropy of g
        - ``latent_mean``        m(a) = m_alpha(a) - m_beta(a)
        - ``latent_variance``    sigma^2(a) = v_alpha(a) + v_beta(a), in (0, 2v]
        - ``knowledge``          1 - sigma^2(a) / (2v), in [0, 1]
        - ``ood_score``          -sigma^2(a) (higher: more in-distribution)

        ``queries`` is (n, d) float32 or float64; C-contiguous arrays are read in place, others are copied
        once to C order. The GIL is released while the core scores (on its own threads).
        """
        return self._handle.score(queries)

    def certify(
        self,
        queries: Any,
        gamma: float,
        *,
        norm: str = "inf",
        dims: Optional[Sequence[int]] = None,
        tolerance: float = 0.01,
        max_iterations: int = 10000,
        time_limit: float = 0.0,
    ) -> Dict[str, np.ndarray]:
        """Certified bounds of the measures over the set around each query (docs/design/certify.md).

        The set is the L-inf box a* +/- gamma (``norm="inf"``) or the L2 ball |a - a*| <= gamma
        (``norm="2"``) on the coordinates ``dims`` (all when None), the others fixed. For every query of
        the set the true latent mean, latent variance, judged probability and episteme lie inside the
        returned bounds. With ``dims`` given, branch and bound also searches the judged probability's
        minimum and maximum (to ``tolerance``, within ``max_iterations`` boxes and ``time_limit`` seconds
        per search, 0 = none), as ``gpprobe probe --certify-dims`` does, and returns the witnesses.

        Returns a dict of the CLI's columns: the floats of :data:`CERTIFY_COLUMNS`; ``verdict_can_flip``
        ("no", "yes", "unknown": whether a query of the set lies on the other side of 1/2);
        ``certify_status`` (a branch-and-bound stop reason, or "bounds_only" without ``dims``);
        ``certify_iterations``; and with ``dims`` ``lowest_witness`` and ``highest_witness`` (n by d).
        """
        o = certify_options(
            gamma, norm=norm, dims=dims, tolerance=tolerance, max_iterations=max_iterations, time_limit=time_limit
        )
        return self._handle.certify(
            queries, o["gamma"], o["norm"], o["dims"], o["tolerance"], o["max_iterations"], o["time_limit"]
        )

    def add_observation(self, observation: Any, label: int) -> None:
        """One more labelled observation (a row of d values, label 0 or 1), taken into the posterior in place
        as the app's labelling does (a rank-one update, O(D^2) in weight space; not a refit): later scores
        agree with a fresh fit on all the observations to rounding (relative error about 1e-16 times
        :attr:`condition`), not bit for bit. Not while another thread scores this probe."""
        row = np.asarray(observation)
        if row.ndim == 1:
            row = row.reshape(1, -1)
        self._handle.add_observation(row, np.array([label]))
        if row.dtype != self._observations.dtype:  # float32 and float64 mixed: keep every value exactly
            self._observations = self._observations.astype(np.float64)
        self._observations = np.vstack([self._observations, row.astype(self._observations.dtype)])

    def remove_observation(self, index: int) -> None:
        """Takes observation ``index`` (0-based, in :attr:`observations` order) out of the posterior in place
        (a rank-one downdate; refactored when the update's drift check fails). Not while another thread
        scores this probe."""
        self._handle.remove_observation(int(index))
        self._observations = np.delete(self._observations, int(index), axis=0)

    def knowledge_gain(self, queries: Any, space: str = "automatic") -> np.ndarray:
        """The app's "label next" ranking: the expected rise of the knowledge score at each query from
        labelling it, [sigma^2 - p sigma'^2(1) - (1 - p) sigma'^2(0)] / (2v), with p the judged probability
        and sigma'^2(y) the latent variance after one more observation with label y there (variances do
        not depend on targets). In [0, 1); largest where the probe knows least, so an outlier can rank
        high: look at its ``ood_score`` too. ``np.argsort(-gain)`` orders the rows to label."""
        return self._handle.knowledge_gain(queries, space)

    def explain(
        self,
        x: Any,
        gamma: float,
        *,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Sequence[float]] = None,
        tolerance: float = 0.001,
        max_iterations: int = 1000,
        time_limit: float = 0.0,
        baseline: str = "mean",
        lime_samples: int = 5000,
        seed: int = 0,
        include_constant: bool = False,
        nearly_constant_share: float = 0.02,
    ) -> Dict[str, Any]:
        """Why the probe judged x so, as ``gpprobe explain --probe`` computes it: per feature i of ``dims``
        (all when None) the certified sensitivity (Blaas et al., AISTATS 2020, eqs. 21-26) of the judged
        probability, Delta_i = (max over [x, x + gamma e_i] - max over [x - gamma e_i, x]) + (the same of
        the minima), positive when raising the feature raises it, beside LIME's coefficient (Ribeiro,
        Singh and Guestrin, KDD 2016; a switched-off feature becomes the observations' mean, or 0 with
        ``baseline="zero"``; ``lime_samples`` samples drawn with ``seed``). Certified bounds
        ``delta_lower`` <= Delta <= ``delta_upper`` from four branch-and-bound searches (to ``tolerance``,
        within ``max_iterations`` boxes each; ``time_limit`` seconds, 0 = none, for all of them together:
        one clock, and a search reached after it bounds its box without splitting it, its feature's
        ``status`` "time_limit"), ``delta`` from their witnesses;
        the boxes are clipped to ``valid_range``. The same dict as :meth:`GPClassifier.explain`: the CLI's
        columns (feature, delta_lower, delta, delta_upper, lime, rank, constant_in_training,
        nearly_constant_in_training, varying_rows; rank 0 where the CLI's cell is empty), status,
        iterations, and its JSON line's fields. A feature constant in the observations, or nearly constant
        (off its most common value in fewer than max(2, ``nearly_constant_share`` x n) observations), is
        not ranked unless ``include_constant``."""
        return self._handle.explain(
            [float(v) for v in np.asarray(x, dtype=np.float64).ravel()], float(gamma),
            None if dims is None else [int(i) for i in dims],
            None if valid_range is None else (float(valid_range[0]), float(valid_range[1])), float(tolerance),
            int(max_iterations), float(time_limit), str(baseline), int(lime_samples), int(seed),
            bool(include_constant), float(nearly_constant_share),
        )

    def loo(self, space: str = "automatic") -> Dict[str, Any]:
        """Leave-one-out judged probabilities of the observations in closed form, and their verdict.

        See :func:`gpprobe.loo`.
        """
        return self._handle.leave_one_out(space)

    def save(
        self,
        path: PathLike,
        *,
        observation_rows: Optional[Sequence[int]] = None,
        data: Optional[Mapping[str, Any]] = None,
    ) -> None:
        """Writes the probe file the app's "Export probe" writes for this probe (same bytes).

        It holds what a fit needs (epsilon, strength, the space in use, the observations in their
        precision, the labels), never a posterior: every reader refits the same probe. ``observation_rows``
        and ``data`` are the app's optional provenance (the rows of the data the observations came from,
        and ``{"name", "rows", "cols", "dtype", "sha256"}`` of that data).
        """
        content = self.file_bytes(observation_rows=observation_rows, data=data)
        with open(os.fspath(path), "wb") as out:
            out.write(content)

    def file_bytes(
        self, *, observation_rows: Optional[Sequence[int]] = None, data: Optional[Mapping[str, Any]] = None
    ) -> bytes:
        """The probe file's bytes (what :meth:`save` writes)."""
        return probe_file_bytes(
            epsilon=self.epsilon,
            strength=self.strength,
            space=self.space,
            observations=self._observations,
            labels=self.labels,
            observation_rows=observation_rows,
            data=data,
        )

    @property
    def observations(self) -> np.ndarray:
        """The (O, d) observations as fitted, in their precision (a read-only view)."""
        view = self._observations.view()
        view.flags.writeable = False
        return view

    @property
    def labels(self) -> np.ndarray:
        """The O labels (uint8, 0 or 1)."""
        return self._handle.labels

    @property
    def observation_count(self) -> int:
        return self._handle.observation_count

    @property
    def dimension(self) -> int:
        """d, the number of columns of the observations (and of every query)."""
        return self._handle.dimension

    @property
    def space(self) -> str:
        """The posterior form in use: "function" or "weight"."""
        return self._handle.space

    @property
    def epsilon(self) -> float:
        return self._handle.epsilon

    @property
    def strength(self) -> float:
        return self._handle.strength

    @property
    def prior_variance(self) -> float:
        """v = log(1/epsilon + 1), the variance of each latent GP a priori (f has 2v)."""
        return self._handle.prior_variance

    @property
    def condition(self) -> float:
        """Condition estimate of the posterior's linear systems (relative error about 1e-16 times it)."""
        return self._handle.condition

    def __reduce__(self):
        # Pickled as what a fit needs (the probe file's fields), refitted on arrival: a Dask worker that
        # receives a probe fits it once and scores with the same bits as here.
        state = {
            "observations": self._observations,
            "labels": self.labels,
            "epsilon": self.epsilon,
            "strength": self.strength,
            "space": self.space,
            "expected_queries": self._expected_queries,
        }
        return (_from_state, (state,))

    def __dask_tokenize__(self) -> tuple:
        # Dask names graphs by content: two equal probes give the same keys.
        return ("gpprobe.Probe", hashlib.sha256(self.file_bytes()).hexdigest(), self._expected_queries)

    def __repr__(self) -> str:
        return (
            f"gpprobe.Probe(observations={self.observation_count}, dimension={self.dimension}, "
            f"epsilon={self.epsilon!r}, strength={self.strength!r}, space={self.space!r})"
        )


def certify_options(gamma: float, **options: Any) -> Dict[str, Any]:
    """The arguments of :meth:`Probe.certify` after the queries, as one dict: ``gamma`` and the keywords
    in ``options`` bound to that method's signature (its defaults filled in, a ``TypeError`` for a
    keyword it does not take), each as the core takes it (``dims`` a list of ints or None). The one
    place those arguments are read, for ``Probe.certify`` and ``gpprobe.dask.certify`` alike."""
    import inspect

    bound = inspect.signature(Probe.certify).bind(None, None, gamma, **options)
    bound.apply_defaults()
    a = bound.arguments
    return dict(
        gamma=float(a["gamma"]),
        norm=a["norm"],
        dims=None if a["dims"] is None else [int(i) for i in a["dims"]],
        tolerance=float(a["tolerance"]),
        max_iterations=int(a["max_iterations"]),
        time_limit=float(a["time_limit"]),
    )


def _from_state(state: Mapping[str, Any]) -> Probe:
    return Probe(
        state["observations"],
        state["labels"],
        epsilon=state["epsilon"],
        strength=state["strength"],
        space=state["space"],
        expected_queries=state["expected_queries"],
    )


def loo(
    observations: Union[Probe, Any],
    labels: Any = None,
    *,
    epsilon: float = 0.1,
    strength: float = 5.0,
    space: str = "automatic",
) -> Dict[str, Any]:
    """Leave-one-out judged probabilities of a probe's observations, in closed form (no refits).

    ``gpprobe.loo(probe)`` or ``gpprobe.loo(observations, labels, epsilon=, strength=)`` (the probe is then
    fitted as :class:`Probe` fits it). For each observation i, f at a_i given the others is Gaussian with

        mean      m_alpha - m_beta,  m_g = mu0 + r_g,i - [K_g^-1 r_g]_i / [K_g^-1]_ii
        variance  v_alpha + v_beta,  v_g = 1 / [K_g^-1]_ii - n_g,i

    (Rasmussen & Williams 2006, 5.4.2, each observation's own noise taken off), and its judged probability
    is E[sigmoid f]. ``space`` is where these are computed (the numbers agree to rounding).

    Returns a dict: ``judged_probability``, ``latent_mean``, ``latent_variance`` (arrays of length O, in the
    probe's order); ``positives``, ``negatives``; ``auroc`` with DeLong's ``auroc_standard_error``;
    ``log_loss`` with ``log_loss_standard_error`` (NaN where undefined); the intervals the verdict judges at
    ``confidence`` (0.99), NaN where undefined: ``auroc_lower``/``auroc_upper`` the AUROC's interval that
    stays honest at AUROC 1 and at few observations (Newcombe's score interval, "Confidence intervals for an
    effect size measure based on the Mann-Whitney statistic. Part 2", 2006, joined with DeLong's normal
    interval, within [0, 1]; 8 + 8 ranked perfectly: 0.633-1, where DeLong's collapses to 1-1),
    ``auroc_delong_lower``/``auroc_delong_upper`` DeLong's alone (value -/+ z standard errors, z =
    2.5758293035489004 the standard normal's 0.995 quantile), ``log_loss_lower``/``log_loss_upper`` (value
    -/+ z standard errors); and ``verdict``: "separates" (the honest AUROC interval lies above 1/2), "chance"
    (DeLong's AUROC interval reaches 1/2, or the log loss's lies above log 2) or "too_few" (fewer than two
    observations of a class, or DeLong's interval lies above 1/2 but the honest one reaches it: too few
    observations to tell the ranking from chance). The same numbers, and names, as ``gpprobe loo``'s JSON.
    """
    if isinstance(observations, Probe):
        if labels is not None:
            raise TypeError("loo(probe) takes no labels: the probe holds them")
        return observations.loo(space)
    if labels is None:
        raise TypeError("loo(observations, labels): labels are missing")
    return Probe(observations, labels, epsilon=epsilon, strength=strength).loo(space)
