#!/usr/bin/env bash
# The progress bar (native/cli/progress.h): drawn on stderr only when it is a terminal and
# the work outlasts half a second, with counts, percentage and an estimate; nothing when
# stderr is a file or a pipe, nothing with --no-progress, nothing for quick work.
# A terminal comes from util-linux's `script` (a pseudo-terminal); the sweep's stdout is a
# pipe whose reader waits a second, so the sweep is held up past the delay on any machine.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"
command -v script >/dev/null || fail "util-linux 'script' is missing (it is part of every Debian system)"

# 400 points, lines of ~1 KB: far more than a pipe buffer holds.
batches=$(seq -s, 1 20) tokens=$(seq -s, 100 100 2000)
echo "{\"base\": \"examples/default.json\", \"grid\": {\"workload.inference.batch\": [$batches], \"workload.inference.output_tokens\": [$tokens]}}" > "$tmp/big.json"
on_tty() { script -qec "$1" /dev/null < /dev/null | tr '\r' '\n'; }

for jobs in 1 2; do
  on_tty "'$TRNSIM' sweep '$tmp/big.json' --jobs $jobs | (sleep 1; cat > /dev/null)" > "$tmp/tty.txt"
  grep -q '^sweep \[##############################\] 400/400 points  100%  [0-9.]* s' "$tmp/tty.txt" \
    || { cat "$tmp/tty.txt" >&2; fail "--jobs $jobs: no final bar on a terminal"; }
  grep -Eq '^sweep \[#*\.+\] [0-9]+/400 points +[0-9]+%  [0-9.]+ s, about [0-9.]+ s left' "$tmp/tty.txt" \
    || { cat "$tmp/tty.txt" >&2; fail "--jobs $jobs: no intermediate bar with an estimate"; }
done

on_tty "'$TRNSIM' sweep '$tmp/big.json' --no-progress | (sleep 1; cat > /dev/null)" > "$tmp/none.txt"
[[ ! -s "$tmp/none.txt" ]] || { cat "$tmp/none.txt" >&2; fail "--no-progress drew a bar"; }

# stderr a file or a pipe: nothing, even when the work is slow.
"$TRNSIM" sweep "$tmp/big.json" 2> "$tmp/err.txt" | (sleep 1; cat > /dev/null)
[[ ! -s "$tmp/err.txt" ]] || fail "a bar on a stderr that is a file"
"$TRNSIM" sweep "$tmp/big.json" 2>&1 >/dev/null | cat > "$tmp/pipe.txt"
[[ ! -s "$tmp/pipe.txt" ]] || fail "a bar on a stderr that is a pipe"

# serve: a bar over the requests finished (400,000 on the plain stack: seconds of simulation,
# well past the delay), nothing with --no-progress.
echo '{"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B", "stack": "plain",
  "parallelism": {"dp": 16}, "inference": {"input_tokens": 1500, "output_tokens": 250}},
  "serve": {"arrivals": "poisson", "rate": 150, "requests": 400000}}' > "$tmp/serve.json"
on_tty "'$TRNSIM' serve '$tmp/serve.json' > /dev/null" > "$tmp/serve.txt"
grep -q '^serve \[##############################\] 400000/400000 requests  100%  [0-9.]* s' "$tmp/serve.txt" \
  || { cat "$tmp/serve.txt" >&2; fail "serve: no final bar on a terminal"; }
on_tty "'$TRNSIM' serve '$tmp/serve.json' --no-progress > /dev/null" > "$tmp/serve-none.txt"
[[ ! -s "$tmp/serve-none.txt" ]] || { cat "$tmp/serve-none.txt" >&2; fail "serve --no-progress drew a bar"; }

# Quick work on a terminal: nothing (a 2-point sweep finishes well within the delay on any
# machine; validate is not used here: it runs the serving simulator and may take longer).
echo '{"base": "examples/default.json", "grid": {"workload.inference.batch": [1, 2]}}' > "$tmp/small.json"
on_tty "'$TRNSIM' sweep '$tmp/small.json' > /dev/null" > "$tmp/small.txt"
[[ ! -s "$tmp/small.txt" ]] || { cat "$tmp/small.txt" >&2; fail "a 2-point sweep drew a bar"; }
echo "test_progress: ok"
