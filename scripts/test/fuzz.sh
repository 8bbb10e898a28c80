#!/usr/bin/env bash
# Fuzzing, kept in the repository (issue 9). Builds the libFuzzer harnesses of tests/fuzz with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer into build/fuzz and runs them one at a time, niced,
# beside the browser parsers' Node loop (below; the two streams take a core each), each harness over its
# committed seed corpus (tests/fuzz/corpus/<harness>, read only) and what earlier runs found
# (build/fuzz/corpus/<harness>). A crash, a sanitizer report, a broken invariant, an input slower than
# 10 s or an allocation over 512 MB is a finding: the reproducer is kept under build/fuzz/findings/<harness>/
# and the script exits 1.
#
#   bash scripts/test/fuzz.sh                        every harness for 30 s            (npm run fuzz)
#   bash scripts/test/fuzz.sh --seconds 600          a longer campaign, 600 s per harness
#   bash scripts/test/fuzz.sh --smoke                the bounded run of scripts/test/test.sh: 4 s per harness
#   bash scripts/test/fuzz.sh --only probe_api       one harness (repeatable); names as in tests/fuzz/*_fuzz.cpp
#                                                    (kernel_expression, labels, npy_reader, probe_api, probe_file,
#                                                    regression_api, text_matrix, certify_extremes)
#   bash scripts/test/fuzz.sh --only browser         the browser parsers only; --only browser:npz one of them
#   bash scripts/test/fuzz.sh --only browser:link_state   sessions and links: session_file, link_state, link_deflated
#   build/fuzz/npy_reader_fuzz FILE             replay one input (after a build)
#   node scripts/test/fuzz_browser_parsers.mjs --replay npz FILE      replay one input of a browser parser
#
# While the native harnesses run, the browser parsers (web/src/io, tests/fuzz/browser/parsers.ts) run in a
# Node loop for the same seconds per parser (2 s each in the smoke run), mutating valid files with a
# 2 s time limit per input; findings go to build/fuzz/findings/browser/<parser>/ (their output is printed
# after the native harnesses'). Both are bounded by the clock, so running them side by side halves the wall
# time on 2 cores and runs every harness and parser for its full seconds. The harnesses are compiled with
# ccache when it is installed, and with line tables only for debug information (what ASan's and UBSan's
# reports need to name file and line; the rest of -g costs compile time and size, and they do not use it).
#
# Installs clang and its libFuzzer runtime when missing (as root, with apt-get).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seconds=30
seed=()
work=corpus  # build/fuzz/<work>/<harness>: where new inputs go
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    # The smoke run starts from the committed seeds alone with a fixed seed: the same inputs in the same
    # order on every machine, however far it gets in its 4 s.
    --smoke) seconds=4; seed=(-seed=1); work=smoke-corpus; rm -rf build/fuzz/smoke-corpus; shift ;;
    --only) only+=("$2"); shift 2 ;;
    *) echo "fuzz: unknown argument '$1' (see the top of scripts/test/fuzz.sh)" >&2; exit 2 ;;
  esac
done
case "$seconds" in '' | *[!0-9]*) echo "fuzz: --seconds expects a whole number, got '$seconds'" >&2; exit 2 ;; esac

