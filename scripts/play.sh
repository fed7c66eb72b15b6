#!/usr/bin/env bash
# Quick start, command 1: set up, build both targets, print the default scenario's
# report, then serve the playground on 127.0.0.1 until interrupted.
# TRNSIM_PORT picks the port (default 8080).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bash scripts/build.sh
echo
build/native/trnsim run examples/default.json
echo
exec node scripts/serve.mjs build/site --port "${TRNSIM_PORT:-8080}"
