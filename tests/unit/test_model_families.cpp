// The model families of issue 15, imported from their published config.json files as
// bundled: Llama 4 (multimodal wrapper, chunked attention, NoPE layers, interleaved MoE with
// a shared expert, dense layers of their own width), Qwen3-Next and Qwen3.5 (Gated DeltaNet
// linear attention with a recurrent state, gated full attention), GLM-4.5 and Trinity (gated
// attention output, expert-bias routing, sliding/full mix with NoPE global layers).
// Parameter counts are checked against the publishers' figures (see matches_published for
// the tolerance), layouts against the transformers configuration classes, errors for naming
// the key the file actually has.
#include <catch2/catch.hpp>

#include "model/heads.h"
#include "model/mixer_cost.h"
#include "plan/plan.h"
#include "test_model_support.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_model_families {

using namespace trnsim;
using namespace trnsim::model;
using test_model::bundled;
using test_model::has_warning;
using test_model::matches_published;
using test_support::contains;

namespace {

std::string error_of(const json& config) {
  return test_support::error_of([&] { import_hf_config(config, "workload.model", "inline"); });
}

json config_of(const std::string& name) { return bundled_model_json(name, "model"); }

int count_layers(const ModelConfig& m, bool (*pred)(const LayerSpec&)) {
  return static_cast<int>(std::count_if(m.layer_specs.begin(), m.layer_specs.end(), pred));
}

}  // namespace

TEST_CASE("every bundled config is read key by key: no key goes unread", "[model]") {
  const std::vector<std::string> added = {"GLM-4.5", "GLM-4.5-Air", "Llama-4-Maverick-17B-128E-Instruct",
                                          "Llama-4-Scout-17B-16E-Instruct", "MiniMax-M2.5", "Qwen3-Next-80B-A3B-Instruct",
                                          "Qwen3.5-27B", "Qwen3.5-397B-A17B", "Solar-Open-100B", "Trinity-Mini",
                                          "Trinity-Nano-Preview"};
  auto names = bundled_model_names();
  for (const auto& a : added) CHECK(std::find(names.begin(), names.end(), a) != names.end());
  for (const auto& n : names) {
    INFO(n);
    auto m = bundled(n);
    for (const auto& w : m.warnings) CHECK(!contains(w, "unknown field"));
    CHECK(static_cast<int>(m.layer_specs.size()) == m.layers);
  }
}

TEST_CASE("Llama 4 Scout: the llama4 wrapper's text_config, chunked RoPE layers, NoPE every 4th", "[model]") {
  auto m = bundled("Llama-4-Scout-17B-16E-Instruct");
  CHECK(m.model_type == "llama4_text");
  CHECK(m.wrapper_model_type == "llama4");
  CHECK(m.unpriced_towers == std::vector<std::string>{"vision_config"});
  CHECK(has_warning(m, "vision_config: the vision encoder (llama4_vision_model, 34 layers, hidden 1408) is not priced"));
  // transformers Llama4TextConfig: no_rope_layer_interval 4 -> layer i has RoPE unless (i+1) % 4 == 0;
  // attention_chunk_size applies to the RoPE layers, the NoPE layers attend over everything.
  CHECK(m.nope_layer_count() == 12);
  CHECK(m.mixer_layer_count(Mixer::chunked_attention) == 36);
  CHECK(m.mixer_layer_count(Mixer::full_attention) == 12);
  CHECK(m.attention_chunk == 8192);
  CHECK(m.layer_specs[3].mixer == Mixer::full_attention);
  CHECK(!m.layer_specs[3].rope);
  CHECK(m.layer_specs[0].mixer == Mixer::chunked_attention);
  CHECK(m.sliding_window == 0);
  // interleave_moe_layer_step 1: every layer MoE, 16 experts of intermediate_size 8192, top-1,
  // plus one shared expert of the same width.
  CHECK(m.moe_layer_count() == 48);
  CHECK(m.experts == 16);
  CHECK(m.moe_intermediate == 8192);
  CHECK(m.shared_expert_width() == 8192);
  CHECK(!m.qk_norm);  // use_qk_norm is an L2 norm without weights
  // KV cache: NoPE layers keep every token, chunked layers at most one chunk.
  const double per_token_layer = 2.0 * 8 * 128 * 2;  // K and V, 8 KV heads x 128, BF16
  CHECK(kv_bytes_per_sequence(m, 4000, 2.0) == 48 * 4000 * per_token_layer);
  CHECK(kv_bytes_per_sequence(m, 100000, 2.0) == (12 * 100000.0 + 36 * 8192.0) * per_token_layer);
  // The vision encoder's parameters, from its config (transformers Llama4VisionModel +
  // projector): patch 3x14x14, 577 positions, 34 ViT layers of 1408 / 5632, adapter, projector.
  const double h = 1408, f = 5632;
  const double vision = 3 * 14 * 14 * h + h + 577 * h + 4 * h + 34 * (4 * (h * h + h) + (h * f + f) + (f * h + h) + 4 * h) +
                        f * 4096 + 4096.0 * 4096 + 4096.0 * 5120;
  auto c = count_parameters(m);
  CHECK(c.unpriced_towers == vision);
  // Meta's model card: 109B total (language model and vision encoder), 17B active.
  CHECK(matches_published(c.total + c.unpriced_towers, 109e9, 1e9));
  CHECK(matches_published(c.active + c.embedding, 17e9, 1e9));
}

TEST_CASE("Llama 4 Maverick: MoE every second layer, dense layers of intermediate_size_mlp", "[model]") {
  auto m = bundled("Llama-4-Maverick-17B-128E-Instruct");
  // interleave_moe_layer_step 2: moe_layers = range(1, 48, 2).
  CHECK(m.moe_layer_count() == 24);
  CHECK(!m.layer_moe[0]);
  CHECK(m.layer_moe[1]);
  CHECK(m.layer_specs[0].dense_intermediate == 16384);
  CHECK(m.layer_specs[1].dense_intermediate == 0);
  CHECK(m.intermediate == 16384);
  CHECK(m.moe_intermediate == 8192);
  CHECK(m.experts == 128);
  auto c = count_parameters(m);
  CHECK(c.dense_mlp == 24 * 3.0 * 5120 * 16384);
  CHECK(c.shared_experts == 24 * 3.0 * 5120 * 8192);
  // Meta's model card: 400B total, 17B active.
  CHECK(matches_published(c.total + c.unpriced_towers, 400e9, 1e9));
  CHECK(matches_published(c.active + c.embedding, 17e9, 1e9));
}

