#!/usr/bin/env bash
# Builds everything from the sources: the native core, CLI and GoogleTest suite (build/native), the
# wasm module (web/src/engine/generated), the JS library (dist/lib) and the static app (dist/app).
#   build.sh --app   only what the app needs (wasm module and dist/app), for `npm start`
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source scripts/make/setup.sh

jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" != "--app" ]; then
  echo "build: native core, CLI and tests"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
fi
echo "build: wasm modules (gpprobe, gpprobe-threads and their relaxed-SIMD twins)"
emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm-cmake -j "$jobs"
if [ "${1:-}" != "--app" ]; then
  echo "build: JS library (dist/lib)"
  rm -rf dist/lib
  npx tsc -p tsconfig.lib.json
  mkdir -p dist/lib/generated
  cp web/src/engine/generated/gpprobe.mjs web/src/engine/generated/gpprobe.wasm web/src/engine/generated/gpprobe.d.mts \
     web/src/engine/generated/gpprobe-threads.mjs web/src/engine/generated/gpprobe-threads.wasm \
     web/src/engine/generated/gpprobe-threads.worker.js web/src/engine/generated/gpprobe-relaxed.wasm \
     web/src/engine/generated/gpprobe-threads-relaxed.mjs web/src/engine/generated/gpprobe-threads-relaxed.wasm \
     web/src/engine/generated/gpprobe-threads-relaxed.worker.js dist/lib/generated/
fi
echo "build: app (dist/app)"
npx vite build --logLevel warn
echo "build: one-file template and gpprobe-publish (dist/single)"
node scripts/make/build_single.mjs
