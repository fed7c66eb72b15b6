#!/usr/bin/env bash
# `trnsim validate`: every PERF.md measurement and Trn3-vs-Trn2 claim appears with the
# published figure, the model's and the error; uncovered rows say why; JSON has the same.
# The model column is checked against the model reached another way, never matched with a
# wildcard: each serving row is `trnsim run` of the configuration the row states, each
# collective row `trnsim collective`, the claims come from `trnsim run` of the bundled
# example pair, the claim sweeps' best points and `trnsim describe`; the error column is
# (model - published) / published; the text table prints the JSON's numbers.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRNSIM" validate > "$tmp/out.txt" || fail "validate exited $?"
for id in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 C1 C1b C2 C3 C3b C3c C4 C5 C6 C7 C8 D1 D2 D3 D4 D5; do
  grep -qE "^$id +[^ ]" "$tmp/out.txt" || fail "validate: no row $id"
done
grep -qE "^2 +same \+ fused speculation.* n/a +- +speculative decoding not modeled" "$tmp/out.txt" || fail "row 2 n/a"
grep -q "figures modeled:" "$tmp/out.txt" || fail "summary line"
grep -q "Far off (>50%):" "$tmp/out.txt" || fail "far-off list"
"$TRNSIM" validate > "$tmp/again.txt"
cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "validate is not deterministic"
"$TRNSIM" validate --json > "$tmp/out.json" || fail "validate --json"

# The configurations the serving rows state (PERF.md rows 1-9): trn2.48xlarge, BF16, one
# replica; TP64 at LNC=2 is 16 chips.
serving() {  # name model tp batch input output
  printf '{"version": 1, "system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "%s",
    "precision": {"weights": "bf16", "attention_weights": "bf16", "activations": "bf16", "kv_cache": "bf16"},
    "parallelism": {"tp": %s}, "inference": {"batch": %s, "input_tokens": %s, "output_tokens": %s}}}\n' \
    "$2" "$3" "$4" "$5" "$6" >"$tmp/$1.json"
  "$TRNSIM" run --json "$tmp/$1.json" >"$tmp/$1.report.json" || fail "run $1"
}
serving r1 Llama-3.1-70B 16 1 10000 1500
serving r3 Llama-3.1-405B 16 1 10000 1500
serving r5 gpt-oss-120b 4 1 512 128
serving r6 Llama-3.1-8B 2 2 512 128
serving r7 DeepSeek-V3 16 1 256 256
for b in 1 2 4 8; do serving "r8b$b" DeepSeek-V3 16 "$b" 200 200; done
collective() {  # name op bytes ranks
  "$TRNSIM" collective --system trn2-48xlarge --op "$2" --bytes "$3" --ranks "$4" --json >"$tmp/$1.json" || fail "collective $1"
}
collective c10a all-reduce 1G 2
collective c10b all-reduce 1K 2
collective c11a all-reduce 2M 16
collective c11b all-reduce 32M 16
collective c11c all-reduce 512M 16
collective c12 all-gather 512K 8
for f in gpt-oss-120b-trn3-gen2 gpt-oss-120b-trn2-ultraserver; do
  "$TRNSIM" run --json "examples/$f.json" >"$tmp/$f.report.json" || fail "run $f"
done
for f in trn3-gen2 trn2-ultraserver; do
  "$TRNSIM" sweep "examples/sweeps/gpt-oss-claims-$f.json" >"$tmp/sweep-$f.jsonl" 2>/dev/null || fail "sweep $f"
done
for s in trn3-gen2-ultraserver trn2-ultraserver trn2-48xlarge:2; do
  "$TRNSIM" describe "$s" --json >"$tmp/describe-$s.json" || fail "describe $s"
done

