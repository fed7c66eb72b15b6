// Derived checks, video (kind video): a denoising step's sequence-parallel operators and the
// clip's time composition derived from the bundled diffusers config and the placement:
//  - the attention sequence S = latent frames / patch_t x (H / 8 / patch_h) x (W / 8 / patch_w)
//    (AutoencoderKLWan: 4x temporal, 8x spatial compression);
//  - Ulysses (u) and ring (r) sequence parallelism over sp = u r chips: q, k, v all-to-all of
//    3 b (S / sp) d activations among the u chips, the output's of b (S / sp) d; each chip
//    attends its S / r queries to all S keys with its heads / u heads (4 b pairs heads
//    head_dim FLOPs); r - 1 ring passes per self-attention of the chip's key/value block,
//    2 b (S / r) (d / u), each hidden behind one round of the attention (1 / r of its time):
//    exposed max(0, pass - attention / r);
//  - the clip: text encoding + full steps x step + cached steps x cached step + VAE decode,
//    full steps = ceil(steps / interval), each phase the sum of its operators;
//  - the denoiser's matmuls and attention priced at the calibrated denoiser efficiency (the
//    field table's default), every kernel from cold (the tensor engine's ramp);
//  - video seconds per chip-hour = clip duration / (clip time x the replica's chips) x 3600.
// Time linear in the steps is test_video.cpp's.
#include <catch2/catch.hpp>

#include <cmath>

#include "collective/collective.h"
#include "embedded.h"
#include "hw/system.h"
#include "scenario/scenario.h"
#include "workload/workload.h"
#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_video {

using trnsim::json;

