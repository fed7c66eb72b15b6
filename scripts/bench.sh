#!/usr/bin/env bash
# Every speed figure from one run: builds trnsim-bench natively and for WebAssembly (the same
# native/bench/*.cpp sources; under node with a portable timing harness), runs both family by
# family, alternating native and WebAssembly so both see the same machine load, and writes
# build/bench/report.md with an SVG chart per family (ratios to the baseline measured in the
# same run, WebAssembly vs native, the machine it ran on) plus results.json.
#   bash scripts/bench.sh             full run (a few minutes), then the report
#   bash scripts/bench.sh --publish   also copies the report to docs/bench/ and refreshes the
#                                     README's performance table from it
# Environment: TRNSIM_BENCH_MIN_TIME (seconds per repetition, default 0.5),
# TRNSIM_BENCH_REPETITIONS (default 3; the median is reported), TRNSIM_BENCH_OUT (folder),
# TRNSIM_BENCH / TRNSIM_BENCH_WASM (binaries to use instead of building), TRNSIM_BENCH_SMOKE=1
# (a seconds-long run of one benchmark per family: checks the harness, measures nothing),
# TRNSIM_BENCH_BEFORE (an earlier trnsim-bench, e.g. main's: its serving benchmarks run in the
# same session, interleaved with this build's, as the "serving-before" family),
# TRNSIM_BENCH_PAGE_LOADS (page loads in headless Chromium, default 5; 0: no page family; the
# site must be built: cmake --build --preset wasm), TRNSIM_BENCH_ONLY (a regex of family names:
# run only those), TRNSIM_BENCH_WASM=none (no WebAssembly runs: their columns stay empty).
# A partial run is merged into a published report with
#   node scripts/bench_report.mjs --merge build/bench/results.json docs/bench/results.json
# (its families replace theirs, marked as measured apart, with this run's machine and load).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
publish=0
[[ ${1:-} == --publish ]] && publish=1
out=${TRNSIM_BENCH_OUT:-build/bench}
min_time=${TRNSIM_BENCH_MIN_TIME:-0.5}
reps=${TRNSIM_BENCH_REPETITIONS:-3}
smoke=${TRNSIM_BENCH_SMOKE:-0}
mkdir -p "$out"
rm -f "$out"/native-*.json "$out"/wasm-*.json "$out"/*.log "$out"/*.svg

native=${TRNSIM_BENCH:-}
wasm=${TRNSIM_BENCH_WASM:-}
if [[ -z $native || -z $wasm ]]; then
  echo "bench: building trnsim-bench (native and WebAssembly)" >&2
  cmake --preset native >/dev/null && cmake --build --preset native --target trnsim-bench >/dev/null
  emcmake cmake --preset wasm >/dev/null && cmake --build --preset wasm --target trnsim-bench >/dev/null
  native=build/native/trnsim-bench wasm=build/wasm/native/trnsim-bench.js
fi

# Families: a name and the benchmarks (a regex) run together with their baselines.
families=(
  "mx-stream|^(BM_MemcpyBaseline|mx_quantize|mx_dequantize)/"
  "mx-dot|^mx_dot/"
  "mx-gemv|^(BM_MemcpyBaseline/|mx_gemv/)"
  # GEMM: each element format against itself and the two mixed MXFP8 x MXFP4 kinds, on every
  # path (all 36 kinds: --benchmark_filter=mx_gemm/ by hand; about half an hour)
  "mx-gemm|^(mx_gemm|mx_dequant_sgemm)/(e4m3_x_e4m3|e5m2_x_e5m2|e3m2_x_e3m2|e2m3_x_e2m3|e2m1_x_e2m1|int8_x_int8|e4m3_x_e2m1|e2m1_x_e4m3|nvfp4_x_nvfp4)(/|$)"
  # every one of the 36 kinds on the automatic path, paired with dequantize + sgemm in each
  # iteration, with the instruction peaks (native only; one repetition: each benchmark is
  # already the median of 9 pairs; about two minutes)
  "mx-gemm-kinds|^(mx_peak/|mx_gemm_vs_dequant_sgemm/)|1"
  "collective|^BM_(Event|Analytic)"
  "engine|^BM_(Engine|Roofline)"
  "scenario|^BM_(ScenarioParse|Workload|LoadSystem)"
  "serving|^BM_Serve(EventLoopConstantStep|SimulatePlain|Run)/"
  "serve-search|^BM_Serve(AtLoadOnce|FindRate)/"
  # the capacity planner's whole search, once each (about a minute natively, minutes in WebAssembly)
  "capacity|^BM_Capacity|1"
)
if ((smoke)); then
  min_time=0.01 reps=1
  families=(
    "mx-stream|^(BM_MemcpyBaseline/|mx_quantize/e2m1/scalar$)"
    "mx-dot|^mx_dot/e2m1_x_e2m1/"
    "collective|^BM_(Event|Analytic)AllToAll64Trn2Torus$"
    "engine|^BM_(EngineAttention|RooflineAttention)4096$"
    "scenario|^BM_(ScenarioParse|WorkloadSweepPoint)$"
    "serving|^BM_Serve(EventLoopConstantStep/100000|Run/10000)$"
    "serve-search|^BM_ServeAtLoadOnce/"
  )
fi

# The machine: CPU, the features the MX paths use, cores, compilers, load.
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'sse4_2|avx|avx2|fma|avx512f|avx512bw|avx512vl|avx512_vnni|avx512_bf16|avx_vnni' | tr '\n' ' ' || true)
node -e '
  const [out, cpu, flags, cores, gxx, emxx, nodev, load] = process.argv.slice(1);
  require("fs").writeFileSync(out, JSON.stringify({cpu, flags: flags.trim(), cores: Number(cores), compiler: gxx,
    wasm_compiler: emxx, node: nodev, load_before: load, date: new Date().toISOString()}, null, 1));
' "$out/machine.json" "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1)" "$flags" "$(nproc)" \
  "$(g++ --version | head -n1)" "emscripten $(em++ --version 2>/dev/null | head -n1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' || echo '(not found)')" "$(node --version)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"

only=${TRNSIM_BENCH_ONLY:-}
for fam in "${families[@]}"; do
  name=${fam%%|*} filter=${fam#*|} fam_reps=$reps
  if [[ $filter == *'|'[0-9] ]]; then fam_reps=${filter##*|} filter=${filter%|*}; fi  # "name|filter|repetitions"
  [[ -n $only && ! $name =~ ^($only)$ ]] && continue
  echo "bench: $name (native)" >&2
  "$native" --benchmark_filter="$filter" --benchmark_min_time="$min_time" --benchmark_repetitions="$fam_reps" \
    --benchmark_out="$out/native-$name.json" --benchmark_out_format=json >"$out/native-$name.log" 2>&1 ||
    { cat "$out/native-$name.log" >&2; exit 1; }
  [[ $wasm == none ]] && continue
  echo "bench: $name (WebAssembly)" >&2
  node "$wasm" --benchmark_filter="$filter" --benchmark_min_time="$min_time" --benchmark_repetitions="$fam_reps" \
    --benchmark_out="$out/wasm-$name.json" >"$out/wasm-$name.log" 2>&1 || { cat "$out/wasm-$name.log" >&2; exit 1; }
done
# The serving benchmarks of the build before, and this build's again right after each, so
# both see the same machine state (names prefixed "before/").
before=${TRNSIM_BENCH_BEFORE:-}
if [[ -n $before ]] && ((!smoke)) && [[ -z $only || serving-before =~ ^($only)$ ]]; then
  echo "bench: serving-before (native, $before)" >&2
  filter='^BM_Serve(Run/100000|AtLoadOnce)'
  for i in 1 2 3; do
    "$before" --benchmark_filter="$filter" --benchmark_min_time="$min_time" --benchmark_out="$out/before-$i.json" \
      --benchmark_out_format=json >"$out/native-before.log" 2>&1 || { cat "$out/native-before.log" >&2; exit 1; }
    "$native" --benchmark_filter="$filter" --benchmark_min_time="$min_time" --benchmark_out="$out/native-after-$i.json" \
      --benchmark_out_format=json >>"$out/native-before.log" 2>&1 || { cat "$out/native-before.log" >&2; exit 1; }
  done
  node -e 'const fs = require("fs"), [out, ...files] = process.argv.slice(1), b = [];
    for (const f of files) for (const x of JSON.parse(fs.readFileSync(f)).benchmarks)
      b.push({ ...x, name: "before/" + x.name, run_name: "before/" + (x.run_name || x.name) });
    fs.writeFileSync(out, JSON.stringify({ benchmarks: b }));' "$out/native-before.json" "$out"/before-*.json
  rm -f "$out"/before-*.json
fi
page_loads=${TRNSIM_BENCH_PAGE_LOADS:-5}
if ((page_loads > 0)) && ((!smoke)) && [[ -f build/site/trnsim.wasm ]] && [[ -z $only || page =~ ^($only)$ ]]; then
  echo "bench: page (headless Chromium, $page_loads loads)" >&2
  node scripts/bench_page.mjs "$out/wasm-page.json" "$page_loads" 2>"$out/wasm-page.log" || { cat "$out/wasm-page.log" >&2; exit 1; }
fi
node -e 'const f = process.argv[1], m = JSON.parse(require("fs").readFileSync(f)); m.load_after = process.argv[2];
  require("fs").writeFileSync(f, JSON.stringify(m, null, 1));' "$out/machine.json" "$(cut -d' ' -f1-3 /proc/loadavg)"

node scripts/bench_report.mjs "$out"
echo "bench: wrote $out/report.md" >&2
if ((publish)); then
  mkdir -p docs/bench
  cp "$out"/report.md "$out"/results.json "$out"/*.svg docs/bench/
  node scripts/bench_report.mjs --update-readme docs/bench/results.json README.md
  echo "bench: published to docs/bench/ and README.md's performance table" >&2
fi
