// Decoder-only transformer architectures, imported from Hugging Face `config.json` files.
//
// What it models: the shapes that decide cost -- layers, hidden size, attention (grouped-query
// attention with any number of KV heads, DeepSeek's multi-head latent attention with its
// low-rank query/KV projections), sliding-window layers (gpt-oss's `layer_types`, Mistral's
// and Qwen's `sliding_window`), dense SwiGLU MLPs and mixture-of-experts layers (routed top-k
// experts, shared experts, leading dense layers), embeddings and the LM head, biases and norms.
// From them: exact parameter counts (total, active per token), KV-cache bytes per token and
// the per-layer weight shapes the workload model prices.
//
// Supported `model_type`s: llama, mistral, mixtral, qwen2, qwen3, qwen2_moe, qwen3_moe,
// gpt_oss, deepseek_v2, deepseek_v3. Every key of the config is accounted for: keys that
// shape the cost are read; keys that cannot affect cost (token ids, initialisation, library
// versions) are listed as ignored; keys describing behaviour the model does not simulate
// (RoPE scaling, router scoring, activation clamps, multi-token prediction) become warnings;
// keys nobody knows become warnings naming them; and keys that describe an architecture the
// model cannot represent (encoder-decoder, multimodal wrappers, unknown layer types) are
// errors naming the field.
//
// NOT modeled: numerics (the cost of a format is its bytes and its tensor-engine rate), RoPE
// variants, attention sinks' arithmetic, router load imbalance (routing is assumed uniform),
// multi-token-prediction heads, vision towers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::model {

enum class AttentionKind { gqa, mla };

struct ModelConfig {
  std::string name;        // bundled name ("gpt-oss-120b") or "inline"
  std::string model_type;  // "gpt_oss"
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate = 0;  // dense MLP width
  int vocab = 0;
  bool tie_embeddings = false;
  bool attention_bias = false;
  bool mlp_bias = false;
  bool qk_norm = false;          // per-head RMSNorm of q and k (Qwen3)
  bool attention_sinks = false;  // one learned logit per head (gpt-oss)
  int max_position_embeddings = 0;

  AttentionKind attention = AttentionKind::gqa;
  // Multi-head latent attention (DeepSeek-V2/V3). q_lora_rank 0 = plain query projection.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;

  int sliding_window = 0;             // tokens; 0 = none
  std::vector<bool> layer_sliding;    // per layer: uses the sliding window
  std::vector<bool> layer_moe;        // per layer: MoE MLP (else dense)

  int experts = 0;                    // routed experts (0 = dense model)
  int experts_per_token = 0;
  int moe_intermediate = 0;           // width of one routed expert
  int shared_experts = 0;             // DeepSeek: shared experts of moe_intermediate width
  int shared_expert_intermediate = 0; // Qwen2-MoE: one shared expert of this width
  bool router_bias = false;           // gpt-oss router bias / DeepSeek correction bias
  bool expert_bias = false;           // gpt-oss expert biases

  int mtp_layers = 0;                 // multi-token-prediction modules (not counted)
  std::string checkpoint_precision;   // "bf16", "fp8" (DeepSeek), "mxfp4 experts" (gpt-oss)

  std::vector<std::string> warnings;        // unmodeled or unknown fields, one line each
  std::vector<std::string> ignored_fields;  // cost-irrelevant fields, by name

  bool is_moe() const { return experts > 0; }
  int moe_layer_count() const;
  int sliding_layer_count() const;
};

// Imports a Hugging Face config.json object. `path` names it in errors
// ("workload.model" or "examples/models/gpt-oss-120b.json"); `name` is recorded.
ModelConfig import_hf_config(const json& config, const std::string& path, const std::string& name);

// Names of the bundled models (examples/models/*.json stems), sorted.
std::vector<std::string> bundled_model_names();
// The bundled config's JSON; InputError naming `field` with the closest name if unknown.
json bundled_model_json(const std::string& name, const std::string& field);

// Parameter counts (exact integers, as doubles).
struct ParamCounts {
  double total = 0;
  double active = 0;          // per token, excluding the input embedding (a lookup, not a matmul)
  double embedding = 0;       // input embedding table
  double lm_head = 0;         // output projection (0 when tied)
  double attention = 0;       // all layers
  double dense_mlp = 0;       // all dense layers
  double routed_experts = 0;  // all MoE layers, all experts
  double shared_experts = 0;
  double router = 0;
  double norms = 0;
};
ParamCounts count_parameters(const ModelConfig& m);

// Per-layer weight element counts.
double attention_params_per_layer(const ModelConfig& m);
double dense_mlp_params_per_layer(const ModelConfig& m);
double routed_expert_params(const ModelConfig& m);   // one routed expert
double shared_expert_params_per_layer(const ModelConfig& m);
double router_params_per_layer(const ModelConfig& m);

// Elements cached per token per layer (K and V for GQA; the compressed latent plus the
// decoupled RoPE key for MLA).
double kv_elements_per_token_layer(const ModelConfig& m);
// KV-cache bytes per token for the whole model at `context` tokens of history, counting
// sliding-window layers at min(context, window).
double kv_bytes_per_sequence(const ModelConfig& m, double context, double bytes_per_element);

// Query/key/value widths used by the operator model.
int q_width(const ModelConfig& m);        // heads * qk head dim
int attn_out_width(const ModelConfig& m); // heads * v head dim
int qk_head_dim(const ModelConfig& m);
int v_head_dim_of(const ModelConfig& m);

}  // namespace trnsim::model
