#!/usr/bin/env bash
# One bounded libFuzzer run of a fuzz target (ctest asan.fuzz.<target>, the asan build).
# Fuzzes for TRNSIM_FUZZ_SECONDS over the target's seeds, its committed regression inputs
# and its corpus kept in the build folder (it grows from run to run). Fails on any crash,
# sanitizer report, leak, hang (-timeout) or oversized allocation; the input that did it is
# copied into tests/fuzz/regressions/<target>/ (commit it with the fix: from then on every
# run replays it, natively too). Prints the executions reached.
set -uo pipefail
: "${FUZZER:?}" "${TARGET:?}" "${SEEDS:?}" "${REGRESSIONS:?}" "${WORK:?}"
seconds=${TRNSIM_FUZZ_SECONDS:?set by ctest from tests/fuzz/CMakeLists.txt}
mkdir -p "$WORK/corpus" "$WORK/artifacts" "$REGRESSIONS"
rm -f "$WORK/artifacts"/*
log="$WORK/fuzz.log"
# The committed regression inputs first, each whole (the fuzzing below truncates to -max_len).
regs=("$REGRESSIONS"/*)
nregs=0
if [[ -e ${regs[0]} ]]; then
  nregs=${#regs[@]}
  if ! "$FUZZER" "${regs[@]}" </dev/null >"$WORK/replay.log" 2>&1; then
    tail -n 40 "$WORK/replay.log"
    echo "fuzz $TARGET: a committed regression input fails again"
    exit 1
  fi
fi
# stdin from /dev/null: an input naming /dev/stdin as a file must not wait for a terminal.
# -timeout: one input taking longer is a hang. -rss/-malloc limits: bounded memory.
"$FUZZER" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=3072 -malloc_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 -artifact_prefix="$WORK/artifacts/" \
  "$WORK/corpus" "$SEEDS" "$REGRESSIONS" </dev/null >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
# Findings only: libFuzzer also writes slow-unit-* files for inputs over 10 s, which on a
# loaded machine are just the machine (a real hang is a timeout-*).
found=()
for f in "$WORK"/artifacts/{crash,leak,timeout,oom}-*; do [[ -e $f ]] && found+=("$f"); done
if ((rc != 0)) || ((${#found[@]})); then
  tail -n 60 "$log"
  for f in "${found[@]}"; do
    dest="$REGRESSIONS/$(basename "$f")"
    cp "$f" "$dest"
    echo "fuzz $TARGET: FINDING saved as $dest -- fix it, then commit that file (replayed on every run)"
  done
  echo "fuzz $TARGET: failed (exit $rc) after ${execs:-?} executions"
  exit 1
fi
echo "fuzz $TARGET: ok, $nregs regression inputs replayed, ${execs:-?} executions in ${seconds} s, corpus $(ls "$WORK/corpus" | wc -l) inputs"
