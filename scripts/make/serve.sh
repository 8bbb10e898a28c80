#!/usr/bin/env bash
# Builds the app and serves it at http://127.0.0.1:4173/ (the bundled demo opens by default).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
GPPROBE_SKIP_BROWSER=1 bash scripts/make/build.sh --app
GPPROBE_SKIP_BROWSER=1 source scripts/make/setup.sh
echo "serving gpprobe at http://127.0.0.1:${PORT:-4173}/ (the embedding example: /docs/embed.html)  (Ctrl+C to stop)"
exec npx vite preview --port "${PORT:-4173}" --strictPort
