#!/usr/bin/env bash
# NVIDIA systems at the level users see them: `trnsim describe` of a DGX node and an NVL72 rack
# (aggregates derived from the chip file, every number with a G source, the 192 GB
# alternative), `trnsim collective` on them (nccl-tests table with the protocol, busbw =
# algbw x 2(n-1)/n), `trnsim run` of the GPU-vs-Trainium example (per chip, per system, per
# MW and $/Mtok derived from the report's own power and price), and the clear errors of what
# needs a NeuronCore block.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"

"$TRNSIM" describe gb200-nvl72 --json >"$tmp/nvl.json" || fail "describe gb200-nvl72 exit $?"
"$TRNSIM" describe gb200-nvl72+hbm-192 --json >"$tmp/nvl192.json" || fail "describe gb200-nvl72+hbm-192 exit $?"
"$TRNSIM" describe dgx-h100 >"$tmp/dgx.txt" || fail "describe dgx-h100 exit $?"
grep -q "reduces in the switches" "$tmp/dgx.txt" || fail "describe dgx-h100 does not say the switches reduce"
grep -q "chip.peak_flops.fp8: G1" "$tmp/dgx.txt" || fail "describe dgx-h100 lacks the FP8 peak's source"
node - "$tmp/nvl.json" "$tmp/nvl192.json" core/data/chips/gb200.json core/data/systems/gb200-nvl72.json <<'EOF' || fail "NVL72 aggregates"
const fs = require("fs");
const [d, d192, chip, sys] = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
const gpus = sys.chips_per_server.value * sys.servers.value;
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
if (d.chips !== gpus || gpus !== 72) throw new Error(`chips ${d.chips}`);
if (!near(d.hbm_capacity_bytes, gpus * chip.hbm.capacity.value * 1e9)) throw new Error("HBM capacity");
if (!near(d192.hbm_capacity_bytes, gpus * chip.hbm.capacity.alternatives["hbm-192"].value * 1e9)) throw new Error("hbm-192");
if (!near(d.peak_flops.mxfp4, gpus * chip.peak_flops.mxfp4.value * 1e12)) throw new Error("MXFP4 peak");
if (!near(d.power_watts, gpus * chip.power.value)) throw new Error("power");
if (d.fabric.chips_per_l1_switch !== 72 || d.fabric.l2_switches !== 0) throw new Error("one switch level of 72");
for (const [k, v] of Object.entries(d.sources))
  if (k.startsWith("chip.") && !/^(G\d+|assumption|guess|inferred|calibrated)/.test(v)) throw new Error(`${k}: ${v}`);
EOF

# The collective table names the protocol; busbw follows the nccl-tests convention.
"$TRNSIM" collective --system dgx-h100 --op all-reduce --bytes 1K:1G --json >"$tmp/c.json" || fail "collective exit $?"
"$TRNSIM" collective --system dgx-h100 --op all-reduce --bytes 1K:1G >"$tmp/c.txt" || fail "collective text exit $?"
grep -q "protocol auto" "$tmp/c.txt" || fail "the header lacks the protocol"
grep -q "nvls (simple)$" "$tmp/c.txt" || fail "no nvls row at large sizes"
grep -q "ring (ll)$" "$tmp/c.txt" || fail "no LL row at small sizes"
node - "$tmp/c.json" <<'EOF' || fail "busbw convention"
const r = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")).results;
for (const x of r) {
  const busbw = (x.bytes / x.time_s) * 2 * 7 / 8;
  if (Math.abs(x.busbw_bytes_per_s - busbw) > 1e-9 * busbw) throw new Error(`busbw at ${x.bytes}`);
  if (!x.protocol) throw new Error(`no protocol at ${x.bytes}`);
}
EOF
"$TRNSIM" collective --system gb200-nvl72 --op all-reduce --bytes 1G --algo ring --protocol ll128 >"$tmp/r.txt" || fail "ring ll128 exit $?"
grep -q "ring (ll128)$" "$tmp/r.txt" || fail "--protocol ll128 not used"
set +e
"$TRNSIM" collective --system trn2-48xlarge --op all-reduce --bytes 1M --algo nvls 2>"$tmp/e1.txt"; rc1=$?
"$TRNSIM" collective --system dgx-h100 --op all-reduce --bytes 1M --protocol ll256 2>"$tmp/e2.txt"; rc2=$?
set -e
[ "$rc1" = 2 ] && grep -q "fabric.in_switch_reduction" "$tmp/e1.txt" || fail "nvls on Trainium: rc $rc1 $(cat "$tmp/e1.txt")"
[ "$rc2" = 2 ] && grep -q "unknown protocol 'll256'" "$tmp/e2.txt" || fail "bad protocol: rc $rc2 $(cat "$tmp/e2.txt")"

