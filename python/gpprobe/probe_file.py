"""The probe file (``.probe.json``) as the app's "Export probe" writes it.

The format is the app's (``web/src/engine/probe/probe_file.ts``)::

    {
     "format": "gpprobe-probe",
     "version": 1,
     "epsilon": 0.1,
     "strength": 5,
     "space": "weight",
     "observations": {"rows": O, "cols": d, "dtype": "float32",
                      "data": "<base64 of the row-major values, little-endian>"},
     "labels": [0, 1, ...],
     "observation_rows": [...],   (optional provenance)
     "data": {...}                (optional provenance)
    }

written like ``JSON.stringify(value, null, 1) + "\\n"``: the same bytes as the app's export of the same
probe, numbers spelled as JavaScript spells them (``5``, ``0.1``, ``1e-7``). Reading goes through the
core's reader (the CLI's), in :meth:`gpprobe.Probe.load`. Only bytes move here; no mathematics.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any, Mapping, Optional, Sequence

import numpy as np

FORMAT = "gpprobe-probe"
VERSION = 1


def js_number(value: float) -> str:
    """``value`` as JavaScript's ``Number.prototype.toString`` (and so ``JSON.stringify``) writes it.

    The shortest digits that round-trip (Python's ``repr`` finds the same ones), placed by ECMA-262's
    rule: plain decimals for 1e-7 <= |x| < 1e21, exponent form (``1e-7``, ``1.5e+21``) outside;
    integral values without a fraction (``5``); non-finite values as ``null``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("a boolean is not a number here")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    x = float(value)
    if not math.isfinite(x):
        return "null"
    if x == 0.0:
        return "0"
    sign = "-" if x < 0 else ""
    text = repr(abs(x))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    stripped = digits.rstrip("0")
    # x = int(stripped) * 10^(n - k) with k = len(stripped) digits (ECMA-262 Number::toString).
    k = len(stripped)
    n = k + int(exponent or 0) - len(fraction) + (len(digits) - k)
    if k <= n <= 21:
        return sign + stripped + "0" * (n - k)
    if 0 < n <= 21:
        return sign + stripped[:n] + "." + stripped[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + stripped
    e = n - 1
    exponent_text = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + stripped + "e" + exponent_text
    return sign + stripped[0] + "." + stripped[1:] + "e" + exponent_text


def _json(value: Any, depth: int) -> str:
    """``JSON.stringify(value, null, 1)`` for dicts, lists, strings, numbers, booleans and None."""
    pad, inner = " " * depth, " " * (depth + 1)
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_json(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple, np.ndarray)):
        if len(value) == 0:
            return "[]"
        return "[\n" + ",\n".join(inner + _json(v, depth + 1) for v in value) + "\n" + pad + "]"
    raise TypeError(f"cannot write {type(value).__name__} to a probe file")


def probe_file_bytes(
    *,
    epsilon: float,
    strength: float,
    space: str,
    observations: np.ndarray,
    labels: Sequence[int],
    observation_rows: Optional[Sequence[int]] = None,
    data: Optional[Mapping[str, Any]] = None,
) -> bytes:
    """The file's bytes (UTF-8 JSON): observations (O by d, float32 or float64) stored in their precision."""
    x = np.asarray(observations)
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"observations must be float32 or float64, got {x.dtype}")
    little = x.astype(x.dtype.newbyteorder("<"), order="C", copy=False)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "epsilon": float(epsilon),
        "strength": float(strength),
        "space": space,
        "observations": {
            "rows": int(x.shape[0]),
            "cols": int(x.shape[1]),
            "dtype": "float32" if x.dtype == np.float32 else "float64",
            "data": base64.b64encode(little.tobytes()).decode("ascii"),
        },
        "labels": [int(v) for v in labels],
    }
    if observation_rows is not None:
        if len(observation_rows) != x.shape[0]:
            raise ValueError(f'"observation_rows" must list {x.shape[0]} row numbers, got {len(observation_rows)}')
        document["observation_rows"] = [int(r) for r in observation_rows]
    if data is not None:
        document["data"] = dict(data)
    return (_json(document, 0) + "\n").encode("utf-8")
