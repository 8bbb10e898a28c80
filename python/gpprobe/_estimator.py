"""What gpprobe's estimators share to be scikit-learn estimators (docs/python.md, "scikit-learn").

With scikit-learn installed the estimators are its ``BaseEstimator`` with ``ClassifierMixin`` or
``RegressorMixin`` (so ``is_classifier``, ``clone``, ``Pipeline``, stratified ``cross_val_score`` and
``GridSearchCV`` treat them as their own), inputs are checked by scikit-learn's ``check_array`` rules
(messages and warnings as scikit-learn's own estimators give), and an unfitted estimator raises
``sklearn.exceptions.NotFittedError``. Without scikit-learn the same classes work on their own: the same
parameters and fitted attributes, numbers converted to float64 (float32 kept), and ``gpprobe.NotFittedError``
(a ValueError and an AttributeError, as scikit-learn's). Validation only: every number is the core's.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, Tuple

import numpy as np

try:  # scikit-learn is optional
    import sklearn
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.multiclass import check_classification_targets

    try:  # scikit-learn >= 1.6
        from sklearn.utils.validation import validate_data as _validate_data
    except ImportError:  # scikit-learn < 1.6: the estimator's own method

        def _validate_data(estimator: Any, *args: Any, **kwargs: Any) -> Any:
            return estimator._validate_data(*args, **kwargs)

    HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - exercised by the no-scikit-learn test in a subprocess
    sklearn = None
    HAVE_SKLEARN = False

    class NotFittedError(ValueError, AttributeError):  # type: ignore[no-redef]
        """An estimator used before ``fit`` (as scikit-learn's NotFittedError: a ValueError and an
        AttributeError)."""

    class BaseEstimator:  # type: ignore[no-redef]
        """get_params / set_params over the constructor's arguments (scikit-learn's contract)."""

        @classmethod
        def _get_param_names(cls) -> Tuple[str, ...]:
            signature = inspect.signature(cls.__init__)
            return tuple(sorted(p.name for p in signature.parameters.values() if p.name != "self"))

        def get_params(self, deep: bool = True) -> Dict[str, Any]:
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params: Any) -> Any:
            for name, value in params.items():
                setattr(self, name, value)
            return self

        def __repr__(self) -> str:
            args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({args})"

    class ClassifierMixin:  # type: ignore[no-redef]
        _estimator_type = "classifier"

        def score(self, X: Any, y: Any) -> float:
            """Accuracy of predict(X) against y."""
            return float(np.mean(self.predict(X) == np.asarray(y)))

    class RegressorMixin:  # type: ignore[no-redef]
        _estimator_type = "regressor"

        def score(self, X: Any, y: Any) -> float:
            """R^2 = 1 - sum (y - predict(X))^2 / sum (y - mean y)^2 (scikit-learn's r2_score; 1 for a
            perfect fit of constant y, 0 for an imperfect one, as scikit-learn defines it)."""
            y = np.asarray(y, dtype=np.float64).ravel()
            residual = float(np.sum((y - self.predict(X)) ** 2))
            total = float(np.sum((y - y.mean()) ** 2))
            if total == 0.0:
                return 1.0 if residual == 0.0 else 0.0
            return 1.0 - residual / total

    def check_classification_targets(y: Any) -> None:  # type: ignore[no-redef]
        y = np.asarray(y)
        if y.dtype.kind == "f" and not np.all(np.isfinite(y) & (y == np.round(y))):
            raise ValueError("Unknown label type: continuous labels are not classes (give integers or strings)")

    def _validate_data(estimator: Any, X: Any, y: Any = "no_validation", reset: bool = True, **kwargs: Any) -> Any:
        X = _as_matrix(X)
        if reset:
            estimator.n_features_in_ = X.shape[1]
        elif X.shape[1] != estimator.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
                f"{estimator.n_features_in_} features as input."
            )
        if isinstance(y, str) and y == "no_validation":
            return X
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"y should be a 1-D array, got an array of shape {y.shape}")
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} values")
        return X, y

    def _as_matrix(X: Any) -> np.ndarray:
        if not (isinstance(X, np.ndarray) and X.dtype in (np.float32, np.float64)):
            X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"Expected 2D array, got {X.ndim}D array instead")
        if X.shape[0] == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        return X


FLOATS = [np.float64, np.float32]  # float32 stays float32 (the core reads it in place), others become float64


def fit_inputs(estimator: Any, X: Any, y: Any, *, classifier: bool) -> Tuple[np.ndarray, np.ndarray]:
    """X and y checked for fit (n_features_in_ set); a classifier's y checked as class labels."""
    X, y = _validate_data(estimator, X, y, dtype=FLOATS, y_numeric=not classifier)
    if classifier:
        check_classification_targets(y)
    return X, y


def predict_inputs(estimator: Any, X: Any) -> np.ndarray:
    """X checked for predict: fitted first (NotFittedError), then its columns against the fit's."""
    fitted(estimator)
    return _validate_data(estimator, X, dtype=FLOATS, reset=False)


def encode_classes(estimator: Any, y: np.ndarray, *, binary: str = "", hint: str = "") -> np.ndarray:
    """classes_ = the sorted distinct labels (any labels: 0/1, {1, 2}, strings); returns y as class indices.
    Fewer than two classes is a ValueError, as more than two when ``binary`` (what is binary, and what to
    use instead) is given."""
    classes, index = np.unique(y, return_inverse=True)
    name = type(estimator).__name__
    if len(classes) < 2:
        raise ValueError(f"{name} needs at least two classes in y; it holds 1 class ({classes[0]!r})")
    if binary and len(classes) > 2:
        shown = ", ".join(map(repr, classes[:5].tolist())) + (", ..." if len(classes) > 5 else "")
        raise ValueError(f"{binary}: y holds {len(classes)} classes ({shown}); {hint}")
    estimator.classes_ = classes
    return index.reshape(-1)


def fitted(estimator: Any) -> Any:
    """The estimator's core handle (or fitted probe); NotFittedError before fit."""
    handle = getattr(estimator, "_handle", None)
    if handle is None:
        raise NotFittedError(
            f"This {type(estimator).__name__} instance is not fitted yet. Call 'fit' with appropriate "
            "arguments before using this estimator."
        )
    return handle


def state_without_handle(estimator: Any) -> Dict[str, Any]:
    """The estimator's attributes for pickling: everything but the core handle (refitted on arrival)."""
    state = dict(estimator.__dict__)
    state.pop("_handle", None)
    return state


__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "HAVE_SKLEARN",
    "NotFittedError",
    "RegressorMixin",
    "encode_classes",
    "fit_inputs",
    "fitted",
    "predict_inputs",
    "state_without_handle",
]