# The comparison: the same model and service on GB200 NVL72 and Trn3 Gen2, per chip, per
# system (rack / UltraServer), per MW and $/Mtok from the report's own figures.
"$TRNSIM" run --json examples/gpt-oss-120b-gb200-nvl72.json >"$tmp/run.json" || fail "run exit $?"
node - "$tmp/run.json" <<'EOF' || fail "comparison figures"
const rep = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const near = (a, b, tol = 1e-6) => Math.abs(a - b) <= tol * Math.abs(b);
for (const side of [rep.primary, rep.compare]) {
  const r = side.result, t = r.inference.output_tokens_per_s, e = r.economics;
  if (!(t.per_chip > 0)) throw new Error("no tokens/s per chip");
  if (!near(t.per_system, t.per_chip * r.system.chips)) throw new Error(`per system ${t.per_system}`);
  if (!near(e.tokens_per_s_per_megawatt, t.per_chip / e.all_in_power_per_chip_watts * 1e6)) throw new Error("per MW");
  if (!near(e.usd_per_million_tokens, e.price_per_chip_hour_usd / 3600 / t.per_chip * 1e6)) throw new Error("$/Mtok");
}
if (rep.primary.result.system.chips !== 72 || rep.compare.result.system.chips !== 144) throw new Error("systems");
EOF

# A Neuron stack or the engine pricer on a GPU names the chip and what needs the NeuronCore block.
node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); s.workload.stack = "vllm-neuron";
  require("fs").writeFileSync(process.argv[2], JSON.stringify(s))' examples/llama-3.1-70b-h200.json "$tmp/neuron.json"
set +e
"$TRNSIM" run "$tmp/neuron.json" >/dev/null 2>"$tmp/e3.txt"; rc3=$?
set -e
[ "$rc3" = 2 ] && grep -q "H200 SXM (h200-sxm) has no NeuronCore block" "$tmp/e3.txt" || fail "neuron stack on H200: rc $rc3 $(cat "$tmp/e3.txt")"
# NVFP4 weights: B200 runs them at its NVFP4 peak; H100 has no FP4 and falls back along the
# dtype table's chain (nvfp4 -> mxfp4 -> fp8), saying so.
node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  s.system = "dgx-b200"; s.compare_system = "dgx-h100"; s.workload.precision.weights = "nvfp4";
  require("fs").writeFileSync(process.argv[2], JSON.stringify(s))' examples/gpt-oss-120b-gb200-nvl72.json "$tmp/nvfp4.json"
"$TRNSIM" run "$tmp/nvfp4.json" >"$tmp/nvfp4.txt" || fail "nvfp4 run exit $?"
grep -q "MLP/expert weights nvfp4" "$tmp/nvfp4.txt" || fail "B200 does not run nvfp4 weights"
grep -q "workload.precision.weights: nvfp4 is not supported by H100 SXM; modeled as fp8" "$tmp/nvfp4.txt" ||
  fail "H100 does not say nvfp4 falls back to fp8"

# DEP (TensorRT-LLM's attention data parallelism with expert-parallel MoE): tp 1, dp 4, ep 4 on
# four H100s -- four one-GPU replicas, each holding a quarter of the experts (MXFP4, kept as the
# stack's weight-only path) and its own sequences' KV cache; the MoE traffic an all-gather and
# a reduce-scatter over the four. At tp 2 the trtllm stack refuses, naming the field.
cat >"$tmp/dep.json" <<'EOF'
{"system": "dgx-h100", "compare_system": "",
 "workload": {"model": "gpt-oss-120b", "stack": "trtllm", "parallelism": {"tp": 1, "dp": 4, "ep": 4},
  "precision": {"weights": "mxfp4", "attention_weights": "bf16", "activations": "bf16", "kv_cache": "bf16"},
  "inference": {"batch": 8, "input_tokens": 128, "output_tokens": 16}},
 "serve": {"arrivals": "burst", "requests": 32}}
