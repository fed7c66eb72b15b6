// The exact-shape step pricer (step_pricer.h).
#include "serve/stack/step_pricer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/mixer_cost.h"
#include "schedule/schedule.h"

namespace trnsim::serve {

namespace {

constexpr double kContextGrid = 64;  // tokens between the grid points of attention contexts

unsigned long long key3(int a, long long b, long long c) {
  return (static_cast<unsigned long long>(a) << 56) ^ (static_cast<unsigned long long>(b) << 32) ^
         static_cast<unsigned long long>(c);
}

double memory_item(const workload::Result& r, const std::string& name) {
  for (const auto& m : r.memory)
    if (m.name == name) return m.bytes;
  return 0;
}

StepPricer::Cost lerp(const StepPricer::Cost& a, const StepPricer::Cost& b, double f) {
  StepPricer::Cost c;
  c.time_s = a.time_s + f * (b.time_s - a.time_s);
  c.split = a.split.toward(b.split, f);
  return c;
}

// The attention kernel of a layer's operator list.
plan::Operator attention_of(std::vector<plan::Operator> ops) {
  for (auto& o : ops)
    if (o.kind == plan::OpKind::attention) return o;
  throw std::logic_error("a layer without an attention kernel");
}

}  // namespace

void StepPricer::Cost::add(const Cost& c, double times) {
  time_s += times * c.time_s;
  split += c.split * times;
}

StepPricer::StepPricer(const workload::Spec& spec, const hw::System& system, int input_tokens, int output_tokens)
    : system_(system),
      // What `trnsim run` prices with -- the stack's placement (logical NeuronCores per chip as
      // TP ranks), MoE execution, the precisions the chip runs and the scenario's pricer --
      // built once, by the reference evaluation, which hands it over.
      reference_(evaluate_reference(spec, system_, input_tokens, output_tokens, pricing_)),
      model_(pricing_->model),
      ctx_(pricing_->ctx),
      layout_(pricing_->layout),
      pricer_(std::move(pricing_->pricer)) {
  state_bytes_ = ctx_.pl.linear_state_elems_chip * plan::linear_state_bytes_per_element(ctx_);
  // The layers of the stage holding the most KV at the reference context, one representative
  // layer per token mixer and attention shape (what a layer holds depends only on them).
  const double ref_context = double(input_tokens) + output_tokens;
  double most = -1;
  for (int s = 0; s < ctx_.pl.pp; ++s) {
    std::vector<KvLayers> stage;
    for (int i = 0; i < model_->layers; ++i) {
      if (layout_.layer_stage[i] != s) continue;
      const model::LayerSpec& spec = model_->layer_specs[i];
      auto it = std::find_if(stage.begin(), stage.end(), [&](const KvLayers& k) {
        return k.mixer == spec.mixer && model_->layer_specs[k.layer].attn == spec.attn;
      });
      if (it == stage.end())
        stage.push_back({spec.mixer, i, 1, plan::attention_chip(*model_, ctx_.pl, spec).kv_cache_elems * ctx_.dt.kvb});
      else ++it->count;
    }
    const double bytes = kv_bytes_of(stage, ref_context);
    if (bytes > most) most = bytes, kv_layers_ = stage;
  }
}

double StepPricer::kv_bytes_of(const std::vector<KvLayers>& layers, double context) const {
  double bytes = 0;
  for (const auto& l : layers)
    bytes += l.count * (l.mixer == model::Mixer::linear_attention
                            ? state_bytes_
                            : model::kv_tokens_held(*model_, l.layer, context) * l.token_bytes);
  return bytes;
}

double StepPricer::kv_bytes(double context) const { return kv_bytes_of(kv_layers_, context); }

ReplicaMemory StepPricer::memory(double max_step_tokens) const {
  ReplicaMemory m;
  const workload::Result& ref = reference_.run;
  m.capacity_bytes = ref.hbm_capacity_bytes;
  m.weights_bytes = memory_item(ref, "weights");
  m.reserve_bytes = memory_item(ref, "reserve");
  // The reference's working set is one prefill of its input; it grows with the step's tokens.
  const double ref_tokens = std::max(1, ref.spec.inference.input_tokens);
  m.activations_bytes = memory_item(ref, "activations") * std::max(max_step_tokens, ref_tokens) / ref_tokens;
  m.kv_budget_bytes = m.capacity_bytes - m.weights_bytes - m.reserve_bytes - m.activations_bytes;
  return m;
}

StepPricer::Cost StepPricer::price_ops(const std::vector<plan::Operator>& ops) const {
  Cost c;
  for (const auto& op : ops) {
    const price::PricedOp p = pricer_->price(op);
    c.time_s += p.total_s();
    c.split += p.split();
  }
  return c;
}

// Every operator but the attention kernels and the last stage's, for T tokens, all stages.
StepPricer::Cost StepPricer::tokens_cost(int tokens) const {
  auto it = tokens_.find(static_cast<unsigned long long>(tokens));
  if (it != tokens_.end()) return it->second;
  plan::Pass p;
  p.seqs = 1;
  p.new_tokens = tokens;
  plan::PassOps ops = plan::pass_ops(ctx_, layout_, p);
  Cost c;
  for (std::size_t t = 0; t < ops.per_type.size(); ++t) {
    std::vector<plan::Operator> rest;
    for (const auto& o : ops.per_type[t])
      if (o.kind != plan::OpKind::attention) rest.push_back(o);
    c.add(price_ops(rest), layout_.type_counts[t]);
  }
  c.add(price_ops(ops.first));
  c.add(price_ops(ops.boundary), ctx_.pl.pp - 1);
  return tokens_.emplace(static_cast<unsigned long long>(tokens), c).first->second;
}

// The last stage's final norm and LM head for `rows` sampled sequences.
StepPricer::Cost StepPricer::rows_cost(int rows) const {
  auto it = rows_.find(static_cast<unsigned long long>(rows));
  if (it != rows_.end()) return it->second;
  plan::Pass p;
  p.seqs = rows;
  p.new_tokens = 1;
  const Cost c = price_ops(plan::pass_ops(ctx_, layout_, p).last);
  return rows_.emplace(static_cast<unsigned long long>(rows), c).first->second;
}

// The decode attention kernel of one layer of `type` for `seqs` sequences whose new tokens
// each attend to 1 + kContextGrid * grid keys.
StepPricer::Cost StepPricer::decode_point(int type, int seqs, long long grid) const {
  const unsigned long long key = key3(type, seqs, grid);
  auto it = decode_.find(key);
  if (it != decode_.end()) return it->second;
  plan::Pass p;
  p.seqs = seqs;
  p.new_tokens = 1;
  p.decode = true;
  p.ctx_full = p.ctx_sliding = p.ctx_chunked = 1 + kContextGrid * double(grid);
  p.pairs_full = p.pairs_sliding = p.pairs_chunked = p.ctx_full;
  const Cost c = price_ops({attention_of(plan::layer_ops(ctx_, p, layout_.type_spec[type]))});
  return decode_.emplace(key, c).first->second;
}

// One prefill chunk's attention kernel in one layer of `type`: `new_tokens` queries after
// kContextGrid * grid cached tokens.
StepPricer::Cost StepPricer::chunk_point(int type, int new_tokens, long long grid) const {
  const unsigned long long key = key3(type, new_tokens, grid);
  auto it = chunk_.find(key);
  if (it != chunk_.end()) return it->second;
  const Cost cost = price_ops({attention_of(chunk_layer_ops(type, new_tokens, kContextGrid * double(grid)))});
  return chunk_.emplace(key, cost).first->second;
}

std::vector<plan::Operator> StepPricer::chunk_layer_ops(int type, double new_tokens, double cached) const {
  const model::Mixer mixer = layout_.type_spec[type].mixer;
  plan::Pass p;
  p.seqs = 1;
  p.new_tokens = new_tokens;
  p.pairs_full = p.pairs_sliding = p.pairs_chunked =
      model::attention_pairs(*model_, mixer, cached + new_tokens) - model::attention_pairs(*model_, mixer, cached);
  std::vector<plan::Operator> ops = plan::layer_ops(ctx_, p, layout_.type_spec[type]);
  if (mixer != model::Mixer::linear_attention && cached > 0) {
    // The chunk also reads the KV of the cached tokens its first query sees.
    const double read = model::attention_keys_at(*model_, mixer, cached) - 1;
    for (auto& o : ops)
      if (o.kind == plan::OpKind::attention) {
        o.hbm_bytes += read * plan::attention_chip(*model_, ctx_.pl, layout_.type_spec[type]).kv_cache_elems * ctx_.dt.kvb;
        o.seq_kv = new_tokens + read;
      }
  }
  return ops;
}

double StepPricer::hidden_prefill_collectives_s(const PrefillChunk& chunk, double overlap) const {
  if (overlap <= 0 || chunk.new_tokens <= 0) return 0;
  double hidden = 0;
  for (std::size_t t = 0; t < layout_.type_spec.size(); ++t) {
    std::vector<price::PricedOp> priced;
    for (const auto& op : chunk_layer_ops(static_cast<int>(t), chunk.new_tokens, chunk.cached_tokens))
      priced.push_back(pricer_->price(op));
    hidden += layout_.type_counts[t] * schedule::hidden_collective_s(priced, overlap);
  }
  return hidden;
}

namespace {

// Batch sizes where decode kernels are priced: every size up to 16, then powers of two; a
// kernel's cost is linear in the batch at a given context, so between them it interpolates.
int batch_grid_below(int seqs) {
  if (seqs <= 16) return seqs;
  int b = 16;
  while (b * 2 <= seqs) b *= 2;
  return b;
}

}  // namespace

StepPricer::Cost StepPricer::decode_at(int type, int seqs, double mean_keys) const {
  const double x = (std::max(mean_keys, 1.0) - 1) / kContextGrid;
  const long long j = static_cast<long long>(std::floor(x));
  const double f = x - double(j);
  const Cost a = decode_point(type, seqs, j);
  return f == 0 ? a : lerp(a, decode_point(type, seqs, j + 1), f);
}

StepPricer::Cost StepPricer::decode_cost(int type, int seqs, double mean_keys) const {
  const int b0 = batch_grid_below(seqs);
  const Cost a = decode_at(type, b0, mean_keys);
  if (b0 == seqs) return a;
  const int b1 = b0 * 2;
  return lerp(a, decode_at(type, b1, mean_keys), double(seqs - b0) / double(b1 - b0));
}

StepPricer::Cost StepPricer::chunk_cost(int type, int new_tokens, int cached_tokens) const {
  const double x = double(cached_tokens) / kContextGrid;
  const long long j = static_cast<long long>(std::floor(x));
  const double f = x - double(j);
  const Cost a = chunk_point(type, new_tokens, j);
  return f == 0 ? a : lerp(a, chunk_point(type, new_tokens, j + 1), f);
}

int StepPricer::layers() const {
  int n = 0;
  for (int c : layout_.type_counts) n += c;
  return n;
}

StepTime StepPricer::price(const Batch& batch) const {
  if (batch.more_decodes > 0) throw std::logic_error("the step pricer needs every decode's context");
  const int seqs = static_cast<int>(batch.decode_contexts.size());
  long long tokens = seqs, rows = seqs;
  for (const auto& ch : batch.prefills) {
    tokens += ch.new_tokens;
    rows += ch.last ? 1 : 0;
  }
  Cost total;
  if (tokens > 0) total = tokens_cost(static_cast<int>(tokens));
  if (rows > 0) total.add(rows_cost(static_cast<int>(rows)));
  for (std::size_t t = 0; t < layout_.type_names.size(); ++t) {
    const int type = static_cast<int>(t);
    const double layers = layout_.type_counts[t];
    const model::Mixer mixer = layout_.type_spec[t].mixer;
    const bool linear = mixer == model::Mixer::linear_attention;
    if (seqs > 0) {
      // Keys each decoding token attends to in this layer type (its context is its position + 1).
      double keys = 0;
      if (!linear)
        for (int c : batch.decode_contexts) keys += mixer == model::Mixer::full_attention ? c : model::attention_keys_at(*model_, mixer, c - 1);
      total.add(decode_cost(type, seqs, linear ? 1 : keys / seqs), layers);
    }
    for (const auto& ch : batch.prefills)
      if (ch.new_tokens > 0)
        total.add(linear ? chunk_point(type, ch.new_tokens, 0) : chunk_cost(type, ch.new_tokens, ch.cached_tokens), layers);
  }
  StepTime st;
  st.time_s = total.time_s;
  st.split = total.split;
  st.padded_batch = seqs + static_cast<int>(batch.prefills.size());
  st.padded_tokens = static_cast<int>(tokens);
  return st;
}

}  // namespace trnsim::serve
