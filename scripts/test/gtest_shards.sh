#!/usr/bin/env bash
# The GoogleTest suite (build/native/gpprobe_tests) in one process per core, by GoogleTest's own sharding
# (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX: the shards split the test list between them, every test runs in
# exactly one). Most tests run on one thread, so on 2 cores two shards take about half the time of one
# process. Each shard's output is printed when it ends (its failures with their messages); exits 1 when a
# shard fails or no test runs.
#
#   bash scripts/test/gtest_shards.sh [--shards N] [GTEST ARGS...]      e.g. --gtest_filter='Multiclass*'
#   GPPROBE_BUILD_DIR=build/other bash scripts/test/gtest_shards.sh     another build's binary
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
shards=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = --shards ]; then
  shards="${2:-}"
  shift 2 || true
fi
case "$shards" in '' | *[!0-9]* | 0) echo "gtest_shards: --shards expects a whole number >= 1, got '$shards'" >&2; exit 2 ;; esac
binary="${GPPROBE_BUILD_DIR:-build/native}/gpprobe_tests"
if [ ! -x "$binary" ]; then
  echo "gtest_shards: $binary is not built (cmake --build build/native --target gpprobe_tests)" >&2
  exit 1
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$binary" --gtest_brief=1 "$@" >"$logs/$i.log" 2>&1 &
  pids+=($!)
done
status=0
ran=0
for ((i = 0; i < shards; i++)); do
  shard_status=0
  wait "${pids[$i]}" || shard_status=$?
  echo "GoogleTest shard $((i + 1)) of $shards (exit $shard_status):"
  cat "$logs/$i.log"
  [ $shard_status = 0 ] || status=1
  ran=$((ran + $(sed -n 's/^\[==========\] \([0-9]*\) tests\? from .* ran\..*/\1/p' "$logs/$i.log" | head -1 || true)))
done
# No test run at all (a filter that matches none) is a failure, as pytest's exit 5 is.
if [ "$ran" = 0 ]; then
  echo "gtest_shards: no test ran" >&2
  status=1
fi
exit $status
