// The workload's result metrics (metrics.h).
#include "workload/metrics.h"

namespace trnsim::workload {

namespace {

using Value = std::optional<double>;

// A figure of one kind (its alternative of Result::figures), nothing for the other kinds.
template <class K, class T>
std::function<Value(const Result&)> of_kind(T K::*field) {
  return [field](const Result& r) -> Value {
    const K* x = std::get_if<K>(&r.figures);
    return x ? Value(static_cast<double>(x->*field)) : std::nullopt;
  };
}
// A per-token figure of the language-model kinds (inference and training).
std::function<Value(const Result&)> per_token(double LanguageModelResult::*field) {
  return [field](const Result& r) -> Value {
    const LanguageModelResult* lm = r.language_model();
    return lm ? Value(lm->*field) : std::nullopt;
  };
}

// The video metrics (kind video: core/workload/video.h), after the training ones.
void add_video_metrics(const std::function<void(std::string, std::string, std::string, Better, std::string, std::string,
                                                std::function<Value(const Result&)>, bool)>& add) {
  auto of = [](auto VideoResult::*field) { return of_kind<VideoResult>(field); };
  // Real-time figures are the clip's; time per image and images per chip-hour an image model's.
  auto clip = [](auto VideoResult::*field) {
    return [field](const Result& r) -> Value {
      const VideoResult* x = std::get_if<VideoResult>(&r.figures);
      return x && !x->image ? Value(static_cast<double>(x->*field)) : std::nullopt;
    };
  };
  auto image = [](auto VideoResult::*field) {
    return [field](const Result& r) -> Value {
      const VideoResult* x = std::get_if<VideoResult>(&r.figures);
      return x && x->image ? Value(static_cast<double>(x->*field)) : std::nullopt;
    };
  };
  auto count = clip;
  add("video_s", "time per video", "s", Better::lower,
      "One clip end to end on one replica: text encoding, every denoising step, the VAE decode.", "video.video_s",
      of(&VideoResult::video_s), true);
  add("denoise_step_s", "time per denoising step", "s", Better::lower,
      "One full transformer step over the clip's tokens (both guidance branches).", "video.denoise_step_s",
      of(&VideoResult::step_s), true);
  add("vae_decode_s", "VAE decode time", "s", Better::lower, "The decode of the clip's latent into frames.",
      "video.vae_decode_s", of(&VideoResult::vae_s), false);
  add("real_time_factor", "real-time factor", "x", Better::lower,
      "Seconds of compute per second of video (time per video / clip duration); 1.0 is real time.",
      "video.real_time_factor", clip(&VideoResult::real_time_factor), true);
  add("chips_for_real_time", "real-time stream chips", "chips", Better::lower,
      "Replicas of this placement needed to generate video as fast as it plays (ceil of the real-time factor) x "
      "chips per replica.",
      "video.chips_for_real_time", count(&VideoResult::chips_for_real_time), true);
  add("video_seconds_per_chip_hour", "video seconds per chip-hour", "s", Better::higher,
      "Seconds of video one chip generates in an hour with this placement.", "video.video_seconds_per_chip_hour",
      clip(&VideoResult::video_seconds_per_chip_hour), false);
  add("usd_per_video_minute", "USD per minute of video", "USD", Better::lower,
      "Chip-hours at the assumed price per minute of generated video.", "video.usd_per_video_minute",
      clip(&VideoResult::usd_per_video_minute), false);
  add("image_s", "time per image", "s", Better::lower,
      "An image model's time per image on one replica: a pass of the batch (text encoding, every denoising step, "
      "the VAE decodes) over the batch.",
      "video.image.image_s", image(&VideoResult::image_s), true);
  add("images_per_chip_hour", "images per chip-hour", "images", Better::higher,
      "Images one chip generates in an hour with this placement: 3600 x batch / (time per pass x chips per replica).",
      "video.image.images_per_chip_hour", image(&VideoResult::images_per_chip_hour), true);
  add("usd_per_thousand_images", "USD per 1,000 images", "USD", Better::lower,
      "Chip-hours at the assumed price per thousand generated images.", "video.image.usd_per_thousand_images",
      image(&VideoResult::usd_per_thousand_images), false);
  add("video_tokens", "attention sequence", "tokens", Better::neither,
      "Video tokens every self-attention runs over: latent frames x latent pixels / patch.",
      "video.sequence.video_tokens", of(&VideoResult::video_tokens), false);
  add("attention_time_share", "attention share of a step", "fraction", Better::neither,
      "Share of a denoising step's time in the attention kernels (grows with resolution and frames).",
      "video.attention_time_share", of(&VideoResult::attention_time_share), false);
}


std::vector<MetricOf<Result>> build_metrics() {
  std::vector<MetricOf<Result>> t;
  auto add = [&](std::string key, std::string label, std::string unit, Better b, std::string help, std::string path,
                 std::function<Value(const Result&)> of, bool summary = true) {
    MetricOf<Result> m;
    static_cast<MetricMeta&>(m) = {std::move(key), std::move(label), std::move(unit), b, std::move(help), std::move(path),
                                   summary};
    m.of = std::move(of);
    t.push_back(std::move(m));
  };
  using Shares = TimeSplit::Shares;
  auto always = [](double Result::*field) { return [field](const Result& r) -> Value { return r.*field; }; };
  auto share = [](double Shares::*part) { return [part](const Result& r) -> Value { return r.time_shares.*part; }; };

  add("ttft_s", "time to first token", "s", Better::lower,
      "One request's prefill, from the first input token to the first output token.", "inference.ttft_s",
      of_kind(&InferenceResult::ttft_s));
  add("tpot_s", "time per output token", "s", Better::lower,
      "One decode step of the batch (every stream gets one token), after the first token.", "inference.tpot_s",
      [](const Result& r) -> Value {
        const InferenceResult* x = std::get_if<InferenceResult>(&r.figures);
        return x && x->tpot_s > 0 ? Value(x->tpot_s) : std::nullopt;
      });
  add("request_latency_s", "request latency", "s", Better::lower,
      "A request from arrival to its last token, including the other streams' prefills.",
      "inference.request_latency_s", of_kind(&InferenceResult::request_latency_s));
  add("output_tokens_per_s_per_replica", "output tokens/s per replica", "tokens/s", Better::higher,
      "Output tokens per second of one replica (its batch of streams, prefills included).",
      "inference.output_tokens_per_s.per_replica", of_kind(&InferenceResult::output_tokens_per_s_per_replica), false);
  add("output_tokens_per_s_per_chip", "output tokens/s per chip", "tokens/s", Better::higher,
      "Output tokens per second of one replica divided by the chips it uses.",
      "inference.output_tokens_per_s.per_chip", of_kind(&InferenceResult::output_tokens_per_s_per_chip));
  add("output_tokens_per_s_per_server", "output tokens/s per server", "tokens/s", Better::higher,
      "Per chip times the chips of one physical server (instance).", "inference.output_tokens_per_s.per_server",
      of_kind(&InferenceResult::output_tokens_per_s_per_server));
  add("output_tokens_per_s_per_system", "output tokens/s per system", "tokens/s", Better::higher,
      "Per chip times every chip of the system, as if it ran replicas of this service.",
      "inference.output_tokens_per_s.per_system", of_kind(&InferenceResult::output_tokens_per_s_per_system));
  add("prefill_tokens_per_s_per_server", "prefill tokens/s per server", "tokens/s", Better::higher,
      "Prompt tokens per second of one server running back-to-back prefill passes of prefill_batch prompts each: "
      "a disaggregated deployment's prefill pool.",
      "inference.pools.prefill_tokens_per_s_per_server", of_kind(&InferenceResult::prefill_tokens_per_s_per_server),
      false);
  add("decode_tokens_per_s_per_server", "decode tokens/s per server", "tokens/s", Better::higher,
      "Output tokens per second of one server running back-to-back decode steps of the batch at its mean context "
      "(no prefills): a disaggregated deployment's decode pool.",
      "inference.pools.decode_tokens_per_s_per_server", of_kind(&InferenceResult::decode_tokens_per_s_per_server),
      false);
  add("step_time_s", "training step time", "s", Better::lower, "One optimizer step of the global batch.",
      "training.step_time_s", of_kind(&TrainingResult::step_time_s));
  add("training_tokens_per_s", "training tokens/s", "tokens/s", Better::higher,
      "Tokens of the global batch per second of step time.", "training.tokens_per_s",
      of_kind(&TrainingResult::tokens_per_s));
  add("training_tokens_per_s_per_chip", "training tokens/s per chip", "tokens/s", Better::higher,
      "Training tokens/s divided by the chips used.", "training.tokens_per_s_per_chip",
      of_kind(&TrainingResult::tokens_per_s_per_chip));
  add("mfu", "MFU", "fraction", Better::higher,
      "Model FLOPs (6 x active parameters x tokens + attention) per second over the chips' peak.", "training.mfu",
      of_kind(&TrainingResult::mfu));
  add("hfu", "HFU", "fraction", Better::neither, "Hardware FLOPs (MFU plus recomputation) over the peak.",
      "training.hfu", of_kind(&TrainingResult::hfu));
  add_video_metrics(add);
  add("hbm_used_bytes", "HBM used per chip", "B", Better::neither,
      "Weights, KV cache or optimizer state, activations and the reserve on the busiest chip.",
      "memory_per_chip.used_bytes", always(&Result::hbm_used_bytes));
  add("chip_power_watts", "chip power", "W", Better::neither,
      "The chip power the economics use, as the chip file gives it: NVIDIA's published board power for its "
      "GPUs, an assumption for Trainium (AWS does not publish it); trnsim describe shows each one's source.", "economics.chip_power_watts",
      always(&Result::chip_power_watts), false);
  add("tokens_per_s_per_megawatt", "tokens/s per MW", "tokens/s/MW", Better::higher,
      "Output (or training) tokens per second per megawatt of all-in power (chips, hosts, PUE).",
      "economics.tokens_per_s_per_megawatt", per_token(&LanguageModelResult::tokens_per_s_per_megawatt));
  add("usd_per_million_tokens", "USD per million tokens", "USD", Better::lower,
      "Chip-hours at the assumed price per million output (or training) tokens.",
      "economics.usd_per_million_tokens", per_token(&LanguageModelResult::usd_per_million_tokens));
  add("compute_share", "time in compute", "fraction", Better::neither,
      "Share of the headline time the tensor engines bind (compute-bound operators).", "time_shares.compute",
      share(&Shares::compute));
  add("hbm_share", "time in HBM", "fraction", Better::neither, "Share of the headline time bound by HBM bandwidth.",
      "time_shares.hbm", share(&Shares::hbm));
  add("fabric_share", "time in fabric", "fraction", Better::neither,
      "Share of the headline time in collectives (NeuronLink, NeuronSwitch, EFA).", "time_shares.fabric",
      share(&Shares::fabric));
  add("overhead_share", "time in kernel overhead", "fraction", Better::neither,
      "Share of the headline time in fixed per-kernel costs (launch, synchronisation).", "time_shares.overhead",
      share(&Shares::overhead));
  return t;
}

}  // namespace

const std::vector<MetricOf<Result>>& metrics() {
  static const std::vector<MetricOf<Result>> table = build_metrics();
  return table;
}

}  // namespace trnsim::workload
