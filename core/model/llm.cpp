#include "model/llm.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "embedded.h"

namespace trnsim::model {

namespace {

const std::vector<std::string>& supported_model_types() {
  static const std::vector<std::string> types = {
      "deepseek_v2", "deepseek_v3", "gpt_oss", "llama",    "mistral",
      "mixtral",     "qwen2",       "qwen2_moe", "qwen3", "qwen3_moe"};
  return types;
}

// Keys whose values cannot change the cost of running the model.
const std::set<std::string>& cost_irrelevant_keys() {
  static const std::set<std::string> keys = {
      "_name_or_path", "attention_dropout", "auto_map", "aux_loss_alpha", "bos_token_id",
      "dtype", "eos_token_id", "ep_size", "hidden_dropout", "initializer_range",
      "layer_norm_eps", "output_router_logits", "pad_token_id", "pretraining_tp",
      "rms_norm_eps", "rope_theta", "router_aux_loss_coef", "router_jitter_noise",
      "seq_aux", "tokenizer_class", "transformers_version", "use_cache", "torch_dtype",
      "num_key_value_heads_per_layer_unused"};
  return keys;
}

// Keys describing behaviour the model does not simulate; reported as warnings when set.
const std::map<std::string, std::string>& unmodeled_keys() {
  static const std::map<std::string, std::string> keys = {
      {"rope_scaling", "RoPE scaling is not modeled (no effect on cost here)"},
      {"rope_parameters", "RoPE parameters are not modeled (no effect on cost here)"},
      {"partial_rotary_factor", "partial rotary embedding is not modeled"},
      {"initial_context_length", "initial (pre-extension) context length is not modeled"},
      {"swiglu_limit", "the SwiGLU clamp is not modeled (elementwise, no effect on cost)"},
      {"norm_topk_prob", "router probability normalisation is not modeled"},
      {"scoring_func", "router scoring function is not modeled"},
      {"topk_method", "router top-k method is not modeled (routing is assumed uniform)"},
      {"n_group", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"topk_group", "group-limited routing is not modeled (routing is assumed uniform)"},
      {"routed_scaling_factor", "routed expert scaling is not modeled (a scalar multiply)"},
      {"rope_interleave", "RoPE layout is not modeled"},
      {"attn_logit_softcapping", "attention logit soft-capping is not modeled"},
      {"final_logit_softcapping", "final logit soft-capping is not modeled"}};
  return keys;
}

// Keys describing an architecture this model cannot represent.
const std::map<std::string, std::string>& unsupported_keys() {
  static const std::map<std::string, std::string> keys = {
      {"text_config", "a multimodal wrapper config; pass its text_config object instead"},
      {"vision_config", "vision towers are not modeled"},
      {"audio_config", "audio towers are not modeled"},
      {"is_encoder_decoder", "encoder-decoder models are not modeled (decoder-only only)"},
      {"cross_attention_hidden_size", "cross-attention is not modeled"},
      {"attention_chunk_size", "chunked attention is not modeled"},
      {"linear_attn_config", "linear attention is not modeled"},
      {"num_key_value_heads_per_layer", "per-layer KV head counts are not modeled"}};
  return keys;
}

const json* get(const json& j, const std::string& key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &*it;
}

int positive_int(const json& j, const std::string& key, const std::string& path, bool required,
                 int def = 0) {
  const json* v = get(j, key);
  if (!v) {
    if (required) throw InputError(field_path(path, key), "missing (required for a decoder-only transformer)");
    return def;
  }
  bool whole = v->is_number_integer() || v->is_number_unsigned() ||
               (v->is_number_float() && v->get<double>() == static_cast<double>(static_cast<long long>(v->get<double>())));
  if (!whole) throw InputError(field_path(path, key), "expected a whole number, got " + v->dump());
  long long x = v->get<long long>();
  if (x < 0 || x > (1LL << 30))
    throw InputError(field_path(path, key), "must be between 0 and 2^30, got " + std::to_string(x));
  if (required && x == 0) throw InputError(field_path(path, key), "must be positive, got 0");
  return static_cast<int>(x);
}

bool boolean_of(const json& j, const std::string& key, const std::string& path, bool def) {
  const json* v = get(j, key);
  if (!v) return def;
  if (!v->is_boolean()) throw InputError(field_path(path, key), "expected true or false, got " + v->dump());
  return v->get<bool>();
}

std::string string_of(const json& j, const std::string& key, const std::string& path) {
  const json* v = get(j, key);
  if (!v) return "";
  if (!v->is_string()) throw InputError(field_path(path, key), "expected a string, got " + v->dump());
  return v->get<std::string>();
}

bool is_empty_value(const json& v) {
  return v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_array() && v.empty()) ||
         (v.is_object() && v.empty());
}

}  // namespace

