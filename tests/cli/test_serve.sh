#!/usr/bin/env bash
# trnsim serve as users call it: every serving example in text and JSON (deterministic:
# the same bytes twice), trace files in each public format (--trace-file and serve.trace.file
# beside the scenario), a long trace refused past its limit, the rate search, and bad input
# (exit 2, the field or trace line named).
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

"$TRNSIM" --help | grep -qE '^  serve ' || fail "--help lists serve"
"$TRNSIM" serve --help | grep -q 'Usage: trnsim serve' || fail "serve --help"

# Every serving example: text and JSON, twice the same bytes, JSON with every section.
# Under the sanitizers this loop is left out: the golden snapshot test already runs every
# serving example in text and JSON under them (scripts/golden.sh), and here it would repeat
# those runs at 20x the native time.
n=0
for f in examples/serve-*.json; do
  if [[ -n ${TRNSIM_SANITIZED:-} ]]; then n=$((n + 1)); continue; fi
  "$TRNSIM" serve "$f" >"$tmp/a.txt"
  "$TRNSIM" serve "$f" >"$tmp/b.txt"
  cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "serve $f is not deterministic"
  grep -q '^Latency' "$tmp/a.txt" || fail "serve $f text has no latency table"
  "$TRNSIM" serve --json "$f" >"$tmp/a.json"
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).serve;
    for (const k of ["definitions", "latency", "throughput", "goodput", "occupancy", "prefix_cache", "zero_load",
                     "little", "kv", "series", "positions", "metrics"])
      if (!(k in r)) throw new Error("serve report lacks " + k);
    if (!(r.requests.measured > 0)) throw new Error("nothing measured");
    // Little: requests in the system = arrival rate x time in the system (the simulator keeps its books).
    const l = r.little;
    if (Math.abs(l.requests_in_system - l.arrival_rate_x_time_in_system) > 1e-9 * l.requests_in_system)
      throw new Error("Little: " + JSON.stringify(l));
    if (r.series.t_s.length < 2 || r.series.t_s.length !== r.series.running.length) throw new Error("series");
  ' "$tmp/a.json" || fail "serve --json $f content"
  n=$((n + 1))
done
((n >= 6)) || fail "expected at least 6 serving examples, found $n"

# Sessions report TTFT per turn with and without reuse.
"$TRNSIM" serve --json examples/serve-agentic-trn3-gen2.json >"$tmp/s.json"
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).serve;
  if (!s.sessions || s.sessions.turns.length < 3) throw new Error("no per-turn table");
  const t = s.sessions.turns[2];
  if (!(t.ttft_p50_s < t.ttft_p50_no_reuse_s)) throw new Error("reuse does not help turn 3: " + JSON.stringify(t));
  if (!(s.prefix_cache.hit_fraction > 0.8)) throw new Error("hit fraction " + s.prefix_cache.hit_fraction);
' "$tmp/s.json" || fail "sessions section"

# Traces: each public format from a file, via --trace-file and via serve.trace.file (relative
# to the scenario file).
base='{"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B"}}'
echo "$base" >"$tmp/llama.json"
printf 'arrived_at,num_prefill_tokens,num_decode_tokens\n0.0,591,140\n0.125,547,248\n0.5,100,10\n' >"$tmp/vidur.csv"
printf 'request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,token_size\n0,2,0,0.0,1,1020,30\n1,2,0,0.5,1,300,10\n' >"$tmp/splitwise.csv"
printf '{"timestamp": 0, "input_length": 1100, "output_length": 20, "hash_ids": [7, 8, 9]}\n{"timestamp": 1000, "input_length": 1200, "output_length": 10, "hash_ids": [7, 8, 10]}\n' >"$tmp/mooncake.jsonl"
printf '{"session_id": "s0", "arrival_time_ns": 0, "sub_requests": [{"input_toks": 1472, "output_toks": 133, "tool_duration_ns": 127348767}, {"input_toks": 1582, "output_toks": 125, "tool_duration_ns": 0}]}\n' >"$tmp/sessions.jsonl"
for t in vidur.csv:3 splitwise.csv:2 mooncake.jsonl:2 sessions.jsonl:2; do
  file=${t%%:*} want=${t##*:}
  got=$("$TRNSIM" serve --json "$tmp/llama.json" --trace-file "$tmp/$file" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).serve.requests.measured))')
  [[ $got == "$want" ]] || fail "trace $file: $got requests measured, expected $want"
done
echo '{"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B"}, "serve": {"arrivals": "trace", "trace": {"file": "vidur.csv"}}}' >"$tmp/beside.json"
(cd / && "$TRNSIM" serve "$tmp/beside.json" >/dev/null) || fail "serve.trace.file resolves beside the scenario file"

# A long trace: streamed, and refused clearly past serve.trace.max_requests.
awk 'BEGIN { print "arrived_at,num_prefill_tokens,num_decode_tokens"; for (i = 0; i < 60000; i++) printf "%.4f,%d,%d\n", i * 0.002, 200 + i % 300, 20 + i % 50 }' >"$tmp/long.csv"
"$TRNSIM" serve --json "$tmp/llama.json" --trace-file "$tmp/long.csv" >"$tmp/long.json" || fail "a 60,000-line trace"
grep -q '"measured": 60000' "$tmp/long.json" || fail "the 60,000-line trace is served whole"
echo '{"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B"}, "serve": {"arrivals": "trace", "trace": {"file": "long.csv", "max_requests": 50000}}}' >"$tmp/capped.json"
expect_error 2 'serve.trace.max_requests: .*long.csv has more than 50000 requests \(line 50002\)' -- serve "$tmp/capped.json"

