#!/usr/bin/env bash
# One stage of the suite, timed as scripts/test/test.sh times it (wall and CPU time, the load it ended at;
# appended to build/stage-times.tsv, or GPPROBE_STAGE_LOG): for measuring a stage again on its own.
#   bash scripts/test/time_stage.sh "test: Chromium" npx vitest run --config vitest.e2e.config.ts
#   bash scripts/test/time_stage.sh "test: GoogleTest" bash scripts/test/gtest_shards.sh
# Runs as a child subreaper (scripts/test/subreaper.py), so the CPU time of processes a stage's children
# leave behind (Chromium's renderers after the browser closes) is counted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if [ $# -lt 2 ]; then
  echo "time_stage: usage: bash scripts/test/time_stage.sh NAME CMD [ARGS...]" >&2
  exit 2
fi
if [ -z "${GPPROBE_SUBREAPER:-}" ]; then
  export GPPROBE_SUBREAPER=1
  exec /usr/bin/python3 scripts/test/subreaper.py bash "$PWD/scripts/test/time_stage.sh" "$@"
fi
source scripts/test/stages.sh
name=$1
shift
stage "$name" "$@"
