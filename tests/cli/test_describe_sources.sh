#!/usr/bin/env bash
# `trnsim describe --sources`: the source keys of core/data/sources.json, every one with its
# document (text and JSON, the JSON equal to the data file's list); the same list the
# site's about page is generated from (web/about.cmake, checked by tests/browser/examples).
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
data="$TRNSIM_SOURCE_DIR/core/data/sources.json"

"$TRNSIM" describe --sources > "$tmp/out.txt" || fail "describe --sources exited $?"
"$TRNSIM" describe --sources --json > "$tmp/out.json" || fail "describe --sources --json exited $?"
python3 - "$data" "$tmp/out.txt" "$tmp/out.json" <<'PY' || fail "the printed list differs from core/data/sources.json"
import json, sys
data = json.load(open(sys.argv[1]))["sources"]
text = open(sys.argv[2]).read()
printed = json.load(open(sys.argv[3]))
assert printed == data, "JSON differs"
assert len(data) >= 17
for s in data:
    assert s["key"] + " " in text and s["document"] in text and s["used_for"] in text, s["key"]
PY
set +e
"$TRNSIM" describe --sources trn2-ultraserver > /dev/null 2> "$tmp/err.txt"
rc=$?
set -e
[[ $rc == 2 ]] || fail "--sources with a system: exit $rc, expected 2"
grep -q "unexpected extra argument" "$tmp/err.txt" || fail "--sources with a system: no clear error"
echo "ok - describe --sources"
