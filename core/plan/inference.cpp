// The inference plan (plan.h): one request's prefill, one decode step of a micro-batch at
// the mean context of the response, and the bytes each chip holds.
#include <algorithm>

#include "model/mixer_cost.h"
#include "plan/plan.h"

namespace trnsim::plan {

using model::AttentionKind;
using model::Mixer;
using model::ModelConfig;

namespace {

// Weights, KV cache and recurrent state per chip on the heaviest stage, and the widest
// layer's working set while one request (or a prefill batch) is prefilled (no chunked prefill). Every stream
// holds its KV cache at full length (sliding and chunked layers at most the window or chunk)
// and, in Gated DeltaNet layers, one fixed-size recurrent state.
std::vector<MemoryItem> inference_memory(const Context& c, const Layout& L, double B, double S, double O,
                                         double prefill_tokens) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  double weights = 0, kv = 0, state = 0;
  const double ctx_end = S + O;
  const double state_bytes = B * pl.linear_state_elems_chip * linear_state_bytes_per_element(c);
  for (int s = 0; s < pl.pp; ++s) {
    double ws = 0, ks = 0, rs = 0;
    for (int i = 0; i < m.layers; ++i) {
      if (L.layer_stage[i] != s) continue;
      ws += layer_weights(c, m.layer_specs[i]).bytes(c.dt);
      ks += B * model::kv_tokens_held(m, i, ctx_end) * attention_chip(m, pl, m.layer_specs[i]).kv_cache_elems * c.dt.kvb;
      if (m.layer_specs[i].mixer == Mixer::linear_attention) rs += state_bytes;
    }
    if (s == 0) ws += double(m.vocab) * m.hidden / pl.tp * kEmbeddingBytes;
    if (s == pl.pp - 1 && (!m.tie_embeddings || pl.pp > 1)) ws += double(m.vocab) * m.hidden / pl.tp * kEmbeddingBytes;
    if (s == pl.pp - 1) ws += double(m.hidden) * kHiddenBytes;  // the final norm's weights (replicated)
    if (ws + ks + rs > weights + kv + state) weights = ws, kv = ks, state = rs;
  }
  const double T = prefill_tokens, d = m.hidden;
  double attn_w = m.attention == AttentionKind::mla
                      ? double(pl.heads_chip) * (2.0 * model::qk_head_dim(m) + 2.0 * m.v_head_dim)
                      : double(pl.heads_chip) * m.head_dim * 2 + 2.0 * pl.kvh_chip * m.head_dim;
  double mlp_w = 0;
  for (const auto& l : m.layer_specs) {
    if (m.attention == AttentionKind::gqa && l.mixer != Mixer::linear_attention && m.per_layer_attention()) {
      // q, k, v and the output of this layer's heads on this chip
      attn_w = std::max(attn_w, attention_width_chip(attention_chip(m, pl, l)));
    }
    double x = l.mlp == model::MlpKind::moe ? 3.0 * m.experts_per_token * m.moe_intermediate / pl.tp
                                            : 3.0 * l.dense_intermediate / pl.tp;
    mlp_w = std::max(mlp_w, x);
    if (l.mixer == Mixer::linear_attention)  // q, k, v, z, b, a and the output of this chip's heads
      attn_w = std::max(attn_w, 2.0 * pl.linear_heads.kv_heads_per_rank() * m.linear.key_head_dim +
                                    3.0 * pl.linear_heads.q_heads_per_rank() * m.linear.value_head_dim);
  }
  double act = T * (2 * d + std::max(attn_w, mlp_w)) * c.dt.ab;
  std::vector<MemoryItem> items = {{"weights", weights}, {"kv_cache", kv}};
  if (state > 0) items.push_back({"recurrent_state", state});
  items.push_back({"activations", act});
  return items;
}

}  // namespace

InferencePlan plan_inference(const Context& c, const Layout& L, int batch, int input_tokens, int output_tokens,
                             int prefill_batch) {
  InferencePlan P;
  const double B = batch, S = input_tokens, O = output_tokens;
  const double W = c.m.sliding_window;
  P.batch = B;
  P.input_tokens = S;
  P.output_tokens = O;
  P.micro_batches = std::min<double>(B, c.pl.pp);
  P.micro_batch = B / P.micro_batches;
  P.steps = O - 1;

  P.prefill_batch = std::max(1, prefill_batch);
  P.prefill_pass.seqs = P.prefill_batch;
  P.prefill_pass.new_tokens = S;
  P.prefill_pass.pairs_full = causal_pairs(S, 0);
  P.prefill_pass.pairs_sliding = causal_pairs(S, W);
  if (c.m.attention_chunk > 0) P.prefill_pass.pairs_chunked = model::attention_pairs(c.m, Mixer::chunked_attention, S);
  P.prefill = pass_ops(c, L, P.prefill_pass);

  if (P.steps > 0) {
    Pass& dec = P.decode_pass;
    dec.seqs = P.micro_batch;
    dec.new_tokens = 1;
    dec.ctx_full = mean_context(S, P.steps, 0);
    dec.ctx_sliding = mean_context(S, P.steps, W);
    if (c.m.attention_chunk > 0) dec.ctx_chunked = model::mean_attention_keys(c.m, Mixer::chunked_attention, S, P.steps);
    dec.pairs_full = dec.ctx_full;
    dec.pairs_sliding = dec.ctx_sliding;
    dec.pairs_chunked = dec.ctx_chunked;
    dec.decode = true;
    P.decode = pass_ops(c, L, dec);
  }
  P.memory = inference_memory(c, L, B, S, O, S * P.prefill_batch);
  return P;
}

}  // namespace trnsim::plan