TEST_CASE("Qwen3-Next: Gated DeltaNet layers with a recurrent state, gated full attention every 4th", "[model]") {
  auto m = bundled("Qwen3-Next-80B-A3B-Instruct");
  // full_attention_interval 4 (no layer_types in the file): layers 3, 7, ... are full attention.
  CHECK(m.mixer_layer_count(Mixer::linear_attention) == 36);
  CHECK(m.mixer_layer_count(Mixer::full_attention) == 12);
  CHECK(m.layer_specs[3].mixer == Mixer::full_attention);
  CHECK(m.layer_specs[4].mixer == Mixer::linear_attention);
  CHECK(m.attention_output_gate);
  CHECK(m.qk_norm);
  CHECK(m.head_dim == 256);
  CHECK(m.linear.key_heads == 16);
  CHECK(m.linear.value_heads == 32);
  CHECK(m.linear.key_head_dim == 128);
  CHECK(m.linear.value_head_dim == 128);
  CHECK(m.linear.conv_kernel == 4);
  // Only the 12 full-attention layers cache K/V: 2 KV heads x 256, K and V.
  CHECK(kv_bytes_per_sequence(m, 1, 2.0) == 12 * 2.0 * 2 * 256 * 2);
  CHECK(kv_bytes_per_sequence(m, 50000, 2.0) == 50000 * kv_bytes_per_sequence(m, 1, 2.0));
  // The recurrent state does not grow: value_heads x key_dim x value_dim per layer, plus the
  // conv's last 3 inputs of its 2*16*128 + 32*128 channels.
  const double state = 32.0 * 128 * 128 + (2 * 16 * 128 + 32 * 128) * 3.0;
  CHECK(linear_state_elements_per_layer(m) == state);
  CHECK(linear_state_bytes_per_sequence(m, 4.0) == 36 * state * 4.0);
  CHECK(linear_state_elements(m, 3) == 0);
  // Weights of one DeltaNet layer (Qwen3NextGatedDeltaNet): in_proj_qkvz 2048 -> 12288,
  // in_proj_ba 2048 -> 64, conv 8192 x 4, dt_bias and A_log 32 each, out_proj 4096 -> 2048.
  CHECK(linear_attention_params_per_layer(m) == 2048.0 * 12288 + 2048.0 * 64 + 8192.0 * 4 + 64 + 4096.0 * 2048);
  // Gated attention: q_proj emits the query and the gate (2 x 16 x 256).
  CHECK(attention_params_per_layer(m) == 2048.0 * 2 * 16 * 256 + 2 * 2048.0 * 2 * 256 + 16 * 256 * 2048.0);
  CHECK(m.shared_expert_gate);
  CHECK(m.shared_expert_width() == 512);
  auto c = count_parameters(m);
  // Qwen's model card: 80B total, 3B activated (Qwen's 3B counts neither the embedding nor
  // the LM head).
  CHECK(matches_published(c.total, 80e9, 1e9));
  CHECK(matches_published(c.active - c.embedding, 3e9, 1e9));
}

TEST_CASE("Qwen3.5: qwen3_5_moe and qwen3_5 wrappers, layer_types, vision tower warned", "[model]") {
  auto m = bundled("Qwen3.5-397B-A17B");
  CHECK(m.wrapper_model_type == "qwen3_5_moe");
  CHECK(m.model_type == "qwen3_5_moe_text");
  CHECK(m.mixer_layer_count(Mixer::linear_attention) == 45);
  CHECK(m.linear.value_heads == 64);
  CHECK(m.linear_state_dtype == "float32");
  CHECK(m.attention_output_gate);  // attn_output_gate
  CHECK(m.experts == 512);
  CHECK(m.experts_per_token == 10);
  CHECK(m.intermediate == 0);  // no dense layer, no intermediate_size in the file
  CHECK(m.mtp_layers == 1);
  CHECK(!m.tie_embeddings);
  CHECK(has_warning(m, "vision_config: the vision encoder (qwen3_5_moe, 27 layers, hidden 1152) is not priced and its parameters are not counted"));
  CHECK(has_warning(m, "text_config.mtp_num_hidden_layers: 1"));
  CHECK(linear_state_bytes_per_sequence(m, 4.0) == 45 * (64.0 * 128 * 128 + (2 * 16 * 128 + 64 * 128) * 3.0) * 4.0);
  auto c = count_parameters(m);
  // Qwen's model card: 397B total, 17B activated (this one counts the embedding); the
  // language model alone, without the vision encoder and the MTP module.
  CHECK(matches_published(c.total, 397e9, 1e9));
  CHECK(matches_published(c.active + c.embedding, 17e9, 1e9));

  auto d = bundled("Qwen3.5-27B");
  CHECK(d.model_type == "qwen3_5_text");
  CHECK(!d.is_moe());
  CHECK(d.intermediate == 17408);
  CHECK(d.mixer_layer_count(Mixer::linear_attention) == 48);
  CHECK(d.linear.value_heads == 48);
  // Qwen's model card: 27B (a dense model: every weight but the embedding is active).
  auto cd = count_parameters(d);
  CHECK(matches_published(cd.total, 27e9, 1e9));
  CHECK(cd.active == cd.total - cd.embedding);
}

TEST_CASE("GLM-4.5: three dense layers, 160 routed + 1 shared expert, q/k/v bias, QK norm", "[model]") {
  auto m = bundled("GLM-4.5");
  CHECK(m.moe_layer_count() == 89);  // first_k_dense_replace 3
  CHECK(!m.layer_moe[2]);
  CHECK(m.experts == 160);
  CHECK(m.shared_experts == 1);
  CHECK(m.router_bias);  // e_score_correction_bias
  CHECK(m.qk_norm);      // use_qk_norm
  CHECK(m.attention_bias);
  CHECK(!m.attention_output_bias);  // Glm4MoeAttention's o_proj has no bias
  CHECK(m.mtp_layers == 1);
  auto c = count_parameters(m);
  // Zhipu's README (zai-org/GLM-4.5): 355B total, 32B active; the active figure counts
  // neither the embedding nor the output layer. The MTP layer is reported, not counted.
  CHECK(matches_published(c.total, 355e9, 1e9));
  CHECK(matches_published(c.active - c.lm_head, 32e9, 1e9));
  auto air = bundled("GLM-4.5-Air");
  CHECK(air.moe_layer_count() == 45);  // first_k_dense_replace 1
  CHECK(!air.qk_norm);
  auto ca = count_parameters(air);
  // The same README: GLM-4.5-Air, 106B total, 12B active.
  CHECK(matches_published(ca.total, 106e9, 1e9));
  CHECK(matches_published(ca.active - ca.lm_head, 12e9, 1e9));
}

