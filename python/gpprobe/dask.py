"""A probe over the row blocks of a dask array, for embeddings larger than one machine (docs/scale.md).

    import gpprobe, gpprobe.dask
    X = gpprobe.dask.from_npy("embeddings.npy")                  # memory-mapped, row-chunked
    S = gpprobe.dask.score("concept.probe.json", X)               # (n, 7) float64 dask array, MEASURES order
    S.to_zarr("scores.zarr")  # or .compute(), or frame=True for a dask DataFrame

The probe comes from a probe file (each worker process fits it once, on its first block, and keeps it),
a :class:`gpprobe.Probe` (shipped through the graph once per worker, fitted on arrival), or a
``distributed`` Future of one (``client.scatter(probe, broadcast=True)``). Each block is scored by the
core as one call would score those rows: the row chunks are whole multiples of the core's 256-row blocks
(the last chunk takes the remainder), so the scores equal one process's ``Probe.score`` of the whole
array bit for bit, on any number of workers and threads. Only the scheduling is Dask's; the numbers are
the core's.
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

import dask
import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _gpprobe
from .probe import CERTIFY_COLUMNS, MEASURES, Probe, certify_options

#: The core scores queries in blocks of this many rows (core/src/probe/probe.cpp): chunks are multiples of it.
CORE_BLOCK_ROWS = 256
#: Rows per chunk unless the caller says otherwise (65,536 rows of 768 float32 values: 192 MiB).
DEFAULT_ROWS_PER_CHUNK = 65536

#: The fields of :func:`certify`'s structured rows.
CERTIFY_DTYPE = np.dtype(
    [(name, np.float64) for name in CERTIFY_COLUMNS]
    + [("verdict_can_flip", "U7"), ("certify_status", "U15"), ("certify_iterations", np.int64)]
)


class ProbeFile:
    """A probe file as a graph's probe: tasks carry its path and the SHA-256 of its content, and each worker
    process reads and fits the probe once (on its first block) and keeps it. Every worker must see the file
    at the same path (a shared file system, or an identical copy on each host). A file whose content differs
    from the one the graph was made with fails the graph (gpprobe.Error) rather than scoring some blocks
    with each version."""

    __slots__ = ("path", "sha256")

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self.path = os.path.abspath(os.fspath(path))
        with open(self.path, "rb") as f:
            self.sha256 = hashlib.sha256(f.read()).hexdigest()

    def probe(self) -> Probe:
        # Read and hashed once per file version (path, size, modification time) in this process.
        stat = os.stat(self.path)
        version = (self.path, stat.st_size, stat.st_mtime_ns)
        with _lock:
            known = _probes.get(version)
            if known is None:
                with open(self.path, "rb") as f:
                    content = f.read()
                known = _probes[version] = (hashlib.sha256(content).hexdigest(),
                                            Probe.from_file_bytes(content, name=self.path))
                _loads[self.path] = _loads.get(self.path, 0) + 1
        digest, fitted = known
        if digest != self.sha256:
            raise _error("invalid_argument", f"{self.path}: the probe file changed after the graph was made; make it again")
        return fitted

    def __dask_tokenize__(self) -> Tuple[str, str, str]:
        return ("gpprobe.dask.ProbeFile", self.path, self.sha256)

    def __reduce__(self):
        return (_probe_file, (self.path, self.sha256))

    def __repr__(self) -> str:
        return f"gpprobe.dask.ProbeFile({self.path!r})"


def _probe_file(path: str, sha256: str) -> ProbeFile:
    file = ProbeFile.__new__(ProbeFile)
    file.path, file.sha256 = path, sha256
    return file


# This process's probe file versions: (path, size, mtime) -> (the content's SHA-256, its probe), and how
# often each path was fitted (loaded_probes()).
_lock = threading.Lock()
_probes: Dict[Tuple[str, int, int], Tuple[str, Probe]] = {}
_loads: Dict[str, int] = {}


def loaded_probes() -> Dict[str, int]:
    """How many times this process fitted each probe file for a graph (once, unless the file changed)."""
    with _lock:
        return dict(_loads)


def row_chunks(rows: int, dimension: int, rows_per_chunk: Optional[int] = None) -> Tuple[int, ...]:
    """The row chunks used for ``rows`` queries of ``dimension`` columns.

    Each chunk is ``rows_per_chunk`` (default 65,536) rounded up to a multiple of 256 rows, and at least
    (d + 1)/2 rows (so that every chunk takes the weight-space posterior's triangular path, as one call
    over all rows does); the remainder is the last chunk, merged into the one before it when shorter
    than that minimum.
    """
    if rows < 0 or dimension < 0:
        raise ValueError(f"rows and dimension must be >= 0, got {rows} and {dimension}")
    wanted = DEFAULT_ROWS_PER_CHUNK if rows_per_chunk is None else int(rows_per_chunk)
    if wanted <= 0:
        raise ValueError(f"rows_per_chunk must be > 0, got {rows_per_chunk}")
    least = _least_rows(dimension)
    size = max(least, _whole_blocks(wanted))
    chunks = [size] * (rows // size)
    rest = rows - size * len(chunks)
    if rest:
        if chunks and rest < least:
            chunks[-1] += rest
        else:
            chunks.append(rest)
    return tuple(chunks) if chunks else (0,)


def _whole_blocks(rows: int) -> int:
    return math.ceil(rows / CORE_BLOCK_ROWS) * CORE_BLOCK_ROWS


def _least_rows(dimension: int) -> int:
    """The fewest rows of a chunk: one core block, and (d + 1)/2 rows in whole blocks."""
    return max(CORE_BLOCK_ROWS, _whole_blocks(math.ceil((dimension + 1) / 2)))


def _npy_rows(path: str, start: int, stop: int) -> np.ndarray:
    # A view of the memory-mapped file: C-contiguous rows the core reads in place.
    return np.load(path, mmap_mode="r")[start:stop]


def from_npy(path: Union[str, "os.PathLike[str]"], rows_per_chunk: Optional[int] = None) -> da.Array:
    """A ``.npy`` file (2-D, C order) as a dask array of row chunks, each read by memory map where it runs.

    Tasks carry the path, never the data; the chunks are :func:`row_chunks`, so :func:`score` uses them
    as they are.
    """
    path = os.path.abspath(os.fspath(path))
    header = np.load(path, mmap_mode="r")
    if header.ndim != 2:
        raise _error("invalid_argument", f"{path}: expected ndim = 2, got ndim = {header.ndim}")
    if not header.flags.c_contiguous:
        raise _error("invalid_argument", f"{path}: the array is stored in Fortran order; rows need C order")
    rows, cols = header.shape
    chunks = row_chunks(rows, cols, rows_per_chunk)
    name = "gpprobe-npy-" + tokenize(path, os.stat(path).st_mtime_ns, chunks)
    graph, start = {}, 0
    for i, size in enumerate(chunks):
        graph[(name, i, 0)] = (_npy_rows, path, start, start + size)
        start += size
    layer = HighLevelGraph.from_collections(name, graph, dependencies=())
    return da.Array(layer, name, chunks=(chunks, (cols,)), dtype=header.dtype)


def _error(code: str, message: str) -> Exception:
    error = _gpprobe.Error(message)
    error.code = code
    return error


def _dimension_of_future(probe: Probe) -> int:
    return probe.dimension


def _source(probe: Any) -> Tuple[Any, int, str]:
    """What the tasks get (a ProbeFile, a delayed Probe or a Future), the probe's d, and its name."""
    if isinstance(probe, (str, os.PathLike)):
        file = ProbeFile(probe)
        dimension = _gpprobe.read_probe_file(file.path)["observations"].shape[1]  # errors name the file
        return file, int(dimension), file.path
    if isinstance(probe, ProbeFile):
        return probe, int(_gpprobe.read_probe_file(probe.path)["observations"].shape[1]), probe.path
    if isinstance(probe, Probe):
        return dask.delayed(probe, pure=True), probe.dimension, "the probe"
    if type(probe).__name__ == "Future" and hasattr(probe, "client"):
        dimension = probe.client.submit(_dimension_of_future, probe, pure=False).result()
        return probe, int(dimension), "the scattered probe"
    raise TypeError(
        f"probe must be a probe file's path, a gpprobe.Probe or a distributed Future of one, got {type(probe).__name__}"
    )


