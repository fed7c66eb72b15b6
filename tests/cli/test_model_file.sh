#!/usr/bin/env bash
# A model config named by path ("workload.model": "configs/x.json", relative to the scenario
# file): `run`, `serve`, `compare` and `link encode` read it and report exactly what the same
# config inline gives with the path as its "_name_or_path" (which names the model in the
# reports, as the text checks below show); a missing file, a file that is not a JSON object and a path read from
# stdin (no folder to resolve it in) are exit-2 errors naming workload.model.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
cd "$TRNSIM_SOURCE_DIR"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/scen/configs" "$tmp/elsewhere"
cp examples/models/Qwen3-235B-A22B.json "$tmp/scen/configs/my-model.json"
body='"system": "trn3-gen2-ultraserver", "compare_system": "trn2-ultraserver",
  "workload": {"model": MODEL, "parallelism": {"tp": 4}, "inference": {"batch": 2, "input_tokens": 256, "output_tokens": 16}},
  "serve": {"rate": 2, "requests": 12}'
echo "{${body/MODEL/\"configs/my-model.json\"}}" >"$tmp/scen/by-path.json"
named=$(sed '$ s/^}$/, "_name_or_path": "configs\/my-model.json"}/' examples/models/Qwen3-235B-A22B.json)
echo "{${body/MODEL/$named}}" >"$tmp/scen/inline.json"

# Run from another folder: the path is relative to the scenario file, not the working directory.
cd "$tmp/elsewhere"
for cmd in "run --json" "serve --json"; do
  # shellcheck disable=SC2086
  "$TRNSIM" $cmd ../scen/by-path.json >"$tmp/a" 2>"$tmp/err" || fail "$cmd by path: $(cat "$tmp/err")"
  # shellcheck disable=SC2086
  "$TRNSIM" $cmd ../scen/inline.json >"$tmp/b" || fail "$cmd inline"
  cmp -s "$tmp/a" "$tmp/b" || fail "$cmd: the config by path reports differently from the same config inline"
done
"$TRNSIM" link encode ../scen/by-path.json >"$tmp/a" || fail "link encode by path"
"$TRNSIM" link encode ../scen/inline.json >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "link encode: the link must carry the config itself"
"$TRNSIM" compare ../scen/by-path.json ../scen/inline.json >"$tmp/a" || fail "compare by path"
# The reports name the model by its file.
"$TRNSIM" run ../scen/by-path.json >"$tmp/a" || fail "run by path"
grep -q "^Workload: configs/my-model.json inference on " "$tmp/a" || fail "run: the workload line does not name the config file"
"$TRNSIM" serve ../scen/by-path.json >"$tmp/a" || fail "serve by path"
grep -q "^  model         configs/my-model.json (qwen3_moe config) (" "$tmp/a" || fail "serve: the model line does not name the config file"

expect_error() {  # $1 scenario file or -, $2 regex of the message; stdin from $3 when $1 is -
  local rc=0
  if [[ $1 == - ]]; then "$TRNSIM" run - <"$3" >/dev/null 2>"$tmp/err" || rc=$?
  else "$TRNSIM" run "$1" >/dev/null 2>"$tmp/err" || rc=$?; fi
  ((rc == 2)) || fail "$1: exit $rc, expected 2 ($(cat "$tmp/err"))"
  grep -qE "$2" "$tmp/err" || fail "$1: message '$(cat "$tmp/err")' does not match /$2/"
}
echo "{${body/MODEL/\"configs/missing.json\"}}" >"$tmp/scen/missing.json"
expect_error ../scen/missing.json "workload\.model: .*configs/missing\.json.*no such file"
echo '[1, 2, 3]' >"$tmp/scen/configs/list.json"
echo "{${body/MODEL/\"configs/list.json\"}}" >"$tmp/scen/list.json"
expect_error ../scen/list.json "workload\.model: 'configs/list\.json' is not a config\.json: expected a JSON object"
echo '{"model_type": "llama", ' >"$tmp/scen/configs/broken.json"
echo "{${body/MODEL/\"configs/broken.json\"}}" >"$tmp/scen/broken.json"
expect_error ../scen/broken.json "workload\.model: 'configs/broken\.json' is not a config\.json"
expect_error - "workload\.model: 'configs/my-model\.json' names a config file.*paste the config\.json object inline" ../scen/by-path.json
# Sweeps: a base file naming its config by path reads it beside the base; a grid of model
# paths reads each beside the sweep file; either gives the points of the same configs inline.
mkdir -p "$tmp/sweeps/configs"
cp "$tmp/scen/configs/my-model.json" "$tmp/sweeps/configs/my-model.json"
grid='"grid": {"workload.inference.batch": [1, 2]}'
echo "{\"base\": \"../scen/by-path.json\", $grid}" >"$tmp/sweeps/by-path.json"
echo "{\"base\": \"../scen/inline.json\", $grid}" >"$tmp/sweeps/inline.json"
"$TRNSIM" sweep ../sweeps/by-path.json --no-progress >"$tmp/a" 2>"$tmp/err" || fail "sweep, base by path: $(cat "$tmp/err")"
"$TRNSIM" sweep ../sweeps/inline.json --no-progress >"$tmp/b" || fail "sweep, base inline"
cmp -s "$tmp/a" "$tmp/b" || fail "sweep: a base naming its config by path gives other points than the config inline"
grep -q '"ok":true' "$tmp/a" || fail "sweep by path: no point ran ($(head -c 300 "$tmp/a"))"
echo "{\"base\": \"../scen/inline.json\", \"grid\": {\"workload.model\": [\"configs/my-model.json\"], \"workload.inference.batch\": [1, 2]}}" >"$tmp/sweeps/grid.json"
"$TRNSIM" sweep ../sweeps/grid.json --no-progress >"$tmp/c" 2>"$tmp/err" || fail "sweep, model paths in the grid: $(cat "$tmp/err")"
# Each point shows the path it ran and the same figures as the config inline.
grep -q '"workload.model":"configs/my-model.json"' "$tmp/c" || fail "sweep grid: the point does not show the model path"
cmp -s <(sed 's/"point":{[^}]*}//' "$tmp/c") <(sed 's/"point":{[^}]*}//' "$tmp/b") ||
  fail "sweep grid: a model path in the grid gives other figures than the config inline"
echo "{\"base\": \"../scen/inline.json\", \"grid\": {\"workload.model\": [\"configs/none.json\"]}}" >"$tmp/sweeps/grid-missing.json"
rc=0; "$TRNSIM" sweep ../sweeps/grid-missing.json --no-progress >/dev/null 2>"$tmp/err" || rc=$?
((rc == 2)) && grep -qE "sweep\.grid\.workload\.model: .*configs/none\.json.*no such file" "$tmp/err" ||
  fail "sweep grid, missing config: exit $rc, '$(cat "$tmp/err")'"
echo "model file: by path = inline for run, serve, link and sweep (base and grid); five errors named"
