// Kind video: one clip planned, priced and scheduled (video.h), the real-time figures and the
// real-time factor against the number of sequence-parallel chips.
#include "workload/video.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/format.h"
#include "plan/video.h"
#include "schedule/video.h"
#include "workload/evaluate_parts.h"

namespace trnsim::workload::detail {

namespace {

using price::PricedOp;

const char* family_name(model::DitFamily f) {
  switch (f) {
    case model::DitFamily::wan: return "wan";
    case model::DitFamily::hunyuan_video: return "hunyuan_video";
    case model::DitFamily::flux: return "flux";
    default: return "qwen_image";
  }
}

int domain_of(const hw::System& sys) { return sys.chips_per_domain > 0 ? sys.chips_per_domain : sys.chips; }

plan::VideoPlacement placement_of(const Spec& s) {
  plan::VideoPlacement pl;
  pl.tp = s.parallelism.tp;
  pl.dp = s.parallelism.dp;
  pl.ulysses = s.video.ulysses;
  pl.ring = s.video.ring;
  pl.cfg = s.video.cfg_parallel ? 2 : 1;
  return pl;
}

plan::VideoSizes sizes_of(const VideoParams& v) {
  plan::VideoSizes z;
  z.width = v.width, z.height = v.height, z.frames = v.frames, z.fps = v.fps, z.steps = v.steps;
  z.guidance = v.guidance == "cfg";
  z.prompt_tokens = v.prompt_tokens;
  z.cache_interval = v.step_cache_interval;
  z.vae_tile = v.vae_tile;
  z.vae_parallel = v.vae_parallel;
  z.batch = v.batch;
  return z;
}

void check_video_placement(const model::VideoModelConfig& m, const Spec& s, const hw::System& sys) {
  const std::string P = "workload.parallelism.", V = "workload.video.";
  const Parallelism& p = s.parallelism;
  const int heads = m.transformer.heads;
  if (p.pp != 1)
    throw InputError(P + "pp", "must be 1 for video generation (the denoiser is split with tp, ulysses and ring), got " +
                                   std::to_string(p.pp));
  if (p.ep != 1) throw InputError(P + "ep", "must be 1 for video generation (the denoisers are dense), got " + std::to_string(p.ep));
  if (heads % p.tp != 0)
    throw InputError(P + "tp", "must divide the model's " + std::to_string(heads) + " attention heads, got " + std::to_string(p.tp));
  const int domain = domain_of(sys);
  if (p.tp > domain || domain % p.tp != 0)
    throw InputError(P + "tp", "a tensor-parallel group must fit in (and divide) one scale-up domain of " +
                                   std::to_string(domain) + " chips on " + sys.display_name + ", got " + std::to_string(p.tp));
  if ((heads / p.tp) % s.video.ulysses != 0)
    throw InputError(V + "ulysses", "must divide the " + std::to_string(heads / p.tp) +
                                        " heads per tensor-parallel rank (Ulysses hands each chip whole heads), got " +
                                        std::to_string(s.video.ulysses) + "; use ring for more sequence parallelism");
  if (s.video.cfg_parallel && s.video.guidance != "cfg")
    throw InputError(V + "cfg_parallel", "needs workload.video.guidance \"cfg\" (there is one branch without guidance)");
  if (s.video.vae_parallel && s.video.vae_tile == 0)
    throw InputError(V + "vae_parallel", "needs workload.video.vae_tile > 0: whole frames decode on one chip");
  const long long chips = static_cast<long long>(placement_of(s).chips_per_replica()) * p.dp;
  if (chips > sys.chips)
    throw InputError(P + "dp", "tp x ulysses x ring x cfg x dp = " + std::to_string(chips) + " chips, but " +
                                   sys.display_name + " has " + std::to_string(sys.chips));
}

// The plan priced and scheduled for one placement.
struct PricedVideo {
  plan::VideoPlan plan;
  std::vector<PricedOp> text, step, cached, vae;
  schedule::VideoTimes times;
};

// One pricer per part: the text encoders at the scenario's efficiencies, the denoiser and
// the decoder at their own (calibrated) ones.
struct Pricers {
  std::unique_ptr<price::Pricer> text, denoiser, decoder;
};

Pricers make_pricers(const Spec& s, const hw::System& system) {
  auto with = [&](double eff) {
    price::Settings p = pricing_settings(s.efficiency);
    p.compute_efficiency = p.attention_efficiency = eff;
    return price::make_pricer(s.pricer, system, p);
  };
  return {price::make_pricer(s.pricer, system, pricing_settings(s.efficiency)), with(s.video.denoiser_efficiency),
          with(s.video.decoder_efficiency)};
}

PricedVideo price_video(const model::VideoModelConfig& m, const plan::Dtypes& dt, const Pricers& pr,
                        const plan::VideoPlacement& pl, const plan::VideoSizes& z) {
  PricedVideo v;
  v.plan = plan::plan_video(m, dt, pl, z);
  v.text = pr.text->price_all(v.plan.text);
  v.step = pr.denoiser->price_all(v.plan.step);
  schedule::overlap_ring_attention(v.step);
  v.cached = pr.denoiser->price_all(v.plan.cached_step);
  schedule::overlap_ring_attention(v.cached);
  v.vae = pr.decoder->price_all(v.plan.vae);
  v.times = schedule::video_times(v.plan, v.text, v.step, v.cached, v.vae);
  return v;
}

double fabric_share(const std::vector<PricedOp>& ops) {
  const Phase step = make_phase("", "", ops);
  return step.split.shares_of(step.time_s).fabric;
}

// The largest Ulysses degree that divides both the sequence-parallel degree and the heads
// per tensor-parallel rank; the rest is ring.
int ulysses_for(int sp, int heads_per_rank) {
  int u = 1;
  for (int k = 1; k <= sp; ++k)
    if (sp % k == 0 && heads_per_rank % k == 0) u = k;
  return u;
}

// The clip at sequence-parallel degrees 1, 2, 4, ... up to the scale-up domain (tp and cfg
// as given): the curve of the real-time factor against the chips of one replica.
std::vector<VideoScalingPoint> scaling_curve(const model::VideoModelConfig& m, const plan::Dtypes& dt,
                                             const Pricers& pricer, plan::VideoPlacement pl,
                                             const plan::VideoSizes& z, int domain) {
  std::vector<VideoScalingPoint> curve;
  const int heads_per_rank = m.transformer.heads / pl.tp;
  for (int sp = 1; pl.tp * pl.cfg * sp <= domain; sp *= 2) {
    pl.ulysses = ulysses_for(sp, heads_per_rank);
    pl.ring = sp / pl.ulysses;
    pl.dp = 1;
    const PricedVideo v = price_video(m, dt, pricer, pl, z);
    VideoScalingPoint pt;
    pt.chips = pl.chips_per_replica();
    pt.ulysses = pl.ulysses;
    pt.ring = pl.ring;
    pt.step_s = v.times.step_s;
    pt.video_s = v.times.video_s;
    pt.real_time_factor = v.times.real_time_factor;
    pt.fabric_share = fabric_share(v.step);
    curve.push_back(pt);
  }
  return curve;
}

std::string encoders_text(const model::VideoModelConfig& m, std::vector<std::string>& out) {
  std::string all;
  for (const auto& e : m.text_encoders) {
    out.push_back(e.model_type + " (" + std::to_string(e.layers) + " layers, " + fmt::params(e.params) + ")");
    all += (all.empty() ? "" : " + ") + e.model_type;
  }
  return all;
}

void fill_phases(const PricedVideo& v, const model::VideoModelConfig& m, Result& R) {
  const VideoResult& x = R.video();
  const std::string per = x.image ? (x.batch > 1 ? "once per batch" : "once per image") : "once per clip";
  std::vector<std::string> names;
  const std::string enc = encoders_text(m, names);
  R.phases.push_back(make_phase("text_encoding",
                                "the prompt" + std::string(v.plan.batch / v.plan.samples > 1 ? " and the negative prompt" : "") + " (" +
                                    fmt::number(x.text_tokens) + " tokens) through " + enc + ", " + per,
                                v.text));
  R.phases.push_back(make_phase("denoising_step",
                                "one denoising step: " + fmt::number(v.plan.batch) + " x " + fmt::number(x.video_tokens) +
                                    (x.image ? " image tokens" : " video tokens") + " through " + std::to_string(x.blocks) + " blocks on " +
                                    std::to_string(x.chips_per_replica) + " chips, chip 0",
                                v.step));
  if (!v.cached.empty())
    R.phases.push_back(make_phase("cached_step", "one cached step (first block only, the rest's residual reused)", v.cached));
  R.phases.push_back(make_phase("vae_decode",
                                "the VAE decode of " +
                                    (x.image ? std::to_string(x.batch) + (x.batch > 1 ? " images (" : " image (")
                                             : std::to_string(x.frames) + " frames (") +
                                    std::to_string(x.vae_tiles) +
                                    " tile" + (x.vae_tiles > 1 ? "s" : "") + " on " + std::to_string(x.vae_chips) + " chip" +
                                    (x.vae_chips > 1 ? "s" : "") + ")",
                                v.vae));
  std::vector<std::pair<const Phase*, double>> w = {{&R.phases[0], 1}, {&R.phases[1], double(v.plan.full_steps)}};
  if (!v.cached.empty()) w.push_back({&R.phases[2], double(v.plan.cached_steps)});
  w.push_back({&R.phases.back(), 1});
  finish_shares(R, w);
}

void fill_clip(const Spec& s, const model::VideoModelConfig& m, const PricedVideo& v, Result& R) {
  VideoResult& x = R.video();
  const auto& sh = v.plan.shape;
  const auto& pl = v.plan.placement;
  x.width = s.video.width, x.height = s.video.height, x.frames = s.video.frames, x.fps = s.video.fps;
  x.duration_s = sh.duration_s;
  x.steps = s.video.steps, x.full_steps = v.plan.full_steps, x.cached_steps = v.plan.cached_steps;
  x.guidance = s.video.guidance;
  x.latent_frames = sh.latent_frames, x.latent_h = sh.latent_h, x.latent_w = sh.latent_w;
  x.video_tokens = sh.video_tokens, x.text_tokens = sh.text_tokens;
  x.transformer_class = m.transformer.class_name, x.vae_class = m.vae.class_name, x.pipeline_class = m.pipeline_class;
  encoders_text(m, x.text_encoders);
  x.params = model::count_video_parameters(m);
  x.blocks = m.transformer.blocks(), x.hidden = m.transformer.hidden, x.heads = m.transformer.heads;
  x.ffn = m.transformer.ffn;
  x.tp = pl.tp, x.ulysses = pl.ulysses, x.ring = pl.ring, x.cfg = pl.cfg, x.replicas = pl.dp;
  x.chips_per_replica = pl.chips_per_replica();
  x.batch_per_chip = v.plan.batch;
  x.vae_tiles = v.plan.tiling.tiles(), x.vae_chips = v.plan.vae_chips;
  x.image = m.transformer.image();
  x.batch = s.video.batch;
}

void fill_times(const PricedVideo& v, Result& R) {
  VideoResult& x = R.video();
  const auto& t = v.times;
  x.text_s = t.text_s, x.step_s = t.step_s, x.cached_step_s = t.cached_step_s, x.denoise_s = t.denoise_s;
  x.vae_s = t.vae_s, x.video_s = t.video_s, x.real_time_factor = t.real_time_factor;
  x.step_flops_per_chip = v.plan.step_flops;
  x.attention_flops_share = v.plan.step_flops > 0 ? v.plan.step_attention_flops / v.plan.step_flops : 0;
  double attention_s = 0;
  for (const auto& o : v.step)
    if (o.detail.find("attention") != std::string::npos && o.category != price::Category::fabric) attention_s += o.total_s();
  x.attention_time_share = t.step_s > 0 ? attention_s / t.step_s : 0;
  x.replicas_for_real_time = static_cast<int>(std::ceil(t.real_time_factor - 1e-12));
  x.chips_for_real_time = x.replicas_for_real_time * x.chips_per_replica;
}

void fill_real_time(Result& R) {
  VideoResult& x = R.video();
  for (const auto& p : x.scaling)
    if (p.real_time_factor <= 1.0 && (x.fewest_chips_real_time_clip == 0 || p.chips < x.fewest_chips_real_time_clip))
      x.fewest_chips_real_time_clip = p.chips;
  const double chip_s = x.video_s * x.chips_per_replica;  // chip-seconds per clip
  x.video_seconds_per_chip_hour = chip_s > 0 ? x.duration_s / chip_s * 3600.0 : 0;
  x.usd_per_video_minute = x.duration_s > 0 ? R.price_per_chip_hour_usd * chip_s / 3600.0 / (x.duration_s / 60.0) : 0;
  // Images: every pass makes `batch` of them on one replica's chips.
  x.image_s = x.video_s / x.batch;
  x.images_per_chip_hour = chip_s > 0 ? 3600.0 * x.batch / chip_s : 0;
  x.usd_per_thousand_images = R.price_per_chip_hour_usd * chip_s / 3600.0 / x.batch * 1000.0;
}

// HBM per chip; a decode that does not fit whole frames names the tile field.
void hold_video_memory(const Evaluation& ev, const plan::VideoPlan& P, Result& R) {
  double used = ev.spec.efficiency.hbm_reserve_fraction * ev.system.chip.hbm_capacity_bytes;
  for (const auto& m : P.memory) used += m.bytes;
  if (used > ev.system.chip.hbm_capacity_bytes && ev.spec.video.vae_tile == 0 && P.tiling.tiles() == 1)
    throw InputError("workload.video.vae_tile",
                     "the decode of whole " + std::to_string(ev.spec.video.width) + "x" +
                         std::to_string(ev.spec.video.height) + " frames does not fit " + ev.system.chip.display_name +
                         "'s HBM with the rest (" + fmt::gib(used) + " of " + fmt::gib(ev.system.chip.hbm_capacity_bytes) +
                         "); decode in tiles (e.g. 256) or spread the model with tp");
  hold_memory(ev, P.memory, R);
}

// The video efficiencies beside the scenario's (which the text encoders use).
void add_video_assumptions(const Spec& s, Result& R) {
  R.assumptions.push_back({"video.denoiser_efficiency", s.video.denoiser_efficiency, "of peak",
                           source_of("video.denoiser_efficiency", s.video.denoiser_efficiency, "")});
  R.assumptions.push_back({"video.decoder_efficiency", s.video.decoder_efficiency, "of peak",
                           source_of("video.decoder_efficiency", s.video.decoder_efficiency, "")});
}

}  // namespace

Result evaluate_video(const Spec& spec, const hw::System& system) {
  const std::shared_ptr<const model::VideoModelConfig> model = spec_video_model(spec);
  const model::VideoModelConfig& m = *model;
  Result R;
  R.spec = spec;
  VideoResult& x = R.figures.emplace<VideoResult>();
  describe_system_into(system, R);
  x.model_name = m.name;
  x.model_type = family_name(m.transformer.family);
  x.ignored_fields = m.ignored_fields;
  R.warnings = m.warnings;
  if (system.chips <= 0) throw InputError("system", "has no chips");
  check_video_placement(m, spec, system);
  if (m.transformer.guidance_embeds && spec.video.guidance == "cfg")
    R.warnings.push_back("workload.video.guidance: " + m.name +
                         " is guidance-distilled (transformer.guidance_embeds): its pipeline runs one pass per step "
                         "unless a true CFG scale is set; \"none\" prices that");

  const plan::Dtypes dt = chip_dtypes(system.chip, spec.precision, R);
  const ModelConfig no_language_model;  // the shared steps below read the system and the spec only
  const Evaluation ev{system, spec, plan::Context{no_language_model, dt, plan::Placement{}}, plan::Layout{},
                      price::make_pricer(spec.pricer, system, pricing_settings(spec.efficiency))};
  const Pricers pricers = make_pricers(spec, system);
  const plan::VideoPlacement pl = placement_of(spec);
  const plan::VideoSizes z = sizes_of(spec.video);
  const PricedVideo v = price_video(m, dt, pricers, pl, z);

  R.chips_used = pl.chips();
  R.domains_used = (R.chips_used + domain_of(system) - 1) / domain_of(system);
  R.layer_type_names = plan::video_block_kinds();
  fill_clip(spec, m, v, R);
  fill_times(v, R);
  fill_phases(v, m, R);
  // The timeline on request, from the priced parts kept (shared, immutable).
  auto kept = std::make_shared<const PricedVideo>(v);
  R.make_timeline = [kept] { return schedule::video_timeline(kept->plan, kept->times, kept->text, kept->step, kept->vae); };
  hold_video_memory(ev, v.plan, R);
  fill_economics(ev, R, 0);
  add_video_assumptions(spec, R);
  x.scaling = scaling_curve(m, dt, pricers, pl, z, domain_of(system));
  fill_real_time(R);
  return R;
}

}  // namespace trnsim::workload::detail
