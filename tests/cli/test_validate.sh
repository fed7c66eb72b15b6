#!/usr/bin/env bash
# `trnsim validate`: every PERF.md measurement and Trn3-vs-Trn2 claim appears with the
# published figure, the model's and the error; uncovered rows say why; JSON has the same.
# The model column is checked against the model reached another way, never matched with a
# wildcard: each serving row is `trnsim serve` of the scenario its data file states (the
# metric it names, from `serve --json`), each profiled-step row `trnsim run`, each video row
# `trnsim run` of its clip, each collective row `trnsim collective`; the claims come from
# `trnsim run` of the bundled example pair, the claim sweeps' best points and `trnsim
# describe`; the error column is (model - published) / published; the text table prints the
# JSON's numbers.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Under the sanitizers (TRNSIM_SANITIZED) one validation run, the JSON one (each run is minutes
# there): the text is the same rows through validate::to_text, which the sanitizer suite's
# test_ui_validation prints, and the native run checks it here.
if [[ -z ${TRNSIM_SANITIZED:-} ]]; then
"$TRNSIM" validate > "$tmp/out.txt" || fail "validate exited $?"
for id in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 22 23 24 25 V1 V2 V3 C1 C1b C2 C3 C3b C3c C4 C5 C6 C7 C8 D1 D2 D3 D4 D5 H1 H2 H3; do
  grep -qE "^$id +[^ ]" "$tmp/out.txt" || fail "validate: no row $id"
done
grep -q "figures modeled:" "$tmp/out.txt" || fail "summary line"
grep -q "Far off (>50%):" "$tmp/out.txt" || fail "far-off list"
"$TRNSIM" validate > "$tmp/again.txt"  # determinism
cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "validate is not deterministic"
fi
"$TRNSIM" validate --json > "$tmp/out.json" || fail "validate --json"

