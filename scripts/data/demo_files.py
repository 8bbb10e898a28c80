"""What the demo data generators share: arrays as .npy bytes, and writing the files or, with --check,
comparing a fresh build with the committed ones (exit 1 naming those that differ)."""
import io
import os
import sys

import numpy as np


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def write_or_check(files, out, root, check):
    """files: name -> bytes, under the folder `out`; paths are printed relative to `root`."""
    if check:
        stale = [n for n, b in files.items() if not os.path.exists(os.path.join(out, n))
                 or open(os.path.join(out, n), "rb").read() != b]
        print("differs: " + ", ".join(stale) if stale else "identical to the committed files")
        sys.exit(1 if stale else 0)
    os.makedirs(out, exist_ok=True)
    for name, content in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)
        print(f"wrote {os.path.relpath(os.path.join(out, name), root)} ({len(content)} bytes)")
