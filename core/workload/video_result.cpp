// The video parts of the report (video.h): JSON sections and text sections, beside the
// common ones result_writer.cpp writes for every kind.
#include <ostream>

#include "common/format.h"
#include "workload/workload.h"

namespace trnsim::workload {

namespace {

// An object of named values in order: whole numbers stay whole in the JSON.
struct Entry {
  const char* key;
  double value;
  bool whole = false;
};
json object_of(std::initializer_list<Entry> entries) {
  json j = json::object();
  for (const auto& e : entries) j[e.key] = e.whole ? json(static_cast<long long>(e.value)) : json(e.value);
  return j;
}

}  // namespace

json video_model_json(const Result& R) {
  const VideoResult& x = R.video();
  const auto& p = x.params;
  json j = json::object();
  j["name"] = x.model_name;
  j["model_type"] = x.model_type;
  j["pipeline"] = x.pipeline_class;
  j["transformer"] = x.transformer_class;
  j["vae"] = x.vae_class;
  j["text_encoders"] = x.text_encoders;
  j.update(object_of({{"blocks", double(x.blocks), true}, {"hidden_size", double(x.hidden), true},
                      {"heads", double(x.heads), true}, {"ffn", double(x.ffn), true}}));
  j["params"] = object_of({{"transformer", p.transformer},
                           {"blocks", p.blocks},
                           {"embeddings", p.embeddings},
                           {"head", p.head},
                           {"vae_decoder", p.vae_decoder},
                           {"text_encoders", p.text_encoders},
                           {"total", p.total()}});
  j["ignored_fields"] = x.ignored_fields;
  return j;
}

json video_json(const Result& R) {
  const VideoResult& x = R.video();
  json scaling = json::array();
  for (const auto& s : x.scaling)
    scaling.push_back(object_of({{"chips", double(s.chips), true},
                                 {"ulysses", double(s.ulysses), true},
                                 {"ring", double(s.ring), true},
                                 {"step_s", s.step_s},
                                 {"video_s", s.video_s},
                                 {"real_time_factor", s.real_time_factor},
                                 {"fabric_share", s.fabric_share}}));
  json clip = object_of({{"width", double(x.width), true},
                         {"height", double(x.height), true},
                         {"frames", double(x.frames), true},
                         {"fps", x.fps},
                         {"duration_s", x.duration_s},
                         {"steps", double(x.steps), true},
                         {"full_steps", double(x.full_steps), true},
                         {"cached_steps", double(x.cached_steps), true}});
  clip["guidance"] = x.guidance;
  json j = json::object();
  j["clip"] = clip;
  j["sequence"] = object_of({{"latent_frames", double(x.latent_frames), true},
                             {"latent_height", double(x.latent_h), true},
                             {"latent_width", double(x.latent_w), true},
                             {"video_tokens", x.video_tokens},
                             {"text_tokens", x.text_tokens}});
  j["placement"] = object_of({{"tp", double(x.tp), true},
                              {"ulysses", double(x.ulysses), true},
                              {"ring", double(x.ring), true},
                              {"cfg", double(x.cfg), true},
                              {"replicas", double(x.replicas), true},
                              {"chips_per_replica", double(x.chips_per_replica), true},
                              {"batch_per_chip", x.batch_per_chip},
                              {"vae_tiles", double(x.vae_tiles), true},
                              {"vae_chips", double(x.vae_chips), true}});
  j.update(object_of({{"video_s", x.video_s},
                      {"text_encoding_s", x.text_s},
                      {"denoise_step_s", x.step_s},
                      {"cached_step_s", x.cached_step_s},
                      {"denoise_s", x.denoise_s},
                      {"vae_decode_s", x.vae_s},
                      {"real_time_factor", x.real_time_factor},
                      {"replicas_for_real_time", double(x.replicas_for_real_time), true},
                      {"chips_for_real_time", double(x.chips_for_real_time), true},
                      {"fewest_chips_real_time_clip", double(x.fewest_chips_real_time_clip), true},
                      {"step_flops_per_chip", x.step_flops_per_chip},
                      {"attention_flops_share", x.attention_flops_share},
                      {"attention_time_share", x.attention_time_share},
                      {"video_seconds_per_chip_hour", x.video_seconds_per_chip_hour},
                      {"usd_per_video_minute", x.usd_per_video_minute}}));
  if (x.image)
    j["image"] = object_of({{"batch", double(x.batch), true},
                            {"image_s", x.image_s},
                            {"images_per_chip_hour", x.images_per_chip_hour},
                            {"usd_per_thousand_images", x.usd_per_thousand_images}});
  j["scaling"] = scaling;
  return j;
}

void video_text_header(std::ostream& out, const Result& R) {
  const VideoResult& x = R.video();
  out << "Workload: " << x.model_name << (x.image ? " image" : " video") << " on " << R.system_display_name << "\n";
  out << "  model         " << x.transformer_class << ": " << x.blocks << " blocks, hidden " << x.hidden << ", " << x.heads
      << " heads, FFN " << x.ffn << "; " << x.vae_class << "; text ";
  for (std::size_t i = 0; i < x.text_encoders.size(); ++i) out << (i ? " + " : "") << x.text_encoders[i];
  out << "\n";
  out << "  parameters    " << fmt::params(x.params.transformer) << " transformer, " << fmt::params(x.params.vae_decoder)
      << " VAE decoder, " << fmt::params(x.params.text_encoders) << " text encoders\n";
  if (x.image)
    out << "  image         " << x.width << "x" << x.height << ", batch " << x.batch << "; " << x.steps << " steps";
  else
    out << "  clip          " << x.width << "x" << x.height << ", " << x.frames << " frames at " << fmt::number(x.fps)
        << " fps = " << fmt::number(x.duration_s) << " s; " << x.steps << " steps";
  if (x.cached_steps > 0) out << " (" << x.full_steps << " full, " << x.cached_steps << " cached)";
  out << ", guidance " << x.guidance << "\n";
  out << "  sequence      " << x.latent_frames << " x " << x.latent_h << " x " << x.latent_w << " latent -> "
      << fmt::count(x.video_tokens) << (x.image ? " image tokens" : " video tokens") << " (attention sequence), "
      << fmt::count(x.text_tokens)
      << " text tokens\n";
  out << "  placement     tp " << x.tp << " x Ulysses " << x.ulysses << " x ring " << x.ring << " x cfg " << x.cfg << " = "
      << x.chips_per_replica << " chips per replica, " << x.replicas << " replica" << (x.replicas > 1 ? "s" : "") << " = "
      << R.chips_used << " of " << R.system_chips << " chips\n";
  out << "  precision     matmuls " << R.matmul_dtype << ", FFN weights " << R.weights_dtype << ", attention weights "
      << R.attention_weights_dtype << "; text encoders and VAE bf16\n\n";
}

void video_text_headline(std::ostream& out, const Result& R) {
  const VideoResult& x = R.video();
  if (x.image) {
    out << "  time per image       " << fmt::time(x.image_s);
    if (x.batch > 1) out << " (a batch of " << x.batch << " in " << fmt::time(x.video_s) << ")";
    out << " = text " << fmt::time(x.text_s) << " + " << x.full_steps << " x step " << fmt::time(x.step_s);
    if (x.cached_steps > 0) out << " + " << x.cached_steps << " x cached " << fmt::time(x.cached_step_s);
    out << " + VAE decode " << fmt::time(x.vae_s) << (x.batch > 1 ? ", per batch" : "") << "\n";
    out << "  per denoising step   " << fmt::time(x.step_s) << " (attention " << fmt::percent(x.attention_time_share)
        << " of the time, " << fmt::percent(x.attention_flops_share) << " of " << fmt::si(x.step_flops_per_chip, "FLOP")
        << " per chip)\n";
    return;
  }
  out << "  time per video       " << fmt::time(x.video_s) << " = text " << fmt::time(x.text_s) << " + " << x.full_steps
      << " x step " << fmt::time(x.step_s);
  if (x.cached_steps > 0) out << " + " << x.cached_steps << " x cached " << fmt::time(x.cached_step_s);
  out << " + VAE decode " << fmt::time(x.vae_s) << "\n";
  out << "  per denoising step   " << fmt::time(x.step_s) << " (attention " << fmt::percent(x.attention_time_share)
      << " of the time, " << fmt::percent(x.attention_flops_share) << " of " << fmt::si(x.step_flops_per_chip, "FLOP")
      << " per chip)\n";
  out << "  real-time factor     " << fmt::fixed(x.real_time_factor, 2) << " (" << fmt::time(x.video_s) << " of compute per "
      << fmt::number(x.duration_s) << " s of video; 1.00 = real time)\n";
  out << "  real-time stream     " << x.replicas_for_real_time << " replica" << (x.replicas_for_real_time > 1 ? "s" : "")
      << " x " << x.chips_per_replica << " = " << x.chips_for_real_time << " chips; one clip within its duration: "
      << (x.fewest_chips_real_time_clip > 0 ? std::to_string(x.fewest_chips_real_time_clip) + " chips"
                                            : std::string("not reached in one scale-up domain"))
      << "\n";
}

void video_text_economics(std::ostream& out, const Result& R) {
  const VideoResult& x = R.video();
  if (x.image) {
    out << "  images per chip-hour " << fmt::number(x.images_per_chip_hour) << " (" << x.chips_per_replica << " chip"
        << (x.chips_per_replica > 1 ? "s" : "") << " a replica)\n";
    out << "  cost                 $" << fmt::fixed(x.usd_per_thousand_images, 3) << " per 1,000 images at $"
        << fmt::fixed(R.price_per_chip_hour_usd, 2) << " per chip-hour\n";
    return;
  }
  out << "  video per chip-hour  " << fmt::number(x.video_seconds_per_chip_hour) << " s of video\n";
  out << "  cost                 $" << fmt::fixed(x.usd_per_video_minute, 3) << " per minute of video at $"
      << fmt::fixed(R.price_per_chip_hour_usd, 2) << " per chip-hour\n";
}

void video_text_scaling(std::ostream& out, const Result& R) {
  const VideoResult& x = R.video();
  if (x.scaling.empty()) return;
  if (x.image) {
    out << "\n  Time per image against sequence-parallel chips (tp " << x.tp << ", cfg " << x.cfg << ", batch " << x.batch
        << " as given):\n";
    out << "    " << fmt::lpad("chips", 6) << fmt::lpad("Ulysses", 9) << fmt::lpad("ring", 6) << fmt::lpad("step", 13)
        << fmt::lpad("image", 13) << fmt::lpad("fabric", 9) << "\n";
    for (const auto& s : x.scaling)
      out << "    " << fmt::lpad(std::to_string(s.chips), 6) << fmt::lpad(std::to_string(s.ulysses), 9)
          << fmt::lpad(std::to_string(s.ring), 6) << fmt::lpad(fmt::time(s.step_s), 13)
          << fmt::lpad(fmt::time(s.video_s / x.batch), 13) << fmt::lpad(fmt::percent(s.fabric_share), 9) << "\n";
    return;
  }
  out << "\n  Real-time factor against sequence-parallel chips (tp " << x.tp << ", cfg " << x.cfg << " as given):\n";
  out << "    " << fmt::lpad("chips", 6) << fmt::lpad("Ulysses", 9) << fmt::lpad("ring", 6) << fmt::lpad("step", 13)
      << fmt::lpad("video", 13) << fmt::lpad("real-time", 11) << fmt::lpad("fabric", 9) << "\n";
  for (const auto& s : x.scaling)
    out << "    " << fmt::lpad(std::to_string(s.chips), 6) << fmt::lpad(std::to_string(s.ulysses), 9)
        << fmt::lpad(std::to_string(s.ring), 6) << fmt::lpad(fmt::time(s.step_s), 13) << fmt::lpad(fmt::time(s.video_s), 13)
        << fmt::lpad(fmt::fixed(s.real_time_factor, 2), 11) << fmt::lpad(fmt::percent(s.fabric_share), 9) << "\n";
}

}  // namespace trnsim::workload