# Every row computed from a scenario, a serving run or a collective, run through the CLI as
# a user would: the data files state the scenario (or collective) and the metric; the CLI's
# figure is checked against validate's below. Under the sanitizers, each data file's first row
# of each kind (every path the CLI takes, not every row's minutes again).
node - "$tmp" "$TRNSIM_SOURCE_DIR/core/data/validation" <<'EOF' || fail "writing the rows' scenarios"
const fs = require("fs"), path = require("path");
const [dir, data] = process.argv.slice(2);
// Rows of one computation (the H1 rows: three figures of one serving run) share one CLI run.
const jobs = [], names = {}, first = new Map(), seen = new Set();
// A repeated computation ({"repeat": {"count", "of"}}: a harness's loop, or the MLPerf rows' N
// identical replicas): its one run, N times in the check.
const one = (c) => c.repeat ? c.repeat.of : c;
// A serving row's "set": its fields given values derived from published figures ({"figure"},
// {"divide"}), applied to the scenario the CLI runs.
const value = (e) => e.figure !== undefined ? e.figure : value(e.divide[0]) / value(e.divide[1]);
const scenarioOf = (c) => {
  const s = JSON.parse(JSON.stringify(c.serve));
  for (const [p, e] of Object.entries(c.set || {})) {
    const keys = p.split("."), last = keys.pop();
    keys.reduce((o, k) => (o[k] = o[k] || {}), s)[last] = value(e);
  }
  return s;
};
for (const f of fs.readdirSync(data).sort()) {
  JSON.parse(fs.readFileSync(path.join(data, f), "utf8")).rows.forEach((r, i) => {
    const c = one(r.compute), name = `${path.basename(f, ".json")}-${i}`;
    const kind = c.serve ? "serve" : c.scenario ? "run" : c.collective ? "collective" : "";
    if (!kind) return;
    const input = JSON.stringify(c.serve ? scenarioOf(c) : c.scenario || c.collective), key = kind + " " + input;
    if (first.has(key)) { names[name] = first.get(key); return; }
    if (process.env.TRNSIM_SANITIZED && seen.has(`${f} ${kind}`)) return;
    seen.add(`${f} ${kind}`);
    first.set(key, name);
    names[name] = name;
    jobs.push(`${kind} ${name}`);
    fs.writeFileSync(path.join(dir, name + ".in.json"), input);
  });
}
fs.writeFileSync(path.join(dir, "jobs.txt"), jobs.join("\n") + "\n");
fs.writeFileSync(path.join(dir, "names.json"), JSON.stringify(names));
EOF
while read -r kind name; do
  in="$tmp/$name.in.json" out="$tmp/$name.out.json"
  case $kind in
    serve) "$TRNSIM" serve --json "$in" >"$out" || fail "serve $name" ;;
    run) "$TRNSIM" run --json "$in" >"$out" || fail "run $name" ;;
    collective)
      args=$(node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        console.log(`--system ${c.system} --op ${c.op} --bytes ${c.bytes} --ranks ${c.ranks} --ranks-per-chip ${c.ranks_per_chip || 1}` +
          ` --algo ${c.algo || "auto"}` + (c.protocol ? ` --protocol ${c.protocol}` : ""))' "$in")
      # shellcheck disable=SC2086
      "$TRNSIM" collective $args --json >"$out" || fail "collective $name" ;;
  esac
done <"$tmp/jobs.txt"
for f in gpt-oss-120b-trn3-gen2 gpt-oss-120b-trn2-ultraserver; do
  "$TRNSIM" run --json "examples/$f.json" >"$tmp/$f.report.json" || fail "run $f"
done
for f in trn3-gen2 trn2-ultraserver; do
  "$TRNSIM" sweep "examples/sweeps/gpt-oss-claims-$f.json" >"$tmp/sweep-$f.jsonl" 2>/dev/null || fail "sweep $f"
done
for s in trn3-gen2-ultraserver trn2-ultraserver trn2-48xlarge:2; do
  "$TRNSIM" describe "$s" --json >"$tmp/describe-$s.json" || fail "describe $s"
done

node - "$tmp" "$TRNSIM_SOURCE_DIR/core/data/validation" <<'EOF' || fail "validate's numbers"
const fs = require("fs"), path = require("path");
const dir = process.argv[2];
const load = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
const { rows } = load("out.json");
// (No text under the sanitizers: see the top.)
const text = fs.existsSync(path.join(dir, "out.txt")) ? fs.readFileSync(path.join(dir, "out.txt"), "utf8").split("\n") : null;
let bad = 0;
const fail = (msg) => { console.error("  " + msg); bad++; };
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
// The JSON's error column, and the text table printing the JSON's numbers.
const show = (v, unit) => unit === "x" ? v.toFixed(2) + "x" : v >= 1000 ? v.toFixed(0) + " " + unit
  : v >= 100 ? v.toFixed(1) + " " + unit : v.toFixed(2) + " " + unit;
for (const r of text ? rows : []) {
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
  const exact = rows.some((y) => y.id === id && y.figure === figure);
  const r = rows.filter((x) => x.id === id && (!figure || (exact ? x.figure === figure : x.figure.includes(figure))));
  if (r.length !== 1) throw new Error(`${r.length} rows ${id} ${figure || ""}`);
  return r[0].model;
};
const expect = (what, got, want) => { if (!near(got, want)) fail(`${what}: validate says ${got}, derived ${want}`); };
// Rows computed from a scenario, a serving run or a collective: the CLI's figure in the row's unit.
const scale = { s: 1, ms: 1e3, us: 1e6, "tok/s": 1, "req/s": 1, x: 1, "GB/s": 1e-9 };
const data = process.argv[3], runs = load("names.json");
for (const f of fs.readdirSync(data).sort()) {
  JSON.parse(fs.readFileSync(path.join(data, f), "utf8")).rows.forEach((r, i) => {
    const times = r.compute.repeat ? r.compute.repeat.count : 1;
    const c = r.compute.repeat ? r.compute.repeat.of : r.compute;
    const name = `${path.basename(f, ".json")}-${i}`, unit = r.published.unit;
    if (!(c.serve || c.scenario || c.collective)) return;
    if (!(unit in scale)) { fail(`row ${r.id}: unit ${unit} unknown to this test`); return; }
    if (process.env.TRNSIM_SANITIZED && !(name in runs)) return;  // (see the top)
    const out = load(runs[name] + ".out.json");
    let v;
    if (c.serve && c.mlperf) {  // the MLPerf summary of `serve --json`
      const m = out.serve.mlperf, [fig, stat] = [c.mlperf.slice(0, 4), c.mlperf.slice(5, -2)];
      v = c.mlperf === "valid" ? (m.result === "VALID" ? 1 : 0)
        : c.mlperf.endsWith("per_s") ? m[c.mlperf] : m[fig + "_s"][stat];
    } else if (c.serve) v = out.serve.metrics[c.metric];
    else if (c.collective) v = c.metric === "time_s" ? out.results[0].time_s : out.results[0].busbw_bytes_per_s;
    else if (c.phase) {
      const p = out.primary.result.phases.find((x) => x.name === c.phase);
      v = { time: p.time_s, "compute+overhead": p.compute_s + p.overhead_s, fabric: p.fabric_s, hbm: p.hbm_s }[c.part];
    } else if (c.metric in ((out.primary.result.inference || {}).pools || {}))
      v = out.primary.result.inference.pools[c.metric];  // a disaggregated pool's throughput (the H5 rows)
    else v = out.primary.result.video[c.metric];
    if (typeof v !== "number") { fail(`row ${r.id} '${r.figure}': the CLI printed no ${c.metric || c.mlperf || c.part}`); return; }
    expect(`row ${r.id} '${r.figure}'`, row(r.id, r.figure), times * v * scale[unit]);
  });
}
const g3 = load("gpt-oss-120b-trn3-gen2.report.json").primary.result, g2 = load("gpt-oss-120b-trn2-ultraserver.report.json").primary.result;
expect("C1", row("C1"), g3.inference.output_tokens_per_s.per_chip / g2.inference.output_tokens_per_s.per_chip);
expect("C2", row("C2"), g2.inference.request_latency_s / g3.inference.request_latency_s);
expect("C3", row("C3"), g3.economics.tokens_per_s_per_megawatt / g2.economics.tokens_per_s_per_megawatt);
// The claim sweeps at the calibrated kernel overhead (the default the reports list): each
// system's best point per chip, with and without TPOT <= 10 ms.
const overhead = g3.assumptions.find((a) => a.name === "efficiency.kernel_overhead_s").value;
const best = (f, tpot) => fs.readFileSync(path.join(dir, f), "utf8").trim().split("\n").map(JSON.parse)
  .filter((p) => p.ok && p.point["workload.efficiency.kernel_overhead_s"] === overhead && p.primary.tpot_s <= tpot)
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
const fab = load("describe-trn2-48xlarge:2.json");
expect("row 14", row("14"), (fab.fabric.efa_latency_s + fab.per_chip.dma_transfer_fixed_s) * 1e6);
// Calibration rows are the ones the docs name (docs/neuron-execution.md section 6, docs/video.md,
// docs/hardware.md for the NVIDIA collective rows H6, H6r; docs/gpus.md for the H100 serving rows H3, H1 and H4).
const cal = [...new Set(rows.filter((r) => r.calibration).map((r) => r.id))].sort().join(",");
if (cal !== "1,12,15,2,20,21,3,5,6,7,8,H1,H3,H4,H6,H6r,V1,V2") fail(`calibration rows ${cal}`);
// Row 17's generation ratio is its two steps' quotient (each checked above against `trnsim run`).
expect("17 ratio", row("17", "Trn3 / Trn2"), row("17", "same on one Trainium2") / row("17", "one Trainium3"));
// Row 25's LLMPerf throughput: its own count of the output (the data's given operand) over the
// end to end latency the row above it checks against `trnsim serve`.
const r25 = JSON.parse(fs.readFileSync(path.join(data, "60-trainium3-moe-length.json"), "utf8")).rows
  .find((r) => r.id === "25" && r.compute.divide);
expect("25 tok/s", row("25", "output tok/s"), r25.compute.divide[0].given.value / row("25", "end to end p99"));
process.exit(bad ? 1 : 0);
EOF

# --pricer engine prices every row's scenario with the engine-level pricer, MLA included
# (DeepSeek-V3's head_dim 192 / 576): each serving row as `trnsim serve` of its scenario with
# workload.pricer engine; an unknown pricer is an error naming the option. (The text's header
# naming the pricer is a unit test, test_ui_validation: one engine run here, not two.)
# Under the sanitizers (the asan suite sets TRNSIM_SANITIZED) the engine's whole validation
# takes about two minutes, twenty times the native run's: there one serving row (row 6)
# through the engine stands for it, and the native run checks every row.
if [[ -n ${TRNSIM_SANITIZED:-} ]]; then
  node -e '
    const fs = require("fs");
    const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")).rows.find((x) => x.id === "6" && x.compute.serve);
    const s = r.compute.serve; s.workload.pricer = "engine";
    fs.writeFileSync(process.argv[2], JSON.stringify(s));' \
    "$TRNSIM_SOURCE_DIR/core/data/validation/50-serving.json" "$tmp/engine-row.json" || fail "row 6's scenario"
  "$TRNSIM" serve "$tmp/engine-row.json" --json >"$tmp/engine-row.out.json" || fail "serve row 6 with the engine pricer: exit $?"
  grep -q '"serve_ttft_mean_s"' "$tmp/engine-row.out.json" || fail "serve row 6 with the engine pricer"
else
"$TRNSIM" validate --pricer engine --json > "$tmp/engine.json" 2>/dev/null || fail "validate --pricer engine"
node - "$tmp" "$TRNSIM" "$TRNSIM_SOURCE_DIR/core/data/validation/50-serving.json" <<'EOF' || fail "validate --pricer engine rows"
const fs = require("fs"), { execFileSync } = require("child_process");
const [dir, trnsim, data] = process.argv.slice(2);
const out = JSON.parse(fs.readFileSync(`${dir}/engine.json`, "utf8"));
if (out.pricer !== "engine") { console.error("no pricer key"); process.exit(1); }
let checked = 0;
for (const r of JSON.parse(fs.readFileSync(data, "utf8")).rows) {
  if (!(r.compute.serve && (r.id === "7" || r.id === "6"))) continue;
  const s = JSON.parse(JSON.stringify(r.compute.serve));
  s.workload.pricer = "engine";
  fs.writeFileSync(`${dir}/engine-row.json`, JSON.stringify(s));
  const got = JSON.parse(execFileSync(trnsim, ["serve", `${dir}/engine-row.json`, "--json"]).toString()).serve.metrics[r.compute.metric];
  const row = out.rows.find((x) => x.id === r.id && x.figure === r.figure);
  const scale = { ms: 1e3, "tok/s": 1 }[r.published.unit];
  if (!row || typeof row.model !== "number" || Math.abs(row.model - got * scale) > 1e-9 * Math.abs(row.model)) {
    console.error(`row ${r.id} '${r.figure}': validate --pricer engine ${row && row.model}, serve ${got * scale}`);
    process.exit(1);
  }
  ++checked;
}
if (checked < 4) { console.error(`only ${checked} rows checked`); process.exit(1); }
EOF
fi
rc=0
"$TRNSIM" validate --pricer nope > /dev/null 2> "$tmp/err.txt" || rc=$?
[[ $rc == 2 ]] || fail "unknown pricer: exit $rc"
grep -qF -- "--pricer: unknown pricer 'nope'; one of: roofline, engine" "$tmp/err.txt" || fail "unknown pricer message"

rc=0
"$TRNSIM" validate extra > /dev/null 2> "$tmp/err.txt" || rc=$?
[[ $rc == 2 ]] || fail "extra argument: exit $rc"
grep -q "unexpected extra argument" "$tmp/err.txt" || fail "extra argument message"
echo "test_validate: ok"
