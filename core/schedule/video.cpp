// The video schedule and its timeline (video.h).
#include "schedule/video.h"

#include <algorithm>
#include <map>

#include "common/format.h"

namespace trnsim::schedule {

using price::PricedOp;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string prefix_of(const std::string& name) { return name.substr(0, name.rfind('.')); }

// Occurrences of an operator inside one block of its kind (ring passes: r - 1 per block).
double per_block(const PricedOp& o, const plan::VideoPlan& P) {
  if (o.layer_type < 0) return o.count;
  const double blocks = P.block_counts[o.layer_type];
  return blocks > 0 ? o.count / blocks : 0;
}

// `factor` occurrences of an operator as one span.
PricedOp scaled(const PricedOp& o, double factor) {
  PricedOp r = o;
  r.count = 1;
  for (double* x : {&r.time_s, &r.compute_s, &r.memory_s, &r.fabric_s, &r.overhead_s, &r.flops, &r.hbm_bytes,
                    &r.fabric_bytes})
    *x *= factor;
  return r;
}

}  // namespace

void overlap_ring_attention(std::vector<PricedOp>& ops) {
  // The attention core of the same self-attention ("self_attn.core" for "self_attn.ring_kv").
  std::map<std::string, const PricedOp*> cores;
  for (const auto& o : ops)
    if (ends_with(o.name, ".core")) cores[prefix_of(o.name) + "|" + std::to_string(o.layer_type)] = &o;
  for (auto& o : ops) {
    if (!ends_with(o.name, ".ring_kv")) continue;
    auto it = cores.find(prefix_of(o.name) + "|" + std::to_string(o.layer_type));
    if (it == cores.end()) continue;
    const PricedOp& core = *it->second;
    // count = blocks x (r - 1) passes; the core runs once per block in r rounds.
    const double rounds = core.count > 0 ? o.count / core.count + 1 : 1;
    const double round_attention = core.time_s / rounds;
    const double exposed = std::max(0.0, o.time_s - round_attention);
    o.detail += ", " + fmt::time(o.time_s - exposed) + " of " + fmt::time(o.time_s) + " per pass hidden behind attention";
    o.fabric_s = exposed;
    o.time_s = exposed;
  }
}

double sum_total(const std::vector<PricedOp>& ops) {
  double t = 0;
  for (const auto& o : ops) t += o.total_s();
  return t;
}

VideoTimes video_times(const plan::VideoPlan& P, const std::vector<PricedOp>& text, const std::vector<PricedOp>& step,
                       const std::vector<PricedOp>& cached, const std::vector<PricedOp>& vae) {
  VideoTimes t;
  t.text_s = sum_total(text);
  t.step_s = sum_total(step);
  t.cached_step_s = sum_total(cached);
  t.vae_s = sum_total(vae);
  t.denoise_s = P.full_steps * t.step_s + P.cached_steps * t.cached_step_s;
  t.video_s = t.text_s + t.denoise_s + t.vae_s;
  t.duration_s = P.shape.duration_s;
  t.real_time_factor = t.duration_s > 0 ? t.video_s / t.duration_s : 0;
  return t;
}

Timeline video_timeline(const plan::VideoPlan& P, const VideoTimes& t, const std::vector<PricedOp>& text,
                        const std::vector<PricedOp>& step, const std::vector<PricedOp>& vae) {
  Timeline tl;
  const auto& pl = P.placement;
  tl.stage_names = {"replica 0: chips 0-" + std::to_string(pl.chips_per_replica() - 1) + " (tp " + std::to_string(pl.tp) +
                    " x Ulysses " + std::to_string(pl.ulysses) + " x ring " + std::to_string(pl.ring) + " x cfg " +
                    std::to_string(pl.cfg) + "), chip 0 shown"};
  double at = 0;
  for (const auto& o : text) at += emit_op(tl, 0, scaled(o, o.count), at, "text encoding");  // all layers as one span
  // The first step block by block, operator by operator.
  const auto& kinds = plan::video_block_kinds();
  bool blocks_done = false;
  for (const auto& o : step) {
    if (o.layer_type >= 0) continue;
    if (blocks_done || (o.name != "norm_out" && o.name != "norm_out_modulation")) {
      at += emit_op(tl, 0, o, at, "denoising step 1");
      continue;
    }
    // The blocks come between the embeddings and the output (its first operator).
    blocks_done = true;
    for (std::size_t kind = 0; kind < P.block_counts.size(); ++kind) {
      static const std::size_t order[4] = {3, 0, 1, 2};
      const std::size_t k = order[kind];
      for (int b = 0; b < static_cast<int>(P.block_counts[k]); ++b) {
        for (const auto& bo : step)
          if (bo.layer_type == static_cast<int>(k))
            at += emit_op(tl, 0, scaled(bo, per_block(bo, P)), at, "denoising step 1, " + kinds[k] + " block " + std::to_string(b));
      }
    }
    at += emit_op(tl, 0, o, at, "denoising step 1");
  }
  // The other steps as one span each (full or cached).
  for (int i = 1; i < P.full_steps + P.cached_steps; ++i) {
    const bool full = i % P.cache_interval == 0;
    Span s;
    s.lane = Lane::compute;
    s.name = std::string(full ? "denoising step " : "cached step ") + std::to_string(i + 1);
    s.phase = "denoise";
    s.start_s = at;
    s.dur_s = full ? t.step_s : t.cached_step_s;
    add_span(tl, s);
    at += s.dur_s;
  }
  for (const auto& o : vae) at += emit_op(tl, 0, scaled(o, o.count), at, "VAE decode");
  tl.end_s = t.video_s;
  tl.note = "One clip on replica 0: the text encoding, the first denoising step block by block, the other steps as "
            "one span each, and the VAE decode.";
  return tl;
}

}  // namespace trnsim::schedule
