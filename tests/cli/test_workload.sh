#!/usr/bin/env bash
# The workload layer through `trnsim run`: every workload example runs (text, JSON, trace),
# reports are deterministic, an inline Hugging Face config travels in the scenario, and bad
# workloads exit 2 with a message naming the field.
set -euo pipefail
: "${TRNSIM:?}" "${TRNSIM_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$TRNSIM_SOURCE_DIR"

for f in examples/gpt-oss-120b-trn3-gen2.json examples/gpt-oss-120b-trn2-ultraserver.json \
         examples/llama-3.1-405b-trn3-gen2.json examples/llama-3.1-405b-trn2-ultraserver.json \
         examples/deepseek-v3-trn3-gen2.json; do
  "$TRNSIM" run "$f" > "$tmp/out.txt" || fail "run $f exited $?"
  for k in "TTFT" "time per token" "per chip" "HBM per chip" "time shares" "tokens per MW" "per million output tokens" \
           "decode: one decode step" "Assumptions"; do
    grep -q "$k" "$tmp/out.txt" || fail "run $f: no '$k'"
  done
  "$TRNSIM" run "$f" > "$tmp/again.txt"
  cmp -s "$tmp/out.txt" "$tmp/again.txt" || fail "run $f is not deterministic"
  "$TRNSIM" run --json "$f" > "$tmp/out.json" || fail "run --json $f"
  for k in '"ttft_s"' '"tpot_s"' '"output_tokens_per_s"' '"memory_per_chip"' '"time_shares"' '"tokens_per_s_per_megawatt"' \
           '"phases"' '"assumptions"'; do
    grep -q "$k" "$tmp/out.json" || fail "run --json $f: no $k"
  done
done

f=examples/llama-3.1-70b-training-ultracluster.json
"$TRNSIM" run "$f" > "$tmp/train.txt" || fail "run $f"
for k in "step time" "MFU / HFU" "Scaling across UltraServers" "optimizer_states" "data-parallel" "16     2304"; do
  grep -q "$k" "$tmp/train.txt" || fail "run $f: no '$k'"
done

# Timeline export.
"$TRNSIM" run examples/gpt-oss-120b-trn3-gen2.json --trace "$tmp/trace.json" > /dev/null || fail "run --trace"
grep -q '"traceEvents"' "$tmp/trace.json" || fail "trace: no traceEvents"
grep -q '"fabric (collectives)"' "$tmp/trace.json" || fail "trace: no fabric lane"
grep -q '"decode step 1"' "$tmp/trace.json" || fail "trace: no decode step"
"$TRNSIM" run "$f" --trace "$tmp/train-trace.json" > /dev/null || fail "run training --trace"
grep -q '"backward mb 0"' "$tmp/train-trace.json" || fail "training trace: no backward block"

# A user's own config.json, inline.
{ printf '{"version": 1, "system": "trn3-gen2-ultraserver", "compare_system": "", "workload": {"model": '
  cat examples/models/Llama-3.1-8B.json
  printf ', "inference": {"batch": 8, "input_tokens": 2000, "output_tokens": 500}}}\n'; } > "$tmp/inline.json"
"$TRNSIM" run "$tmp/inline.json" > "$tmp/inline.txt" || fail "inline config"
grep -q "Workload: inline inference" "$tmp/inline.txt" || fail "inline config: workload line"
grep -q "8.03 B total" "$tmp/inline.txt" || fail "inline config: parameter count"
grep -q "rope_scaling: RoPE scaling is not modeled" "$tmp/inline.txt" || fail "inline config: unmodeled field reported"

# Bad workloads: exit 2, the field named.
expect_error() {  # file, expected message fragment
  local rc=0
  "$TRNSIM" run "$1" > /dev/null 2> "$tmp/err.txt" || rc=$?
  [[ $rc == 2 ]] || fail "$1: exit $rc, expected 2"
  grep -qF -- "$2" "$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "$1: expected '$2'"; }
}
scenario() {  # workload JSON -> file
  printf '{"version": 1, "system": "trn3-gen2-ultraserver", "compare_system": "", "workload": %s}\n' "$1" > "$tmp/s.json"
  echo "$tmp/s.json"
}
expect_error "$(scenario '{"model": "gpt-oss-120b", "parallelism": {"tp": 5}}')" \
  "workload.parallelism.tp: a tensor-parallel group must fit in (and divide) one scale-up domain of 144 chips"
expect_error "$(scenario '{"model": "gpt-oss-120b", "inference": {"bach": 4}}')" \
  "workload.inference.bach: unknown key (did you mean 'batch'?)"
expect_error "$(scenario '{"model": "Llama-3.1-405B", "parallelism": {"tp": 1}}')" \
  "workload.parallelism: does not fit in HBM: needs"
grep -q "over by" "$tmp/err.txt" || fail "fit error says by how much"
expect_error "$(scenario '{"model": "gpt-oss-120b", "inference": {"output_tokens": 0}}')" \
  "workload.inference.output_tokens: 0 is below 1"
expect_error "$(scenario '{"model": "gpt-oss-120b", "parallelism": {"dp": -2}}')" \
  "workload.parallelism.dp: -2 is below 1"
expect_error "$(scenario '{"model": "gpt-os-120b"}')" "did you mean 'gpt-oss-120b'?"
expect_error "$(scenario '{"model": {"model_type": "t5", "hidden_size": 512}}')" \
  "workload.model.model_type: unsupported model_type 't5'"
expect_error "$(scenario '{"model": "gpt-oss-120b", "parallelism": {"tp": 8, "dp": 40}}')" \
  "workload.parallelism.dp: tp*pp*dp = 320 chips, but Trn3 Gen2 UltraServer has 144"
expect_error "$(scenario '{"model": "gpt-oss-120b", "precision": {"weights": "int4"}}')" \
  "workload.precision.weights: unknown value 'int4'"
# Image models (the video kind's image mode): time per image and images per chip-hour printed,
# the JSON's figures derived from the pass time, the batch and the chips; a bad batch named.
for f in examples/image-flux.1-dev-1024-trn3-gen2.json examples/image-qwen-image-1328-trn3-gen2.json; do
  "$TRNSIM" run "$f" > "$tmp/out.txt" || fail "run $f exited $?"
  grep -q "^  time per image " "$tmp/out.txt" || fail "$f: no time per image"
  grep -q "^  images per chip-hour " "$tmp/out.txt" || fail "$f: no images per chip-hour"
  ! grep -q "real-time factor" "$tmp/out.txt" || fail "$f: an image has no real-time factor"
  "$TRNSIM" run "$f" --json > "$tmp/out.json"
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).primary.result.video;
    const i = r.image, chips = r.placement.chips_per_replica;
    const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
    if (!near(i.image_s, r.video_s / i.batch)) throw new Error("time per image " + i.image_s);
    if (!near(i.images_per_chip_hour, 3600 * i.batch / (r.video_s * chips))) throw new Error("images/chip-hour");
  ' "$tmp/out.json" || fail "$f: image figures not derived"
done
expect_error "$(scenario '{"kind": "video", "model": "FLUX.1-dev", "video": {"frames": 1, "batch": 0}}')" \
  "workload.video.batch: 0 is below 1 (a pass generates at least one image)"
expect_error "$(scenario '{"kind": "video", "model": "Wan2.1-T2V-1.3B", "video": {"batch": 2}}')" \
  "workload.video.batch: must be 1 for a video model"
echo "test_workload: ok"
