#!/usr/bin/env bash
# The full test suite, from a fresh clone: installs what is missing, builds everything, then runs
#   0. the formatters' check (scripts/test/format_check.sh),
#   1. the native GoogleTest suite (core + CLI), then pytest on the Python module (tests/python),
#   2. a bounded fuzz smoke run (scripts/test/fuzz.sh --smoke: each libFuzzer harness for 4 s under
#      ASan + UBSan, then each browser parser for 2 s in Node; any finding fails the suite),
#   3. Vitest in Node: the wasm module through the TS API, parsers and session state,
#   4. the browser tests: Debian's Chromium (playwright-core) on the production build,
#   5. a benchmark smoke run (`npm run bench -- --quick`'s scale table at small sizes: every part runs; not figures).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bash scripts/make/build.sh
source scripts/make/setup.sh
echo "test: formatting (clang-format, prettier)"
bash scripts/test/format_check.sh
echo "test: native (GoogleTest)"
./build/native/gpprobe_tests --gtest_brief=1
echo "test: Python module (pytest: golden files, the CLI, a 2-worker Dask LocalCluster)"
# Debian's Python, which has the packages setup.sh installs (a python3 earlier on PATH may not). pytest exits
# 5 when it collects no test: that fails here like any other non-zero exit.
/usr/bin/python3 -m pytest tests/python -q -p no:cacheprovider
echo "test: fuzz smoke (libFuzzer, ASan, UBSan; browser parsers)"
bash scripts/test/fuzz.sh --smoke
echo "test: wasm and web (Vitest)"
npx vitest run
echo "test: browser (Chromium on dist/app)"
npx vitest run --config vitest.e2e.config.ts
echo "test: benchmark smoke (the scale table at --quick sizes)"
node --experimental-wasm-relaxed-simd scripts/bench/bench_scale.mjs --quick
echo "test: all passed"
