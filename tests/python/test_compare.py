"""gpprobe.compare and gpprobe.draw against `gpprobe compare` and `gpprobe draw` on the same files: every
column of the table (numbers to 1e-12: the CLI prints 17 significant digits; text and counts exactly),
the JSON line's basis, best, draws and sentence, and the drawn rows — over draws of the observations at
the CLI's default (20 draws), at --draws R and with one set of observations (--draws 1)."""

import json
import threading
import time

import numpy as np
import pytest

import gpprobe
from conftest import read_csv


def layers(seed=0, n=90):
    """Three embeddings of the same n rows: the concept strong, weak and absent."""
    rng = np.random.default_rng(seed)
    y = (rng.uniform(size=n) < 0.4).astype(np.uint8)
    direction = 2.0 * y[:, None] - 1.0
    strong = rng.standard_normal((n, 6)) + 1.5 * direction
    weak = rng.standard_normal((n, 4)) + 0.4 * direction
    absent = rng.standard_normal((n, 5)).astype(np.float32)
    return [strong, weak, absent], y


def cli_table(text):
    header, columns = read_csv(text)
    return header, columns


def assert_table_equals_cli(table, header, columns):
    assert list(table.columns) == header == list(gpprobe.COMPARE_COLUMNS)
    for name in gpprobe.COMPARE_COLUMNS:
        ours = table[name].to_numpy()
        theirs = columns[name]
        if theirs.dtype.kind == "f":
            ours = ours.astype(np.float64)
            assert np.array_equal(np.isnan(ours), np.isnan(theirs)), name
            np.testing.assert_allclose(ours[~np.isnan(ours)], theirs[~np.isnan(theirs)], rtol=0, atol=1e-12,
                                       err_msg=name)
        else:
            # the CLI's empty cells read as "" (text) here; every cell of a text column compares as text
            assert [str(v) if not (isinstance(v, float) and np.isnan(v)) else "" for v in ours] == list(theirs), name


def test_compare_equals_the_cli(cli, tmp_path):
    embeddings, y = layers()
    files = []
    for k, e in enumerate(embeddings):
        files.append(tmp_path / f"layer_{k}.npy")
        np.save(files[-1], e)
    ood = [np.random.default_rng(9 + k).standard_normal((12, e.shape[1])) * 3 for k, e in enumerate(embeddings)]
    ood_files = []
    for k, o in enumerate(ood):
        ood_files.append(tmp_path / f"ood_{k}.npy")
        np.save(ood_files[-1], o)
    np.save(tmp_path / "labels.npy", y)
    out = cli("compare", "--embeddings", *files, "--labels", tmp_path / "labels.npy", "--per-class", "6", "--seed",
              "4", "--ood", *ood_files, "--epsilon", "0.2", "--strength", "3", "--draws", "1")
    header, columns = cli_table(out.stdout)
    summary = json.loads(out.stderr.strip())
    result = gpprobe.compare(embeddings, y, per_class=6, seed=4, names=[str(f) for f in files], ood=ood, epsilon=0.2,
                             strength=3.0, concept=str(tmp_path / "labels.npy"), draws=1)
    assert_table_equals_cli(result.table, header, columns)
    assert result.sentence == summary["sentence"]
    (c,) = result.concepts
    for key in ("concept", "basis", "basis_rows", "best", "episteme_threshold", "sentence", "draws"):
        assert c[key] == summary[key], key
    assert c["draws"] == {"mode": "none", "draws": 1}
    assert c["best"] == str(files[0]) and result.table["separates"].tolist()[0] == "yes"
    # the rows drawn are `gpprobe draw`'s, and giving them as observations is the same comparison
    drawn = read_csv(cli("draw", "--labels", tmp_path / "labels.npy", "--per-class", "6", "--seed", "4").stdout)[1]
    assert c["observation_rows"].tolist() == drawn["row"].astype(int).tolist()
    again = gpprobe.compare(embeddings, y, names=[str(f) for f in files], ood=ood, epsilon=0.2, strength=3.0,
                            observations=drawn["row"].astype(int), concept=str(tmp_path / "labels.npy"), draws=1)
    assert again.sentence == result.sentence


