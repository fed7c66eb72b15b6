#!/usr/bin/env bash
# scripts/blind_check.sh, issue 10's held-out check, runs on the built CLI: every figure of the
# ten published guidellm runs gets a model value and an error, the summary lines and the
# constant-rate runs are printed, and each printed error is (model - published) / published.
# (It checks the script works and reports honestly, not what the errors are: they are a check,
# not a target of this test.)
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
out=$(bash "$TRNSIM_SOURCE_DIR/scripts/blind_check.sh" "$TRNSIM")
fail() { echo "test_blind_check: $*" >&2; printf '%s\n' "$out" >&2; exit 1; }
rows=$(printf '%s\n' "$out" | grep -cE ' (sync|throughput) +(TTFT|ITL) ') || true
[[ $rows == 20 ]] || fail "expected 20 figures (10 runs x TTFT, ITL), got $rows"
further=$(printf '%s\n' "$out" | grep -cE ' async @[0-9.e+-]+/s +(TTFT|ITL) ') || true
[[ $further == 10 ]] || fail "expected 10 constant-rate figures, got $further"
for line in "geometric-mean |error| TTFT over 10 figures" "geometric-mean |error| ITL over 10 figures" \
            "mean factor off TTFT" "mean factor off ITL"; do
  grep -qF "$line" <<<"$out" || fail "no line '$line'"
done
# Every row's error is what its published and model columns give.
printf '%s\n' "$out" | grep -E ' (TTFT|ITL) +[0-9.]+ +[0-9.]+ +[+-][0-9]+%$' | python3 -c '
import sys
n = 0
for line in sys.stdin:
    f = line.split()
    pub, model, err = float(f[-3]), float(f[-2]), int(f[-1].rstrip("%"))
    want = round(100 * (model - pub) / pub)
    if abs(want - err) > 1:
        sys.exit(f"error column {err}% but ({model} - {pub}) / {pub} = {want}%: {line.strip()}")
    n += 1
if n != 30:
    sys.exit(f"checked {n} rows, expected 30")
' || fail "an error column does not match its row"
echo "test_blind_check: ok"
