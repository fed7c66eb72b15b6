// The Neuron step model (neuron.h).
#include "serve/stack/neuron.h"

#include <algorithm>

#include "common/error.h"
#include "workload/speculative.h"

namespace trnsim::serve {

namespace {

// A bucket list from the scenario, or the stack's automatic one up to `max_length`.
std::vector<int> buckets(const std::vector<int>& given, int min_length, int max_length, const std::string& field) {
  if (given.empty()) return price::automatic_buckets(std::min(min_length, max_length), max_length);
  std::vector<int> b = given;
  std::sort(b.begin(), b.end());
  if (b.back() > max_length)
    throw InputError(field, "bucket " + std::to_string(b.back()) + " exceeds its maximum length " + std::to_string(max_length));
  return b;
}

void add(StepTime& into, const StepTime& s) {
  into.time_s += s.time_s;
  into.split += s.split;
  into.padded_tokens += s.padded_tokens;
}

// The smallest of ascending `buckets` holding `length` (price::bucket_for, which names the
// field when none does), without building the field's name on the way.
int bucket_of(const std::vector<int>& buckets, int length, const char* field) {
  const auto it = std::lower_bound(buckets.begin(), buckets.end(), length);
  return it != buckets.end() ? *it : price::bucket_for(buckets, length, field);
}

StepTime scaled(StepTime s, double times) {
  s.time_s *= times;
  s.split = s.split * times;
  return s;
}

}  // namespace

CompiledShapes compiled_shapes(const price::Stack& stack, const workload::Spec& w, const Spec& serve) {
  const workload::Compiled& c = w.compiled;
  CompiledShapes k;
  k.batch = serve.max_num_seqs;
  // Default: vLLM's max-model-len, the model's max_position_embeddings (else input + output).
  const int model_max = workload::spec_model(w)->max_position_embeddings;
  k.sequence_length = c.sequence_length > 0 ? c.sequence_length
                      : model_max > 0        ? model_max
                                             : w.inference.input_tokens + w.inference.output_tokens;
  k.max_context_length = c.max_context_length > 0 ? c.max_context_length : k.sequence_length;
  if (k.max_context_length > k.sequence_length)
    throw InputError("workload.compiled.max_context_length", "must not exceed the sequence length (" +
                                                                 std::to_string(k.sequence_length) + "), got " +
                                                                 std::to_string(k.max_context_length));
  k.prefix_caching = serve.prefix_cache.enabled && stack.prefix_caching;  // else the server turns it off
  const price::Buckets& b = stack.buckets;
  const bool fixed_shape = !b.enabled || stack.pad_prefill_to_max;
  const int ce_min = k.prefix_caching ? b.min_prefix_context_encoding : b.min_context_encoding;
  const int tg_min = k.prefix_caching ? b.min_prefix_token_generation : b.min_token_generation;
  k.context_encoding = fixed_shape ? std::vector<int>{k.max_context_length}
                                   : buckets(c.context_encoding_buckets, ce_min, k.max_context_length,
                                             "workload.compiled.context_encoding_buckets");
  k.token_generation = (!b.enabled || stack.decode_reads_max) ? std::vector<int>{k.sequence_length}
                                                              : buckets(c.token_generation_buckets, tg_min, k.sequence_length,
                                                                        "workload.compiled.token_generation_buckets");
  if (k.prefix_caching) k.prefix = price::automatic_buckets(std::min(b.min_prefix_context_encoding, k.max_context_length),
                                                            k.max_context_length);
  return k;
}

NeuronStepModel::NeuronStepModel(const hw::System& system, const workload::Spec& w, const Spec& serve)
    : NeuronStepModel(system, w, serve, reference_lengths(w, serve)) {}

NeuronStepModel::NeuronStepModel(const hw::System& system, const workload::Spec& w, const Spec& serve,
                                 std::pair<int, int> lengths)
    : stack_(price::load_stack(w.stack)),
      shapes_(compiled_shapes(stack_, w, serve)),
      pricer_(w, system, lengths.first, lengths.second),
      speculation_(w.speculation) {
  if (speculation_.enabled()) {
    draft_ = std::make_unique<StepPricer>(workload::draft_spec(w), system, lengths.first, lengths.second);
    tokens_per_step_ = workload::speculative_tokens_per_step(speculation_, stack_.speculation_bonus_token);
    verify_positions_ = workload::verify_positions(speculation_, stack_.speculation_bonus_token);
  }
  limits_.max_batch = shapes_.batch;
  limits_.max_batched_tokens = 0;  // whole prompts: Neuron context encoding does not chunk here
  limits_.max_prefill_seqs = stack_.context_encoding_batch;
  limits_.batch_policy = stack_.prefill_alone ? "prefill_first" : "chunked";
  limits_.max_context = shapes_.sequence_length;
  limits_.max_prompt = *std::max_element(shapes_.context_encoding.begin(), shapes_.context_encoding.end());
  limits_.prefix_caching = shapes_.prefix_caching;
  // The working set of a prompt of the reference length (the compiled graphs' scratchpads for
  // their largest buckets are not counted).
  memory_ = pricer_.memory(std::max(lengths.first, shapes_.batch * verify_positions_));
  // Without the block KV layout (prefix caching off, N3) every compiled slot holds its KV
  // cache at the full sequence length, allocated up front; with it the KV budget decides.
  const double need = shapes_.batch * pricer_.kv_bytes(shapes_.sequence_length);
  if (!shapes_.prefix_caching && need > memory_.kv_budget_bytes)
    throw InputError("serve.max_num_seqs", "the " + stack_.name + " server allocates the KV cache of every compiled slot: " +
                                               std::to_string(shapes_.batch) + " x " +
                                               std::to_string(shapes_.sequence_length) + " tokens need " +
                                               std::to_string(static_cast<long long>(need / (1 << 20))) + " MiB per chip, " +
                                               std::to_string(static_cast<long long>(std::max(0.0, memory_.kv_budget_bytes) /
                                                                                      (1 << 20))) +
                                               " MiB are left; compile fewer slots or a shorter sequence length");
}

int NeuronStepModel::padded_context(int context) const {
  return bucket_of(shapes_.token_generation, context, "workload.compiled.token_generation_buckets");
}

PrefillChunk NeuronStepModel::padded_prefill(const PrefillChunk& c) const {
  PrefillChunk p = c;
  p.new_tokens = bucket_of(shapes_.context_encoding, c.new_tokens, "workload.compiled.context_encoding_buckets");
  if (c.cached_tokens > 0)
    p.cached_tokens = shapes_.prefix_caching ? bucket_of(shapes_.prefix, c.cached_tokens, "serve.prefix_cache")
                                             : c.cached_tokens;
  return p;
}

// What a decode step costs depends on its padded context only (every slot of the compiled
// batch runs, at the bucket holding the longest context): priced once per bucket.
const StepTime& NeuronStepModel::decode_graph(int longest_context) const {
  const int ctx = padded_context(longest_context);
  auto it = decode_graphs_.find(ctx);
  if (it == decode_graphs_.end()) it = decode_graphs_.emplace(ctx, price_decode_graph(ctx)).first;
  return it->second;
}

StepTime NeuronStepModel::price_decode_graph(int ctx) const {
  Batch b;
  b.decode_contexts.assign(static_cast<std::size_t>(shapes_.batch), ctx);
  if (!draft_) {
    StepTime t = pricer_.price(b);
    t.padded_tokens = shapes_.batch;
    return t;
  }
  // Fused speculation: k draft steps, then the target over its positions of every slot.
  StepTime t = scaled(draft_->price(b), speculation_.length);
  Batch verify;
  verify.prefills.assign(static_cast<std::size_t>(shapes_.batch), PrefillChunk{verify_positions_, ctx, true});
  add(t, pricer_.price(verify));
  t.padded_tokens = shapes_.batch * verify_positions_;
  return t;
}

// A prompt's graph depends on its padded shape only (tokens, cached tokens, whether it
// samples): priced once per shape.
const StepTime& NeuronStepModel::prefill_graph(const PrefillChunk& chunk) const {
  const PrefillChunk p = padded_prefill(chunk);
  const auto key = std::make_tuple(p.new_tokens, p.cached_tokens, p.last);
  auto it = prefill_graphs_.find(key);
  if (it == prefill_graphs_.end()) it = prefill_graphs_.emplace(key, price_prefill_graph(p)).first;
  return it->second;
}

StepTime NeuronStepModel::price_prefill_graph(const PrefillChunk& padded) const {
  Batch b;
  b.prefills.push_back(padded);
  StepTime t = pricer_.price(b);
  t.padded_tokens = padded.new_tokens;
  // The context-encoding graph runs each collective partly under its layer's preceding work,
  // layer by layer as `trnsim run` prices a prompt (the stack's overlap; N4).
  const double hidden = pricer_.hidden_prefill_collectives_s(padded, stack_.context_encoding_overlap);
  t.time_s -= hidden;
  t.split.fabric_s -= hidden;
  return t;
}

StepTime NeuronStepModel::step(const Batch& batch) const {
  StepTime total;
  int graphs = 0;
  const int decodes = batch.decodes();
  if (decodes > 0) {
    if (decodes > shapes_.batch) throw std::logic_error("the simulator scheduled more decodes than the compiled batch");
    int longest = batch.more_decodes > 0 ? batch.more_decodes_longest_context : 0;
    for (int c : batch.decode_contexts) longest = std::max(longest, c);
    add(total, decode_graph(longest));
    total.padded_batch = shapes_.batch;
    total.tokens_per_sequence = tokens_per_step_;
    ++graphs;
  }
  for (const auto& c : batch.prefills) {  // one context-encoding graph per prompt (ctx batch 1)
    add(total, prefill_graph(c));
    ++graphs;
  }
  if (graphs == 0) return total;
  const price::RuntimeCosts& rt = stack_.runtime;
  const double runtime = graphs * rt.graph_launch_s + rt.step_host_s + rt.step_extra_s;
  total.time_s += runtime;
  total.split.overhead_s += runtime;
  if (decodes == 0) total.padded_batch = static_cast<int>(batch.prefills.size());
  return total;
}

namespace {

std::unique_ptr<StepModel> make_neuron_step_model(const hw::System& system, const workload::Spec& w, const Spec& serve,
                                                  std::pair<int, int> reference_lengths) {
  return std::make_unique<NeuronStepModel>(system, w, serve, reference_lengths);
}

}  // namespace

TRNSIM_STEP_MODEL(20, neuron, make_neuron_step_model, true);

}  // namespace trnsim::serve
