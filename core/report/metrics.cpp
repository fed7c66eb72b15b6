// The result metric table (metrics.h).
#include "report/metrics.h"

#include <map>

#include "common/format.h"
#include "report/serving.h"

namespace trnsim {

namespace {

using workload::Result;
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
std::function<Value(const Result&)> per_token(double workload::LanguageModelResult::*field) {
  return [field](const Result& r) -> Value {
    const workload::LanguageModelResult* lm = r.language_model();
    return lm ? Value(lm->*field) : std::nullopt;
  };
}

// The video metrics (kind video: core/workload/video.h), after the training ones.
void add_video_metrics(const std::function<void(std::string, std::string, std::string, Better, std::string, std::string,
                                                std::function<Value(const Result&)>, bool)>& add) {
  auto of = [](auto workload::VideoResult::*field) { return of_kind<workload::VideoResult>(field); };
  auto count = of;
  add("video_s", "time per video", "s", Better::lower,
      "One clip end to end on one replica: text encoding, every denoising step, the VAE decode.", "video.video_s",
      of(&workload::VideoResult::video_s), true);
  add("denoise_step_s", "time per denoising step", "s", Better::lower,
      "One full transformer step over the clip's tokens (both guidance branches).", "video.denoise_step_s",
      of(&workload::VideoResult::step_s), true);
  add("vae_decode_s", "VAE decode time", "s", Better::lower, "The decode of the clip's latent into frames.",
      "video.vae_decode_s", of(&workload::VideoResult::vae_s), false);
  add("real_time_factor", "real-time factor", "x", Better::lower,
      "Seconds of compute per second of video (time per video / clip duration); 1.0 is real time.",
      "video.real_time_factor", of(&workload::VideoResult::real_time_factor), true);
  add("chips_for_real_time", "real-time stream chips", "chips", Better::lower,
      "Replicas of this placement needed to generate video as fast as it plays (ceil of the real-time factor) x "
      "chips per replica.",
      "video.chips_for_real_time", count(&workload::VideoResult::chips_for_real_time), true);
  add("video_seconds_per_chip_hour", "video seconds per chip-hour", "s", Better::higher,
      "Seconds of video one chip generates in an hour with this placement.", "video.video_seconds_per_chip_hour",
      of(&workload::VideoResult::video_seconds_per_chip_hour), false);
  add("usd_per_video_minute", "USD per minute of video", "USD", Better::lower,
      "Chip-hours at the assumed price per minute of generated video.", "video.usd_per_video_minute",
      of(&workload::VideoResult::usd_per_video_minute), false);
  add("video_tokens", "attention sequence", "tokens", Better::neither,
      "Video tokens every self-attention runs over: latent frames x latent pixels / patch.",
      "video.sequence.video_tokens", of(&workload::VideoResult::video_tokens), false);
  add("attention_time_share", "attention share of a step", "fraction", Better::neither,
      "Share of a denoising step's time in the attention kernels (grows with resolution and frames).",
      "video.attention_time_share", of(&workload::VideoResult::attention_time_share), false);
}

// The serving metrics: what `trnsim serve` measures (definitions in core/serve/serve.h).
void add_serve_metrics(std::vector<Metric>& t) {
  using S = serve::Result;
  using Fn = std::function<Value(const S&)>;
  auto add = [&](std::string key, std::string label, std::string unit, Better b, std::string help, std::string path,
                 Fn of, bool summary = true) {
    Metric m{std::move(key), std::move(label), std::move(unit), b, std::move(help), std::move(path), summary,
             [](const Result&) -> Value { return std::nullopt; }, {}};
    m.of_serve = std::move(of);
    t.push_back(std::move(m));
  };
  // The latency figures and their statistics: serve's table (serve.h), which its latency table reads too.
  for (const auto& l : serve::latency_kinds())
    for (const auto& st : serve::latency_stats()) {
      auto field = l.summary;
      auto stat = st.value;
      add(std::string("serve_") + l.key + "_" + st.name + "_s", std::string(l.label) + " " + st.name, "s", Better::lower,
          l.help, std::string("latency.") + l.key + "_s." + st.name,
          [field, stat](const S& r) -> Value { return (r.*field).n > 0 ? Value(r.*field.*stat) : std::nullopt; },
          std::string(st.name) != "mean");
    }
  add("serve_queue_mean_s", "queue wait mean", "s", Better::lower,
      "Time a request waits for admission (every episode, after preemptions too).", "latency.queue_s.mean",
      [](const S& r) -> Value { return r.queue.mean; }, false);
  add("serve_request_rate", "requests/s served", "requests/s", Better::higher,
      "Requests completed per second, first arrival to last completion.", "throughput.requests_per_s",
      [](const S& r) -> Value { return r.request_rate; });
  add("serve_output_tokens_per_s", "output tokens/s", "tokens/s", Better::higher,
      "Output tokens per second of the whole service (every replica).", "throughput.output_tokens_per_s",
      [](const S& r) -> Value { return r.output_tokens_per_s; });
  add("serve_output_tokens_per_s_per_chip", "output tokens/s per chip", "tokens/s", Better::higher,
      "Output tokens per second divided by the chips serving (dp x tp x pp).",
      "throughput.output_tokens_per_s_per_chip", [](const S& r) -> Value { return r.output_tokens_per_s_per_chip; });
  add("serve_slo_attainment", "SLO attainment", "fraction", Better::higher,
      "Share of requests meeting both the TTFT and the TPOT target (DistServe).", "goodput.attainment",
      [](const S& r) -> Value {
        return r.target_ttft_s || r.target_tpot_s ? Value(r.attainment) : std::nullopt;
      });
  add("serve_goodput", "goodput", "requests/s", Better::higher, "Requests meeting both targets per second of the run.",
      "goodput.requests_per_s",
      [](const S& r) -> Value { return r.target_ttft_s || r.target_tpot_s ? Value(r.goodput_rps) : std::nullopt; });
  add("serve_max_rate", "highest rate meeting the targets", "requests/s", Better::higher,
      "The rate search: the highest arrival rate whose attainment meets serve.targets.fraction (DistServe's goodput).",
      "rate_search.max_rate", [](const S& r) -> Value { return r.searched ? Value(r.max_rate) : std::nullopt; });
  add("serve_mean_batch", "mean batch", "sequences", Better::neither,
      "Running sequences per replica, averaged over time.", "occupancy.mean_batch",
      [](const S& r) -> Value { return r.mean_batch; });
  add("serve_kv_occupancy", "KV held by sequences", "fraction", Better::neither,
      "Share of the KV budget held by running sequences (their blocks and the cached blocks they use), averaged over time and replicas.", "occupancy.mean_kv_fraction",
      [](const S& r) -> Value { return r.mean_kv_fraction; });
  add("serve_prefix_hit_fraction", "prefix cache hits", "fraction", Better::higher,
      "Share of prompt tokens found in the prefix cache.", "prefix_cache.hit_fraction",
      [](const S& r) -> Value { return r.prompt_tokens > 0 ? Value(r.cached_prompt_tokens / r.prompt_tokens) : 0.0; });
  add("serve_kv_fit_sequences", "sequences the KV cache holds", "sequences", Better::higher,
      "Sequences of the mean prompt + output length that fit a replica's KV budget.", "kv.fit_sequences",
      [](const S& r) -> Value { return r.kv_fit_sequences; }, false);
  add("serve_zero_load_ttft_s", "zero-load TTFT", "s", Better::lower, "TTFT of one request of the mean lengths alone.",
      "zero_load.ttft_s", [](const S& r) -> Value { return r.zero_load_ttft_s; }, false);
  add("serve_zero_load_tpot_s", "zero-load TPOT", "s", Better::lower, "TPOT of one request of the mean lengths alone.",
      "zero_load.tpot_s", [](const S& r) -> Value { return r.zero_load_tpot_s; }, false);
}

std::vector<Metric> build() {
  std::vector<Metric> t;
  auto add = [&](std::string key, std::string label, std::string unit, Better b, std::string help, std::string path,
                 std::function<Value(const Result&)> of, bool summary = true) {
    t.push_back({std::move(key), std::move(label), std::move(unit), b, std::move(help), std::move(path), summary,
                 std::move(of), {}});
  };
  using workload::InferenceResult;
  using workload::TrainingResult;
  using Shares = workload::TimeSplit::Shares;
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
  add("chip_power_watts", "chip power (assumption)", "W", Better::neither,
      "The chip power the economics use (not published by AWS).", "economics.chip_power_watts",
      always(&Result::chip_power_watts), false);
  add("tokens_per_s_per_megawatt", "tokens/s per MW", "tokens/s/MW", Better::higher,
      "Output (or training) tokens per second per megawatt of all-in power (chips, hosts, PUE).",
      "economics.tokens_per_s_per_megawatt", per_token(&workload::LanguageModelResult::tokens_per_s_per_megawatt));
  add("usd_per_million_tokens", "USD per million tokens", "USD", Better::lower,
      "Chip-hours at the assumed price per million output (or training) tokens.",
      "economics.usd_per_million_tokens", per_token(&workload::LanguageModelResult::usd_per_million_tokens));
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
  add_serve_metrics(t);
  return t;
}

std::vector<std::string> keys() {
  std::vector<std::string> k;
  for (const auto& m : metrics()) k.push_back(m.key);
  return k;
}

}  // namespace

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> table = build();
  return table;
}