TEST_CASE("GLM-4.7-Flash (glm4_moe_lite): DeepSeek-V3's latent attention with GLM's experts", "[model]") {
  auto m = bundled("GLM-4.7-Flash");
  CHECK(m.attention == model::AttentionKind::mla);
  CHECK(m.kv_lora_rank == 512);
  CHECK(m.q_lora_rank == 768);
  CHECK(m.head_dim == 192 + 64);  // 2048 / 20 heads is not whole: the query/key head width
  CHECK(m.moe_layer_count() == 46);  // first_k_dense_replace 1
  CHECK(m.experts == 64);
  CHECK(m.experts_per_token == 4);
  auto c = count_parameters(m);
  // Zhipu's model card: a 30B-A3B MoE model (neither embedding nor LM head in the active count).
  CHECK(matches_published(c.total, 30e9, 1e9));
  CHECK(matches_published(c.active - c.lm_head, 3e9, 1e9));
  // MLA keys outside an MLA family are refused by name.
  json j = config_of("GLM-4.7-Flash");
  j["model_type"] = "glm4_moe";
  CHECK(contains(error_of(j), "multi-head latent attention is only modeled for"));
}

TEST_CASE("Kimi K2 (kimi_k2): DeepSeek-V3's architecture at 384 experts, 64 heads, one dense layer", "[model]") {
  // Kimi K2's shape as Moonshot publishes it (model card and technical report: 61 layers, hidden
  // 7168, 64 attention heads, 384 experts with 8 selected and 1 shared, the first layer dense,
  // DeepSeek-V3's MLA dimensions, a 160K vocabulary) on DeepSeek-V3's keys: its config keeps
  // DeepseekV3ForCausalLM and changes the model_type (Moonshot's deployment guide).
  json j = config_of("DeepSeek-V3");
  j["model_type"] = "kimi_k2";
  j["num_attention_heads"] = 64;
  j["num_key_value_heads"] = 64;
  j["n_routed_experts"] = 384;
  j["first_k_dense_replace"] = 1;
  j["n_group"] = 1;
  j["topk_group"] = 1;
  j["vocab_size"] = 163840;
  j.erase("num_nextn_predict_layers");  // K2 has no multi-token prediction layer
  const ModelConfig m = import_hf_config(j, "workload.model", "inline");
  CHECK(m.attention == model::AttentionKind::mla);
  CHECK(m.moe_layer_count() == 60);
  CHECK(m.experts == 384);
  auto c = count_parameters(m);
  // The model card: 1 trillion total parameters, 32 billion activated.
  CHECK(matches_published(c.total, 1e12, 0.1e12));
  CHECK(matches_published(c.active, 32e9, 1e9));
  // Under another model_type the same MLA keys are refused by name, kimi_k2 listed.
  j["model_type"] = "llama";
  CHECK(contains(error_of(j), "deepseek_v3, glm4_moe_lite and kimi_k2"));
}

TEST_CASE("Trinity (afmoe): sliding/full mix with NoPE global layers, gated attention, 4 norms", "[model]") {
  auto m = bundled("Trinity-Mini");
  // global_attn_every_n_layers 4: layers 3, 7, ... global (full, NoPE); the rest sliding with RoPE.
  CHECK(m.sliding_layer_count() == 24);
  CHECK(m.sliding_window == 2048);
  CHECK(m.layer_specs[3].mixer == Mixer::full_attention);
  CHECK(!m.layer_specs[3].rope);
  CHECK(m.layer_specs[0].rope);
  CHECK(count_layers(m, [](const LayerSpec& l) { return !l.rope && l.mixer == Mixer::full_attention; }) == 8);
  CHECK(m.attention_output_gate);
  CHECK(m.qk_norm);
  CHECK(m.norms_per_layer == 4);
  CHECK(m.router_bias);  // expert_bias
  CHECK(m.moe_layer_count() == 30);  // num_dense_layers 2
  CHECK(m.shared_expert_width() == 1024);
  auto c = count_parameters(m);
  // Arcee's model card (arcee-ai/Trinity-Mini): 26B, 3B active.
  CHECK(matches_published(c.total, 26e9, 1e9));
  CHECK(matches_published(c.active, 3e9, 1e9));
  // Attention with its output gate: q, gate and o of 32 x 128, k and v of 4 x 128.
  CHECK(attention_params_per_layer(m) == 3 * 2048.0 * 4096 + 2 * 2048.0 * 512);
  auto nano = bundled("Trinity-Nano-Preview");
  auto cn = count_parameters(nano);
  // Arcee's Trinity collection: Trinity-Nano 6B, 1B active.
  CHECK(matches_published(cn.total, 6e9, 1e9));
  CHECK(matches_published(cn.active + cn.embedding, 1e9, 1e9));
}

