#!/usr/bin/env bash
# Side-by-side benchmark of trnsim's MX kernels and ggml's MXFP4 CPU kernels, single
# thread, one interleaved run (docs/mx.md shows a table it printed).
#
#   scripts/bench_vs_ggml.sh /path/to/ggml-checkout [--samples N] [--seconds S]
#   (or GGML_SRC=/path/to/ggml-checkout scripts/bench_vs_ggml.sh)
#
# The ggml checkout lives outside this tree (for example a clone in /tmp/ggml-src):
# nothing of ggml is committed here. The script builds ggml's CPU backend with the
# system's cmake and g++ (GGML_NATIVE, static, no OpenMP) in a scratch folder
# (BENCH_VS_GGML_BUILD, default ${TMPDIR:-/tmp}/trnsim-bench-vs-ggml), builds trnsim's
# core (build/native), compiles scripts/bench_vs_ggml.cpp (ggml's public headers only)
# against both and runs it. Without a checkout it says so and exits 0 (skipped). It is
# not part of scripts/test.sh: it needs the checkout and takes a few minutes.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=${GGML_SRC:-}
if [[ $# -gt 0 && $1 != --* ]]; then
  src=$1
  shift
fi
if [[ -z $src ]]; then
  echo "bench_vs_ggml: skipped: no ggml checkout given."
  echo "  usage: scripts/bench_vs_ggml.sh /path/to/ggml [--samples N] [--seconds S]"
  echo "  (a clone of the ggml repository outside this tree, e.g. in /tmp/ggml-src)"
  exit 0
fi
if [[ ! -f $src/include/ggml.h || ! -f $src/CMakeLists.txt ]]; then
  echo "bench_vs_ggml: error: $src is not a ggml checkout (no include/ggml.h or CMakeLists.txt)" >&2
  exit 2
fi
src=$(cd "$src" && pwd)
case "$src/" in
  "$repo"/*)
    echo "bench_vs_ggml: error: the ggml checkout must be outside this tree ($repo)" >&2
    exit 2
    ;;
esac
build=${BENCH_VS_GGML_BUILD:-${TMPDIR:-/tmp}/trnsim-bench-vs-ggml}
mkdir -p "$build"
echo "bench_vs_ggml: ggml $(git -C "$src" describe --always --dirty 2>/dev/null || echo '(not a git checkout)') from $src"

echo "bench_vs_ggml: building ggml's CPU backend in $build/ggml"
cmake -S "$src" -B "$build/ggml" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DBUILD_SHARED_LIBS=OFF \
  -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF -DGGML_OPENMP=OFF >"$build/ggml-configure.log" 2>&1 || {
  tail -20 "$build/ggml-configure.log"
  exit 1
}
cmake --build "$build/ggml" --target ggml ggml-cpu ggml-base >"$build/ggml-build.log" 2>&1 || {
  tail -20 "$build/ggml-build.log"
  exit 1
}

echo "bench_vs_ggml: building trnsim's core in $repo/build/native"
cmake --preset native -S "$repo" >/dev/null
cmake --build "$repo/build/native" --target trnsim_core >/dev/null

libs=()
for name in ggml ggml-cpu ggml-base; do
  lib=$(find "$build/ggml" -name "lib$name.a" | head -1)
  [[ -n $lib ]] || { echo "bench_vs_ggml: error: lib$name.a not built" >&2; exit 1; }
  libs+=("$lib")
done
echo "bench_vs_ggml: compiling the harness"
g++ -O2 -std=c++17 -I"$src/include" -I"$repo/core" "$repo/scripts/bench_vs_ggml.cpp" \
  "$repo/build/native/core/libtrnsim_core.a" "${libs[@]}" -lpthread -ldl -lm -o "$build/bench_vs_ggml"

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
echo "bench_vs_ggml: CPU: ${cpu:-unknown}, $(nproc) cores; single thread"
"$build/bench_vs_ggml" "$@"
