#!/usr/bin/env bash
# Stryker (npm @stryker-mutator/core with its Vitest runner) on the TypeScript engine, web/src/engine: the
# web half of `npm run mutate` (scripts/test/mutate.py does the C++ core). Stryker is installed on first use
# into build/stryker (its own package folder, found by Node above the project's node_modules: vitest is
# the project's own), so the project's package.json and node_modules stay as they are.
#
#   bash scripts/test/stryker.sh                                           every file of web/src/engine
#   bash scripts/test/stryker.sh web/src/engine/certify/probe_certify.ts   one file (or a glob; several allowed)
#   bash scripts/test/stryker.sh 'web/src/engine/matrix.ts:20-60'          lines 20 to 60 of one file
#   GPPROBE_STRYKER_TESTS=tests/wasm/probe_certificate.test.ts bash scripts/test/stryker.sh \
#     web/src/engine/certify/probe_certify.ts                            one file against the tests named
# The score and the survivors are printed and written to build/stryker/report.{json,html}. Needs the wasm
# module (web/src/engine/generated, npm run build): most engine code is reached only through it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
version=9.6.0  # the last Stryker for Node 20 (10.x needs Node 22)
prefix=build/stryker
if [ ! -x "$prefix/node_modules/.bin/stryker" ]; then
  echo "stryker: installing @stryker-mutator/core and vitest-runner $version into $prefix"
  mkdir -p "$prefix"
  [ -f "$prefix/package.json" ] || echo '{"name":"gpprobe-stryker","private":true}' >"$prefix/package.json"
  # --legacy-peer-deps: vitest (the runner's peer) is the project's, found in node_modules above.
  (cd "$prefix" && npm install --no-audit --no-fund --legacy-peer-deps --loglevel=error \
    "@stryker-mutator/core@$version" "@stryker-mutator/vitest-runner@$version")
fi
if [ ! -f web/src/engine/generated/gpprobe.wasm ]; then
  echo "stryker: web/src/engine/generated/gpprobe.wasm is missing: build the wasm module first (npm run build)" >&2
  exit 1
fi
# Stryker's --mutate takes one comma-separated list (given twice, the last wins: every file but the last
# was left out).
mutate=()
if [ $# -gt 0 ]; then
  list=$(IFS=,; echo "$*")
  mutate=(--mutate "$list")
fi
exec "$prefix/node_modules/.bin/stryker" run scripts/test/stryker.config.mjs "${mutate[@]}"
