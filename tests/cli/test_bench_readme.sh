#!/usr/bin/env bash
# The README's performance table is generated from the committed benchmark report
# (docs/bench/results.json, written by `bash scripts/bench.sh --publish`), and the committed
# report.md and charts are exactly what that results.json renders to: none can go stale
# or be typed in by hand.
set -euo pipefail
: "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
block=$(awk '/<!-- bench: begin -->/{f=1} f; /<!-- bench: end -->/{f=0}' README.md)
want=$(node scripts/bench_report.mjs --readme-table docs/bench/results.json)
if [[ $block != "$want" ]]; then
  diff <(printf '%s\n' "$block") <(printf '%s\n' "$want") | head -20
  echo "README.md's performance table differs from docs/bench/results.json: run bash scripts/bench.sh --publish"
  exit 1
fi
node scripts/bench_report.mjs --render docs/bench/results.json "$tmp"
for f in "$tmp"/*; do
  cmp -s "$f" "docs/bench/$(basename "$f")" || { echo "docs/bench/$(basename "$f") is not what results.json renders to"; exit 1; }
done
echo "test_bench_readme: ok"
