#!/usr/bin/env bash
# scripts/bench.sh end to end in its smoke mode (one or two benchmarks per family, 10 ms
# each, natively and the WebAssembly build under node): the harness runs and the report is
# complete -- every family measured has its chart, its rows, a ratio to its baseline on both
# sides, and the machine is described. Measures nothing: no speed is asserted.
set -euo pipefail
: "${TRNSIM_BENCH:?}" "${TRNSIM_BENCH_WASM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
TRNSIM_BENCH_SMOKE=1 TRNSIM_BENCH_OUT="$tmp" bash scripts/bench.sh 2>"$tmp/log" || { cat "$tmp/log"; fail "bench.sh failed"; }
for f in report.md results.json machine.json; do [[ -s $tmp/$f ]] || fail "no $f"; done
node -e '
  const fs = require("fs"), dir = process.argv[1];
  const res = JSON.parse(fs.readFileSync(dir + "/results.json", "utf8"));
  const report = fs.readFileSync(dir + "/report.md", "utf8");
  for (const k of ["cpu", "flags", "cores", "compiler", "wasm_compiler", "node", "load_before", "load_after"])
    if (!res.machine[k]) throw new Error("machine." + k + " missing");
  const measured = ["mx-stream", "mx-dot", "collective", "engine", "scenario"];
  for (const id of measured) {
    const fam = res.families.find((f) => f.id === id);
    if (!fam || !fam.rows.length) throw new Error("family " + id + " has no rows");
    const r = fam.rows[0];
    for (const side of ["native", "wasm"])
      if (!(r[side] && r[side].ratio > 0 && isFinite(r[side].ratio))) throw new Error(id + ": no " + side + " ratio to the baseline");
    if (!(r.wasm_vs_native > 0)) throw new Error(id + ": no WebAssembly vs native ratio");
    const svg = fs.readFileSync(dir + "/" + id + ".svg", "utf8");
    if (!/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/.test(svg) || !svg.trim().endsWith("</svg>")) throw new Error(id + ".svg is not an SVG");
    if (!report.includes("## " + fam.title) || !report.includes("](" + id + ".svg)")) throw new Error("report.md lacks " + id);
  }
  for (const fam of res.families) if (!report.includes("## " + fam.title)) throw new Error("report.md lacks the family " + fam.title);
' "$tmp" || fail "incomplete report"
echo "bench_smoke: ok"
