// The exact-shape step pricer every stack shares: one engine step of a replica -- decodes of
// b sequences at their contexts plus prefill chunks -- planned with core/plan and priced with
// the scenario's pricer (core/price), so a step costs what `trnsim run` says the same shape
// costs. The "plain" stack is this pricer with the scenario's server settings; a Neuron stack
// pads a Batch to its compiled shapes and prices the padded Batch here.
//
// How a step is priced (a sum of operators, as the schedule sums them):
//  - every non-attention operator of every layer, the first stage and the stage boundaries,
//    planned as one pass over the step's T tokens (decodes + chunk tokens): weights are read
//    once per step, whatever mixes in it; cached by T. The last stage's final norm and LM head
//    for the L sequences that sample; cached by L.
//  - the decode attention kernel of each layer type for the b decoding sequences: linear in
//    their summed keys, so it is priced at their mean; priced on a grid of mean keys 1 + 64 j
//    and of batch sizes (1..16, then powers of two) and interpolated bilinearly (the kernel is
//    the batch times a function of the keys: exact wherever it stays on one side of its
//    roofline, as decode attention does; at b = 1 and every grid point exact).
//  - one attention kernel per prefill chunk and layer type: the chunk's causal pairs against
//    its cached tokens, plus reading the cached tokens' KV; cached by (chunk, cached tokens on
//    the same grid, interpolated).
//  - the KV bytes a sequence holds: every layer of the heaviest stage, sliding-window and
//    chunked layers capped at their window or chunk, Gated DeltaNet layers their recurrent
//    state, at the scenario's KV precision (as `trnsim run` counts them).
//  - layer types by token mixer: softmax attention kernels are priced at the keys each new
//    token attends to (model/mixer_cost.h); linear attention's kernel depends on the batch only.
// The model's precision fallback, placement checks and single-sequence HBM fit come from
// workload::evaluate() at batch 1 (the Reference, evaluated once here), whose TTFT and TPOT
// are the zero-load reference.
//
// NOT modeled: pipeline parallelism across steps (with pp > 1 a step is one pass of the batch
// through every stage in turn -- no micro-batches in flight; `trnsim run` overlaps them),
// overlap between consecutive operators, the engine pricer's non-linearity between grid
// points (interpolated), runtime and host costs (the Neuron stacks add them).
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include "hw/system.h"
#include "plan/plan.h"
#include "price/pricer.h"
#include "serve/stack/step_model.h"
#include "workload/workload.h"

namespace trnsim::serve {

class StepPricer {
 public:
  // `reference_input_tokens` / `reference_output_tokens`: the lengths of the zero-load
  // reference evaluation (`trnsim run` at batch 1). InputError from workload::evaluate when the
  // model cannot run there (placement, a single sequence not fitting HBM), naming the field.
  StepPricer(const workload::Spec& spec, const hw::System& system, int reference_input_tokens,
             int reference_output_tokens);
  StepPricer(const StepPricer&) = delete;
  StepPricer& operator=(const StepPricer&) = delete;

  StepTime price(const Batch& batch) const;
  // The collective time one prefill chunk (alone in its step) runs under compute with an
  // overlap fraction: layer by layer, as `trnsim run` schedules a pass
  // (schedule::hidden_collective_s: each collective of d after w of the layer's work since its
  // previous collective costs d - min(overlap d, w)).
  double hidden_prefill_collectives_s(const PrefillChunk& chunk, double overlap) const;
  double kv_bytes(double context_tokens) const;
  // Memory per chip when the largest step computes `max_step_tokens` tokens.
  ReplicaMemory memory(double max_step_tokens) const;
  // `trnsim run` of the workload at batch 1 and the reference lengths (Reference, step_model.h).
  const Reference& reference() const { return reference_; }
  bool reference_ok() const { return reference_.ok; }
  int chips_per_replica() const { return ctx_.pl.tp * ctx_.pl.pp; }
  int replicas() const { return ctx_.pl.dp; }
  // Layers a step passes through (every stage in turn).
  int layers() const;
  // Distinct shapes priced so far (the caches' sizes), for the benchmark and the report.
  std::size_t shapes_priced() const { return tokens_.size() + rows_.size() + decode_.size() + chunk_.size(); }

  // Where a priced part's time goes (the StepTime fields), summable and scalable.
  struct Cost {
    double time_s = 0;
    price::TimeSplit split;
    void add(const Cost& c, double times = 1);
  };

 private:
  Cost tokens_cost(int tokens) const;
  Cost rows_cost(int rows) const;
  Cost decode_cost(int type, int seqs, double mean_keys) const;
  Cost decode_at(int type, int seqs, double mean_keys) const;
  Cost chunk_cost(int type, int new_tokens, int cached_tokens) const;
  Cost decode_point(int type, int seqs, long long grid) const;
  Cost chunk_point(int type, int new_tokens, long long grid) const;
  Cost price_ops(const std::vector<plan::Operator>& ops) const;
  // A layer of `type` running a chunk of `new_tokens` after `cached` tokens: its operators,
  // the attention kernel reading the cached tokens' KV too.
  std::vector<plan::Operator> chunk_layer_ops(int type, double new_tokens, double cached) const;

  // What is priced
  hw::System system_;  // a copy: the pricer refers to it, whatever the caller's lifetime
  std::unique_ptr<workload::Pricing> pricing_;  // the reference evaluation's; keeps the model the context refers to
  Reference reference_;                         // (after pricing_: its evaluation fills pricing_)
  std::shared_ptr<const model::ModelConfig> model_;
  plan::Context ctx_;
  plan::Layout layout_;
  std::unique_ptr<price::Pricer> pricer_;
  // What a sequence holds
  struct KvLayers {
    model::Mixer mixer;
    int layer = 0;  // a layer of that mixer and attention shape (what it holds depends only on them)
    int count = 0;  // layers of that mixer and shape on the heaviest stage
    double token_bytes = 0;  // KV bytes per token it holds, on one chip
  };
  double kv_bytes_of(const std::vector<KvLayers>& layers, double context) const;
  std::vector<KvLayers> kv_layers_;
  double state_bytes_ = 0;     // per sequence per linear-attention layer, on one chip
  // Priced shapes
  mutable std::unordered_map<unsigned long long, Cost> tokens_, rows_, decode_, chunk_;
};

}  // namespace trnsim::serve
