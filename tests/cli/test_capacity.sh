#!/usr/bin/env bash
# trnsim capacity as users call it: a small plan in text and JSON (deterministic, the same
# answer on two threads), the chosen deployment served again by `trnsim serve` meets the
# targets, and bad input (exit 2, the field named).
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_error() {  # CODE PATTERN -- args...
  local code=$1 pattern=$2; shift 3
  local rc=0
  "$TRNSIM" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc == "$code" ]] || fail "trnsim $* exited $rc, expected $code (stderr: $(cat "$tmp/err"))"
  [[ ! -s $tmp/out ]] || fail "trnsim $* printed to stdout on error: $(head -3 "$tmp/out")"
  grep -qE -- "$pattern" "$tmp/err" || fail "trnsim $*: stderr '$(cat "$tmp/err")' does not match '$pattern'"
}

"$TRNSIM" --help | grep -qE '^  capacity ' || fail "--help lists capacity"
"$TRNSIM" capacity --help | grep -q 'Usage: trnsim capacity' || fail "capacity --help"

# Llama-3.1-8B on Trainium2 servers at 20 requests/s: twelve families, a fraction of a second.
cat >"$tmp/plan.json" <<'JSON'
{"version": 1, "system": "trn2-48xlarge", "compare_system": "",
 "workload": {"model": "Llama-3.1-8B", "inference": {"input_tokens": 1000, "output_tokens": 100}, "stack": "plain"},
 "serve": {"arrivals": "poisson", "rate": 20, "requests": 80, "targets": {"ttft_s": 0.5, "tpot_s": 0.02, "fraction": 0.9}},
 "capacity": {"systems": "trn2-48xlarge", "tp": [1, 2, 4], "batch_slots": [4, 32], "schedulers": "chunked, prefill_first",
              "max_chips": 16}}
JSON
"$TRNSIM" capacity "$tmp/plan.json" >"$tmp/a.txt"
"$TRNSIM" capacity "$tmp/plan.json" --jobs 2 >"$tmp/b.txt"
cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "capacity --jobs 2 differs from one thread"
grep -q '^Cheapest per system' "$tmp/a.txt" || fail "text has no per-system optimum"
grep -q '^Pareto front' "$tmp/a.txt" || fail "text has no Pareto front"
"$TRNSIM" capacity "$tmp/plan.json" --json >"$tmp/a.json"
"$TRNSIM" capacity "$tmp/plan.json" --json --exhaustive >"$tmp/e.json"

# The chosen deployment as a serving scenario, served again: it meets the targets. The pruned
# and the exhaustive search choose the same one.
node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const e = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const s = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
  if (r.families !== 12 || r.outcomes.length !== 12) throw new Error("expected 12 families, got " + r.families);
  const best = r.best[0].configuration;
  if (!best || !best.meets) throw new Error("nothing meets");
  const key = (o) => [o.label, o.replicas, o.price_per_hour_usd, o.ttft_s, o.tpot_s].join(" ");
  if (key(best) !== key(e.best[0].configuration)) throw new Error("pruned and exhaustive differ");
  if (!(r.simulations < e.simulations)) throw new Error("the bounds saved no simulation");
  for (const o of r.outcomes.filter((o) => o.meets))  // one system: one price per chip-hour
    if (Math.abs(o.price_per_hour_usd / o.chips - best.price_per_hour_usd / best.chips) > 1e-9) throw new Error("price");
  const f = best.family;
  s.system = best.deployment_system;
  Object.assign(s.workload, {parallelism: {tp: f.tp, ep: f.ep, pp: f.pp, dp: best.replicas}, stack: f.stack,
                             precision: {weights: f.weights, kv_cache: f.kv_cache}});
  Object.assign(s.serve, {max_num_seqs: f.batch_slots, scheduler: f.scheduler || "chunked"});
  delete s.capacity;
  fs.writeFileSync(process.argv[4], JSON.stringify(s));
  fs.writeFileSync(process.argv[5], String(best.attainment));
' "$tmp/a.json" "$tmp/e.json" "$tmp/plan.json" "$tmp/again.json" "$tmp/attainment"
"$TRNSIM" serve "$tmp/again.json" --json >"$tmp/again.out"
node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).serve;
  const want = Number(fs.readFileSync(process.argv[2], "utf8"));
  if (!(r.goodput.attainment >= 0.9)) throw new Error("served again, attainment " + r.goodput.attainment);
  if (Math.abs(r.goodput.attainment - want) > 1e-12) throw new Error("attainment " + r.goodput.attainment + " vs " + want);