@pytest.mark.parametrize("draws", [1, None])
def test_compare_with_unlabelled_rows_and_several_concepts_equals_the_cli(cli, tmp_path, draws):
    embeddings, y = layers(seed=5, n=70)
    z = (np.arange(70) % 3 == 0).astype(float)
    y_text = [("" if i % 7 == 3 else str(int(v))) for i, v in enumerate(y)]
    with open(tmp_path / "meta.csv", "w") as f:
        f.write("seen,third\n")
        for a, b in zip(y_text, z):
            f.write(f"{a},{int(b)}\n")
    files = []
    for k, e in enumerate(embeddings):
        files.append(tmp_path / f"e{k}.npy")
        np.save(files[-1], e)
    out = cli("compare", "--embeddings", *files, "--labels", tmp_path / "meta.csv", "--concepts", "seen", "third",
              *([] if draws is None else ["--draws", draws]))
    header, columns = cli_table(out.stdout)
    lines = [json.loads(line) for line in out.stderr.strip().splitlines()]
    seen = np.array([np.nan if t == "" else float(t) for t in y_text])
    result = gpprobe.compare({str(f): e for f, e in zip(files, embeddings)}, {"seen": seen, "third": z}, draws=draws)
    assert_table_equals_cli(result.table, header, columns)
    assert [c["draws"] for c in result.concepts] == [line["draws"] for line in lines]
    assert [c["sentence"] for c in result.concepts] == [line["sentence"] for line in lines]
    assert result.sentence == "\n".join(line["sentence"] for line in lines)
    assert int(result.table["heldout_rows"][0]) == 70 - 10 - 16  # unlabelled rows are neither observations nor held out


def save_layers(tmp_path, embeddings, y):
    files = []
    for k, e in enumerate(embeddings):
        files.append(tmp_path / f"layer_{k}.npy")
        np.save(files[-1], e)
    np.save(tmp_path / "labels.npy", y)
    return files, tmp_path / "labels.npy"


