#!/usr/bin/env bash
# `trnsim mx`: exact output lines for small inputs (published vectors of MX.md included),
# quantize -> dequantize round trips, raw float32 input, every code path giving the same
# bits, and bad input -> exit code 2 with a message naming the line or option.
set -euo pipefail
: "${TRNSIM:?}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

zeros() { local n=$1 s=""; for ((i = 0; i < n; i++)); do s+=" 00"; done; printf '%s' "$s"; }
# expect LABEL EXPECTED_OUTPUT INPUT ARGS...
expect() {
  local label=$1 want=$2 input=$3; shift 3
  local got rc=0
  got=$(printf '%b' "$input" | "$TRNSIM" mx "$@" 2>&1) || rc=$?
  if [[ $rc != 0 ]]; then fail "$label: exit $rc: $got"; return; fi
  if [[ $got != "$want" ]]; then
    fail "$label"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -10 || true
  fi
}
# expect_error LABEL MESSAGE_SUBSTRING INPUT ARGS...
expect_error() {
  local label=$1 want=$2 input=$3; shift 3
  local got rc=0
  got=$(printf '%b' "$input" | "$TRNSIM" mx "$@" 2>&1) || rc=$?
  if [[ $rc != 2 ]]; then fail "$label: exit $rc (want 2): $got"; return; fi
  if [[ $got != *"$want"* ]]; then fail "$label: message '$got' lacks '$want'"; fi
}

# --- quantize: exact lines -------------------------------------------------------------
# MXFP4: amax 100 -> X = 2^(6-2) = 16; 4.5/16 -> 0.5, 100/16 -> 6, -7/16 -> -0.5, -0.1 -> -0
expect "e2m1 small" "83 00 00 00 08 01 07 09$(zeros 25)" "1 2 3 -0.1 4.5 100 -7" quantize --format e2m1
# microxcaling issue 4: amax 960 in E4M3 gets X = 2 and 957 becomes 896 (478.5 clamps to 448)
expect "e4m3 960 floor" "80 7e 7e$(zeros 30)" "960 957" quantize --format e4m3
expect "e4m3 960 floor dequantized" "896 896$(printf ' 0%.0s' {1..30})" "80 7e 7e$(zeros 30)" dequantize --format e4m3
# rceil never clamps: X = 4, 240 and 239.25 -> 240
expect "e4m3 960 rceil" "81 77 77$(zeros 30)" "960 957" quantize --format e4m3 --scale rceil
expect "e4m3 960 nki" "81 77 77$(zeros 30)" "960 957" quantize --format e4m3 --scale nki
# pytorch/ao issue 436: E5M2 [1, 2, ..., 31, 127.9999] gets scale byte 118 (0x76)
vec=$(seq -s ' ' 1 31)" 127.9999"
got=$(echo "$vec" | "$TRNSIM" mx quantize --format e5m2 | cut -d' ' -f1)
[[ $got == 76 ]] || fail "pytorch/ao 436 vector: scale $got, want 76"
# floorf(log2f) hazard: amax (2 - 2^-23) * 8 = 15.999999046 -> floor(log2) 3 -> X = 2 (0x80)
got=$(echo "15.999999046325684" | "$TRNSIM" mx quantize --format e2m1 | cut -d' ' -f1)
[[ $got == 80 ]] || fail "floor hazard: scale $got, want 80"
# NaN or Inf anywhere in a block: scale 0xFF, zero codes; all-zero block: 0x00, signs kept
expect "nan block" "ff$(zeros 32)" "1 nan 3" quantize --format e4m3
expect "inf block" "ff$(zeros 32)" "-inf 3" quantize --format e5m2
expect "zero block" "00 00 80 00$(zeros 29)" "0 -0 0" quantize --format e4m3
# overflow modes (FP8)
expect "e4m3 overflow inf" "7f 7e 7e 7f ff$(zeros 28)" "448 464 465 -500" quantize --format e4m3 --overflow inf
expect "e4m3 overflow saturate" "7f 7e 7e 7e fe$(zeros 28)" "448 464 465 -500" quantize --format e4m3
expect "e5m2 overflow inf" "7f 5f 5f 5f e0 7b 7c$(zeros 26)" "448 464 465 -500 57344 61440" quantize --format e5m2 --overflow inf
# subnormal FP32 inputs: exact by default, zero with --flush-subnormals
expect "subnormal e5m2" "00 08 84 00$(zeros 29)" "7.174648137343064e-43 -3.587324068671532e-43 1.4e-45" quantize --format e5m2
expect "subnormal flushed" "00 00 80 00$(zeros 29)" "7.174648137343064e-43 -3.587324068671532e-43 1.4e-45" quantize --format e5m2 --flush-subnormals
# raw little-endian float32: 1.0 and -2.0
expect "f32 input" "78 70 f8$(zeros 30)" '\x00\x00\x80\x3f\x00\x00\x00\xc0' quantize --format e4m3 --input f32
# INT8: 127/64 saturation, two's complement codes
expect "int8" "7f 40 c0 7f 81 01$(zeros 27)" "1 -1 1.9921875 -1.99 0.015625" quantize --format int8
# 33 values: two blocks, the second padded
expect "two blocks" "$(printf "7d"; printf " 06%.0s" {1..32}; printf "\n7d 06"; zeros 31)" "$(printf '1 %.0s' {1..33})" quantize --format e2m1
# nothing in, nothing out
expect "empty" "" "" quantize --format e4m3

