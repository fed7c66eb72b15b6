// Decoder-only transformer architectures, imported from Hugging Face `config.json` files.
//
// What it models: the shapes that decide cost, layer by layer (`ModelConfig::layer_specs`):
//  - what mixes tokens in each layer: causal softmax attention over the whole context, over a
//    sliding window (gpt-oss, Mistral, Qwen, Trinity), within fixed chunks (Llama 4's
//    `attention_chunk_size`), or a recurrent mixer with a fixed-size state and no KV cache:
//    Gated DeltaNet (Qwen3-Next, Qwen3.5 `linear_attention` layers) or Mamba2 (Granite 4.0's
//    'mamba' layers);
//  - whether the layer applies RoPE or none (NoPE: Llama 4's `no_rope_layers`, Trinity's
//    global layers);
//  - the attention projections: grouped-query attention with any number of KV heads, or
//    DeepSeek's multi-head latent attention with its low-rank query/KV projections; biases,
//    per-head q/k RMSNorm (or over all heads, MiniMax), attention sinks, a sigmoid-gated
//    attention output (Qwen3-Next, Qwen3.5, Trinity);
//  - each softmax-attention layer's own shape (`LayerSpec::attn`): K/V heads, the Q/K head dim,
//    the V head dim, K = V (one projection and one cached tensor), sinks -- Gemma 4's global
//    layers and MiMo-V2-Flash's sliding layers differ from the model's other layers;
//  - the MLP: a dense SwiGLU of the layer's own width, or a mixture of experts (routed top-k
//    experts, shared experts with or without a gate, router and its correction bias), in any
//    interleaving (leading dense layers, every n-th layer, explicit lists);
//  - embeddings and the LM head, norms.
// From them: exact parameter counts (total, active per token), KV-cache bytes per token, the
// recurrent-state bytes per sequence, and the per-layer weight shapes the workload prices.
//
// Multimodal wrappers (`gemma3`, `gemma4`, `llama4`, `qwen3_5`, `qwen3_5_moe`) are accepted: their language model
// (`text_config`) is imported and priced; the vision/audio tower is named in a warning and not
// priced (`unpriced_towers`).
//
// Every key of the config is accounted for: keys that shape the cost are read; keys that
// cannot affect cost (token ids, initialisation, library versions, elementwise scalings) are
// listed as ignored; keys describing behaviour the model does not simulate (RoPE scaling,
// router scoring, activation clamps, multi-token prediction) become warnings; keys nobody
// knows become warnings naming them; and keys describing an architecture the model cannot
// represent (encoder-decoder, cross-attention, a free per-layer list of KV head counts,
// lightning-attention layers, sparse attention, unknown layer types) are errors naming the
// field as the file spells it. docs/models.md lists the supported
// model types and, for each, what is priced and what is not.
//
// NOT modeled: numerics (the cost of a format is its bytes and its tensor-engine rate), RoPE
// variants, attention sinks' arithmetic, router load imbalance (routing is assumed uniform),
// multi-token-prediction heads, vision and audio towers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::model {

// Projection family of the softmax-attention layers.
enum class AttentionKind { gqa, mla };

// What mixes tokens in one layer.
enum class Mixer {
  full_attention,     // causal softmax attention over the whole context
  sliding_attention,  // ... over the last `sliding_window` tokens
  chunked_attention,  // ... within aligned chunks of `attention_chunk` tokens (Llama 4)
  linear_attention,   // Gated DeltaNet or Mamba2 (ModelConfig::linear.kind): fixed-size recurrent state per sequence, no KV cache
};
// The Hugging Face `layer_types` spelling ("full_attention", ...).
const char* mixer_name(Mixer mixer);

enum class MlpKind { dense, moe };

