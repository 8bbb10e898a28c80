"""GP classification and regression as scikit-learn estimators (docs/python.md).

Both fit exactly as the CLI's ``gpprobe gpc`` (``--likelihood softmax`` for more than two classes) and
``gpprobe gpr`` do, on the same core: the maths is in docs/design/classification.md,
docs/design/multiclass.md and docs/design/regression.md. Hyperparameters are constructor arguments
(scikit-learn's convention: ``get_params``/``set_params``/``clone`` work, nothing is fitted in ``__init__``);
fitted values end in an underscore. With scikit-learn installed they are its estimators (``is_classifier``,
``Pipeline``, ``cross_val_score``, ``GridSearchCV``); see gpprobe/_estimator.py.

Pickling (and ``copy.deepcopy``) keeps the training data and the *fitted* hyperparameters, never the core's
factors: on arrival the model is fitted again at those hyperparameters without optimising (for softmax from
the optimizer's Newton weights, the warm start the original fit took), which is the very computation the
original fit ended with, so the unpickled model predicts the same bits.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _gpprobe
from ._estimator import (
    BaseEstimator,
    ClassifierMixin,
    RegressorMixin,
    encode_classes,
    fit_inputs,
    fitted,
    predict_inputs,
    state_without_handle,
)


class ARDWarning(UserWarning):
    """Learning one length-scale per feature (ARD) from fewer observations than features: the marginal
    likelihood has more directions than the data can pin down, and the learned length-scales overfit."""


def _warn_ard(estimator: Any, n: int, d: int, softmax: bool) -> None:
    remedy = (
        "Fix the hyperparameters (optimize=False; softmax learns one length-scale per feature)"
        if softmax
        else "Use shared_length_scale=True (one length-scale) or fixed hyperparameters"
    )
    warnings.warn(
        f"{type(estimator).__name__}(optimize=True) learns {d} length-scales (one per feature, ARD) from {n} "
        f"observations: with more features than observations the marginal likelihood cannot pin them down "
        f"and the learned length-scales overfit. {remedy}; see docs/python.md, 'Which kernel for embeddings'.",
        ARDWarning,
        stacklevel=3,
    )


Prior = Union[str, Tuple[Any, ...], None]


def _prior_text(prior: Prior, name: str) -> str:
    """A MAP prior in the CLI's spelling: "none", "lognormal:MU,SIGMA" or "student-t:MU,SIGMA,NU" (on the log
    of the parameter), given so or as a tuple ("lognormal", mu, sigma) / ("student-t", mu, sigma, nu); None
    is "none". The core checks the values."""
    if prior is None:
        return "none"
    if isinstance(prior, str):
        return prior
    if isinstance(prior, tuple) and prior and isinstance(prior[0], str):
        if len(prior) == 1:
            return prior[0]
        try:
            return prior[0] + ":" + ",".join(repr(float(v)) for v in prior[1:])
        except (TypeError, ValueError):
            pass
    raise ValueError(
        f"{name} must be 'none', 'lognormal:MU,SIGMA', 'student-t:MU,SIGMA,NU' or a tuple such as "
        f"('lognormal', MU, SIGMA), got {prior!r}"
    )


def _lists(value: Any) -> List[List[float]]:
    """length_scales as the core takes them: one list (shared) or one list per class."""
    if np.ndim(value) == 0:
        return [[float(value)]]
    if all(np.ndim(v) == 0 for v in value):
        return [[float(v) for v in value]]
    return [[float(v) for v in np.atleast_1d(row)] for row in value]


class GPClassifier(ClassifierMixin, BaseEstimator):
    """GP classification with the SE-ARD kernel: binary by Laplace or EP, or multi-class by the softmax
    likelihood (docs/design/classification.md, docs/design/multiclass.md).

    k(x, x') = signal_variance * exp(-sum_j (x_j - x'_j)^2 / (2 l_j^2)), zero prior mean.

    Binary (``likelihood`` "probit" or "logistic"): p(y = classes_[1] | f) is probit Phi(f) or logistic
    sigmoid(f) (EP: probit only). Both approximations reduce to the common form

        latent mean      mu(x)    = k(x)' alpha
        latent variance  Sigma(x) = s2 - k(x)' Q k(x),   Q = (K + W^-1)^-1
        probability      pi(x)    = E[p(y = +1 | f)],    f ~ N(mu(x), Sigma(x))

    Multi-class (``likelihood="softmax"``, Laplace): C independent latent GPs, p(y = c | f) = softmax_c(f),
    probabilities E[softmax(f)] over the full C by C latent covariance (as ``gpprobe gpc --likelihood
    softmax``).

    Parameters
    ----------
    method : {"laplace", "ep"}
    likelihood : {"probit", "logistic", "softmax"}
    signal_variance : float, or (softmax) a sequence of C floats (one per class)
    length_scales : float, sequence of d floats, or (softmax) C sequences (one per class)
        One length-scale for every column, or one each (ARD).
    optimize : bool
        Type-II maximum likelihood first: bounded L-BFGS on theta = [log s2, log l_1..l_d] from the given
        kernel, plus ``restarts`` seeded starts (``seed``); ``shared_length_scale`` learns one length-scale
        (binary only). Softmax learns one kernel for all classes when signal_variance and length_scales are
        given once (tied), else one per class. Learning d length-scales from fewer than d observations
        warns (:class:`ARDWarning`).
    max_iterations : int
        Newton steps (Laplace) or sweeps (EP).
    signal_variance_prior, length_scale_prior : str or tuple
        MAP priors for ``optimize`` (as ``gpprobe gpc --signal-variance-prior`` / ``--length-scale-prior``)
        on log s2 and on every log l_j: "none" (type-II maximum likelihood), "lognormal:MU,SIGMA"
        (log theta ~ N(MU, SIGMA^2)) or "student-t:MU,SIGMA,NU", or the tuples ("lognormal", MU, SIGMA),
        ("student-t", MU, SIGMA, NU). The fit maximises the log marginal likelihood plus the log prior;
        ``log_prior_`` is the log prior at the fitted hyperparameters (0 without one).

    Labels may be anything scikit-learn takes as classes (0/1, -1/+1, {1, 2}, strings): ``classes_`` is
    their sorted distinct values; column c of ``predict_proba`` is p(classes_[c]).
    """

    def __init__(
        self,
        *,
        method: str = "laplace",
        likelihood: str = "probit",
        signal_variance: Union[float, Sequence[float]] = 1.0,
        length_scales: Union[float, Sequence[float], Sequence[Sequence[float]]] = 1.0,
        optimize: bool = False,
        restarts: int = 0,
        seed: int = 0,
        shared_length_scale: bool = False,
        max_iterations: int = 100,
        signal_variance_prior: Prior = "none",
        length_scale_prior: Prior = "none",
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
        self.signal_variance_prior = signal_variance_prior
        self.length_scale_prior = length_scale_prior

    def set_params(self, **params: Any) -> "GPClassifier":
        _known(self, params)
        return super().set_params(**params)

    def _softmax(self) -> bool:
        return self.likelihood == "softmax"

    def fit(self, X: Any, y: Any) -> "GPClassifier":
        """Fits to X (n, d) and labels y (n,); returns self."""
        X, y = fit_inputs(self, X, y, classifier=True)
        softmax = self._softmax()
        if softmax and self.method != "laplace":
            raise ValueError(
                f'method {self.method!r} is not available with likelihood="softmax" (multi-class '
                'classification uses the Laplace approximation); use method="laplace"'
            )
        if softmax and self.shared_length_scale:
            raise ValueError(
                'shared_length_scale is not available with likelihood="softmax"; give length_scales one value '
                "(shared by every column) and leave optimize off, or learn one per column"
            )
        index = encode_classes(
            self, y, binary="" if softmax else f"GPClassifier(likelihood={self.likelihood!r}) is binary",
            hint='GPClassifier(likelihood="softmax") fits any number of classes',
        )
        n, d = X.shape
        if self.optimize and (softmax or not self.shared_length_scale) and d > n:
            _warn_ard(self, n, d, softmax)
        priors = (
            _prior_text(self.signal_variance_prior, "signal_variance_prior"),
            _prior_text(self.length_scale_prior, "length_scale_prior"),
        )
        self._fit_X = np.array(X, order="C", copy=True)
        self._fit_y = index.astype(np.float64)
        if softmax:
            handle = _gpprobe.fit_multiclass_classifier(
                self._fit_X, self._fit_y, len(self.classes_),
                [float(v) for v in np.atleast_1d(np.asarray(self.signal_variance, dtype=np.float64))],
                _lists(self.length_scales), bool(self.optimize), int(self.restarts), int(self.seed),
                int(self.max_iterations), signal_variance_prior=priors[0], length_scale_prior=priors[1],
            )
        else:
            scales = np.atleast_1d(np.asarray(self.length_scales, dtype=np.float64)).tolist()
            handle = _gpprobe.fit_classifier(
                self._fit_X, self._fit_y, self.method, self.likelihood, float(self.signal_variance), scales,
                bool(self.optimize), int(self.restarts), int(self.seed), bool(self.shared_length_scale),
                int(self.max_iterations), signal_variance_prior=priors[0], length_scale_prior=priors[1],
            )
        self._handle = handle
        self._read_fit(handle)
        self.optimizer_ = handle.optimizer
        self.log_prior_ = 0.0 if self.optimizer_ is None else self.optimizer_["log_prior"]
        return self

    def _read_fit(self, handle: Any) -> None:
        if self._softmax():
            self.signal_variance_ = np.array(handle.signal_variances)
            self.length_scales_ = np.array(handle.length_scales)
            self._warm_start = handle.warm_start
        else:
            self.signal_variance_ = handle.signal_variance
            self.length_scales_ = np.array(handle.length_scales)
        self.log_marginal_likelihood_value_ = handle.log_marginal_likelihood
        self.log_marginal_likelihood_gradient_ = np.array(handle.log_marginal_likelihood_gradient)
        self.n_iter_ = handle.iterations

    def predict_latent(self, X: Any) -> Tuple[np.ndarray, np.ndarray]:
        """The latent mean and variance at each row of X: binary mu(x) and Sigma(x) (m,); softmax the
        (m, C) means and the (m, C, C) covariances."""
        r = self.predictions(X)
        if self._softmax():
            return r["latent_mean"], r["latent_covariance"]
        return r["latent_mean"], r["latent_variance"]

    def predict_proba(self, X: Any) -> np.ndarray:
        """(m, C): column c is p(y = classes_[c] | x) (binary: 1 - pi(x), pi(x))."""
        p = self.predictions(X)["probability"]
        if self._softmax():
            return p
        return np.column_stack([1.0 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        """Binary: classes_[1] where pi(x) >= 1/2, else classes_[0]. Softmax: the most probable class (the
        first of a tie)."""
        p = self.predictions(X)["probability"]
        if self._softmax():
            return self.classes_[np.argmax(p, axis=1)]
        return np.where(p >= 0.5, self.classes_[1], self.classes_[0])

    def predictions(self, X: Any) -> Dict[str, Any]:
        """Every output at once. Binary: latent_mean, latent_variance, probability (of classes_[1]),
        clamped_variances (the count of latent variances rounding made negative and the core set to 0).
        Softmax: latent_mean (m, C), latent_covariance (m, C, C), probability (m, C),
        probability_error_estimate, probability_rule (per row) and probability_unconverged, as the CLI's
        columns and summary."""
        handle = fitted(self)
        return handle.predict(predict_inputs(self, X))

    def certify(
        self,
        x: Any,
        gamma: float,
        *,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: Optional[float] = None,
        max_iterations: Optional[int] = None,
        time_limit: float = 0.0,
        search: str = "both",
        class_index: Optional[int] = None,
    ) -> Dict[str, Any]:
        """Certified robustness at the point x (Blaas et al., AISTATS 2020; docs/design/certify.md), as
        ``gpprobe robustness --gamma``, over the L-inf ball of radius ``gamma`` around x on the coordinates
        ``dims`` (all when None; the others fixed), clipped to ``valid_range`` (lo, hi). A dict with the
        CLI's JSON names.

        Binary: sound bounds of the latent mean, variance and probability (of classes_[1]) over the ball
        (``root``), the probability's minimum and maximum found by branch and bound to ``tolerance``
        (default 0.01; within ``max_iterations`` boxes per search, default 10000; ``search="adversarial"``
        refines only the extreme on the other side), each with a witness, the GPFGS attack's point, and
        ``verdict_can_flip`` ("no": certified, "yes": the witness is an adversarial example, "unknown").

        ``time_limit`` (seconds, 0: none) is the wall time of the whole call, not of each search: the
        searches share one clock (binary: the adversarial extreme first, then the other; softmax: the
        safety margin, then the class's minimum and maximum), each using what is left, so the call
        returns within about ``time_limit`` plus one box's bound. A search stopped by it, or reached after
        it, has ``status`` "time_limit" (0 ``iterations`` if never started; softmax ``safety["stop"]``)
        and keeps a wider interval that is still sound: never narrower than the truth.

        Softmax (``gpprobe robustness --likelihood softmax``; docs/design/multiclass.md): the extremes of
        the probability of class ``class_index`` (an index into classes_; the predicted class when None)
        as ``minimum`` / ``maximum`` with witnesses, its one-box bound ``root``, and ``safety``: the
        margin min over the ball of pi^c^ - max_{c != c^} pi^c of the predicted class c^ in
        [margin_lower, margin_upper], ``status`` "certified" (no point of the ball changes the
        prediction), "refuted" (the witness is an adversarial example) or "unknown". Defaults: tolerance
        0.02, max_iterations 2000 per search; ``search`` does not apply."""
        handle = fitted(self)
        point = predict_inputs(self, np.asarray(x, dtype=np.float64).reshape(1, -1))[0]
        moving = None if dims is None else [int(i) for i in dims]
        valid = None if valid_range is None else (float(valid_range[0]), float(valid_range[1]))
        if self._softmax():
            if search != "both":
                raise ValueError('search is not available with likelihood="softmax": both extremes of the class '
                                 "and the safety margin are certified")
            return handle.certify(
                [float(v) for v in point], float(gamma), moving, valid,
                None if class_index is None else _class_position(class_index, len(self.classes_)),
                0.02 if tolerance is None else float(tolerance), 2000 if max_iterations is None else int(max_iterations),
                float(time_limit),
            )
        if class_index is not None:
            raise ValueError('class_index goes with likelihood="softmax" (a binary certificate is about classes_[1])')
        return handle.certify(
            [float(v) for v in point], float(gamma), moving, valid, 0.01 if tolerance is None else float(tolerance),
            10000 if max_iterations is None else int(max_iterations), float(time_limit), search,
        )

    def explain(
        self,
        x: Any,
        gamma: float,
        *,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: float = 0.001,
        max_iterations: int = 1000,
        time_limit: float = 0.0,
        baseline: str = "mean",
        lime_samples: int = 5000,
        seed: int = 0,
        include_constant: bool = False,
        nearly_constant_share: float = 0.02,
        class_index: Optional[int] = None,
    ) -> Dict[str, Any]:
        """Why the model decided that at the point x, as ``gpprobe explain`` computes it: per feature i of
        ``dims`` (all when None) the certified sensitivity (Blaas et al., AISTATS 2020, eqs. 21-26)
        Delta_i = (max over [x, x + gamma e_i] - max over [x - gamma e_i, x]) + (the same of the minima)
        of the output, positive when raising the feature raises it, beside LIME's coefficient (Ribeiro,
        Singh and Guestrin, KDD 2016).

        The output is p(classes_[1]) (binary), or with ``likelihood="softmax"`` the probability of class
        ``class_index`` (an index into classes_; the class predicted at x when None; ``class`` in the
        result). Certified bounds ``delta_lower`` <= Delta <= ``delta_upper`` come from four
        branch-and-bound searches (to ``tolerance``, within ``max_iterations`` boxes each; ``time_limit``
        seconds, 0 = none, for all the features' searches together: one clock, and a search reached after
        it bounds its box without splitting it, its feature's ``status`` "time_limit"), ``delta`` from
        their witnesses; the boxes are clipped to ``valid_range``. LIME
        switches features off to the training mean (``baseline="mean"``) or 0 (``"zero"``, pixels) in
        ``lime_samples`` samples drawn with ``seed``.

        A dict of the CLI's CSV columns (feature, delta_lower, delta, delta_upper, lime, rank,
        constant_in_training, nearly_constant_in_training, varying_rows; rank 1 is the largest certified
        |Delta|, 0 where the CLI's cell is empty) plus status and iterations per feature, and its JSON
        line's fields (value_at_point, gamma, lime_intercept, lime_score, lime_kernel_width,
        unconverged_searches, time_limited_features, constant_features, nearly_constant_features, nearly_constant_share,
        constant_ranked). A feature constant in training (its values span at most 1e-6 of their scale),
        or nearly constant (``varying_rows``, the training rows off its most common value, is at least 1
        and fewer than max(2, ``nearly_constant_share`` x n); 0 turns that rule off), is not ranked
        unless ``include_constant``: moving it moves x away from (nearly) all the data, so the output
        drifts towards the prior, and its length-scale learned from few pairs of rows; its Delta is
        still given."""
        handle = fitted(self)
        point = predict_inputs(self, np.asarray(x, dtype=np.float64).reshape(1, -1))[0]
        arguments = dict(
            gamma=float(gamma), dims=None if dims is None else [int(i) for i in dims],
            valid_range=None if valid_range is None else (float(valid_range[0]), float(valid_range[1])),
            tolerance=float(tolerance), max_iterations=int(max_iterations), time_limit_seconds=float(time_limit),
            baseline=str(baseline), lime_samples=int(lime_samples), seed=int(seed),
            include_constant=bool(include_constant), nearly_constant_share=float(nearly_constant_share),
        )
        if self._softmax():
            position = None if class_index is None else _class_position(class_index, len(self.classes_))
            return handle.explain([float(v) for v in point], class_index=position, **arguments)
        if class_index is not None:
            raise ValueError('class_index goes with likelihood="softmax" (a binary explanation is of p(classes_[1]))')
        return handle.explain([float(v) for v in point], **arguments)

    def __getstate__(self) -> Dict[str, Any]:
        return state_without_handle(self)

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_fit_X" not in state:
            return
        if self._softmax():
            handle = _gpprobe.fit_multiclass_classifier(
                self._fit_X, self._fit_y, len(self.classes_), self.signal_variance_.tolist(),
                self.length_scales_.tolist(), False, 0, 0, int(self.max_iterations),
                start_alpha=self._warm_start,
            )
        else:
            handle = _gpprobe.fit_classifier(
                self._fit_X, self._fit_y, self.method, self.likelihood, float(self.signal_variance_),
                self.length_scales_.tolist(), False, 0, 0, False, int(self.max_iterations),
            )
        if handle.log_marginal_likelihood != self.log_marginal_likelihood_value_:
            raise RuntimeError("the unpickled GPClassifier does not refit to the pickled one (a different core?)")
        self._handle = handle

    def _more_tags(self) -> Dict[str, Any]:
        return {"binary_only": not self._softmax()}


def _class_position(class_index: Any, classes: int) -> int:
    index = int(class_index)
    if index != class_index or not 0 <= index < classes:
        raise ValueError(f"class_index must be an index into classes_ (0 to {classes - 1}), got {class_index!r}")
    return index


def _known(estimator: Any, params: Mapping[str, Any]) -> None:
    names = estimator._get_param_names()
    for name in params:
        if name not in names:
            raise ValueError(f"{type(estimator).__name__} has no parameter {name!r} (it has: {', '.join(names)})")


class GPRegressor(RegressorMixin, BaseEstimator):
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
    signal_variance_prior, length_scale_prior : str or tuple
        MAP priors for ``optimize``, as ``gpprobe gpr`` takes them (spellings as GPClassifier's): on the
        log of every signal variance ("constant.value") and every length-scale; ``log_prior_`` after fit.
    """

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
        signal_variance_prior: Prior = "none",
        length_scale_prior: Prior = "none",
    ) -> None:
        self.kernel = kernel
        self.parameters = parameters
        self.noise_variance = noise_variance
        self.mean = mean
        self.optimize = optimize
        self.restarts = restarts
        self.seed = seed
        self.fixed = fixed
        self.signal_variance_prior = signal_variance_prior
        self.length_scale_prior = length_scale_prior

    def set_params(self, **params: Any) -> "GPRegressor":
        _known(self, params)
        return super().set_params(**params)

    def fit(self, X: Any, y: Any) -> "GPRegressor":
        """Fits to X (n, d) and targets y (n,); returns self."""
        X, y = fit_inputs(self, X, y, classifier=False)
        self._fit_X = np.array(X, order="C", copy=True)
        self._fit_y = np.array(y, dtype=np.float64, copy=True)
        handle = _gpprobe.fit_regressor(
            self._fit_X, self._fit_y, self.kernel, dict(self.parameters or {}), float(self.noise_variance),
            None if self.mean is None else float(self.mean), bool(self.optimize), int(self.restarts),
            int(self.seed), list(self.fixed),
            signal_variance_prior=_prior_text(self.signal_variance_prior, "signal_variance_prior"),
            length_scale_prior=_prior_text(self.length_scale_prior, "length_scale_prior"),
        )
        self._handle = handle
        self.kernel_ = handle.kernel
        self.parameters_ = handle.parameters
        self._parameter_values = handle.parameter_values  # theta order: what pickling refits with
        self.noise_variance_ = handle.noise_variance
        self.mean_ = handle.mean
        self.log_marginal_likelihood_value_ = handle.log_marginal_likelihood
        self.optimizer_ = handle.optimizer
        self.log_prior_ = 0.0 if self.optimizer_ is None else self.optimizer_["log_prior"]
        return self

    def predict(self, X: Any, return_std: bool = False) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
        """The mean m(x); with ``return_std`` also sqrt(s2(x)), the latent standard deviation (as
        scikit-learn's GaussianProcessRegressor with ``alpha`` = the noise variance returns it)."""
        r = self.predictions(X)
        if return_std:
            return r["mean"], np.sqrt(r["latent_variance"])
        return r["mean"]

    def predictions(self, X: Any) -> Dict[str, Any]:
        """Every output: mean, latent_variance, observation_variance (= latent + noise), knowledge, the 95%
        bands latent_lower/upper and observation_lower/upper (mean -/+ 1.96 sqrt(variance)), and
        clamped_variances / most_negative_variance (latent variances rounding made negative, set to 0)."""
        handle = fitted(self)
        return handle.predict(predict_inputs(self, X))

    # score(X, y): R^2 of predict(X), scikit-learn's RegressorMixin.score.

    def __getstate__(self) -> Dict[str, Any]:
        return state_without_handle(self)

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_fit_X" not in state:
            return
        handle = _gpprobe.fit_regressor(
            self._fit_X, self._fit_y, self.kernel, dict(self.parameters or {}), float(self.noise_variance_),
            None if self.mean is None else float(self.mean), False, 0, 0, [], self._parameter_values,
        )
        if handle.log_marginal_likelihood != self.log_marginal_likelihood_value_:
            raise RuntimeError("the unpickled GPRegressor does not refit to the pickled one (a different core?)")
        self._handle = handle