# --- dot --------------------------------------------------------------------------------
expect "dot e4m3 x e2m1" "30 0x41f00000" "1 2 3\n4 5 6\n" dot --a-format e4m3 --b-format e2m1
expect "dot nan" "nan 0x7fc00000" "1 nan\n1 1\n" dot --a-format e4m3 --b-format e4m3
expect "dot 40 ones" "40 0x42200000" "$(printf '1 %.0s' {1..40})\n$(printf '1 %.0s' {1..40})\n" dot --a-format int8 --b-format e3m2

# --- round trips ------------------------------------------------------------------------
for f in e4m3 e5m2 e3m2 e2m3 e2m1 int8; do
  q=$(printf '%s\n' 0.5 -1.25 3 100 -0.001 7 1e-3 2.5 | "$TRNSIM" mx quantize --format "$f")
  back=$(printf '%s\n' "$q" | "$TRNSIM" mx dequantize --format "$f")
  again=$(printf '%s\n' "$back" | "$TRNSIM" mx quantize --format "$f")
  [[ $q == "$again" ]] || fail "round trip $f: $q -> $back -> $again"
done
# grid values survive exactly
expect "e4m3 grid" "448 -240 0.001953125 0.015625 1.5 -0 0$(printf ' 0%.0s' {1..25})" \
  "$(echo '448 -240 0.001953125 0.015625 1.5 -0' | "$TRNSIM" mx quantize --format e4m3)" dequantize --format e4m3

# --- every available path gives the same bits --------------------------------------------
input=$(seq -s ' ' -50 0.37 80)
for p in scalar avx2 avx512; do
  for f in e4m3 e2m1 e3m2; do
    a=$(echo "$input" | "$TRNSIM" mx quantize --format "$f" --path scalar)
    b=$(echo "$input" | "$TRNSIM" mx quantize --format "$f" --path "$p" 2>/dev/null) || continue  # path absent
    [[ $a == "$b" ]] || fail "path $p quantize $f differs from scalar"
    c=$(printf '%s\n' "$a" | "$TRNSIM" mx dequantize --format "$f" --path "$p")
    d=$(printf '%s\n' "$a" | "$TRNSIM" mx dequantize --format "$f" --path scalar)
    [[ $c == "$d" ]] || fail "path $p dequantize $f differs from scalar"
  done
done

# --- error statistics (these lines must also match the WebAssembly build) ----------------
expect "error e2m1" "format e2m1 (MXFP4 E2M1), scale floor, overflow saturate
samples 1000 normal (seed 3)
rmse 0.114909
max_rel_error 1
sqnr_db 18.9095
underflow_to_zero 78
clamped 28" "" error --format e2m1 --n 1000 --seed 3
expect "error int8 lognormal rceil" "format int8 (MXINT8), scale rceil, overflow saturate
samples 5000 lognormal (seed 42)
rmse 0.032047
max_rel_error 1
sqnr_db 38.358
underflow_to_zero 16
clamped 0" "" error --format int8 --dist lognormal --n 5000 --seed 42 --scale rceil

