"""The Gaussian process probe as a scikit-learn classifier (docs/python.md, "ProbeClassifier").

:class:`gpprobe.Probe` fits in its constructor and its ``score(X)`` returns the probe's measures, which is
what a notebook wants but not what scikit-learn's model selection can drive. :class:`ProbeClassifier` is
the same probe as an estimator: ``epsilon`` and ``strength`` are parameters (``GridSearchCV`` tunes them),
``fit(X, y)`` takes any two labels, ``predict_proba`` is the judged probability, ``score(X, y)`` the
accuracy, and the probe's other measures come from :meth:`ProbeClassifier.measures`. Every number is the
core's (the fitted :class:`gpprobe.Probe` is ``probe_``).
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ._estimator import BaseEstimator, ClassifierMixin, encode_classes, fit_inputs, fitted, predict_inputs
from .probe import Probe


class ProbeClassifier(ClassifierMixin, BaseEstimator):
    """The Gaussian process probe (Wang et al., NeurIPS 2023) as a binary scikit-learn classifier.

    Parameters
    ----------
    epsilon : float
        The Beta prior's concentration, > 0 (default 0.1).
    strength : float
        How far one observation moves the Beta parameters, > 0 (default 5).
    space : {"automatic", "function", "weight"}
        Where the posterior lives (the same numbers; see :class:`gpprobe.Probe`).
    expected_queries : int
        The number of queries ``automatic`` weighs the costs for.

    Fitted attributes: ``classes_`` (the two labels, sorted; classes_[1] is the probe's label 1),
    ``probe_`` (the fitted :class:`gpprobe.Probe`), ``n_features_in_``.
    """

    def __init__(
        self, epsilon: float = 0.1, strength: float = 5.0, space: str = "automatic", expected_queries: int = 10000
    ) -> None:
        self.epsilon = epsilon
        self.strength = strength
        self.space = space
        self.expected_queries = expected_queries

    def fit(self, X: Any, y: Any) -> "ProbeClassifier":
        """Fits the probe to X (n, d) with y's two classes: classes_[1] is label 1, classes_[0] label 0."""
        X, y = fit_inputs(self, X, y, classifier=True)
        index = encode_classes(
            self, y, binary="the probe is binary",
            hint="fit one ProbeClassifier per class (one against the rest), or use GPClassifier(likelihood=\"softmax\")",
        )
        self.probe_ = Probe(
            X,
            index.astype(np.uint8),
            epsilon=float(self.epsilon),
            strength=float(self.strength),
            space=self.space,
            expected_queries=int(self.expected_queries),
        )
        return self

    @property
    def _handle(self) -> Any:  # what fitted() looks for
        return getattr(self, "probe_", None)

    def measures(self, X: Any) -> Dict[str, np.ndarray]:
        """The probe's measures at each row of X (:meth:`gpprobe.Probe.score`): judged_probability,
        episteme, alea, latent_mean, latent_variance, knowledge, ood_score (gpprobe.MEASURES)."""
        probe = fitted(self)
        return probe.score(predict_inputs(self, X))

    def predict_proba(self, X: Any) -> np.ndarray:
        """(m, 2): 1 - judged probability, judged probability (of classes_[1])."""
        p = self.measures(X)["judged_probability"]
        return np.column_stack([1.0 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        """classes_[1] where the judged probability is >= 1/2, else classes_[0]."""
        p = self.measures(X)["judged_probability"]
        return np.where(p >= 0.5, self.classes_[1], self.classes_[0])

    def explain(self, x: Any, gamma: float, **options: Any) -> Dict[str, Any]:
        """Why the probe judged x so: :meth:`gpprobe.Probe.explain` of the fitted probe (certified Delta
        beside LIME, rank, constant_in_training; the same keyword arguments), of the judged probability
        of classes_[1]."""
        probe = fitted(self)
        return probe.explain(predict_inputs(self, np.asarray(x, dtype=np.float64).reshape(1, -1))[0], gamma,
                             **options)

    def knowledge_gain(self, X: Any) -> np.ndarray:
        """Label next: :meth:`gpprobe.Probe.knowledge_gain` at each row of X (``np.argsort(-gain)`` orders
        the rows to label)."""
        probe = fitted(self)
        return probe.knowledge_gain(predict_inputs(self, X))

    def _more_tags(self) -> Dict[str, Any]:
        return {"binary_only": True}
