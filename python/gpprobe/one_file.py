"""One self-contained page from Python: the gpprobe app, its single-threaded engine and your data in one
``.html`` that computes offline (``publish``), and the same page live in a notebook output cell (``show``).

    gpprobe.publish(embeddings, metadata=df, concept="label=cat", path="demo.html")
    gpprobe.show(embeddings, metadata=df, concept="label=cat")     # in Jupyter: the live probe below the cell
    probe = gpprobe.load_probe("cat.probe.json")                  # a probe exported from the page, back in Python

The page is the app's one-file template (``node scripts/make/build_single.mjs`` writes it to
``dist/single/gpprobe.html``; an installed module carries a copy) with the data block of docs/embed.md,
"One file", filled in: the embeddings as a float32 ``.npy``, the metadata as a CSV, and the session (the
concept, the observations drawn or chosen, epsilon and strength), zlib-compressed and base64-encoded. The
page reads them with the app's own readers and refuses what an upload would refuse. Nothing is written for
``show`` and no server is started: the page travels inside the output cell (an ``<iframe srcdoc>``), so a
saved notebook, reopened offline or exported by nbconvert to HTML, is still live wherever an output may run
scripts.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["MAX_FILE_BYTES", "OneFilePage", "one_file_html", "publish", "show", "template_path"]

#: The most file bytes (before compression) a one-file page holds: its base64 text is read as one
#: JavaScript string, and Chromium's longest is 2^29 - 24 characters (docs/embed.md, "How much fits").
MAX_FILE_BYTES = 256 * 2**20

_MARKER = '<script type="application/octet-stream" id="gpprobe-data"></script>'
_MAGIC = b"GPPROBE\x01"


def template_path() -> Path:
    """Where the one-file template is read from: ``$GPPROBE_ONE_FILE_TEMPLATE``, the copy installed with
    the module, or the repository's ``dist/single/gpprobe.html`` (a checkout's ``npm run build``)."""
    candidates: List[Path] = []
    if os.environ.get("GPPROBE_ONE_FILE_TEMPLATE"):
        candidates.append(Path(os.environ["GPPROBE_ONE_FILE_TEMPLATE"]))
    here = Path(__file__).resolve().parent
    candidates.append(here / "one_file_template.html")
    for parent in here.parents:
        candidates.append(parent / "dist" / "single" / "gpprobe.html")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        "the one-file template was not found (looked at: "
        + ", ".join(str(c) for c in candidates[:3])
        + "): build it with `npm run build` in a gpprobe checkout, or set GPPROBE_ONE_FILE_TEMPLATE"
    )


def _embeddings_npy(embeddings: Any) -> Tuple[bytes, int, int]:
    if hasattr(embeddings, "to_numpy") and not isinstance(embeddings, np.ndarray):
        embeddings = embeddings.to_numpy()
    x = np.asarray(embeddings)
    if x.ndim != 2:
        raise ValueError(f"embeddings must be a 2-D array (rows by dimensions), got {x.ndim} dimensions")
    if x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError(f"embeddings must have at least one row and one column, got shape {x.shape}")
    if not np.issubdtype(x.dtype, np.number) or np.issubdtype(x.dtype, np.complexfloating):
        raise TypeError(f"embeddings must hold real numbers, got dtype {x.dtype}")
    with np.errstate(over="ignore"):  # a value beyond float32 becomes inf, refused just below
        x32 = np.ascontiguousarray(x, dtype="<f4")
    bad = ~np.isfinite(x32)
    if bad.any():
        r, c = map(int, np.argwhere(bad)[0])
        what = "too large for float32" if np.isfinite(x[r, c]) else str(x[r, c])
        raise ValueError(
            f"embeddings: row {r}, column {c} is {what}; the page refuses non-finite values, as an upload does"
        )
    out = io.BytesIO()
    np.save(out, x32)
    return out.getvalue(), x.shape[0], x.shape[1]


def _metadata_csv(metadata: Any, rows: int) -> Optional[bytes]:
    if metadata is None:
        return None
    columns: Dict[str, Sequence[Any]]
    if hasattr(metadata, "columns") and hasattr(metadata, "__getitem__") and not isinstance(metadata, Mapping):
        columns = {str(c): list(metadata[c]) for c in metadata.columns}  # a pandas DataFrame
    elif isinstance(metadata, Mapping):
        columns = {str(k): list(v) for k, v in metadata.items()}
    else:
        values = np.asarray(metadata)
        if values.ndim != 1:
            raise ValueError("metadata must be a DataFrame, a dict of columns, or one label per row (1-D)")
        columns = {"label": values.tolist()}
    if not columns:
        raise ValueError("metadata has no columns")
    for name, values in columns.items():
        if len(values) != rows:
            raise ValueError(f"metadata column {name!r} has {len(values)} values for {rows} embedding rows")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(columns))
    for r in range(rows):
        writer.writerow(["" if _missing(v[r]) else _cell(v[r]) for v in columns.values()])
    return out.getvalue().encode("utf-8")


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _cell(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


def _concept(concept: Union[None, str, Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """``"label=cat"``, ``"label=cat,dog"``, ``"age>=40"`` or a dict as a link's JSON holds it."""
    if concept is None:
        return None
    if isinstance(concept, Mapping):
        return dict(concept)
    text = str(concept)
    if ">=" in text:
        column, _, number = text.partition(">=")
        try:
            threshold = float(number)
        except ValueError:
            raise ValueError(f"concept {text!r}: the threshold {number!r} is not a number") from None
        if not np.isfinite(threshold):
            raise ValueError(f"concept {text!r}: the threshold must be finite")
        return {"column": column.strip(), "kind": "threshold", "threshold": threshold}
    column, sep, values = text.partition("=")
    if not sep or not column.strip() or not values:
        raise ValueError(f"concept {text!r} must be COLUMN=VALUE[,VALUE...] or COLUMN>=NUMBER")
    return {"column": column.strip(), "kind": "values", "positives": values.split(",")}


