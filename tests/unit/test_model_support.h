// Helpers shared by the model-import tests (test_model*.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "model/llm.h"

namespace test_model {

inline trnsim::model::ModelConfig bundled(const std::string& name) {
  return trnsim::model::import_hf_config(trnsim::model::bundled_model_json(name, "model"),
                                         "examples/models/" + name + ".json", name);
}

inline bool has_warning(const trnsim::model::ModelConfig& m, const std::string& prefix) {
  for (const auto& w : m.warnings)
    if (w.rfind(prefix, 0) == 0) return true;
  return false;
}

inline bool is_ignored(const trnsim::model::ModelConfig& m, const std::string& key) {
  return std::find(m.ignored_fields.begin(), m.ignored_fields.end(), key) != m.ignored_fields.end();
}

// A publisher's parameter figure is met when the count is within 1% of it, or -- for a
// figure stated to fewer digits than that ("17B active") -- rounds to it: lies within half
// a unit of its last stated digit (`unit`, 1e9 for "17B", 0.01e9 for "116.83B").
inline bool matches_published(double count, double published, double unit) {
  return std::abs(count - published) <= std::max(0.01 * published, 0.5 * unit);
}

// Published shapes of families with no complete public config.json to bundle.
inline trnsim::json layer_type_list(int layers, int every) {  // sliding except every `every`-th layer
  trnsim::json a = trnsim::json::array();
  for (int i = 0; i < layers; ++i) a.push_back((i + 1) % every == 0 ? "full_attention" : "sliding_attention");
  return a;
}

// Gemma 4 31B's published shape (google/gemma-4-31B text_config, as transformers' Gemma4TextConfig
// reads it): sliding layers of head_dim 256 over 16 K/V heads, every 6th layer global with
// 512-wide heads whose keys are the values (attention_k_eq_v) over 4 heads. No complete public
// copy of the file was found, so the shape is built here.
inline trnsim::json gemma4_31b() {
  trnsim::json t = {{"model_type", "gemma4_text"}, {"hidden_size", 5376}, {"num_hidden_layers", 60},
            {"num_attention_heads", 32}, {"num_key_value_heads", 16}, {"num_global_key_value_heads", 4},
            {"head_dim", 256}, {"global_head_dim", 512}, {"attention_k_eq_v", true}, {"intermediate_size", 21504},
            {"vocab_size", 262144}, {"sliding_window", 1024}, {"hidden_size_per_layer_input", 0},
            {"num_kv_shared_layers", 0}, {"enable_moe_block", false}, {"use_double_wide_mlp", false},
            {"tie_word_embeddings", true}, {"hidden_activation", "gelu_pytorch_tanh"},
            {"max_position_embeddings", 262144}, {"final_logit_softcapping", 30.0}};
  t["layer_types"] = layer_type_list(60, 6);
  return {{"model_type", "gemma4"}, {"architectures", {"Gemma4ForConditionalGeneration"}}, {"text_config", t},
          {"vision_config", {{"model_type", "gemma4_vision"}, {"hidden_size", 1152}, {"num_hidden_layers", 27}}},
          {"tie_word_embeddings", true}, {"image_token_id", 258880}, {"boi_token_id", 255999}, {"eoi_token_id", 258882}};
}

// MiMo-V2-Flash's published shape (XiaomiMiMo/MiMo-V2-Flash config.json as transformers'
// MiMoV2FlashConfig and two public readers' copies of the hub file give it): 48 layers, the
// first and every 6th full attention over 4 K/V heads, the others 128-token sliding windows
// over 8 K/V heads with sink logits; Q/K heads 192 wide, V heads 128; the first layer dense,
// the others 256 experts top-8. The hub file's quantization_config (an FP8 list of every
// layer) could not be read whole, so the shape is built here.
inline trnsim::json mimo_v2_flash() {
  trnsim::json pattern = trnsim::json::array(), freq = trnsim::json::array();
  for (int i = 0; i < 48; ++i) {
    pattern.push_back(i == 0 || (i + 1) % 6 == 0 ? 0 : 1);
    freq.push_back(i == 0 ? 0 : 1);
  }
  return {{"model_type", "mimo_v2_flash"}, {"architectures", {"MiMoV2FlashForCausalLM"}}, {"vocab_size", 152576},
          {"hidden_size", 4096}, {"num_hidden_layers", 48}, {"num_attention_heads", 64}, {"num_key_value_heads", 4},
          {"head_dim", 192}, {"v_head_dim", 128}, {"swa_num_attention_heads", 64}, {"swa_num_key_value_heads", 8},
          {"swa_head_dim", 192}, {"swa_v_head_dim", 128}, {"partial_rotary_factor", 0.334}, {"rope_theta", 5000000},
          {"swa_rope_theta", 10000}, {"sliding_window", 128}, {"sliding_window_size", 128}, {"attention_chunk_size", 128},
          {"hybrid_layer_pattern", pattern}, {"moe_layer_freq", freq}, {"add_swa_attention_sink_bias", true},
          {"add_full_attention_sink_bias", false}, {"intermediate_size", 16384}, {"n_routed_experts", 256},
          {"n_shared_experts", nullptr}, {"num_experts_per_tok", 8}, {"moe_intermediate_size", 2048},
          {"routed_scaling_factor", nullptr}, {"scoring_func", "sigmoid"}, {"topk_method", "noaux_tc"}, {"n_group", 1},
          {"topk_group", 1}, {"norm_topk_prob", true}, {"layernorm_epsilon", 1e-5}, {"attention_value_scale", 0.707},
          {"tie_word_embeddings", false}, {"max_position_embeddings", 262144}, {"num_nextn_predict_layers", 1}};
}

}  // namespace test_model
