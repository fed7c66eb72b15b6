// The training plan (plan.h): forward, backward (with recompute) and stage transfers of one
// micro-batch, the data-parallel exchange and optimizer of a step (ZeRO stages 0-3), the
// FLOPs that MFU and HFU count, and the bytes each chip holds.
#include <algorithm>

#include "model/mixer_cost.h"
#include "plan/plan.h"

namespace trnsim::plan {

using model::AttentionKind;
using model::Mixer;
using model::ModelConfig;

namespace {

std::vector<Operator> with_scope(std::vector<Operator> ops, Scope scope, int type) {
  for (auto& o : ops) o.scope = scope, o.layer_type = type;
  return ops;
}

std::vector<Operator> backward(const std::vector<Operator>& fwd) {
  std::vector<Operator> b;
  for (const auto& f : fwd) b.push_back(backward_of(f));
  return b;
}

// Parameters per chip of the heaviest stage, split into replicated and expert parts.
void stage_parameters(const Context& c, const Layout& L, TrainingPlan& P) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  for (int s = 0; s < pl.pp; ++s) {
    double de = 0, ee = 0, wbts = 0;
    for (int i = 0; i < m.layers; ++i) {
      if (L.layer_stage[i] != s) continue;
      LayerWeights lw = layer_weights(c, m.layer_specs[i]);
      de += lw.elems() - lw.experts;
      ee += lw.experts;
      wbts += lw.bytes(c.dt);
    }
    double emb = double(m.vocab) * m.hidden / pl.tp;
    if (s == 0) de += emb, wbts += emb * kEmbeddingBytes;
    if (s == pl.pp - 1 && (!m.tie_embeddings || pl.pp > 1)) de += emb, wbts += emb * kEmbeddingBytes;
    if (de + ee > P.dense_elems + P.expert_elems) P.dense_elems = de, P.expert_elems = ee, P.weight_bytes = wbts;
  }
  // Data-parallel groups: dense weights are replicated dp times, tp chips apart; an expert
  // shard exists once per replica when ep <= tp, once per block of ep chips otherwise.
  P.dense_group = pl.dp;
  P.expert_group = pl.ep > pl.tp ? pl.dp * pl.tp / pl.ep : pl.dp;
  P.dense_stride = pl.tp;
  P.expert_stride = pl.ep > pl.tp ? pl.ep : pl.tp;
}

void training_flops(const Context& c, TrainingPlan& P) {
  const ModelConfig& m = c.m;
  const double S = P.sizes.sequence_length;
  // The model's own token mixing (its heads, not the padded ones): attention scores and
  // values over each layer's pairs, the Gated DeltaNet state updates in their prefill form.
  double attn_per_token = 0;
  for (int i = 0; i < m.layers; ++i) {
    const Mixer mixer = m.layer_specs[i].mixer;
    if (mixer == Mixer::linear_attention) {
      attn_per_token += model::linear_attention_prefill_flops_per_token(m);
      continue;
    }
    double pairs = mixer == Mixer::sliding_attention   ? P.pass.pairs_sliding
                   : mixer == Mixer::chunked_attention ? P.pass.pairs_chunked
                                                       : P.pass.pairs_full;
    const double qk = m.attention == AttentionKind::gqa ? m.layer_specs[i].attn.head_dim : model::qk_head_dim(m);
    const double v = m.attention == AttentionKind::gqa ? m.layer_specs[i].attn.v_head_dim : model::v_head_dim_of(m);
    attn_per_token += 2.0 * m.heads * (qk + v) * pairs / S;
  }
  P.model_flops_per_token = 2.0 * model::count_parameters(m).active + attn_per_token;
  const std::string& rc = P.sizes.recompute;
  P.recompute_flops_per_token = rc == "full" ? P.model_flops_per_token : rc == "selective" ? attn_per_token : 0;
}

void training_memory(const Context& c, const Layout& L, TrainingPlan& P) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  const int z = P.sizes.zero_stage, tp = pl.tp;
  const std::string& rc = P.sizes.recompute;
  const double dg = P.dense_group, eg = P.expert_group;
  const double opt_shard = z >= 1 ? P.dense_elems / dg + P.expert_elems / eg : P.dense_elems + P.expert_elems;
  const double grad_elems = z >= 2 ? P.dense_elems / dg + P.expert_elems / eg : P.dense_elems + P.expert_elems;
  const double wts = z >= 3 ? P.weight_bytes / dg : P.weight_bytes;
  double act_per_token_layer = 0;  // elements stored per token per layer (bf16), widest layer
  const double d = m.hidden;
  for (int i = 0; i < m.layers; ++i) {
    const model::LayerSpec& l = m.layer_specs[i];
    double attn = l.mixer == Mixer::linear_attention
                      ? 2.0 * pl.linear_heads.kv_heads_per_rank() * m.linear.key_head_dim +
                            3.0 * pl.linear_heads.q_heads_per_rank() * m.linear.value_head_dim
                  : m.attention == AttentionKind::mla
                      ? double(pl.heads_chip) * (model::qk_head_dim(m) * 2 + m.v_head_dim * 2)
                  : m.per_layer_attention()
                      ? attention_width_chip(attention_chip(m, pl, l))
                      : double(pl.heads_chip) * m.head_dim * 2 + 2.0 * pl.kvh_chip * m.head_dim;
    double ff = l.mlp == model::MlpKind::moe ? double(m.experts_per_token) * m.moe_intermediate / tp +
                                                   model::shared_expert_params_per_layer(m) / (3 * d) / tp
                                             : double(l.dense_intermediate) / tp;
    double x;
    if (rc == "full") x = d / tp;
    else if (rc == "selective") x = 4 * d / tp + attn + 2 * ff;
    else x = 4 * d / tp + attn + 3 * ff;
    act_per_token_layer = std::max(act_per_token_layer, x);
  }
  int layers_stage0 = 0;
  for (int n : L.stage_type_counts[0]) layers_stage0 += n;
  const double in_flight = std::min(pl.pp, P.micro_batches);
  const double T = P.pass.tokens();
  double acts = in_flight * layers_stage0 * T * act_per_token_layer * 2.0;
  // Plus one layer's full working set (what recompute rebuilds) and the logits.
  acts += T * (4 * d / tp + 3.0 * std::max<double>(m.intermediate, double(m.experts_per_token) * m.moe_intermediate) / tp) * 2.0;
  acts += T * double(m.vocab) / tp * 4.0;
  P.memory = {{"weights", wts},
              {"gradients", grad_elems * kGradBytes},
              {"optimizer_states", opt_shard * kOptimizerBytesPerParam},
              {"activations", acts}};
}

}  // namespace