def _state(
    concept: Any, observations: Optional[Sequence[int]], per_class: int, seed: int, rows: int, has_metadata: bool
) -> Dict[str, Any]:
    if isinstance(per_class, bool) or not isinstance(per_class, (int, np.integer)) or not 1 <= per_class <= 10000:
        raise ValueError(f"per_class must be a whole number from 1 to 10000, got {per_class!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= 2**53:
        raise ValueError(f"seed must be a whole number from 0 to 2^53, got {seed!r}")
    c = _concept(concept)
    if c is not None and not has_metadata:
        raise ValueError("a concept names a metadata column: give metadata (a DataFrame, a dict, or labels)")
    state: Dict[str, Any] = {"v": 1, "concept": c, "draw": {"perClass": int(per_class), "seed": int(seed)}}
    if observations is not None:
        picked = [int(r) for r in np.asarray(observations, dtype=np.int64).ravel()]
        outside = [r for r in picked if not 0 <= r < rows]
        if outside:
            raise ValueError(f"observations: row {outside[0]} is outside the {rows} embedding rows")
        if len(set(picked)) != len(picked):
            raise ValueError("observations: a row is chosen twice")
        state["rows"] = picked
    return state


def one_file_html(
    embeddings: Any,
    metadata: Any = None,
    concept: Union[None, str, Mapping[str, Any]] = None,
    observations: Optional[Sequence[int]] = None,
    per_class: int = 8,
    seed: int = 0,
    title: Optional[str] = None,
    template: Optional[str] = None,
) -> str:
    """The one-file page's text for these data and this session (see ``publish``)."""
    npy, rows, _ = _embeddings_npy(embeddings)
    meta = _metadata_csv(metadata, rows)
    files: List[Tuple[str, bytes]] = [("embeddings.npy", npy)] + ([("metadata.csv", meta)] if meta else [])
    total = sum(len(b) for _, b in files)
    if total > MAX_FILE_BYTES:
        raise ValueError(
            f"the data hold {total:,} bytes as float32 and CSV; a one-file page holds at most {MAX_FILE_BYTES:,} "
            f"(256 MiB: about {MAX_FILE_BYTES // (4 * max(1, np.asarray(embeddings).shape[1])):,} rows of this width). "
            "Sample the rows (e.g. embeddings[::k]), or use the hosted app, which reads files up to 1.5 GB"
        )
    header: Dict[str, Any] = {
        "format": "gpprobe-one-file",
        "version": 1,
        "files": [{"name": n, "size": len(b), "role": "main"} for n, b in files],
        "state": _state(concept, observations, per_class, seed, rows, meta is not None),
    }
    if title is not None:
        if len(title) > 200:
            raise ValueError(f"title has {len(title)} characters; at most 200")
        header["title"] = title
    head = json.dumps(header, separators=(",", ":")).encode("utf-8")
    block = _MAGIC + struct.pack("<I", len(head)) + head + zlib.compress(b"".join(b for _, b in files), 6)
    text = template if template is not None else template_path().read_text(encoding="utf-8")
    if text.count(_MARKER) != 1:
        raise ValueError("the one-file template does not hold exactly one empty data block: rebuild it")
    return text.replace(_MARKER, _MARKER.replace("></", ">" + base64.b64encode(block).decode("ascii") + "</"))


def publish(
    embeddings: Any,
    metadata: Any = None,
    concept: Union[None, str, Mapping[str, Any]] = None,
    observations: Optional[Sequence[int]] = None,
    per_class: int = 8,
    seed: int = 0,
    path: Union[str, os.PathLike] = "demo.html",
    title: Optional[str] = None,
) -> Path:
    """Writes one self-contained page (app, engine, data, session) to ``path`` and returns it.

    ``embeddings``: rows by dimensions (numpy array or DataFrame of numbers), stored as float32.
    ``metadata``: a DataFrame, a dict of columns, or one label per row (a column named ``label``).
    ``concept``: ``"COLUMN=VALUE[,VALUE...]"`` or ``"COLUMN>=NUMBER"`` (as the app's links say it).
    ``observations``: the rows the probe observes; without them, ``per_class`` rows of each class drawn
    with ``seed`` by the page's core, as the app and ``gpprobe.draw`` draw them.
    The page opens from disk with no network; the file is written whole or not at all.
    """
    return OneFilePage(one_file_html(embeddings, metadata, concept, observations, per_class, seed, title)).save(path)


class OneFilePage:
    """A one-file page shown in a notebook output cell: ``_repr_html_`` is an ``<iframe srcdoc>`` holding
    the whole page, so the output needs no file and no server and stays live in the saved notebook."""

    def __init__(self, page: str, height: int = 600) -> None:
        if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or not 200 <= height <= 4000:
            raise ValueError(f"height must be a whole number of pixels from 200 to 4000, got {height!r}")
        self.html = page
        self.height = int(height)

    def _repr_html_(self) -> str:
        return (
            f'<iframe class="gpprobe-one-file" title="gpprobe" srcdoc="{html.escape(self.html, quote=True)}" '
            f'style="width: 100%; height: {self.height}px; border: 1px solid #d8dee4; border-radius: 6px"></iframe>'
        )

    def save(self, path: Union[str, os.PathLike]) -> Path:
        """Writes the page as a file (the same bytes ``publish`` writes)."""
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(self.html, encoding="utf-8")
        os.replace(partial, target)
        return target


def show(
    embeddings: Any,
    metadata: Any = None,
    concept: Union[None, str, Mapping[str, Any]] = None,
    observations: Optional[Sequence[int]] = None,
    per_class: int = 8,
    seed: int = 0,
    height: int = 600,
    title: Optional[str] = None,
) -> OneFilePage:
    """The live probe in a Jupyter output cell (the last expression of a cell, or ``display(...)``).

    Same arguments as ``publish``; ``height`` is the cell's height in pixels. Click an observation in the
    view and the scores update; Share → Export probe writes the probe file ``load_probe`` reads back.
    """
    return OneFilePage(one_file_html(embeddings, metadata, concept, observations, per_class, seed, title), height)
