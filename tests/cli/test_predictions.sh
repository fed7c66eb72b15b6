#!/usr/bin/env bash
# Pre-registered predictions: `trnsim validate --record` fills a draft with the model's figures,
# `--predictions` lists every recorded file's rows (each id of predictions/*.json, read here
# from the files) with the figure as recorded and as the model says now; a freshly recorded
# draft reads back unchanged (now = recorded); bad dates, commits, formats and missing fields
# are exit-2 errors naming the field.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Every recorded row is listed, with its file's date and commit.
"$TRNSIM" validate --predictions --json >"$tmp/all.json" 2>/dev/null || fail "validate --predictions"
python3 - "$tmp/all.json" predictions <<'PY' || fail "the listing does not match predictions/*.json"
import glob, json, os, sys
listed = json.load(open(sys.argv[1]))["predictions"]
want = []
for f in sorted(glob.glob(os.path.join(sys.argv[2], "*.json"))):
    d = json.load(open(f))
    want += [(d["date"], d["commit"], r["id"], r["predicted"]) for r in d["predictions"]]
got = [(p["date"], p["commit"], p["id"], p["recorded"]) for p in listed]
assert got == want, (got[:3], want[:3])
for p in listed:
    assert p["now"] > 0 and abs(p["change"] - (p["now"] - p["recorded"]) / p["recorded"]) < 1e-12, p
PY

# A small draft recorded now reads back with no change.
cat >"$tmp/draft.json" <<'JSON'
{"format": "trnsim-prediction-1", "title": "test",
 "predictions": [
  {"id": "T1", "figure": "default TPOT", "unit": "ms", "compute": {"scenario": "examples/default.json", "metric": "tpot_s"}},
  {"id": "T2", "figure": "all-reduce", "unit": "us",
   "compute": {"collective": {"system": "trn3-gen2-ultraserver", "op": "all-reduce", "bytes": 1048576, "ranks": 16, "ranks_per_chip": 1}, "metric": "time_s"}}]}
JSON
"$TRNSIM" validate --record "$tmp/draft.json" --date 2026-12-03 --commit 0123abcd >"$tmp/rec.json" || fail "--record"
"$TRNSIM" run examples/default.json --json >"$tmp/run.json"
python3 - "$tmp/rec.json" "$tmp/run.json" <<'PY' || fail "the recorded TPOT is not the run's"
import json, sys
rec, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
t1 = rec["predictions"][0]
assert rec["date"] == "2026-12-03" and rec["commit"] == "0123abcd"
tpot = run["primary"]["result"]["inference"]["tpot_s"] if "primary" in run else None
def find(o, k):
    if isinstance(o, dict):
        if k in o and isinstance(o[k], (int, float)): return o[k]
        for v in o.values():
            r = find(v, k)
            if r is not None: return r
    if isinstance(o, list):
        for v in o:
            r = find(v, k)
            if r is not None: return r
tpot = tpot or find(run, "tpot_s")
assert abs(t1["predicted"] - tpot * 1e3) <= 1e-9 * t1["predicted"], (t1["predicted"], tpot)
PY

expect_error() {  # $2 regex of the message; the rest: the command's arguments
  local re=$1; shift
  local rc=0
  "$TRNSIM" validate "$@" >/dev/null 2>"$tmp/err" || rc=$?
  ((rc == 2)) || fail "$*: exit $rc, expected 2 ($(cat "$tmp/err"))"
  grep -qE "$re" "$tmp/err" || fail "$*: message '$(cat "$tmp/err")' does not match /$re/"
}
expect_error 'needs --date' --record "$tmp/draft.json"
expect_error 'date: expected a date' --record "$tmp/draft.json" --date 2026-13-01 --commit 0123abcd
expect_error 'commit: expected a git commit' --record "$tmp/draft.json" --date 2026-12-03 --commit HEAD
sed 's/trnsim-prediction-1/trnsim-prediction-9/' "$tmp/draft.json" >"$tmp/bad.json"
expect_error 'format: expected' --record "$tmp/bad.json" --date 2026-12-03 --commit 0123abcd
sed 's/"unit": "ms", //' "$tmp/draft.json" >"$tmp/bad.json"
expect_error 'predictions\[0\].*unit' --record "$tmp/bad.json" --date 2026-12-03 --commit 0123abcd
echo "predictions: ok"
