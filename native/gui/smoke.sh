#!/usr/bin/env bash
# native.gui.smoke: runs trnsim-gui headless for 60 frames, every panel in turn, on the
# default scenario and on a bundled training example; passes when it exits 0, says the
# fabric shaders compiled (desktop GL 3.3 variant) and the last frame is not blank.
# Uses xvfb-run (Debian's xvfb + xauth); without it, SDL's offscreen driver (EGL).
# Env: TRNSIM_GUI (the binary), TRNSIM_ARTIFACTS (screenshots go there).
set -euo pipefail
gui=${TRNSIM_GUI:?TRNSIM_GUI must name the trnsim-gui binary}
out=${TRNSIM_ARTIFACTS:-$(mktemp -d)}
mkdir -p "$out"
run() {
  if command -v xvfb-run >/dev/null; then
    xvfb-run -a -s "-screen 0 1400x900x24" "$gui" "$@"
  else
    SDL_VIDEODRIVER=offscreen "$gui" "$@"
  fi
}
check() {  # $1 name, then trnsim-gui arguments
  local name=$1
  shift
  local log
  if ! log=$(run --frames 60 --cycle-panels --size 1400x900 --expect-ink 0.05 --screenshot "$out/gui-$name.png" "$@" 2>&1); then
    printf '%s\n' "$log" >&2
    echo "not ok - trnsim-gui $name: exit code" >&2
    exit 1
  fi
  printf '%s\n' "$log"
  grep -q "fabric shaders compiled" <<<"$log" || { echo "not ok - trnsim-gui $name: fabric shaders did not compile" >&2; exit 1; }
  [[ -s $out/gui-$name.png ]] || { echo "not ok - trnsim-gui $name: no screenshot" >&2; exit 1; }
  echo "ok - trnsim-gui $name"
}
check default
check training "#example=llama-3.1-70b-training-ultracluster"
# A bad link: exit 0 with the default scenario, and the message on stderr.
log=$(run --frames 3 "#s=1.not-a-scenario" 2>&1) || { printf '%s\n' "$log" >&2; echo "not ok - bad link: exit code" >&2; exit 1; }
grep -q "could not be opened" <<<"$log" || { printf '%s\n' "$log" >&2; echo "not ok - bad link: no message" >&2; exit 1; }
echo "ok - trnsim-gui with a bad link shows the message and runs"
