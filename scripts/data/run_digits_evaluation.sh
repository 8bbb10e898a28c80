#!/usr/bin/env bash
# Runs the paper's three experiments on the shipped digits dataset with the native CLI and prints one
# markdown table per (experiment, concept): rows = observation counts, columns = methods, cells
# "mean ± sd" over the trials. Queries are the images the network never trained on (split = test).
# For the first concept it also summarises the fuzzy experiment's trial-0 clouds at p = 0.5 (the
# ground-truth alea of a label that is 1 with probability 0.5 is log 2 = 0.693).
#
#   bash scripts/data/run_digits_evaluation.sh [trials] [concepts...]     (defaults: 10; even closed_loop ge5)
# Needs build/native/gpprobe (cmake --build build/native). Writes its CSVs under ${TMPDIR:-/tmp}.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
trials=${1:-10}
shift || true
concepts=("${@:-even closed_loop ge5}")
read -r -a concepts <<< "${concepts[*]}"
data=web/public/demo/digits
cli=build/native/gpprobe
work=$(mktemp -d "${TMPDIR:-/tmp}/gpprobe-digits.XXXXXX")
trap 'rm -rf "$work"' EXIT

column_of() {  # the 0-based column of a metadata.csv header name
  head -1 "$data/metadata.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1
}
awk -F, 'NR > 1 { print ($6 == "test") }' "$data/metadata.csv" > "$work/query_mask.txt"

table() {  # CSV of `gpprobe evaluate` -> markdown table
  awk -F, 'NR > 1 {
      if (!($1 in seen)) { seen[$1] = 1; methods[++m] = $1 }
      if (!($3 in seenO)) { seenO[$3] = 1; counts[++c] = $3 }
      cell[$1, $3] = sprintf("%.3f ± %.3f", $4, $5)
    }
    END {
      printf "| O |"; for (i = 1; i <= m; ++i) printf " %s |", methods[i]; printf "\n|---|"
      for (i = 1; i <= m; ++i) printf "---|"; printf "\n"
      for (j = 1; j <= c; ++j) {
        printf "| %s |", counts[j]; for (i = 1; i <= m; ++i) printf " %s |", cell[methods[i], counts[j]]; printf "\n"
      }
    }' "$1"
}

for concept in "${concepts[@]}"; do
  col=$(column_of "$concept")
  awk -F, -v c="$col" 'NR > 1 { print $c }' "$data/metadata.csv" > "$work/$concept.txt"
  for experiment in probing fuzzy ood; do
    clouds=()
    [ "$experiment" = fuzzy ] && clouds=(--clouds "$work/$concept.clouds.csv")
    start=$(date +%s.%N)
    "$cli" evaluate --embeddings "$data/embeddings.npy" --labels "$work/$concept.txt" \
      --ood "$data/ood_embeddings.npy" --query-mask "$work/query_mask.txt" --experiment "$experiment" \
      --trials "$trials" --seed 0 --out "$work/$concept.$experiment.csv" "${clouds[@]}"
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    metric=$(awk -F, 'NR == 2 { print $2 }' "$work/$concept.$experiment.csv")
    printf '\n### %s, concept "%s" (%s, %s trials, %.1f s)\n\n' "$experiment" "$concept" "$metric" "$trials" "$seconds"
    table "$work/$concept.$experiment.csv"
  done
done

first=${concepts[0]}
printf '\n### fuzzy clouds, concept "%s", p = 0.5, trial 0: means over the originally positive queries\n\n' "$first"
echo '| method | O | judged probability | share outside [0.1, 0.9] | alea | episteme |'
echo '|---|---|---|---|---|---|'
awk -F, 'NR > 1 && $2 == 0.5 {
    k = $1 SUBSEP $3; if (!(k in n)) order[++m] = k
    n[k]++; judged[k] += $5; episteme[k] += $6; alea[k] += $7; if ($5 < 0.1 || $5 > 0.9) extreme[k]++
  }
  END {
    for (i = 1; i <= m; ++i) {
      k = order[i]; split(k, part, SUBSEP)
      printf "| %s | %s | %.3f | %.2f | %.3f | %.2f |\n", part[1], part[2], judged[k] / n[k], extreme[k] / n[k],
             alea[k] / n[k], episteme[k] / n[k]
    }
  }' "$work/$first.clouds.csv" | sort -t'|' -k2,2 -k3,3n