TEST_CASE("refusals name the key the file has and list what is supported", "[model]") {
  // A Llama 4 text_config imported as plain llama: the file's expert key is num_local_experts.
  json c = config_of("Llama-4-Scout-17B-16E-Instruct")["text_config"];
  c["model_type"] = "llama";
  c.erase("attention_chunk_size");
  CHECK(error_of(c).find("workload.model.num_local_experts: experts are not part of model_type 'llama'") == 0);
  c = config_of("Llama-4-Scout-17B-16E-Instruct")["text_config"];
  c["model_type"] = "llama";
  CHECK(error_of(c).find("workload.model.attention_chunk_size: chunked attention is modeled for llama4_text") == 0);
  // The bare text_config imports as llama4_text.
  c = config_of("Llama-4-Scout-17B-16E-Instruct")["text_config"];
  CHECK(import_hf_config(c, "workload.model", "inline").mixer_layer_count(Mixer::chunked_attention) == 36);
  // Unknown model types: the closest supported one, and the whole list with the wrappers.
  c["model_type"] = "llama4_txt";
  std::string e = error_of(c);
  CHECK(e.find("workload.model.model_type: unsupported model_type 'llama4_txt' (did you mean 'llama4_text'?)") == 0);
  CHECK(contains(e, "afmoe"));
  CHECK(contains(e, "multimodal wrappers (their text_config is priced): gemma3, gemma4, llama4, qwen3_5, qwen3_5_moe"));
  c["model_type"] = "qwen3_5_moe_txt";
  CHECK(contains(error_of(c), "(did you mean 'qwen3_5_moe_text'?)"));
  // A MoE family without its expert count names the family's key.
  json g = config_of("GLM-4.5");
  g.erase("n_routed_experts");
  CHECK(error_of(g).find("workload.model.n_routed_experts: missing: model_type 'glm4_moe' is a mixture-of-experts") == 0);
  // Wrapper errors name the nested field.
  json w = config_of("Qwen3.5-397B-A17B");
  w["text_config"]["model_type"] = "qwen3_next";
  CHECK(error_of(w).find("workload.model.text_config.model_type: expected 'qwen3_5_moe_text'") == 0);
  w = config_of("Qwen3.5-397B-A17B");
  w["text_config"].erase("linear_num_value_heads");
  CHECK(error_of(w).find("workload.model.text_config.linear_num_value_heads: missing") == 0);
  w = config_of("Qwen3.5-397B-A17B");
  w.erase("text_config");
  CHECK(error_of(w).find("workload.model.text_config: missing: a 'qwen3_5_moe' config carries") == 0);
  // A tower outside a wrapper, and Gated DeltaNet keys where the family has none.
  json l = bundled_model_json("Llama-3.1-8B", "m");
  l["vision_config"] = {{"hidden_size", 1024}};
  CHECK(error_of(l).find("workload.model.vision_config: unsupported") == 0);
  l = bundled_model_json("Llama-3.1-8B", "m");
  l["linear_num_key_heads"] = 16;
  CHECK(error_of(l).find("workload.model.linear_num_key_heads: Gated DeltaNet linear attention is modeled for qwen3_5_moe_text, qwen3_5_text, qwen3_next") == 0);
  // Layer types another family has: the error says which.
  json q = config_of("Qwen3-Next-80B-A3B-Instruct");
  q["layer_types"] = json::array();
  for (int i = 0; i < 48; ++i) q["layer_types"].push_back(i == 5 ? "sliding_attention" : "full_attention");
  e = error_of(q);
  CHECK(e.find("workload.model.layer_types[5]: unsupported layer type 'sliding_attention' for model_type 'qwen3_next'") == 0);
  CHECK(contains(e, "(modeled: full_attention, linear_attention)"));
  // Llama 4 NoPE flags are 0 or 1.
  json t = config_of("Llama-4-Maverick-17B-128E-Instruct");
  t["text_config"]["no_rope_layers"] = json::array();
  for (int i = 0; i < 48; ++i) t["text_config"]["no_rope_layers"].push_back(i == 7 ? 2 : 1);
  CHECK(error_of(t).find("workload.model.text_config.no_rope_layers[7]: expected 1 (RoPE) or 0 (NoPE)") == 0);
}

TEST_CASE("explicit layer lists override the interleaving rules", "[model]") {
  json t = config_of("Llama-4-Maverick-17B-128E-Instruct");
  t["text_config"]["moe_layers"] = {0, 47};
  t["text_config"]["no_rope_layers"] = json::array();
  for (int i = 0; i < 48; ++i) t["text_config"]["no_rope_layers"].push_back(i < 24 ? 1 : 0);
  auto m = import_hf_config(t, "workload.model", "inline");
  CHECK(m.moe_layer_count() == 2);
  CHECK(m.layer_moe[47]);
  CHECK(m.nope_layer_count() == 24);
  CHECK(m.mixer_layer_count(Mixer::chunked_attention) == 24);
  // Without attention_chunk_size every layer is full attention.
  t["text_config"].erase("attention_chunk_size");
  auto full = import_hf_config(t, "workload.model", "inline");
  CHECK(full.mixer_layer_count(Mixer::full_attention) == 48);
  CHECK(full.attention_chunk == 0);
  // Qwen3.5 with attn_output_gate off has no gate weights.
  json q = config_of("Qwen3.5-27B");
  auto gated = import_hf_config(q, "workload.model", "inline");
  q["text_config"]["attn_output_gate"] = false;
  auto plain = import_hf_config(q, "workload.model", "inline");
  CHECK(attention_params_per_layer(gated) - attention_params_per_layer(plain) == 5120.0 * 24 * 256);
}

TEST_CASE("Gemma 3: the gemma3 wrapper, 5 sliding layers to 1 full, tied embeddings, 4 norms", "[model]") {
  // The gemma-3-27b config as the Neuron port's test assets carry it
  // (aws-neuron/neuronx-distributed-inference contrib/models/gemma3-vision/test/assets/
  // gemma3_27b_config.json, a transformers 4.56 re-save), without its layer_types list: the
  // _sliding_window_pattern derives the same layout.
  json text = {{"_sliding_window_pattern", 6}, {"attention_bias", false}, {"attention_dropout", 0.0},
               {"attn_logit_softcapping", nullptr}, {"final_logit_softcapping", nullptr}, {"head_dim", 128},
               {"hidden_activation", "gelu_pytorch_tanh"}, {"hidden_size", 5376}, {"initializer_range", 0.02},
               {"intermediate_size", 21504}, {"max_position_embeddings", 131072}, {"model_type", "gemma3_text"},
               {"num_attention_heads", 32}, {"num_hidden_layers", 62}, {"num_key_value_heads", 16},
               {"query_pre_attn_scalar", 168}, {"rms_norm_eps", 1e-06}, {"rope_local_base_freq", 10000.0},
               {"rope_scaling", {{"factor", 8.0}, {"rope_type", "linear"}}}, {"rope_theta", 1000000.0},
               {"sliding_window", 1024}, {"use_cache", true}, {"vocab_size", 262208}};
  json wrapper = {{"architectures", {"Gemma3ForConditionalGeneration"}}, {"boi_token_index", 255999},
                  {"dtype", "bfloat16"}, {"eoi_token_index", 256000}, {"eos_token_id", {1, 106}},
                  {"image_token_index", 262144}, {"initializer_range", 0.02}, {"mm_tokens_per_image", 256},
                  {"model_type", "gemma3"}, {"text_config", text}, {"transformers_version", "4.56.2"},
                  {"vision_config", {{"hidden_size", 1152}, {"model_type", "siglip_vision_model"}, {"num_hidden_layers", 27}}}};
  auto m = import_hf_config(wrapper, "workload.model", "inline");
  CHECK(m.model_type == "gemma3_text");
  CHECK(m.sliding_layer_count() == 52);  // layers 5, 11, ..., 59 are full: 10 of 62
  CHECK(m.layer_specs[5].mixer == Mixer::full_attention);
  CHECK(m.sliding_window == 1024);
  CHECK(m.tie_embeddings);
  CHECK(m.norms_per_layer == 4);
  CHECK(m.qk_norm);
  for (const auto& w : m.warnings) CHECK(!contains(w, "unknown field"));
  CHECK(has_warning(m, "text_config.rope_scaling"));
  CHECK(has_warning(m, "vision_config: the vision encoder (siglip_vision_model, 27 layers, hidden 1152) is not priced"));
  // Google's model card: Gemma 3 27B (the language model, without its SigLIP vision encoder).
  CHECK(matches_published(count_parameters(m).total, 27e9, 1e9));
}