' "$tmp/again.out" "$tmp/attainment"

# Shards (batch engines): three blocks of families, concatenated in any order and merged, give
# the unsharded plan; the lines plot as a Pareto front.
"$TRNSIM" capacity "$tmp/plan.json" --lines >"$tmp/all.jsonl"
for i in 0 1 2; do "$TRNSIM" capacity "$tmp/plan.json" --lines --shard "$i/3" >"$tmp/s$i.jsonl"; done
cat "$tmp/s2.jsonl" "$tmp/s0.jsonl" "$tmp/s1.jsonl" >"$tmp/merged.jsonl"
[[ $(wc -l <"$tmp/merged.jsonl") == 12 ]] || fail "shards do not cover the 12 families"
"$TRNSIM" capacity "$tmp/plan.json" --merge "$tmp/merged.jsonl" --json >"$tmp/m.json"
cmp -s "$tmp/m.json" "$tmp/a.json" || fail "merged shards differ from the unsharded plan"
expect_error 2 "--merge: family 4 of 12 is in no shard" -- capacity "$tmp/plan.json" --merge "$tmp/s0.jsonl"
cat "$tmp/s0.jsonl" "$tmp/s0.jsonl" >"$tmp/twice.jsonl"
expect_error 2 "line 5: family 0 appears twice" -- capacity "$tmp/plan.json" --merge "$tmp/twice.jsonl"
"$TRNSIM" plot "$tmp/all.jsonl" --x usd_per_million_tokens --y tpot_s --color system --kind scatter --pareto -o "$tmp/front.svg"
grep -q 'class="front"' "$tmp/front.svg" || fail "the plot has no Pareto front"

# Each system on its own shipping stack: a Neuron stack and a GPU server stack over a Trainium
# and a GPU system; the crossed half is rejected with the stack's own reason, the rest planned.
python3 - examples/capacity-deepseek-v3.json "$tmp/mixed.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["capacity"].update({"systems": "trn3-gen2-ultraserver, gb200-nvl72", "tp": [8], "ep": [8], "kv_cache": "fp8",
                      "batch_slots": [32], "stacks": "vllm-neuron, trtllm"})
json.dump(s, open(sys.argv[2], "w"))
PY
"$TRNSIM" capacity "$tmp/mixed.json" --json >"$tmp/mixed.out"
python3 - "$tmp/mixed.out" <<'PY' || fail "mixed-stack plan"
import json, sys
p = json.load(open(sys.argv[1]))
best = {b["system"]: b["configuration"]["family"]["stack"] for b in p["best"]}
assert best == {"trn3-gen2-ultraserver": "vllm-neuron", "gb200-nvl72": "trtllm"}, best
assert p["rejected"] == {"placement": 2}, p["rejected"]
why = " ".join(o["reason"] for o in p["outcomes"] if o["rejected_by"])
assert "is a GPU serving stack" in why and "has no NeuronCore block" in why, why
PY

# Bad input: exit 2, the field named, nothing on stdout.
sed 's/"systems": "trn2-48xlarge"/"systems": "trn9-ultraserver"/' "$tmp/plan.json" >"$tmp/bad.json"
expect_error 2 "capacity.systems: .*unknown system" -- capacity "$tmp/bad.json"
sed 's/"tp": \[1, 2, 4\]/"tp": [3]/' "$tmp/plan.json" >"$tmp/bad.json"
expect_error 2 "capacity: no family of the search space is a valid placement" -- capacity "$tmp/bad.json"
sed 's/"tpot_s": 0.02/"tpot_s": 0.00001/' "$tmp/plan.json" >"$tmp/bad.json"
expect_error 2 "serve.targets.tpot_s: no configuration of the search space meets" -- capacity "$tmp/bad.json"
sed 's/"weights": *"[^"]*",//; s/"max_chips": 16/"max_chips": 16, "weights": "int3"/' "$tmp/plan.json" >"$tmp/bad.json"
expect_error 2 "capacity.weights: unknown 'int3'" -- capacity "$tmp/bad.json"
expect_error 2 "--jobs" -- capacity "$tmp/plan.json" --jobs 0
echo "capacity CLI: ok"
