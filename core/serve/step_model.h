// The step model: what one engine step of one serving replica costs. The serving simulator
// (core/serve/simulator.h) decides which sequences run in each step -- decodes at their
// contexts, prefill chunks -- and asks a StepModel for its time; the model owns the
// server's configuration that shapes steps (batch slots, token budget, whether prefills
// mix with decodes) and its memory (the KV budget, the bytes one sequence holds).
//
// Stacks (workload.stack in the scenario: the stack `trnsim run` prices with too):
//  - "plain" (core/serve/plain_step_model.cpp): exact shapes priced through plan -> price
//    (core/plan, core/price), no runtime costs, the scenario's serve.* server settings. At
//    zero load it reproduces `trnsim run`'s single-request TTFT and TPOT.
//  - Neuron stacks ("vllm-neuron", "nxdi", ...; core/serve/neuron_*.{h,cpp}, data in
//    core/data/serving/): compiled batch sizes and sequence buckets with padding, per-step
//    and per-request runtime costs, MoE expert execution, the warm-up throttle.
// Every StepModel prices through the same plan -> price layer, so a step costs what
// `trnsim run` says the same shape costs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "hw/system.h"
#include "price/time_split.h"

namespace trnsim {
struct Scenario;
}

namespace trnsim::serve {

// Prefill work of one sequence in one step (chunked prefill: a prompt may take several).
struct PrefillChunk {
  int new_tokens = 0;     // prompt tokens computed in this step
  int cached_tokens = 0;  // tokens before them already in the KV cache (prefix hit or earlier chunks)
  bool last = true;       // the chunk ends the prompt: its last token's logits are sampled (the first output token)
};

// One engine step of one replica.
struct Batch {
  // Per decoding sequence: the KV tokens its new token attends to, the new token included
  // (a request with S prompt tokens decodes its i-th token after the first at context S + i).
  std::vector<int> decode_contexts;
  std::vector<PrefillChunk> prefills;
  void clear() {
    decode_contexts.clear();
    prefills.clear();
  }
};

struct StepTime {
  double time_s = 0;  // the step, end to end (what every sequence in it waits)
  price::TimeSplit split;  // where it went (totals time_s)
  int padded_batch = 0, padded_tokens = 0;  // what actually ran (compiled shapes; plain: the batch as given)
  // Output tokens each decoding sequence gains in this step: 1, or the expected accepted
  // tokens with speculative decoding (fractional: the simulator carries the remainder).
  double tokens_per_sequence = 1;
};

// The server configuration that shapes steps (vLLM's scheduler settings; Neuron's compiled
// shapes). The simulator never schedules outside these.
struct Limits {
  int max_batch = 1;           // batch slots: sequences running at once (max-num-seqs / compiled batch)
  int max_batched_tokens = 0;  // tokens per step (decodes + prefill chunks); 0: no limit (whole prompts)
  int max_prefill_seqs = 0;    // prompts started or continued per step; 0: no limit
  // true: a step mixes decodes with prefill chunks (vLLM V1 chunked prefill); false: a step
  // is either prefills or decodes, waiting prefills first (vLLM V0, Neuron context encoding).
  bool mixed_steps = true;
  int max_context = 0;  // longest sequence, prompt + output (max-model-len); 0: no limit
  // Longest prompt one prefill takes (a Neuron server's largest context-encoding bucket,
  // max_context_length); 0: no limit. A longer request is rejected, and a preempted one whose
  // recompute (prompt + generated tokens) is longer ends there (simulator.h).
  int max_prompt = 0;
  bool prefix_caching = true;  // the stack can reuse cached prefixes (serve.prefix_cache applies)
};

// Memory of one replica, per chip of its heaviest pipeline stage.
struct ReplicaMemory {
  double capacity_bytes = 0;      // HBM per chip
  double weights_bytes = 0;       // weights (and embeddings) held
  double activations_bytes = 0;   // the working set of the largest step
  double reserve_bytes = 0;       // runtime reserve (workload.efficiency.hbm_reserve_fraction)
  double kv_budget_bytes = 0;     // what is left for the KV cache (<= 0: the model does not fit)
};

class StepModel {
 public:
  virtual ~StepModel() = default;
  virtual std::string name() const = 0;                  // the stack
  virtual StepTime step(const Batch& batch) const = 0;   // must be fast: cache by (padded) shapes
  virtual Limits limits() const = 0;
  virtual ReplicaMemory memory() const = 0;
  // KV cache bytes one sequence holds per chip at `context_tokens` (sliding-window layers hold
  // at most their window), at the scenario's KV precision.
  virtual double kv_bytes(double context_tokens) const = 0;
  // Per-request host cost (tokenize, schedule, detokenize), added between a request's
  // arrival and the moment it can be scheduled (so TTFT includes it).
  virtual double request_overhead_s() const = 0;
};

// The stack named by scenario.workload.stack on `system` with the scenario's placement (one
// replica = tp x pp chips; dp replicas). A stack reads the system, the workload and the
// server's serve.* fields only -- never the traffic (arrivals, rates, lengths, seed, targets,
// traces, sessions: serve::server_key lists what it may read), so a model is reused while
// only the traffic changes. InputError naming the field that makes the placement or the
// compiled shapes impossible.
std::unique_ptr<StepModel> make_step_model(const Scenario& scenario, const hw::System& system);

// The stacks make_step_model knows, "plain" first (the choices of workload.stack).
std::vector<std::string> stack_names();

}  // namespace trnsim::serve