namespace {

const trnsim::workload::Phase& phase(const trnsim::workload::Result& r, const std::string& name) {
  for (const auto& p : r.phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return r.phases.front();
}

const trnsim::price::PricedOp& op(const trnsim::workload::Phase& ph, const std::string& name, int layer_type = -2) {
  const trnsim::price::PricedOp* found = nullptr;
  int n = 0;
  for (const auto& o : ph.ops)
    if (o.name == name && (layer_type == -2 || o.layer_type == layer_type)) found = &o, ++n;
  if (n != 1) FAIL(n << " operators named " << name << " in " << ph.name);
  return *found;
}

double phase_sum(const trnsim::workload::Phase& ph) {
  double t = 0;
  for (const auto& o : ph.ops) t += o.count * o.time_s;
  return t;
}

using derived::exact;

}  // namespace

TEST_CASE("video: sequence-parallel attention's exchanges, FLOPs and the ring overlap, derived", "[derived]") {
  const json cfg = json::parse(*trnsim::find_embedded("examples/models/video/Wan2.1-T2V-14B.json")).at("transformer");
  const double H = cfg.at("num_attention_heads"), hd = cfg.at("attention_head_dim"), d = H * hd;
  const double blocks = cfg.at("num_layers");
  const auto& patch = cfg.at("patch_size");
  const double W = 1280, Hpx = 720, F = 81;
  const double S = ((F - 1) / 4 + 1) / patch[0].get<double>() * (Hpx / 8 / patch[1].get<double>()) * (W / 8 / patch[2].get<double>());
  const trnsim::hw::System sys = trnsim::hw::load_system("trn3-gen2-ultraserver");
  for (auto [u, r] : {std::pair<double, double>{4, 1}, {1, 4}, {2, 2}}) {
    INFO("ulysses " << u << " ring " << r);
    json w = {{"kind", "video"},
              {"model", "Wan2.1-T2V-14B"},
              {"video", {{"width", W}, {"height", Hpx}, {"frames", F}, {"ulysses", u}, {"ring", r}}}};
    const auto res = trnsim::workload::evaluate(trnsim::parse_workload(w), sys);
    REQUIRE(res.video().video_tokens == S);
    REQUIRE(res.video().guidance == "cfg");  // two branches (conditional, unconditional) on each chip
    const double b = 2, ab = 2, sp = u * r;  // BF16 activations
    const auto& step = phase(res, "denoising_step");
    const auto& core = op(step, "self_attn.core");
    CHECK(core.count == blocks);
    CHECK(core.flops == exact(4 * b * (S / r) * S * (H / u) * hd));
    if (u > 1) {
      const auto& qkv = op(step, "self_attn.ulysses_qkv");
      CHECK(qkv.collective.op == "all-to-all");
      CHECK(qkv.collective.ranks == u);
      CHECK(qkv.collective.bytes == exact(3 * b * (S / sp) * d * ab));
      CHECK(qkv.time_s == exact(trnsim::collective::run(sys, qkv.collective).time_s));
      CHECK(op(step, "self_attn.ulysses_out").collective.bytes == exact(b * (S / sp) * d * ab));
    } else {
      for (const auto& o : step.ops) CHECK(o.name.find("ulysses") == std::string::npos);
    }
    if (r > 1) {
      const auto& ring = op(step, "self_attn.ring_kv");
      CHECK(ring.collective.op == "permute");
      CHECK(ring.collective.ranks == r);
      CHECK(ring.collective.stride == u);  // ring peers u chips apart (tp 1)
      CHECK(ring.collective.bytes == exact(2 * b * (S / r) * (d / u) * ab));
      CHECK(ring.count == blocks * (r - 1));
      const double pass = trnsim::collective::run(sys, ring.collective).time_s;
      CHECK(ring.time_s == exact(std::max(0.0, pass - core.time_s / r)));
    }
  }
}

TEST_CASE("video: the clip is text + full steps x step + cached steps x cached step + decode", "[derived]") {
  const trnsim::hw::System sys = trnsim::hw::load_system("trn2-48xlarge");
  for (int interval : {1, 3, 7}) {
    for (int steps : {20, 50}) {
      INFO("steps " << steps << " every " << interval);
      json w = {{"kind", "video"},
                {"model", "Wan2.1-T2V-1.3B"},
                {"video", {{"steps", steps}, {"step_cache_interval", interval}, {"width", 832}, {"height", 480}}}};
      const auto r = trnsim::workload::evaluate(trnsim::parse_workload(w), sys);
      const int full = (steps + interval - 1) / interval;
      CHECK(r.video().full_steps == full);
      CHECK(r.video().cached_steps == steps - full);
      const double text = phase_sum(phase(r, "text_encoding")), step = phase_sum(phase(r, "denoising_step"));
      const double vae = phase_sum(phase(r, "vae_decode"));
      const double cached = interval > 1 ? phase_sum(phase(r, "cached_step")) : 0;
      CHECK(r.video().text_s == exact(text));
      CHECK(r.video().step_s == exact(step));
      CHECK(r.video().vae_s == exact(vae));
      CHECK(r.video().cached_step_s == exact(cached));
      if (interval > 1) CHECK(cached < step);
      CHECK(r.video().denoise_s == exact(full * step + (steps - full) * cached));
      CHECK(r.video().video_s == exact(text + full * step + (steps - full) * cached + vae));
      CHECK(r.video().real_time_factor == exact(r.video().video_s / (81 / 16.0)));
    }
  }
}

TEST_CASE("video: the denoiser priced at its own efficiency; chip-hours count the replica's chips", "[derived]") {
  const trnsim::hw::System sys = trnsim::hw::load_system("trn3-gen2-ultraserver");
  json w = {{"kind", "video"},
            {"model", "Wan2.1-T2V-14B"},
            {"video", {{"width", 832}, {"height", 480}, {"ulysses", 2}, {"cfg_parallel", true}}}};
  const auto r = trnsim::workload::evaluate(trnsim::parse_workload(w), sys);
  const double eff = derived::field_default("workload.video.denoiser_efficiency");
  const double overhead = derived::field_default("workload.efficiency.kernel_overhead_s");
  int priced = 0;
  for (const auto& o : phase(r, "denoising_step").ops) {
    if (o.flops <= 0 || o.category == trnsim::price::Category::fabric) continue;
    INFO(o.name);
    const double kernels = std::max(1.0, o.overhead_s / overhead);
    const std::string dtype = o.detail.substr(0, o.detail.find(' '));  // "bf16 matmul", "bf16 attention"
    const double full = o.flops / (sys.chip.peak(dtype) * eff);
    CHECK(o.compute_s == exact(kernels * derived::warmed(sys.chip.neuroncore->core.tensor, full / kernels)));
    ++priced;
  }
  CHECK(priced > 5);
  REQUIRE(r.video().chips_per_replica == 2 * 2);  // Ulysses 2 x the two guidance branches
  CHECK(r.video().video_seconds_per_chip_hour == exact(r.video().duration_s / (r.video().video_s * 4) * 3600));
}

}  // namespace unit_derived_video
