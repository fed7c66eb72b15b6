// The serving metrics (metrics.h).
#include "serve/metrics.h"

namespace trnsim::serve {

const std::vector<LatencyKind>& latency_kinds() {
  static const std::vector<LatencyKind> kinds = {
      {"ttft", "TTFT", &Result::ttft, "Arrival to the first output token: queueing, host cost and prefill."},
      {"tpot", "TPOT", &Result::tpot, "(End to end - TTFT) / (output tokens - 1) per request: after the first token."},
      {"itl", "ITL", &Result::itl, "Inter-token latency in serve.harness's definition (vllm-bench: every gap, pooled)."},
      {"e2e", "end to end", &Result::e2e, "Arrival to the last output token."},
  };
  return kinds;
}

const std::vector<LatencyStat>& latency_stats() {
  static const std::vector<LatencyStat> stats = {
      {"mean", &Summary::mean}, {"p50", &Summary::p50}, {"p90", &Summary::p90}, {"p99", &Summary::p99}};
  return stats;
}

namespace {

using Value = std::optional<double>;

// The serving metrics: what `trnsim serve` measures (definitions in core/serve/serve.h).
std::vector<MetricOf<Result>> build_metrics() {
  std::vector<MetricOf<Result>> t;
  using S = Result;
  using Fn = std::function<Value(const S&)>;
  auto add = [&](std::string key, std::string label, std::string unit, Better b, std::string help, std::string path,
                 Fn of, bool summary = true) {
    MetricOf<Result> m;
    static_cast<MetricMeta&>(m) = {std::move(key), std::move(label), std::move(unit), b, std::move(help), std::move(path),
                                   summary};
    m.of = std::move(of);
    t.push_back(std::move(m));
  };
  // The latency figures and their statistics: serve's table (serve.h), which its latency table reads too.
  for (const auto& l : latency_kinds())
    for (const auto& st : latency_stats()) {
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
  add("serve_output_tokens_per_s_per_domain", "output tokens/s per rack (domain)", "tokens/s", Better::higher,
      "Output tokens per second per chip times the chips of one scale-up domain (a GB200 NVL72 rack's 72 GPUs, a "
      "Trn3 Gen2 UltraServer's 144 chips, an 8-GPU node): the rack's rate when every chip serves like these.",
      "economics.output_tokens_per_s_per_domain", [](const S& r) -> Value { return r.output_tokens_per_s_per_domain; });
  add("serve_tokens_per_s_per_megawatt", "output tokens/s per MW", "tokens/s/MW", Better::higher,
      "Output tokens per second per megawatt of all-in power (chip power x (1 + host share) x PUE, as `trnsim run`).",
      "economics.tokens_per_s_per_megawatt",
      [](const S& r) -> Value { return r.power_per_chip_all_in_watts > 0 ? Value(r.tokens_per_s_per_megawatt) : std::nullopt; });
  add("serve_usd_per_million_tokens", "USD per million output tokens", "USD", Better::lower,
      "The chips' price per hour over the output tokens they serve in an hour (the chip data's price, an assumption "
      "or guess it names, or workload.economics).",
      "economics.usd_per_million_tokens",
      [](const S& r) -> Value { return r.price_per_chip_hour_usd > 0 && r.output_tokens_per_s_per_chip > 0 ? Value(r.usd_per_million_tokens) : std::nullopt; });
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
  add("serve_max_rate_tokens_per_s_per_chip", "at the highest rate: output tokens/s per chip", "tokens/s",
      Better::higher,
      "Steady state at the rate search's answer: that rate x the mean output tokens per request, per chip.",
      "rate_search.output_tokens_per_s_per_chip",
      [](const S& r) -> Value { return r.searched ? Value(r.max_rate_tokens_per_s_per_chip) : std::nullopt; });
  add("serve_max_rate_tokens_per_s_per_domain", "at the highest rate: per rack (domain)", "tokens/s", Better::higher,
      "The same per chip times the chips of one scale-up domain (an NVL72 rack, an UltraServer, an 8-GPU node).",
      "rate_search.output_tokens_per_s_per_domain",
      [](const S& r) -> Value { return r.searched ? Value(r.max_rate_tokens_per_s_per_domain) : std::nullopt; });
  add("serve_max_rate_tokens_per_s_per_megawatt", "at the highest rate: per MW", "tokens/s/MW", Better::higher,
      "The same per MW of all-in power.", "rate_search.tokens_per_s_per_megawatt",
      [](const S& r) -> Value {
        return r.searched && r.power_per_chip_all_in_watts > 0 ? Value(r.max_rate_tokens_per_s_per_megawatt) : std::nullopt;
      });
  add("serve_max_rate_usd_per_million_tokens", "at the highest rate: USD per million", "USD", Better::lower,
      "The chips' price per hour over the output tokens they serve in an hour at that rate.",
      "rate_search.usd_per_million_tokens",
      [](const S& r) -> Value {
        return r.searched && r.price_per_chip_hour_usd > 0 && r.max_rate_tokens_per_s_per_chip > 0
                   ? Value(r.max_rate_usd_per_million_tokens)
                   : std::nullopt;
      });
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
  return t;
}

}  // namespace

const std::vector<MetricOf<Result>>& metrics() {
  static const std::vector<MetricOf<Result>> table = build_metrics();
  return table;
}

}  // namespace trnsim::serve
