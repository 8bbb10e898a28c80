#!/usr/bin/env bash
# Times fitting and scoring natively, in wasm (Node) and in numpy (when present) on the same seeded
# workload, with ratios; then toggling one observation with kept scores (library in Node, and the app in
# Chromium at 200,000 × 384); the evaluation lab's experiments natively vs in wasm, and in Chromium on one
# thread vs the threaded module; the Compare lab's table and 10-concept grid (12 x 10,000 x 768 float32) in
# Chromium on 2 threads; multi-class classification on the 8 x 8 digits 3/5/8 (C = 3; certify with C = 4
# beside it). GPPROBE_BENCH_MILLION=1 adds a million embeddings streamed in Chromium
# (1,000,000 × 768 float32, a 3 GB temporary file: slow, so opt-in). Node runs get Node 20's
# --experimental-wasm-relaxed-simd, so they load the relaxed-SIMD twin as Chromium does. The scale table
# (bench_scale.mjs) sets every core against its target: native and wasm on 1 and 2 threads, numpy + OpenBLAS,
# the Python module against the CLI, Dask on 2 workers against 1 (2,000,000 × 768 float32 in /tmp, 6 GB).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bash scripts/make/build.sh >/dev/null
# `npm run bench -- --quick`: only the scale table, at sizes that check that every part runs (not figures).
if [ "${1:-}" = --quick ]; then exec node --experimental-wasm-relaxed-simd scripts/bench/bench_scale.mjs --quick; fi
node --experimental-wasm-relaxed-simd scripts/bench/bench.mjs "$@"
node --experimental-wasm-relaxed-simd scripts/bench/bench_toggle.mjs
node scripts/bench/bench_toggle_browser.mjs
node scripts/bench/bench_toggle_browser.mjs --isolation 1
node --experimental-wasm-relaxed-simd scripts/bench/bench_evaluation.mjs --trials 10 --concept closed_loop
node scripts/bench/bench_evaluation_browser.mjs
node scripts/bench/bench_evaluation_app.mjs
node --experimental-wasm-relaxed-simd scripts/bench/bench_gpc.mjs
node --experimental-wasm-relaxed-simd scripts/bench/bench_robustness.mjs
node scripts/bench/bench_compare_browser.mjs
node --experimental-wasm-relaxed-simd scripts/bench/bench_multiclass.mjs
node --experimental-wasm-relaxed-simd scripts/bench/bench_scale.mjs
if [ "${GPPROBE_BENCH_MILLION:-0}" = 1 ]; then node scripts/bench/bench_million.mjs; fi
