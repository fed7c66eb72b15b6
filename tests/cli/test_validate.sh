#!/usr/bin/env bash
# `trnsim validate`: every PERF.md measurement and Trn3-vs-Trn2 claim appears with the
# published figure, the model's and the error; uncovered rows say why; JSON has the same.
set -euo pipefail
: "${TRNSIM:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRNSIM" validate > "$tmp/out.txt" || fail "validate exited $?"
for id in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 C1 C1b C2 C3 C3b C3c C4 C5 C6 C7 C8 D1 D2 D3 D4 D5; do
  grep -qE "^$id +[^ ]" "$tmp/out.txt" || fail "validate: no row $id"
done
grep -qE "^2 +same \+ fused speculation.* n/a +- +speculative decoding not modeled" "$tmp/out.txt" || fail "row 2 n/a"
grep -qE "^C1 +GPT-OSS throughput per chip.* 3\.00x +[0-9.]+x +[-+][0-9]+%" "$tmp/out.txt" || fail "claim C1"
grep -qE "^D3 +HBM capacity.* 1\.50x +1\.50x +\+0%" "$tmp/out.txt" || fail "D3"
grep -qE "^1 +Llama-3.3-70B BF16, TP64 \(16 chips\), TPOT +19\.60 ms +[0-9.]+ ms +[-+][0-9]+% +cal" "$tmp/out.txt" || fail "row 1 TPOT"
grep -q "figures modeled:" "$tmp/out.txt" || fail "summary line"
grep -q "Far off (>50%):" "$tmp/out.txt" || fail "far-off list"
"$TRNSIM" validate > "$tmp/again.txt"
cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "validate is not deterministic"
"$TRNSIM" validate --json > "$tmp/out.json" || fail "validate --json"
for k in '"rows"' '"summary"' '"published"' '"model": null' '"calibration": true' '"within_25_percent"'; do
  grep -qF "$k" "$tmp/out.json" || fail "validate --json: no $k"
done
rc=0
"$TRNSIM" validate extra > /dev/null 2> "$tmp/err.txt" || rc=$?
[[ $rc == 2 ]] || fail "extra argument: exit $rc"
grep -q "unexpected extra argument" "$tmp/err.txt" || fail "extra argument message"
echo "test_validate: ok"