std::vector<const Metric*> serve_metrics() {
  std::vector<const Metric*> out;
  for (const auto& m : metrics())
    if (m.of_serve) out.push_back(&m);
  return out;
}

const Metric* find_metric_or_null(const std::string& key) {
  static const std::map<std::string, const Metric*> index = [] {
    std::map<std::string, const Metric*> m;
    for (const auto& x : metrics()) m[x.key] = &x;
    return m;
  }();
  auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
}

const Metric& find_metric(const std::string& key, const std::string& field) {
  if (const Metric* m = find_metric_or_null(key)) return *m;
  std::string hint = closest_name(key, keys());
  throw InputError(field, "unknown metric '" + key + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

std::optional<double> metric_ratio(std::optional<double> first, std::optional<double> second) {
  if (first && second && *first > 0 && *second > 0) return *first / *second;
  return std::nullopt;
}

std::string better_side(const Metric& m, double r) {
  if (m.better == Better::neither || !(r > 0)) return "-";
  if (r == 1.0) return "=";
  return (r > 1.0) == (m.better == Better::higher) ? "A" : "B";
}

std::string format_metric(const Metric& m, double v) {
  if (m.unit == "tokens/s" || m.unit == "tokens/s/MW") return fmt::number(v);
  if (m.unit == "chips") return fmt::count(v) + " chips";
  return fmt::value(m.unit, v);
}

}  // namespace trnsim