// The grouped-query attention shape of one softmax-attention layer. Families whose sliding
// and full layers differ (Gemma 4, MiMo-V2-Flash) give each layer its own; the others give
// every layer the model's (num_key_value_heads, head_dim). MLA layers use the model's MLA
// fields instead.
struct AttentionShape {
  int kv_heads = 0;     // K/V heads
  int head_dim = 0;     // query and key head dim
  int v_head_dim = 0;   // value (and attention output) head dim
  bool k_eq_v = false;  // one projection and one cached tensor serve as both K and V (Gemma 4 global layers)
  bool sinks = false;   // one learned sink logit per query head (gpt-oss; MiMo's sliding layers)
  bool operator==(const AttentionShape& o) const {
    return kv_heads == o.kv_heads && head_dim == o.head_dim && v_head_dim == o.v_head_dim && k_eq_v == o.k_eq_v &&
           sinks == o.sinks;
  }
  bool operator!=(const AttentionShape& o) const { return !(*this == o); }
  // K/V elements cached per token (one tensor when K = V).
  double kv_elements() const { return double(kv_heads) * (head_dim + (k_eq_v ? 0 : v_head_dim)); }
};

struct LayerSpec {
  Mixer mixer = Mixer::full_attention;
  bool rope = true;            // rotary position embedding applied; false = NoPE
  MlpKind mlp = MlpKind::dense;
  int dense_intermediate = 0;  // SwiGLU width of a dense layer (0 in MoE layers)
  AttentionShape attn;         // softmax-attention layers (GQA): heads and head dims of this layer
};

// The recurrent token mixer of a model's linear_attention layers.
enum class LinearKind {
  gated_delta_net,  // Qwen3-Next, Qwen3.5: the `linear_*` keys
  mamba2,           // Granite 4.0 'mamba' layers: the `mamba_*` keys (selective state space, SSD)
};

// Dimensions of the linear_attention layers. Gated DeltaNet: the `linear_*` keys. Mamba2 maps
// onto the same shape (Dao & Gu 2024: C plays q, B plays k, x plays v, each head's state is
// d_head x d_state): key_heads = mamba_n_groups (B and C are shared by the heads of a group),
// key_head_dim = mamba_d_state, value_heads = mamba_n_heads, value_head_dim = mamba_d_head,
// conv_kernel = mamba_d_conv; the conv runs over x, B and C (conv_channels).
struct LinearAttentionDims {
  LinearKind kind = LinearKind::gated_delta_net;
  int key_heads = 0;       // linear_num_key_heads (q and k heads) | mamba_n_groups
  int value_heads = 0;     // linear_num_value_heads | mamba_n_heads
  int key_head_dim = 0;    // linear_key_head_dim | mamba_d_state
  int value_head_dim = 0;  // linear_value_head_dim | mamba_d_head
  int conv_kernel = 0;     // linear_conv_kernel_dim | mamba_d_conv (causal depthwise conv)
  int chunk = 0;           // Mamba2: mamba_chunk_size (the SSD scan's chunk); 0 for Gated DeltaNet
  bool conv_bias = false;  // Mamba2: mamba_conv_bias
  bool proj_bias = false;  // Mamba2: mamba_proj_bias (in_proj and out_proj biases)
  bool mamba2() const { return kind == LinearKind::mamba2; }
  int key_width() const { return key_heads * key_head_dim; }        // q (and k) width | B (and C) width
  int value_width() const { return value_heads * value_head_dim; }  // v, gate z and output width | x, z, output
  int conv_channels() const { return 2 * key_width() + value_width(); }
  // in_proj's output: q, k, v, z, b, a (Gated DeltaNet) | z, x, B, C, dt (Mamba2).
  int in_proj_width() const { return 2 * key_width() + 2 * value_width() + (mamba2() ? 1 : 2) * value_heads; }
  // The gated RMSNorm's weights: one value head's (Gated DeltaNet) | the whole x width (Mamba2).
  int gated_norm_width() const { return mamba2() ? value_width() : value_head_dim; }
};
// "Gated DeltaNet" or "Mamba2", for reports.
const char* linear_kind_name(LinearKind kind);

