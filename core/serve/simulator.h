// The event-driven serving simulator: requests arrive (or closed-loop clients send them),
// wait, are admitted into one of dp replicas' batch slots, run in engine steps priced by a
// StepModel, and stream tokens until done. Deterministic: the same inputs give the same
// events in the same order (ties broken by creation order), and only + - * / and
// comparisons touch the clock, so native and WebAssembly runs agree to the bit.
//
// What one replica does each step (vLLM's scheduler; `Limits` from the StepModel):
//  - mixed steps (chunked prefill, vLLM V1): running sequences first, in admission order --
//    a decode token each, or the next chunk of an unfinished prompt -- within the step's token
//    budget; then waiting requests, first come first served, while batch slots, budget and
//    memory last (a request that does not fit blocks those behind it);
//  - prefill-first steps (vLLM V0, Neuron context encoding): when requests wait and slots are
//    free the step prefills whole prompts only (decodes stall); otherwise every running
//    sequence decodes one token.
//  - KV memory: every sequence holds its context's KV (blocks of kv_block_tokens, sliding-window
//    layers capped) in the replica's KV budget; computed blocks others may share (a system
//    prompt, a session's context, trace hash ids) go into the prefix cache, where later
//    prompts starting with them find them (a request's own blocks only when it is preempted); an allocation that does not fit
//    evicts unreferenced cached blocks (least recently used first), then preempts the most
//    recently admitted running sequence (recompute: it returns to the head of the queue and
//    later prefills its prompt and the tokens it had generated; its prefix may still be cached).
//  - a request needing more KV than the whole budget, longer than the stack's max context, or
//    with a prompt over the largest compiled context-encoding bucket (Limits::max_prompt), is
//    rejected (counted, not served); so is a preempted one whose recompute is over that bucket
//    (it ends with what it had streamed).
//  - the run's window opens at the first arrival (throughput, occupancy, serve.duration).
//  - agentic chains: a call's next call is released when it finishes plus its pause (tool
//    execution, user think time); closed-loop clients send their next request when one finishes.
//  - the router sends each released call to a replica: round robin, the least loaded (fewest
//    requests waiting, running or on their way there in the host-overhead window), or session
//    affinity (a session's calls to one replica).
// NOT modeled: prefill/decode disaggregation, KV offload to host memory, priorities, request
// cancellation, network time between client and server, stragglers, pipeline micro-batching.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "serve/requests.h"
#include "serve/stats.h"
#include "serve/step_model.h"

namespace trnsim::serve {

struct SimConfig {
  int replicas = 1;
  std::string router = "round_robin";  // round_robin | least_loaded | session_affinity
  bool closed_loop = false;
  int concurrency = 1;                 // closed loop
  int kv_block_tokens = 16;
  bool prefix_cache = true;
  double prefix_cache_max_tokens = 0;  // 0: no limit but the KV budget
  std::int64_t warmup = 0;             // chains with id < warmup are left out of the statistics
  double duration_s = 0;               // > 0: the run stops at this time; calls unfinished then are not recorded
  int max_in_flight = 0;               // open loop, > 0: an arrival beyond this many in the system waits at the
                                       // client and is sent (its arrival) when one finishes
  std::size_t series_bins = 64;
  std::size_t position_bins = 32;
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
  std::vector<CallRecord> calls;  // in finishing order; warm-up chains excluded
  std::vector<std::pair<double, std::uint32_t>> token_gaps;  // (gap between consecutive tokens, how many)
  std::int64_t rejected = 0;
  std::int64_t rejected_measured = 0;  // of them, calls of measured (not warm-up) chains
  std::string rejected_reason;    // the first rejection's reason
  std::int64_t preemptions = 0, steps = 0, chains = 0, calls_all = 0;
  std::int64_t cut = 0;            // calls in the system when the run's duration ended it (not recorded)
  double start_s = 0;              // the first arrival: the run's window opens here
  double end_s = 0;                // the last completion (or the duration's end)
  double busy_s = 0;               // summed over replicas: time spent in steps
  price::TimeSplit step_split;  // the steps' time, summed
  double output_tokens = 0, prompt_tokens = 0, cached_prompt_tokens = 0, computed_prefill_tokens = 0;
  double in_system_area = 0, in_queue_area = 0;  // integrals of requests in system / waiting over time
  double queue_s_all = 0, e2e_s_all = 0;         // summed over every call (warm-up included), for Little's law
  double kv_budget_bytes = 0;      // per replica, per chip
  double peak_kv_fraction = 0;     // of the budget held by sequences, the highest replica
  int max_running = 0;
  std::uint64_t cache_evictions = 0;
  // Over time (every replica together): columns running, waiting, KV held by sequences and
  // KV of unreferenced cached blocks (fractions of the budget), output tokens.
  AdaptiveBins series{64, 1e-3, 5};
  // Over the position of a token in its response (every 16th token of each response, so
  // every bin of >= 16 positions is sampled evenly): columns gap sum, count, batch-size sum.
  AdaptiveBins positions{32, 16, 3};
  std::vector<std::string> ignored_trace_columns;
  std::string source;
};

// Runs every chain of `source` to completion. `model` prices the steps of every replica (they
// are identical). InputError from the source (trace lines) propagates.
SimResult simulate(const StepModel& model, Source& source, const SimConfig& config);

}  // namespace trnsim::serve
