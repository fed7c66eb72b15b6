#!/usr/bin/env bash
# `trnsim plot`: well-formed SVG charts of a sweep with labelled axes and units from the
# metric table, one series per colour value with every plottable point, Pareto fronts that
# are exactly the non-dominated points (checked here independently from the JSON lines),
# log axes, stdin input, and bad input exiting 2 with the option named.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"
py=/usr/bin/python3

"$TRNSIM" sweep examples/sweeps/gpt-oss-batch-tp.json --no-progress > "$tmp/points.jsonl"
"$TRNSIM" plot "$tmp/points.jsonl" --x batch --y tpot_s --color system -o "$tmp/line.svg" || fail "line chart"
"$TRNSIM" plot "$tmp/points.jsonl" --pareto --color system -o "$tmp/pareto.svg" || fail "pareto chart"
"$TRNSIM" plot - --x workload.inference.batch --y primary.output_tokens_per_s_per_chip --kind scatter --log-x --log-y \
  < "$tmp/points.jsonl" > "$tmp/scatter.svg" || fail "scatter from stdin"
"$TRNSIM" plot "$tmp/points.jsonl" --x batch --y tpot_s --color system,tp -o "$tmp/combo.svg" || fail "two colour keys"

"$py" - "$tmp" <<'PY' || fail "chart contents"
import json, re, sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
NS = {"s": "http://www.w3.org/2000/svg"}
lines = [json.loads(l) for l in open(f"{tmp}/points.jsonl")]
ok = [l for l in lines if l["ok"]]

def load(name):
    return ET.parse(f"{tmp}/{name}").getroot()  # well-formed XML or an exception

def texts(root, cls):
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == cls]

def series(root):
    return {g.get("data-name"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "series"}

line = load("line.svg")
assert texts(line, "x-label") == ["Batch (sequences)"], texts(line, "x-label")  # the field table's label and unit
assert texts(line, "y-label") == ["Time per output token (ms)"], texts(line, "y-label")  # seconds shown as ms
systems = {l["point"]["system"] for l in ok}
s = series(line)
assert set(s) == systems, s.keys()
for name, g in s.items():
    circles = g.findall("s:circle", NS)
    assert len(circles) == sum(1 for l in ok if l["point"]["system"] == name), name
    pts = g.find("s:polyline", NS).get("points").split()
    xs = [float(p.split(",")[0]) for p in pts]
    assert xs == sorted(xs), "line points in x order"
    tip = circles[0].find("s:title", NS).text
    assert re.match(r".*point \d+: batch = \d+ sequences, tpot_s = [0-9.]+ ms$", tip), tip
note = texts(line, "note")[0]
assert note.startswith(f"{len(ok)} points; {len(lines) - len(ok)} could not run"), note

# Pareto fronts: exactly the points of each system that no other point of it beats
# (lower time per token, higher throughput per chip).
par = load("pareto.svg")
assert texts(par, "x-label") == ["Time per output token (ms)"] and texts(par, "y-label") == ["Output tokens/s per chip (tokens/s)"]
for name, g in series(par).items():
    mine = [l for l in ok if l["point"]["system"] == name]
    def beats(a, b):
        pa, pb = a["primary"], b["primary"]
        return (pa["tpot_s"] <= pb["tpot_s"] and pa["output_tokens_per_s_per_chip"] >= pb["output_tokens_per_s_per_chip"]
                and (pa["tpot_s"], pa["output_tokens_per_s_per_chip"]) != (pb["tpot_s"], pb["output_tokens_per_s_per_chip"]))
    want = sorted({l["index"] for l in mine if not any(beats(o, l) for o in mine)})
    front = [c.find("s:title", NS).text for c in g.findall("s:circle", NS) if "(front)" in c.find("s:title", NS).text]
    got = sorted(int(re.search(r"point (\d+):", t).group(1)) for t in front)
    assert got == want and len(want) >= 2, (name, got, want)
    assert len(g.find("s:polyline", NS).get("points").split()) == len(want)

sc = load("scatter.svg")
assert not [g for g in series(sc).values() if g.find("s:polyline", NS) is not None], "scatter has no lines"
assert len(sc.findall(".//s:circle", NS)) == len(ok)
assert len(series(load("combo.svg"))) == len({(l["point"]["system"], l["point"]["workload.parallelism.tp"]) for l in ok})
PY

expect_error() {  # expected message fragment, then arguments
  local want=$1 rc=0; shift
  "$TRNSIM" plot "$@" > /dev/null 2> "$tmp/err.txt" || rc=$?
  [[ $rc == 2 ]] || fail "plot $*: exit $rc, expected 2"
  grep -qF -- "$want" "$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "plot $*: expected '$want'"; }
}
expect_error "--x: no value 'bacth' in the sweep lines (there are: system, workload.parallelism.tp" "$tmp/points.jsonl" --x bacth --y tpot_s
expect_error "--y: missing (required without --pareto)" "$tmp/points.jsonl" --x batch
expect_error "--kind: unknown kind 'bars'" "$tmp/points.jsonl" --x batch --y tpot_s --kind bars
expect_error "--x: a Pareto front needs metrics with a better direction" "$tmp/points.jsonl" --pareto --x batch
echo '{"index":0,"ok":false,"error":"x"}' > "$tmp/none.jsonl"
expect_error "input: no point with \"ok\": true to plot (1 lines)" "$tmp/none.jsonl" --x batch --y tpot_s
printf '%s\nnot json\n' "$(head -1 "$tmp/points.jsonl")" > "$tmp/bad.jsonl"
expect_error "bad.jsonl:line 2" "$tmp/bad.jsonl" --x batch --y tpot_s
# A point whose fabric share is 0 (a one-chip placement on the plain stack has no collectives).
node -e 'const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
  l[0].primary.fabric_share = 0; console.log(l.map((p) => JSON.stringify(p)).join("\n"));' "$tmp/points.jsonl" > "$tmp/zero.jsonl"
expect_error "--log-y: value 0" "$tmp/zero.jsonl" --x batch --y fabric_share --log-y --color system
expect_error "SWEEP.jsonl: missing argument" --x batch --y tpot_s
echo "test_plot: ok"
