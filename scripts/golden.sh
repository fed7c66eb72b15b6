#!/usr/bin/env bash
# The golden outputs of the redesign (issue 9): what the CLI prints for every example
# scenario (and `serve` of every serving example, examples/serve-*.json), every bundled sweep,
# `validate` and `describe` of every system, pinned in
# tests/golden/ and compared by tests/cli/test_snapshot_golden.sh.
#   bash scripts/golden.sh write   regenerate them (commit the change and say why)
#   bash scripts/golden.sh check   compare against them (what the test does)
#   bash scripts/golden.sh check --sanitized
#                                  the JSON outputs of run and serve and the rest but validate
#                                  (the sanitizer suite: validate is its test_validate's, and
#                                  each example's text and trace twin repeats the evaluation
#                                  its JSON made; the native suite compares them all)
# TRNSIM names the CLI (default build/native/trnsim).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
mode=${1:?usage: golden.sh write|check [--sanitized]}
all=1
case ${2:-} in
  "") ;;
  --sanitized) [[ $mode == check ]] || { echo "golden.sh: --sanitized is for check" >&2; exit 2; }; all=0 ;;
  *) echo "usage: golden.sh write|check [--sanitized]" >&2; exit 2 ;;
esac
T=${TRNSIM:-$top/build/native/trnsim}
gold=tests/golden
out=$(mktemp -d); trap 'rm -rf "$out" "$out.want"' EXIT
mkdir -p "$out/run" "$out/trace" "$out/describe" "$out/sweep" "$out/serve"
for f in examples/*.json; do
  s=$(basename "$f" .json)
  "$T" run "$f" --json >"$out/run/$s.json"
  if ((all)); then "$T" run "$f" --trace "$out/trace/$s.json" >"$out/run/$s.txt"; fi
done
for f in examples/serve-*.json; do
  s=$(basename "$f" .json)
  "$T" serve "$f" --json >"$out/serve/$s.json"
  if ((all)); then "$T" serve "$f" >"$out/serve/$s.txt"; fi
done
for f in examples/sweeps/*.json; do
  "$T" sweep "$f" >"$out/sweep/$(basename "$f" .json).jsonl" 2>/dev/null
done
for f in core/data/chips/*.json core/data/systems/*.json core/data/clusters/*.json; do
  s=$(basename "$f" .json)
  "$T" describe "$s" --json >"$out/describe/$s.json"
  "$T" describe "$s" >"$out/describe/$s.txt"
done
if ((all)); then
  "$T" validate --json >"$out/validate.json"
  "$T" validate >"$out/validate.txt"
fi
"$T" compare examples/gpt-oss-120b-trn3-gen2.json examples/gpt-oss-120b-trn2-ultraserver.json >"$out/compare.txt"
# Timelines are large: pinned by their SHA-256 only.
if ((all)); then (cd "$out/trace" && sha256sum *.json) >"$out/traces.sha256"; fi
rm -rf "$out/trace"
case $mode in
  write) rm -rf "$gold"; mkdir -p "$gold"; cp -r "$out"/. "$gold"/; echo "golden: written to $gold" ;;
  check)
    want=$gold
    if ((!all)); then  # the goldens this mode makes
      want=$out.want; mkdir -p "$want"; cp -r "$gold"/. "$want"/
      rm -f "$want"/validate.* "$want"/traces.sha256 "$want"/run/*.txt "$want"/serve/*.txt
    fi
    if diff -r "$want" "$out" >"$out.diff" 2>&1; then echo "golden: $(find "$out" -type f | wc -l) files identical"; rm -f "$out.diff"
    else echo "golden: outputs differ from $gold:"; head -60 "$out.diff"; rm -f "$out.diff"; exit 1; fi ;;
  *) echo "usage: golden.sh write|check" >&2; exit 2 ;;
esac
