// Parameter counts and per-sequence cache sizes of an imported model, layer by layer.
// Weight shapes follow the transformers implementations of each family (e.g.
// Qwen3NextGatedDeltaNet: in_proj_qkvz hidden -> 2*key_width + 2*value_width, in_proj_ba
// hidden -> 2*value_heads, a bias-free depthwise conv1d over q, k, v of conv_kernel taps,
// dt_bias and A_log per value head, a gated RMSNorm of value_head_dim, out_proj
// value_width -> hidden; AfmoeAttention's gate_proj hidden -> heads*head_dim; Granite 4.0's
// Mamba2 mixer, GraniteMoeHybridMambaLayer / BambaMixer: in_proj hidden -> z, x, B, C, dt
// (2*intermediate + 2*n_groups*d_state + n_heads, intermediate = n_heads*d_head), a depthwise
// conv1d over x, B, C of d_conv taps with a bias when mamba_conv_bias, dt_bias, A_log and D
// per head, a gated RMSNorm over intermediate, out_proj intermediate -> hidden; biases on
// in_proj and out_proj when mamba_proj_bias).
#include <algorithm>

#include "model/llm.h"

namespace trnsim::model {

int qk_head_dim(const ModelConfig& m) {
  return m.attention == AttentionKind::mla ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim;
}
int v_head_dim_of(const ModelConfig& m) {
  return m.attention == AttentionKind::mla || m.v_head_dim > 0 ? m.v_head_dim : m.head_dim;
}

AttentionShape default_attention_shape(const ModelConfig& m) {
  AttentionShape a;
  a.kv_heads = m.kv_heads;
  a.head_dim = m.head_dim;
  a.v_head_dim = m.attention == AttentionKind::gqa ? v_head_dim_of(m) : m.head_dim;
  a.sinks = m.attention_sinks;
  return a;
}

bool ModelConfig::per_layer_attention() const {
  const AttentionShape* first = nullptr;
  for (const auto& l : layer_specs) {
    if (l.mixer == Mixer::linear_attention) continue;
    if (first && l.attn != *first) return true;
    first = &l.attn;
  }
  return false;
}
int q_width(const ModelConfig& m) { return m.heads * qk_head_dim(m); }
int attn_out_width(const ModelConfig& m) { return m.heads * v_head_dim_of(m); }

double attention_params(const ModelConfig& m, const AttentionShape& a) {
  const double d = m.hidden, h = m.heads, qk = a.head_dim, v = a.v_head_dim, kv = a.kv_heads;
  double p = d * h * qk + d * kv * qk + (a.k_eq_v ? 0 : d * kv * v) + h * v * d;  // q, k, v, o
  if (m.attention_bias) p += h * qk + kv * qk + (a.k_eq_v ? 0 : kv * v);
  if (m.attention_output_bias) p += d;
  if (m.attention_output_gate) p += d * h * v;
  if (a.sinks) p += h;
  return p;
}

double attention_params_per_layer(const ModelConfig& m) {
  const double d = m.hidden, h = m.heads;
  double p = 0;
  if (m.attention == AttentionKind::gqa) return attention_params(m, default_attention_shape(m));
  {
    const double qk = qk_head_dim(m);
    p += m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * h * qk : d * h * qk;
    p += d * (m.kv_lora_rank + m.qk_rope_head_dim);                            // kv_a (latent + rope key)
    p += double(m.kv_lora_rank) * h * (m.qk_nope_head_dim + m.v_head_dim);     // kv_b
    p += h * m.v_head_dim * d;                                                 // o
  }
  if (m.attention_output_gate) p += d * attn_out_width(m);
  if (m.attention_sinks) p += h;
  return p;
}

const char* linear_kind_name(LinearKind kind) { return kind == LinearKind::mamba2 ? "Mamba2" : "Gated DeltaNet"; }

double linear_attention_params(const LinearAttentionDims& g, double hidden) {
  const double d = hidden, nv = g.value_heads;
  // in_proj: q, k, v, z and b, a (Gated DeltaNet); z, x, B, C and dt (Mamba2)
  double p = d * g.in_proj_width() + (g.proj_bias ? g.in_proj_width() : 0);
  p += double(g.conv_channels()) * g.conv_kernel;      // depthwise causal conv
  if (g.conv_bias) p += g.conv_channels();
  p += (g.mamba2() ? 3.0 : 2.0) * nv;                  // dt_bias, A_log (and Mamba2's D skip)
  p += double(g.value_width()) * d + (g.proj_bias ? d : 0);  // out_proj
  return p;
}

double linear_attention_params_per_layer(const ModelConfig& m) { return linear_attention_params(m.linear, m.hidden); }

double mixer_params(const ModelConfig& m, int layer) {
  const LayerSpec& l = m.layer_specs[layer];
  if (l.mixer == Mixer::linear_attention) return linear_attention_params_per_layer(m);
  return m.attention == AttentionKind::gqa ? attention_params(m, l.attn) : attention_params_per_layer(m);
}

double dense_mlp_params(const ModelConfig& m, int intermediate) {
  const double d = m.hidden, f = intermediate;
  return 3 * d * f + (m.mlp_bias ? 2 * f + d : 0);
}

double dense_mlp_params_per_layer(const ModelConfig& m) { return dense_mlp_params(m, m.intermediate); }

double routed_expert_params(const ModelConfig& m) {
  double d = m.hidden, f = m.moe_intermediate;
  return 3 * d * f + (m.expert_bias ? 2 * f + d : 0);
}

double shared_expert_params_per_layer(const ModelConfig& m) {
  return 3.0 * m.hidden * m.shared_expert_width() + (m.shared_expert_gate ? m.hidden : 0);
}

double router_params_per_layer(const ModelConfig& m) {
  return double(m.experts) * m.hidden + (m.router_bias ? m.experts : 0);
}

double norm_params(const ModelConfig& m, int layer) {
  double p = double(m.norms_per_layer) * m.hidden;
  if (m.layer_specs[layer].mixer == Mixer::linear_attention) return p + m.linear.gated_norm_width();  // gated RMSNorm
  if (m.qk_norm && m.qk_norm_full_width)  // q_norm over heads x head_dim, k_norm over kv_heads x head_dim
    p += double(m.heads + m.layer_specs[layer].attn.kv_heads) * m.layer_specs[layer].attn.head_dim;
  else if (m.qk_norm)
    p += 2.0 * (m.attention == AttentionKind::gqa ? m.layer_specs[layer].attn.head_dim : m.head_dim);
  if (m.attention == AttentionKind::mla) p += m.q_lora_rank + m.kv_lora_rank;
  return p;
}

ParamCounts count_parameters(const ModelConfig& m) {
  ParamCounts c;
  c.embedding = double(m.vocab) * m.hidden;
  c.lm_head = m.tie_embeddings ? 0 : double(m.vocab) * m.hidden;
  c.norms = double(m.hidden);  // final norm
  double active_layers = 0;
  for (int i = 0; i < m.layers; ++i) {
    const LayerSpec& l = m.layer_specs[i];
    const double mixer = mixer_params(m, i), norms = norm_params(m, i);
    (l.mixer == Mixer::linear_attention ? c.linear_attention : c.attention) += mixer;
    c.norms += norms;
    double layer_active = mixer + norms;
    if (l.mlp == MlpKind::moe) {
      c.routed_experts += m.experts * routed_expert_params(m);
      c.shared_experts += shared_expert_params_per_layer(m);
      c.router += router_params_per_layer(m);
      layer_active += m.experts_per_token * routed_expert_params(m) + shared_expert_params_per_layer(m) +
                      router_params_per_layer(m);
    } else {
      c.dense_mlp += dense_mlp_params(m, l.dense_intermediate);
      layer_active += dense_mlp_params(m, l.dense_intermediate);
    }
    active_layers += layer_active;
  }
  c.total = c.embedding + c.lm_head + c.attention + c.linear_attention + c.dense_mlp + c.routed_experts +
            c.shared_experts + c.router + c.norms;
  // Active per token: every layer's weights that multiply the token, plus the LM head (the
  // tied embedding when tied) -- the convention of OpenAI's gpt-oss model card.
  c.active = active_layers + double(m.hidden) + double(m.vocab) * m.hidden;
  c.unpriced_towers = m.unpriced_tower_params;
  return c;
}

double kv_elements_per_token_layer(const ModelConfig& m) {
  if (m.attention == AttentionKind::mla) return double(m.kv_lora_rank) + m.qk_rope_head_dim;
  return default_attention_shape(m).kv_elements();
}

double kv_elements_per_token(const ModelConfig& m, int layer) {
  if (m.attention == AttentionKind::mla) return kv_elements_per_token_layer(m);
  return m.layer_specs[layer].attn.kv_elements();
}

double kv_tokens_held(const ModelConfig& m, int layer, double context) {
  switch (m.layer_specs[layer].mixer) {
    case Mixer::full_attention: return context;
    case Mixer::sliding_attention: return std::min(context, double(m.sliding_window));
    case Mixer::chunked_attention: return std::min(context, double(m.attention_chunk));
    case Mixer::linear_attention: return 0;
  }
  return context;
}

double kv_bytes_per_sequence(const ModelConfig& m, double context, double bytes_per_element) {
  double total = 0;
  for (int i = 0; i < m.layers; ++i) total += kv_tokens_held(m, i, context) * kv_elements_per_token(m, i) * bytes_per_element;
  return total;
}

double linear_state_elements_per_layer(const ModelConfig& m) {
  const LinearAttentionDims& g = m.linear;
  return double(g.value_heads) * g.key_head_dim * g.value_head_dim +
         double(g.conv_channels()) * std::max(0, g.conv_kernel - 1);
}

double linear_state_elements(const ModelConfig& m, int layer) {
  return m.layer_specs[layer].mixer == Mixer::linear_attention ? linear_state_elements_per_layer(m) : 0;
}

double linear_state_bytes_per_sequence(const ModelConfig& m, double bytes_per_element) {
  double total = 0;
  for (int i = 0; i < m.layers; ++i) total += linear_state_elements(m, i) * bytes_per_element;
  return total;
}

}  // namespace trnsim::model