# --- bad input: exit 2, message names the line or option ---------------------------------
expect_error "not a number" "line 2: 'x' (field 2) is not a number" "1 2\n3 x\n" quantize --format e4m3
expect_error "hex float rejected" "line 1: '0x10'" "0x10" quantize --format e4m3
expect_error "unknown format" "--format: unknown format 'fp8'" "1" quantize --format fp8
expect_error "missing format" "--format: missing" "1" quantize
expect_error "unknown scale" "--scale: unknown scale rule 'ceil'" "1" quantize --format e4m3 --scale ceil
expect_error "nki not fp4" "--scale: the nki rule applies to e4m3 and e5m2 only" "1" quantize --format e2m1 --scale nki
expect_error "unknown option" "--fromat: unknown option (did you mean --format?)" "1" quantize --fromat e4m3
expect_error "f32 length" "input: 5 bytes is not a whole number of float32 values" '\x00\x00\x80\x3f\x00' quantize --format e4m3 --input f32
expect_error "dequantize field count" "line 2: expected 33 fields" "7f$(zeros 32)\n7f 00\n" dequantize --format e4m3
expect_error "dequantize bad hex" "line 1: field 3 'zz' is not two hex digits" "7f 00 zz$(zeros 30)" dequantize --format e4m3
expect_error "dequantize code range" "line 1: field 2 code 10 does not fit e2m1 (4 bits)" "7f 10$(zeros 31)" dequantize --format e2m1
expect_error "dot lengths" "line 3: 3 numbers, but line 1 has 2" "1 2\n\n3 4 5\n" dot --a-format e4m3 --b-format e2m1
expect_error "dot one line" "input: expected two lines of numbers" "1 2\n" dot --a-format e4m3 --b-format e2m1
expect_error "dot bad number" "line 2: 'y' (field 1) is not a number" "1\ny\n" dot --a-format e4m3 --b-format e4m3
expect_error "error n" "--n: 0 is out of range" "" error --format e4m3 --n 0
expect_error "error dist" "--dist: unknown distribution 'gauss'" "" error --format e4m3 --dist gauss
expect_error "no subcommand" "missing subcommand" "" 
expect_error "bad subcommand" "unknown subcommand 'quant'" "" quant
expect_error "bad path" "--path: unknown path 'sse'" "1" quantize --format e4m3 --path sse

# --- NVFP4 -------------------------------------------------------------------------------
# Tensor scale 1 given: the block amax 6 makes the E4M3 block scale 6 / 6 = 1 (0x38), so the
# codes are E2M1 rounding of the inputs themselves, ties to even (0.25 -> 0, 0.75 -> 1,
# 1.25 -> 1, 1.75 -> 2, 2.5 -> 2, 3.5 -> 4, 5 -> 4), beyond 5 up to 6, -0.1 to -0.
ties="6 0.25 0.75 1.25 1.75 2.5 3.5 5 5.0001 -0.75 -0.1 0.2600001 4.9999 -6 0 1"
expect "nvfp4 ties" "tensor_scale 0x3f800000
38 07 00 02 02 04 04 06 06 07 0a 08 01 06 0f 00 02" "$ties" quantize --format nvfp4 --tensor-scale 1
expect "nvfp4 ties back" "6 0 1 1 2 2 4 4 6 -1 -0 0.5 4 -6 0 1" \
  "$(echo "$ties" | "$TRNSIM" mx quantize --format nvfp4 --tensor-scale 1)" dequantize --format nvfp4
# The recipe: tensor amax 2688 gives tensor scale 2688 / (6 * 448) = 1; that block's scale is
# 2688 / 6 = 448 (0x7e), 2688 / 448 = 6 (code 7), 1 / 448 rounds to 0; the second block
# (amax 3, a partial block padded with zeros) gets E4M3 3 / 6 = 0.5 (0x30): 3 / 0.5 = 6.
expect "nvfp4 recipe" "tensor_scale 0x3f800000
7e 07 00$(zeros 14)
30 00 07$(zeros 14)" "2688 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3" quantize --format nvfp4
expect "nvfp4 NaN block" "tensor_scale 0x3f800000
7f$(zeros 16)" "nan 1" quantize --format nvfp4 --tensor-scale 1
# tensor scale 2^-7: block scales 3 / (6 / 128) = 64 and 6 / (6 / 128) = 128 (exact in E4M3),
# so a is 2 * (1 2 3) / 2 and b rounds 5 to 4 (a tie, to even): 1 * 4 + 2 * 4 + 3 * 6 = 30
expect "nvfp4 dot" "30 0x41f00000" "1 2 3\n4 5 6\n" dot --a-format nvfp4 --b-format nvfp4 --tensor-scale 0.0078125
q=$(printf '%s\n' 0.5 -1.25 3 100 -0.001 7 1e-3 2.5 | "$TRNSIM" mx quantize --format nvfp4)
again=$(printf '%s\n' "$q" | "$TRNSIM" mx dequantize --format nvfp4 | "$TRNSIM" mx quantize --format nvfp4)
[[ $q == "$again" ]] || fail "round trip nvfp4: $q -> $again"
for p in avx2 avx512; do
  a=$(echo "$input" | "$TRNSIM" mx quantize --format nvfp4 --path scalar)
  b=$(echo "$input" | "$TRNSIM" mx quantize --format nvfp4 --path "$p" 2>/dev/null) || continue  # path absent
  [[ $a == "$b" ]] || fail "path $p quantize nvfp4 differs from scalar"
  [[ $(printf '%s\n' "$a" | "$TRNSIM" mx dequantize --format nvfp4 --path "$p") == \
     $(printf '%s\n' "$a" | "$TRNSIM" mx dequantize --format nvfp4 --path scalar) ]] || fail "path $p dequantize nvfp4"
