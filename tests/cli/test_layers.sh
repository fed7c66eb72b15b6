#!/usr/bin/env bash
# The layer order of docs/architecture.md holds for every #include of the core and the faces
# (scripts/check_layers.py), and the check bites: an include of a higher layer planted in a
# copy of a low-layer file is reported.
set -euo pipefail
: "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
python3 scripts/check_layers.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/core/hw" "$tmp/core/report" "$tmp/docs"
cp docs/architecture.md "$tmp/docs/"
sed -i '/^```layers-known/,/^```/{/^core/d}' "$tmp/docs/architecture.md"
printf '#include "report/report.h"\n' >"$tmp/core/hw/bad.cpp"
touch "$tmp/core/report/report.h"
if python3 scripts/check_layers.py --root "$tmp" >"$tmp/out" 2>&1; then
  echo "FAIL: an include of core/report from core/hw passed the layer check"; exit 1
fi
grep -q "core/hw/bad.cpp:1: hw includes report/report.h: report is above hw" "$tmp/out" ||
  { echo "FAIL: unexpected message: $(cat "$tmp/out")"; exit 1; }
echo "layers: the order holds and a planted upward include is caught"