def _queries(array: Any, dimension: int, name: str, rows_per_chunk: Optional[int]) -> da.Array:
    if isinstance(array, (str, os.PathLike)):
        array = from_npy(array, rows_per_chunk)
    elif not isinstance(array, da.Array):
        raise TypeError(f"queries must be a dask array or a .npy path, got {type(array).__name__}")
    if array.ndim != 2:
        raise _error("invalid_argument", f"queries: expected ndim = 2, got ndim = {array.ndim}")
    if any(math.isnan(c) for c in array.chunks[0]) or any(math.isnan(c) for c in array.chunks[1]):
        raise _error(
            "invalid_argument",
            "queries: the dask array's chunk sizes are unknown (NaN rows, e.g. after boolean indexing); the "
            "rows of each chunk decide how the core scores them, so they must be known: call "
            "queries.compute_chunk_sizes() first (it computes the array's chunks once)",
        )
    if array.dtype not in (np.float32, np.float64):
        raise TypeError(f"queries must be float32 or float64, got {array.dtype}")
    cols = array.shape[1]
    if cols != dimension:
        s = lambda n: f"{n} column" + ("" if n == 1 else "s")  # noqa: E731
        raise _error("dimension_mismatch", f"queries have {s(cols)}, the observations of {name} have {s(dimension)}")
    rows = array.chunks[0]
    if rows_per_chunk is not None or not _aligned(rows, cols) or len(array.chunks[1]) != 1:
        wanted = rows_per_chunk if rows_per_chunk is not None else rows[0] or None
        chunks = row_chunks(array.shape[0], cols, wanted)
        if array.chunks != (chunks, (cols,)):
            array = array.rechunk((chunks, (cols,)))
    return array


