#!/usr/bin/env bash
# Native and WebAssembly builds print identical reports: every example scenario through
# `run` (text and JSON), every serving example through `serve`, every capacity example through
# `capacity`, every built-in system through `describe`, and the link codec,
# with the native CLI ($TRNSIM) and the same CLI compiled by em++ ($TRNSIM_WASM, under node).
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_WASM:?}" "${TRNSIM_SOURCE_DIR:?}"
[[ -x $TRNSIM ]] || { echo "parity: native CLI $TRNSIM not built (build the native preset first)"; exit 1; }
cd "$TRNSIM_SOURCE_DIR"
wasm() { node "$TRNSIM_WASM" "$@"; }
compared=0 failures=0
same() {  # label, then the command's arguments
  local label=$1; shift
  local a b ra=0 rb=0
  a=$("$TRNSIM" "$@" 2>&1) || ra=$?
  b=$(wasm "$@" 2>&1) || rb=$?
  compared=$((compared + 1))
  if [[ $a != "$b" || $ra != "$rb" ]]; then
    echo "DIFFERENT: $label (exit $ra vs $rb)"
    diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -20 || true
    failures=$((failures + 1))
  fi
}
for f in examples/*.json; do
  same "run $f" run "$f"
  same "run --json $f" run --json "$f"
  same "link encode $f" link encode "$f"
done
for f in core/data/chips/*.json core/data/systems/*.json core/data/clusters/*.json; do
  s=$(basename "$f" .json)
  same "describe $s" describe --json "$s"
done
# The serving simulator: every serving example, text and JSON (its own seeded RNG and
# elementary functions, so the same requests and the same bytes).
for f in examples/serve-*.json; do
  same "serve $f" serve "$f"
  same "serve --json $f" serve --json "$f"
done
# The capacity planner: every capacity example's whole plan (what the page's Capacity tab runs
# a family per frame, tests/browser/capacity.test.mjs), JSON: every family's outcome.
for f in examples/capacity-*.json; do
  same "capacity --json $f" capacity --json "$f"
done
same "bad scenario" run tests/cli/data/bad-unknown-key.json
same "validate" validate
# MX numerics: own RNG and transcendental functions, so the statistics match to the bit.
for f in e4m3 e5m2 e3m2 e2m3 e2m1 int8; do
  for d in normal laplace uniform lognormal; do
    same "mx error $f $d" mx error --format "$f" --dist "$d" --n 20000 --seed 7
  done
done
same "mx error rceil" mx error --format e4m3 --scale rceil --n 20000
for d in normal laplace uniform lognormal; do
  same "mx error nvfp4 $d" mx error --format nvfp4 --dist "$d" --n 20000 --seed 7
done
same "mx compare" mx compare --n 20000 --json
same "mx bad format" mx error --format fp8
same "collective" collective --system trn3-gen2-ultraserver --op all-to-all --bytes 1K:64M
same "collective event" collective --system trn2-48xlarge --op all-reduce --bytes 1M --backend event
same "kernel" kernel --chip trainium3 --op gemm --dtype mxfp8
echo "parity: $compared comparisons, $failures different"
((failures == 0))
