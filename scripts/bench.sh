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
# run only those), TRNSIM_BENCH_WASM=none (no WebAssembly runs: their columns stay empty),
# TRNSIM_BENCH_VIDUR (a microsoft/vidur checkout: the "vidur" family runs `trnsim serve` and
# Vidur on the same requests, one after the other; nothing of Vidur is in this project) with
# TRNSIM_BENCH_VIDUR_PYTHON (its interpreter, default python3), TRNSIM_BENCH_VIDUR_SHIMS (a folder
# put first on its PYTHONPATH: stand-ins for modules its logging and plotting import),
# TRNSIM_BENCH_VIDUR_REQUESTS (request counts, default "5000 20": the small run shows the
# start-up each pays), TRNSIM_BENCH_VIDUR_QPS (default 8),
# TRNSIM_BENCH_VIDUR_REPETITIONS (default 3), TRNSIM_BENCH_VIDUR_CACHE (its predictor cache,
# default $TRNSIM_BENCH_OUT/vidur-cache), TRNSIM_BENCH_VIDUR_ARGS (more vidur.main arguments),
# TRNSIM_BENCH_VIDUR_NOTE (said in the row, e.g. what differs in the checkout's data),
# TRNSIM_BENCH_CLI (the trnsim binary, default build/native/trnsim).
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
# em++'s version: read whole (under pipefail `em++ | head` can fail with em++'s SIGPIPE, which
# appended the fallback to a found version).
emv=$( (em++ --version 2>/dev/null || true) | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | sed -n 1p || true)
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'sse4_2|avx|avx2|fma|avx512f|avx512bw|avx512vl|avx512_vnni|avx512_bf16|avx_vnni' | tr '\n' ' ' || true)
node -e '
  const [out, cpu, flags, cores, gxx, emxx, nodev, load] = process.argv.slice(1);
  require("fs").writeFileSync(out, JSON.stringify({cpu, flags: flags.trim(), cores: Number(cores), compiler: gxx,
    wasm_compiler: emxx, node: nodev, load_before: load, date: new Date().toISOString()}, null, 1));
