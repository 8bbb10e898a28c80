# Type stubs of the extension gpprobe._gpprobe (python/src/*.cpp). The package's public API
# (gpprobe.Probe, GPClassifier, GPRegressor, loo, gpprobe.dask) is typed in its own .py files.
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

MatrixLike = npt.ArrayLike  # (n, d) float32/float64; C-contiguous arrays are read in place

row_products_backend: str

class Error(ValueError):
    """A bad input or a failed computation, with the core's message."""

    code: str  # invalid_argument, dimension_mismatch, non_finite, numerical_failure, parse_error

class FileError(OSError):
    """A file that could not be opened or read."""

    code: str  # io_error

class ProbeHandle:
    @property
    def observation_count(self) -> int: ...
    @property
    def dimension(self) -> int: ...
    @property
    def space(self) -> str: ...
    @property
    def epsilon(self) -> float: ...
    @property
    def strength(self) -> float: ...
    @property
    def prior_variance(self) -> float: ...
    @property
    def condition(self) -> float: ...
    @property
    def labels(self) -> npt.NDArray[np.uint8]: ...
    def score(self, queries: MatrixLike) -> Dict[str, npt.NDArray[np.float64]]: ...
    def certify(
        self,
        queries: MatrixLike,
        gamma: float,
        norm: str = "inf",
        dims: Optional[Sequence[int]] = None,
        tolerance: float = 0.01,
        max_iterations: int = 10000,
        time_limit_seconds: float = 0.0,
    ) -> Dict[str, npt.NDArray[Any]]: ...
    # The fields of LeaveOneOut's description (GPPROBE_DESCRIBE, gpprobe/probe/leave_one_out.h) by their
    # names: arrays for the per-observation values, the intervals the verdict judges flat, as `gpprobe loo`'s JSON.
    def leave_one_out(self, space: str = "automatic") -> Dict[str, Any]: ...
    def add_observation(self, observation: MatrixLike, label: npt.ArrayLike) -> None: ...
    def remove_observation(self, index: int) -> None: ...
    def knowledge_gain(self, queries: MatrixLike, space: str = "automatic") -> npt.NDArray[np.float64]: ...
    def explain(
        self,
        point: Sequence[float],
        gamma: float,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: float = 0.001,
        max_iterations: int = 1000,
        time_limit_seconds: float = 0.0,
        baseline: str = "mean",
        lime_samples: int = 5000,
        seed: int = 0,
        include_constant: bool = False,
    ) -> Dict[str, Any]: ...

def fit_probe(
    observations: MatrixLike,
    labels: npt.ArrayLike,
    epsilon: float = 0.1,
    strength: float = 5.0,
    space: str = "automatic",
    expected_queries: int = 10000,
) -> ProbeHandle: ...
def read_probe_file(path: str) -> Dict[str, Any]: ...
def parse_probe_file(content: bytes, name: str) -> Dict[str, Any]: ...
def thread_count() -> int: ...
def set_thread_count(threads: int) -> None: ...

class ClassifierHandle:
    def predict(self, points: MatrixLike) -> Dict[str, Any]: ...
    def certify(
        self,
        point: Sequence[float],
        gamma: float,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: float = 0.01,
        max_iterations: int = 10000,
        time_limit_seconds: float = 0.0,
        search: str = "both",
    ) -> Dict[str, Any]: ...
    def explain(
        self,
        point: Sequence[float],
        gamma: float,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: float = 0.001,
        max_iterations: int = 1000,
        time_limit_seconds: float = 0.0,
        baseline: str = "mean",
        lime_samples: int = 5000,
        seed: int = 0,
        include_constant: bool = False,
    ) -> Dict[str, Any]: ...
    @property
    def method(self) -> str: ...
    @property
    def likelihood(self) -> str: ...
    @property
    def signal_variance(self) -> float: ...
    @property
    def length_scales(self) -> List[float]: ...
    @property
    def log_marginal_likelihood(self) -> float: ...
    @property
    def log_marginal_likelihood_gradient(self) -> List[float]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def training_points(self) -> int: ...
    @property
    def optimizer(self) -> Optional[Dict[str, Any]]: ...

def fit_classifier(
    inputs: MatrixLike,
    labels: npt.ArrayLike,
    method: str = "laplace",
    likelihood: str = "probit",
    signal_variance: float = 1.0,
    length_scales: Sequence[float] = ...,
    optimize: bool = False,
    restarts: int = 0,
    seed: int = 0,
    shared_length_scale: bool = False,
    max_iterations: int = 100,
    signal_variance_prior: str = "none",
    length_scale_prior: str = "none",
) -> ClassifierHandle: ...

