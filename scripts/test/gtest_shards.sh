#!/usr/bin/env bash
# The GoogleTest suite (build/native/gpprobe_tests) on every core, by GoogleTest's own sharding
# (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX: test i of the list runs in shard i mod N, every test in exactly
# one). Most tests run on one thread. Twice as many shards as cores, a core each in turn, balance better
# than one per core: the longest tests are not all in one shard (on the suite's own timings, one shard per
# core kept one core busy 1.33x the ideal, four shards on two cores 1.03x). Each shard's output is printed
# when it ends (its failures with their messages); exits 1 when a shard fails or no test runs.
#
#   bash scripts/test/gtest_shards.sh [--shards N] [--jobs J] [GTEST ARGS...]   e.g. --gtest_filter='Multiclass*'
#   GPPROBE_BUILD_DIR=build/other bash scripts/test/gtest_shards.sh              another build's binary
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
jobs=$(nproc 2>/dev/null || echo 2)
shards=$((2 * jobs))
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards="${2:-}"; shift 2 || true ;;
    --jobs) jobs="${2:-}"; shift 2 || true ;;
    *) break ;;
  esac
done
for value in "$shards" "$jobs"; do
  case "$value" in '' | *[!0-9]* | 0) echo "gtest_shards: --shards and --jobs expect a whole number >= 1, got '$value'" >&2; exit 2 ;; esac
done
binary="${GPPROBE_BUILD_DIR:-build/native}/gpprobe_tests"
if [ ! -x "$binary" ]; then
  echo "gtest_shards: $binary is not built (cmake --build build/native --target gpprobe_tests)" >&2
  exit 1
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

run_shard() {
  local i=$1 status=0
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$binary" --gtest_brief=1 "${@:2}" >"$logs/$i.log" 2>&1 || status=$?
  echo "$status" >"$logs/$i.status"
}

# At most $jobs shards at a time, the next started as one ends.
running=0
for ((i = 0; i < shards; i++)); do
  if [ $running -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_shard "$i" "$@" &
  running=$((running + 1))
done
wait

status=0
ran=0
for ((i = 0; i < shards; i++)); do
  shard_status=$(cat "$logs/$i.status" 2>/dev/null || echo 1)
  echo "GoogleTest shard $((i + 1)) of $shards (exit $shard_status):"
  cat "$logs/$i.log"
  [ "$shard_status" = 0 ] || status=1
  ran=$((ran + $(sed -n 's/^\[==========\] \([0-9]*\) tests\? from .* ran\..*/\1/p' "$logs/$i.log" | head -1 || true)))
done
# No test run at all (a filter that matches none) is a failure, as pytest's exit 5 is.
if [ "$ran" = 0 ]; then
  echo "gtest_shards: no test ran" >&2
  status=1
fi
echo "gtest_shards: $ran tests in $shards shards, $jobs at a time"
exit $status
