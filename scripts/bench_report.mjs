// The benchmark report: reads the Google Benchmark JSON that scripts/bench.sh wrote (native
// trnsim-bench and the WebAssembly build's portable harness, family by family) and writes
//   report.md      every family: what it is judged against, an SVG chart, a table of each
//                  benchmark natively and in WebAssembly with its ratio to the baseline
//                  measured in the same run, WebAssembly vs native, and the machine;
//   <family>.svg   the chart (log-scale bars of the ratio to the baseline, both builds);
//   results.json   the same numbers, from which the README's performance table is made.
// Usage: node scripts/bench_report.mjs DIR
//        node scripts/bench_report.mjs --render RESULTS.json DIR      (report.md + charts again)
//        node scripts/bench_report.mjs --readme-table RESULTS.json     (prints the README block)
//        node scripts/bench_report.mjs --update-readme RESULTS.json README.md
//        node scripts/bench_report.mjs --merge PARTIAL.json RESULTS.json  (a partial run's families
//              replace RESULTS.json's, each marked with the machine state it was measured in)
// Every figure is a median over repetitions of CPU time per iteration (Google Benchmark
// divides its rate counters by CPU time; the portable harness reads node's process CPU time),
// so other processes on a shared machine disturb it least. Nothing here asserts a speed.
import fs from "node:fs";
import path from "node:path";

// ---- reading ---------------------------------------------------------------------------

const unitSeconds = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 };

// name -> {cpu_s, real_s, counters, label, repetitions}: the median repetition by CPU time.
function readRuns(files) {
  const byName = new Map();
  for (const f of files) {
    const j = JSON.parse(fs.readFileSync(f, "utf8"));
    for (const b of j.benchmarks || []) {
      if (b.run_type && b.run_type !== "iteration") continue;
      const name = b.run_name || b.name;
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name).push(b);
    }
  }
  const out = new Map();
  for (const [name, reps] of byName) {
    reps.sort((a, b) => a.cpu_time - b.cpu_time);
    const m = reps[Math.floor((reps.length - 1) / 2)];
    const counters = {};
    for (const [k, v] of Object.entries(m)) {
      if (typeof v === "number" && !["iterations", "real_time", "cpu_time", "repetitions", "repetition_index",
        "family_index", "per_family_instance_index", "threads"].includes(k)) counters[k] = v;
    }
    const s = unitSeconds[m.time_unit] || 1e-9;
    out.set(name, { cpu_s: m.cpu_time * s, real_s: m.real_time * s, counters, label: m.label || "", repetitions: reps.length });
  }
  return out;
}

// ---- families ----------------------------------------------------------------------------

// A row: [benchmark, baseline benchmark, metric]. metric: a counter name (a rate, higher is
// faster), "per_s" (iterations per CPU second) or "per_wall_s" (iterations per wall-clock second:
// for benchmarks that run on several threads, whose CPU time is the calling thread's alone).
const metricOf = (run, metric) => (!run ? null : metric === "per_s" ? 1 / run.cpu_s :
  metric === "per_wall_s" ? 1 / run.real_s : run.counters[metric] ?? null);

