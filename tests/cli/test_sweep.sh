#!/usr/bin/env bash
# `trnsim sweep`: JSON Lines in index order, identical with --jobs, shards that concatenate
# to the whole, failing points as ok:false lines, no progress bar when stderr is a file, and bad sweep
# files or options exiting 2 with the field named.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"

cat > "$tmp/sweep.json" <<JSON
{ "base": "$TRNSIM_SOURCE_DIR/examples/gpt-oss-120b-trn2-ultraserver.json",
  "grid": { "compare_system": [""],
            "workload.parallelism.tp": [1, 4, 8],
            "workload.inference.batch": [1, 16] } }
JSON
"$TRNSIM" sweep "$tmp/sweep.json" --no-progress > "$tmp/one.jsonl" 2> "$tmp/one.err" || fail "sweep exited $?"
[[ $(wc -l < "$tmp/one.jsonl") == 6 ]] || fail "6 points expected"
[[ ! -s "$tmp/one.err" ]] || fail "--no-progress printed to stderr"
for i in 0 1 2 3 4 5; do
  sed -n "$((i + 1))p" "$tmp/one.jsonl" | grep -q "^{\"index\":$i," || fail "line $i out of order"
done
head -1 "$tmp/one.jsonl" | grep -q '"point":{"compare_system":"","workload.parallelism.tp":1,"workload.inference.batch":1}' \
  || fail "point 0 values (last key fastest)"
sed -n 2p "$tmp/one.jsonl" | grep -q '"workload.parallelism.tp":1,"workload.inference.batch":16' || fail "point 1 values"
# tp 1 does not fit BF16 gpt-oss in a Trainium2: an ok:false line naming the field.
head -1 "$tmp/one.jsonl" | grep -q '"ok":false,"error":"workload.parallelism: does not fit in HBM' || fail "failing point line"
sed -n 3p "$tmp/one.jsonl" | grep -q '"ok":true,"primary":{"system":"trn2-ultraserver","kind":"inference","ttft_s":' \
  || fail "point 2 summary"

"$TRNSIM" sweep "$tmp/sweep.json" --jobs 2 --no-progress > "$tmp/two.jsonl" || fail "sweep --jobs 2"
cmp -s "$tmp/one.jsonl" "$tmp/two.jsonl" || fail "--jobs 2 output differs"
"$TRNSIM" sweep "$tmp/sweep.json" --shard 0/3 --no-progress > "$tmp/s0.jsonl"
"$TRNSIM" sweep "$tmp/sweep.json" --shard 1/3 --no-progress > "$tmp/s1.jsonl"
"$TRNSIM" sweep "$tmp/sweep.json" --shard 2/3 --jobs 2 --no-progress > "$tmp/s2.jsonl"
cat "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s2.jsonl" | cmp -s - "$tmp/one.jsonl" || fail "shards do not concatenate to the whole"
[[ $(wc -l < "$tmp/s1.jsonl") == 2 ]] || fail "shard 1/3 has 2 points"

"$TRNSIM" sweep "$tmp/sweep.json" > /dev/null 2> "$tmp/progress.err" || fail "sweep with progress"
[[ ! -s "$tmp/progress.err" ]] || fail "a progress bar on a stderr that is not a terminal (tests/cli/test_progress.sh checks the terminal case)"

# The bundled example sweep (base relative to the sweep file), and --full.
"$TRNSIM" sweep examples/sweeps/gpt-oss-batch-tp.json --no-progress > "$tmp/ex.jsonl" || fail "example sweep"
[[ $(wc -l < "$tmp/ex.jsonl") == 32 ]] || fail "example sweep: 32 points"
"$TRNSIM" sweep "$tmp/sweep.json" --shard 2/3 --full --no-progress > "$tmp/full.jsonl" || fail "--full exited $?"
grep -q '"report":{"trnsim":' "$tmp/full.jsonl" || fail "--full"
# An embedded example as the base, from anywhere.
echo '{"base": "examples/default.json", "grid": {"workload.inference.output_tokens": [2, 3]}}' > "$tmp/emb.json"
(cd "$tmp" && "$TRNSIM" sweep emb.json --no-progress > emb.jsonl) || fail "embedded base"
[[ $(wc -l < "$tmp/emb.jsonl") == 2 ]] || fail "embedded base: 2 points"
# null in a grid list is the base's own value: its point shows that value and equals the point
# that names it (here the calibrated default kernel overhead, whatever it is at this commit).
default_overhead=$("$TRNSIM" run --json examples/default.json | node -e '
  const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log(JSON.stringify(r.scenario.workload.efficiency.kernel_overhead_s));')
echo "{\"base\": \"examples/default.json\", \"grid\": {\"workload.efficiency.kernel_overhead_s\": [null, $default_overhead, 0]}}" > "$tmp/null.json"
(cd "$tmp" && "$TRNSIM" sweep null.json --no-progress > null.jsonl) || fail "a null grid value"
node - "$tmp/null.jsonl" "$default_overhead" <<'EOF2' || fail "a null grid value is the base's value"
const lines = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").map(JSON.parse);
const want = JSON.parse(process.argv[3]);
const key = "workload.efficiency.kernel_overhead_s";
if (lines.length !== 3) throw new Error(`3 points, got ${lines.length}`);
if (lines[0].point[key] !== want) throw new Error(`point 0 shows ${lines[0].point[key]}, want ${want}`);
const strip = (l) => JSON.stringify({ ...l, index: 0 });
if (strip(lines[0]) !== strip(lines[1])) throw new Error("the null point differs from the point naming the default");
if (strip(lines[0]) === strip(lines[2])) throw new Error("overhead 0 should differ from the default");
EOF2

expect_error() {  # expected message fragment, then arguments
  local want=$1 rc=0; shift
  "$TRNSIM" sweep "$@" > /dev/null 2> "$tmp/err.txt" || rc=$?
  [[ $rc == 2 ]] || fail "sweep $*: exit $rc, expected 2"
  grep -qF -- "$want" "$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "sweep $*: expected '$want'"; }
}
echo '{"base": "examples/default.json", "grid": {"workload.inference.bach": [1]}}' > "$tmp/bad.json"
expect_error "sweep.grid.workload.inference.bach: not a scenario field (did you mean 'workload.inference.batch'?)" "$tmp/bad.json"
echo '{"base": "examples/default.json", "grid": {"system": []}}' > "$tmp/bad2.json"
expect_error "sweep.grid.system: expected a non-empty list of values" "$tmp/bad2.json"
echo '{"base": "examples/default.json", "gird": {}}' > "$tmp/bad3.json"
expect_error "sweep.gird: unknown key (did you mean 'grid'?)" "$tmp/bad3.json"
echo '{"base": "nope.json", "grid": {"system": ["trainium3"]}}' > "$tmp/bad4.json"
expect_error "sweep.base: no file" "$tmp/bad4.json"
expect_error "--shard: expected I/N with 0 <= I < N, got '3/3'" "$tmp/sweep.json" --shard 3/3
expect_error "--jobs: must be between 1 and 256, got 0" "$tmp/sweep.json" --jobs 0
expect_error "--jobs: expected a whole number, got 'two'" "$tmp/sweep.json" --jobs two
expect_error "SWEEP.json: missing argument"
echo "test_sweep: ok"
