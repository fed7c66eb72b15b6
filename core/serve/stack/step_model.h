// The step model: what one engine step of one serving replica costs -- the seam between the
// serving simulator (core/serve/sim/) and a serving stack. The simulator decides which
// sequences run in each step -- decodes at their contexts, prefill chunks -- and asks a
// StepModel for its time; the model owns the server's configuration that shapes steps
// (batch slots, token budget, which batch policy fills a step) and its memory (the KV budget,
// the bytes one sequence holds).
//
// Implementations, one file each in this folder, registered by name with
//   TRNSIM_STEP_MODEL(order, id, factory, serves_stack_files);
//  - "plain" (plain.cpp): exact shapes priced through plan -> price (step_pricer.h), no
//    runtime costs, the serve.* server settings. At zero load it reproduces `trnsim run`'s
//    single-request TTFT and TPOT.
//  - "neuron" (neuron.{h,cpp}): the Neuron stacks' data files (core/data/serving/:
//    vllm-neuron, nxdi, optimum-neuron, or a stack file's path) -- compiled batch sizes and
//    sequence buckets with padding, per-step and per-request runtime costs, MoE expert
//    execution, fused speculation.
// workload.stack names the stack; the step model registered under that name runs it, else the
// one registered to serve stack files. Every StepModel prices through the same plan -> price
// layer, so a step costs what `trnsim run` says the same shape costs.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hw/system.h"
#include "serve/registry.h"
#include "serve/spec.h"
#include "price/time_split.h"
#include "workload/workload.h"

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
  // Further decoding sequences given by their count and longest context only (the simulator's
  // lazy decode: only for a StepModel whose prices_decodes_by_longest_context() is true).
  int more_decodes = 0, more_decodes_longest_context = 0;
  std::vector<PrefillChunk> prefills;
  int decodes() const { return static_cast<int>(decode_contexts.size()) + more_decodes; }
  void clear() {
    decode_contexts.clear();
    more_decodes = more_decodes_longest_context = 0;
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
  // What a step holds
  int max_batch = 1;           // batch slots: sequences running at once (max-num-seqs / compiled batch)
  int max_batched_tokens = 0;  // tokens per step (decodes + prefill chunks); 0: no limit (whole prompts)
  int max_prefill_seqs = 0;    // prompts started or continued per step; 0: no limit
  // The batch policy that fills a step (core/serve/policy/batch_policy.h): "chunked" mixes
  // decodes with prefill chunks (vLLM V1); "prefill_first" runs prefills or decodes, waiting
  // prefills first (vLLM V0, Neuron context encoding).
  std::string batch_policy = "chunked";
  // What a sequence may be
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

// The zero-load reference of a run: `trnsim run` of the workload at batch 1 and the mean
// request lengths -- the figures a step model reproduces at zero load, and the working set
// its memory starts from. Evaluated once per step model (by its StepPricer).
struct Reference {
  int input_tokens = 1, output_tokens = 1;  // the mean request lengths, rounded (reference_lengths)
  // `trnsim run` at those lengths -- or, when one sequence of them does not fit HBM that way
  // (run prefills a whole prompt at once), at one token in and out (ok false, `error` why):
  // the step model still works, the KV budget decides.
  workload::Result run;
  bool ok = true;
  std::string error;
};
// Evaluates the reference (InputError from workload::evaluate but the HBM fit, naming the field).
Reference evaluate_reference(const workload::Spec& workload, const hw::System& system, int input_tokens,
                             int output_tokens);
// The same, handing back the pricing the evaluation built (workload::make_pricing of the
// workload: the lengths do not enter it), which the step pricer then prices steps with.
Reference evaluate_reference(const workload::Spec& workload, const hw::System& system, int input_tokens,
                             int output_tokens, std::unique_ptr<workload::Pricing>& pricing);
// The mean prompt and output lengths of the serving requests (generated lengths, the session
// generator's means, else the workload's lengths), rounded, at least 1.
std::pair<int, int> reference_lengths(const workload::Spec& workload, const Spec& serve);

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
  // The zero-load reference the model was built with; null when it has none (a test's model).
  virtual const Reference* reference() const { return nullptr; }
  // True when a step's decodes cost what their count and longest context say (and each gains
  // one token per step): the simulator may then hand them over as Batch::more_decodes.
  virtual bool prices_decodes_by_longest_context() const { return false; }
};

// The stack named by workload.stack on `system` with the workload's placement (one replica =
// tp x pp chips; dp replicas). A stack reads the system, the workload, the server's serve.*
// fields and the mean request lengths only -- never the rest of the traffic (arrivals, rates,
// seed, targets, traces, sessions: serve::server_key lists what it may read), so a model is
// reused while only the traffic changes. Evaluates the zero-load reference once (its
// reference()). InputError naming the field that makes the placement or the compiled shapes
// impossible.
std::unique_ptr<StepModel> make_step_model(const hw::System& system, const workload::Spec& workload, const Spec& serve);

// The stacks make_step_model knows, "plain" first (the choices of workload.stack: the stack
// data files, core/data/serving/).
std::vector<std::string> stack_names();

// Registration (see the top of this file). A factory gets the system, the workload, the
// server's settings and the mean request lengths (reference_lengths, computed once), and
// evaluates the reference once, through its StepPricer.
using StepModelFactory = std::unique_ptr<StepModel> (*)(const hw::System& system, const workload::Spec& workload,
                                                        const Spec& serve, std::pair<int, int> reference_lengths);
struct StepModelEntry {
  StepModelFactory make = nullptr;
  bool serves_stack_files = false;  // runs any stack data file no step model is registered for by name
};
using StepModels = Registry<StepModelEntry>;

}  // namespace trnsim::serve

#define TRNSIM_STEP_MODEL(order, id, factory, serves_stack_files)                                          \
  TRNSIM_SERVE_REGISTER(step_model, id,                                                                    \
                        ::trnsim::serve::StepModels::add(order, #id,                                       \
                                                         ::trnsim::serve::StepModelEntry{factory, serves_stack_files}))
