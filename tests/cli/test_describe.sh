#!/usr/bin/env bash
# `trnsim describe`: every built-in system prints, JSON keys and derived figures are
# right, unknown names and bad files exit 2 with a did-you-mean list.
set -euo pipefail
: "${TRNSIM:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for name in trainium2 trainium3 trn2-48xlarge trn2-ultraserver trn3-gen1-ultraserver trn3-gen2-ultraserver \
            trn2-ultracluster trn3-gen1-ultracluster trn3-gen2-ultracluster; do
  "$TRNSIM" describe "$name" > "$tmp/out.txt" || fail "describe $name exited $?"
  grep -q "($name)" "$tmp/out.txt" || fail "describe $name: name missing"
  "$TRNSIM" describe "$name" --json > "$tmp/out.json" || fail "describe $name --json"
  for key in '"chips"' '"peak_flops"' '"hbm_capacity_bytes"' '"hbm_bandwidth_bytes_per_s"' '"sources"' '"fabric"' \
             '"link_bandwidth_bytes_per_s_per_chip"'; do
    grep -q "$key" "$tmp/out.json" || fail "describe $name --json: no $key"
  done
done

# Derived figures (JSON numbers as nlohmann prints them).
"$TRNSIM" describe trn3-gen2-ultraserver --json > "$tmp/g2.json"
grep -q '"chips": 144,' "$tmp/g2.json" || fail "gen2 chips"
grep -q '"mxfp8": 3.62448e+17' "$tmp/g2.json" || fail "gen2 mxfp8 peak"
grep -q '"hbm_capacity_bytes": 22265110462464.0' "$tmp/g2.json" || fail "gen2 HBM (20,736 GiB)"
"$TRNSIM" describe trainium2 --json > "$tmp/t2.json"
grep -q '"mxfp8": null' "$tmp/t2.json" || fail "trainium2 has no MXFP8"
"$TRNSIM" describe trn3-gen2-ultraserver > "$tmp/g2.txt"
grep -q "20736 GiB, 705.6 TB/s" "$tmp/g2.txt" || fail "gen2 text HBM line"
grep -q "chip.hbm.bandwidth: \[default=4.9e+12 (S1)\] nki-guide=4.7e+12 (S4)" "$tmp/g2.txt" || fail "alternatives shown"
"$TRNSIM" describe trn3-gen2-ultraserver+nki-guide > "$tmp/alt.txt"
grep -q "20736 GiB, 676.8 TB/s" "$tmp/alt.txt" || fail "nki-guide alternative"
"$TRNSIM" describe trn2-ultracluster:15625 > "$tmp/c.txt"
grep -q "1000000 x Trainium2 (15625 UltraServers of 64)" "$tmp/c.txt" || fail "cluster override"

# Errors: exit 2 with a useful message.
set +e
"$TRNSIM" describe > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "no argument: exit $rc"
grep -q "trn3-gen2-ultraserver" "$tmp/err" || fail "no argument: names not listed"
set +e
"$TRNSIM" describe trn3-gen2-ultrasever > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "unknown name: exit $rc"
grep -q "did you mean 'trn3-gen2-ultraserver'" "$tmp/err" || fail "unknown name: no suggestion"
echo '{"format": "trnsim-chip-2", "name": "x"}' > "$tmp/bad.json"
set +e
"$TRNSIM" describe "$tmp/bad.json" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "bad file: exit $rc"
grep -q "bad.json: peak_flops: missing (required)" "$tmp/err" || fail "bad file: message $(cat "$tmp/err")"
# A file in the previous chip format is refused with what moved, not read half-way.
echo '{"format": "trnsim-chip-1", "name": "x"}' > "$tmp/old.json"
set +e
"$TRNSIM" describe "$tmp/old.json" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] || fail "old format: exit $rc"
grep -q "old.json: format: 'trnsim-chip-1' is the previous format; this version reads 'trnsim-chip-2': move cores" "$tmp/err" ||
  fail "old format: message $(cat "$tmp/err")"
echo "ok"
