// `trnsim serve`: a server as a stream of requests -- the serving simulator (sim/simulator.h)
// with its policies (policy/) on a system, a stack's step model (stack/step_model.h),
// arrivals and lengths (requests.h, sessions.h, traces.h) -- and what a user of the service
// would measure (analyses.h):
// latency percentiles, throughput, goodput against targets, occupancy over time, the
// prefix cache, agentic turns, long-response (reasoning) behaviour, what the KV precision
// buys, and optionally the highest request rate that still meets the targets.
//
// Definitions (every figure is per request unless it says otherwise):
//  - TTFT: arrival to the first output token (queueing, the per-request host cost and the
//    prefill included).
//  - TPOT: (end to end - TTFT) / (output tokens - 1): time per output token after the first
//    (vLLM bench's TPOT, guidellm's ITL); requests of one output token have none.
//  - ITL, per serve.harness: vllm-bench -- every gap between consecutive tokens of every
//    request, pooled; guidellm -- (last token - first token) / (output tokens - 1) per request;
//    llmperf -- end to end / output tokens per request (its inter_token_latency, TTFT included);
//    mlperf -- loadgen's TPOT, (last token - first token) / (output tokens - 1) per sample.
//  - end to end: arrival to the last token. Percentiles: numpy's linear interpolation.
//  - goodput (DistServe): the share of requests meeting both the TTFT and the TPOT target
//    (attainment) and those requests per second of the run; the rate search finds the highest
//    arrival rate whose attainment is at least serve.targets.fraction -- DistServe's goodput.
//  - throughput: output tokens per second from the first arrival to the last completion.
//  - MLPerf Inference (serve.harness mlperf; loadgen's results.cc and logging.cc): TPOT per
//    sample (latency - first-token latency) / (output tokens - 1); p99 = the sorted sample at
//    index floor(0.99 n); Server (generated arrivals at a rate): tokens/s = output tokens / the
//    last-issued sample's completion, samples/s = (n - 1) / the same time, VALID when the p99
//    TTFT and p99 TPOT are within serve.targets; Offline (burst): tokens/s and samples/s over
//    the last completion. loadgen's 600 s minimum duration and early-stopping test are reported,
//    not enforced (a simulated run is far shorter).
#pragma once
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/fields.h"
#include "hw/system.h"
#include "serve/sim/simulator.h"
#include "serve/spec.h"
#include "serve/stack/step_model.h"
#include "serve/stats.h"
#include "workload/workload.h"

namespace trnsim::serve {

struct Options {
  bool find_rate = false;  // also search the highest rate meeting the targets (or serve.find_rate)
  // Opens serve.trace.file (the CLI resolves it beside the scenario file). Empty: no file
  // system (the page), and a scenario naming a trace file is an error that says so.
  std::function<std::unique_ptr<std::istream>(const std::string& file)> open_file;
  // open_file for a file system: relative paths beside `dir` ("" = the working directory);
  // a file that cannot be opened is an InputError naming serve.trace.file.
  static std::function<std::unique_ptr<std::istream>(const std::string&)> files_in(const std::string& dir);
  // The step model to use: make_step_model(system, workload, serve) from an earlier run whose
  // system, workload and server settings are the same (server_key, core/report/serving.h:
  // its shape caches and reference then carry over, as the playground does between edits of
  // the traffic). Empty: made here, once for the run and every analysis.
  std::shared_ptr<const StepModel> model;
  // Progress of the main simulation (not the zero-load, KV and rate-search runs): calls
  // finished and the calls expected (0 when unknown: a trace, agentic sessions).
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Called with the main simulation's own result (every call's record, the KV it held), before
  // the report condenses it: what the invariant tests (tests/unit/serve/) check. Empty: none.
  std::function<void(const SimResult&)> observe;
  // Every simulation of the run visits every running sequence at every step (SimConfig::
  // exact_steps): the reference the tests hold the lazy decode to. The same report, slower.
  bool exact_steps = false;
};

struct SeriesPoint {
  double t0_s = 0, t1_s = 0;
  double running = 0, waiting = 0;  // mean over the bin, every replica together
  double kv_fraction = 0;           // mean share of the KV budget held by sequences
  double cache_fraction = 0;        // ... by unreferenced prefix-cache blocks (evictable)
  double output_tokens_per_s = 0;
};

struct PositionPoint {
  double from = 0, to = 0;           // output token positions [from, to)
  double time_per_token_s = 0;       // mean gap before a token at these positions
  double batch = 0;                  // mean step batch that produced them
  double tokens_per_s_per_chip = 0;  // batch / gap / chips per replica
};

struct KvPrecisionRow {
  std::string dtype;
  double bytes_per_token = 0;      // per chip, at the longest context (all layers of the heaviest stage)
  double fit_sequences = 0;        // sequences of the mean length that fit the KV budget
  int batch = 0;                   // min(fit, batch slots)
  double step_s = 0;               // a decode step of that batch at the end of the response
  double tokens_per_s_per_chip = 0;
};

// A decode step as the context grows: how many sequences fit and what a token costs.
struct ContextRow {
  double context = 0;            // tokens of every sequence in the batch
  double fit_sequences = 0;      // that fit the KV budget at this context
  int batch = 0;                 // min(fit, batch slots)
  double step_s = 0;             // one decode step of that batch
  double tokens_per_s_per_chip = 0;
};

