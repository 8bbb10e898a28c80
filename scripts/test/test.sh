#!/usr/bin/env bash
# The full test suite, from a fresh clone: installs what is missing, builds everything, then runs
#   0. the formatters' check (scripts/test/format_check.sh),
#   1. the native GoogleTest suite (core + CLI; shards on every core, scripts/test/gtest_shards.sh), then
#      pytest on the Python module (tests/python),
#   2. a mutation smoke run (scripts/test/mutate.py --smoke: four fixed mutants of the classifier's
#      likelihood, each of which the GoogleTest suite must kill; about a minute),
#   3. a bounded fuzz smoke run (scripts/test/fuzz.sh --smoke: each libFuzzer harness for 4 s under
#      ASan + UBSan on its seeds, beside each browser parser for 2 s in Node; any finding fails the suite),
#   4. Vitest in Node: the wasm module through the TS API, parsers and session state (a file per core),
#   5. the browser tests: Debian's Chromium (playwright-core) on the production build (a file per core),
#   6. a benchmark smoke run (`npm run bench -- --quick`'s scale table at small sizes: every part runs; not figures).
# Every stage prints its wall and CPU time, and the end a table of them (scripts/test/stages.sh;
# build/stage-times.tsv; one stage again on its own: scripts/test/time_stage.sh). Time bounds of the tests hold on a machine 4x slower than a quiet one: check with
# `bash scripts/test/under_load.sh bash scripts/test/test.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# As a child subreaper (scripts/test/subreaper.py), this shell reaps what a stage's children leave behind
# (Chromium's renderers outlive the browser process by a moment), so their CPU time counts in the stage's.
if [ -z "${GPPROBE_SUBREAPER:-}" ]; then
  export GPPROBE_SUBREAPER=1
  exec /usr/bin/python3 scripts/test/subreaper.py bash "$PWD/scripts/test/test.sh" "$@"
fi
mkdir -p build
export GPPROBE_STAGE_LOG="$PWD/build/stage-times.tsv"
rm -f "$GPPROBE_STAGE_LOG"
source scripts/test/stages.sh
# A source file that a mutation run killed outright left mutated is put back before anything is built.
/usr/bin/python3 scripts/test/mutate.py --restore
stage "build (all)" bash scripts/make/build.sh
source scripts/make/setup.sh
echo "test: formatting (clang-format, prettier)"
stage "test: formatting" bash scripts/test/format_check.sh
echo "test: native (GoogleTest)"
stage "test: GoogleTest" bash scripts/test/gtest_shards.sh
echo "test: Python module (pytest: golden files, the CLI, a 2-worker Dask LocalCluster)"
# Debian's Python, which has the packages setup.sh installs (a python3 earlier on PATH may not). pytest exits
# 5 when it collects no test: that fails here like any other non-zero exit.
stage "test: pytest" /usr/bin/python3 -m pytest tests/python -q -p no:cacheprovider
echo "test: mutation smoke (four mutants of the classifier's likelihood, each must be killed)"
stage "test: mutation smoke" /usr/bin/python3 scripts/test/mutate.py --smoke --report build/mutate/smoke.md
echo "test: fuzz smoke (libFuzzer, ASan, UBSan; browser parsers)"
stage "test: fuzz smoke" bash scripts/test/fuzz.sh --smoke
echo "test: wasm and web (Vitest)"
stage "test: Vitest" npx vitest run
echo "test: browser (Chromium on dist/app)"
stage "test: Chromium" npx vitest run --config vitest.e2e.config.ts
echo "test: benchmark smoke (the scale table at --quick sizes)"
stage "test: bench smoke" node --experimental-wasm-relaxed-simd scripts/bench/bench_scale.mjs --quick
stage_table
echo "test: all passed"
