#!/usr/bin/env bash
# The README's "Bad input" table is what users see: every row's command is run here and its
# exit code and stderr must be exactly what the table says (so the table cannot go stale),
# and stdout must stay empty. Then checks that do not depend on the table: the two findings
# of issue 12 (a directory exits 2; a cluster beyond the chip limit names the field once and
# states the limit) and the file-size limit on a named file.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Rows as "command<TAB>exit code<TAB>stderr", code spans unescaped (\| is | in a table cell).
node -e '
  const md = require("fs").readFileSync("README.md", "utf8");
  const block = md.split("<!-- bad input: begin -->")[1].split("<!-- bad input: end -->")[0];
  const rows = block.trim().split("\n").slice(2);
  for (const row of rows) {
    const cells = row.replace(/^\|\s*|\s*\|$/g, "").split(/\s+(?<!\\)\|\s+/).map((c) => c.replace(/\\\|/g, "|"));
    if (cells.length !== 5) throw new Error("a bad-input row needs 5 cells: " + row);
    const cmd = /^`(.*)`$/.exec(cells[1]);
    const cli = /^(\d+), `(.*)`$/.exec(cells[2]);
    if (!cmd || !cli) throw new Error("bad-input row without a command or a CLI result: " + row);
    if (!/^—|^`InputError`$/.test(cells[3])) throw new Error("Python column must be `InputError` or —: " + row);
    console.log([cmd[1], cli[1], cli[2]].join("\t"));
  }' >"$tmp/rows.tsv" || fail "cannot read the README's bad-input table"

n=0
while IFS=$'\t' read -r cmd code message; do
  rc=0
  TRNSIM="$TRNSIM" bash -c 'trnsim() { "$TRNSIM" "$@"; }; '"$cmd" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc == "$code" ]] || fail "'$cmd' exited $rc, the README says $code (stderr: $(cat "$tmp/err"))"
  [[ ! -s $tmp/out ]] || fail "'$cmd' printed to stdout: $(head -c 200 "$tmp/out")"
  [[ $(cat "$tmp/err") == "$message" ]] ||
    fail "'$cmd': stderr differs from the README's table:"$'\n'"  got:    $(cat "$tmp/err")"$'\n'"  README: $message"
  n=$((n + 1))
done <"$tmp/rows.tsv"
((n >= 20)) || fail "only $n rows in the README's bad-input table"

# Issue 12's findings, independent of the table's wording.
rc=0; "$TRNSIM" run tests >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 ]] || fail "trnsim run DIRECTORY exits $rc, not 2"
rc=0; "$TRNSIM" run tests/cli/data/bad/billion-ultraservers.json >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 ]] || fail "a cluster beyond the chip limit exits $rc, not 2"
msg=$(cat "$tmp/err")
[[ $msg != *"system: system:"* ]] || fail "the system field is named twice: $msg"
[[ $msg == *"limit of 100000000 chips"* ]] || fail "the limit is not stated: $msg"
[[ $msg != *"positive whole number"* ]] || fail "a positive whole count is called invalid: $msg"
# Within the limit's digits but beyond this system's size: how many UltraServers fit.
rc=0; "$TRNSIM" describe trn3-gen2-ultracluster:694445 >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 && $(cat "$tmp/err") == *"exceed the model's limit of 100000000 chips (at most 694444 UltraServers of this system)" ]] ||
  fail "694445 Gen2 UltraServers: $(cat "$tmp/err")"
# compare_system is named as itself, also once.
printf '{"compare_system": "trn2-ultracluster:9999999999"}' >"$tmp/cmp.json"
rc=0; "$TRNSIM" run "$tmp/cmp.json" >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 && $(cat "$tmp/err") == "trnsim run: error: compare_system: 'trn2-ultracluster:9999999999': "* ]] ||
  fail "compare_system beyond the limit: $(cat "$tmp/err")"
# An error inside a user's system file keeps the file and the field in it.
printf '{"system": "tests/cli/data/bad/bad-unit-chip.json"}' >"$tmp/sysfile.json"
rc=0; "$TRNSIM" run "$tmp/sysfile.json" >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 && $(cat "$tmp/err") == "trnsim run: error: system: tests/cli/data/bad/bad-unit-chip.json: hbm.bandwidth.unit: unknown unit 'TB/sec'"* ]] ||
  fail "a bad unit in a scenario's system file: $(cat "$tmp/err")"
# A named file beyond the JSON limit is refused before it is read (the message gives its size).
truncate -s 20M "$tmp/big.json"
rc=0; "$TRNSIM" run "$tmp/big.json" >/dev/null 2>"$tmp/err" || rc=$?
[[ $rc == 2 && $(cat "$tmp/err") == *"big.json: file has 20971520 bytes, more than the limit of 16 MiB for this input" ]] ||
  fail "a 20 MiB file: $(cat "$tmp/err")"
echo "test_bad_input: $n README rows and the limit checks passed"