TEST_CASE("head sharding follows Neuron's padding and K/V replication", "[model]") {
  // NxD Inference gqa.py's own example: tp 32, 56 query heads -> 64, 8 K/V heads -> 32.
  ModelConfig m;
  m.heads = 56;
  m.kv_heads = 8;
  HeadSharding s = shard_heads(m, 32);
  CHECK(s.q_heads == 64);
  CHECK(s.kv_heads == 32);
  CHECK(s.kv == KvSharding::replicate_to_tp);
  CHECK(s.padded_q_heads() == 8);
  // Llama 4 Scout at TP16 (issue 15): 40 query heads -> 48 (3 per rank), 8 K/V -> 16 (1 per rank).
  auto scout = bundled("Llama-4-Scout-17B-16E-Instruct");
  s = shard_heads(scout, 16);
  CHECK(s.q_heads_per_rank() == 3);
  CHECK(s.kv_heads_per_rank() == 1);
  CHECK(s.padded_q_heads() == 8);
  CHECK(s.padded());
  // TP8 divides both: nothing padded.
  s = shard_heads(scout, 8);
  CHECK(!s.padded());
  CHECK(s.q_heads_per_rank() == 5);
  CHECK(s.kv == KvSharding::split);
  // tp neither divides nor is a multiple of the K/V heads: convert to MHA.
  s = shard_heads(scout, 12);
  CHECK(s.q_heads == 48);
  CHECK(s.kv_heads == 48);
  CHECK(s.kv == KvSharding::convert_to_mha);
  // Multi-head attention pads K/V with the queries.
  m.heads = m.kv_heads = 40;
  s = shard_heads(m, 16);
  CHECK(s.q_heads == 48);
  CHECK(s.kv_heads == 48);
  CHECK(s.kv == KvSharding::split);
  CHECK(s.kv_heads_per_rank() == 3);
}

TEST_CASE("chunked attention scores pairs within chunks; below the chunk it is full attention", "[model]") {
  auto m = bundled("Llama-4-Scout-17B-16E-Instruct");
  const Mixer chunked = Mixer::chunked_attention, nope = Mixer::full_attention;
  // Every context shorter than the 8192-token chunk: identical to full attention.
  CHECK(attention_pairs(m, chunked, 5000) == attention_pairs(m, nope, 5000));
  CHECK(attention_pairs(m, chunked, 5000) == 5000.0 * 5001 / 2);
  // 20000 tokens: two whole chunks and 3616 tokens of a third.
  CHECK(attention_pairs(m, chunked, 20000) == 2 * (8192.0 * 8193 / 2) + 3616.0 * 3617 / 2);
  // Keys per token: the position within its chunk.
  CHECK(attention_keys_at(m, chunked, 8191) == 8192);
  CHECK(attention_keys_at(m, chunked, 8192) == 1);
  CHECK(attention_keys_at(m, nope, 8192) == 8193);
  // The mean over decode steps equals the sum of the keys of each step.
  double sum = 0;
  for (int p = 8000; p < 8400; ++p) sum += attention_keys_at(m, chunked, p);
  CHECK(mean_attention_keys(m, chunked, 8000, 400) == Approx(sum / 400).epsilon(1e-12));
  // Sliding windows keep their closed form too (gpt-oss, 128 tokens).
  auto g = bundled("gpt-oss-120b");
  CHECK(attention_pairs(g, Mixer::sliding_attention, 1000) == 128.0 * 129 / 2 + (1000 - 128) * 128.0);
}

TEST_CASE("Gated DeltaNet: per-token work from its dimensions, no keys attended", "[model]") {
  auto m = bundled("Qwen3-Next-80B-A3B-Instruct");
  CHECK(attention_pairs(m, Mixer::linear_attention, 10000) == 0);
  CHECK(attention_keys_at(m, Mixer::linear_attention, 10000) == 0);
  // 32 value heads x 128 x 128 state, 7 FLOPs per element; conv of 8192 channels x 4 taps.
  CHECK(linear_attention_core_flops_per_token(m) == 7.0 * 32 * 128 * 128 + 2.0 * 8192 * 4);
  CHECK(linear_attention_state_elements_touched_per_token(m) == 2.0 * 32 * 128 * 128);
  CHECK(linear_attention_prefill_flops_per_token(m) == linear_attention_core_flops_per_token(m) + 2.0 * 64 * 32 * (128 + 128));
}


// ---- Per-layer attention shapes and the families today's Trainium ports run -------------

using test_model::gemma4_31b;
using test_model::mimo_v2_flash;

namespace {

// One GQA layer's weights, written out from the transformers modules (q, k, v, o projections
// without biases; v absent when K = V; one sink logit per query head).
double gqa_weights(double d, double heads, double kv, double qk, double v, bool k_eq_v, bool sinks) {
  return d * heads * qk + d * kv * qk + (k_eq_v ? 0 : d * kv * v) + heads * v * d + (sinks ? heads : 0);
}

}  // namespace

