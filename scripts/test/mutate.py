#!/usr/bin/env python3
"""Mutation testing of the C++ core (npm run mutate): how many small bugs the GoogleTest suite catches.

Each mutant is one small change to one line of a core/src file, made by one of these operators:

  boundary     a relational operator moved across its boundary: < <-> <=, > <-> >=
  equality     == <-> !=
  off-by-one   a whole-number literal after a comparison, + or - made one larger (`i < n - 1` -> `i < n - 2`)
  min-max      std::min <-> std::max, std::fmin <-> std::fmax, minCoeff <-> maxCoeff
  plus-minus   binary + <-> -, += <-> -=
  non-finite   a guard of non-finite values dropped: std::isfinite(...) -> true, std::isnan / std::isinf(...) -> false
  branch       an if's condition negated (the branches swapped): if (C) -> if (!(C))

Operators match code only (not comments, strings or preprocessor lines), and only operators written with a
space on each side (as clang-format writes them), so template brackets are never taken for comparisons.
Mutants are applied one at a time to the working tree: the file is changed, the GoogleTest binary and the
CLI (which the CLI tests run) are rebuilt incrementally in the build folder (ccache makes restoring the
original a cache hit), the relevant tests run with a time limit, and the file is restored (also on Ctrl-C or
an error; a run that was killed outright is restored by the next run). A mutant is

  killed     a test failed, crashed or ran past its time limit (3x the domain's unmutated run + 20 s)
  survived   every selected test passed: a bug the suite does not see
  invalid    it does not compile (not counted in the score)

The relevant tests of core/src/<domain>/<name>.cpp are the suites defined in tests/core/<domain>/ (with
--with-cli also the CLI tests of tests/core/cli/ that name the domain: they start processes, and take most
of the time); the suites of <name>_test.cpp (if any) run first, so that most kills take seconds. Score = killed / (killed + survived). The report (build/mutate/report.md, and
report.json) lists every survivor as file:line, operator, the line before and after.

  python3 scripts/test/mutate.py                                   40 mutants of core/src, seed 1
  python3 scripts/test/mutate.py --paths core/src/certify core/src/classification --sample 40
  python3 scripts/test/mutate.py --smoke                            4 fixed mutants (scripts/test/test.sh; fails on a survivor)
  python3 scripts/test/mutate.py --list --paths core/src/certify    the mutants, without running them
  python3 scripts/test/mutate.py --all --paths core/src/classification/likelihood.cpp
Options: --build-dir DIR (default build/native, configured with GPPROBE_UNITY_BUILD=OFF if it has no cache;
a unity build rebuilds ten sources per mutant), --budget SECONDS (no new mutant starts after it; the rest
are reported as not run), --seed N, --operators boundary,min-max,..., --filter GTEST_FILTER (for every mutant),
--report PATH, --restore (put back a file that a run killed outright left mutated; test.sh does it first).
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "build" / "mutate"
PENDING = STATE / "pending.json"  # the file being mutated and its original text, until it is restored

OPERATORS = ["boundary", "equality", "off-by-one", "min-max", "plus-minus", "non-finite", "branch"]

# The smoke run (scripts/test/test.sh): four fixed mutants of the classifier's likelihood (a file compiled on
# its own, outside the unity batches: CMakeLists.txt), each of which the tests below kill today; a survivor
# fails the run (a test lost its strength). Each is (operator, the code before, after) in SMOKE_FILE; one
# whose code is no longer there is reported and skipped.
SMOKE_FILE = "core/src/classification/likelihood.cpp"
SMOKE_FILTER = "ClassifierNumerics.*:ClassifierGradient.*:ClassifierGolden.*"
SMOKE = [
    ("plus-minus", "t.W = r * (z + r);", "t.W = r * (z - r);"),
    ("plus-minus", "scaled_erfc(-z / kSqrt2)) - 0.5 * z * z;", "scaled_erfc(-z / kSqrt2)) + 0.5 * z * z;"),
    ("plus-minus", "(z + 2.0 * r) - 1.0);", "(z + 2.0 * r) + 1.0);"),
    ("branch", "if (likelihood == ClassifierLikelihood::probit) {", "if (!(likelihood == ClassifierLikelihood::probit)) {"),
]


def smoke_mutants():
    lines = (ROOT / SMOKE_FILE).read_text().split("\n")
    found = []
    for op, before, after in SMOKE:
        where = [i for i, text in enumerate(lines) if before in text]
        if len(where) != 1:
            # A renamed or moved line would quietly weaken the CI sample: refuse instead.
            sys.exit(f"mutate: smoke mutant '{before}' of {SMOKE_FILE} is not there once: update SMOKE in "
                     "scripts/test/mutate.py")
        text = lines[where[0]]
        found.append(Mutant(SMOKE_FILE, where[0] + 1, text.index(before) + 1, op, text, text.replace(before, after)))
    if not found:
        sys.exit(f"mutate: none of the smoke mutants is in {SMOKE_FILE}: update SMOKE in scripts/test/mutate.py")
    return found


@dataclass
class Mutant:
    file: str  # relative to the repository
    line: int  # 1-based
    column: int  # 1-based, where the change starts
    operator: str
    before: str  # the line as it was
    after: str  # the line mutated
    outcome: str = "not run"
    seconds: float = 0.0
    detail: str = ""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# ---- finding mutants -------------------------------------------------------------------------------------


def code_mask(lines):
    """For each line, the line with comments, string and character literals blanked (same length), or None
    for a preprocessor line. Blanked characters are spaces, so no operator is found inside them."""
    out, in_block = [], False
    for text in lines:
        if not in_block and text.lstrip().startswith("#"):
            out.append(None)
            continue
        chars, i, n = list(text), 0, len(text)
        while i < n:
            if in_block:
                end = text.find("*/", i)
                stop = n if end < 0 else end + 2
                for k in range(i, stop):
                    chars[k] = " "
                in_block = end < 0
                i = stop
            elif text.startswith("//", i):
                for k in range(i, n):
                    chars[k] = " "
                break
            elif text.startswith("/*", i):
                in_block = True
            elif text[i] in "\"'":
                quote, k = text[i], i + 1
                while k < n and text[k] != quote:
                    k += 2 if text[k] == "\\" else 1
                for j in range(i + 1, min(k, n)):
                    chars[j] = " "
                i = k + 1
            else:
                i += 1
        out.append("".join(chars))
    return out


def closing_paren(masked, open_at):
    depth = 0
    for k in range(open_at, len(masked)):
        if masked[k] == "(":
            depth += 1
        elif masked[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def line_mutants(text, masked):
    """(operator, column0, new line) for every mutant of one line."""
    found = []

    def swap(op, pattern, table):
        for m in re.finditer(pattern, masked):
            old = m.group(0)
            found.append((op, m.start(), text[: m.start()] + table[old] + text[m.end() :]))

    swap("boundary", r" (<=|>=|<|>) ", {" < ": " <= ", " <= ": " < ", " > ": " >= ", " >= ": " > "})
    swap("equality", r" (==|!=) ", {" == ": " != ", " != ": " == "})
    swap("min-max", r"std::f?(min|max)\b|\b(min|max)Coeff\b", {
        "std::min": "std::max", "std::max": "std::min", "std::fmin": "std::fmax", "std::fmax": "std::fmin",
        "minCoeff": "maxCoeff", "maxCoeff": "minCoeff"})
    if '"' not in masked:  # a + on a line with a string literal is most likely text being joined
        swap("plus-minus", r" (\+|-|\+=|-=) ", {" + ": " - ", " - ": " + ", " += ": " -= ", " -= ": " += "})
    for m in re.finditer(r"(?:(?<=[<>+\-] )|(?<=[<>=!]= ))(\d+)(?![\w.'])", masked):
        if masked[max(0, m.start() - 3) : m.start()] in ("-> ",):
            continue
        value = int(m.group(1)) + 1
        found.append(("off-by-one", m.start(), text[: m.start()] + str(value) + text[m.end() :]))
    for m in re.finditer(r"std::(isfinite|isnan|isinf)\s*\(", masked):
        close = closing_paren(masked, m.end() - 1)
        if close < 0:
            continue
        value = "true" if m.group(1) == "isfinite" else "false"
        found.append(("non-finite", m.start(), text[: m.start()] + value + text[close + 1 :]))
    for m in re.finditer(r"\bif \(", masked):
        close = closing_paren(masked, m.end() - 1)
        if close < 0:
            continue
        condition = text[m.end() : close]
        if ";" in masked[m.end() : close]:  # if (init; condition): leave it
            continue
        found.append(("branch", m.start(), text[: m.end()] + "!(" + condition + ")" + text[close:]))
    return found


def find_mutants(paths, operators):
    files = []
    for p in paths:
        path = (ROOT / p).resolve()
        if path.is_dir():
            files += sorted(path.rglob("*.cpp"))
        elif path.suffix == ".cpp" and path.exists():
            files.append(path)
        else:
            sys.exit(f"mutate: {p}: not a .cpp file or folder of the repository")
    mutants = []
    for path in files:
        rel = str(path.relative_to(ROOT))
        if not rel.startswith("core/src/"):
            sys.exit(f"mutate: {rel}: only core/src files are mutated (their tests are the GoogleTest suite)")
        lines = path.read_text().split("\n")
        for number, (text, masked) in enumerate(zip(lines, code_mask(lines)), start=1):
            if masked is None or not masked.strip():
                continue
            for op, col, after in line_mutants(text, masked):
                if op in operators and after != text:
                    mutants.append(Mutant(rel, number, col + 1, op, text, after))
    return mutants


# ---- choosing the tests ----------------------------------------------------------------------------------

SUITE = re.compile(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,", re.M)


def suites_of(files):
    names = []
    for f in files:
        for s in SUITE.findall(f.read_text()):
            if s not in names:
                names.append(s)
    return names


def gtest_filter(names):
    return ":".join(f"{s}.*:*/{s}.*" for s in names)


# The CLI tests of each domain, by the words in their file names (tests/core/cli/cli_<word>..._test.cpp).
CLI_TESTS = {"certify": ["certify", "robustness"], "classification": ["gpc", "multiclass"],
             "regression": ["gpr", "loo"], "probe": ["probe"], "evaluation": ["evaluation"], "explain": ["explain"],
             "compare": ["compare"]}


def test_stages(rel, with_cli=False):
    """The GoogleTest filters for a core/src/<domain>/<name>.cpp, quickest to kill first: the suites of its
    own test file (if any), then those of the rest of tests/core/<domain>/ and of the domain's CLI tests."""
    parts = Path(rel).parts  # core, src, domain, name.cpp
    domain, name = parts[2], Path(rel).stem
    folder = ROOT / "tests" / "core" / domain
    own = [f for f in sorted(folder.glob("*.cpp")) if f.stem.startswith(name)] if folder.is_dir() else []
    rest = [f for f in sorted(folder.glob("*.cpp")) if f not in own] if folder.is_dir() else []
    words = CLI_TESTS.get(domain, [domain]) if with_cli else []
    cli = sorted({f for w in words for f in (ROOT / "tests" / "core" / "cli").glob(f"cli_*{w}*_test.cpp")})
    # The second stage is the same for every file of the domain (its own suites again: they are quick), so
    # the unmutated run times it once.
    return [f for f in (gtest_filter(suites_of(own)), gtest_filter(sorted(suites_of(own + rest + cli)))) if f]


