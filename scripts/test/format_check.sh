#!/usr/bin/env bash
# The formatters' check: every C++ file as .clang-format says (clang-format), every TS/JS/CSS file as
# .prettierrc.json says (prettier). `--fix` rewrites the files instead of checking them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mapfile -t cpp < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.cc' | grep -v '/corpus/')
mapfile -t web < <(git ls-files '*.ts' '*.tsx' '*.mts' '*.mjs' '*.js' '*.css')
clang_format=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$clang_format" ]; then echo "format: clang-format is missing (apt-get install clang-format)" >&2; exit 1; fi
if [ "${1:-}" = --fix ]; then
  "$clang_format" -i "${cpp[@]}"
  npx prettier --write --log-level warn "${web[@]}"
  exit 0
fi
if ! "$clang_format" --dry-run --Werror "${cpp[@]}" 2>/tmp/gpprobe-clang-format.log; then
  grep -E '^[^ ].*(warning|error):' /tmp/gpprobe-clang-format.log | cut -d: -f1 | sort -u | sed 's/^/format: not clang-formatted: /' >&2
  echo "format: run 'bash scripts/test/format_check.sh --fix'" >&2
  exit 1
fi
if ! npx prettier --check --log-level warn "${web[@]}"; then
  echo "format: run 'bash scripts/test/format_check.sh --fix'" >&2
  exit 1
fi
echo "format: ${#cpp[@]} C++ files and ${#web[@]} TS/JS/CSS files formatted"