struct TurnRow {
  int turn = 0;
  std::size_t calls = 0;
  double ttft_p50_s = 0, ttft_p50_no_reuse_s = 0;  // without reuse: the same run with the prefix cache off
  double cached_fraction = 0;                       // of the turn's prompt tokens
};

// MLPerf Inference loadgen's summary of a serve.harness mlperf run (definitions above).
struct Mlperf {
  std::string scenario;             // Server | Offline
  std::size_t samples = 0;
  double ttft_mean_s = 0, ttft_p99_s = 0, tpot_mean_s = 0, tpot_p99_s = 0;
  double tokens_per_s = 0, samples_per_s = 0;
  double duration_s = 0;            // the time the throughputs divide by
  std::optional<double> ttft_limit_s, tpot_limit_s;  // Server: the constraints (serve.targets)
  bool valid = true;                // Server: both p99s within their constraints; Offline: always
  bool min_duration_met = false;    // loadgen's 600 s minimum (reported, not part of `valid`)
};

struct RateProbe {
  double rate = 0, attainment = 0, goodput_rps = 0;
};

struct Result {
  // What was served
  json scenario;                 // the scenario's canonical JSON when the run came from one (core/report/serving.h), else null
  std::string name;              // the scenario's name ("" when none)
  workload::Spec workload;
  std::string system_name, system_display_name, stack;
  int replicas = 1, chips_per_replica = 1, system_chips = 0;
  std::string source;            // what arrived
  std::string harness;
  // Requests
  std::size_t requests = 0;      // calls measured
  std::int64_t rejected = 0, preemptions = 0, steps = 0;
  std::int64_t cut = 0;          // requests still running when serve.duration ended the run (not measured)
  std::string rejected_reason;
  double duration_s = 0;
  // Latency and throughput
  Summary ttft, tpot, itl, e2e, queue;
  Histogram ttft_histogram, tpot_histogram, e2e_histogram;  // per request, 24 log-spaced bins
  double request_rate = 0, output_tokens_per_s = 0, output_tokens_per_s_per_chip = 0, prompt_tokens_per_s = 0;
  // economics of the measured output rate: per scale-up domain (an NVL72 rack, an UltraServer,
  // an 8-GPU node), per MW all-in and per dollar, at the power and price `trnsim run` uses
  int chips_per_domain = 0;
  double output_tokens_per_s_per_domain = 0, power_per_chip_all_in_watts = 0, tokens_per_s_per_megawatt = 0;
  double price_per_chip_hour_usd = 0, usd_per_million_tokens = 0;
  // goodput
  std::optional<double> target_ttft_s, target_tpot_s;
  double target_fraction = 0;
  double attainment = 0, goodput_rps = 0;
  // MLPerf Inference (serve.harness mlperf)
  std::optional<Mlperf> mlperf;
  // occupancy
  int batch_slots = 0;
  double mean_batch = 0, max_batch = 0;  // running sequences per replica
  double mean_kv_fraction = 0, mean_cache_fraction = 0, peak_kv_fraction = 0, kv_budget_bytes = 0, weights_bytes = 0, hbm_capacity_bytes = 0;
  price::TimeSplit::Shares step_time_shares;
  // prefix cache
  bool prefix_cache = false;
  double prompt_tokens = 0, cached_prompt_tokens = 0, computed_prefill_tokens = 0;
  std::uint64_t cache_evictions = 0;
  // zero load: one request of the mean lengths alone, and `trnsim run` at batch 1
  double zero_load_ttft_s = 0, zero_load_tpot_s = 0, run_ttft_s = 0, run_tpot_s = 0;
  int reference_input_tokens = 0, reference_output_tokens = 0;
  // Little's law on the simulated system and its queue
  double little_l = 0, little_lambda_w = 0, little_lq = 0, little_lambda_wq = 0;
  std::vector<SeriesPoint> series;
  std::vector<PositionPoint> positions;
  std::vector<KvPrecisionRow> kv_precisions;
  std::vector<ContextRow> contexts;  // 1K, 2K, 4K, ... tokens up to four times the mean request
  double kv_fit_sequences = 0;  // at the scenario's KV precision
  // agentic sessions
  std::vector<TurnRow> turns;
  std::size_t sessions = 0;
  double session_kv_bytes_mean = 0, session_kv_bytes_p90 = 0;  // per chip, held at each session's last call
  double ttft_p50_no_reuse_s = 0;
  bool has_no_reuse = false;
  // rate search
  bool searched = false;
  double max_rate = 0;
  // Steady state at max_rate (Little: output tokens/s = rate x mean output tokens per request),
  // per chip, per scale-up domain, per MW all-in and per dollar, as the run's economics above.
  double max_rate_tokens_per_s_per_chip = 0, max_rate_tokens_per_s_per_domain = 0;
  double max_rate_tokens_per_s_per_megawatt = 0, max_rate_usd_per_million_tokens = 0;
  std::vector<RateProbe> probes;
  // Notes for the reader (trace columns not used, rejections, what could not be priced)
  std::vector<std::string> notes;
};

// Serves `serve`'s requests with `workload` on `system` (one replica = tp x pp chips; dp
// replicas). InputError naming the field for impossible or inconsistent serving settings, an
// unreadable trace line, or targets no rate can meet. A whole Scenario: core/report/serving.h.
Result run(const hw::System& system, const workload::Spec& workload, const Spec& serve, const Options& options = {});

}  // namespace trnsim::serve