# The rate search: the highest rate meeting the targets, with its probes.
echo '{"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B", "stack": "plain"}, "serve": {"requests": 200, "rate": 4, "targets": {"ttft_s": 0.5, "tpot_s": 0.03}}}' >"$tmp/search.json"
"$TRNSIM" serve "$tmp/search.json" --find-rate >"$tmp/search.txt" || fail "--find-rate exit $?"
grep -qE '^Rate search: highest rate with 90% meeting the targets: [0-9.]+ requests/s' "$tmp/search.txt" ||
  fail "--find-rate prints the highest rate"

# MLPerf Server (serve.harness mlperf): Llama-3.1-8B on one H100 at 20 samples/s, loadgen's
# summary in text and JSON; its VALID is the rule on the p99s it reports, and a constraint the
# p99 TPOT misses makes the run INVALID (exit 0: a result, not an error).
mlperf='{"system": "dgx-h100", "compare_system": "", "workload": {"model": "Llama-3.1-8B", "stack": "trtllm", "precision": {"weights": "fp8", "activations": "fp8", "kv_cache": "fp8"}}, "serve": {"harness": "mlperf", "arrivals": "poisson", "rate": 20, "requests": 300, "input_tokens": {"distribution": "uniform", "mean": 512, "spread": 511}, "output_tokens": {"distribution": "fixed", "mean": 1024, "eos_mean": 290}, "targets": {"ttft_s": 2, "tpot_s": TPOT}}}'
echo "${mlperf/TPOT/0.2}" >"$tmp/mlperf.json"
echo "${mlperf/TPOT/0.001}" >"$tmp/mlperf-tight.json"
# (Output to a file first: grep -q leaving a pipe early would fail the writer under pipefail.)
"$TRNSIM" serve "$tmp/mlperf.json" >"$tmp/mlperf.txt" || fail "mlperf Server exit $?"
grep -q "^MLPerf Inference (loadgen's definitions), scenario Server: VALID" "$tmp/mlperf.txt" || fail "mlperf Server text"
for f in mlperf mlperf-tight; do
  "$TRNSIM" serve --json "$tmp/$f.json" >"$tmp/$f.out.json"
  node -e '
    const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).serve.mlperf;
    const valid = m.ttft_s.p99 <= m.ttft_s.constraint && m.tpot_s.p99 <= m.tpot_s.constraint;
    if (m.scenario !== "Server" || m.samples !== 300) throw new Error("scenario " + m.scenario + ", " + m.samples);
    if (m.result !== (valid ? "VALID" : "INVALID")) throw new Error("result " + m.result + " vs the p99s " + JSON.stringify(m));
    if (m.result !== process.argv[2]) throw new Error("expected " + process.argv[2] + ", got " + m.result);
    if (!(Math.abs(m.tokens_per_s / m.samples_per_s - 290) < 60)) throw new Error("tokens per sample " + m.tokens_per_s / m.samples_per_s);
  ' "$tmp/$f.out.json" "$([[ $f == mlperf ]] && echo VALID || echo INVALID)" || fail "mlperf Server JSON ($f)"
done
closed=${mlperf/TPOT/0.2}
echo "${closed/poisson/closed}" >"$tmp/mlperf-closed.json"
expect_error 2 "serve.arrivals: the mlperf harness runs MLPerf's Server scenario" -- serve "$tmp/mlperf-closed.json"

# A model config given inline has no name: the text says it is inline, with its model_type.
node -e 'const fs = require("fs"); const m = JSON.parse(fs.readFileSync("examples/models/Llama-3.1-8B.json", "utf8"));
  fs.writeFileSync(process.argv[1], JSON.stringify({system: "trn2-48xlarge", workload: {model: m}, serve: {requests: 20}}));' "$tmp/inline.json"
"$TRNSIM" serve "$tmp/inline.json" >"$tmp/inline.txt" || fail "inline config exit $?"
grep -q "^  model         inline llama config (" "$tmp/inline.txt" || fail "an inline config's model line"

# Bad input: exit 2, the field or line named.
echo '{"workload": {"model": "Llama-3.1-8B"}, "serve": {"rate": 0}}' >"$tmp/bad-rate.json"
expect_error 2 'serve.rate: 0 is below 1e-06 \(a rate is positive' -- serve "$tmp/bad-rate.json"
printf 'arrived_at,num_prefill_tokens,num_decode_tokens\n0.0,591,140\n0.1,abc,3\n' >"$tmp/bad.csv"
expect_error 2 'bad.csv line 3, num_prefill_tokens: expected a number' -- serve "$tmp/llama.json" --trace-file "$tmp/bad.csv"
expect_error 2 "serve.trace.file: cannot open '.*missing.csv'" -- serve "$tmp/llama.json" --trace-file "$tmp/missing.csv"
echo '{"system": "trn2-48xlarge", "workload": {"model": "Llama-3.1-8B"}, "serve": {"requests": 20, "targets": {"ttft_s": 0.0001}}}' >"$tmp/impossible.json"
expect_error 2 'serve.targets.ttft_s: .*cannot be met by 90% of requests even at zero load' -- serve "$tmp/impossible.json" --find-rate
expect_error 2 "unknown option" -- serve examples/serve-at-load-trn3-gen2.json --frobnicate
echo "serve: $n examples, 4 trace formats, limits, rate search, MLPerf Server and errors OK"
