#!/usr/bin/env bash
# Every bundled model (examples/models/*.json) runs through `trnsim run` on a Trn2 UltraServer
# and on a Trn3 Gen2 UltraServer (TP16, FP8 weights and matmuls, a short request): exit 0 and
# a report with its time to first token and per-token time; and through `trnsim serve` (20
# Poisson requests on the vllm-neuron stack): every request measured, percentiles ordered.
# The published shapes of tests/cli/data/models/ (families with no bundled config) run the same
# way, named by path.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
for cfg in examples/models/*.json tests/cli/data/models/*.json; do
  model=$(basename "$cfg" .json)
  [[ $cfg == examples/* ]] || model="$TRNSIM_SOURCE_DIR/$cfg"  # a config file by path
  for system in trn2-ultraserver trn3-gen2-ultraserver; do
    cat >"$tmp/s.json" <<JSON
{"system": "$system", "compare_system": "",
 "workload": {"model": "$model", "precision": {"weights": "fp8", "attention_weights": "fp8", "activations": "fp8"},
              "parallelism": {"tp": 16}, "inference": {"batch": 2, "input_tokens": 512, "output_tokens": 32}}}
JSON
    "$TRNSIM" run "$tmp/s.json" >"$tmp/out" 2>"$tmp/err" || fail "$model on $system: $(cat "$tmp/err")"
    grep -qE "^  TTFT +[0-9.]+ (us|ms|s)$" "$tmp/out" || fail "$model on $system: no TTFT line"
    grep -qE "^  time per token +[0-9.]+ (us|ms|s)$" "$tmp/out" || fail "$model on $system: no time per token"
    node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      s.serve = {arrivals: "poisson", rate: 2, requests: 20, max_num_seqs: 8};
      console.log(JSON.stringify(s));' "$tmp/s.json" >"$tmp/serve.json"
    "$TRNSIM" serve --json "$tmp/serve.json" >"$tmp/serve.out" 2>"$tmp/err" || fail "$model on $system, serve: $(cat "$tmp/err")"
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).serve, t = r.latency.ttft_s;
      if (r.requests.measured !== 20 || !(t.p50 > 0 && t.p50 <= t.p90 && t.p90 <= t.p99)) process.exit(1);' "$tmp/serve.out" \
      || fail "$model on $system: serve measured $(grep -o '"measured": [0-9]*' "$tmp/serve.out") or its TTFT percentiles are out of order"
    n=$((n + 1))
  done
done
((n >= 30)) || fail "only $n runs: expected every bundled model on two systems"
echo "models: $n runs"
