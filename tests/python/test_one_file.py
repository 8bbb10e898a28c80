"""One self-contained page from Python (issue 39, items 2 and 3): ``gpprobe.publish`` writes the app, its
engine and the data in one .html, ``gpprobe.show`` puts the same page in a notebook output cell. Each page
is opened in Debian's Chromium from file:// with every network request aborted
(tests/python/one_file_results.mjs), and the numbers it posts are held to ``gpprobe.Probe`` on the same
observations (the native core; the page runs the wasm build of it). The notebook is executed by nbclient
on a real ipykernel, exported by nbconvert to HTML, and the exported file is opened the same way.

Needs the one-file template (dist/single/gpprobe.html, written by scripts/make/build.sh) and Chromium.
"""

import base64
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gpprobe
from gpprobe import one_file

ROOT = Path(__file__).resolve().parents[2]
DIGITS = ROOT / "web" / "public" / "demo" / "digits"
READER = ROOT / "tests" / "python" / "one_file_results.mjs"
CAMEL = {
    "judged_probability": "judgedProbability",
    "episteme": "episteme",
    "alea": "alea",
    "latent_mean": "latentMean",
    "latent_variance": "latentVariance",
    "knowledge": "knowledge",
    "ood_score": "oodScore",
}


@pytest.fixture(scope="module")
def digits():
    pd = pytest.importorskip("pandas")
    return np.load(DIGITS / "embeddings.npy"), pd.read_csv(DIGITS / "metadata.csv")


