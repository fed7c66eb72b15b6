#!/usr/bin/env bash
# Sets up everything trnsim needs on Debian 12 (root; only Debian's archive and npm
# reachable), and does nothing when it is already there:
#   1. Debian packages (compilers, emscripten, libraries, chromium for browser tests,
#      clang-14 with its sanitizer and libFuzzer runtimes for the asan build);
#   2. a deb-src entry (same mirror as the existing entries) for `apt-get source`;
#   3. Dear ImGui and SDL2 sources from Debian source packages into third_party/src/;
#   4. playwright-core from the committed package.json / package-lock.json.
# Nothing fetched here is committed (third_party/ and node_modules/ are ignored).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
say() { printf 'setup: %s\n' "$*" >&2; }
export DEBIAN_FRONTEND=noninteractive

packages=(cmake ninja-build g++ pkg-config dpkg-dev emscripten
          nlohmann-json3-dev catch2 libbenchmark-dev libopenblas-dev
          libimgui-dev libsdl2-dev libgl-dev chromium xvfb xauth
          # the Python module (for Debian's /usr/bin/python3), its tests and plots; pip install offline
          python3-dev python3-pybind11 pybind11-dev python3-numpy python3-pytest python3-matplotlib
          python3-setuptools python3-wheel python3-venv
          # the Slurm job-array test (tests/cli/test_slurm.sh starts its own private cluster)
          slurm-wlm munge
          # the asan build and libFuzzer (tests/fuzz)
          clang-14 libclang-rt-14-dev llvm-14)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
command -v node >/dev/null || missing+=(nodejs npm)
apt_updated=0
apt_update() { if ((!apt_updated)); then say "apt-get update"; apt-get update -qq; apt_updated=1; fi; }
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  apt_update
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# deb-src entry, derived from the machine's own Debian entry (no host named here).
have_src() {
  grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}
if ! have_src; then
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [[ -n $uri ]] || uri=$(awk '$1=="deb" && $2 !~ /^\[/ {print $2; exit} $1=="deb" && $2 ~ /^\[/ {print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [[ -n $uri ]] || { say "error: no Debian apt entry found to derive a deb-src entry from"; exit 1; }
  say "adding a deb-src entry for $uri"
  cat > /etc/apt/sources.list.d/trnsim-deb-src.sources <<SRC
Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt_updated=0
  apt_update
fi

# Third-party sources for the WebAssembly build, from Debian source packages.
src="$top/third_party/src"
mkdir -p "$src"
fetch_source() {  # $1 source package, $2 glob of the extracted folder
  local dir
  dir=$(compgen -G "$src/$2" | head -n1 || true)
  if [[ -z $dir ]]; then
    say "apt-get source $1"
    (cd "$src" && apt-get source -qq "$1" >/dev/null 2>"$src/$1.log") || {
      apt_updated=0; apt_update
      (cd "$src" && apt-get source -qq "$1" >/dev/null 2>"$src/$1.log") || { cat "$src/$1.log" >&2; exit 1; }
    }
    dir=$(compgen -G "$src/$2" | head -n1)
  fi
  printf '%s\n' "$dir"
}
imgui_dir=$(fetch_source imgui 'imgui-[0-9]*')
sdl_dir=$(fetch_source libsdl2 'libsdl2-[0-9]*')
ln -sfn "$imgui_dir" "$top/third_party/imgui"
ln -sfn "$sdl_dir" "$top/third_party/sdl2-src"

# playwright-core (drives Debian's chromium; never downloads a browser).
if [[ ! -f node_modules/playwright-core/package.json ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "npm ci (playwright-core)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
