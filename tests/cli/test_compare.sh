#!/usr/bin/env bash
# `trnsim compare A.json B.json [--json]`: side by side with A/B ratios; bad input exits 2
# naming the file and the field.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"
a=examples/gpt-oss-120b-trn3-gen2.json
b=examples/gpt-oss-120b-trn2-ultraserver.json

"$TRNSIM" compare "$a" "$b" > "$tmp/out.txt" || fail "compare exited $?"
for k in "A: $a" "B: $b" "A/B" "output tokens/s per chip" "tokens/s per MW" "USD per million tokens" "time in kernel overhead"; do
  grep -qF "$k" "$tmp/out.txt" || fail "compare: no '$k'"
done
grep -E "^  output tokens/s per chip +[0-9.,]+ +[0-9.,]+ +[0-9.]+x +A$" "$tmp/out.txt" > /dev/null || fail "compare: per-chip row"
"$TRNSIM" compare "$a" "$b" > "$tmp/again.txt"
cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "compare is not deterministic"
"$TRNSIM" compare --json "$a" "$b" > "$tmp/out.json" || fail "compare --json"
for k in '"a"' '"b"' '"ratios"' '"output_tokens_per_s_per_chip"' '"file": "examples/gpt-oss-120b-trn2-ultraserver.json"'; do
  grep -qF "$k" "$tmp/out.json" || fail "compare --json: no $k"
done
# A ratio is A/B of the two results' own figures.
"$TRNSIM" compare --json "$a" "$a" > "$tmp/self.json" || fail "compare self"
grep -q '"output_tokens_per_s_per_chip": 1.0' "$tmp/self.json" || fail "self ratio is 1"
# Inference against training: the rows each side has.
"$TRNSIM" compare "$a" examples/llama-3.1-70b-training-ultracluster.json > "$tmp/mixed.txt" || fail "mixed kinds"
grep -q "training tokens/s per chip" "$tmp/mixed.txt" || fail "mixed: training row"

expect_error() {  # expected message fragment, then arguments
  local want=$1 rc=0; shift
  "$TRNSIM" compare "$@" > /dev/null 2> "$tmp/err.txt" || rc=$?
  [[ $rc == 2 ]] || fail "compare $*: exit $rc, expected 2"
  grep -qF -- "$want" "$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "compare $*: expected '$want'"; }
}
expect_error "B.json: missing argument" "$a"
expect_error "/no/such.json: cannot open file" "$a" /no/such.json
expect_error "unknown option (did you mean --json?)" --jsn "$a" "$b"
sed 's/"tp": 8/"tp": 5/' "$a" > "$tmp/bad.json"
expect_error "$tmp/bad.json: workload.parallelism.tp: a tensor-parallel group must fit in (and divide) one scale-up domain" "$a" "$tmp/bad.json"
echo '{"version": 1, "workload": {"model": "gpt-oss-120b", "kind": "infrence"}}' > "$tmp/bad2.json"
expect_error "workload.kind: unknown value 'infrence' (did you mean 'inference'?)" "$tmp/bad2.json" "$b"
echo "test_compare: ok"
