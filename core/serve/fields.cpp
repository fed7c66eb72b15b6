// The serving simulator's rows of the scenario field table (the "serve" object, `trnsim
// serve`): arrivals and lengths, the server's limits and policies (their choices from the
// policy and step-model registries), targets, traces and agentic sessions. Declared here, by
// the layer that reads them; core/scenario/schema.cpp mounts them into the one table
// (core/common/field_table.h).
#include "serve/fields.h"

#include "common/limits.h"

#include "serve/policy/batch_policy.h"
#include "serve/policy/router.h"
#include "serve/requests.h"
#include "serve/sessions.h"
#include "serve/stack/step_model.h"
#include "serve/traces.h"

namespace trnsim::serve {

namespace {

using Rows = FieldRows<Spec>;
using Field = Rows::Field;
using namespace field_ends;

const char* kServeArrivals = "Serving: requests";
const char* kServeServer = "Serving: server";
const char* kServeTargets = "Serving: targets";
const char* kServeTrace = "Serving: trace";
const char* kServeSessions = "Serving: agentic sessions";

// The serving simulator's fields (core/serve/spec.h, `trnsim serve`). A length distribution
// (prompts or outputs), bound through the Lengths member L of serve::Spec.
template <serve::Lengths serve::Spec::*L>
void serve_length_fields(std::vector<Field>& t, const std::string& part, const std::string& what,
                         const std::string& workload_field) {
  const std::string p = "serve." + part + ".";
  t.push_back(Rows::choice(p + "distribution", [](Spec& s) -> std::string& { return (s.*L).distribution; }, "fixed",
                     [] { return serve::distribution_names(); },
                     {"", what + " distribution",
                      "How " + what + " lengths vary: fixed (the mean), uniform (mean +- spread), normal (standard "
                      "deviation spread; guidellm 0.1's emulated data draws normal(base, sqrt(variance)) clamped to "
                      "[1, base + 5 variance]), lognormal (mean and standard deviation), exponential.",
                      kServeArrivals}));
  t.push_back(Rows::optional_number(p + "mean", [](Spec& s) -> std::optional<double>& { return (s.*L).mean; },
                              length_lo(), tokens_cap(),
                              {"tokens", what + " mean", "Mean " + what + " length. null: " + workload_field + ".",
                               kServeArrivals, "", true}));
  t.push_back(Rows::number(p + "spread", [](Spec& s) -> double& { return (s.*L).spread; }, 0,
                     at_least(0, "a half-width or a standard deviation is not negative"), tokens_cap(),
                     {"tokens", what + " spread", "Half-width (uniform) or standard deviation (normal, lognormal).",
                      kServeArrivals}));
  t.push_back(Rows::integer(p + "min", [](Spec& s) -> int& { return (s.*L).min; }, 1, length_lo(), tokens_cap(),
                      {"tokens", what + " min", "Shortest " + what + " drawn (draws are clamped).", kServeArrivals}));
  t.push_back(Rows::integer(p + "max", [](Spec& s) -> int& { return (s.*L).max; }, kMaxTokens, length_lo(),
                      tokens_cap(),
                      {"tokens", what + " max", "Longest " + what + " drawn (draws are clamped).", kServeArrivals}));
  if (part != "output_tokens") return;
  t.push_back(Rows::optional_number(
      p + "eos_mean", [](Spec& s) -> std::optional<double>& { return (s.*L).eos_mean; }, length_lo(),
      tokens_cap(),
      {"tokens", "output mean as served (EOS)",
       "Mean output length as served when the model stops at its end-of-sequence token before the drawn length "
       "(guidellm and vLLM bench send the draw as max_tokens; vLLM stops at EOS unless ignore_eos). Each request "
       "stops at min(its draw, a geometric stop at a constant per-token rate), the rate solved so the outputs "
       "average this (assumption: a memoryless stop, the shape the mean alone gives). At most the drawn mean; "
       "generated arrivals only. null: every request runs to its draw.",
       kServeArrivals, "", true}));
}

Bound requests_cap() {
  return limit(static_cast<double>(limits::kMaxTraceRequests), "trnsim's limit: ten million requests");
}
Bound target_lo() { return above(0, "a latency target is positive", 1e-6); }

void add_serve_fields(std::vector<Field>& t) {
  t.push_back(Rows::choice("serve.arrivals", [](Spec& s) -> std::string& { return s.arrivals; }, "poisson",
                     [] { return serve::arrival_names(); },
                     {"", "arrivals",
                      "poisson, gamma (bursty: serve.burstiness), constant, burst (every request at t = 0, vLLM bench "
                      "--request-rate inf), closed (serve.concurrency clients, each sending its next request when one "
                      "finishes: guidellm synchronous = 1, LLMPerf at a concurrency), trace (serve.trace), sessions "
                      "(agentic, serve.sessions).",
                      kServeArrivals}));
  t.push_back(Rows::number("serve.rate", [](Spec& s) -> double& { return s.rate; }, 1.0,
                     limit(1e-6, "a rate is positive, and trnsim's floor is one arrival in a million seconds: "
                                 "slower, the simulated clock's doubles lose a step's milliseconds"),
                     limit(1e6, "trnsim's limit: a million a second"),
                     {"1/s", "request rate",
                      "Mean arrivals per second (sessions per second for arrivals = sessions). Must be > 0.",
                      kServeArrivals, "", true}));
  t.push_back(Rows::number("serve.burstiness", [](Spec& s) -> double& { return s.burstiness; }, 1.0,
                     above(0, "a gamma distribution's shape is positive", 0.01),
                     limit(100, "trnsim's limit: 100, arrivals already near constant"),
                     {"", "burstiness",
                      "Gamma arrivals' shape: 1 is Poisson, below 1 burstier, above 1 more regular (vLLM bench's "
                      "--burstiness).",
                      kServeArrivals, "serve.arrivals=gamma", true}));
  t.push_back(Rows::integer("serve.concurrency", [](Spec& s) -> int& { return s.concurrency; }, 1,
                      at_least(1, "a closed loop has at least one client"), count_cap(),
                      {"requests", "concurrency", "Closed-loop clients: requests in flight.", kServeArrivals,
                       "serve.arrivals=closed", true}));
  t.push_back(Rows::integer("serve.requests", [](Spec& s) -> int& { return s.requests; }, 1000,
                      at_least(1, "a run sends at least one request"), requests_cap(),
                      {"requests", "requests", "How many requests to send (generated arrivals).", kServeArrivals, "",
                       true}));
  t.push_back(Rows::integer("serve.warmup_requests", [](Spec& s) -> int& { return s.warmup_requests; }, 0,
                      at_least(0, "a count of requests is not negative"), requests_cap(),
                      {"requests", "warm-up requests",
                       "The first requests (by arrival) are served but left out of the statistics.", kServeArrivals}));
  t.push_back(Rows::integer("serve.max_concurrency", [](Spec& s) -> int& { return s.max_concurrency; }, 0,
                      none_or_more(), count_cap(),
                      {"requests", "max concurrency",
                       "0: no cap. Otherwise open-loop arrivals keep at most this many requests in flight: one "
                       "arriving beyond it waits at the client and is sent, its TTFT counted from then, when one "
                       "finishes (vllm bench's --max-concurrency; guidellm 0.1 keeps GUIDELLM__MAX_CONCURRENCY - 1).",
                       kServeArrivals}));
  t.push_back(Rows::number("serve.duration", [](Spec& s) -> double& { return s.duration_s; }, 0.0,
                     at_least(0, "a run length is not negative; 0 serves every request"),
                     limit(1e7, "trnsim's limit: ten million seconds, about 4 months"),
                     {"s", "run length",
                      "0: the run lasts until every request is served. Otherwise it ends this long after the first "
                      "arrival: no request is sent from then on, and requests not finished by then are left out of the "
                      "statistics (guidellm 0.1's --max-seconds, default 120 s, drops them as timed out); "
                      "serve.requests still caps the count.",
                      kServeArrivals}));
  t.push_back(Rows::integer("serve.seed", [](Spec& s) -> int& { return s.seed; }, 1,
                      limit(0, "a seed has no physical range: any of 0 to 2^31 - 1"),
                      limit(2147483647, "a seed has no physical range: any of 0 to 2^31 - 1"),
                      {"", "seed", "Seeds arrivals, lengths and sessions: the same seed gives the same requests.",
                       kServeArrivals}));
  serve_length_fields<&serve::Spec::input>(t, "input_tokens", "prompt", "workload.inference.input_tokens");
  serve_length_fields<&serve::Spec::output>(t, "output_tokens", "output", "workload.inference.output_tokens");
  t.push_back(Rows::integer("serve.shared_prefix_tokens", [](Spec& s) -> int& { return s.shared_prefix_tokens; }, 0,
                      at_least(0, "a prefix is not negative; 0: none shared"), tokens_cap(),
                      {"tokens", "shared prefix",
                       "Generated requests: the first tokens of every prompt are the same (a system prompt), so the "
                       "prefix cache can reuse them.",
                       kServeArrivals, "", true}));
  t.push_back(Rows::integer("serve.max_num_seqs", [](Spec& s) -> int& { return s.max_num_seqs; }, 256,
                      at_least(1, "a replica runs at least one sequence"), limit(1 << 16, "trnsim's limit: 2^16 slots"),
                      {"sequences", "max-num-seqs",
                       "Batch slots of a replica: sequences running at once (vLLM's --max-num-seqs, default 256).",
                       kServeServer, "", true}));
  t.push_back(Rows::integer("serve.max_batched_tokens", [](Spec& s) -> int& { return s.max_batched_tokens; }, 8192,
                      none_or_more(), tokens_cap(),
                      {"tokens", "max batched tokens",
                       "Tokens one step may compute, decodes and prefill chunks together (vLLM's "
                       "--max-num-batched-tokens; 8192 an assumption). 0: no limit (whole prompts).",
                       kServeServer, "", true}));
  t.push_back(Rows::integer("serve.max_prefill_seqs", [](Spec& s) -> int& { return s.max_prefill_seqs; }, 0,
                      none_or_more(), limit(1 << 16, "trnsim's limit: 2^16 prompts"),
                      {"sequences", "prefills per step", "Prompts started or continued per step. 0: no limit.",
                       kServeServer}));
  t.push_back(Rows::choice("serve.scheduler", [](Spec& s) -> std::string& { return s.scheduler; }, "chunked",
                     [] { return serve::batch_policy_names(); },
                     {"", "scheduler",
                      "chunked: steps mix decodes with prefill chunks (vLLM V1). prefill_first: a step is prefills or "
                      "decodes, waiting prefills first (vLLM V0 without chunked prefill).",
                      kServeServer}));
  t.push_back(Rows::choice("serve.capacity_policy", [](Spec& s) -> std::string& { return s.capacity_policy; }, "",
                     fixed_choices({"", "guaranteed_no_evict", "max_utilization"}),
                     {"", "capacity policy",
                      "A GPU server stack's capacity scheduler (TensorRT-LLM's CapacitySchedulerPolicy): "
                      "guaranteed_no_evict admits a request only when the KV cache holds it at its full length; "
                      "max_utilization admits while the running contexts fit and preempts when they outgrow it. "
                      "Empty: the stack's own.",
                      kServeServer, "", true}));
  t.push_back(Rows::integer("serve.micro_batches", [](Spec& s) -> int& { return s.micro_batches; }, 1,
                      at_least(1, "a replica runs at least one micro-batch"),
                      limit(64, "trnsim's limit: 64 micro-batches"),
                      {"micro-batches", "micro-batches in flight",
                       "Micro-batches a pipeline-parallel replica keeps in flight (TensorRT-LLM runs pp of them): "
                       "each is a lane with its own steps through every stage, its own max_num_seqs and "
                       "max_batched_tokens, and its share of each chip's KV cache. At most workload.parallelism.pp; "
                       "GPU server stacks only.",
                       kServeServer, "", true}));
  t.push_back(Rows::integer("serve.kv_block_tokens", [](Spec& s) -> int& { return s.kv_block_tokens; }, 16,
                      at_least(1, "a block holds at least one token"), limit(4096, "trnsim's limit: 4096 tokens"),
                      {"tokens", "KV block", "KV cache allocation and prefix-hash block (vLLM's default 16).",
                       kServeServer}));
  t.push_back(Rows::boolean("serve.prefix_cache.enabled", [](Spec& s) -> bool& { return s.prefix_cache.enabled; },
                      true,
                      {"", "prefix cache",
                       "Automatic prefix caching: prompts starting with cached blocks reuse their KV (vLLM V1's "
                       "default).",
                       kServeServer}));
  t.push_back(Rows::optional_number("serve.prefix_cache.max_tokens",
                              [](Spec& s) -> std::optional<double>& { return s.prefix_cache.max_tokens; },
                              limit(1, "at least one token: to keep none, set serve.prefix_cache.enabled false"),
                              limit(1e12, "trnsim's limit: 10^12 tokens"),
                              {"tokens", "prefix cache size",
                               "Most tokens the cache keeps. null: whatever the KV budget holds.", kServeServer, "",
                               true}));
  t.push_back(Rows::choice("serve.router", [](Spec& s) -> std::string& { return s.router; }, "round_robin",
                     [] { return serve::router_names(); },
                     {"", "router",
                      "How requests are spread over the dp replicas: round robin, the least loaded (requests "
                      "waiting, running or on their way there), or every call of a session to the same replica.",
                      kServeServer}));
  t.push_back(Rows::choice("serve.harness", [](Spec& s) -> std::string& { return s.harness; }, "vllm-bench",
                     fixed_choices({"vllm-bench", "guidellm", "llmperf", "mlperf"}),
                     {"", "harness",
                      "Whose definition of inter-token latency the report uses: vllm-bench (every gap, pooled), "
                      "guidellm ((last - first token) / (output - 1) per request), llmperf (end to end / output per "
                      "request), mlperf (MLPerf Inference loadgen: TPOT per sample, plus the benchmark's summary -- "
                      "Server with Poisson arrivals, VALID when p99 TTFT and p99 TPOT meet serve.targets; Offline with "
                      "burst arrivals).",
                      kServeTargets}));
  t.push_back(Rows::optional_number("serve.targets.ttft_s",
                              [](Spec& s) -> std::optional<double>& { return s.targets.ttft_s; }, target_lo(),
                              time_cap(),
                              {"s", "TTFT target", "Goodput: time to first token a request must meet. null: none.",
                               kServeTargets, "", true}));
  t.push_back(Rows::optional_number("serve.targets.tpot_s",
                              [](Spec& s) -> std::optional<double>& { return s.targets.tpot_s; }, target_lo(),
                              time_cap(),
                              {"s", "TPOT target", "Goodput: time per output token a request must meet. null: none.",
                               kServeTargets, "", true}));
  t.push_back(Rows::number("serve.targets.fraction", [](Spec& s) -> double& { return s.targets.fraction; }, 0.9,
                     above(0, "a share of the requests: more than none", 0.01), share_hi(),
                     {"", "attainment", "Share of requests that must meet both targets (DistServe: 90%).",
                      kServeTargets}));
  t.push_back(Rows::boolean("serve.find_rate", [](Spec& s) -> bool& { return s.find_rate; }, false,
                      {"", "find the rate",
                       "Also search the highest request rate whose attainment meets serve.targets.fraction "
                       "(`trnsim serve --find-rate`).",
                       kServeTargets}));
  t.push_back(Rows::choice("serve.trace.format", [](Spec& s) -> std::string& { return s.trace.format; }, "auto",
                     [] { return serve::trace_format_names(); },
                     {"", "trace format", "vidur, splitwise (CSV), mooncake, sessions (JSONL), or auto.", kServeTrace,
                      "serve.arrivals=trace"}));
  t.push_back(Rows::text("serve.trace.file", [](Spec& s) -> std::string& { return s.trace.file; }, 4096,
                   {"", "trace file", "A trace file, relative to the scenario file (the command line only).",
                    kServeTrace, "serve.arrivals=trace"}));
  t.push_back(Rows::text("serve.trace.text", [](Spec& s) -> std::string& { return s.trace.text; }, 4000000,
                   {"", "trace", "The trace itself (what a link or the page can carry).", kServeTrace,
                    "serve.arrivals=trace"}));
  t.push_back(Rows::number("serve.trace.time_scale", [](Spec& s) -> double& { return s.trace.time_scale; }, 1.0,
                     above(0, "a factor on times is positive", 1e-6), limit(1e6, "trnsim's limit: a million"),
                     {"", "time scale", "Multiplies the trace's arrival times and pauses (0.5: twice the rate).",
                      kServeTrace, "serve.arrivals=trace", true}));
  t.push_back(Rows::integer("serve.trace.max_requests", [](Spec& s) -> int& { return s.trace.max_requests; }, 1000000,
                      at_least(1, "a trace has at least one request"), requests_cap(),
                      {"requests", "trace limit", "A longer trace is refused (every request's figures are kept).",
                       kServeTrace, "serve.arrivals=trace", true}));
  namespace pub = serve::published;
  const char* kWhenSessions = "serve.arrivals=sessions";
  t.push_back(Rows::integer("serve.sessions.count", [](Spec& s) -> int& { return s.sessions.count; }, 200,
                      at_least(1, "a run sends at least one session"), limit(1000000, "trnsim's limit: a million"),
                      {"sessions", "sessions", "Agentic sessions to send.", kServeSessions, kWhenSessions, true}));
  t.push_back(Rows::number("serve.sessions.turns", [](Spec& s) -> double& { return s.sessions.turns; },
                     pub::kCopilotTurnsPerSession, at_least(1, "a session has at least one turn"),
                     limit(1000, "trnsim's limit: 1000"),
                     {"turns", "turns per session", "Mean user turns (geometric). Default: the Copilot coding-agent "
                                                    "dataset (PERF.md).",
                      kServeSessions, kWhenSessions}));
  t.push_back(Rows::number("serve.sessions.calls_per_turn", [](Spec& s) -> double& { return s.sessions.calls_per_turn; },
                     pub::kCopilotCallsPerTurn, at_least(1, "a turn makes at least one call"),
                     limit(1000, "trnsim's limit: 1000"),
                     {"calls", "calls per turn", "Mean LLM calls per turn (geometric). Default: Copilot dataset.",
                      kServeSessions, kWhenSessions}));
  t.push_back(Rows::number("serve.sessions.prompt_tokens", [](Spec& s) -> double& { return s.sessions.prompt_tokens; },
                     pub::kMooncakeToolAgentInputTokens, length_lo(), tokens_cap(),
                     {"tokens", "prompt per call", "Mean prompt of a call. Default: Mooncake's tool-agent trace.",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(Rows::number("serve.sessions.output_tokens", [](Spec& s) -> double& { return s.sessions.output_tokens; },
                     pub::kMooncakeToolAgentOutputTokens, length_lo(), tokens_cap(),
                     {"tokens", "output per call", "Mean output of a call (exponential). Default: Mooncake tool-agent.",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(Rows::number("serve.sessions.cached_fraction",
                     [](Spec& s) -> double& { return s.sessions.cached_fraction; },
                     pub::copilot_cached_fraction(), share_lo(),
                     below(1, "every call brings new tokens (its message or a tool's result): less than all cached",
                           0.999),
                     {"", "cached share",
                      "Share of prompt tokens an unbounded prefix cache would reuse. Default: Copilot dataset, 540.95B "
                      "of 631.4B.",
                      kServeSessions, kWhenSessions}));
  t.push_back(Rows::number("serve.sessions.tool_pause_s", [](Spec& s) -> double& { return s.sessions.tool_pause_s; },
                     1.0, time_lo(), time_cap(),
                     {"s", "tool time", "Mean tool execution between the calls of a turn (exponential; an assumption).",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(Rows::number("serve.sessions.think_time_s", [](Spec& s) -> double& { return s.sessions.think_time_s; },
                     10.0, time_lo(), time_cap(),
                     {"s", "think time", "Mean user time between turns (exponential; an assumption).", kServeSessions,
                      kWhenSessions, true}));
}


}  // namespace

const std::vector<FieldOf<Spec>>& fields() {
  static const std::vector<FieldOf<Spec>> table = [] {
    std::vector<Field> t;
    add_serve_fields(t);
    return t;
  }();
  return table;
}

}  // namespace trnsim::serve