const families = [
  {
    id: "mx-stream", title: "MX quantize and dequantize (every format and path)",
    baseline: "a 64 MiB memory copy (BM_MemcpyBaseline), bytes read + written per second",
    ratioLabel: "memcpy", metric: "bytes_per_s", unit: "B/s",
    rows: (names) => names.filter((n) => /^mx_(quantize|dequantize)\//.test(n)).map((n) => [n, "BM_MemcpyBaseline/67108864"]),
  },
  {
    id: "mx-dot", title: "MX dot products (DotGeneral, 1 Mi elements)",
    baseline: "the scalar reference path of the same formats", ratioLabel: "scalar", metric: "macs_per_s", unit: "MAC/s",
    rows: (names) => names.filter((n) => /^mx_dot\/.*\/(?!scalar$)[^/]+$/.test(n)).map((n) => [n, n.replace(/[^/]+$/, "scalar")]),
  },
  {
    id: "mx-gemv", title: "MX GEMV (MXFP4 8192 x 8192 weights, packed once)",
    baseline: "the memory copy: weight bytes streamed per second against bytes copied per second (GEMV is bound by the weights)",
    ratioLabel: "memcpy", metric: "weight_bytes_per_s", unit: "B/s",
    rows: (names) => names.filter((n) => /^mx_gemv\//.test(n)).map((n) => [n, "BM_MemcpyBaseline/67108864", "bytes_per_s"]),
  },
  {
    id: "mx-gemm", title: "MX GEMM (2048^3, end to end)",
    baseline: "dequantize both operands to FP32, then OpenBLAS sgemm on one thread (mx_dequant_sgemm; native only: no OpenBLAS in WebAssembly)",
    ratioLabel: "dequant+sgemm", metric: "flops", unit: "FLOP/s",
    rows: (names) => names.filter((n) => /^mx_gemm\//.test(n)).map((n) => [n, "mx_dequant_sgemm/" + n.split("/")[1]]),
  },
  {
    id: "collective", title: "Collective backends",
    baseline: "the analytic backend on the same request (event rows); the same all-reduce on one UltraServer (the 1M-chip rows)",
    ratioLabel: "baseline", metric: "per_s", unit: "/s",
    rows: () => [
      ["BM_EventAllToAll144Gen2", "BM_AnalyticAllToAll144Gen2"],
      ["BM_EventAllToAll64Trn2Torus", "BM_AnalyticAllToAll64Trn2Torus"],
      ["BM_AnalyticAllReduce1MChips", "BM_AnalyticAllReduceGen2Sweep"],
      ["BM_AnalyticAllReduce1MChipsTrn3", "BM_AnalyticAllReduceGen2Sweep"],
    ],
  },
  {
    id: "engine", title: "Engine-level kernel model (NeuronCore)",
    baseline: "the roofline pricing of the same kernel on one core (hw::roofline): the fast estimate the engine model refines",
    ratioLabel: "roofline", metric: "per_s", unit: "/s",
    rows: () => [["BM_EngineGemm4096Bf16", "BM_RooflineGemm4096Bf16"], ["BM_EngineAttention4096", "BM_RooflineAttention4096"]],
  },
  {
    id: "scenario", title: "Whole-scenario evaluation",
    baseline: "reading the same scenario alone (BM_ScenarioParse: JSON parse, validation, the bundled model's import)",
    ratioLabel: "parse", metric: "per_s", unit: "/s",
    rows: () => ["BM_WorkloadSweepPoint", "BM_WorkloadEvaluateInference", "BM_WorkloadEvaluateDeepSeekEP",
      "BM_WorkloadEvaluateTrainingCluster", "BM_WorkloadResultToJsonAndText", "BM_LoadSystemGen2"].map((n) => [n, "BM_ScenarioParse"]),
  },
  {
    id: "serving", title: "Serving simulator",
    baseline: "the event loop alone (BM_ServeEventLoopConstantStep: the same 100,000 requests with a step model that costs nothing to price)",
    ratioLabel: "event loop", metric: "requests_per_s", unit: "requests/s",
    rows: () => ["BM_ServeSimulatePlain/100000", "BM_ServeRun/100000", "BM_ServeSimulatePlain/10000", "BM_ServeRun/10000"]
      .map((n) => [n, "BM_ServeEventLoopConstantStep/100000"]),
  },
  {
    id: "serving-before", title: "Serving simulator against the build before (same run)",
    baseline: "the same benchmarks of an earlier build of trnsim-bench (TRNSIM_BENCH_BEFORE, e.g. main's), run in the same session: the Llama-3.1-8B Poisson run of 100,000 requests and one run of the Trn3 serving-at-load example",
    ratioLabel: "before", metric: "per_s", unit: "/s",
    rows: () => ["BM_ServeRun/100000", "BM_ServeAtLoadOnce/iterations:3"].map((n) => [n, "before/" + n]),
  },
  {
    id: "vidur", title: "trnsim serve beside Vidur (same run)",
    baseline: "Vidur (microsoft/vidur, a Python serving simulator; TRNSIM_BENCH_VIDUR) simulating the same number of Poisson requests, " +
      "each a whole command-line process (start-up, the simulation, the metrics written) timed by bash's time (CPU: user + system, children included), one after the other: " +
      "Llama-2-70B (trnsim: Llama-3.1-70B, the same layers with a larger vocabulary) at tp 4 x 2 replicas on an H100 DGX, " +
      "round robin, chunked prefill of 512 tokens a step, 128 sequences a batch, 1500 tokens in and 250 out; " +
      "each prices steps its own way (Vidur its profiled tables and random forests, trnsim its own pricer), so this compares " +
      "simulator speed, not predictions. Vidur's random forests are fitted before the timed runs (once, then cached) at one point of its " +
      "default grid with 2 folds; its runs look step times up in tables predicted from them either way. Repeat it: TRNSIM_BENCH_ONLY=vidur TRNSIM_BENCH_VIDUR=<a vidur checkout> bash scripts/bench.sh " +
      "(its other settings atop scripts/bench.sh)",
    ratioLabel: "Vidur", metric: "requests_per_s", unit: "requests/s",
    // the most requests first (the README's row); a small count shows the start-up each pays
    rows: (names) => names.filter((n) => /^BM_TrnsimServeCli\//.test(n))
      .sort((a, b) => Number(b.split("/")[1]) - Number(a.split("/")[1])).map((n) => [n, n.replace(/^BM_TrnsimServeCli/, "vidur")]),
  },
  {
    id: "page", title: "The playground page: ready in the browser",
    baseline: "a static page of the same site (about.html) to its first animation frame, in the same headless Chromium, empty cache (scripts/bench_page.mjs; wall time, median of the loads)",
    ratioLabel: "static page", metric: "per_s", unit: "/s",
    rows: () => [["BM_PageFirstFrame", "BM_PageStaticFirstFrame"]],
  },
  {
    id: "serve-search", title: "Serving: the rate search",
    baseline: "one run of the same example at its own rate (BM_ServeAtLoadOnce: examples/serve-at-load-trn3-gen2.json, 4,000 requests)",
    ratioLabel: "one run", metric: "per_s", unit: "/s",
    rows: () => [["BM_ServeFindRate/iterations:2", "BM_ServeAtLoadOnce/iterations:3"]],
  },
  {
    id: "capacity", title: "Capacity planner: the cheapest deployment meeting the targets",
    baseline: "one simulation of one configuration of the same example at the offered load (BM_CapacityOneConfiguration: examples/capacity-gpt-oss-120b.json as 10 tp2 replicas on a Trn3 Gen2 UltraServer); wall-clock time, since the plan runs on --jobs threads",
    ratioLabel: "one simulation", metric: "per_wall_s", unit: "/s",
    rows: () => ["BM_CapacityPlan/1/iterations:1", "BM_CapacityPlan/2/iterations:1"].map((n) => [n, "BM_CapacityOneConfiguration/iterations:3"]),
  },
];

// The WebAssembly counterpart of a native benchmark: the SIMD path is wasm_simd, compared
// with native AVX2 (the widest x86 path most machines have); everything else by name.
const wasmName = (n) => n.replace(/\/(avx2)$/, "/wasm_simd");

function buildResults(dir) {
  const list = (p) => fs.readdirSync(dir).filter((f) => f.startsWith(p) && f.endsWith(".json")).map((f) => path.join(dir, f));
  const native = readRuns(list("native-"));
  const wasm = readRuns(list("wasm-"));
  const machine = JSON.parse(fs.readFileSync(path.join(dir, "machine.json"), "utf8"));
  const names = [...native.keys()];
  const out = { machine, families: [] };
  for (const fam of families) {
    const rows = [];
    for (const [name, base, baseMetric] of fam.rows(names)) {
      const side = (runs, n, b) => {
        const v = metricOf(runs.get(n), fam.metric), bv = metricOf(runs.get(b), baseMetric || fam.metric);
        return v == null ? null : { value: v, baseline: bv, ratio: bv ? v / bv : null, label: runs.get(n).label,
          counters: runs.get(n).counters };
      };
      const nat = side(native, name, base);
      const wn = /\/avx512$/.test(name) ? null : wasmName(name);
      const was = wn ? side(wasm, wn, wasmName(base)) : null;
      if (!nat && !was) continue;
      rows.push({ name, baseline: base, native: nat, wasm: was, wasm_name: was ? wn : null,
        wasm_vs_native: nat && was ? was.value / nat.value : null });
    }
    out.families.push({ id: fam.id, title: fam.title, baseline: fam.baseline, ratio_label: fam.ratioLabel, unit: fam.unit, rows });
  }
  const kinds = gemmKinds(native);
  if (kinds) out.gemm_kinds = kinds;
  return out;
}

// The mx-gemm-kinds family (native only): every GEMM kind paired with dequantize + sgemm
// (mx_gemm_vs_dequant_sgemm, whose counters are already medians of paired iterations) and
// the instruction peaks measured in the same run (mx_peak).
function gemmKinds(native) {
  const kinds = [], peaks = [];
  for (const [name, r] of native) {
    const c = r.counters;
    if (/^mx_gemm_vs_dequant_sgemm\//.test(name))
      kinds.push({ kind: name.split("/")[1], kernel: r.label.split(" vs ")[0], baseline_core: r.label.split(" vs ")[1] || "",
        mx_flops: c.mx_flops, baseline_flops: c.baseline_flops, ratio: c.ratio, ratio_min: c.ratio_min, ratio_max: c.ratio_max,
        peak_fraction: c.peak_fraction ?? null, peak_macs_per_s: c.peak_macs_per_s ?? null });
    if (/^mx_peak\//.test(name))
      peaks.push({ instruction: name.split("/")[1], macs_per_s: c.macs_per_s, instructions_per_s: c.instructions_per_s });
  }
  return kinds.length ? { kinds, peaks } : null;
}
// The instruction of a kernel name ("avx512 VDPBF16PS (BF16 pairs)" -> "VDPBF16PS").
const kernelInstr = (k) => (k.match(/\b(VDPBF16PS|VPDPBUSD|VPDPWSSD|FMA)\b/) || [])[1] || "";
const slowestKind = (g) => g.kinds.reduce((a, b) => (b.ratio < a.ratio ? b : a));

// ---- formatting ----------------------------------------------------------------------------

function si(v, unit) {
  if (v == null || !isFinite(v)) return "—";
  const p = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]].find(([f]) => Math.abs(v) >= f) || [1, ""];
  const x = v / p[0];
  return `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ${p[1]}${unit}`;
}
function ratioText(r) {
  if (r == null || !isFinite(r)) return "—";
  if (r >= 0.1) return `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}x`;
  return `1/${(1 / r).toFixed(1 / r >= 100 ? 0 : 1)}`;
}
function timeText(sec) {
  const [f, u] = sec < 1e-3 ? [1e6, "us"] : sec < 1 ? [1e3, "ms"] : [1, "s"];
  const x = sec * f;
  return `${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)} ${u}`;
}
// "0.96x memcpy", "1/18.3 of parse": a speed relative to its baseline, with the baseline named.
const relative = (r, label) => {
  const t = ratioText(r);
  return t === "—" || !label ? t : t.startsWith("1/") ? `${t} of ${label}` : `${t} ${label}`;
};
const slowdown = (w) => (w == null ? "—" : w >= 1 ? `${w.toFixed(2)}x faster` : `${(1 / w).toFixed(2)}x slower`);

// ---- SVG -------------------------------------------------------------------------------------

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function chart(fam) {
  const rows = fam.rows.filter((r) => r.native?.ratio || r.wasm?.ratio);
  const W = 820, left = 300, right = 110, top = 48, rowH = 30;
  const H = top + Math.max(1, rows.length) * rowH + 40;
  const ratios = rows.flatMap((r) => [r.native?.ratio, r.wasm?.ratio]).filter((x) => x > 0);
  let lo = Math.floor(Math.log10(Math.min(1, ...ratios))), hi = Math.ceil(Math.log10(Math.max(1, ...ratios)));
  if (hi === lo) hi = lo + 1;
  const x = (r) => left + ((Math.log10(r) - lo) / (hi - lo)) * (W - left - right);
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">${esc(fam.title)}</text>`,
    `<text x="10" y="38" fill="#555">ratio to the baseline (log scale; 1 = ${esc(fam.baseline.split(" (")[0].split(":")[0])})</text>`];
  for (let e = lo; e <= hi; e++) {
    const xe = x(10 ** e);
    parts.push(`<line x1="${xe}" y1="${top - 4}" x2="${xe}" y2="${H - 30}" stroke="${e === 0 ? "#333" : "#ddd"}"/>`,
      `<text x="${xe}" y="${H - 16}" text-anchor="middle" fill="#555">${ratioText(10 ** e)}</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 17}" text-anchor="end">${esc(r.name)}</text>`);
    [[r.native, "#3366cc", 3], [r.wasm, "#e68a00", 15]].forEach(([s, color, dy]) => {
      if (!s?.ratio) return;
      const a = x(1), b = x(s.ratio);
      parts.push(`<rect x="${Math.min(a, b)}" y="${y + dy}" width="${Math.max(1, Math.abs(b - a))}" height="11" fill="${color}"/>`,
        `<text x="${Math.max(a, b) + 4}" y="${y + dy + 10}" font-size="10" fill="#333">${ratioText(s.ratio)}</text>`);
    });
  });
  parts.push(`<rect x="${W - right + 10}" y="8" width="10" height="10" fill="#3366cc"/><text x="${W - right + 24}" y="17">native</text>`,
    `<rect x="${W - right + 10}" y="24" width="10" height="10" fill="#e68a00"/><text x="${W - right + 24}" y="33">WebAssembly</text>`,
    "</svg>\n");
  return parts.join("\n");
}

// ---- report ----------------------------------------------------------------------------------

function reportMd(res) {
  const m = res.machine;
  const L = [];
  L.push("# trnsim benchmark report", "",
    "Generated by `bash scripts/bench.sh` (scripts/bench_report.mjs). Every figure is the median over repetitions of",
    "CPU time per iteration, single-threaded; each family ran natively and then in WebAssembly under node, one family",
    "after the other, with its baseline in the same run. Ratios to a baseline are speeds (higher is faster; 1/N means",
    "N times slower than the baseline). Speeds are measured, never asserted by a test.", "",
    "| machine | |", "| --- | --- |",
    `| CPU | ${m.cpu} (${m.cores} cores) |`, `| features used by the MX paths | ${m.flags} |`,
    `| native compiler | ${m.compiler}, -O3 (Release) |`, `| WebAssembly | ${m.wasm_compiler}, SIMD128, node ${m.node} |`,
    `| run | ${m.date}; load average ${m.load_before} before, ${m.load_after || "?"} after (a shared machine) |`, "");
  for (const fam of res.families) {
    L.push(`## ${fam.title}`, "", `Baseline: ${fam.baseline}.`, "");
    if (fam.note) L.push(`Measured apart from the rest of this report: ${fam.note}.`, "");
    if (!fam.rows.length) { L.push("No benchmarks in this run.", ""); continue; }
    L.push(`![${fam.title}](${fam.id}.svg)`, "",
      "| benchmark | native | speed vs baseline | WebAssembly | speed vs baseline | WebAssembly vs native |",
      "| --- | --- | --- | --- | --- | --- |");
    for (const r of fam.rows) {
      const label = r.native?.label ? ` (${r.native.label})` : "";
      L.push(`| ${r.name}${label} | ${si(r.native?.value, fam.unit)} | ${relative(r.native?.ratio, fam.ratio_label)} | ` +
        `${r.wasm ? `${si(r.wasm.value, fam.unit)}${r.wasm_name !== r.name ? ` (${r.wasm_name.split("/").pop()})` : ""}` : "—"} | ` +
        `${relative(r.wasm?.ratio, fam.ratio_label)} | ${slowdown(r.wasm_vs_native)} |`);
    }
    L.push("");
  }
  const g = res.gemm_kinds;
  if (g) {
    const slow = slowestKind(g);
    L.push("## MX GEMM: every kind against dequantize + sgemm and its instruction's peak", "",
      "2048^3 on the automatic path, B packed inside (end to end), each of 9 iterations timing the MX GEMM and the",
      "baseline (dequantize both operands, then OpenBLAS sgemm on one thread) one after the other in this thread's CPU",
      "time (mx_gemm_vs_dequant_sgemm); medians. The instruction peak is a tight loop of 16 independent accumulator",
      "chains of the kernel's instruction (mx_peak), measured after every pair; the fraction is the MX GEMM's",
      "multiply-adds per second over it, so 1 - fraction is the distance to that instruction's limit on this core.", "",
      `Slowest kind: ${slow.kind} at ${ratioText(slow.ratio)} the baseline.`, "",
      "| instruction | peak, multiply-adds/s | instructions/s |", "| --- | --- | --- |");
    for (const p of g.peaks) L.push(`| ${p.instruction} | ${si(p.macs_per_s, "MAC/s")} | ${si(p.instructions_per_s, "/s")} |`);
    L.push("", "| A x B | kernel | MX | baseline | MX / baseline, median (min - max) | fraction of the instruction's peak |",
      "| --- | --- | --- | --- | --- | --- |");
    for (const k of g.kinds)
      L.push(`| ${k.kind.replace("_x_", " x ")} | ${k.kernel} | ${si(k.mx_flops, "FLOP/s")} | ${si(k.baseline_flops, "FLOP/s")} | ` +
        `${ratioText(k.ratio)} (${ratioText(k.ratio_min)} - ${ratioText(k.ratio_max)}) | ` +
        `${k.peak_fraction == null ? "—" : `${k.peak_fraction.toFixed(2)} of ${kernelInstr(k.kernel)} (${si(k.peak_macs_per_s, "MAC/s")})`} |`);
    L.push("");
  }
  return L.join("\n");
}

// The README's performance table: headline rows, each read from results.json.
const headlines = [
  ["mx-stream", /^mx_quantize\/e4m3\/avx512$/, "quantize FP32 -> MXFP8 E4M3, 64 MiB (AVX-512)", ">= 0.7x memcpy"],
  ["mx-stream", /^mx_quantize\/e2m1\/avx512$/, "quantize FP32 -> MXFP4 E2M1 (AVX-512)", ">= 0.7x memcpy"],
  ["mx-stream", /^mx_dequantize\/e4m3\/avx2$/, "dequantize MXFP8 E4M3 (AVX2; WebAssembly SIMD128)", ""],
  ["mx-dot", /^mx_dot\/e2m1_x_e2m1\/avx512$/, "dot MXFP4 x MXFP4, 1 Mi elements (AVX-512)", ""],
  ["mx-gemv", /^mx_gemv\/e2m1_x_int8\/avx512$/, "GEMV MXFP4 8192^2 x MXINT8 vector (AVX-512)", ""],
  ["mx-gemm", /^mx_gemm\/e2m1_x_e2m1\/avx512$/, "GEMM 2048^3 MXFP4 x MXFP4 (AVX-512)", "faster than dequantize + sgemm"],
  ["mx-gemm", /^mx_gemm\/e4m3_x_e4m3\/avx512$/, "GEMM 2048^3 MXFP8 x MXFP8 (AVX-512)", "within 2x of it"],
  ["mx-gemm", /^mx_gemm\/e2m1_x_e2m1\/avx2$/, "GEMM 2048^3 MXFP4 x MXFP4 (AVX2; WebAssembly SIMD128)", "WebAssembly within 2.5x"],
  ["collective", /^BM_EventAllToAll144Gen2$/, "event backend: 144-rank all-to-all on Trn3 Gen2 (vs analytic)", "< 100 ms"],
  ["collective", /^BM_AnalyticAllReduce1MChips$/, "analytic backend: all-reduce over 1,000,000 chips (vs 144)", "< 10 ms"],
  ["engine", /^BM_EngineGemm4096Bf16$/, "engine model: 4096^3 BF16 GEMM on a NeuronCore (vs roofline)", ""],
  ["serving", /^BM_ServeRun\/100000$/, "trnsim serve of 100,000 requests: priced steps and the report (vs the event loop alone)", "< 1 s"],
  ["serving", /^BM_ServeRun\/10000$/, "the same with 10,000 requests (what the page runs; WebAssembly column)", "< 100 ms in the page"],
  ["serving-before", /^BM_ServeRun\/100000$/, "trnsim serve of 100,000 requests (vs the build before, same run)", ">= 2x"],
  ["serving-before", /^BM_ServeAtLoadOnce\//, "trnsim serve of the Trn3 serving-at-load example, 4,000 requests (vs the build before, same run)", ">= 2x"],
  ["vidur", /^BM_TrnsimServeCli\//, (r, fam) => `trnsim serve of ${count(Number(r.name.split("/")[1]))} Poisson requests, the whole command, ` +
    `vs Vidur simulating the same requests in the same run at ${si(r.native?.baseline, "requests/s")} (${r.native?.label || "?"}; ` +
    "Llama-70B layers, tp 4 x 2 on an H100 DGX; each prices steps its own way: simulator speed, not predictions" + startup(fam) + ")", ""],
  ["page", /^BM_PageFirstFrame$/, "the playground page: first frame with the default report, headless Chromium, empty cache (WebAssembly column; vs a static page)", "< 1 s"],
  ["serve-search", /^BM_ServeFindRate\//, "rate search: highest rate meeting the targets, Trn3 serving-at-load example (vs one run of it)", "< 10 s"],
  ["capacity", /^BM_CapacityPlan\/2\//, (r) => `capacity plan of the gpt-oss-120b example: ${count(r.native?.counters?.configurations)} configurations ` +
    `(${count(r.native?.counters?.simulations)} simulated), 2 threads; WebAssembly: the page's one thread (vs one simulation; ` +
    "Vidur-Search: about an hour on a CPU machine for LLaMA2-70B, against ~42K GPU hours deployed [Agrawal et al., MLSys 2024, abstract])",
    "< 60 s on 2 cores; < 5 min in the page"],
  ["scenario", /^BM_WorkloadSweepPoint$/, "one sweep point: parse, both systems, evaluate, JSON (vs parse)", "10,000 points < 1 min on 2 cores"],
];

const count = (x) => (x == null ? "?" : Math.round(x).toLocaleString("en-US"));
// The vidur family's smallest run (a few requests): the CPU time each command pays to start.
function startup(fam) {
  const r = fam.rows[fam.rows.length - 1], n = Number(r?.name.split("/")[1]);
  if (fam.rows.length < 2 || !r.native?.value || !r.native?.baseline) return "";
  return `; the same with ${n} requests, mostly start-up: Vidur ${timeText(n / r.native.baseline)}, trnsim ${timeText(n / r.native.value)} of CPU`;
}

function readmeTable(res) {
  const L = ["<!-- bench: begin -->",
    `Measured by \`bash scripts/bench.sh\` on ${res.machine.cpu} (${res.machine.cores} cores; ${res.machine.flags}), ` +
    `${res.machine.date.slice(0, 10)}, a shared machine (load ${res.machine.load_before}); medians of CPU time, single-threaded. ` +
    "The whole report, with a chart per family: [docs/bench/report.md](docs/bench/report.md).", "",
    "| what | native | ratio to its baseline | WebAssembly | WebAssembly vs native | target |",
    "| --- | --- | --- | --- | --- | --- |"];
  for (let [fid, re, what, target] of headlines) {
    const fam = res.families.find((f) => f.id === fid);
    const r = fam?.rows.find((x) => re.test(x.name));
    if (!r) continue;
    const val = (s) => (!s ? "—" : fam.unit === "/s" ? timeText(1 / s.value) : si(s.value, fam.unit));
    if (typeof what === "function") what = what(r, fam);
    L.push(`| ${what}${fam.note ? ` (measured apart: ${fam.note})` : ""} | ${val(r.native)} | ${relative(r.native?.ratio, fam.ratio_label)} | ${val(r.wasm)} | ${slowdown(r.wasm_vs_native)} | ${target || "—"} |`);
  }
  const g = res.gemm_kinds;
  if (g) {
    const slow = slowestKind(g), fr = g.kinds.map((k) => k.peak_fraction).filter((x) => x != null);
    L.push(`| GEMM 2048^3, all ${g.kinds.length} MX kinds (automatic path): the slowest, ${slow.kind.replace("_x_", " x ")}, ` +
      `paired with dequant+sgemm; every kind at ${fr.length ? `${Math.min(...fr).toFixed(2)}-${Math.max(...fr).toFixed(2)}` : "?"} ` +
      `of its instruction's peak${g.note ? ` (measured apart: ${g.note})` : ""} | ${si(slow.mx_flops, "FLOP/s")} | ${relative(slow.ratio, "dequant+sgemm")} | — | — | >= 1.3x, every kind |`);
  }
  L.push("<!-- bench: end -->");
  return L.join("\n");
}

// ---- main ------------------------------------------------------------------------------------

const args = process.argv.slice(2);
if (args[0] === "--readme-table") {
  process.stdout.write(readmeTable(JSON.parse(fs.readFileSync(args[1], "utf8"))) + "\n");
} else if (args[0] === "--update-readme") {
  const res = JSON.parse(fs.readFileSync(args[1], "utf8"));
  const md = fs.readFileSync(args[2], "utf8");
  const re = /<!-- bench: begin -->[\s\S]*?<!-- bench: end -->/;
  if (!re.test(md)) throw new Error(`${args[2]} has no <!-- bench: begin --> ... <!-- bench: end --> block`);
  fs.writeFileSync(args[2], md.replace(re, readmeTable(res)));
} else if (args[0] === "--merge") {
  const part = JSON.parse(fs.readFileSync(args[1], "utf8")), all = JSON.parse(fs.readFileSync(args[2], "utf8"));
  const m = part.machine;
  for (const fam of part.families) {
    if (!fam.rows.length) continue;
    fam.note = `${m.date.slice(0, 16).replace("T", " ")} UTC, load ${m.load_before} before, ${m.load_after || "?"} after`;
    const i = all.families.findIndex((f) => f.id === fam.id);
    if (i >= 0) all.families[i] = fam;
    else all.families.push(fam);
  }
  // The all-kinds GEMM table (the mx-gemm-kinds family) travels with it.
  if (part.gemm_kinds) all.gemm_kinds = { ...part.gemm_kinds,
    note: `${m.date.slice(0, 16).replace("T", " ")} UTC, load ${m.load_before} before, ${m.load_after || "?"} after` };
  fs.writeFileSync(args[2], JSON.stringify(all, null, 1) + "\n");
} else if (args[0] === "--render") {
  render(JSON.parse(fs.readFileSync(args[1], "utf8")), args[2]);
} else {
  const dir = args[0] || "build/bench";
  const res = buildResults(dir);
  fs.writeFileSync(path.join(dir, "results.json"), JSON.stringify(res, null, 1) + "\n");
  render(res, dir);
}

// report.md and the charts from results (so a committed report can be checked against its
// committed results.json).
function render(res, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const fam of res.families) if (fam.rows.length) fs.writeFileSync(path.join(dir, `${fam.id}.svg`), chart(fam));
  fs.writeFileSync(path.join(dir, "report.md"), reportMd(res));
}