struct ModelConfig {
  std::string name;                // bundled name ("gpt-oss-120b") or "inline"
  std::string model_type;          // of the language model: "gpt_oss", "llama4_text"
  std::string wrapper_model_type;  // multimodal wrapper it came in ("llama4"), or ""
  std::vector<std::string> unpriced_towers;  // wrapper keys not priced ("vision_config")
  double unpriced_tower_params = 0;  // their parameters where counted (Llama 4's vision encoder), else 0
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate = 0;  // dense MLP width (of the dense layers; the first one if they differ)
  int vocab = 0;
  bool tie_embeddings = false;
  bool attention_bias = false;         // q/k/v biases
  bool attention_output_bias = false;  // o_proj bias
  bool attention_output_gate = false;  // output *= sigmoid(W_g x), W_g: hidden -> heads*head_dim
  bool mlp_bias = false;
  bool qk_norm = false;          // per-head RMSNorm of q and k, with weights (Qwen3, GLM, Trinity)
  bool qk_norm_full_width = false;  // ... over all heads at once, one weight per element (MiniMax's "per_layer")
  bool attention_sinks = false;  // one learned logit per head (gpt-oss)
  int norms_per_layer = 2;       // hidden-size RMSNorms per layer (4 with sandwich norms)
  int max_position_embeddings = 0;

  AttentionKind attention = AttentionKind::gqa;
  // Multi-head latent attention (DeepSeek-V2/V3). q_lora_rank 0 = plain query projection.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;                 // MLA's value head dim; with GQA, the value head dim when unlike head_dim (else 0)

  // Per layer: token mixer, RoPE or NoPE, MLP kind and width. The source of truth; the
  // two flag vectors below are views of it kept for the current workload code.
  std::vector<LayerSpec> layer_specs;
  int sliding_window = 0;             // tokens (sliding layers); 0 = no sliding layers
  int attention_chunk = 0;            // tokens (chunked layers); 0 = no chunked layers
  LinearAttentionDims linear;         // Gated DeltaNet or Mamba2 layers
  std::string linear_state_dtype;     // `mamba_ssm_dtype` when the config gives one, else ""
  std::vector<bool> layer_sliding;    // per layer: mixer == sliding_attention
  std::vector<bool> layer_moe;        // per layer: MoE MLP (else dense)

  int experts = 0;                    // routed experts (0 = dense model)
  int experts_per_token = 0;
  int moe_intermediate = 0;           // width of one routed expert
  int shared_experts = 0;             // shared experts of moe_intermediate width (DeepSeek, GLM, Llama 4, Trinity)
  int shared_expert_intermediate = 0; // one shared expert of this width (Qwen-MoE)
  bool shared_expert_gate = false;    // Qwen-MoE: sigmoid gate (1 x hidden) on the shared expert
  bool router_bias = false;           // gpt-oss router bias; DeepSeek/GLM/Trinity expert-selection bias
  bool expert_bias = false;           // gpt-oss expert biases

  int mtp_layers = 0;                 // multi-token-prediction modules (not counted)
  std::string checkpoint_precision;   // "bf16", "fp8" (DeepSeek), "mxfp4 experts" (gpt-oss)

  std::vector<std::string> warnings;        // unmodeled or unknown fields, one line each
  std::vector<std::string> ignored_fields;  // cost-irrelevant fields, by name

  bool is_moe() const { return experts > 0; }
  // True when the softmax-attention layers do not all share one AttentionShape.
  bool per_layer_attention() const;
  int moe_layer_count() const;
  int sliding_layer_count() const;
  int mixer_layer_count(Mixer mixer) const;
  int nope_layer_count() const;
  // Width of all shared experts of one MoE layer together (0 = none).
  int shared_expert_width() const { return shared_experts * moe_intermediate + shared_expert_intermediate; }
};

// Imports a Hugging Face config.json object. `path` names it in errors
// ("workload.model" or "examples/models/gpt-oss-120b.json"); `name` is recorded.
ModelConfig import_hf_config(const json& config, const std::string& path, const std::string& name);

// model_types import_hf_config accepts: language models, then multimodal wrappers.
const std::vector<std::string>& supported_model_types();
const std::vector<std::string>& supported_wrapper_types();