class MulticlassHandle:
    def predict(self, points: MatrixLike) -> Dict[str, Any]: ...
    def certify(
        self,
        point: Sequence[float],
        gamma: float,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        class_index: Optional[int] = None,
        tolerance: float = 0.02,
        max_iterations: int = 2000,
        time_limit_seconds: float = 0.0,
    ) -> Dict[str, Any]: ...
    def explain(
        self,
        point: Sequence[float],
        gamma: float,
        dims: Optional[Sequence[int]] = None,
        valid_range: Optional[Tuple[float, float]] = None,
        tolerance: float = 0.001,
        max_iterations: int = 1000,
        time_limit_seconds: float = 0.0,
        baseline: str = "mean",
        lime_samples: int = 5000,
        seed: int = 0,
        include_constant: bool = False,
        class_index: Optional[int] = None,
    ) -> Dict[str, Any]: ...
    @property
    def classes(self) -> int: ...
    @property
    def shared_kernel(self) -> bool: ...
    @property
    def signal_variances(self) -> List[float]: ...
    @property
    def length_scales(self) -> List[List[float]]: ...
    @property
    def log_marginal_likelihood(self) -> float: ...
    @property
    def log_marginal_likelihood_gradient(self) -> List[List[float]]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def training_points(self) -> int: ...
    @property
    def warm_start(self) -> Optional[npt.NDArray[np.float64]]: ...
    @property
    def optimizer(self) -> Optional[Dict[str, Any]]: ...

def fit_multiclass_classifier(
    inputs: MatrixLike,
    labels: npt.ArrayLike,
    classes: int,
    signal_variances: Sequence[float] = ...,
    length_scales: Sequence[Sequence[float]] = ...,
    optimize: bool = False,
    restarts: int = 0,
    seed: int = 0,
    max_iterations: int = 100,
    optimizer_iterations: int = 200,
    start_alpha: Optional[MatrixLike] = None,
    signal_variance_prior: str = "none",
    length_scale_prior: str = "none",
) -> MulticlassHandle: ...

class RegressionHandle:
    def predict(self, points: MatrixLike) -> Dict[str, Any]: ...
    @property
    def kernel(self) -> str: ...
    @property
    def parameters(self) -> Dict[str, float]: ...
    @property
    def parameter_values(self) -> List[float]: ...
    @property
    def noise_variance(self) -> float: ...
    @property
    def mean(self) -> float: ...
    @property
    def log_marginal_likelihood(self) -> float: ...
    @property
    def optimizer(self) -> Optional[Dict[str, Any]]: ...

def fit_regressor(
    inputs: MatrixLike,
    targets: npt.ArrayLike,
    kernel: str = "rbf",
    parameters: Mapping[str, float] = ...,
    noise_variance: float = 0.1,
    mean: Optional[float] = None,
    optimize: bool = False,
    restarts: int = 0,
    seed: int = 0,
    fixed: Sequence[str] = ...,
    parameter_values: Optional[Sequence[float]] = None,
    signal_variance_prior: str = "none",
    length_scale_prior: str = "none",
) -> RegressionHandle: ...
def named_kernels() -> List[str]: ...
def draw_observations(labels: npt.ArrayLike, per_class: int, seed: int = 0) -> List[int]: ...
def compare_representations(
    embeddings: List[MatrixLike],
    names: List[str],
    concepts: List[Any],
    ood: Optional[List[MatrixLike]],
    per_class: int,
    seed: int,
    epsilon: float,
    strength: float,
    decided: float,
    episteme_threshold: float,
    draws: int,
    draws_given: bool,
) -> List[Dict[str, Any]]: ...
def run_baseline(
    method: str,
    observations: MatrixLike,
    labels: npt.ArrayLike,
    queries: MatrixLike,
    k: int = 1,
    seed: int = 0,
    members: int = 100,
    C: float = 1.0,
) -> Dict[str, npt.NDArray[np.float64]]: ...
def run_experiment(
    experiment: str,
    embeddings: MatrixLike,
    labels: npt.ArrayLike,
    ood: Optional[MatrixLike] = None,
    query_mask: Optional[npt.ArrayLike] = None,
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
) -> Dict[str, Any]: ...
