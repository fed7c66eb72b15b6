// Key accounting for Hugging Face configs: typed reads that name the key, and the tables
// that classify every key nobody read (cost-irrelevant, unmodeled, unknown).
#include "model/hf_reader.h"

#include <cmath>
#include <cstdint>
#include <map>

namespace trnsim::model {

namespace {

// Keys whose values cannot change the cost of running the model, with the reason.
const std::map<std::string, const char*>& cost_irrelevant_keys() {
  static const std::map<std::string, const char*> keys = {
      {"_attn_implementation_autoset", "a transformers runtime flag"},
      {"attention_multiplier", "Granite's muP attention scale: a scalar multiply"},
      {"attention_value_scale", "MiMo's value scale: a scalar multiply"},
      {"audio_token_id", "token id"},
      {"boa_token_id", "token id"},
      {"boi_token_id", "token id"},
      {"embedding_multiplier", "Granite's muP embedding scale: a scalar multiply"},
      {"eoa_token_id", "token id"},
      {"eoa_token_index", "token id"},
      {"eoi_token_id", "token id"},
      {"hybrid_block_size", "MiMo layout metadata (hybrid_layer_pattern decides)"},
      {"init_method", "initialisation"},
      {"layernorm_epsilon", "numerics"},
      {"layernorm_full_attention_alpha", "MiniMax residual scaling: a scalar multiply"},
      {"layernorm_full_attention_beta", "MiniMax residual scaling: a scalar multiply"},
      {"layernorm_linear_attention_alpha", "MiniMax residual scaling: a scalar multiply"},
      {"layernorm_linear_attention_beta", "MiniMax residual scaling: a scalar multiply"},
      {"layernorm_mlp_alpha", "MiniMax residual scaling: a scalar multiply"},
      {"layernorm_mlp_beta", "MiniMax residual scaling: a scalar multiply"},
      {"logits_scaling", "Granite's muP logit scale: a scalar multiply"},
      {"normalization_function", "the norm kind (RMSNorm): same cost"},
      {"postnorm", "MiniMax norm placement: same cost"},
      {"residual_multiplier", "Granite's muP residual scale: a scalar multiply"},
      {"swa_rope_theta", "RoPE frequency of the sliding layers: no effect on cost"},
      {"_name_or_path", "metadata"},
      {"attention_dropout", "training-time dropout"},
      {"attn_scale", "Llama 4 NoPE-layer temperature scale: an elementwise multiply"},
      {"attn_temperature_tuning", "Llama 4 NoPE-layer temperature tuning: an elementwise multiply"},
      {"auto_map", "code location"},
      {"aux_loss_alpha", "training loss weight"},
      {"boi_token_index", "token id"},
      {"bos_token_id", "token id"},
      {"cache_implementation", "transformers cache layout"},
      {"dtype", "the scenario's workload.precision decides what is modeled"},
      {"eoi_token_index", "token id"},
      {"eos_token_id", "token id"},
      {"ep_size", "the scenario's workload.parallelism decides placement"},
      {"floor_scale", "Llama 4 NoPE-layer temperature floor: an elementwise multiply"},
      {"for_llm_compressor", "a conversion-tool flag"},
      {"hidden_dropout", "training-time dropout"},
      {"image_token_id", "token id"},
      {"image_token_index", "token id"},
      {"initializer_range", "initialisation"},
      {"layer_norm_eps", "numerics"},
      {"mm_tokens_per_image", "image tokens per image: the vision tower is not priced"},
      {"mup_enabled", "muP embedding/logit scaling: scalar multiplies"},
      {"num_key_value_heads_per_layer_unused", "unused"},
      {"output_router_logits", "training output"},
      {"pad_token_id", "token id"},
      {"pretraining_tp", "training-time layout"},
      {"rms_norm_eps", "numerics"},
      {"query_pre_attn_scalar", "Gemma's attention scale: a scalar multiply"},
      {"rope_local_base_freq", "RoPE frequency of the sliding layers: no effect on cost"},
      {"rope_theta", "RoPE frequency: no effect on cost"},
      {"router_aux_loss_coef", "training loss weight"},
      {"router_jitter_noise", "training-time noise"},
      {"seq_aux", "training loss"},
      {"tokenizer_class", "tokenizer"},
      {"torch_dtype", "the scenario's workload.precision decides what is modeled"},
      {"transformers_version", "metadata"},
      {"use_cache", "runtime flag"},
      {"use_grouped_mm", "kernel choice"},
      {"video_token_id", "token id"},
      {"vision_end_token_id", "token id"},
      {"vision_start_token_id", "token id"}};
  return keys;
}

// Keys describing behaviour the model does not simulate; warnings when set.
const std::map<std::string, const char*>& unmodeled_keys() {
  static const std::map<std::string, const char*> keys = {
      {"rope_scaling", "RoPE scaling is not modeled (no effect on cost here)"},
      {"rope_parameters", "RoPE parameters are not modeled (no effect on cost here)"},
      {"partial_rotary_factor", "partial rotary embedding is not modeled"},
      {"initial_context_length", "initial (pre-extension) context length is not modeled"},
      {"swiglu_limit", "the SwiGLU clamp is not modeled (elementwise, no effect on cost)"},
      {"norm_topk_prob", "router probability normalisation is not modeled"},
      {"route_norm", "router probability normalisation is not modeled"},
      {"scoring_func", "router scoring function is not modeled"},
      {"score_func", "router scoring function is not modeled"},
      {"topk_method", "router top-k method is not modeled (routing is assumed uniform)"},
      {"n_group", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"topk_group", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"num_expert_groups", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"num_limited_groups", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"routed_scaling_factor", "routed expert scaling is not modeled (a scalar multiply)"},
      {"route_scale", "routed expert scaling is not modeled (a scalar multiply)"},
      {"rope_interleave", "RoPE layout is not modeled"},
      {"attn_logit_softcapping", "attention logit soft-capping is not modeled"},
      {"final_logit_softcapping", "final logit soft-capping is not modeled"},
      {"mtp_use_dedicated_embeddings", "multi-token-prediction embeddings are not modeled"},
      {"rotary_dim", "partial rotary embedding is not modeled"}};
  return keys;
}

// Group-routing keys set to 1 select no grouping at all: nothing to warn about.
bool is_single_group(const std::string& key, const json& v) {
  static const std::set<std::string> group_keys = {"n_group", "topk_group", "num_expert_groups",
                                                   "num_limited_groups"};
  return group_keys.count(key) && v.is_number() && v.get<double>() == 1.0;
}

}  // namespace

std::string short_dump(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

bool is_empty_value(const json& v) {
  return v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_array() && v.empty()) ||
         (v.is_object() && v.empty());
}

const json* HfReader::get(const std::string& key) {
  read_.insert(key);
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

const json* HfReader::peek(const std::string& key) const {
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool HfReader::has(const std::string& key) const { return peek(key) != nullptr; }

int HfReader::whole(const std::string& key, int def) {
  const json* v = get(key);
  if (!v) return def;
  // Range-checked before any conversion: casting a float or an unsigned beyond long long
  // (1e92 layers) is undefined behaviour.
  constexpr long long kMax = 1LL << 30;
  bool integral = v->is_number_integer() || v->is_number_unsigned() ||
                  (v->is_number_float() && std::isfinite(v->get<double>()) &&
                   std::floor(v->get<double>()) == v->get<double>());
  if (!integral) throw InputError(path(key), "expected a whole number, got " + v->dump());
  bool in_range = v->is_number_unsigned()  ? v->get<std::uint64_t>() <= static_cast<std::uint64_t>(kMax)
                  : v->is_number_float() ? v->get<double>() >= 0 && v->get<double>() <= static_cast<double>(kMax)
                                         : v->get<long long>() >= 0 && v->get<long long>() <= kMax;
  if (!in_range) throw InputError(path(key), "must be between 0 and 2^30, got " + v->dump());
  return static_cast<int>(v->is_number_float() ? static_cast<long long>(v->get<double>()) : v->get<long long>());
}

int HfReader::positive(const std::string& key) {
  if (!has(key)) {
    use(key);
    throw InputError(path(key), "missing (required for a decoder-only transformer)");
  }
  int x = whole(key, 0);
  if (x == 0) throw InputError(path(key), "must be positive, got 0");
  return x;
}

bool HfReader::boolean(const std::string& key, bool def) {
  const json* v = get(key);
  if (!v) return def;
  if (!v->is_boolean()) throw InputError(path(key), "expected true or false, got " + v->dump());
  return v->get<bool>();
}

std::string HfReader::string(const std::string& key) {
  const json* v = get(key);
  if (!v) return "";
  if (!v->is_string()) throw InputError(path(key), "expected a string, got " + v->dump());
  return v->get<std::string>();
}

void HfReader::finish(ModelConfig& m) const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    const std::string& key = it.key();
    if (read_.count(key)) continue;
    if (cost_irrelevant_keys().count(key)) {
      m.ignored_fields.push_back(label_ + key);
      continue;
    }
    auto um = unmodeled_keys().find(key);
    if (um != unmodeled_keys().end()) {
      if (!is_empty_value(it.value()) && !is_single_group(key, it.value())) m.warnings.push_back(label_ + key + ": " + um->second);
      else m.ignored_fields.push_back(label_ + key);
      continue;
    }
    m.warnings.push_back(label_ + key + ": unknown field, not used by the model (value " + short_dump(it.value()) + ")");
  }
}

}  // namespace trnsim::model
