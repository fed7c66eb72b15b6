#!/usr/bin/env bash
# Quick start, command 2: set up, build both targets and run every test (unit tests
# natively and under node, CLI tests, native-vs-WebAssembly report parity, browser
# tests in headless Chromium), then the native suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer with each fuzz target fuzzed for a bounded time (the asan
# preset, build/asan; TRNSIM_FUZZ_SECONDS per target, default 10). Exits non-zero on any
# failure.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bash scripts/build.sh || { echo "test: build failed" >&2; exit 1; }
echo "build: asan (sanitizers and fuzz targets)" >&2
# TRNSIM_FUZZ_SECONDS from the environment, else tests/fuzz/CMakeLists.txt's default (-U drops
# a value an earlier run left in the cache).
fuzz_seconds=(-UTRNSIM_FUZZ_SECONDS)
[[ -n ${TRNSIM_FUZZ_SECONDS:-} ]] && fuzz_seconds=(-DTRNSIM_FUZZ_SECONDS="$TRNSIM_FUZZ_SECONDS")
cmake --preset asan "${fuzz_seconds[@]}" >build/configure-asan.log 2>&1 ||
  { cat build/configure-asan.log >&2; echo "test: asan configure failed" >&2; exit 1; }
cmake --build --preset asan || { echo "test: asan build failed" >&2; exit 1; }
passed=0 failed=0 rc=0
for preset in native wasm asan; do
  echo "== ctest --preset $preset"
  log=$(mktemp)
  ctest --preset "$preset" -j2 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  ((status == 0)) || rc=1
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n1)
  if [[ $line =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
    ((failed += BASH_REMATCH[1], passed += BASH_REMATCH[2] - BASH_REMATCH[1]))
  else
    echo "test: ctest --preset $preset ran no tests" >&2
    rc=1
  fi
  rm -f "$log"
done
echo "tests: $passed passed, $failed failed"
exit $rc
