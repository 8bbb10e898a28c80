"""python/tools/measure_scale.py says what it measured: each round's line is that round's own times
(their minimum is the table's best), a missing CLI is said, not skipped silently, and nothing is left in
the folder it was given."""

import re
import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("distributed")


def test_measure_scale_reports_rounds_and_leaves_nothing_behind(tmp_path):
    folder = tmp_path / "scratch"
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, str(ROOT / "python" / "tools" / "measure_scale.py"), "--rows", "3000", "--dimension", "16",
         "--observations", "20", "--rounds", "2", "--folder", str(folder), "--cli", str(tmp_path / "no-such-gpprobe")],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    rounds = [{k.strip(): float(v) for k, v in re.findall(r"([^:;]+): ([0-9.]+)s", line.split(": ", 1)[1])}
              for line in out.splitlines() if line.startswith("round ")]
    assert len(rounds) == 2
    table = {row.split("|")[1].strip(): row.split("|")[2:4] for row in out.splitlines()
             if row.startswith("| ") and "configuration" not in row and "---" not in row}
    assert len(table) == 5
    for name, (best, spread) in table.items():
        times = [r[name] for r in rounds]
        assert float(best) == pytest.approx(min(times), abs=0.006), name
        assert float(spread) == pytest.approx(max(times) - min(times), abs=0.011), name
    assert "CLI comparison skipped: no gpprobe binary" in out
    assert list(folder.iterdir()) == []
