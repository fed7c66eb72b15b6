#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then builds both targets:
#   native -> build/native/ (trnsim CLI, trnsim-bench, tests)
#   wasm   -> build/wasm/ (core tests and CLI under node) and build/site/ (the playground)
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bash scripts/setup.sh
mkdir -p build
echo "build: native" >&2
cmake --preset native >build/configure-native.log 2>&1 || { cat build/configure-native.log >&2; exit 1; }
cmake --build --preset native
echo "build: wasm" >&2
emcmake cmake --preset wasm >build/configure-wasm.log 2>&1 || { cat build/configure-wasm.log >&2; exit 1; }
cmake --build --preset wasm
