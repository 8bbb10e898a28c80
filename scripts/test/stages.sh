# Sourced by scripts/make/build.sh and scripts/test/test.sh: `stage NAME CMD [ARGS...]` runs CMD and then
# prints its wall time and CPU time (user + sys of this shell and the children it waited for: what the stage
# cost the machine, which a busy machine does not stretch as it stretches the wall time), and appends them
# to build/stage-times.tsv (name, wall s, CPU s, exit status, the machine's 1-minute load average when it
# ended: a wall time taken at a load above the core count is stretched by others' work, its CPU time far
# less). test.sh prints that file as a table at the end.
# CMD runs in a subshell with -e (a function's failing step ends it); its exit status is returned. Call
# `stage` as a command of its own, not on the left of || or && (bash ignores -e anywhere inside those).
GPPROBE_STAGE_LOG="${GPPROBE_STAGE_LOG:-$PWD/build/stage-times.tsv}"
export GPPROBE_STAGE_LOG

stage_cpu_ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$$/stat"; }

stage() {
  local name=$1 status=0 start end cpu_start cpu_end
  shift
  start=$(date +%s.%N)
  cpu_start=$(stage_cpu_ticks)
  # In a subshell with -e of its own (a function's failing step must end it; -e does not reach into the
  # left of an ||), its status kept without ending the caller before the times are written.
  local errexit=0
  [[ $- == *e* ]] && errexit=1
  set +e
  (
    set -e
    "$@"
  )
  status=$?
  [ $errexit = 1 ] && set -e
  end=$(date +%s.%N)
  cpu_end=$(stage_cpu_ticks)
  mkdir -p "$(dirname "$GPPROBE_STAGE_LOG")"
  local load
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  awk -v n="$name" -v a="$start" -v b="$end" -v c="$((cpu_end - cpu_start))" -v t="$(getconf CLK_TCK)" -v s="$status" \
    -v l="$load" -v out="$GPPROBE_STAGE_LOG" 'BEGIN {
      printf "time: %s: wall %.0f s, CPU %.0f s (user + sys), load %s%s\n", n, b - a, c / t, l, (s ? ", failed" : "")
      printf "%s\t%.1f\t%.1f\t%d\t%s\n", n, b - a, c / t, s, l >> out
    }'
  return $status
}

# The table of build/stage-times.tsv (every stage since the file was started).
stage_table() {
  [ -f "$GPPROBE_STAGE_LOG" ] || return 0
  awk -F'\t' 'BEGIN { printf "%-44s %9s %9s %6s\n", "stage", "wall s", "CPU s", "load" }
    { printf "%-44s %9.0f %9.0f %6s%s\n", $1, $2, $3, $5, ($4 ? "  failed" : "") }' "$GPPROBE_STAGE_LOG"
}