# ---- running ---------------------------------------------------------------------------------------------


def restore_pending():
    if PENDING.exists():
        pending = json.loads(PENDING.read_text())
        (ROOT / pending["file"]).write_text(pending["text"])
        PENDING.unlink()
        print(f"mutate: restored {pending['file']} (a mutated copy was left by a run that was stopped)")


def build(build_dir, log):
    started = time.monotonic()
    done = subprocess.run(["cmake", "--build", str(build_dir), "--target", "gpprobe_tests", "gpprobe", "-j",
                           os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(done.stdout)
    return done.returncode == 0, time.monotonic() - started, done.stdout


def run_tests(build_dir, filters, limit):
    """(passed, seconds, detail): every filter in turn; stops at the first failure."""
    started = time.monotonic()
    for f in filters:
        try:
            done = subprocess.run([str(build_dir / "gpprobe_tests"), f"--gtest_filter={f}", "--gtest_brief=1",
                                   "--gtest_fail_fast"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=max(1.0, limit - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            return False, time.monotonic() - started, f"ran past its time limit ({limit:.0f} s)"
        if done.returncode == 0 and re.search(r"^\[==========\] 0 tests from", done.stdout, re.M):
            # A filter that names no test (a renamed suite) would let every mutant "survive" or "pass".
            return False, time.monotonic() - started, f"no test matches the filter {f}"
        if done.returncode != 0:
            failed = re.findall(r"^\[  FAILED  \] (\S+)", done.stdout, re.M)
            if done.returncode < 0:
                return False, time.monotonic() - started, f"crashed (signal {-done.returncode})"
            return False, time.monotonic() - started, "failed: " + (failed[0] if failed else f"exit {done.returncode}")
    return True, time.monotonic() - started, ""


def configure(build_dir):
    if (build_dir / "CMakeCache.txt").exists():
        return
    # The flags of a developer's one-source-at-a-time build (the Python module on, which compiles the core
    # position-independent): ccache then has the unmutated objects already. With the module off, every object
    # differed by -fPIC from the cache's, and the first build compiled the whole core and suite again.
    args = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release", "-DGPPROBE_UNITY_BUILD=OFF"]
    if shutil.which("ccache"):
        args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        # Paths below the base folder are hashed relative: one that does not hold this checkout is replaced by it.
        base = os.environ.get("CCACHE_BASEDIR", "").rstrip("/")
        if not base or not (str(ROOT) + "/").startswith(base + "/"):
            os.environ["CCACHE_BASEDIR"] = str(ROOT)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def write_report(path, mutants, args, elapsed):
    killed = [m for m in mutants if m.outcome == "killed"]
    survived = [m for m in mutants if m.outcome == "survived"]
    invalid = [m for m in mutants if m.outcome == "invalid"]
    not_run = [m for m in mutants if m.outcome == "not run"]
    counted = len(killed) + len(survived)
    score = len(killed) / counted if counted else float("nan")
    lines = [
        "# Mutation score of the core's GoogleTest suite (scripts/test/mutate.py)",
        "",
        f"Paths: {', '.join(args.paths)}; sample {len(mutants)} (seed {args.seed}); operators: {', '.join(args.operators)}.",
        f"**Score {len(killed)}/{counted} = {100 * score:.0f}%** killed; {len(invalid)} did not compile; "
        f"{len(not_run)} not run (budget); {elapsed / 60:.1f} min.",
        "",
        "| outcome | where | operator | before | after | detail |",
        "|---|---|---|---|---|---|",
    ]
    for m in sorted(mutants, key=lambda m: (m.outcome != "survived", m.file, m.line)):
        lines.append(f"| {m.outcome} | {m.where} | {m.operator} | `{m.before.strip()}` | `{m.after.strip()}` | {m.detail} |")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    path.with_suffix(".json").write_text(json.dumps(
        {"score": score, "killed": len(killed), "survived": len(survived), "invalid": len(invalid),
         "not_run": len(not_run), "mutants": [asdict(m) for m in mutants]}, indent=1))
    return score, killed, survived


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paths", nargs="+", default=["core/src"], help="core/src files or folders to mutate")
    parser.add_argument("--sample", type=int, default=40, help="mutants drawn at random (with --seed); default 40")
    parser.add_argument("--all", action="store_true", help="every mutant of the paths, not a sample")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--operators", default=",".join(OPERATORS), help="comma-separated, of: " + ", ".join(OPERATORS))
    parser.add_argument("--build-dir", default="build/native")
    parser.add_argument("--budget", type=float, default=0, help="seconds; no new mutant starts after them (0: none)")
    parser.add_argument("--report", default=str(STATE / "report.md"))
    parser.add_argument("--smoke", action="store_true", help="the fixed CI sample; exits 1 when a mutant survives")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--restore", action="store_true", help="restore a file a killed run left mutated, and stop")
    parser.add_argument("--baseline", type=float, default=0,
                        help="seconds the unmutated tests take (skips timing them; their limit is 3x this + 20 s)")
    parser.add_argument("--with-cli", action="store_true", help="also the domain's CLI tests (tests/core/cli; slow)")
    parser.add_argument("--filter", help="the GoogleTest filter to run for every mutant (default: by domain, below)")
    args = parser.parse_args()
    if args.restore:
        STATE.mkdir(parents=True, exist_ok=True)
        lock = STATE / "lock"
        try:
            os.kill(int(lock.read_text()), 0)
            return 0  # a run is under way: its file is its own to restore
        except (FileNotFoundError, ProcessLookupError, ValueError):
            restore_pending()
        return 0
    if args.smoke:
        args.paths, args.all = [SMOKE_FILE], True
    args.operators = [o for o in args.operators.split(",") if o]
    for o in args.operators:
        if o not in OPERATORS:
            sys.exit(f"mutate: unknown operator '{o}' (operators: {', '.join(OPERATORS)})")
    STATE.mkdir(parents=True, exist_ok=True)
    if not args.list:
        lock = STATE / "lock"
        if lock.exists():
            try:
                os.kill(int(lock.read_text()), 0)
                sys.exit(f"mutate: another run (process {lock.read_text()}) is mutating this checkout; wait for it")
            except (ProcessLookupError, ValueError):
                pass
        lock.write_text(str(os.getpid()))
        restore_pending()

    everything = smoke_mutants() if args.smoke else find_mutants(args.paths, set(args.operators))
    if args.smoke:
        args.filter = args.filter or SMOKE_FILTER
    mutants = everything if args.all or args.sample >= len(everything) else \
        sorted(random.Random(args.seed).sample(everything, args.sample), key=lambda m: (m.file, m.line, m.column))
    print(f"mutate: {len(mutants)} of {len(everything)} mutants of {', '.join(args.paths)}")
    if args.list:
        for m in mutants:
            print(f"{m.where} {m.operator}: {m.after.strip()}")
        return 0

    build_dir = (ROOT / args.build_dir).resolve()
    configure(build_dir)
    log = open(STATE / "build.log", "w")
    ok, seconds, output = build(build_dir, log)
    if not ok:
        sys.exit(f"mutate: the unmutated build fails (log {STATE / 'build.log'})")
    # The unmutated tests: they must pass, and their time sets each mutant's limit.
    baselines, stage_seconds = {}, {}
    for rel in sorted({m.file for m in mutants}):
        filters = [args.filter] if args.filter else test_stages(rel, args.with_cli)
        if not filters:
            sys.exit(f"mutate: {rel}: no tests found under tests/core for its domain")
        # The last stage holds every suite of the earlier ones: its time alone sets the limit, and it is run
        # once per domain.
        whole = filters[-1]
        if args.baseline:
            stage_seconds[whole] = args.baseline
        if whole not in stage_seconds:
            passed, stage_seconds[whole], detail = run_tests(build_dir, [whole], 3600)
            if not passed:
                sys.exit(f"mutate: {rel}: the unmutated tests fail ({detail}): fix them first")
        baselines[rel] = (filters, stage_seconds[whole])
        print(f"mutate: {rel}: its tests take {baselines[rel][1]:.1f} s unmutated")

    def stop(signum, frame):
        restore_pending()
        sys.exit(130)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    started = time.monotonic()
    try:
        for i, m in enumerate(mutants, start=1):
            if args.budget and time.monotonic() - started > args.budget:
                break
            path = ROOT / m.file
            original = path.read_text()
            lines = original.split("\n")
            assert lines[m.line - 1] == m.before, f"{m.where}: the file changed since the mutants were found"
            lines[m.line - 1] = m.after
            PENDING.write_text(json.dumps({"file": m.file, "text": original}))
            t0 = time.monotonic()
            try:
                path.write_text("\n".join(lines))
                log.write(f"\n==== {m.where} {m.operator}\n")
                ok, _, output = build(build_dir, log)
                if not ok:
                    m.outcome, m.detail = "invalid", "does not compile"
                else:
                    filters, base = baselines[m.file]
                    passed, _, m.detail = run_tests(build_dir, filters, 3 * base + 20)
                    m.outcome = "survived" if passed else "killed"
            finally:
                path.write_text(original)
                PENDING.unlink(missing_ok=True)
            m.seconds = time.monotonic() - t0
            print(f"mutate: [{i}/{len(mutants)}] {m.outcome:8} {m.where} {m.operator} ({m.seconds:.0f} s) {m.detail}",
                  flush=True)
            write_report(Path(args.report), mutants, args, time.monotonic() - started)  # so far (a stopped run)
    finally:
        restore_pending()
        build(build_dir, log)  # the build folder as the sources are (ccache: cache hits)
        (STATE / "lock").unlink(missing_ok=True)
    score, killed, survived = write_report(Path(args.report), mutants, args, time.monotonic() - started)
    print(f"mutate: score {len(killed)}/{len(killed) + len(survived)} ({100 * score:.0f}%); report {args.report}")
    for m in survived:
        print(f"mutate: survived {m.where} {m.operator}: {m.after.strip()}")
    return 1 if args.smoke and survived else 0


if __name__ == "__main__":
    sys.exit(main())
