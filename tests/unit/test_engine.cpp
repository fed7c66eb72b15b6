// The NeuronCore engine-level model: in-order engines with dependencies, capacity
// checks, and agreement with the roofline where the roofline's assumptions hold
// (large tiles, enough buffering to overlap DMA with compute).
#include <catch2/catch.hpp>

#include <functional>

#include "engine/engine.h"
#include "hw/system.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_engine {

using test_support::contains;
using test_support::error_of;
using trnsim::InputError;
using namespace trnsim::engine;

namespace {
GemmShape gemm_shape(long m, long n, long k, const std::string& dt) {
  GemmShape g;
  g.m = m, g.n = n, g.k = k, g.dtype = dt;
  return g;
}
}  // namespace

TEST_CASE("the scheduler runs engines in parallel, each in order, after dependencies") {
  Program p;
  Instruction a;
  a.unit = kDma, a.busy_s = 2, a.queue = 0;
  int load = p.add(a);
  Instruction mm;
  mm.unit = kTensor, mm.busy_s = 3, mm.deps = {load};
  int m1 = p.add(mm);
  Instruction v;
  v.unit = kVector, v.busy_s = 1;  // independent: runs at once
  p.add(v);
  Instruction v2;
  v2.unit = kVector, v2.busy_s = 1, v2.deps = {m1};
  p.add(v2);
  Schedule s = simulate(p, 16);
  CHECK(s.end_s[1] == 5);
  CHECK(s.end_s[2] == 1);
  CHECK(s.end_s[3] == 6);
  CHECK(s.time_s == 6);
  CHECK(s.busy_s[kVector] == 2);
}

TEST_CASE("GEMM agrees with the roofline where its assumptions hold") {
  auto t2 = trnsim::hw::load_chip("trainium2"), t3 = trnsim::hw::load_chip("trainium3");
  struct Case {
    const trnsim::hw::Chip* chip;
    GemmShape shape;
    const char* bottleneck;
    double tolerance;
  };
  const Case cases[] = {
      {&t2, gemm_shape(4096, 4096, 4096, "bf16"), "tensor", 0.05},
      {&t2, gemm_shape(4096, 4096, 4096, "fp8"), "tensor", 0.08},
      {&t3, gemm_shape(4096, 4096, 4096, "bf16"), "tensor", 0.05},
      {&t3, gemm_shape(4096, 4096, 4096, "mxfp8"), "tensor", 0.10},
      {&t2, gemm_shape(128, 8192, 8192, "bf16"), "dma", 0.05},  // memory-bound (decode-like)
      {&t3, gemm_shape(128, 8192, 8192, "bf16"), "dma", 0.08},
  };
  for (const auto& c : cases) {
    KernelReport r = gemm(*c.chip, c.shape);
    INFO(c.chip->name << " " << c.shape.dtype << " " << r.shape << " " << r.tiling);
    CHECK(r.bottleneck == c.bottleneck);
    CHECK(r.time_s >= r.roofline.time_s * 0.999);  // never faster than the roofline
    CHECK(r.time_s == Approx(r.roofline.time_s).epsilon(c.tolerance));
    CHECK(r.flops == Approx(2.0 * c.shape.m * c.shape.n * c.shape.k));
  }
}

TEST_CASE("tensor-engine time follows the ISA cost rules") {
  auto t3 = trnsim::hw::load_chip("trainium3");
  // Full tiles: every matmul has N = 512 moving columns, so the tensor engine's busy time
  // is exactly the FLOPs at the PE array's peak (128x128 x 2 x 2.4 GHz x rate).
  KernelReport bf = gemm(t3, gemm_shape(2048, 2048, 2048, "bf16"));
  CHECK(bf.busy_s[kTensor] == Approx(bf.flops / t3.neuroncore->core.tensor.peak_flops("bf16")).epsilon(1e-9));
  KernelReport mx = gemm(t3, gemm_shape(2048, 2048, 2048, "mxfp8"));
  CHECK(bf.busy_s[kTensor] / mx.busy_s[kTensor] == Approx(4.0).epsilon(1e-9));  // MX: 4x BF16 (S10)
  KernelReport f32 = gemm(t3, gemm_shape(2048, 2048, 2048, "fp32"));
  CHECK(f32.busy_s[kTensor] / bf.busy_s[kTensor] == Approx(4.0).epsilon(1e-9));  // FP32 ~4x slower
  // Short moving tiles pay the 64-cycle minimum initiation interval.
  KernelReport thin = gemm(t3, gemm_shape(2048, 16, 2048, "bf16"));
  CHECK(thin.busy_s[kTensor] == Approx(thin.flops / t3.neuroncore->core.tensor.peak_flops("bf16") * 4).epsilon(1e-9));
  // MX with quantisation on the vector engine keeps the vector engine busy too.
  CHECK(mx.busy_s[kVector] > bf.busy_s[kVector]);
}

