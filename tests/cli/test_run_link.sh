#!/usr/bin/env bash
# trnsim run / link / --help / --version as a user calls them: outputs, round trips,
# and bad input (exit 2 with a message naming the field or argument).
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect_error CODE PATTERN -- args...: runs trnsim, checks exit code, empty stdout and stderr pattern.
expect_error() {
  local code=$1 pattern=$2; shift 3
  local rc=0
  "$TRNSIM" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc == "$code" ]] || fail "trnsim $* exited $rc, expected $code (stderr: $(cat "$tmp/err"))"
  [[ ! -s $tmp/out ]] || fail "trnsim $* printed to stdout on error: $(head -3 "$tmp/out")"
  grep -qE -- "$pattern" "$tmp/err" || fail "trnsim $*: stderr '$(cat "$tmp/err")' does not match '$pattern'"
}

"$TRNSIM" --version | grep -qE '^trnsim [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
for cmd in describe run link; do
  "$TRNSIM" --help | grep -qE "^  $cmd " || fail "--help lists $cmd"
  "$TRNSIM" "$cmd" --help | grep -q "Usage: trnsim $cmd" || fail "$cmd --help"
done
expect_error 2 "unknown command 'frobnicate'" -- frobnicate
rc=0; "$TRNSIM" >/dev/null 2>&1 || rc=$?; [[ $rc == 2 ]] || fail "no arguments should exit 2"

# run: text and JSON, deterministic, the same scenario via stdin.
"$TRNSIM" run examples/default.json >"$tmp/report.txt"
grep -q "Trn3 Gen2 UltraServer" "$tmp/report.txt" || fail "text report names the system"
grep -q "compared with Trn2 UltraServer" "$tmp/report.txt" || fail "text report has the comparison"
"$TRNSIM" run --json examples/default.json >"$tmp/a.json"
"$TRNSIM" run --json - <examples/default.json >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "run from stdin differs from run from a file"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const k of ["scenario", "primary", "compare", "ratios"]) if (!(k in r)) throw new Error("report lacks " + k);
  const p = r.primary.system;
  if (p.chips !== 144) throw new Error("primary system has " + p.chips + " chips");
  // Derived, not typed: 705.6 / 185.6 TB/s, and NeuronLink-v4 / v3 per chip = 2x (FACTS.md).
  const sysbw = r.ratios.per_system.hbm_bandwidth, link = r.ratios.per_chip.link_bandwidth;
  if (Math.abs(sysbw - 705.6 / 185.6) > 1e-9) throw new Error("system HBM bandwidth ratio " + sysbw);
  if (Math.abs(link - 2) > 1e-9) throw new Error("per-chip link bandwidth ratio " + link);
' "$tmp/a.json" || fail "report JSON content"
"$TRNSIM" run --json examples/default.json --trace "$tmp/trace.json" >/dev/null
node -e 'const t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const ev = t.traceEvents || t; if (!Array.isArray(ev) || ev.length < 3) throw new Error("no trace events");' "$tmp/trace.json" || fail "--trace writes Chrome trace JSON"

# link: encode -> decode gives the canonical scenario; encode of that gives the same link.
link=$("$TRNSIM" link encode examples/default.json)
[[ $link == http://127.0.0.1:8080/#s=1.* ]] || fail "link format: $link"
"$TRNSIM" link decode "$link" >"$tmp/canon.json"
[[ $("$TRNSIM" link encode "$tmp/canon.json") == "$link" ]] || fail "link round trip is not lossless"
"$TRNSIM" run --json "$tmp/canon.json" | cmp -s - "$tmp/a.json" || fail "the decoded scenario gives a different report"
[[ $("$TRNSIM" link encode --base https://example.org/trnsim/ examples/default.json) == https://example.org/trnsim/#s=1.* ]] || fail "--base"
echo "$link" | "$TRNSIM" link decode - | cmp -s - "$tmp/canon.json" || fail "link decode from stdin"
"$TRNSIM" link decode "#${link#*#}" | cmp -s - "$tmp/canon.json" || fail "link decode of a bare fragment"

# Bad input: exit 2, nothing on stdout, the field named.
expect_error 2 "cannot open file" -- run "$tmp/missing.json"
printf '{"version": 1, "sytem": "trainium3"}' >"$tmp/typo.json"
expect_error 2 "sytem: unknown key \(did you mean 'system'\?\)" -- run "$tmp/typo.json"
printf '{"version": 1,' >"$tmp/trunc.json"
expect_error 2 "trunc.json: not valid JSON at byte" -- run "$tmp/trunc.json"
printf '{"workload": {"model": "gpt-oss-120b", "inference": {"batch": 0}}}' >"$tmp/zero.json"
expect_error 2 "workload.inference.batch" -- run "$tmp/zero.json"
printf '{"system": "trn9"}' >"$tmp/sys.json"
expect_error 2 "^trnsim run: error: system: " -- run "$tmp/sys.json"
expect_error 2 "unknown option" -- run --jsn examples/default.json
expect_error 2 "SCENARIO.json: missing argument" -- run
expect_error 2 "link: not a trnsim scenario link" -- link decode "http://x/#nope"
expect_error 2 "link: " -- link decode "#s=1.AAAAAAAA"
expect_error 2 "link: unsupported link version" -- link decode "#s=7.AAAA"
expect_error 2 "unknown action" -- link frob
echo "test_run_link: all checks passed"