TEST_CASE("Gemma 4: global layers of their own head dim and K/V heads, keys serving as values", "[model]") {
  const ModelConfig m = import_hf_config(gemma4_31b(), "workload.model", "inline");
  CHECK(m.model_type == "gemma4_text");
  CHECK(m.wrapper_model_type == "gemma4");
  CHECK(has_warning(m, "vision_config: the vision encoder (gemma4_vision, 27 layers, hidden 1152) is not priced"));
  CHECK(m.sliding_layer_count() == 50);
  CHECK(m.per_layer_attention());
  const AttentionShape& swa = m.layer_specs[0].attn;
  const AttentionShape& global = m.layer_specs[5].attn;
  CHECK((swa.kv_heads == 16 && swa.head_dim == 256 && swa.v_head_dim == 256 && !swa.k_eq_v));
  CHECK((global.kv_heads == 4 && global.head_dim == 512 && global.v_head_dim == 512 && global.k_eq_v));
  // Parameters from the modules: 50 sliding and 10 global attention layers (q_norm and k_norm of
  // their head dim, four hidden-size norms), a GeGLU MLP of 21504, the tied embedding.
  const double d = 5376, f = 21504, vocab = 262144;
  const double attn = 50 * gqa_weights(d, 32, 16, 256, 256, false, false) + 10 * gqa_weights(d, 32, 4, 512, 512, true, false);
  const double norms = 50 * (4 * d + 2 * 256) + 10 * (4 * d + 2 * 512) + d;
  const auto c = count_parameters(m);
  CHECK(c.attention == attn);
  CHECK(c.total == attn + norms + 60 * 3 * d * f + vocab * d);
  // Google's name for it: 31B (the vision encoder is not counted here).
  CHECK(matches_published(c.total, 31e9, 1e9));
  // The KV cache: a sliding layer holds K and V of 16 x 256 for at most the window, a global
  // layer one tensor (K = V) of 4 x 512 for every token.
  const double ctx = 8192;
  CHECK(kv_bytes_per_sequence(m, ctx, 2) == 2 * (50 * 1024 * 16 * 512.0 + 10 * ctx * 4 * 512.0));
  // On 8 TP ranks: the 16 sliding K/V heads split (2 per rank), the 4 global ones are replicated
  // to one per rank (Neuron's REPLICATE_TO_TP_DEGREE); each layer caches its own.
  const plan::Placement pl = plan::make_placement(m, 8, 1, 1, 1);
  const plan::AttentionChip a_swa = plan::attention_chip(m, pl, m.layer_specs[0]);
  const plan::AttentionChip a_global = plan::attention_chip(m, pl, m.layer_specs[5]);
  CHECK((a_swa.q_heads == 4 && a_swa.kv_heads == 2 && a_swa.kv_cache_elems == 2 * 2 * 256));
  CHECK((a_global.q_heads == 4 && a_global.kv_heads == 1 && a_global.kv_cache_elems == 512));
  // The layout tells the two shapes apart (they share the MLP).
  const plan::Layout L = plan::make_layout(m, 1);
  CHECK(L.type_names == std::vector<std::string>{"dense/full", "dense/sliding"});
  // Gemma 4's E-models (per-layer input embeddings, KV-sharing layers) are refused by name.
  json e = gemma4_31b();
  e["text_config"]["hidden_size_per_layer_input"] = 256;
  CHECK(error_of(e).find("workload.model.text_config.hidden_size_per_layer_input: unsupported: per-layer input embeddings") == 0);
  e = gemma4_31b();
  e["text_config"]["num_kv_shared_layers"] = 20;
  CHECK(error_of(e).find("workload.model.text_config.num_kv_shared_layers: unsupported") == 0);
  // Without attention_k_eq_v the global layers keep num_key_value_heads and a v_proj.
  e = gemma4_31b();
  e["text_config"]["attention_k_eq_v"] = false;
  const ModelConfig n = import_hf_config(e, "workload.model", "inline");
  CHECK((n.layer_specs[5].attn.kv_heads == 16 && !n.layer_specs[5].attn.k_eq_v && n.layer_specs[5].attn.head_dim == 512));
}

TEST_CASE("Gemma 4 MoE block: routed experts beside the dense MLP", "[model]") {
  json j = gemma4_31b();
  json& t = j["text_config"];
  t["enable_moe_block"] = true;
  t["num_experts"] = 128;
  t["top_k_experts"] = 8;
  t["moe_intermediate_size"] = 704;
  const ModelConfig m = import_hf_config(j, "workload.model", "inline");
  CHECK(m.moe_layer_count() == 60);
  CHECK(m.experts == 128);
  CHECK(m.experts_per_token == 8);
  CHECK(m.shared_expert_intermediate == 21504);  // the dense MLP, run by every token
  CHECK(!m.shared_expert_gate);
  const auto c = count_parameters(m);
  CHECK(c.routed_experts == 60 * 128 * 3 * 5376.0 * 704);
  CHECK(c.router == 60 * (128 * 5376.0 + 128));  // proj and per-expert scale
}

TEST_CASE("MiMo-V2-Flash: sliding layers of their own K/V heads, V heads narrower than Q/K, sinks", "[model]") {
  const ModelConfig m = import_hf_config(mimo_v2_flash(), "workload.model", "inline");
  CHECK(m.sliding_layer_count() == 39);
  CHECK(m.sliding_window == 128);
  CHECK(m.moe_layer_count() == 47);
  CHECK(m.router_bias);
  const AttentionShape& full = m.layer_specs[0].attn;
  const AttentionShape& swa = m.layer_specs[1].attn;
  CHECK((full.kv_heads == 4 && full.head_dim == 192 && full.v_head_dim == 128 && !full.sinks));
  CHECK((swa.kv_heads == 8 && swa.head_dim == 192 && swa.v_head_dim == 128 && swa.sinks));
  const double d = 4096;
  const double attn = 9 * gqa_weights(d, 64, 4, 192, 128, false, false) + 39 * gqa_weights(d, 64, 8, 192, 128, false, true);
  const auto c = count_parameters(m);
  CHECK(c.attention == attn);
  const double expert = 3 * d * 2048;
  CHECK(c.routed_experts == 47 * 256 * expert);
  // Xiaomi's model card: 309B total parameters, 15B active (the active figure with the embedding).
  CHECK(matches_published(c.total, 309e9, 1e9));
  CHECK(matches_published(c.active + c.embedding, 15e9, 1e9));
  // KV: K (192) and V (128) per head; full layers 4 heads for every token, sliding 8 for the window.
  CHECK(kv_bytes_per_sequence(m, 4096, 1) == 9 * 4096 * 4 * 320.0 + 39 * 128 * 8 * 320.0);
  CHECK(m.mtp_layers == 1);
  // Query heads unlike num_attention_heads in the sliding layers are refused by name.
  json j = mimo_v2_flash();
  j["swa_num_attention_heads"] = 32;
  CHECK(error_of(j).find("workload.model.swa_num_attention_heads: unsupported") == 0);
  j = mimo_v2_flash();
  j["hybrid_layer_pattern"][3] = 2;
  CHECK(error_of(j).find("workload.model.hybrid_layer_pattern[3]: expected 0 or 1") == 0);
  // transformers' MiMoV2FlashConfig spelling: layer_types, mlp_layer_types, sliding layers with
  // twice num_key_value_heads when no swa_* key says otherwise.
  j = mimo_v2_flash();
  j["layer_types"] = json::array();
  j["mlp_layer_types"] = json::array();
  for (int i = 0; i < 48; ++i) {
    j["layer_types"].push_back(j["hybrid_layer_pattern"][i] == 1 ? "sliding_attention" : "full_attention");
    j["mlp_layer_types"].push_back(i == 0 ? "dense" : "sparse");
  }
  for (const char* k : {"hybrid_layer_pattern", "moe_layer_freq", "swa_num_key_value_heads", "swa_num_attention_heads",
                        "swa_head_dim", "swa_v_head_dim"})
    j.erase(k);
  const ModelConfig t = import_hf_config(j, "workload.model", "inline");
  CHECK(t.sliding_layer_count() == 39);
  CHECK(t.moe_layer_count() == 47);
  CHECK(t.layer_specs[1].attn == swa);
  CHECK(count_parameters(t).total == c.total);
  j = mimo_v2_flash();
  j["sliding_window"] = 256;
  CHECK(contains(error_of(j), "workload.model.sliding_window: disagrees with sliding_window_size (128)"));
}

