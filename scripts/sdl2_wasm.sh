#!/usr/bin/env bash
# SDL2 for WebAssembly, built once from the Debian source package that scripts/setup.sh
# fetched (third_party/sdl2-src) and installed to third_party/sdl2-wasm/ (emscripten's own
# SDL port would download). Does nothing when it is there. Its log: third_party/sdl2-wasm.log.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix="$top/third_party/sdl2-wasm"
[[ -f $prefix/lib/libSDL2.a ]] && exit 0
sdl_dir="$top/third_party/sdl2-src"
[[ -d $sdl_dir ]] || { echo "sdl2_wasm: no $sdl_dir (run scripts/setup.sh)" >&2; exit 1; }
printf 'setup: %s\n' "building SDL2 for WebAssembly (once, about 3 minutes)" >&2
export NODE_PATH=/usr/share/nodejs  # emscripten's optimizer needs acorn (TOOLCHAIN.md pitfall 1)
log="$top/third_party/sdl2-wasm.log"
rm -rf "$top/third_party/sdl2-wasm-build"
emcmake cmake -S "$sdl_dir" -B "$top/third_party/sdl2-wasm-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DCMAKE_INSTALL_PREFIX="$prefix" \
  >"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
cmake --build "$top/third_party/sdl2-wasm-build" >>"$log" 2>&1 &&
  cmake --install "$top/third_party/sdl2-wasm-build" >>"$log" 2>&1 ||
  { tail -30 "$log" >&2; exit 1; }
