#!/usr/bin/env bash
# Builds everything from the sources: the native core, CLI and GoogleTest suite (build/native), the
# wasm module (web/src/engine/generated), the JS library (dist/lib) and the static app (dist/app).
#   build.sh --app   only what the app needs (wasm module and dist/app), for `npm start`
# The native build compiles the core once, as one static library that the CLI, the GoogleTest suite and the
# Python module all link (CMakeLists.txt, python/CMakeLists.txt). Each step prints its wall and CPU time
# (scripts/test/stages.sh); a new step is one more `stage "build: NAME" COMMAND` line below.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/make/setup.sh
source scripts/test/stages.sh

jobs=$(nproc 2>/dev/null || echo 2)
# ccache, when installed, makes a rebuild of unchanged sources (another checkout of the same commit, the
# mutation runs' restores) a cache hit; paths below the checkout are hashed relative to it.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # A base folder that does not hold this checkout (one exported for another) would hash absolute paths: every
  # object a miss. Then the checkout is the base.
  ccache_base=${CCACHE_BASEDIR:-}
  case "$PWD/" in "${ccache_base%/}"/*) [ -n "$ccache_base" ] || export CCACHE_BASEDIR=$PWD ;; *) export CCACHE_BASEDIR=$PWD ;; esac
fi

native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
  cmake --build build/native -j "$jobs"
}
wasm() {
  emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
  cmake --build build/wasm-cmake -j "$jobs"
}
library() {
  rm -rf dist/lib
  npx tsc -p tsconfig.lib.json
  mkdir -p dist/lib/generated
  cp web/src/engine/generated/gpprobe.mjs web/src/engine/generated/gpprobe.wasm web/src/engine/generated/gpprobe.d.mts \
     web/src/engine/generated/gpprobe-threads.mjs web/src/engine/generated/gpprobe-threads.wasm \
     web/src/engine/generated/gpprobe-threads.worker.js web/src/engine/generated/gpprobe-relaxed.wasm \
     web/src/engine/generated/gpprobe-threads-relaxed.mjs web/src/engine/generated/gpprobe-threads-relaxed.wasm \
     web/src/engine/generated/gpprobe-threads-relaxed.worker.js dist/lib/generated/
}

if [ "${1:-}" != "--app" ]; then
  echo "build: native core (one static library), CLI, tests and Python module"
  stage "build: native" native
fi
echo "build: wasm modules (gpprobe, gpprobe-threads and their relaxed-SIMD twins)"
stage "build: wasm (4 modules)" wasm
if [ "${1:-}" != "--app" ]; then
  echo "build: JS library (dist/lib)"
  stage "build: JS library" library
fi
echo "build: app (dist/app)"
stage "build: app" npx vite build --logLevel warn
stage "build: one-file template and gpprobe-publish (dist/single)" node scripts/make/build_single.mjs
