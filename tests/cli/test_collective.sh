#!/usr/bin/env bash
# `trnsim collective`: the nccl-tests-style table, size ranges and suffixes, JSON, both
# backends, and exit code 2 with a clear message for impossible requests.
set -euo pipefail
: "${TRNSIM:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRNSIM" collective --system trn3-gen2-ultraserver --op all-reduce --bytes 1K:1G > "$tmp/t.txt" || fail "table exit $?"
grep -q "all-reduce on trn3-gen2-ultraserver, 144 ranks, backend analytic" "$tmp/t.txt" || fail "header"
grep -q "busbw = algbw x 2(n-1)/n" "$tmp/t.txt" || fail "busbw convention"
rows=$(grep -vc '^#' "$tmp/t.txt")
[ "$rows" = 21 ] || fail "1K:1G should give 21 doubling rows, got $rows"
# Every row prints the JSON's numbers: time in us, algbw = size / time, busbw = algbw x
# 2(n-1)/n for an all-reduce of n = 144 ranks.
"$TRNSIM" collective --system trn3-gen2-ultraserver --op all-reduce --bytes 1K:1G --json > "$tmp/t.json" || fail "json exit $?"
node - "$tmp/t.txt" "$tmp/t.json" <<'EOF2' || fail "table rows are not the JSON's numbers"
const fs = require("fs");
const rows = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l && !l.startsWith("#"));
const json = JSON.parse(fs.readFileSync(process.argv[3], "utf8")).results;
if (rows.length !== json.length) throw new Error(`${rows.length} rows, ${json.length} results`);
const n = 144;
json.forEach((r, i) => {
  const algbw = r.bytes / r.time_s, busbw = algbw * 2 * (n - 1) / n;
  if (Math.abs(r.algbw_bytes_per_s - algbw) > 1e-9 * algbw) throw new Error(`algbw of ${r.bytes}`);
  if (Math.abs(r.busbw_bytes_per_s - busbw) > 1e-9 * busbw) throw new Error(`busbw of ${r.bytes}`);
  const want = [String(r.bytes), (r.time_s * 1e6).toFixed(2), (algbw / 1e9).toFixed(2), (busbw / 1e9).toFixed(2), r.algorithm];
  const got = rows[i].trim().split(/ +/);
  if (got.join(" ") !== want.join(" ")) throw new Error(`row '${rows[i]}', expected '${want.join(" ")}'`);
});
EOF2
head -6 "$tmp/t.txt" | tail -1 | grep -Eq '^ +1024 .*  mesh$' || fail "first row: $(head -6 "$tmp/t.txt" | tail -1)"
tail -1 "$tmp/t.txt" | grep -Eq '^ +1073741824 .* kangaring$' || fail "last row: $(tail -1 "$tmp/t.txt")"
grep -q ' rdh$' "$tmp/t.txt" || fail "rdh between 1 and 56 MiB"

# Suffixes: 64K = 65536 bytes; an explicit algorithm; the event backend.
"$TRNSIM" collective --system trn2-48xlarge --op all-gather --bytes 64K --algo ring --backend event > "$tmp/e.txt"
grep -Eq '^ +65536 .* ring$' "$tmp/e.txt" || fail "64K ring event: $(cat "$tmp/e.txt")"

# JSON, strided group.
"$TRNSIM" collective --system trn2-ultraserver --op reduce-scatter --bytes 16M --ranks 4 --stride 16 --json > "$tmp/j.json"
for key in '"system": "trn2-ultraserver"' '"ranks": 4' '"stride": 16' '"time_s"' '"algbw_bytes_per_s"' \
           '"busbw_bytes_per_s"' '"algorithm": "rdh"' '"bytes": 16777216.0'; do
  grep -q "$key" "$tmp/j.json" || fail "json: no $key"
done

# A million-chip cluster answers (analytic, symmetric).
"$TRNSIM" collective --system trn2-ultracluster:15625 --op all-reduce --bytes 1G > "$tmp/big.txt"
grep -q "1000000 ranks" "$tmp/big.txt" || fail "1M ranks header"
grep -q "hierarchical(" "$tmp/big.txt" || fail "1M ranks algorithm"

# Logical NeuronCores as ranks (nccom-test on trn2 at LNC=2): 2 ranks on one chip use no link.
"$TRNSIM" collective --system trn2-48xlarge --op all-reduce --bytes 1G --ranks 2 --ranks-per-chip 4 --json > "$tmp/l.json"
grep -q '"ranks_per_chip": 4' "$tmp/l.json" || fail "json: no ranks_per_chip"
grep -q '"link_s": 0.0' "$tmp/l.json" || fail "two ranks of one chip should use no link: $(cat "$tmp/l.json")"
"$TRNSIM" collective --system trn2-48xlarge --op all-reduce --bytes 512M --ranks 16 --ranks-per-chip 4 > "$tmp/k.txt"
grep -q "4 per chip (logical NeuronCores)" "$tmp/k.txt" || fail "header with ranks per chip"
tail -1 "$tmp/k.txt" | grep -q 'kangaring, 4 ranks/chip$' || fail "KangaRing pairs: $(tail -1 "$tmp/k.txt")"

expect_error() {  # expect_error "message part" args...
  local want=$1; shift
  set +e
  "$TRNSIM" collective "$@" > /dev/null 2> "$tmp/err"; local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$* exited $rc, expected 2"
  grep -q -- "$want" "$tmp/err" || fail "$*: expected '$want', got: $(cat "$tmp/err")"
}
expect_error "ranks: 17 ranks need 17 chips but trn2-48xlarge has 16" --system trn2-48xlarge --op all-reduce --bytes 1M --ranks 17
expect_error "--bytes: must be positive" --system trn2-48xlarge --op all-reduce --bytes 0
expect_error "--bytes: expected a size" --system trn2-48xlarge --op all-reduce --bytes -5
expect_error "--bytes: unknown size suffix 'X'" --system trn2-48xlarge --op all-reduce --bytes 5X
expect_error "did you mean 'all-reduce'" --system trn2-48xlarge --op allreduce --bytes 1M
expect_error "did you mean 'ring'" --system trn2-48xlarge --op all-reduce --bytes 1M --algo rng
expect_error "backend: unknown backend 'packet'" --system trn2-48xlarge --op all-reduce --bytes 1M --backend packet
expect_error "hierarchical needs ranks spanning" --system trn2-48xlarge --op all-reduce --bytes 1M --algo hierarchical
expect_error "ranks: 6 ranks do not fill whole chips of 4 ranks" --system trn2-48xlarge --op all-reduce --bytes 1M --ranks 6 --ranks-per-chip 4
expect_error "ranks_per_chip: must be 1..8" --system trn2-48xlarge --op all-reduce --bytes 1M --ranks-per-chip 9
expect_error "did you mean 'trn2-48xlarge'" --system trn2-48xlarg --op all-reduce --bytes 1M
expect_error "--op: missing (required)" --system trn2-48xlarge --bytes 1M
expect_error "use the analytic backend" --system trn2-ultracluster:15625 --op all-to-all --bytes 1G --backend event
echo ok