TEST_CASE("attention uses every engine and reports a bottleneck") {
  AttentionShape a;
  KernelReport r = attention(trnsim::hw::load_chip("trainium3"), a);
  for (int u = 0; u < kUnits; ++u) CHECK(r.busy_s[u] > 0);
  CHECK(r.time_s < r.busy_s[kTensor] + r.busy_s[kVector] + r.busy_s[kScalar] + r.busy_s[kGpsimd] + r.busy_s[kDma]);
  double max_busy = 0;
  for (int u = 0; u < kUnits; ++u) max_busy = std::max(max_busy, r.busy_s[u]);
  CHECK(r.time_s >= max_busy);
  // Causal attention does about half the work of full attention.
  AttentionShape full = a;
  full.causal = false;
  KernelReport f = attention(trnsim::hw::load_chip("trainium3"), full);
  CHECK(r.flops / f.flops == Approx(0.5).epsilon(0.15));
  CHECK(f.flops == Approx(4.0 * 2048 * 2048 * 128));
}

TEST_CASE("attention beyond 128 head dimensions contracts in passes (MLA)") {
  auto t2 = trnsim::hw::load_chip("trainium2");
  AttentionShape base;
  base.seq_q = base.seq_kv = 1024;
  KernelReport r128 = attention(t2, base);
  // MLA prefill: QK^T over 192 (two passes of 128 rows), P V over 128 columns; the useful
  // FLOPs are 2 x pairs x (192 + 128), and two passes cost the tensor engine more than one.
  AttentionShape mla = base;
  mla.head_dim = 192, mla.value_dim = 128;
  KernelReport p = attention(t2, mla);
  CHECK(p.flops / r128.flops == Approx((192.0 + 128) / (128 + 128)).epsilon(1e-9));
  CHECK(p.busy_s[kTensor] > r128.busy_s[kTensor]);
  CHECK(p.busy_s[kDma] > r128.busy_s[kDma]);  // K is 1.5x wider
  CHECK(contains(p.shape, "head_dim=192 value_dim=128"));
  // Absorbed MLA decode: one query against the latent cache, 576 contracted, 512 out.
  AttentionShape dec;
  dec.seq_q = 1, dec.seq_kv = 4096, dec.head_dim = 576, dec.value_dim = 512, dec.causal = false;
  KernelReport d = attention(t2, dec);
  CHECK(d.flops == Approx(2.0 * 4096 * (576 + 512)));
  CHECK(d.sbuf_bytes_per_partition <= d.sbuf_capacity_per_partition);
  // Value columns default to the head dimension.
  AttentionShape same = base;
  same.value_dim = 128;
  CHECK(attention(t2, same).time_s == r128.time_s);
}

TEST_CASE("decode attention: the query heads sharing a K/V head share its tiles (GQA, attention_tkg)") {
  auto t2 = trnsim::hw::load_chip("trainium2");
  // Eight sequences of four query heads on one K/V head each (Llama-3.1-8B's group on a rank),
  // one new token against 4096 cached.
  AttentionShape mha;
  mha.seq_q = 1, mha.seq_kv = 4096, mha.heads = 32, mha.causal = false;
  AttentionShape gqa = mha;
  gqa.kv_heads = 8;
  const KernelReport m = attention(t2, mha), g = attention(t2, gqa);
  // Same useful work; K and V read once per K/V head instead of once per query head.
  CHECK(g.flops == Approx(m.flops).epsilon(1e-12));
  CHECK(g.hbm_bytes / m.hbm_bytes == Approx(0.25).epsilon(0.01));
  CHECK(g.time_s < m.time_s / 3);
  // It is the shape of kv_heads heads with the group's queries as rows of one tile.
  AttentionShape rows = mha;
  rows.heads = 8, rows.seq_q = 4;
  CHECK(attention(t2, rows).time_s == Approx(g.time_s).epsilon(1e-12));
  CHECK(contains(g.shape, "heads=32 seq_q=1 seq_kv=4096 head_dim=128 kv_heads=8"));
  // Causal prefill keeps one query tile per head: kv_heads changes nothing there.
  AttentionShape pre;
  pre.seq_q = pre.seq_kv = 1024, pre.heads = 4;
  AttentionShape pre_gqa = pre;
  pre_gqa.kv_heads = 1;
  CHECK(attention(t2, pre_gqa).time_s == attention(t2, pre).time_s);
  AttentionShape bad = gqa;
  bad.kv_heads = 5;
  CHECK(contains(error_of([&] { attention(t2, bad); }), "kv_heads: must divide heads (32), got 5"));
}

