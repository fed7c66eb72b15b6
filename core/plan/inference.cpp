// The inference plan (plan.h): one request's prefill, one decode step of a micro-batch at
// the mean context of the response, and the bytes each chip holds.
#include <algorithm>

#include "plan/plan.h"

namespace trnsim::plan {

using model::AttentionKind;
using model::ModelConfig;

namespace {

// Weights and KV cache per chip on the heaviest stage, and the widest layer's working set
// while one request is prefilled (no chunked prefill).
std::vector<MemoryItem> inference_memory(const Context& c, const Layout& L, double B, double S, double O) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  const double W = m.sliding_window;
  double weights = 0, kv = 0;
  const double ctx_end = S + O;
  for (int s = 0; s < pl.pp; ++s) {
    double ws = 0, ks = 0;
    for (int i = 0; i < m.layers; ++i) {
      if (L.layer_stage[i] != s) continue;
      ws += layer_weights(c, m.layer_moe[i]).bytes(c.dt);
      double tokens = m.layer_sliding[i] ? std::min(ctx_end, W) : ctx_end;
      ks += B * tokens * pl.kv_cache_elems_chip * c.dt.kvb;
    }
    if (s == 0) ws += double(m.vocab) * m.hidden / pl.tp * kEmbeddingBytes;
    if (s == pl.pp - 1 && (!m.tie_embeddings || pl.pp > 1)) ws += double(m.vocab) * m.hidden / pl.tp * kEmbeddingBytes;
    if (ws + ks > weights + kv) weights = ws, kv = ks;
  }
  const double T = S, d = m.hidden;
  double attn_w = m.attention == AttentionKind::mla
                      ? double(pl.heads_chip) * (2.0 * model::qk_head_dim(m) + 2.0 * m.v_head_dim)
                      : double(pl.heads_chip) * m.head_dim * 2 + 2.0 * pl.kvh_chip * m.head_dim;
  double mlp_w = 0;
  for (int i = 0; i < m.layers; ++i) {
    double x = m.layer_moe[i] ? 3.0 * m.experts_per_token * m.moe_intermediate / pl.tp : 3.0 * m.intermediate / pl.tp;
    mlp_w = std::max(mlp_w, x);
  }
  double act = T * (2 * d + std::max(attn_w, mlp_w)) * c.dt.ab;
  return {{"weights", weights}, {"kv_cache", kv}, {"activations", act}};
}

}  // namespace

InferencePlan plan_inference(const Context& c, const Layout& L, int batch, int input_tokens, int output_tokens) {
  InferencePlan P;
  const double B = batch, S = input_tokens, O = output_tokens;
  const double W = c.m.sliding_window;
  P.batch = B;
  P.input_tokens = S;
  P.output_tokens = O;
  P.micro_batches = std::min<double>(B, c.pl.pp);
  P.micro_batch = B / P.micro_batches;
  P.steps = O - 1;

  P.prefill_pass.seqs = 1;
  P.prefill_pass.new_tokens = S;
  P.prefill_pass.pairs_full = causal_pairs(S, 0);
  P.prefill_pass.pairs_sliding = causal_pairs(S, W);
  P.prefill = pass_ops(c, L, P.prefill_pass);

  if (P.steps > 0) {
    Pass& dec = P.decode_pass;
    dec.seqs = P.micro_batch;
    dec.new_tokens = 1;
    dec.ctx_full = mean_context(S, P.steps, 0);
    dec.ctx_sliding = mean_context(S, P.steps, W);
    dec.pairs_full = dec.ctx_full;
    dec.pairs_sliding = dec.ctx_sliding;
    P.decode = pass_ops(c, L, dec);
  }
  P.memory = inference_memory(c, L, B, S, O);
  return P;
}

}  // namespace trnsim::plan
