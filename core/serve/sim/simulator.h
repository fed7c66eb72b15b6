// The event-driven serving simulator: requests arrive (or closed-loop clients send them),
// wait, are routed to one of dp replicas, admitted into its batch slots, run in engine steps
// priced by a StepModel (core/serve/stack/step_model.h), and stream tokens until done.
// Deterministic: the same inputs give the same events in the same order (ties broken by
// creation order), and only + - * / and comparisons touch the clock, so native and
// WebAssembly runs agree to the bit.
//
// The parts:
//  - this event loop: arrivals, the client's concurrency cap, host overhead, steps, token
//    emission, preemption, chains of calls and their pauses, the run's window and statistics;
//  - the KV manager (kv_manager.h) and the prefix cache (prefix_cache.h): blocks of
//    kv_block_tokens in each replica's KV budget, shared prefixes, eviction;
//  - the policies, chosen by name (core/serve/policy/): the router picks a replica for each
//    released call (serve.router); the batch policy fills each step of a replica
//    (Limits::batch_policy: serve.scheduler or the stack's) through views.h's StepBuilder,
//    within the stack's Limits (batch slots, token budget, prefills per step).
//
// Lazy decode (docs/serving.md, Speed): on a step model that prices decodes by their count and
// longest context, a decoding sequence whose next steps are one token each is not visited until
// a step needs it (a KV block, a sampled position, its last token); every result is the same
// as visiting every sequence at every step (SimConfig::exact_steps), to the bit.
//
// Rules the loop keeps whatever the policies:
//  - memory: an allocation that does not fit evicts unreferenced cached blocks, then preempts
//    the most recently admitted running sequence (recompute: it returns to the head of the
//    queue and later prefills its prompt and the tokens it had generated; its prefix may still
//    be cached).
//  - a request needing more KV than the whole budget, longer than the stack's max context, or
//    with a prompt over the largest compiled context-encoding bucket (Limits::max_prompt), is
//    rejected (counted, not served); so is a preempted one whose recompute is over that bucket
//    (it ends with what it had streamed).
//  - the run's window opens at the first arrival (throughput, occupancy, serve.duration).
//  - agentic chains: a call's next call is released when it finishes plus its pause (tool
//    execution, user think time); closed-loop clients send their next request when one finishes.
// NOT modeled: prefill/decode disaggregation, KV offload to host memory, priorities, request
// cancellation, network time between client and server, stragglers, pipeline micro-batching.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "serve/sim/chain.h"
#include "serve/stack/step_model.h"
#include "serve/stats.h"

namespace trnsim::serve {

struct SimConfig {
  // The server
  int replicas = 1;
  std::string router = "round_robin";  // a registered router (core/serve/policy/router.h)
  int kv_block_tokens = 16;
  bool prefix_cache = true;
  double prefix_cache_max_tokens = 0;  // 0: no limit but the KV budget
  // The clients
  bool closed_loop = false;
  int concurrency = 1;                 // closed loop
  int max_in_flight = 0;               // open loop, > 0: an arrival beyond this many in the system waits at the
                                       // client and is sent (its arrival) when one finishes
  // What is measured
  std::int64_t warmup = 0;             // chains with id < warmup are left out of the statistics
  double duration_s = 0;               // > 0: the run stops at this time; calls unfinished then are not recorded
  std::size_t series_bins = 64;
  std::size_t position_bins = 32;
  // Visit every running sequence at every step (the reference the lazy decode is tested against:
  // the same results, slower).
  bool exact_steps = false;
  // The calls the run is expected to record, if known (0: not): their records are reserved.
  std::size_t expected_calls = 0;
  // Called with the number of calls finished so far, after each one (progress bars); empty: none.
  std::function<void(std::size_t calls_done)> on_call_done;
};

// One finished call.
struct CallRecord {
  std::int64_t chain = 0;
  int call = 0, turn = 0, replica = 0;
  bool session = false;
  double arrival_s = 0, first_token_s = 0, finish_s = 0;
  double queue_s = 0;        // time spent waiting for admission (every episode)
  int input_tokens = 0, output_tokens = 0;
  int cached_tokens = 0;     // prompt tokens found in the prefix cache at first admission
  int preemptions = 0;
  double kv_bytes_final = 0; // KV the call held at its last token (per chip)
};

struct SimResult {
  // The calls
  std::vector<CallRecord> calls;  // in finishing order; warm-up chains excluded
  std::vector<std::pair<double, std::uint32_t>> token_gaps;  // (gap between consecutive tokens, how many)
  std::int64_t chains = 0, calls_all = 0;
  std::int64_t rejected = 0;
  std::int64_t rejected_measured = 0;  // of them, calls of measured (not warm-up) chains
  std::string rejected_reason;    // the first rejection's reason
  std::int64_t cut = 0;            // calls in the system when the run's duration ended it (not recorded)
  std::int64_t preemptions = 0;
  // The run's window
  double start_s = 0;              // the first arrival: the run's window opens here
  double end_s = 0;                // the last completion (or the duration's end)
  // The steps
  std::int64_t steps = 0;
  double busy_s = 0;               // summed over replicas: time spent in steps
  price::TimeSplit step_split;  // the steps' time, summed
  int max_running = 0;
  // Tokens
  double output_tokens = 0, prompt_tokens = 0, cached_prompt_tokens = 0, computed_prefill_tokens = 0;
  // Little's law
  double in_system_area = 0, in_queue_area = 0;  // integrals of requests in system / waiting over time
  double queue_s_all = 0, e2e_s_all = 0;         // summed over every call (warm-up included)
  // KV memory
  double kv_budget_bytes = 0;      // per replica, per chip
  double peak_kv_fraction = 0;     // of the budget held by sequences, the highest replica
  // For the invariant tests (tests/unit/serve/): the most KV one replica ever had allocated
  // (sequences' blocks and cached ones, per chip; the budget bounds it), and the KV sequences
  // still held when the run ended (every replica; 0 once the run has drained).
  double peak_kv_used_bytes = 0, kv_held_at_end_bytes = 0;
  std::uint64_t cache_evictions = 0;
  // Decode tokens the lazy decode emitted without visiting their sequence (0: every step
  // visited every one, SimConfig::exact_steps); for the tests, not the report.
  std::int64_t lazy_tokens = 0;
  // Over time (every replica together): columns running, waiting, KV held by sequences and
  // KV of unreferenced cached blocks (fractions of the budget), output tokens.
  AdaptiveBins series{64, 1e-3, 5};
  // Over the position of a token in its response (every 16th token of each response, so
  // every bin of >= 16 positions is sampled evenly): columns gap sum, count, batch-size sum.
  AdaptiveBins positions{32, 16, 3};
  // The source
  std::vector<std::string> ignored_trace_columns;
  std::string source;
};

// Runs every chain of `source` to completion. `model` prices the steps of every replica (they
// are identical). InputError from the source (trace lines) propagates.
SimResult simulate(const StepModel& model, Source& source, const SimConfig& config);

}  // namespace trnsim::serve