done
# compare: each row is what `error` prints for that format on the same samples, and the
# closing line is nvfp4's SQNR minus e2m1's
cmp=$("$TRNSIM" mx compare --n 4000 --seed 5)
for f in e2m1 nvfp4; do
  e=$("$TRNSIM" mx error --format "$f" --n 4000 --seed 5)
  rmse=$(sed -n 's/^rmse //p' <<<"$e") sqnr=$(sed -n 's/^sqnr_db //p' <<<"$e")
  row=$(awk -v f="$f" '$1 == f && NF == 7' <<<"$cmp")
  [[ $(awk '{print $3, $5}' <<<"$row") == "$rmse $sqnr" ]] || fail "compare row $f '$row' vs error rmse $rmse sqnr $sqnr"
done
python3 - "$cmp" "$("$TRNSIM" mx compare --n 4000 --seed 5 --json)" <<'PY' || fail "compare: the nvfp4 vs e2m1 line or JSON"
import json, sys
text, js = sys.argv[1], json.loads(sys.argv[2])
rows = {l.split()[0]: l.split() for l in text.splitlines()[2:-1]}
gain = float(rows["nvfp4"][4]) - float(rows["e2m1"][4])
last = text.splitlines()[-1]
assert last.startswith("nvfp4 vs e2m1 (MXFP4): sqnr +"), last
assert abs(float(last.split("sqnr ")[1].split(" dB")[0]) - gain) < 1e-4, (last, gain)
f = {r["format"]: r for r in js["formats"]}
assert f["nvfp4"]["bits_per_element"] == 4.5 and f["e2m1"]["bits_per_element"] == 4.25
assert abs(js["nvfp4_vs_mxfp4"]["sqnr_db_gain"] - (f["nvfp4"]["sqnr_db"] - f["e2m1"]["sqnr_db"])) < 1e-4
assert str(f["nvfp4"]["rmse"]) == rows["nvfp4"][2]
PY
expect_error "nvfp4 scale rule" "--scale: does not apply to nvfp4" "1" quantize --format nvfp4 --scale rceil
expect_error "nvfp4 tensor scale range" "--tensor-scale: tensor scale 0 is outside" "1" quantize --format nvfp4 --tensor-scale 0
expect_error "tensor scale mx" "--tensor-scale: applies to nvfp4 only" "1" quantize --format e2m1 --tensor-scale 1
expect_error "nvfp4 dot mixed" "--b-format: nvfp4 multiplies only nvfp4" "1\n1\n" dot --a-format nvfp4 --b-format e2m1
expect_error "nvfp4 dequantize head" "line 1: expected 'tensor_scale 0xHHHHHHHH'" "38$(zeros 16)" dequantize --format nvfp4
expect_error "nvfp4 dequantize fields" "line 2: expected 17 fields" "tensor_scale 0x3f800000\n38$(zeros 32)" dequantize --format nvfp4
expect_error "nvfp4 dequantize code" "line 2: field 3 code 10 does not fit nvfp4" "tensor_scale 0x3f800000\n38 00 10$(zeros 14)" dequantize --format nvfp4

help=$("$TRNSIM" mx --help) || fail "--help exit code"
[[ $help == *"Usage: trnsim mx quantize --format F"* ]] || fail "--help text"
[[ $help == *"nvfp4 (NVFP4"* && $help == *"trnsim mx compare"* ]] || fail "--help lacks nvfp4 or compare"

if ((failures)); then
  echo "test_mx: $failures failures"
  exit 1
fi
echo "test_mx: ok"
