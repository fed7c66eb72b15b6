// The supported language-model families (internal to core/model): what each Hugging Face
// `model_type` fixes about the architecture that its config.json does not spell out, and the
// two layout steps every import runs (token mixers per layer, MLP per layer).
#pragma once
#include <string>
#include <vector>

#include "model/hf_reader.h"

namespace trnsim::model {

enum class ExpertUse { none, required };
enum class QkNorm { none, always, from_use_qk_norm };

struct Family {
  std::string type;                 // "llama4_text"
  ExpertUse experts = ExpertUse::none;
  const char* expert_key = "";      // the key that names a missing expert count
  bool mla = false;                 // multi-head latent attention (DeepSeek)
  bool qkv_bias_default = false;    // q/k/v bias when attention_bias is absent
  bool output_bias = true;          // o_proj carries a bias when attention_bias is set
  QkNorm qk_norm = QkNorm::none;    // per-head q/k RMSNorm with weights
  bool output_gate = false;         // sigmoid-gated attention output (attn_output_gate overrides)
  bool sinks = false;               // per-head attention sink logits
  int norms_per_layer = 2;          // hidden-size RMSNorms per layer
  bool tie_default = false;         // tie_word_embeddings when absent
  std::vector<std::string> layer_types;  // layer_types values this family may use
};

// The family of a language-model model_type; nullptr if unsupported.
const Family* find_family(const std::string& model_type);

// Fills m.layer_specs[i].mixer and .rope, m.sliding_window, m.attention_chunk and m.linear
// from layer_types / sliding_window / attention_chunk_size / no_rope_layers /
// full_attention_interval / global_attn_every_n_layers / linear_* as the family reads them.
// Returns the key that decided the layout, for messages ("layer_types").
std::string read_mixers(HfReader& r, const Family& f, ModelConfig& m);

// Fills m.layer_specs[i].attn: the model's shape (num_key_value_heads, head_dim, v_head_dim,
// sinks) in every layer, then the family's own by layer type (Gemma 4's global layers:
// global_head_dim, num_global_key_value_heads, attention_k_eq_v; MiMo-V2-Flash's sliding
// layers: swa_num_key_value_heads, swa_head_dim, swa_v_head_dim, and sink biases by type).
void read_layer_attention(HfReader& r, const Family& f, ModelConfig& m);

// Fills m.layer_specs[i].mlp and .dense_intermediate, m.intermediate, the expert fields and
// the router/shared-expert flags. Errors name the expert-count key the file actually has.
void read_mlp(HfReader& r, const Family& f, ModelConfig& m);

}  // namespace trnsim::model
