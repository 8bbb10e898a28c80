#!/usr/bin/env bash
# Times fitting and scoring natively, in wasm (Node) and in numpy (when present) on the same seeded
# workload, with ratios; then toggling one observation with kept scores (library in Node, and the app in
# Chromium at 200,000 × 384). GPPROBE_BENCH_MILLION=1 adds a million embeddings streamed in Chromium
# (1,000,000 × 768 float32, a 3 GB temporary file: slow, so opt-in).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh >/dev/null
node scripts/bench.mjs "$@"
node scripts/bench_toggle.mjs
node scripts/bench_toggle_browser.mjs
node scripts/bench_gpc.mjs
node scripts/bench_robustness.mjs
if [ "${GPPROBE_BENCH_MILLION:-0}" = 1 ]; then node scripts/bench_million.mjs; fi
