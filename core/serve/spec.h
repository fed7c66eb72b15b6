// What a scenario's "serve" object asks the serving simulator (core/serve/serve.h) to do:
// the server settings (the stack is workload.stack), how requests arrive and how long they are, the prefix
// cache, the latency targets, an optional trace and the agentic-session generator. Plain
// typed storage: every field's default, range, unit, label and help are rows of the one
// field table (core/scenario/schema.cpp).
#pragma once
#include <optional>
#include <string>

namespace trnsim::serve {

// A token-length distribution (prompts, outputs, session calls). mean null: the workload's
// own length (workload.inference.input_tokens / output_tokens).
struct Lengths {
  std::string distribution;   // fixed | uniform | normal | lognormal | exponential
  std::optional<double> mean;
  double spread = 0;          // uniform: half-width (mean +- spread); normal, lognormal: standard deviation
  int min = 0, max = 0;       // clamp
  // Outputs only: the mean length as served when the model stops at its end-of-sequence token
  // before the drawn length (the draw being the harness's max_tokens). null: each runs to its draw.
  std::optional<double> eos_mean;
};

struct PrefixCacheSettings {
  bool enabled = false;
  std::optional<double> max_tokens;  // null: as much as the KV budget holds
};

struct Targets {
  std::optional<double> ttft_s, tpot_s;  // null: no target on that figure
  double fraction = 0;                    // of requests that must meet both (DistServe's attainment)
};

struct Trace {
  std::string format;  // auto | vidur | splitwise | mooncake | sessions
  std::string file;    // CLI only: a path, relative to the scenario file
  std::string text;    // the trace itself, inline (what the page can carry)
  double time_scale = 1;  // multiplies the trace's arrival times (and tool pauses)
  int max_requests = 0;   // refuse a longer trace
};

// Agentic sessions (serve.arrivals = sessions): defaults derived from published statistics
// (core/serve/sessions.h).
struct Sessions {
  int count = 0;
  double turns = 0, calls_per_turn = 0;
  double prompt_tokens = 0, output_tokens = 0;  // means per call
  double cached_fraction = 0;                   // of prompt tokens, with an unbounded cache
  double tool_pause_s = 0, think_time_s = 0;    // means: between calls of a turn, between turns
};

struct Spec {
  // How requests arrive
  std::string arrivals;         // poisson | gamma | constant | burst | closed | trace | sessions
  double rate = 0;              // requests (or sessions) per second
  double burstiness = 1;        // gamma shape (1 = Poisson; smaller = burstier; vLLM bench's --burstiness)
  int concurrency = 0;          // closed loop: requests in flight
  int max_concurrency = 0;      // open-loop arrivals, > 0: at most this many in flight, the rest wait at the client
  int requests = 0;             // how many to send (generated arrivals)
  int seed = 0;
  Trace trace;
  Sessions sessions;
  // How long they are
  Lengths input, output;
  int shared_prefix_tokens = 0; // generated requests: a prompt prefix every request shares (system prompt)
  // The server (the stack is workload.stack)
  int max_num_seqs = 0, max_batched_tokens = 0, max_prefill_seqs = 0;
  std::string scheduler;        // the batch policy of the plain stack (core/serve/policy/: chunked, prefill_first)
  // A GPU server stack's capacity scheduler for this run ("": the stack's own): guaranteed_no_evict
  // or max_utilization (TensorRT-LLM's CapacitySchedulerPolicy).
  std::string capacity_policy;
  // Micro-batches a pipeline-parallel replica keeps in flight (TensorRT-LLM: pp): each is a lane
  // with its own steps, batch slots and token budget, and its share of every chip's KV cache.
  int micro_batches = 1;
  int kv_block_tokens = 0;
  PrefixCacheSettings prefix_cache;
  std::string router;           // over the dp replicas (core/serve/policy/: round_robin, least_loaded, session_affinity)
  // What is measured
  int warmup_requests = 0;      // the first completions, left out of the statistics
  double duration_s = 0;        // > 0: the run ends there; calls unfinished then are left out (guidellm's max-seconds)
  std::string harness;          // vllm-bench | guidellm | llmperf | mlperf: the TPOT / ITL definitions (mlperf: loadgen's
                                // Server or Offline summary as well, analyses.h)
  Targets targets;
  bool find_rate = false;
};

}  // namespace trnsim::serve