# clang with the libFuzzer runtime (the proof is a one-line fuzzer that links), then the harnesses.
build_native() {
  fuzzer_links() {
    command -v clang++ >/dev/null 2>&1 &&
      echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
        clang++ -x c++ -fsanitize=fuzzer,address,undefined - -o /tmp/gpprobe-fuzz-probe.$$ >/dev/null 2>&1
  }
  if ! fuzzer_links; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "fuzz: installing clang and its libFuzzer runtime"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends clang cmake make libeigen3-dev >/dev/null
      major=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
      apt-get install -y -qq --no-install-recommends "libclang-rt-${major}-dev" >/dev/null
    fi
    if ! fuzzer_links; then
      echo "fuzz: clang with libFuzzer is missing; install it with: sudo apt-get install clang libclang-rt-14-dev" >&2
      return 1
    fi
  fi
  rm -f /tmp/gpprobe-fuzz-probe.$$

  echo "fuzz: building the harnesses (clang, ASan, UBSan) in build/fuzz"
  # ccache, when installed: the debug information names sources relative to the checkout
  # (-fdebug-prefix-map) and ccache leaves the build folder out of its hash (CCACHE_NOHASHDIR), so another
  # checkout of the same sources (a fresh clone of CI) is a cache hit.
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    # (a base folder that does not hold this checkout would hash absolute paths: then the checkout is the base)
    local ccache_base=${CCACHE_BASEDIR:-}
    case "$PWD/" in "${ccache_base%/}"/*) [ -n "$ccache_base" ] || export CCACHE_BASEDIR=$PWD ;; *) export CCACHE_BASEDIR=$PWD ;; esac
    export CCACHE_NOHASHDIR=1
  fi
  nice -n 10 cmake -S . -B build/fuzz -DGPPROBE_FUZZ=ON -DGPPROBE_NATIVE_ARCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -fdebug-prefix-map=$PWD=. -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
  if ! nice -n 10 cmake --build build/fuzz -j 2 >build/fuzz/build.log 2>&1; then
    tail -40 build/fuzz/build.log >&2
    return 1
  fi
}

# The native harnesses, one after another. Each takes up to 4 KB inputs (2 KB for regression, whose
# decoded problems stop growing long before) and the dictionary next to it, if any.
fuzz_native() {
  local per_harness=$1 status=0 ran=0 source name binary log max_len
  for source in tests/fuzz/*_fuzz.cpp; do
    name=$(basename "$source" _fuzz.cpp)
    if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
    ran=$((ran + 1))
    binary=build/fuzz/${name}_fuzz
    log=build/fuzz/logs/$name.log
    mkdir -p "build/fuzz/$work/$name" "build/fuzz/findings/$name" build/fuzz/logs "tests/fuzz/corpus/$name"
    max_len=4096
    [ "$name" = regression_api ] && max_len=2048
    local dict=()
    [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 nice -n 10 "$binary" \
      -max_total_time="$per_harness" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=$max_len \
      -print_final_stats=1 -artifact_prefix="build/fuzz/findings/$name/" "${dict[@]}" "${seed[@]}" \
      "build/fuzz/$work/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
      local runs coverage
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
      coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
      echo "fuzz: $name: ${runs:-?} inputs in ${per_harness} s, coverage ${coverage:-?}, no finding"
    else
      echo "fuzz: $name: FINDING (log $log, reproducer in build/fuzz/findings/$name/):" >&2
      grep -E 'ERROR|invariant|runtime error|SUMMARY|Test unit written' "$log" | head -20 >&2 || tail -30 "$log" >&2
      status=1
    fi
  done
  if [ ${#only[@]} -gt 0 ] && [ $ran = 0 ]; then
    echo "fuzz: no harness named ${only[*]} (tests/fuzz/*_fuzz.cpp)" >&2
    return 1
  fi
  return $status
}

# The browser parsers: scripts/test/fuzz_browser_parsers.mjs, for the same seconds per parser (2 in the smoke
# run, which starts from the same fixed seed on every machine).
fuzz_browser_parsers() {
  local per_parser=$1 targets=() name
  for name in "${browser_only[@]}"; do [ "$name" = browser ] || targets+=(--only "${name#browser:}"); done
  local seed_arg=()
  if [ ${#seed[@]} -gt 0 ]; then per_parser=2; seed_arg=(--seed 1); fi
  nice -n 10 node scripts/test/fuzz_browser_parsers.mjs --seconds "$per_parser" "${seed_arg[@]}" "${targets[@]}"
}

# The stages of one run, in order; each gets the seconds per target and fails the run on a finding.
# --only names starting with "browser" select browser parsers; the others, native harnesses.
native_only=() browser_only=()
for name in "${only[@]}"; do
  if [[ "$name" == browser* ]]; then browser_only+=("$name"); else native_only+=("$name"); fi
done
stages=()
if [ ${#only[@]} = 0 ] || [ ${#native_only[@]} -gt 0 ]; then stages+=(fuzz_native); fi
if [ ${#only[@]} = 0 ] || [ ${#browser_only[@]} -gt 0 ]; then stages+=(fuzz_browser_parsers); fi
only=("${native_only[@]}")

status=0
if [[ " ${stages[*]} " == *" fuzz_native "* ]]; then
  build_native || exit 1
fi
if [ ${#stages[@]} = 2 ] && [ "$(nproc 2>/dev/null || echo 1)" -gt 1 ]; then
  # Side by side: the browser parsers' loop in the background, its output kept and printed after the
  # harnesses'.
  mkdir -p build/fuzz/logs
  fuzz_browser_parsers "$seconds" >build/fuzz/logs/browser.log 2>&1 &
  browser_pid=$!
  fuzz_native "$seconds" || status=1
  wait "$browser_pid" || status=1
  cat build/fuzz/logs/browser.log
else
  for stage in "${stages[@]}"; do
    "$stage" "$seconds" || status=1
  done
fi
exit $status