def _aligned(rows: Tuple[int, ...], dimension: int) -> bool:
    """Whether row chunks already keep one call's bits: each starts at a multiple of 256 rows, and each
    (unless it is the only one) has at least the minimum of row_chunks()."""
    least = _least_rows(dimension)
    if len(rows) == 1:
        return True
    return all(r % CORE_BLOCK_ROWS == 0 for r in rows[:-1]) and all(r >= least for r in rows)


def _probe_of(source: Any) -> Probe:
    return source.probe() if isinstance(source, ProbeFile) else source


def _checked_block(block: np.ndarray, block_info: Optional[Dict[Any, Any]]) -> None:
    """Refuses a block whose shape differs from the one its dask array declares for it (an upstream
    map_blocks that returns more or fewer rows than its chunks say): the result's rows would no longer
    line up with the queries'."""
    if block_info is None or 0 not in block_info:
        return
    (start, stop), (first, last) = block_info[0]["array-location"]
    declared = (stop - start, last - first)
    if tuple(block.shape) != declared:
        raise _error(
            "dimension_mismatch",
            f"rows {start} to {stop - 1} of the queries: the block holds {block.shape[0]} x {block.shape[1]} values "
            f"but the dask array declares {declared[0]} x {declared[1]} for it (its chunks do not describe its "
            "data: check the function that made it)",
        )


def _located(error: Exception, block_info: Optional[Dict[Any, Any]]) -> Exception:
    """The core's error with the rows of the whole array it concerns (the core counts from the block)."""
    if block_info is None or not isinstance(error, _gpprobe.Error):
        return error
    start, stop = block_info[0]["array-location"][0]
    located = _gpprobe.Error(f"rows {start} to {stop - 1} of the queries: {error}")
    located.code = getattr(error, "code", "invalid_argument")
    return located


def _over_rows(
    probe: Any,
    array: Any,
    rows_per_chunk: Optional[int],
    kind: str,
    block_function: Any,
    arguments: Tuple[Any, ...],
    dtype: Any,
    columns: Optional[int],
) -> da.Array:
    """block_function(block, source, *arguments) mapped over the row chunks of ``array`` checked against
    the probe's width: a 2-D array of ``columns`` columns, or 1-D of records when ``columns`` is None.
    The graph's name (``gpprobe-<kind>-``) is a token of the queries, the probe's source and the arguments."""
    source, dimension, name = _source(probe)
    queries = _queries(array, dimension, name, rows_per_chunk)
    if columns is None:
        shape: Dict[str, Any] = dict(chunks=(queries.chunks[0],), drop_axis=1, meta=np.empty((0,), dtype=dtype))
    else:
        shape = dict(chunks=(queries.chunks[0], (columns,)), meta=np.empty((0, 0), dtype=dtype))
    return queries.map_blocks(
        block_function,
        source,
        *arguments,
        dtype=dtype,
        name=f"gpprobe-{kind}-" + tokenize(queries, source, *arguments),
        **shape,
    )


