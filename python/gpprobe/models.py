"""GP classification and regression with scikit-learn's fit/predict (docs/python.md).

Both fit exactly as the CLI's ``gpprobe gpc`` and ``gpprobe gpr`` do, on the same core: the maths is in
docs/design/classification.md and docs/design/regression.md. Hyperparameters are constructor arguments
(scikit-learn's convention: ``get_params``/``set_params`` work, nothing is fitted in ``__init__``); fitted
values end in an underscore.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gpprobe


class _Estimator:
    """get_params / set_params over the constructor's arguments (scikit-learn's BaseEstimator contract)."""

    _params: Tuple[str, ...] = ()

    def get_params(self, deep: bool = True) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self._params}

    def set_params(self, **params: Any) -> "_Estimator":
        for name, value in params.items():
            if name not in self._params:
                raise ValueError(f"{type(self).__name__} has no parameter {name!r} (it has: {', '.join(self._params)})")
            setattr(self, name, value)
        return self

    def _fitted(self) -> Any:
        handle = getattr(self, "_handle", None)
        if handle is None:
            raise RuntimeError(f"this {type(self).__name__} is not fitted yet: call fit(X, y) first")
        return handle

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"


class GPClassifier(_Estimator):
    """Binary GP classification with the SE-ARD kernel, by Laplace or EP (docs/design/classification.md).

    k(x, x') = signal_variance * exp(-sum_j (x_j - x'_j)^2 / (2 l_j^2)), zero prior mean; the likelihood
    p(y = +1 | f) is probit Phi(f) or logistic sigmoid(f) (EP: probit only). Both approximations reduce to
    the common form

        latent mean      mu(x)    = k(x)' alpha
        latent variance  Sigma(x) = s2 - k(x)' Q k(x),   Q = (K + W^-1)^-1
        probability      pi(x)    = E[p(y = +1 | f)],    f ~ N(mu(x), Sigma(x))

    Parameters
    ----------
    method : {"laplace", "ep"}
    likelihood : {"probit", "logistic"}
    signal_variance : float
    length_scales : float or sequence of d floats
        One length-scale for every column, or one each (ARD).
    optimize : bool
        Type-II maximum likelihood first: bounded L-BFGS on theta = [log s2, log l_1..l_d] from the given
        kernel, plus ``restarts`` seeded starts (``seed``); ``shared_length_scale`` learns one length-scale.
    max_iterations : int
        Newton steps (Laplace) or sweeps (EP).

    Labels are 0/1 or -1/+1 (not mixed); ``classes_`` keeps the convention given.
    """

    _params = (
        "method",
        "likelihood",
        "signal_variance",
        "length_scales",
        "optimize",
        "restarts",
        "seed",
        "shared_length_scale",
        "max_iterations",
    )

    def __init__(
        self,
        *,
        method: str = "laplace",
        likelihood: str = "probit",
        signal_variance: float = 1.0,
        length_scales: Union[float, Sequence[float]] = 1.0,
        optimize: bool = False,
        restarts: int = 0,
        seed: int = 0,
        shared_length_scale: bool = False,
        max_iterations: int = 100,
    ) -> None:
        self.method = method
        self.likelihood = likelihood
        self.signal_variance = signal_variance
        self.length_scales = length_scales
        self.optimize = optimize
        self.restarts = restarts
        self.seed = seed
        self.shared_length_scale = shared_length_scale
        self.max_iterations = max_iterations
        self._handle = None

    def fit(self, X: Any, y: Any) -> "GPClassifier":
        """Fits to X (n, d) and labels y (n,); returns self."""
        scales = np.atleast_1d(np.asarray(self.length_scales, dtype=np.float64)).tolist()
        handle = _gpprobe.fit_classifier(
            X, y, self.method, self.likelihood, float(self.signal_variance), scales, bool(self.optimize),
            int(self.restarts), int(self.seed), bool(self.shared_length_scale), int(self.max_iterations),
        )
        self._handle = handle
        self.classes_ = np.array([-1, 1]) if (np.asarray(y) < 0).any() else np.array([0, 1])
        self.signal_variance_ = handle.signal_variance
        self.length_scales_ = np.array(handle.length_scales)
        self.log_marginal_likelihood_value_ = handle.log_marginal_likelihood
        self.log_marginal_likelihood_gradient_ = np.array(handle.log_marginal_likelihood_gradient)
        self.n_iter_ = handle.iterations
        self.optimizer_ = handle.optimizer
        self.n_features_in_ = int(np.shape(X)[1])
        return self

    def predict_latent(self, X: Any) -> Tuple[np.ndarray, np.ndarray]:
        """The latent mean mu(x) and variance Sigma(x) at each row of X."""
        r = self._fitted().predict(X)
        return r["latent_mean"], r["latent_variance"]

    def predict_proba(self, X: Any) -> np.ndarray:
        """(m, 2): columns p(y = classes_[0] | x) and p(y = classes_[1] | x) = pi(x)."""
        p = self._fitted().predict(X)["probability"]
        return np.column_stack([1.0 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        """classes_[1] where pi(x) >= 1/2, else classes_[0]."""
        p = self._fitted().predict(X)["probability"]
        return np.where(p >= 0.5, self.classes_[1], self.classes_[0])

    def predictions(self, X: Any) -> Dict[str, Any]:
        """Every output at once: latent_mean, latent_variance, probability, clamped_variances (the count of
        latent variances rounding made negative and the core set to 0)."""
        return self._fitted().predict(X)

    def score(self, X: Any, y: Any) -> float:
        """Accuracy of predict(X) against y."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