int ModelConfig::moe_layer_count() const {
  return static_cast<int>(std::count(layer_moe.begin(), layer_moe.end(), true));
}

int ModelConfig::sliding_layer_count() const {
  return static_cast<int>(std::count(layer_sliding.begin(), layer_sliding.end(), true));
}

ModelConfig import_hf_config(const json& config, const std::string& path, const std::string& name) {
  if (!config.is_object())
    throw InputError(path, std::string("expected a Hugging Face config.json object, got ") + config.type_name());
  ModelConfig m;
  m.name = name;
  std::set<std::string> used;
  auto use = [&](const std::string& k) { used.insert(k); };

  // Architecture-level refusals first: they explain more than a missing field would.
  for (const auto& [key, why] : unsupported_keys()) {
    const json* v = get(config, key);
    if (v && !is_empty_value(*v)) throw InputError(field_path(path, key), "unsupported: " + why);
    use(key);
  }

  m.model_type = string_of(config, "model_type", path);
  use("model_type");
  if (m.model_type.empty()) throw InputError(field_path(path, "model_type"), "missing (required)");
  const auto& types = supported_model_types();
  if (std::find(types.begin(), types.end(), m.model_type) == types.end()) {
    std::string list;
    for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
    std::string hint = closest_name(m.model_type, types);
    throw InputError(field_path(path, "model_type"),
                     "unsupported model_type '" + m.model_type + "'" +
                         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                         "; supported decoder-only families: " + list);
  }
  const std::string& t = m.model_type;
  const bool deepseek = t == "deepseek_v2" || t == "deepseek_v3";
  const bool qwen_moe = t == "qwen2_moe" || t == "qwen3_moe";

  if (const json* a = get(config, "architectures")) {
    if (!a->is_array()) throw InputError(field_path(path, "architectures"), "expected a list of class names");
    for (const auto& e : *a) {
      if (!e.is_string() || e.get<std::string>().find("ForCausalLM") == std::string::npos)
        m.warnings.push_back("architectures: '" + (e.is_string() ? e.get<std::string>() : e.dump()) +
                             "' is not a causal-LM class; modeled as a decoder-only transformer");
    }
  }
  use("architectures");

  m.layers = positive_int(config, "num_hidden_layers", path, true);
  m.hidden = positive_int(config, "hidden_size", path, true);
  m.heads = positive_int(config, "num_attention_heads", path, true);
  m.vocab = positive_int(config, "vocab_size", path, true);
  m.kv_heads = positive_int(config, "num_key_value_heads", path, false, m.heads);
  if (m.kv_heads == 0) throw InputError(field_path(path, "num_key_value_heads"), "must be positive, got 0");
  if (m.heads % m.kv_heads != 0)
    throw InputError(field_path(path, "num_key_value_heads"),
                     "must divide num_attention_heads (" + std::to_string(m.heads) + "), got " +
                         std::to_string(m.kv_heads));
  m.head_dim = positive_int(config, "head_dim", path, false, 0);
  if (m.head_dim == 0) {
    if (m.hidden % m.heads != 0)
      throw InputError(field_path(path, "head_dim"),
                       "missing, and hidden_size is not a multiple of num_attention_heads");
    m.head_dim = m.hidden / m.heads;
  }
  m.intermediate = positive_int(config, "intermediate_size", path, true);
  m.max_position_embeddings = positive_int(config, "max_position_embeddings", path, false, 0);
  m.tie_embeddings = boolean_of(config, "tie_word_embeddings", path, false);
  m.attention_bias = boolean_of(config, "attention_bias", path, t == "qwen2" || t == "qwen2_moe");
  m.mlp_bias = boolean_of(config, "mlp_bias", path, false);
  m.qk_norm = t == "qwen3" || t == "qwen3_moe";
  m.attention_sinks = t == "gpt_oss";
  for (const char* k : {"num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size",
                        "num_key_value_heads", "head_dim", "intermediate_size",
                        "max_position_embeddings", "tie_word_embeddings", "attention_bias", "mlp_bias"})
    use(k);

  if (const json* act = get(config, "hidden_act")) {
    std::string a = act->is_string() ? act->get<std::string>() : act->dump();
    if (a != "silu" && a != "swish" && a.rfind("gelu", 0) != 0)
      m.warnings.push_back("hidden_act: '" + a + "' priced like SiLU (elementwise, no effect on cost)");
  }
  use("hidden_act");

  // Multi-head latent attention.
  if (deepseek) {
    m.attention = AttentionKind::mla;
    m.q_lora_rank = positive_int(config, "q_lora_rank", path, false, 0);
    m.kv_lora_rank = positive_int(config, "kv_lora_rank", path, true);
    m.qk_nope_head_dim = positive_int(config, "qk_nope_head_dim", path, true);
    m.qk_rope_head_dim = positive_int(config, "qk_rope_head_dim", path, true);
    m.v_head_dim = positive_int(config, "v_head_dim", path, true);
  } else {
    for (const char* k : {"q_lora_rank", "kv_lora_rank"})
      if (get(config, k))
        throw InputError(field_path(path, k), "multi-head latent attention is only modeled for deepseek_v2/deepseek_v3");
  }
  for (const char* k : {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) use(k);

  // Sliding-window layers.
  m.layer_sliding.assign(m.layers, false);
  int window = positive_int(config, "sliding_window", path, false, 0);
  bool use_sliding = boolean_of(config, "use_sliding_window", path, t != "qwen2" && t != "qwen3" && !qwen_moe);
  int max_window_layers = positive_int(config, "max_window_layers", path, false, m.layers);
  if (const json* lt = get(config, "layer_types")) {
    std::string lp = field_path(path, "layer_types");
    if (!lt->is_array() || static_cast<int>(lt->size()) != m.layers)
      throw InputError(lp, "expected a list of " + std::to_string(m.layers) + " layer types");
    for (int i = 0; i < m.layers; ++i) {
      const json& e = (*lt)[i];
      std::string s = e.is_string() ? e.get<std::string>() : e.dump();
      if (s == "sliding_attention") {
        m.layer_sliding[i] = true;
      } else if (s != "full_attention") {
        throw InputError(index_path(lp, i), "unsupported layer type '" + s +
                                                "' (modeled: full_attention, sliding_attention)");
      }
    }
    if (window == 0 && m.sliding_layer_count() > 0)
      throw InputError(field_path(path, "sliding_window"), "missing, but layer_types has sliding_attention layers");
  } else if (window > 0 && use_sliding) {
    for (int i = 0; i < m.layers; ++i) {
      if (t == "gpt_oss") m.layer_sliding[i] = (i + 1) % 2 != 0;
      else if (t == "qwen2" || t == "qwen3" || qwen_moe) m.layer_sliding[i] = i >= max_window_layers;
      else m.layer_sliding[i] = true;
    }
  }
  m.sliding_window = m.sliding_layer_count() > 0 ? window : 0;
  for (const char* k : {"sliding_window", "use_sliding_window", "max_window_layers", "layer_types"}) use(k);

  // Mixture of experts.
  m.layer_moe.assign(m.layers, false);
  int experts = 0;
  for (const char* k : {"num_local_experts", "num_experts", "n_routed_experts"}) {
    int e = positive_int(config, k, path, false, 0);
    if (e > 0) {
      if (experts > 0 && e != experts)
        throw InputError(field_path(path, k), "disagrees with another expert-count field (" + std::to_string(experts) + ")");
      experts = e;
    }
    use(k);
  }
  int top_k = 0;
  for (const char* k : {"num_experts_per_tok", "experts_per_token"}) {
    int e = positive_int(config, k, path, false, 0);
    if (e > 0) {
      if (top_k > 0 && e != top_k)
        throw InputError(field_path(path, k), "disagrees with another top-k field (" + std::to_string(top_k) + ")");
      top_k = e;
    }
    use(k);
  }
  for (const char* k : {"moe_intermediate_size", "n_shared_experts", "shared_expert_intermediate_size",
                        "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers"})
    use(k);
  if (experts > 0) {
    if (top_k == 0) throw InputError(field_path(path, "num_experts_per_tok"), "missing for a mixture-of-experts model");
    if (top_k > experts)
      throw InputError(field_path(path, "num_experts_per_tok"),
                       "must not exceed the number of experts (" + std::to_string(experts) + ")");
    m.experts = experts;
    m.experts_per_token = top_k;
    if (t == "mixtral" || t == "gpt_oss") {
      m.moe_intermediate = m.intermediate;
      m.layer_moe.assign(m.layers, true);
      m.router_bias = t == "gpt_oss";
      m.expert_bias = t == "gpt_oss";
    } else if (deepseek) {
      m.moe_intermediate = positive_int(config, "moe_intermediate_size", path, true);
      m.shared_experts = positive_int(config, "n_shared_experts", path, false, 0);
      int first_dense = positive_int(config, "first_k_dense_replace", path, false, 0);
      int freq = positive_int(config, "moe_layer_freq", path, false, 1);
      if (freq == 0) throw InputError(field_path(path, "moe_layer_freq"), "must be positive, got 0");
      for (int i = 0; i < m.layers; ++i) m.layer_moe[i] = i >= first_dense && i % freq == 0;
      m.router_bias = string_of(config, "topk_method", path) == "noaux_tc";
    } else if (qwen_moe) {
      m.moe_intermediate = positive_int(config, "moe_intermediate_size", path, true);
      m.shared_expert_intermediate = positive_int(config, "shared_expert_intermediate_size", path, false, 0);
      int step = positive_int(config, "decoder_sparse_step", path, false, 1);
      if (step == 0) throw InputError(field_path(path, "decoder_sparse_step"), "must be positive, got 0");
      std::set<int> dense_layers;
      if (const json* mo = get(config, "mlp_only_layers")) {
        if (!mo->is_array()) throw InputError(field_path(path, "mlp_only_layers"), "expected a list of layer indices");
        for (std::size_t i = 0; i < mo->size(); ++i) {
          const json& e = (*mo)[i];
          if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= m.layers)
            throw InputError(index_path(field_path(path, "mlp_only_layers"), i),
                             "expected a layer index below " + std::to_string(m.layers));
          dense_layers.insert(e.get<int>());
        }
      }
      for (int i = 0; i < m.layers; ++i) m.layer_moe[i] = !dense_layers.count(i) && (i + 1) % step == 0;
    } else {
      throw InputError(field_path(path, "num_experts"),
                       "experts are not part of model_type '" + t + "' (use mixtral, qwen*_moe, gpt_oss or deepseek_v*)");
    }
  } else if (t == "mixtral" || t == "gpt_oss" || qwen_moe || deepseek) {
    throw InputError(field_path(path, "num_experts"), "missing: model_type '" + t + "' is a mixture-of-experts family");
  }

  // Checkpoint precision (informational: the scenario chooses the precision it runs at).
  m.checkpoint_precision = "bf16";
  if (const json* q = get(config, "quantization_config")) {
    std::string qp = field_path(path, "quantization_config");
    if (!q->is_object()) throw InputError(qp, "expected an object");
    std::string method = q->contains("quant_method") && (*q)["quant_method"].is_string()
                             ? (*q)["quant_method"].get<std::string>()
                             : "";
    if (method == "mxfp4") m.checkpoint_precision = "mxfp4 (experts), bf16 (rest)";
    else if (method == "fp8") m.checkpoint_precision = "fp8 (block-scaled)";
    else m.checkpoint_precision = method.empty() ? "quantized (unknown method)" : method;
    m.warnings.push_back("quantization_config: checkpoint stored as " + m.checkpoint_precision +
                         "; the scenario's workload.precision decides what is modeled");
  }
  use("quantization_config");

  m.mtp_layers = positive_int(config, "num_nextn_predict_layers", path, false, 0);
  if (m.mtp_layers > 0)
    m.warnings.push_back("num_nextn_predict_layers: " + std::to_string(m.mtp_layers) +
                         " multi-token-prediction module(s) not counted in parameters and not modeled "
                         "(speculative decoding is not modeled)");
  use("num_nextn_predict_layers");

  // Everything else: known-irrelevant, known-unmodeled, or unknown.
  std::vector<std::string> unmodeled_set;
  for (auto it = config.begin(); it != config.end(); ++it) {
    const std::string& key = it.key();
    if (used.count(key)) continue;
    if (cost_irrelevant_keys().count(key)) {
      m.ignored_fields.push_back(key);
      continue;
    }
    auto um = unmodeled_keys().find(key);
    if (um != unmodeled_keys().end()) {
      if (!is_empty_value(it.value())) m.warnings.push_back(key + ": " + um->second);
      else m.ignored_fields.push_back(key);
      continue;
    }
    m.warnings.push_back(key + ": unknown field, not used by the model (value " +
                         (it.value().dump().size() > 40 ? it.value().dump().substr(0, 40) + "..." : it.value().dump()) + ")");
  }
  std::sort(m.ignored_fields.begin(), m.ignored_fields.end());
  return m;
}