node - "$tmp" <<'EOF' || fail "validate's numbers"
const fs = require("fs"), path = require("path");
const dir = process.argv[2];
const load = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
const { rows } = load("out.json");
const text = fs.readFileSync(path.join(dir, "out.txt"), "utf8").split("\n");
let bad = 0;
const fail = (msg) => { console.error("  " + msg); bad++; };
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
// The JSON's error column, and the text table printing the JSON's numbers.
const show = (v, unit) => unit === "x" ? v.toFixed(2) + "x" : v >= 1000 ? v.toFixed(0) + " " + unit
  : v >= 100 ? v.toFixed(1) + " " + unit : v.toFixed(2) + " " + unit;
for (const r of rows) {
  const line = text.find((l) => l.startsWith(r.id + " ") && l.includes(r.figure));
  if (!line) { fail(`row ${r.id} '${r.figure}' not in the text table`); continue; }
  if (!line.includes(show(r.published, r.unit))) fail(`row ${r.id}: text lacks the published ${show(r.published, r.unit)}`);
  if (r.model === null) {
    if (r.error !== null || !/ n\/a +- /.test(line)) fail(`row ${r.id}: unmodeled row must say n/a`);
    continue;
  }
  if (!near(r.error, (r.model - r.published) / r.published)) fail(`row ${r.id}: error ${r.error} is not (model - published) / published`);
  if (!line.includes(show(r.model, r.unit))) fail(`row ${r.id}: text lacks the model's ${show(r.model, r.unit)}`);
  const m = line.match(/ ([-+]\d+)% /);
  if (!m || Math.abs(Number(m[1]) - 100 * r.error) > 0.5) fail(`row ${r.id}: text error ${m && m[1]}% is not ${100 * r.error}`);
}
// The model column, reached another way.
const row = (id, figure) => {
  const r = rows.filter((x) => x.id === id && (!figure || x.figure.includes(figure)));
  if (r.length !== 1) throw new Error(`${r.length} rows ${id} ${figure || ""}`);
  return r[0].model;
};
const inf = (f) => load(f + ".report.json").primary.result.inference;
const expect = (what, got, want) => { if (!near(got, want)) fail(`${what}: validate says ${got}, derived ${want}`); };
for (const [id, f] of [["1", "r1"], ["3", "r3"], ["5", "r5"], ["6", "r6"], ["7", "r7"]]) {
  expect(`row ${id} TTFT`, row(id, "TTFT"), inf(f).ttft_s * 1e3);
  expect(`row ${id} TPOT`, row(id, "TPOT"), inf(f).tpot_s * 1e3);
}
for (const [id, f] of [["1", "r1"], ["3", "r3"], ["5", "r5"], ["6", "r6"]])
  expect(`row ${id} tok/s`, row(id, "tok/s"), inf(f).output_tokens_per_s.per_replica);
expect("row 7 end to end", row("7", "end to end"), inf("r7").request_latency_s * 1e3);
for (const b of [1, 2, 4, 8]) expect(`row 8 batch ${b}`, row("8", `batch ${b}`), inf(`r8b${b}`).tpot_s * 1e3);
const decode = load("r8b1.report.json").primary.result.phases.find((p) => p.name === "decode");
expect("row 9 step", row("9", "profiled"), decode.time_s * 1e3);
expect("row 9 compute", row("9", "compute"), (decode.compute_s + decode.overhead_s) * 1e3);
expect("row 9 collectives", row("9", "collectives"), decode.fabric_s * 1e3);
expect("row 9 HBM", row("9", "HBM"), decode.hbm_s * 1e3);
for (const [id, fig, f] of [["10", "1 GiB", "c10a"], ["10", "1 KiB", "c10b"], ["11", ", 2 MiB", "c11a"], ["11", ", 32 MiB", "c11b"],
                            ["11", ", 512 MiB", "c11c"], ["12", "512 KiB", "c12"]])
  expect(`row ${id} ${fig}`, row(id, fig), load(f + ".json").results[0].time_s * 1e6);