class GPRegressor(_Estimator):
    """Exact GP regression with a constant mean and Gaussian noise (docs/design/regression.md).

        y = f(x) + e,  f ~ GP(mean, k),  e ~ N(0, noise_variance)
        K_y = K + noise I = L L',  alpha = K_y^-1 (y - mean)
        latent mean m(x) = mean + k(x)' alpha,  latent variance s2(x) = k(x, x) - |L^-1 k(x)|^2
        knowledge G(x) = 1 - s2(x) / k(x, x)

    Parameters
    ----------
    kernel : str
        A named kernel ("rbf", "matern12", "matern32", "matern52", "periodic", "locally-periodic",
        "linear", "cosine": each a signal variance times the base kernel) or a kernel expression such as
        "constant(1.3) * rbf(0.7)".
    parameters : mapping of str to float
        Kernel parameters by name ("constant.value", "rbf.length_scale", ...), set bit for bit.
    noise_variance : float
    mean : float or None
        The constant prior mean; None takes the average of y.
    optimize : bool
        Maximise the log marginal likelihood over the kernel's parameters and the noise (bounded L-BFGS in
        log space, ``restarts`` seeded restarts), holding the names in ``fixed`` ("noise_variance" for the
        noise).
    """

    _params = ("kernel", "parameters", "noise_variance", "mean", "optimize", "restarts", "seed", "fixed")

    def __init__(
        self,
        kernel: str = "rbf",
        *,
        parameters: Optional[Mapping[str, float]] = None,
        noise_variance: float = 0.1,
        mean: Optional[float] = None,
        optimize: bool = False,
        restarts: int = 0,
        seed: int = 0,
        fixed: Sequence[str] = (),
    ) -> None:
        self.kernel = kernel
        self.parameters = parameters
        self.noise_variance = noise_variance
        self.mean = mean
        self.optimize = optimize
        self.restarts = restarts
        self.seed = seed
        self.fixed = fixed
        self._handle = None

    def fit(self, X: Any, y: Any) -> "GPRegressor":
        """Fits to X (n, d) and targets y (n,); returns self."""
        handle = _gpprobe.fit_regressor(
            X, y, self.kernel, dict(self.parameters or {}), float(self.noise_variance),
            None if self.mean is None else float(self.mean), bool(self.optimize), int(self.restarts),
            int(self.seed), list(self.fixed),
        )
        self._handle = handle
        self.kernel_ = handle.kernel
        self.parameters_ = handle.parameters
        self.noise_variance_ = handle.noise_variance
        self.mean_ = handle.mean
        self.log_marginal_likelihood_value_ = handle.log_marginal_likelihood
        self.optimizer_ = handle.optimizer
        self.n_features_in_ = int(np.shape(X)[1])
        return self

    def predict(self, X: Any, return_std: bool = False) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
        """The mean m(x); with ``return_std`` also sqrt(s2(x)), the latent standard deviation (as
        scikit-learn's GaussianProcessRegressor with ``alpha`` = the noise variance returns it)."""
        r = self._fitted().predict(X)
        if return_std:
            return r["mean"], np.sqrt(r["latent_variance"])
        return r["mean"]

    def predictions(self, X: Any) -> Dict[str, Any]:
        """Every output: mean, latent_variance, observation_variance (= latent + noise), knowledge, the 95%
        bands latent_lower/upper and observation_lower/upper (mean -/+ 1.96 sqrt(variance)), and
        clamped_variances / most_negative_variance (latent variances rounding made negative, set to 0)."""
        return self._fitted().predict(X)