def opened(path, *flags):
    """The page's first gpprobe-results detail (and the one after a click, with --click-observation)."""
    done = subprocess.run(
        ["node", str(READER), str(path), *flags], capture_output=True, text=True, cwd=ROOT, timeout=400
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_python_numbers(detail, x, positives):
    """The page's scores for every row equal gpprobe.Probe fitted on the page's observations."""
    rows = detail["observations"]
    labels = np.array([1 if positives(r) else 0 for r in rows], dtype=np.uint8)
    assert detail["observationLabels"] == labels.tolist()
    probe = gpprobe.Probe(x[rows], labels, epsilon=detail["epsilon"], strength=detail["strength"])
    expected = probe.score(x)
    assert detail["rows"] == x.shape[0]
    for name, camel in CAMEL.items():
        np.testing.assert_allclose(np.array(detail["scores"][camel]), expected[name], rtol=0, atol=1e-12, err_msg=name)


def test_publish_opens_offline_with_the_python_probe_numbers(digits, tmp_path):
    x, meta = digits
    path = gpprobe.publish(x, meta, concept="digit=3", per_class=8, seed=1, path=tmp_path / "digits.html")
    got = opened(path, "--click-observation")
    assert got["aborted"] == []
    first, after = got["first"], got["detail"]
    # The page drew the app's observations: gpprobe.draw on the same labels, per class and seed.
    is3 = (meta["digit"].to_numpy() == 3).astype(np.uint8)
    assert sorted(first["observations"]) == sorted(gpprobe.draw(is3, per_class=8, seed=1).tolist())
    assert_python_numbers(first, x, lambda r: is3[r] == 1)
    # A click made one more observation, and the numbers follow it.
    assert len(after["observations"]) == len(first["observations"]) + 1
    assert_python_numbers(after, x, lambda r: is3[r] == 1)


def test_chosen_observations_and_a_threshold_concept(digits, tmp_path):
    x, meta = digits
    rows = [0, 5, 13, 40, 41, 77, 100, 512]
    path = gpprobe.publish(x, meta, concept="digit>=5", observations=rows, path=tmp_path / "rows.html")
    detail = opened(path)["detail"]
    assert detail["observations"] == rows
    digit = meta["digit"].to_numpy()
    assert_python_numbers(detail, x, lambda r: digit[r] >= 5)


def test_python_refuses_what_the_page_would_refuse(digits, tmp_path):
    x, meta = digits
    bad = x.astype(np.float64)
    bad[7, 3] = np.nan
    with pytest.raises(ValueError, match="row 7, column 3 is nan"):
        gpprobe.publish(bad, meta, path=tmp_path / "nan.html")
    huge = x.astype(np.float64)
    huge[2, 1] = 1e300
    with pytest.raises(ValueError, match="row 2, column 1 is too large for float32"):
        gpprobe.publish(huge, meta, path=tmp_path / "huge.html")
    with pytest.raises(ValueError, match="2-D array"):
        gpprobe.publish(x[None], meta, path=tmp_path / "3d.html")
    with pytest.raises(ValueError, match="metadata column 'digit' has 10 values for 1797 embedding rows"):
        gpprobe.publish(x, {"digit": list(range(10))}, path=tmp_path / "short.html")
    with pytest.raises(ValueError, match="row 1797 is outside the 1797 embedding rows"):
        gpprobe.publish(x, meta, concept="digit=3", observations=[1, 1797], path=tmp_path / "rows.html")
    with pytest.raises(ValueError, match="COLUMN=VALUE"):
        gpprobe.publish(x, meta, concept="digit", path=tmp_path / "concept.html")
    # Nothing was left behind by a refusal.
    assert list(tmp_path.iterdir()) == []


def test_the_size_limit_is_said_with_what_fits(monkeypatch, tmp_path):
    monkeypatch.setattr(one_file, "MAX_FILE_BYTES", 100_000)
    with pytest.raises(ValueError, match=r"holds at most 100,000 .* about 390 rows of this width"):
        gpprobe.publish(np.ones((1000, 64), dtype=np.float32), path=tmp_path / "big.html")


def test_a_page_the_core_refuses_says_why(tmp_path):
    """A hand-made block whose stream inflates short of its declared size: the page names the problem."""
    template = one_file.template_path().read_text(encoding="utf-8")
    page = one_file.one_file_html(np.ones((4, 3), dtype=np.float32), template=template)
    opening = '<script type="application/octet-stream" id="gpprobe-data">'
    start = page.index(opening + "R1BQUk9CRQ") + len(opening)  # base64 of the magic "GPPROBE"
    end = page.index("</script>", start)
    block = base64.b64decode(page[start:end])
    cut = base64.b64encode(block[: len(block) - 9]).decode("ascii")  # the zlib stream ends early
    path = tmp_path / "cut.html"
    path.write_text(page[:start] + cut + page[end:], encoding="utf-8")
    got = opened(path)
    assert "error" in got, got
    assert "zlib" in got["error"]["message"] or "inflate" in got["error"]["message"], got["error"]


def test_the_notebook_cell_is_live_after_nbconvert(digits, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nbconvert = pytest.importorskip("nbconvert")
    source = (
        "import numpy as np, pandas as pd, gpprobe\n"
        f"x = np.load({str(DIGITS / 'embeddings.npy')!r})\n"
        f"meta = pd.read_csv({str(DIGITS / 'metadata.csv')!r})\n"
        "gpprobe.show(x, meta, concept='digit=8', per_class=6, seed=4, height=640)"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert [o["output_type"] for o in outputs] == ["execute_result"]
    html = outputs[0]["data"]["text/html"]
    assert html.startswith('<iframe class="gpprobe-one-file"') and "srcdoc=" in html and "height: 640px" in html
    nbformat.write(notebook, tmp_path / "probe.ipynb")
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nbformat.read(tmp_path / "probe.ipynb", as_version=4))
    exported = tmp_path / "probe.html"
    exported.write_text(body, encoding="utf-8")
    got = opened(exported)
    x, meta = digits
    is8 = meta["digit"].to_numpy() == 8
    assert sorted(got["detail"]["observations"]) == sorted(gpprobe.draw(is8.astype(np.uint8), per_class=6, seed=4).tolist())
    assert_python_numbers(got["detail"], x, lambda r: is8[r])


def test_load_probe_reads_the_probe_file_back(digits, tmp_path):
    x, meta = digits
    is3 = (meta["digit"].to_numpy() == 3).astype(np.uint8)
    rows = gpprobe.draw(is3, per_class=8, seed=1)
    probe = gpprobe.Probe(x[rows], is3[rows])
    probe.save(tmp_path / "p.probe.json")
    back = gpprobe.load_probe(tmp_path / "p.probe.json")
    np.testing.assert_array_equal(back.score(x)["judged_probability"], probe.score(x)["judged_probability"])