TEST_CASE("Solar Open: Llama attention and GLM-4.5's MoE in every layer", "[model]") {
  auto m = bundled("Solar-Open-100B");
  CHECK(m.model_type == "solar_open");
  CHECK(m.moe_layer_count() == 48);
  CHECK(m.experts == 128);
  CHECK(m.shared_experts == 1);
  CHECK(m.router_bias);
  CHECK(!m.qk_norm);
  CHECK(!m.per_layer_attention());
  auto c = count_parameters(m);
  // Upstage's model card: 102B parameters, 12B active (with the embedding).
  CHECK(matches_published(c.total, 102e9, 1e9));
  CHECK(matches_published(c.active + c.embedding, 12e9, 1e9));
}

TEST_CASE("MiniMax-M2: full attention with q/k norms over all heads; lightning attention refused", "[model]") {
  auto m = bundled("MiniMax-M2.5");
  CHECK(m.model_type == "minimax_m2");
  CHECK(m.moe_layer_count() == 62);
  CHECK(m.experts == 256);
  CHECK(m.moe_intermediate == 1536);
  CHECK(m.router_bias);
  CHECK((m.qk_norm && m.qk_norm_full_width));
  CHECK(m.mtp_layers == 3);
  // q_norm over 48 x 128 and k_norm over 8 x 128 elements, besides the two hidden-size norms.
  CHECK(norm_params(m, 0) == 2 * 3072.0 + (48 + 8) * 128.0);
  auto c = count_parameters(m);
  // MiniMax's model card: 230B total parameters, 10B activated.
  CHECK(matches_published(c.total, 230e9, 1e9));
  CHECK(matches_published(c.active, 10e9, 1e9));
  json j = config_of("MiniMax-M2.5");
  j["attn_type_list"][3] = 0;
  CHECK(error_of(j).find("workload.model.attn_type_list[3]: unsupported: 0 (MiniMax lightning attention") == 0);
  j = config_of("MiniMax-M2.5");
  j["model_type"] = "minimax_m3_text";
  CHECK(contains(error_of(j), "MiniMax-M3's sparse (indexed top-k) attention is not modeled"));
  j["model_type"] = "minimax_m2";
  j["sparse_attention_config"] = {{"sparse_block_size", 128}};
  CHECK(error_of(j).find("workload.model.sparse_attention_config: unsupported") == 0);
}

TEST_CASE("Granite 4.0 (granitemoehybrid): attention-only configs priced, Mamba2 dimensions checked", "[model]") {
  // granite-4.0-micro's published shape: 40 attention layers, hidden 2560, 40 heads over 8 K/V
  // heads, the shared MLP of 8192, no routed experts, a tied 100352-token embedding.
  json j = {{"model_type", "granitemoehybrid"}, {"architectures", {"GraniteMoeHybridForCausalLM"}},
            {"hidden_size", 2560}, {"num_hidden_layers", 40}, {"num_attention_heads", 40}, {"num_key_value_heads", 8},
            {"intermediate_size", 8192}, {"shared_intermediate_size", 8192}, {"num_local_experts", 0},
            {"num_experts_per_tok", 0}, {"vocab_size", 100352}, {"tie_word_embeddings", true},
            {"position_embedding_type", "rope"}, {"embedding_multiplier", 12}, {"logits_scaling", 10},
            {"residual_multiplier", 0.22}, {"attention_multiplier", 0.015625}, {"mamba_d_state", 256},
            {"mamba_n_heads", 128}, {"normalization_function", "rmsnorm"}};
  j["layer_types"] = json::array();
  for (int i = 0; i < 40; ++i) j["layer_types"].push_back("attention");
  const ModelConfig m = import_hf_config(j, "workload.model", "inline");
  CHECK(m.mixer_layer_count(Mixer::full_attention) == 40);
  CHECK(!m.is_moe());
  for (const auto& w : m.warnings) CHECK(!contains(w, "unknown field"));
  const double d = 2560;
  const auto c = count_parameters(m);
  CHECK(c.total == 40 * (gqa_weights(d, 40, 8, 64, 64, false, false) + 3 * d * 8192 + 2 * d) + d + 100352 * d);
  // IBM: granite-4.0-micro, 3B parameters.
  CHECK(matches_published(c.total, 3e9, 1e9));
  // A 'mamba' layer makes the mamba_* keys count: 128 heads must tile mamba_expand (2) x 2560.
  j["layer_types"][5] = "mamba";
  const ModelConfig one = import_hf_config(j, "workload.model", "inline");
  CHECK(one.mixer_layer_count(Mixer::linear_attention) == 1);
  CHECK(one.linear.mamba2());
  CHECK(one.linear.value_head_dim == 40);  // mamba_d_head absent: 2 x 2560 / 128
  CHECK(one.linear.key_head_dim == 256);
  j["mamba_d_head"] = 64;
  CHECK(error_of(j).find("workload.model.mamba_d_head: mamba_n_heads x mamba_d_head (128 x 64) must equal "
                         "mamba_expand x hidden_size (5120)") == 0);
  j["mamba_d_head"] = "auto";
  j["mamba_n_heads"] = 96;
  CHECK(error_of(j).find("workload.model.mamba_n_heads: must divide mamba_expand x hidden_size (5120)") == 0);
  j["mamba_n_heads"] = 128;
  j["mamba_n_groups"] = 3;
  CHECK(error_of(j).find("workload.model.mamba_n_groups: must divide mamba_n_heads (128)") == 0);
  // Mamba layers elsewhere are refused by index, naming the family that has them.
  json q = config_of("Qwen3-Next-80B-A3B-Instruct");
  q["layer_types"] = json::array();
  for (int i = 0; i < 48; ++i) q["layer_types"].push_back(i == 2 ? "mamba" : "full_attention");
  CHECK(contains(error_of(q), "layer_types[2]: unsupported layer type 'mamba' for model_type 'qwen3_next'"));
  CHECK(contains(error_of(q), "'mamba' is modeled for granitemoehybrid"));
  // Other Mamba2 hybrids name what of theirs is not read.
  for (const char* t : {"bamba", "nemotron_h", "falcon_h1", "zamba2", "mamba2"}) {
    INFO(t);
    const std::string e = error_of({{"model_type", t}, {"num_hidden_layers", 4}, {"hidden_size", 1024}});
    CHECK(e.find(std::string("workload.model.model_type: unsupported model_type '") + t + "': ") == 0);
    CHECK(contains(e, "Mamba2 layers are priced in IBM Granite 4.0 (granitemoehybrid)"));
  }
}

