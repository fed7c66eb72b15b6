// The Neuron step model: one engine step of a server running a Neuron stack
// (core/data/serving/*.json via price::Stack; registered as "neuron", the step model of every
// stack file), priced through the exact-shape StepPricer
// (step_pricer.h) at the shapes the stack compiled:
//  - token generation runs the compiled batch (max-num-seqs) whatever is in flight -- padding
//    rows are computed and route to experts too -- in the smallest token-generation bucket
//    holding the step's longest context (optimum-neuron: always the whole sequence length);
//  - every prompt runs as its own context-encoding graph (ctx batch 1) padded to the smallest
//    bucket holding it (optimum-neuron: to max_context_length); with prefix caching the
//    cached part is bucketed too (NxDI's 2D buckets, minimums 512 / 256);
//  - vllm-neuron / nxdi never mix: a step is prompts or decodes (batch policy prefill_first);
//    optimum-neuron runs the decode graph, then one prompt's graph, in the same step (chunked,
//    without a token budget: whole prompts);
//  - fused speculation: k draft decode steps and one target pass over k positions per slot,
//    all in the token-generation graph; tokens_per_sequence = the expected accepted tokens;
//  - runtime costs per step: a graph launch per graph run, host scheduling, sampling outside
//    the graph; per request: host cost before it can be scheduled (TTFT includes it);
//  - the KV cache is allocated for every compiled slot at the sequence length (checked).
// Parameters: the stack file (sources in it) and the scenario's workload.compiled.* and
// serve.max_num_seqs. Does NOT model: NxDI chunked prefill and batch-bucketed token
// generation (token_generation_batches), async mode, LoRA, multimodal encoders.
#pragma once
#include <map>
#include <tuple>
#include <utility>
#include <memory>
#include <vector>

#include "price/stack.h"
#include "serve/stack/step_model.h"
#include "serve/stack/step_pricer.h"

namespace trnsim::serve {

// The shapes a Neuron server compiled, resolved from the stack and the scenario.
struct CompiledShapes {
  int batch = 1;               // token-generation slots (max-num-seqs)
  int sequence_length = 0;     // largest token-generation bucket (max-model-len)
  int max_context_length = 0;  // largest context-encoding bucket
  std::vector<int> context_encoding, token_generation;  // buckets, ascending
  std::vector<int> prefix;     // prefix buckets for cached tokens (prefix caching), ascending
  bool prefix_caching = false;
};
// InputError naming the workload.compiled.* field for shapes the stack cannot compile. Prefix
// caching is on when serve.prefix_cache asks and the stack supports it (optimum-neuron does not).
CompiledShapes compiled_shapes(const price::Stack& stack, const workload::Spec& workload, const Spec& serve);

class NeuronStepModel : public StepModel {
 public:
  // The stack workload.stack names; `reference_lengths` as make_step_model computes them
  // (reference_lengths(workload, serve) when not given).
  NeuronStepModel(const hw::System& system, const workload::Spec& workload, const Spec& serve,
                  std::pair<int, int> reference_lengths);
  NeuronStepModel(const hw::System& system, const workload::Spec& workload, const Spec& serve);
  std::string name() const override { return stack_.name; }
  StepTime step(const Batch& batch) const override;
  Limits limits() const override { return limits_; }
  ReplicaMemory memory() const override { return memory_; }
  double kv_bytes(double context_tokens) const override { return pricer_.kv_bytes(context_tokens); }
  double request_overhead_s() const override { return stack_.runtime.request_host_s; }
  const Reference* reference() const override { return &pricer_.reference(); }
  // A decode graph runs every compiled slot at the bucket of the longest context.
  bool prices_decodes_by_longest_context() const override { return tokens_per_step_ == 1; }
  const CompiledShapes& shapes() const { return shapes_; }
  // Prompt tokens the context-encoding graph computes for a prompt chunk (padding included),
  // and the cached tokens it attends to as compiled.
  PrefillChunk padded_prefill(const PrefillChunk& chunk) const;
  // The KV length the token-generation graph attends over for a step whose longest context is `context`.
  int padded_context(int context) const;

 private:
  // A graph's time, priced once per padded shape (the buckets make few; the caches below).
  const StepTime& decode_graph(int longest_context) const;
  const StepTime& prefill_graph(const PrefillChunk& chunk) const;
  StepTime price_decode_graph(int padded_context) const;
  StepTime price_prefill_graph(const PrefillChunk& padded) const;

  // The stack and what it compiled
  const price::Stack& stack_;
  CompiledShapes shapes_;
  Limits limits_;
  ReplicaMemory memory_;
  // Pricing
  StepPricer pricer_;
  // Fused speculation
  workload::Speculation speculation_;
  std::unique_ptr<StepPricer> draft_;
  double tokens_per_step_ = 1;
  int verify_positions_ = 1;
  // Graphs priced so far: decodes by padded context, prompts by padded (tokens, cached
  // tokens, samples) -- everything a graph's time depends on. Steps are priced from one
  // thread at a time (the simulator's), as the StepPricer's own shape caches assume.
  mutable std::map<int, StepTime> decode_graphs_;
  mutable std::map<std::tuple<int, int, bool>, StepTime> prefill_graphs_;
};

}  // namespace trnsim::serve
