// Hugging Face config import: every bundled model's parameter counts against the totals
// its publisher states, KV-cache sizes, layer layouts, and the reporting of fields the model
// does not use (ignored, warned, or refused with the field named).
#include <catch2/catch.hpp>

#include "test_model_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_model {

using namespace trnsim;
using namespace trnsim::model;
using test_model::bundled;
using test_model::has_warning;
using test_model::matches_published;

namespace {

std::string error_of(const json& config) {
  try {
    import_hf_config(config, "workload.model", "inline");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

json llama8b() { return bundled_model_json("Llama-3.1-8B", "model"); }

}  // namespace

TEST_CASE("every bundled model is listed and imports", "[model]") {
  auto names = bundled_model_names();
  std::vector<std::string> want = {"DeepSeek-V3", "Llama-3.1-405B", "Llama-3.1-70B", "Llama-3.1-8B", "Qwen3-235B-A22B",
                                   "gpt-oss-120b"};
  for (const auto& w : want) CHECK(std::find(names.begin(), names.end(), w) != names.end());
  for (const auto& n : names) CHECK_NOTHROW(bundled(n));
}

TEST_CASE("Llama 3.1 parameter counts match Meta's totals exactly", "[model]") {
  // Published: 8.03B, 70.6B, 405.9B (HF safetensors totals 8,030,261,248 and 70,553,706,496).
  CHECK(count_parameters(bundled("Llama-3.1-8B")).total == 8030261248.0);
  CHECK(count_parameters(bundled("Llama-3.1-70B")).total == 70553706496.0);
  CHECK(count_parameters(bundled("Llama-3.1-405B")).total == 405853388800.0);
  auto m = bundled("Llama-3.1-8B");
  auto c = count_parameters(m);
  CHECK(c.active == c.total - c.embedding);  // dense: everything but the input lookup
  CHECK(m.attention == AttentionKind::gqa);
  CHECK(m.kv_heads == 8);
  CHECK(m.head_dim == 128);
  CHECK(!m.is_moe());
  CHECK(m.sliding_window == 0);
}

TEST_CASE("gpt-oss-120b: 116.8B total, 5.1B active, alternating sliding window", "[model]") {
  auto m = bundled("gpt-oss-120b");
  auto c = count_parameters(m);
  // OpenAI's model card: 116.83B total, 5.13B active (unembedding counted, embedding not).
  CHECK(c.total == Approx(116.83e9).epsilon(0.001));
  CHECK(c.active == Approx(5.13e9).epsilon(0.002));
  CHECK(m.experts == 128);
  CHECK(m.experts_per_token == 4);
  CHECK(m.moe_layer_count() == 36);
  CHECK(m.sliding_layer_count() == 18);
  CHECK(m.sliding_window == 128);
  CHECK(m.layer_sliding[0]);
  CHECK(!m.layer_sliding[1]);
  CHECK(m.attention_sinks);
  CHECK(m.checkpoint_precision.find("mxfp4") != std::string::npos);
  CHECK(has_warning(m, "rope_scaling"));
  CHECK(has_warning(m, "swiglu_limit"));
  CHECK(has_warning(m, "quantization_config"));
}

TEST_CASE("DeepSeek-V3: 671B total, ~37B active, MLA latent cache", "[model]") {
  auto m = bundled("DeepSeek-V3");
  auto c = count_parameters(m);
  // DeepSeek-V3 technical report: 671B total, 37B activated per token. Main model; the MTP
  // module is reported, not counted.
  CHECK(c.total == Approx(671.0e9).epsilon(0.002));
  CHECK(matches_published(c.active, 37e9, 1e9));
  CHECK(m.attention == AttentionKind::mla);
  CHECK(m.moe_layer_count() == 58);  // first_k_dense_replace = 3
  CHECK(!m.layer_moe[2]);
  CHECK(m.layer_moe[3]);
  CHECK(m.shared_experts == 1);
  CHECK(m.mtp_layers == 1);
  CHECK(has_warning(m, "num_nextn_predict_layers"));
  CHECK(has_warning(m, "n_group"));
  // Latent (512) + decoupled RoPE key (64) per layer, 61 layers, BF16.
  CHECK(kv_bytes_per_sequence(m, 1, 2.0) == 576.0 * 2 * 61);
}

TEST_CASE("Qwen3-235B-A22B: 235B total, ~22B active", "[model]") {
  auto m = bundled("Qwen3-235B-A22B");
  auto c = count_parameters(m);
  // Qwen3 model card: 235B total, 22B activated (Qwen counts the embedding: 22.19B).
  CHECK(c.total == Approx(235.09e9).epsilon(0.001));
  CHECK(matches_published(c.active + c.embedding, 22e9, 1e9));
  CHECK(c.active + c.embedding == Approx(22e9).epsilon(0.01));
  CHECK(m.qk_norm);
  CHECK(m.moe_layer_count() == 94);
  CHECK(m.sliding_window == 0);  // use_sliding_window false
  CHECK(m.kv_heads == 4);
}

TEST_CASE("KV cache bytes per token", "[model]") {
  CHECK(kv_bytes_per_sequence(bundled("Llama-3.1-8B"), 1, 2.0) == 131072.0);  // 128 KiB
  CHECK(kv_bytes_per_sequence(bundled("Llama-3.1-70B"), 1, 2.0) == 327680.0);
  CHECK(kv_bytes_per_sequence(bundled("Llama-3.1-405B"), 1, 1.0) == 258048.0);  // FP8
  CHECK(kv_bytes_per_sequence(bundled("Qwen3-235B-A22B"), 1, 2.0) == 192512.0);
  // gpt-oss: sliding layers stop growing at the 128-token window.
  auto g = bundled("gpt-oss-120b");
  const double per_layer_token = 2.0 * 8 * 64 * 2;
  CHECK(kv_bytes_per_sequence(g, 100, 2.0) == 36 * 100 * per_layer_token);
  CHECK(kv_bytes_per_sequence(g, 10000, 2.0) == 18 * 10000 * per_layer_token + 18 * 128 * per_layer_token);
}

TEST_CASE("fields that do not change cost are listed, unknown ones warned", "[model]") {
  auto m = bundled("Llama-3.1-8B");
  CHECK(test_model::is_ignored(m, "bos_token_id"));
  CHECK(test_model::is_ignored(m, "transformers_version"));
  CHECK(has_warning(m, "rope_scaling"));
  json c = llama8b();
  c["my_new_feature"] = 3;
  auto u = import_hf_config(c, "workload.model", "inline");
  CHECK(has_warning(u, "my_new_feature: unknown field"));
}

TEST_CASE("architectures the model cannot represent are refused, naming the field", "[model]") {
  json c = llama8b();
  c["model_type"] = "lama";
  CHECK(error_of(c).find("workload.model.model_type: unsupported model_type 'lama' (did you mean 'llama'?)") == 0);
  c = llama8b();
  c["model_type"] = "t5";
  CHECK(error_of(c).find("workload.model.model_type: unsupported") == 0);
  c = llama8b();
  c["text_config"] = {{"hidden_size", 4096}};
  CHECK(error_of(c).find("workload.model.text_config: unsupported") == 0);
  c = llama8b();
  c["is_encoder_decoder"] = true;
  CHECK(error_of(c).find("workload.model.is_encoder_decoder") == 0);
  c = llama8b();
  c.erase("hidden_size");
  CHECK(error_of(c).find("workload.model.hidden_size: missing") == 0);
  c = llama8b();
  c["num_hidden_layers"] = 0;
  CHECK(error_of(c).find("workload.model.num_hidden_layers: must be positive") == 0);
  c = llama8b();
  c["num_key_value_heads"] = 5;
  CHECK(error_of(c).find("workload.model.num_key_value_heads: must divide") == 0);
  c = bundled_model_json("gpt-oss-120b", "m");
  c["layer_types"][3] = "linear_attention";
  CHECK(error_of(c).find("workload.model.layer_types[3]: unsupported layer type 'linear_attention'") == 0);
  c = bundled_model_json("gpt-oss-120b", "m");
  c["num_experts_per_tok"] = 200;
  c["experts_per_token"] = 200;
  CHECK(error_of(c).find("workload.model.num_experts_per_tok: must not exceed") == 0);
  CHECK(error_of(json::array()).find("workload.model: expected a Hugging Face config.json object") == 0);
}

TEST_CASE("Mixtral, Mistral sliding window and Qwen2 window layers import", "[model]") {
  json mixtral = {{"architectures", {"MixtralForCausalLM"}}, {"model_type", "mixtral"}, {"hidden_size", 4096},
                  {"intermediate_size", 14336}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                  {"num_key_value_heads", 8}, {"vocab_size", 32000}, {"num_local_experts", 8},
                  {"num_experts_per_tok", 2}, {"sliding_window", nullptr}, {"rope_theta", 1e6}};
  auto m = import_hf_config(mixtral, "workload.model", "inline");
  auto c = count_parameters(m);
  CHECK(c.total == Approx(46.70e9).epsilon(0.002));   // Mixtral 8x7B: 46.7B
  CHECK(c.active == Approx(12.75e9).epsilon(0.002));  // 12.9B published, which counts the input embedding
  json mistral = mixtral;
  mistral["model_type"] = "mistral";
  mistral.erase("num_local_experts");
  mistral.erase("num_experts_per_tok");
  mistral["sliding_window"] = 4096;
  auto s = import_hf_config(mistral, "workload.model", "inline");
  CHECK(s.sliding_layer_count() == 32);
  json qwen = mistral;
  qwen["model_type"] = "qwen2";
  qwen["use_sliding_window"] = true;
  qwen["max_window_layers"] = 28;
  auto q = import_hf_config(qwen, "workload.model", "inline");
  CHECK(q.sliding_layer_count() == 4);
  CHECK(q.layer_sliding[28]);
  CHECK(!q.layer_sliding[27]);
}

TEST_CASE("unknown bundled names get the closest one", "[model]") {
  try {
    bundled_model_json("llama-3.1-8b", "workload.model");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("did you mean 'Llama-3.1-8B'?") != std::string::npos);
  }
}

}  // namespace unit_model