TrainingPlan plan_training(const Context& c, const Layout& L, const TrainingSizes& t) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  TrainingPlan P;
  P.sizes = t;
  P.micro_batches = static_cast<int>(t.global_batch / (static_cast<long long>(pl.dp) * t.micro_batch));
  const double S = t.sequence_length, W = m.sliding_window;
  P.pass.seqs = t.micro_batch;
  P.pass.new_tokens = S;
  P.pass.pairs_full = causal_pairs(S, 0);
  P.pass.pairs_sliding = causal_pairs(S, W);
  if (m.attention_chunk > 0) P.pass.pairs_chunked = model::attention_pairs(m, Mixer::chunked_attention, S);
  P.pass.write_kv = false;
  P.pass.logits_all_tokens = true;

  // Forward, backward and recompute operators per layer type.
  PassOps f = pass_ops(c, L, P.pass);
  for (std::size_t ty = 0; ty < L.type_names.size(); ++ty) {
    const int type = static_cast<int>(ty);
    const std::vector<Operator>& specs = f.per_type[ty];
    std::vector<Operator> back = backward(specs);
    for (const auto& op : specs) {
      bool again = t.recompute == "full" || (t.recompute == "selective" && op.kind == OpKind::attention);
      if (!again) continue;
      Operator r = op;
      r.name = op.name + ".recompute";
      back.push_back(r);
    }
    P.forward.push_back(specs);
    P.backward.push_back(with_scope(back, Scope::layer, type));
  }
  P.first_forward = f.first;
  P.last_forward = f.last;
  P.last_backward = with_scope(backward(f.last), Scope::last_stage, -1);
  P.first_backward = with_scope(backward(f.first), Scope::first_stage, -1);
  if (pl.pp > 1) {
    const double bytes = P.pass.tokens() * m.hidden * kHiddenBytes;
    P.boundary = with_scope({collective_op("pp.send_activations", "permute", bytes, pl.pp, pl.tp * pl.dp),
                         collective_op("pp.send_gradients", "permute", bytes, pl.pp, pl.tp * pl.dp)},
                        Scope::boundary, -1);
  }
  stage_parameters(c, L, P);
  training_flops(c, P);
  training_memory(c, L, P);
  return P;
}

std::vector<Operator> dp_exchange(const Context& c, const TrainingPlan& P, int dgroup, int egroup) {
  std::vector<Operator> ops;
  auto add = [&](const std::string& name, const std::string& op, double bytes, int group, int stride, double count) {
    if (group <= 1 || bytes <= 0) return;
    Operator o = collective_op(name, op, bytes, group, stride);
    o.scope = Scope::step;
    o.count = count;
    ops.push_back(o);
  };
  const int z = P.sizes.zero_stage;
  const double dg = P.dense_elems * kGradBytes, eg = P.expert_elems * kGradBytes;
  const int ds = P.dense_stride, es = P.expert_stride;
  if (z == 0) {
    add("dp.grad_all_reduce", "all-reduce", dg, dgroup, ds, 1);
    add("dp.expert_grad_all_reduce", "all-reduce", eg, egroup, es, 1);
    return ops;
  }
  add("dp.grad_reduce_scatter", "reduce-scatter", dg, dgroup, ds, 1);
  add("dp.expert_grad_reduce_scatter", "reduce-scatter", eg, egroup, es, 1);
  // ZeRO-3 gathers every layer's weights for forward and again for backward.
  const double gathers = z < 3 ? 1 : 2.0 * P.micro_batches;
  add("dp.param_all_gather", "all-gather", P.dense_elems * c.dt.wb, dgroup, ds, gathers);
  add("dp.expert_param_all_gather", "all-gather", P.expert_elems * c.dt.wb, egroup, es, gathers);
  return ops;
}

Operator optimizer_step(const Context& c, const TrainingPlan& P, int dgroup, int egroup) {
  double shard = P.sizes.zero_stage >= 1 ? P.dense_elems / dgroup + P.expert_elems / egroup : P.dense_elems + P.expert_elems;
  Operator o = memory_op("optimizer.adam_step", shard * (2 * kOptimizerBytesPerParam + kGradBytes + c.dt.wb));
  o.scope = Scope::step;
  return o;
}

}  // namespace trnsim::plan
