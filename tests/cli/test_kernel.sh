#!/usr/bin/env bash
# `trnsim kernel`: engine-level GEMM and attention reports (text and JSON), the
# bottleneck, and exit code 2 for tiles that do not fit or unsupported dtypes.
set -euo pipefail
: "${TRNSIM:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$TRNSIM" kernel --chip trainium2 --op gemm --m 4096 --n 4096 --k 4096 > "$tmp/g.txt" || fail "gemm exit $?"
grep -q "gemm on one NeuronCore of trainium2 (bf16): M=4096 N=4096 K=4096" "$tmp/g.txt" || fail "gemm header"
grep -q "bottleneck    tensor" "$tmp/g.txt" || fail "gemm bottleneck: $(cat "$tmp/g.txt")"
grep -Eq "engine model / roofline = 1\.0[0-9]" "$tmp/g.txt" || fail "gemm vs roofline: $(cat "$tmp/g.txt")"

"$TRNSIM" kernel --chip trainium3 --op gemm --dtype mxfp8 --json > "$tmp/mx.json"
for key in '"op": "gemm"' '"dtype": "mxfp8"' '"busy_s"' '"tensor"' '"vector"' '"scalar"' '"gpsimd"' '"dma"' \
           '"bottleneck": "tensor"' '"roofline"' '"sbuf_bytes_per_partition"' '"psum_capacity_per_partition"'; do
  grep -q "$key" "$tmp/mx.json" || fail "mx json: no $key"
done

"$TRNSIM" kernel --chip trainium2 --op gemm --m 128 --n 8192 --k 8192 > "$tmp/skinny.txt"
grep -q "bottleneck    dma" "$tmp/skinny.txt" || fail "skinny gemm should be DMA-bound"

"$TRNSIM" kernel --chip trn3-gen2-ultraserver --op attention --seq-q 1024 --heads 2 > "$tmp/a.txt"
grep -q "attention on one NeuronCore of trainium3 (bf16): heads=2 seq_q=1024 seq_kv=1024 head_dim=128 causal" "$tmp/a.txt" \
  || fail "attention header: $(head -1 "$tmp/a.txt")"
grep -q "gpsimd" "$tmp/a.txt" || fail "attention engines"

expect_error() {
  local want=$1; shift
  set +e
  "$TRNSIM" kernel "$@" > /dev/null 2> "$tmp/err"; local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$* exited $rc, expected 2"
  grep -q -- "$want" "$tmp/err" || fail "$*: expected '$want', got: $(cat "$tmp/err")"
}
expect_error "of SBUF per partition; Trainium2 has 224 KiB" --chip trainium2 --m 512 --n 512 --k 65536 --tile-k 65536 --tile-m 512 --tile-n 512
expect_error "of PSUM per partition" --chip trainium2 --m 128 --n 8192 --k 128 --tile-n 8192 --tile-m 128 --tile-k 128
expect_error "no native mxfp8" --chip trainium2 --dtype mxfp8
expect_error "unknown kernel 'conv'" --chip trainium2 --op conv
expect_error "kv_heads: must divide heads (32), got 5" --chip trainium2 --op attention --seq-q 1 --heads 32 --kv-heads 5 --no-causal
expect_error "applies to --op attention only" --chip trainium2 --op gemm --kv-heads 8
# GQA decode: the four query heads of each K/V head share its tiles, a quarter of the DMA time.
"$TRNSIM" kernel --chip trainium2 --op attention --seq-q 1 --seq-kv 4096 --heads 32 --no-causal --json > "$tmp/mha.json"
"$TRNSIM" kernel --chip trainium2 --op attention --seq-q 1 --seq-kv 4096 --heads 32 --kv-heads 8 --no-causal --json > "$tmp/gqa.json"
node -e 'const f = (p) => JSON.parse(require("fs").readFileSync(p, "utf8"));
  const m = f(process.argv[1]), g = f(process.argv[2]);
  if (!(g.busy_s.dma < 0.3 * m.busy_s.dma)) throw new Error(`GQA dma ${g.busy_s.dma} vs ${m.busy_s.dma}`);
  if (!g.shape.includes("kv_heads=8")) throw new Error(g.shape);' "$tmp/mha.json" "$tmp/gqa.json" || fail "GQA decode attention"
expect_error "applies to --op attention only" --chip trainium2 --op gemm --seq-q 128
expect_error "--chip: missing" --op gemm
expect_error "did you mean 'trainium3'" --chip traiunium3
echo ok