// Names of the bundled models (examples/models/*.json stems), sorted.
std::vector<std::string> bundled_model_names();
// The bundled config's JSON; InputError naming `field` with the closest name if unknown.
json bundled_model_json(const std::string& name, const std::string& field);
// The name of `names` a user most likely meant by `name` (case aside, then the closest), or "".
std::string model_name_hint(const std::string& name, const std::vector<std::string>& names);

// Parameter counts (exact integers, as doubles). The language model only: a wrapper's
// vision/audio tower and multi-token-prediction modules are not counted.
struct ParamCounts {
  double total = 0;
  double active = 0;            // per token, excluding the input embedding (a lookup, not a matmul)
  double embedding = 0;         // input embedding table
  double lm_head = 0;           // output projection (0 when tied)
  double attention = 0;         // softmax-attention layers (projections, biases, gates, sinks)
  double linear_attention = 0;  // Gated DeltaNet / Mamba2 layers (projections, conv, decay parameters)
  double dense_mlp = 0;         // all dense layers
  double routed_experts = 0;    // all MoE layers, all experts
  double shared_experts = 0;
  double router = 0;
  double norms = 0;
  double unpriced_towers = 0;   // a wrapper's vision/audio tower where counted; not in total
};
ParamCounts count_parameters(const ModelConfig& m);

// Per-layer weight element counts. The *_per_layer forms are those of a softmax-attention,
// dense (width `intermediate`) or MoE layer of the model; the (m, layer) forms follow
// layer_specs.
double attention_params_per_layer(const ModelConfig& m);         // one softmax-attention layer of the model's shape
double attention_params(const ModelConfig& m, const AttentionShape& a);  // one GQA layer of shape a
double linear_attention_params_per_layer(const ModelConfig& m);  // one Gated DeltaNet or Mamba2 layer
// The same for the heads `g` gives (a chip's share: its value heads and the key heads they read).
double linear_attention_params(const LinearAttentionDims& g, double hidden);
double dense_mlp_params_per_layer(const ModelConfig& m);
double dense_mlp_params(const ModelConfig& m, int intermediate);
double routed_expert_params(const ModelConfig& m);   // one routed expert
double shared_expert_params_per_layer(const ModelConfig& m);
double router_params_per_layer(const ModelConfig& m);
double mixer_params(const ModelConfig& m, int layer);  // attention or linear attention of a layer
double norm_params(const ModelConfig& m, int layer);

// Elements cached per token per softmax-attention layer (K and V for GQA; the compressed
// latent plus the decoupled RoPE key for MLA), for a layer of the model's shape and for layer i.
double kv_elements_per_token_layer(const ModelConfig& m);
double kv_elements_per_token(const ModelConfig& m, int layer);
// Tokens of K/V a layer holds at `context` tokens of history: all of them (full), at most the
// window (sliding) or the chunk (chunked), none (linear attention).
double kv_tokens_held(const ModelConfig& m, int layer, double context);
// KV-cache bytes per sequence for the whole model at `context` tokens of history.
double kv_bytes_per_sequence(const ModelConfig& m, double context, double bytes_per_element);
// Recurrent state one Gated DeltaNet or Mamba2 layer holds per sequence, independent of the
// context: value_heads x key_head_dim x value_head_dim (the delta-rule state; Mamba2's
// n_heads x d_head x d_state SSM state) plus the causal conv's last conv_kernel - 1 inputs of
// every conv channel. Elements; 0 for other layers.
double linear_state_elements_per_layer(const ModelConfig& m);
double linear_state_elements(const ModelConfig& m, int layer);
// Recurrent-state bytes per sequence for the whole model.
double linear_state_bytes_per_sequence(const ModelConfig& m, double bytes_per_element);

// The model's (first) attention shape, as num_key_value_heads / head_dim / v_head_dim give it.
AttentionShape default_attention_shape(const ModelConfig& m);

// Query/key/value widths used by the operator model (the model's default shape).
int q_width(const ModelConfig& m);        // heads * qk head dim
int attn_out_width(const ModelConfig& m); // heads * v head dim
int qk_head_dim(const ModelConfig& m);
int v_head_dim_of(const ModelConfig& m);

}  // namespace trnsim::model
