#!/usr/bin/env bash
# trnsim-bench runs an MX benchmark and reports its counter, and its output names the
# machine: CPU, features, MX paths and kernels, and the OpenBLAS core of the baseline,
# chosen from the CPU's features when OpenBLAS detects a weaker one (a smoke test: no
# speed is asserted; the figures are read from full runs, see docs/mx.md). The
# environment's OPENBLAS_* variables are left as they are: the benchmark itself ignores
# them for its baseline library.
set -euo pipefail
: "${TRNSIM_BENCH:?}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$TRNSIM_BENCH" --benchmark_filter='^mx_dot/e2m1_x_e2m1/scalar$' --benchmark_min_time=0.01 2>&1) || {
  echo "$out"
  echo "test_mx_bench: trnsim-bench failed"
  exit 1
}
grep -q '^mx_dot/e2m1_x_e2m1/scalar .*macs_per_s=' <<<"$out" || fail "benchmark line or counter missing"
nv=$("$TRNSIM_BENCH" --benchmark_filter='^mx_dot/nvfp4_x_nvfp4/scalar$' --benchmark_min_time=0.01 2>&1) || fail "nvfp4 dot benchmark failed"
grep -q '^mx_dot/nvfp4_x_nvfp4/scalar .*macs_per_s=' <<<"$nv" || fail "nvfp4 benchmark line or counter missing"
for key in cpu cpu_features mx_paths mx_gemm_kernels openblas; do
  grep -q "^$key: ." <<<"$out" || fail "context line '$key:' missing"
done
grep -q '^mx_paths: scalar' <<<"$out" || fail "mx_paths does not start with scalar"

list=$("$TRNSIM_BENCH" --benchmark_list_tests)
for name in mx_quantize/e4m3/scalar mx_dequantize/e2m1/scalar mx_dot/e4m3_x_e4m3/scalar \
    mx_quantize/nvfp4/scalar mx_dequantize/nvfp4/scalar mx_dot/nvfp4_x_nvfp4/scalar; do
  grep -qx "$name" <<<"$list" || fail "$name not registered"
done

if grep -q '^openblas: not loaded' <<<"$out"; then
  echo "test_mx_bench: OpenBLAS not available, baseline checks skipped"
else
  # every one of the 36 GEMM kinds has its paired comparison
  n=$(grep -c '^mx_gemm_vs_dequant_sgemm/' <<<"$list" || true)
  [[ $n == 36 ]] || fail "expected 36 mx_gemm_vs_dequant_sgemm benchmarks, got $n"
  run_sgemm() { "$TRNSIM_BENCH" --benchmark_filter='^openblas_sgemm/2048$' --benchmark_min_time=0.01 2>&1; }
  # a forced core is the one that runs
  forced=$(TRNSIM_BENCH_OPENBLAS_CORETYPE=Sandybridge run_sgemm)
  grep -q '^openblas_sgemm/2048 .* Sandybridge$' <<<"$forced" || fail "forced core not used: $forced"
  # when OpenBLAS detects an older core than the CPU supports, the CPU's best core runs
  cpu_best=$(grep -o 'avx512bf16\|avx512f\|avx2' <<<"$(grep '^cpu_features:' <<<"$out")" | head -1 || true)
  if [[ -n $cpu_best ]]; then
    weak=$(TRNSIM_BENCH_OPENBLAS_DETECTED=Prescott run_sgemm)
    grep -q '^openblas: .*detects Prescott on this CPU; .* chosen from the CPU.s features' <<<"$weak" ||
      fail "no core chosen from the CPU's features: $(grep '^openblas:' <<<"$weak")"
    grep -q '^openblas_sgemm/2048 .* Prescott$' <<<"$weak" && fail "Prescott kernels ran although the CPU has $cpu_best"
  fi
fi
if [[ $failures != 0 ]]; then
  echo "$out"
  echo "test_mx_bench: $failures failure(s)"
  exit 1
fi
echo "test_mx_bench: ok"