const fab = load("describe-trn2-48xlarge:2.json").fabric;
expect("row 14", row("14"), (fab.efa_latency_s + fab.collective_step_overhead_s) * 1e6);
const g3 = load("gpt-oss-120b-trn3-gen2.report.json").primary.result, g2 = load("gpt-oss-120b-trn2-ultraserver.report.json").primary.result;
expect("C1", row("C1"), g3.inference.output_tokens_per_s.per_chip / g2.inference.output_tokens_per_s.per_chip);
expect("C2", row("C2"), g2.inference.request_latency_s / g3.inference.request_latency_s);
expect("C3", row("C3"), g3.economics.tokens_per_s_per_megawatt / g2.economics.tokens_per_s_per_megawatt);
// The claim sweeps at the calibrated kernel overhead: each system's best point per chip,
// with and without TPOT <= 10 ms.
const best = (f, tpot) => fs.readFileSync(path.join(dir, f), "utf8").trim().split("\n").map(JSON.parse)
  .filter((p) => p.ok && p.point["workload.efficiency.kernel_overhead_s"] === 2e-5 && p.primary.tpot_s <= tpot)
  .reduce((a, p) => (!a || p.primary.output_tokens_per_s_per_chip > a.primary.output_tokens_per_s_per_chip ? p : a), null).primary;
const b3 = best("sweep-trn3-gen2.jsonl", 1e9), b2 = best("sweep-trn2-ultraserver.jsonl", 1e9);
const f3 = best("sweep-trn3-gen2.jsonl", 0.010), f2 = best("sweep-trn2-ultraserver.jsonl", 0.010);
expect("C1b", row("C1b"), b3.output_tokens_per_s_per_chip / b2.output_tokens_per_s_per_chip);
expect("C3b", row("C3b"), b3.tokens_per_s_per_megawatt / b2.tokens_per_s_per_megawatt);
expect("C3c", row("C3c"), f3.tokens_per_s_per_megawatt / f2.tokens_per_s_per_megawatt);
const u3 = load("describe-trn3-gen2-ultraserver.json"), u2 = load("describe-trn2-ultraserver.json");
const peak = (d) => Math.max(...["fp8", "mxfp8", "mxfp4"].map((t) => d.peak_flops[t] || 0));
expect("C4", row("C4"), peak(u3) / peak(u2));
expect("C5", row("C5"), u3.hbm_bandwidth_bytes_per_s / u2.hbm_bandwidth_bytes_per_s);
const c3 = u3.per_chip, c2 = u2.per_chip;
expect("C6", row("C6"), (peak(c3) / c3.power_watts) / (peak(c2) / c2.power_watts));
expect("C7", row("C7"), peak(c3) / peak(c2));
expect("D1", row("D1"), peak(c3) / c2.peak_flops.fp8);
expect("D2", row("D2"), c3.peak_flops.bf16 / c2.peak_flops.bf16);
expect("D3", row("D3"), c3.hbm_capacity_bytes / c2.hbm_capacity_bytes);
expect("D4", row("D4"), c3.hbm_bandwidth_bytes_per_s / c2.hbm_bandwidth_bytes_per_s);
expect("D5", row("D5"), c3.link_bandwidth_bytes_per_s / c2.link_bandwidth_bytes_per_s);
// Calibration rows are the ones the docs name (PERF rows 1, 3, 5, 6, 7).
const cal = [...new Set(rows.filter((r) => r.calibration).map((r) => r.id))].join(",");
if (cal !== "1,3,5,6,7") fail(`calibration rows ${cal}`);
process.exit(bad ? 1 : 0);
EOF

rc=0
"$TRNSIM" validate extra > /dev/null 2> "$tmp/err.txt" || rc=$?
[[ $rc == 2 ]] || fail "extra argument: exit $rc"
grep -q "unexpected extra argument" "$tmp/err.txt" || fail "extra argument message"
echo "test_validate: ok"