' "$out/machine.json" "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n1)" "$flags" "$(nproc)" \
  "$(g++ --version | head -n1)" "emscripten ${emv:-(not found)}" "$(node --version)" \
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
# trnsim serve beside Vidur (microsoft/vidur, a Python LLM-serving simulator), only when the
# user points at a Vidur checkout (TRNSIM_BENCH_VIDUR): the same number of Poisson requests
# through both simulators' command lines, one after the other, several times, each a whole
# process (start-up, the simulation, the metrics written) timed in CPU (user + system, its
# children included) and wall time by bash's time. The two price steps their own way (Vidur
# with its profiled device tables and random forests, trnsim with its own pricer): this
# compares simulator speed, not predictions.
vidur=${TRNSIM_BENCH_VIDUR:-}
if [[ -n $vidur ]] && ((!smoke)) && [[ -z $only || vidur =~ ^($only)$ ]]; then
  vns=${TRNSIM_BENCH_VIDUR_REQUESTS:-5000 20} vrate=${TRNSIM_BENCH_VIDUR_QPS:-8} vreps=${TRNSIM_BENCH_VIDUR_REPETITIONS:-3}
  vpy=${TRNSIM_BENCH_VIDUR_PYTHON:-python3} vshims=${TRNSIM_BENCH_VIDUR_SHIMS:-}
  cli=${TRNSIM_BENCH_CLI:-build/native/trnsim}
  [[ -x $cli ]] || { echo "bench: vidur: no trnsim CLI at $cli (build it, or set TRNSIM_BENCH_CLI)" >&2; exit 1; }
  [[ -f $vidur/vidur/main.py ]] || { echo "bench: vidur: TRNSIM_BENCH_VIDUR=$vidur has no vidur/main.py (a microsoft/vidur checkout)" >&2; exit 1; }
  for vn in $vns; do
    [[ $vn =~ ^[1-9][0-9]*$ ]] || { echo "bench: vidur: TRNSIM_BENCH_VIDUR_REQUESTS=\"$vns\": $vn is not a positive integer" >&2; exit 1; }
  done
  [[ -n ${vns// /} ]] || { echo "bench: vidur: TRNSIM_BENCH_VIDUR_REQUESTS is empty" >&2; exit 1; }
  [[ $vrate =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "bench: vidur: TRNSIM_BENCH_VIDUR_QPS=$vrate is not a rate" >&2; exit 1; }
  [[ $vreps =~ ^[1-9][0-9]*$ ]] || { echo "bench: vidur: TRNSIM_BENCH_VIDUR_REPETITIONS=$vreps is not a positive integer" >&2; exit 1; }
  vdir=$(cd "$vidur" && pwd) vwork="$(cd "$out" && pwd)/vidur"
  vcache=${TRNSIM_BENCH_VIDUR_CACHE:-$(cd "$out" && pwd)/vidur-cache}
  vcommit=$(git -C "$vdir" log -1 --format='commit %h of %cs' 2>/dev/null || echo '(not a git checkout)')
  vshimlist=$( [[ -n $vshims ]] && ls "$vshims" | grep -vE '\.(txt|md)$|^make_|^__' | sed 's/\.py$//' | sort | paste -sd' ' - || true)
  mkdir -p "$vwork"
  echo "bench: vidur ($vdir at $vcommit, $vns requests at $vrate/s, $vreps repetitions)" >&2
  # Llama-2-70B (Vidur's profiled shapes; trnsim's Llama-3.1-70B has the same layers, a larger
  # vocabulary) at tp 4 on an H100 DGX, 2 replicas, round robin; Sarathi / vLLM V1 chunked
  # prefill with 512 tokens a step and 128 sequences a batch; every request 1500 in, 250 out.
  for vn in $vns; do node -e 'const [f, n, rate] = process.argv.slice(1); require("fs").writeFileSync(f, JSON.stringify({version: 1,
    name: "beside Vidur: Llama-3.1-70B (Llama-2-70B layers) tp 4 x 2 on a DGX H100, chunked prefill 512 tokens a step",
    system: "dgx-h100", compare_system: "", workload: {kind: "inference", model: "Llama-3.1-70B", parallelism: {tp: 4, dp: 2},
      inference: {batch: 128, input_tokens: 1500, output_tokens: 250}, stack: "vllm"},
    serve: {arrivals: "poisson", rate: Number(rate), requests: Number(n), max_num_seqs: 128, max_batched_tokens: 512,
      router: "round_robin"}}, null, 1));' "$vwork/trnsim-$vn.json" "$vn" "$vrate"; done
  vargs=(--replica_config_device h100 --replica_config_network_device h100_dgx
    --replica_config_model_name meta-llama/Llama-2-70b-hf --replica_config_tensor_parallel_size 4
    --cluster_config_num_replicas 2 --global_scheduler_config_type round_robin
    --request_generator_config_type synthetic --length_generator_config_type fixed
    --fixed_request_length_generator_config_prefill_tokens 1500 --fixed_request_length_generator_config_decode_tokens 250
    --interval_generator_config_type poisson --poisson_request_interval_generator_config_qps "$vrate"
    --replica_scheduler_config_type sarathi --sarathi_scheduler_config_chunk_size 512 --sarathi_scheduler_config_batch_size_cap 128
    --no-metrics_config_store_plots --no-metrics_config_enable_chrome_trace
    --metrics_config_output_dir "$vwork/out" --metrics_config_cache_dir "$vcache"
    # its predictors fitted at one point of its default grid (250 trees, depth 16, split 2) with
    # 2-fold instead of 27 points x 10 folds: minutes instead of hours on 2 cores, once (cached).
    # The simulation looks its step times up in tables predicted over the whole grid either way.
    --random_forrest_execution_time_predictor_config_num_estimators 250
    --random_forrest_execution_time_predictor_config_max_depth 16
    --random_forrest_execution_time_predictor_config_min_samples_split 2
    --random_forrest_execution_time_predictor_config_k_fold_cv_splits 2)
  read -r -a vextra <<<"${TRNSIM_BENCH_VIDUR_ARGS:-}"
  vargs+=("${vextra[@]}")
  run_vidur() { (cd "$vdir" && PYTHONPATH="$vshims${vshims:+:}${PYTHONPATH:-}" "$@"); }
  # timed TIMEFILE STDOUT CMD...: "wall user system" seconds (ms resolution); stderr to the log.
  timed() { local tf=$1 so=$2 TIMEFORMAT='%3R %3U %3S'; shift 2; { time "$@" >"$so" 2>>"$out/native-vidur.log"; } 2>"$tf"; }
  # One small untimed run first: Vidur trains its predictors once and caches them (minutes).
  run_vidur "$vpy" -m vidur.main "${vargs[@]}" --synthetic_request_generator_config_num_requests 20 \
    >"$out/native-vidur.log" 2>&1 || { cat "$out/native-vidur.log" >&2; exit 1; }
  rm -rf "$vwork/out"
  for i in $(seq "$vreps"); do
    for vn in $vns; do
      timed "$vwork/trnsim-$vn-$i.time" "$vwork/trnsim-$vn-$i.txt" "$cli" serve "$vwork/trnsim-$vn.json" --no-progress ||
        { cat "$out/native-vidur.log" >&2; exit 1; }
      timed "$vwork/vidur-$vn-$i.time" "$vwork/vidur-$vn-$i.txt" run_vidur "$vpy" -m vidur.main "${vargs[@]}" \
        --synthetic_request_generator_config_num_requests "$vn" || { cat "$out/native-vidur.log" >&2; exit 1; }
    done
  done
  for vn in $vns; do
    grep -q "^  requests      $vn requests" "$vwork/trnsim-$vn-1.txt" ||
      { echo "bench: vidur: trnsim serve did not simulate $vn requests (see $vwork/trnsim-$vn-1.txt)" >&2; exit 1; }
    vdone=0
    for f in "$vwork"/out/*/request_metrics.csv; do [[ -f $f && $(($(wc -l <"$f") - 1)) == "$vn" ]] && vdone=$((vdone + 1)); done
    ((vdone == vreps)) ||
      { echo "bench: vidur: $vdone of Vidur's $vreps runs wrote $vn requests' metrics (see $out/native-vidur.log)" >&2; exit 1; }
  done
  # Google Benchmark's JSON, one entry a repetition (the report takes the median by CPU time).
  node -e 'const fs = require("fs"), [f, dir, ns, reps, rate, commit, shims, note] = process.argv.slice(1), b = [];
    const label = `Poisson ${rate}/s, 1500 in, 250 out; vs Vidur ${commit}${shims ? `, shims: ${shims}` : ""}${note ? `, ${note}` : ""}`;
    for (const n of ns.trim().split(/\s+/)) for (let i = 1; i <= Number(reps); i++)
      for (const [who, name] of [["trnsim", "BM_TrnsimServeCli/"], ["vidur", "vidur/"]]) {
        const [wall, user, sys] = fs.readFileSync(`${dir}/${who}-${n}-${i}.time`, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
        const cpu = user + sys;
        b.push({ name: name + n, run_name: name + n, run_type: "iteration", repetition_index: i - 1, iterations: 1,
          real_time: wall, cpu_time: cpu, time_unit: "s", requests_per_s: Number(n) / cpu,
          requests_per_wall_s: Number(n) / wall, label: who === "trnsim" ? label : `Vidur ${commit}` });
      }
    fs.writeFileSync(f, JSON.stringify({ benchmarks: b }, null, 1));' \
    "$out/native-vidur.json" "$vwork" "$vns" "$vreps" "$vrate" "$vcommit" "$vshimlist" "${TRNSIM_BENCH_VIDUR_NOTE:-}"
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
