#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then builds both targets:
#   native -> build/native/ (trnsim CLI, trnsim-bench, tests)
#   wasm   -> build/wasm/ (core tests and CLI under node) and build/site/ (the playground)
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bash scripts/setup.sh --no-sdl2-wasm
mkdir -p build
# SDL2 for WebAssembly (a fresh clone's first build only) beside the native build: its
# configure runs its checks one at a time, so the two share the machine's cores.
bash scripts/sdl2_wasm.sh &
sdl=$!
trap 'kill "$sdl" 2>/dev/null || true' EXIT
echo "build: native" >&2
cmake --preset native >build/configure-native.log 2>&1 || { cat build/configure-native.log >&2; exit 1; }
cmake --build --preset native
wait "$sdl" || { echo "build: SDL2 for WebAssembly failed (third_party/sdl2-wasm.log)" >&2; exit 1; }
trap - EXIT
echo "build: wasm" >&2
emcmake cmake --preset wasm >build/configure-wasm.log 2>&1 || { cat build/configure-wasm.log >&2; exit 1; }
cmake --build --preset wasm