TEST_CASE("decomposed attention: QK^T, softmax and PV as kernels one after another, scores through HBM") {
  // Wan2.1's 4,680 tokens (not a multiple of 512: torch-neuronx SDPA does not take its flash
  // kernel), one head, a short query slice to keep the test fast.
  AttentionShape a;
  a.seq_q = 512, a.seq_kv = 4680, a.heads = 2, a.causal = false, a.decomposed = true;
  for (const char* c : {"trainium2", "trainium3"}) {
    auto chip = trnsim::hw::load_chip(c);
    KernelReport d = attention(chip, a);
    KernelReport qk = gemm(chip, gemm_shape(512, 4680, 128, "bf16"));
    KernelReport pv = gemm(chip, gemm_shape(512, 128, 4680, "bf16"));
    // The GEMMs run whole per head; the softmax reads S once and writes P once (BF16).
    const double scores = 512.0 * 4680;
    CHECK(d.hbm_bytes == Approx(2 * (qk.hbm_bytes + pv.hbm_bytes) + 2 * 2 * scores * 2));
    CHECK(d.flops == Approx(2 * (qk.flops + pv.flops)));
    CHECK(d.time_s > 2 * (qk.time_s + pv.time_s));
    // The softmax moves 4 bytes a score at least, at the core's share of HBM / DMA.
    const auto& nc = chip.neuron("test");
    const double core_bw = std::min(chip.hbm_bandwidth_bytes_per_s, nc.dma_bandwidth_bytes_per_s) / nc.cores;
    CHECK(d.time_s - 2 * (qk.time_s + pv.time_s) >= 2 * 4 * scores / core_bw * 0.999);
    CHECK(contains(d.shape, "decomposed"));
  }
  // The same shape, flash kernel against decomposed: Trainium3's HBM and softmax engines
  // shorten the decomposed path more than the flash kernel (row 17's mechanism).
  auto t2 = trnsim::hw::load_chip("trainium2"), t3 = trnsim::hw::load_chip("trainium3");
  AttentionShape f = a;
  f.decomposed = false;
  const double flash_ratio = attention(t2, f).time_s / attention(t3, f).time_s;
  const double decomposed_ratio = attention(t2, a).time_s / attention(t3, a).time_s;
  CHECK(decomposed_ratio > flash_ratio + 0.1);
  AttentionShape causal = a;
  causal.causal = true;
  CHECK(contains(error_of([&] { attention(t2, causal); }), "decomposed: the decomposed attention path is modelled for full"));
  // Rows longer than SBUF holds: the softmax reads S three times (max, exp-sum, normalise).
  AttentionShape wide = a;
  wide.seq_q = 128, wide.heads = 1, wide.seq_kv = 60000;
  KernelReport w = attention(t2, wide);
  KernelReport wqk = gemm(t2, gemm_shape(128, 60000, 128, "bf16"));
  KernelReport wpv = gemm(t2, gemm_shape(128, 128, 60000, "bf16"));
  CHECK(w.hbm_bytes == Approx(wqk.hbm_bytes + wpv.hbm_bytes + 4 * 128.0 * 60000 * 2));
}

TEST_CASE("capacity and support errors are clear") {
  auto t2 = trnsim::hw::load_chip("trainium2");
  GemmShape g = gemm_shape(4096, 4096, 65536, "bf16");
  g.tile_k = 65536, g.tile_m = 512, g.tile_n = 512;
  CHECK(contains(error_of([&] { gemm(t2, g); }), "of SBUF per partition; Trainium2 has 224 KiB (28 MiB / 128 partitions)"));
  GemmShape p = gemm_shape(4096, 8192, 128, "bf16");
  p.tile_n = 8192, p.tile_m = 128, p.tile_k = 128;
  CHECK(contains(error_of([&] { gemm(t2, p); }), "of PSUM per partition; Trainium2 has 16 KiB (8 banks)"));
  CHECK(contains(error_of([&] { gemm(t2, gemm_shape(128, 128, 128, "mxfp8")); }), "Trainium2's tensor engine has no native mxfp8"));
  CHECK(contains(error_of([&] { gemm(t2, gemm_shape(0, 128, 128, "bf16")); }), "m: must be between 1"));
  AttentionShape a;
  a.head_dim = 8192;
  CHECK(contains(error_of([&] { attention(t2, a); }), "head_dim: must be between 1 and 4096"));
  a.head_dim = 128, a.value_dim = -1;
  CHECK(contains(error_of([&] { attention(t2, a); }), "value_dim: must be between 1 and 4096"));
  // A huge contraction still runs with default tiles (the K dimension is blocked).
  KernelReport big = gemm(t2, gemm_shape(512, 512, 262144, "bf16"));
  CHECK(contains(big.tiling, "tile_k="));
  CHECK(big.sbuf_bytes_per_partition <= big.sbuf_capacity_per_partition);
}

}  // namespace unit_engine