std::vector<std::string> bundled_model_names() {
  std::vector<std::string> names;
  const std::string prefix = "examples/models/";
  for (const auto& key : embedded_keys(prefix)) {
    std::string rest = key.substr(prefix.size());
    if (rest.size() > 5 && rest.compare(rest.size() - 5, 5, ".json") == 0 && rest.find('/') == std::string::npos)
      names.push_back(rest.substr(0, rest.size() - 5));
  }
  std::sort(names.begin(), names.end());
  return names;
}

json bundled_model_json(const std::string& name, const std::string& field) {
  const std::string key = "examples/models/" + name + ".json";
  const std::string* text = find_embedded(key);
  if (!text) {
    auto names = bundled_model_names();
    std::string hint;
    for (const auto& n : names) {  // case-insensitive exact match first
      if (n.size() == name.size() &&
          std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
        hint = n;
    }
    if (hint.empty()) hint = closest_name(name, names);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError(field, "unknown bundled model '" + name + "'" +
                                (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                "; bundled: " + list + " (or give a Hugging Face config.json object inline)");
  }
  return parse_json_text(*text, key);
}

// ---- parameter counts ------------------------------------------------------------

int qk_head_dim(const ModelConfig& m) {
  return m.attention == AttentionKind::mla ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim;
}
int v_head_dim_of(const ModelConfig& m) {
  return m.attention == AttentionKind::mla ? m.v_head_dim : m.head_dim;
}
int q_width(const ModelConfig& m) { return m.heads * qk_head_dim(m); }
int attn_out_width(const ModelConfig& m) { return m.heads * v_head_dim_of(m); }

double attention_params_per_layer(const ModelConfig& m) {
  const double d = m.hidden, h = m.heads;
  double p = 0;
  if (m.attention == AttentionKind::mla) {
    const double qk = qk_head_dim(m);
    p += m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * h * qk : d * h * qk;
    p += d * (m.kv_lora_rank + m.qk_rope_head_dim);                            // kv_a (latent + rope key)
    p += double(m.kv_lora_rank) * h * (m.qk_nope_head_dim + m.v_head_dim);     // kv_b
    p += h * m.v_head_dim * d;                                                 // o
  } else {
    const double hd = m.head_dim, kv = m.kv_heads;
    p += d * h * hd + 2 * d * kv * hd + h * hd * d;
    if (m.attention_bias) {
      p += h * hd + 2 * kv * hd;
      if (m.model_type != "qwen2" && m.model_type != "qwen2_moe") p += d;  // o_proj bias
    }
  }
  if (m.attention_sinks) p += h;
  return p;
}

double dense_mlp_params_per_layer(const ModelConfig& m) {
  double d = m.hidden, f = m.intermediate;
  return 3 * d * f + (m.mlp_bias ? 2 * f + d : 0);
}

double routed_expert_params(const ModelConfig& m) {
  double d = m.hidden, f = m.moe_intermediate;
  return 3 * d * f + (m.expert_bias ? 2 * f + d : 0);
}

double shared_expert_params_per_layer(const ModelConfig& m) {
  double d = m.hidden;
  double p = double(m.shared_experts) * 3 * d * m.moe_intermediate;
  if (m.shared_expert_intermediate > 0) p += 3 * d * m.shared_expert_intermediate + d;  // + shared gate
  return p;
}

double router_params_per_layer(const ModelConfig& m) {
  return double(m.experts) * m.hidden + (m.router_bias ? m.experts : 0);
}

static double norm_params_per_layer(const ModelConfig& m) {
  double p = 2.0 * m.hidden;
  if (m.qk_norm) p += 2.0 * m.head_dim;
  if (m.attention == AttentionKind::mla) p += m.q_lora_rank + m.kv_lora_rank;
  return p;
}

ParamCounts count_parameters(const ModelConfig& m) {
  ParamCounts c;
  const double attn = attention_params_per_layer(m);
  c.embedding = double(m.vocab) * m.hidden;
  c.lm_head = m.tie_embeddings ? 0 : double(m.vocab) * m.hidden;
  c.norms = double(m.hidden);  // final norm
  double active_layers = 0;
  for (int i = 0; i < m.layers; ++i) {
    c.attention += attn;
    c.norms += norm_params_per_layer(m);
    double layer_active = attn + norm_params_per_layer(m);
    if (m.layer_moe[i]) {
      c.routed_experts += m.experts * routed_expert_params(m);
      c.shared_experts += shared_expert_params_per_layer(m);
      c.router += router_params_per_layer(m);
      layer_active += m.experts_per_token * routed_expert_params(m) + shared_expert_params_per_layer(m) +
                      router_params_per_layer(m);
    } else {
      c.dense_mlp += dense_mlp_params_per_layer(m);
      layer_active += dense_mlp_params_per_layer(m);
    }
    active_layers += layer_active;
  }
  c.total = c.embedding + c.lm_head + c.attention + c.dense_mlp + c.routed_experts + c.shared_experts +
            c.router + c.norms;
  // Active per token: every layer's weights that multiply the token, plus the LM head (the
  // tied embedding when tied) -- the convention of OpenAI's gpt-oss model card.
  c.active = active_layers + double(m.hidden) + double(m.vocab) * m.hidden;
  return c;
}

double kv_elements_per_token_layer(const ModelConfig& m) {
  if (m.attention == AttentionKind::mla) return double(m.kv_lora_rank) + m.qk_rope_head_dim;
  return 2.0 * m.kv_heads * m.head_dim;
}

double kv_bytes_per_sequence(const ModelConfig& m, double context, double bytes_per_element) {
  double per_layer = kv_elements_per_token_layer(m) * bytes_per_element;
  double total = 0;
  for (int i = 0; i < m.layers; ++i) {
    double tokens = m.layer_sliding[i] ? std::min(context, double(m.sliding_window)) : context;
    total += tokens * per_layer;
  }
  return total;
}

}  // namespace trnsim::model