def test_compare_over_draws_at_the_cli_default_equals_the_cli(cli, tmp_path):
    # redraw: per_class rows of each class drawn afresh in each of the CLI's default 20 draws
    embeddings, y = layers(seed=3)
    files, labels = save_layers(tmp_path, embeddings, y)
    ood = [np.random.default_rng(20 + k).standard_normal((10, e.shape[1])) * 3 for k, e in enumerate(embeddings)]
    ood_files = []
    for k, o in enumerate(ood):
        ood_files.append(tmp_path / f"ood_{k}.npy")
        np.save(ood_files[-1], o)
    out = cli("compare", "--embeddings", *files, "--labels", labels, "--per-class", "5", "--seed", "2", "--ood",
              *ood_files)
    header, columns = cli_table(out.stdout)
    summary = json.loads(out.stderr.strip())
    names = [str(f) for f in files]
    result = gpprobe.compare(embeddings, y, per_class=5, seed=2, names=names, ood=ood, concept=str(labels))
    assert_table_equals_cli(result.table, header, columns)
    (c,) = result.concepts
    for key in ("concept", "basis", "basis_rows", "best", "episteme_threshold", "sentence", "draws"):
        assert c[key] == summary[key], key
    assert result.sentence == summary["sentence"]
    assert c["draws"]["mode"] == "redraw" and c["draws"]["draws"] == 20 and c["draws"]["best"] == names[0]
    assert result.table["draws"].tolist() == [20, 20, 20]
    # the first draw is the comparison of --per-class 5 --seed 2 alone; each draw's AUROC is kept
    assert c["draw_auroc"].shape == (20, 3)
    one = gpprobe.compare(embeddings, y, per_class=5, seed=2, names=names, ood=ood, concept=str(labels), draws=1)
    assert c["observation_rows"].tolist() == one.concepts[0]["observation_rows"].tolist()
    np.testing.assert_array_equal(result.table["heldout_auroc"].to_numpy(), one.table["heldout_auroc"].to_numpy())
    np.testing.assert_array_equal(c["draw_auroc"][0], one.table["heldout_auroc"].to_numpy())
    np.testing.assert_allclose(c["draw_auroc"].mean(axis=0), columns["draw_mean_auroc"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c["draw_auroc"].std(axis=0, ddof=1), columns["draw_sd_auroc"], rtol=0, atol=1e-12)


def test_compare_bootstrap_over_draws_equals_the_cli(cli, tmp_path):
    # bootstrap: the given observations resampled within each class, at --draws 7 and at the default
    embeddings, y = layers(seed=8, n=60)
    files, labels = save_layers(tmp_path, embeddings, y)
    rows = [int(r) for r in gpprobe.draw(y, 4, seed=1)]
    names = [str(f) for f in files]
    for extra, draws in (([], None), (["--draws", "7"], 7)):
        out = cli("compare", "--embeddings", *files, "--labels", labels, "--observations", ",".join(map(str, rows)),
                  "--seed", "3", *extra)
        header, columns = cli_table(out.stdout)
        summary = json.loads(out.stderr.strip())
        result = gpprobe.compare(embeddings, y, seed=3, names=names, observations=rows, concept=str(labels),
                                 draws=draws)
        assert_table_equals_cli(result.table, header, columns)
        (c,) = result.concepts
        for key in ("basis", "basis_rows", "best", "sentence", "draws"):
            assert c[key] == summary[key], key
        assert c["draws"]["mode"] == "bootstrap" and c["draws"]["draws"] == (draws or 20)
        assert c["observation_rows"].tolist() == rows


def test_compare_without_rows_to_resample_on_equals_the_cli(cli, tmp_path):
    # every labelled row but one of class 0 is an observation: no bootstrap is possible. Without draws the
    # one set is compared alone and the concept's draws say why; with them it is refused, as the CLI does
    embeddings, y = layers(seed=1, n=40)
    files, labels = save_layers(tmp_path, embeddings, y)
    negatives = np.flatnonzero(y == 0)
    rows = sorted(np.flatnonzero(y == 1)[:5].tolist() + negatives[: len(negatives) - 1].tolist())
    given = ",".join(map(str, rows))
    out = cli("compare", "--embeddings", *files, "--labels", labels, "--observations", given)
    header, columns = cli_table(out.stdout)
    summary = json.loads(out.stderr.strip())
    result = gpprobe.compare(embeddings, y, names=[str(f) for f in files], observations=rows, concept=str(labels))
    assert_table_equals_cli(result.table, header, columns)
    (c,) = result.concepts
    assert c["draws"] == summary["draws"]
    assert c["draws"]["mode"] == "none" and "fewer than 2 labelled rows of each class" in c["draws"]["skipped"]
    assert c["sentence"] == summary["sentence"]
    refused = cli("compare", "--embeddings", *files, "--labels", labels, "--observations", given, "--draws", "20",
                  check=False)
    assert refused.returncode != 0
    with pytest.raises(gpprobe.Error) as caught:
        gpprobe.compare(embeddings, y, observations=rows, draws=20)
    assert str(caught.value).split(": ")[-1] in refused.stderr


def test_the_gil_is_released_while_the_core_compares_over_draws():
    embeddings, y = layers(seed=2, n=1500)
    gpprobe.compare(embeddings[:1], y, draws=1)  # pandas imported: what remains of the call is mostly the core's
    done = threading.Event()

    def compare():
        gpprobe.compare(embeddings, y, per_class=16, draws=100)
        done.set()

    worker = threading.Thread(target=compare)
    start = last = time.perf_counter()
    longest = 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    elapsed = time.perf_counter() - start
    # With the GIL held while the core computes, this loop would stop for the whole computation (nearly all
    # of the call); released, it stops only for the Python around it and the switch interval.
    assert elapsed > 0.1, f"comparing took only {elapsed:.3f} s: too short to tell"
    assert longest < 0.5 * elapsed, f"the main thread stopped for {longest:.2f} s of the call's {elapsed:.2f} s"


@pytest.mark.parametrize("per_class, seed", [(3, 0), (5, 7), (100, 2)])
def test_draw_equals_the_cli(cli, tmp_path, per_class, seed):
    y = (np.random.default_rng(seed).uniform(size=41) < 0.3).astype(np.uint8)
    np.save(tmp_path / "l.npy", y)
    rows = read_csv(cli("draw", "--labels", tmp_path / "l.npy", "--per-class", per_class, "--seed", seed).stdout)[1]
    assert gpprobe.draw(y, per_class, seed=seed).tolist() == rows["row"].astype(int).tolist()


def test_compare_and_draw_refuse_bad_input():
    embeddings, y = layers(n=30)
    with pytest.raises(gpprobe.Error, match=r"labels of concept row 2 is 2.0; labels must be 0, 1 or NaN"):
        gpprobe.compare(embeddings, np.where(np.arange(30) == 2, 2, y))
    with pytest.raises(ValueError, match="names has 1 names for 3 embeddings"):
        gpprobe.compare(embeddings, y, names=["a"])
    with pytest.raises(ValueError, match="per_class must be a whole number >= 0, got -1"):
        gpprobe.draw(y, -1)
    for bad in (0, 10001, 2.5, True):
        with pytest.raises(ValueError, match="draws must be a whole number from 1 to 10000"):
            gpprobe.compare(embeddings, y, draws=bad)
