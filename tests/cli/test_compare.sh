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
# The per-chip row holds the two scenarios' own `trnsim run` figures and their ratio.
"$TRNSIM" run --json "$a" > "$tmp/a.json" && "$TRNSIM" run --json "$b" > "$tmp/b.json" || fail "run"
node - "$tmp/a.json" "$tmp/b.json" "$tmp/out.txt" <<'EOF2' || fail "compare: per-chip row"
const fs = require("fs");
const per = (f) => JSON.parse(fs.readFileSync(f, "utf8")).primary.result.inference.output_tokens_per_s.per_chip;
const a = per(process.argv[2]), b = per(process.argv[3]);
const row = fs.readFileSync(process.argv[4], "utf8").split("\n").find((l) => l.startsWith("  output tokens/s per chip "));
// core/common/format.h's number(): thousands separated above 1000, else 1-4 decimals.
const num = (v) => v >= 1000 ? Math.round(v).toLocaleString("en-US") : v.toFixed(v >= 100 ? 1 : v >= 10 ? 2 : v >= 1 ? 3 : 4);
const want = `${num(a)} ${num(b)} ${(a / b).toFixed(2)}x ${a > b ? "A" : "B"}`;
if (!row || row.replace("output tokens/s per chip", "").trim().split(/ +/).join(" ") !== want)
  throw new Error(`row '${row}', expected '${want}'`);
EOF2
"$TRNSIM" compare "$a" "$b" > "$tmp/again.txt"
cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "compare is not deterministic"
"$TRNSIM" compare --json "$a" "$b" > "$tmp/out.json" || fail "compare --json"
for k in '"a"' '"b"' '"ratios"' '"output_tokens_per_s_per_chip"' '"file": "examples/gpt-oss-120b-trn2-ultraserver.json"'; do
  grep -qF "$k" "$tmp/out.json" || fail "compare --json: no $k"
done
node -e '
  const fs = require("fs"), j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const per = (f) => JSON.parse(fs.readFileSync(f, "utf8")).primary.result.inference.output_tokens_per_s.per_chip;
  const r = per(process.argv[2]) / per(process.argv[3]);
  if (Math.abs(j.ratios.output_tokens_per_s_per_chip - r) > 1e-12 * r) throw new Error("ratio " + j.ratios.output_tokens_per_s_per_chip + " != " + r);
' "$tmp/out.json" "$tmp/a.json" "$tmp/b.json" || fail "compare --json: ratio is A/B of the runs"
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