def _score_block(block: np.ndarray, source: Any, threads: Optional[int], block_info=None) -> np.ndarray:
    _checked_block(block, block_info)
    if block.shape[0] == 0:  # an empty chunk (a 0-row array, or an empty chunk of a filtered one)
        return np.empty((0, len(MEASURES)))
    if threads is not None:
        _gpprobe.set_thread_count(threads)
    try:
        scores = _probe_of(source).score(block)
    except _gpprobe.Error as error:
        raise _located(error, block_info) from None
    out = np.empty((block.shape[0], len(MEASURES)))
    for j, measure in enumerate(MEASURES):
        out[:, j] = scores[measure]
    return out


def score(
    probe: Any,
    array: Any,
    *,
    rows_per_chunk: Optional[int] = None,
    threads: Optional[int] = None,
    frame: bool = False,
):
    """The probe's measures for every row of ``array``, as a lazy (n, 7) float64 dask array.

    Columns in :data:`gpprobe.MEASURES` order (judged_probability, episteme, alea, latent_mean,
    latent_variance, knowledge, ood_score); ``frame=True`` returns a dask DataFrame with those columns
    instead (needs pandas). ``array`` is a 2-D float32/float64 dask array (from :func:`from_npy`,
    ``da.from_zarr``, ...) or a ``.npy`` path; it is rechunked to :func:`row_chunks` if its chunks differ.
    ``threads`` sets the core's threads in each worker process (default: the core's, one per core).

    A probe whose width differs from the array's fails here, before any graph runs, with
    gpprobe.Error (dimension_mismatch); an error inside a block (a NaN row) fails the computation with
    the core's message and the rows it concerns.
    """
    scores = _over_rows(probe, array, rows_per_chunk, "score", _score_block, (threads,), np.float64, len(MEASURES))
    if frame:
        return _frame(scores, list(MEASURES))
    return scores


def _frame(values: da.Array, columns: Optional[list]) -> Any:
    """A dask DataFrame of the rows (dask's from_dask_array cannot make one of 0 rows: its divisions
    would be (0, -1))."""
    import dask.dataframe as dd

    if values.shape[0] == 0:
        import pandas

        empty = pandas.DataFrame(np.empty(0, dtype=values.dtype) if columns is None else np.empty((0, len(columns))),
                                 columns=columns)
        return dd.from_pandas(empty, npartitions=1)
    return dd.from_dask_array(values, columns=columns)


def _certify_block(block: np.ndarray, source: Any, options: Dict[str, Any], threads: Optional[int], block_info=None):
    _checked_block(block, block_info)
    if block.shape[0] == 0:
        return np.empty(0, dtype=CERTIFY_DTYPE)
    if threads is not None:
        _gpprobe.set_thread_count(threads)
    try:
        c = _probe_of(source).certify(block, **options)
    except _gpprobe.Error as error:
        raise _located(error, block_info) from None
    out = np.empty(block.shape[0], dtype=CERTIFY_DTYPE)
    for field in CERTIFY_DTYPE.names:
        out[field] = c[field]
    return out


def certify(
    probe: Any,
    array: Any,
    gamma: float,
    *,
    rows_per_chunk: Optional[int] = None,
    threads: Optional[int] = None,
    frame: bool = False,
    **options: Any,
):
    """:meth:`gpprobe.Probe.certify` over every row of ``array``: a lazy 1-D dask array of
    :data:`CERTIFY_DTYPE` records (the CLI's certified columns; witnesses are not kept), or with
    ``frame=True`` a dask DataFrame of them. ``options`` are ``Probe.certify``'s keywords (``norm``,
    ``dims``, ``tolerance``, ``max_iterations``, ``time_limit``, with its defaults; a ``TypeError`` for
    any other); the rest as in :func:`score`."""
    options = certify_options(gamma, **options)
    records = _over_rows(probe, array, rows_per_chunk, "certify", _certify_block, (options, threads), CERTIFY_DTYPE, None)
    if frame:
        return _frame(records, None)
    return records