TEST_CASE("Granite 4.0 H-Tiny: 36 Mamba2 + 4 attention layers, MoE 64 top-6 with a shared MLP", "[model]") {
  const ModelConfig m = bundled("granite-4.0-h-tiny");
  for (const auto& w : m.warnings) CHECK(!contains(w, "unknown field"));
  CHECK(m.mixer_layer_count(Mixer::linear_attention) == 36);
  CHECK(m.mixer_layer_count(Mixer::full_attention) == 4);
  for (int i : {5, 15, 25, 35}) CHECK(m.layer_specs[i].mixer == Mixer::full_attention);
  // The config's keys, independently: hidden 1536, 12 heads of 128 over 4 K/V heads; Mamba2 of 48
  // heads x 64 (= 2 x 1536), state 128, one group, conv 4 with a bias, no projection bias.
  const double d = 1536, V = 100352, hd = 128, Hm = 48, Pm = 64, N = 128, G = 1, K = 4, Q = 256;
  const double inner = Hm * Pm, conv = inner + 2 * G * N;
  const double mamba = d * (2 * inner + 2 * G * N + Hm)  // in_proj: z, x, B, C, dt
                       + conv * K + conv                  // depthwise conv and its bias
                       + 3 * Hm                           // dt_bias, A_log, D
                       + inner * d;                       // out_proj
  const double attn = d * 12 * hd + 2 * d * 4 * hd + 12 * hd * d;
  const double expert = 3 * d * 512, shared = 3 * d * 1024, router = 64 * d;
  const double norms = 2 * d;
  const ParamCounts c = count_parameters(m);
  CHECK(c.linear_attention == 36 * mamba);
  CHECK(c.attention == 4 * attn);
  const double total = 36 * (mamba + inner) + 4 * attn + 40 * (64 * expert + shared + router + norms) + d + V * d;
  CHECK(c.total == total);
  CHECK(c.active == 36 * (mamba + inner) + 4 * attn + 40 * (6 * expert + shared + router + norms) + d + V * d);
  // IBM: granite-4.0-h-tiny, 7B total, 1B active.
  CHECK(matches_published(c.total, 7e9, 1e9));
  CHECK(matches_published(c.active, 1e9, 1e9));
  // Per token: decode's recurrent update (5 H P N) and prefill's chunked scan, both with the conv.
  CHECK(linear_attention_core_flops_per_token(m) == 5 * Hm * Pm * N + 2 * conv * K);
  CHECK(linear_attention_prefill_flops_per_token(m) ==
        Approx(2 * Q * (G * N + Hm * Pm) + 4 * Hm * Pm * N + 2 * Hm * Pm * N / Q + 2 * conv * K).epsilon(1e-12));
  // Decode reads and writes each head's P x N state once.
  CHECK(linear_attention_state_elements_touched_per_token(m) == 2 * Hm * Pm * N);
  // The decode state: heads x d_head x d_state plus 3 inputs of every conv channel, per layer and
  // sequence, whatever the context; the KV cache only in the 4 attention layers.
  CHECK(linear_state_elements_per_layer(m) == Hm * Pm * N + conv * (K - 1));
  CHECK(linear_state_bytes_per_sequence(m, 2.0) == 36 * (Hm * Pm * N + conv * 3) * 2);
  CHECK(kv_bytes_per_sequence(m, 10000, 2.0) == 4 * 10000.0 * 2 * 4 * hd * 2);
}

TEST_CASE("Granite 4.0 H-Small's published shape: 32B total, 9B active", "[model]") {
  // Not bundled (no complete copy of its config.json is reachable here). Its keys as partial
  // public copies give them: hidden 4096, 40 layers (36 'mamba', 4 'attention'), 32 heads over
  // 8 K/V heads, 72 experts top-10 of 768, a shared MLP of 1536, mamba_n_heads 128 (d_head
  // "auto": 2 x 4096 / 128), state 128, conv 4, a tied 100352-token embedding. Where the four
  // attention layers sit does not change the count; here they sit where H-Tiny's do.
  json j = config_of("granite-4.0-h-tiny");
  j["hidden_size"] = 4096;
  j["num_attention_heads"] = 32;
  j["num_key_value_heads"] = 8;
  j["num_local_experts"] = 72;
  j["num_experts_per_tok"] = 10;
  j["intermediate_size"] = 768;
  j["shared_intermediate_size"] = 1536;
  j["mamba_n_heads"] = 128;
  j["mamba_d_head"] = "auto";
  const ModelConfig m = import_hf_config(j, "workload.model", "granite-4.0-h-small");
  CHECK(m.linear.value_head_dim == 64);
  const double d = 4096, V = 100352, inner = 8192, conv = inner + 2 * 128;
  const double mamba = d * (2 * inner + 2 * 128 + 128) + conv * 5 + 3 * 128 + inner * d + inner;  // with its gated norm
  const double attn = d * 32 * 128 + 2 * d * 8 * 128 + 32 * 128 * d;
  const double expert = 3 * d * 768, shared = 3 * d * 1536, router = 72 * d;
  const ParamCounts c = count_parameters(m);
  CHECK(c.total == 36 * mamba + 4 * attn + 40 * (72 * expert + shared + router + 2 * d) + d + V * d);
  CHECK(c.active == 36 * mamba + 4 * attn + 40 * (10 * expert + shared + router + 2 * d) + d + V * d);
  // IBM (ibm.com/granite/docs): Granite-4.0-H-Small, 32B total / 9B activated.
  CHECK(matches_published(c.total, 32e9, 1e9));
  CHECK(matches_published(c.active, 9e9, 1e9));
}

}  // namespace unit_model_families

