#!/usr/bin/env bash
# trnsim-bench runs an MX benchmark and reports its counter (a smoke test: no speed is
# asserted; the figures are read from full runs, see docs/mx.md).
set -euo pipefail
: "${TRNSIM_BENCH:?}"
out=$("$TRNSIM_BENCH" --benchmark_filter='^mx_dot/e2m1_x_e2m1/scalar$' --benchmark_min_time=0.01 2>&1) || {
  echo "$out"
  echo "test_mx_bench: trnsim-bench failed"
  exit 1
}
if ! grep -q '^mx_dot/e2m1_x_e2m1/scalar .*macs_per_s=' <<<"$out"; then
  echo "$out"
  echo "test_mx_bench: benchmark line or counter missing"
  exit 1
fi
list=$("$TRNSIM_BENCH" --benchmark_list_tests)
for name in mx_quantize/e4m3/scalar mx_dequantize/e2m1/scalar mx_dot/e4m3_x_e4m3/scalar; do
  grep -qx "$name" <<<"$list" || { echo "test_mx_bench: $name not registered"; exit 1; }
done
echo "test_mx_bench: ok"
