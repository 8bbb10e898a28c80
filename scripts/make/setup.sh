#!/usr/bin/env bash
# Installs what building and testing gpprobe needs, when it is missing:
#   Debian packages (when running as root; otherwise prints the apt-get line to run) and npm packages.
# Idempotent and quick when everything is present. Sourced by build.sh, test.sh, serve.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

missing=()
need_command() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need_file() { [ -e "$1" ] || missing+=("$2"); }

need_command cmake cmake
need_command g++ g++
need_command make make
need_command clang-format clang-format
need_command em++ emscripten
need_command node nodejs
need_command npm npm
need_file /usr/include/eigen3/Eigen/Core libeigen3-dev
need_file /usr/include/gtest/gtest.h libgtest-dev
need_file /usr/include/nlohmann/json.hpp nlohmann-json3-dev
if [ "${GPPROBE_SKIP_BROWSER:-0}" != 1 ]; then need_file /usr/bin/chromium chromium; fi
# The Python module (python/) and its tests (tests/python), for Debian's own Python: headers, pybind11,
# numpy, Dask and distributed, Zarr and pandas (Dask's array and DataFrame forms), pytest, venv.
need_python() { /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing+=("$2"); }
need_file /usr/bin/python3-config python3-dev
need_file /usr/include/pybind11/pybind11.h pybind11-dev
need_python pybind11 python3-pybind11
need_python numpy python3-numpy
need_python dask.array python3-dask
need_python distributed python3-distributed
need_python zarr python3-zarr
need_python pandas python3-pandas
need_python sklearn python3-sklearn
need_python pytest python3-pytest
need_python nbclient python3-nbclient
need_python nbconvert python3-nbconvert
need_python ipykernel python3-ipykernel
need_python ensurepip python3-venv
# npm run bench's numpy comparison: numpy on OpenBLAS (threaded), which Debian's alternatives then prefer
# to the reference BLAS.
need_file "/usr/lib/$(uname -m)-linux-gnu/openblas-pthread/libblas.so.3" libopenblas0-pthread

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing ${missing[*]}; install them with:" >&2
    echo "  sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# Debian's em++ needs its bundled node modules (acorn) on NODE_PATH.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Emscripten caches its system libraries; use a private cache when the system one is read-only.
if [ ! -w "$(em-config CACHE 2>/dev/null || echo /usr/share/emscripten/cache)" ]; then
  export EM_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/gpprobe-emscripten"
fi

# npm packages: (re)install when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