EOF
"$TRNSIM" serve --json "$tmp/dep.json" >"$tmp/dep-serve.json" || fail "DEP serve exit $?"
"$TRNSIM" run --json "$tmp/dep.json" >"$tmp/dep-run.json" || fail "DEP run exit $?"
node - "$tmp/dep-serve.json" "$tmp/dep-run.json" <<'EOF' || fail "DEP figures"
const fs = require("fs");
const sv = JSON.parse(fs.readFileSync(process.argv[2], "utf8")), run = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const t = sv.serve.throughput, r = run.primary.result;
const near = (a, b, tol = 1e-9) => Math.abs(a - b) <= tol * Math.abs(b);
if (!near(t.output_tokens_per_s_per_chip * 4, t.output_tokens_per_s)) throw new Error(`per chip ${t.output_tokens_per_s_per_chip}`);
if (r.precision.weights !== "mxfp4" || r.precision.matmul !== "bf16") throw new Error(`precision ${JSON.stringify(r.precision)}`);
const dec = r.phases.find(p => p.name === "decode");
const d = dec.ops.filter(o => o.name === "moe.dispatch"), c = dec.ops.filter(o => o.name === "moe.combine");
if (!d.length || !d.every(o => o.detail.startsWith("all-gather, 4 chips"))) throw new Error("dispatch " + JSON.stringify(d.map(o => o.detail)));
if (!c.length || !c.every(o => o.detail.startsWith("reduce-scatter, 4 chips"))) throw new Error("combine " + JSON.stringify(c.map(o => o.detail)));
// The gathered buffer: the four GPUs' batch of 8 tokens, hidden size 2880, BF16.
if (!d.every(o => o.fabric_bytes === 4 * 8 * 2880 * 2)) throw new Error("dispatch bytes " + d[0].fabric_bytes);
// Each GPU's KV cache holds its own 8 sequences only: 8 x (18 full layers x 144 tokens + 18
// sliding layers x 128, the window) x 8 KV heads x 64 x 2 (K, V) x 2 bytes.
const kv = r.memory_per_chip.items.kv_cache, want = 8 * (18 * 144 + 18 * 128) * 8 * 64 * 2 * 2;
if (!near(kv, want)) throw new Error(`kv ${kv} vs ${want}`);
EOF
sed 's/"tp": 1, "dp": 4, "ep": 4/"tp": 2, "dp": 2, "ep": 4/' "$tmp/dep.json" >"$tmp/dep-tp2.json"
set +e
"$TRNSIM" serve "$tmp/dep-tp2.json" >/dev/null 2>"$tmp/e4.txt"; rc4=$?
set -e
[ "$rc4" = 2 ] && grep -q "workload.parallelism.tp" "$tmp/e4.txt" && grep -q "attention data parallelism" "$tmp/e4.txt" ||
  fail "DEP at tp 2: rc $rc4 $(cat "$tmp/e4.txt")"

# SGLang's large-EP decode pool: DeepSeek-V3 with DP attention over 72 H100s of 9 nodes, the
# experts over all 72 (32 redundant slots), the all-to-alls over InfiniBand under two-batch
# overlap. The pools' throughputs follow from the report's own TTFT and time per token; the
# text says which stack hid collectives; a redundant count that does not split names the field.
cat >"$tmp/sgl.json" <<'EOF2'
{"system": "dgx-h100-cluster:9", "compare_system": "",
 "workload": {"model": "DeepSeek-V3", "stack": "sglang",
  "precision": {"weights": "fp8", "attention_weights": "fp8", "activations": "fp8", "kv_cache": "bf16"},
  "parallelism": {"tp": 1, "dp": 72, "ep": 72, "redundant_experts": 32},
  "inference": {"batch": 256, "prefill_batch": 4, "input_tokens": 1999, "output_tokens": 2}}}
EOF2
"$TRNSIM" run "$tmp/sgl.json" --json >"$tmp/sgl.out.json" || fail "sglang run exit $?"
"$TRNSIM" run "$tmp/sgl.json" >"$tmp/sgl.txt" || fail "sglang run text exit $?"
grep -q "of collectives run under compute: sglang stack" "$tmp/sgl.txt" || fail "no collectives hidden by the sglang stack"
node - "$tmp/sgl.out.json" <<'EOF2' || fail "sglang pools"
const r = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")).primary.result;
const inf = r.inference, near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
const per_server = r.system.chips_per_server;  // tp 1: a replica is one GPU
if (per_server !== 8) throw new Error(`chips per server ${per_server}`);
if (!near(inf.pools.decode_tokens_per_s_per_server, 256 / inf.tpot_s * per_server)) throw new Error("decode pool");
if (!near(inf.pools.prefill_tokens_per_s_per_server, 4 * 1999 / inf.ttft_s * per_server)) throw new Error("prefill pool");
if (!r.phases.find((p) => p.name === "decode").ops.some((o) => o.name === "moe.dispatch" && /72 chips/.test(o.detail)))
  throw new Error("no 72-GPU dispatch");
EOF2
sed 's/"redundant_experts": 32/"redundant_experts": 30/' "$tmp/sgl.json" >"$tmp/sgl-bad.json"
rc=0; "$TRNSIM" run "$tmp/sgl-bad.json" >"$tmp/sgl-bad.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "workload.parallelism.redundant_experts" "$tmp/sgl-bad.txt" || fail "bad redundant_experts: rc $rc $(cat "$tmp/sgl-bad.txt")"
echo "test_gpu: ok"
