#!/usr/bin/env bash
# Times fitting and scoring natively, in wasm (Node) and in numpy (when present) on the same seeded
# workload, with ratios; then toggling one observation with kept scores (library in Node, and the app in
# Chromium at 200,000 × 384); the evaluation lab's experiments natively vs in wasm, and in Chromium on one
# thread vs the threaded module. GPPROBE_BENCH_MILLION=1 adds a million embeddings streamed in Chromium
# (1,000,000 × 768 float32, a 3 GB temporary file: slow, so opt-in).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh >/dev/null
node scripts/bench.mjs "$@"
node scripts/bench_toggle.mjs
node scripts/bench_toggle_browser.mjs
node scripts/bench_toggle_browser.mjs --isolation 1
node scripts/bench_evaluation.mjs --trials 10 --concept closed_loop
node scripts/bench_evaluation_browser.mjs
node scripts/bench_evaluation_app.mjs
node scripts/bench_gpc.mjs
node scripts/bench_robustness.mjs
if [ "${GPPROBE_BENCH_MILLION:-0}" = 1 ]; then node scripts/bench_million.mjs; fi
