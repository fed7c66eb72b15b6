// import_hf_config: a Hugging Face config.json (or a multimodal wrapper around one) becomes a
// ModelConfig, every key accounted for. The family-specific layouts live in layout.cpp, the
// key classification in hf_reader.cpp.
#include <algorithm>
#include <cstdio>
#include <map>

#include "common/limits.h"
#include "common/format.h"
#include "model/family.h"

namespace trnsim::model {

namespace {

// Keys describing an architecture this model cannot represent.
const std::map<std::string, std::string>& unsupported_keys() {
  static const std::map<std::string, std::string> keys = {
      {"is_encoder_decoder", "encoder-decoder models are not modeled (decoder-only only)"},
      {"cross_attention_hidden_size", "cross-attention is not modeled"},
      {"cross_attention_layers", "cross-attention layers are not modeled"},
      {"linear_attn_config", "this linear-attention layout is not modeled (Gated DeltaNet layers are, as qwen3_next and qwen3_5 spell them)"},
      {"sparse_attention_config", "sparse (indexed top-k) attention is not modeled"},
      {"num_key_value_heads_per_layer", "a free per-layer list of KV head counts is not modeled (KV heads and head dims by layer type are, as gemma4_text and mimo_v2_flash spell them)"}};
  return keys;
}

// Multimodal wrappers: their language model is text_config, of the given model_type.
const std::map<std::string, std::string>& wrapper_text_types() {
  static const std::map<std::string, std::string> types = {
      {"gemma3", "gemma3_text"}, {"gemma4", "gemma4_text"}, {"llama4", "llama4_text"}, {"qwen3_5", "qwen3_5_text"}, {"qwen3_5_moe", "qwen3_5_moe_text"}};
  return types;
}

// Towers of a wrapper that are not priced.
const std::vector<std::string>& tower_keys() {
  static const std::vector<std::string> keys = {"vision_config", "audio_config"};
  return keys;
}

// The supported type closest to `word`: by edit distance, else the longest shared prefix.
std::string closest_type(const std::string& word, const std::vector<std::string>& types) {
  std::string hint = closest_name(word, types);
  if (!hint.empty()) return hint;
  std::size_t best = 3;  // at least 4 shared leading characters
  for (const auto& t : types) {
    std::size_t n = 0;
    while (n < t.size() && n < word.size() && t[n] == word[n]) ++n;
    if (n > best) best = n, hint = t;
  }
  return hint;
}

[[noreturn]] void unsupported_type(const HfReader& r, const std::string& type) {
  if (type.rfind("minimax_m3", 0) == 0)
    throw InputError(r.path("model_type"), "unsupported model_type '" + type +
                                               "': MiniMax-M3's sparse (indexed top-k) attention is not modeled "
                                               "(MiniMax-M2's full attention is, as minimax_m2)");
  // Other Mamba2 hybrids: their layer layouts are not read (Granite 4.0's is).
  static const std::vector<std::pair<std::string, std::string>> mamba2_hybrids = {
      {"bamba", "Bamba's layout (attn_layer_indices, a dense MLP after every mixer)"},
      {"nemotron_h", "Nemotron-H's layout (hybrid_override_pattern: Mamba2, attention and MLP-only layers)"},
      {"falcon_h1", "Falcon-H1's layers (attention and Mamba2 side by side in every layer)"},
      {"zamba2", "Zamba2's layers (Mamba2 with shared attention blocks)"},
      {"mamba2", "a pure Mamba2 model (its own keys)"}};
  for (const auto& [t, what] : mamba2_hybrids)
    if (type == t)
      throw InputError(r.path("model_type"), "unsupported model_type '" + type + "': " + what +
                                                 " is not modeled; Mamba2 layers are priced in IBM Granite 4.0 "
                                                 "(granitemoehybrid)");
  std::vector<std::string> all = supported_model_types();
  for (const auto& w : supported_wrapper_types()) all.push_back(w);
  std::string hint = closest_type(type, all);
  throw InputError(r.path("model_type"), "unsupported model_type '" + type + "'" +
                                             (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                             "; supported decoder-only families: " + fmt::join(supported_model_types()) +
                                             "; multimodal wrappers (their text_config is priced): " +
                                             fmt::join(supported_wrapper_types()));
}

void refuse_unsupported(HfReader& r) {
  for (const auto& [key, why] : unsupported_keys()) {
    const json* v = r.get(key);
    if (v && !is_empty_value(*v)) throw InputError(r.path(key), "unsupported: " + why);
  }
}

void read_architectures(HfReader& r, ModelConfig& m, const char* expected) {
  if (const json* a = r.get("architectures")) {
    if (!a->is_array()) throw InputError(r.path("architectures"), "expected a list of class names");
    for (const auto& e : *a) {
      if (!e.is_string() || e.get<std::string>().find(expected) == std::string::npos)
        m.warnings.push_back(r.label("architectures") + ": '" + (e.is_string() ? e.get<std::string>() : e.dump()) +
                             "' is not a " + (std::string(expected) == "ForCausalLM" ? "causal-LM" : expected) +
                             " class; modeled as a decoder-only transformer");
    }
  }
}

void read_dimensions(HfReader& r, ModelConfig& m) {
  m.layers = r.positive("num_hidden_layers");
  if (m.layers > limits::kMaxModelLayers)
    throw InputError(r.path("num_hidden_layers"), "at most " + std::to_string(limits::kMaxModelLayers) +
                                                      " layers (the model's limit), got " + std::to_string(m.layers));
  m.hidden = r.positive("hidden_size");
  m.heads = r.positive("num_attention_heads");
  m.vocab = r.positive("vocab_size");
  m.kv_heads = r.whole("num_key_value_heads", m.heads);
  if (m.kv_heads == 0) throw InputError(r.path("num_key_value_heads"), "must be positive, got 0");
  if (m.heads % m.kv_heads != 0)
    throw InputError(r.path("num_key_value_heads"), "must divide num_attention_heads (" + std::to_string(m.heads) +
                                                        "), got " + std::to_string(m.kv_heads));
  m.head_dim = r.whole("head_dim", 0);
  // Without head_dim, hidden / heads; MLA's head widths come from its own keys (read_attention).
  if (m.head_dim == 0 && m.hidden % m.heads == 0) m.head_dim = m.hidden / m.heads;
  m.max_position_embeddings = r.whole("max_position_embeddings", 0);
  m.layer_specs.assign(m.layers, LayerSpec{});
}

void read_attention(HfReader& r, const Family& f, ModelConfig& m) {
  m.tie_embeddings = r.boolean("tie_word_embeddings", f.tie_default);
  m.attention_bias = r.boolean("attention_bias", f.qkv_bias_default);
  m.attention_output_bias = m.attention_bias && f.output_bias;
  m.mlp_bias = r.boolean("mlp_bias", false);
  m.qk_norm = f.qk_norm == QkNorm::always ||
              (f.qk_norm == QkNorm::from_use_qk_norm && r.boolean("use_qk_norm", false));
  if (f.type == "minimax" || f.type == "minimax_m2") {
    // MiniMax normalises q and k over all heads at once ("per_layer"); "per_head" is the usual one.
    const std::string t = r.string("qk_norm_type");
    if (!t.empty() && t != "per_layer" && t != "per_head")
      throw InputError(r.path("qk_norm_type"), "expected 'per_layer' or 'per_head', got '" + t + "'");
    m.qk_norm_full_width = m.qk_norm && t != "per_head";
  }
  if (f.type == "llama4_text") r.use("use_qk_norm");  // an L2 norm without weights: elementwise, not priced
  m.attention_output_gate = f.type == "qwen3_5_text" || f.type == "qwen3_5_moe_text"
                                ? r.boolean("attn_output_gate", true)
                                : f.output_gate;
  m.attention_sinks = f.sinks;
  if (f.mla) {
    m.attention = AttentionKind::mla;
    m.q_lora_rank = r.whole("q_lora_rank", 0);
    m.kv_lora_rank = r.positive("kv_lora_rank");
    m.qk_nope_head_dim = r.positive("qk_nope_head_dim");
    m.qk_rope_head_dim = r.positive("qk_rope_head_dim");
    m.v_head_dim = r.positive("v_head_dim");
    if (m.head_dim == 0) m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;  // GLM-4.7-Flash: 2048 / 20 heads
    return;
  }
  for (const char* k : {"q_lora_rank", "kv_lora_rank"})
    if (r.has(k)) throw InputError(r.path(k), "multi-head latent attention is only modeled for deepseek_v2, deepseek_v3, glm4_moe_lite and kimi_k2");
  if (m.head_dim == 0)
    throw InputError(r.path("head_dim"), "missing, and hidden_size is not a multiple of num_attention_heads");
  for (const char* k : {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim"}) r.use(k);
  // A value head dim unlike the query/key one (MiMo-V2-Flash: 192 for Q and K, 128 for V).
  m.v_head_dim = r.whole("v_head_dim", 0);
  if (m.v_head_dim == m.head_dim) m.v_head_dim = 0;
}

void read_activation(HfReader& r, ModelConfig& m) {
  for (const char* key : {"hidden_act", "hidden_activation"}) {  // Gemma spells it hidden_activation
    const json* act = r.get(key);
    if (!act) continue;
    std::string a = act->is_string() ? act->get<std::string>() : act->dump();
    if (a != "silu" && a != "swish" && a.rfind("gelu", 0) != 0)
      m.warnings.push_back(r.label(key) + ": '" + a + "' priced like SiLU (elementwise, no effect on cost)");
  }
}

// Checkpoint precision (informational: the scenario chooses the precision it runs at).
void read_quantization(HfReader& r, ModelConfig& m) {
  const json* q = r.get("quantization_config");
  if (!q) return;
  if (!q->is_object()) throw InputError(r.path("quantization_config"), "expected an object");
  std::string method = q->contains("quant_method") && (*q)["quant_method"].is_string()
                           ? (*q)["quant_method"].get<std::string>()
                           : "";
  if (method == "mxfp4") m.checkpoint_precision = "mxfp4 (experts), bf16 (rest)";
  else if (method == "fp8") m.checkpoint_precision = "fp8 (block-scaled)";
  else m.checkpoint_precision = method.empty() ? "quantized (unknown method)" : method;
  m.warnings.push_back(r.label("quantization_config") + ": checkpoint stored as " + m.checkpoint_precision +
                       "; the scenario's workload.precision decides what is modeled");
}

void read_mtp(HfReader& r, ModelConfig& m) {
  const bool use_mtp = r.boolean("use_mtp", true);  // MiniMax: its MTP modules on or off
  r.use("mtp_transformer_layers");                  // layers per MiniMax MTP module (the modules are not counted)
  for (const char* key : {"num_nextn_predict_layers", "mtp_num_hidden_layers", "num_mtp_modules"}) {
    int n = r.whole(key, 0);
    if (std::string(key) == "num_mtp_modules" && !use_mtp) continue;
    if (n == 0) continue;
    m.mtp_layers = n;
    m.warnings.push_back(r.label(key) + ": " + std::to_string(n) +
                         " multi-token-prediction module(s) not counted in parameters and not modeled "
                         "(speculative decoding is not modeled)");
  }
}

ModelConfig import_language_model(HfReader& r, const Family& f, const std::string& name, bool top_level) {
  ModelConfig m;
  m.name = name;
  m.model_type = f.type;
  m.checkpoint_precision = "bf16";
  if (top_level) read_architectures(r, m, "ForCausalLM");
  else r.use("architectures");
  read_dimensions(r, m);
  read_attention(r, f, m);
  m.norms_per_layer = f.norms_per_layer;
  read_activation(r, m);
  read_mixers(r, f, m);
  read_layer_attention(r, f, m);
  read_mlp(r, f, m);
  for (int i = 0; i < m.layers; ++i) {
    m.layer_sliding.push_back(m.layer_specs[i].mixer == Mixer::sliding_attention);
    m.layer_moe.push_back(m.layer_specs[i].mlp == MlpKind::moe);
  }
  read_quantization(r, m);
  read_mtp(r, m);
  r.finish(m);
  return m;
}

const Family& family_or_throw(HfReader& r, const std::string& type) {
  const Family* f = find_family(type);
  if (!f) unsupported_type(r, type);
  return *f;
}

// Parameters of a Llama 4 vision encoder (transformers Llama4VisionModel + the multimodal
// projector): patch embedding, class and position embeddings, pre/post LayerNorms, ViT
// layers (biased q/k/v/o and MLP, two LayerNorms), the pixel-shuffle adapter MLP and the
// projector to the language model's width. 0 for towers this does not know.
double tower_params(const json& t, int text_hidden) {
  auto i = [&](const char* k) { return t.contains(k) && t[k].is_number() ? t[k].get<double>() : 0.0; };
  if (!t.contains("model_type") || t["model_type"] != "llama4_vision_model") return 0;
  const double h = i("hidden_size"), f = i("intermediate_size"), patch = i("patch_size");
  const double grid = patch > 0 ? i("image_size") / patch : 0;
  double p = i("num_channels") * patch * patch * h + h + (grid * grid + 1) * h + 4 * h;
  p += i("num_hidden_layers") * (4 * (h * h + h) + (h * f + f) + (f * h + h) + 4 * h);
  p += f * i("projector_input_dim") + i("projector_input_dim") * i("projector_output_dim");
  p += i("vision_output_dim") * text_hidden +
       (t.contains("multi_modal_projector_bias") && t["multi_modal_projector_bias"] == true ? text_hidden : 0);
  return p;
}

// A count as whole digits, for any double (a cast to an integer type is undefined beyond it).
std::string whole_number_text(double v) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string tower_summary(const json& tower) {
  std::string s;
  if (tower.contains("model_type") && tower["model_type"].is_string()) s = tower["model_type"].get<std::string>();
  for (const char* k : {"num_hidden_layers", "depth"})
    if (tower.contains(k) && tower[k].is_number_integer())
      s += (s.empty() ? "" : ", ") + std::to_string(tower[k].get<int>()) + " layers";
  if (tower.contains("hidden_size") && tower["hidden_size"].is_number_integer())
    s += (s.empty() ? "" : ", ") + std::string("hidden ") + std::to_string(tower["hidden_size"].get<int>());
  return s.empty() ? "" : " (" + s + ")";
}

// A multimodal wrapper: its text_config is the language model; its towers are named in
// warnings; its own keys are token ids, metadata and the LM head tie.
ModelConfig import_wrapper(HfReader& top, const std::string& type, const std::string& name) {
  const std::string& text_type = wrapper_text_types().at(type);
  const json* tc = top.get("text_config");
  if (!tc || !tc->is_object())
    throw InputError(top.path("text_config"), "missing: a '" + type + "' config carries its language model in text_config");
  HfReader text(*tc, top.path("text_config"), "text_config.");
  const std::string declared = text.string("model_type");
  if (!declared.empty() && declared != text_type)
    throw InputError(text.path("model_type"), "expected '" + text_type + "' inside a '" + type + "' config, got '" +
                                                  declared + "'");
  refuse_unsupported(text);
  ModelConfig m = import_language_model(text, family_or_throw(text, text_type), name, false);
  m.wrapper_model_type = type;
  read_architectures(top, m, "ForConditionalGeneration");
  m.tie_embeddings = top.boolean("tie_word_embeddings", m.tie_embeddings);
  for (const auto& key : tower_keys()) {
    const json* t = top.get(key);
    if (!t || is_empty_value(*t)) continue;
    m.unpriced_towers.push_back(key);
    const double params = tower_params(*t, m.hidden);
    m.unpriced_tower_params += params;
    m.warnings.push_back(key + ": the " + key.substr(0, key.find('_')) + " encoder" + tower_summary(*t) + " is not priced" +
                         (params > 0 ? " (its " + whole_number_text(params) +
                                           " parameters are reported apart from the language model's)"
                                     : " and its parameters are not counted") +
                         "; only the language model (text_config) is");
  }
  read_quantization(top, m);
  top.finish(m);
  return m;
}

ModelConfig import_any(HfReader& r, const std::string& name) {
  // Architecture-level refusals first: they explain more than a missing field would.
  refuse_unsupported(r);
  const std::string type = r.string("model_type");
  if (type.empty()) throw InputError(r.path("model_type"), "missing (required)");
  if (wrapper_text_types().count(type)) return import_wrapper(r, type, name);
  const Family& f = family_or_throw(r, type);
  for (const auto& key : tower_keys())
    if (const json* v = r.get(key); v && !is_empty_value(*v))
      throw InputError(r.path(key), "unsupported: a tower outside a multimodal wrapper (" + fmt::join(supported_wrapper_types()) +
                                        ") is not modeled");
  if (const json* v = r.get("text_config"); v && !is_empty_value(*v))
    throw InputError(r.path("text_config"), "unsupported: model_type '" + type + "' is not a multimodal wrapper (" +
                                                fmt::join(supported_wrapper_types()) + "); pass its text_config object instead");
  return import_language_model(r, f, name, true);
}

}  // namespace

const char* mixer_name(Mixer mixer) {
  switch (mixer) {
    case Mixer::full_attention: return "full_attention";
    case Mixer::sliding_attention: return "sliding_attention";
    case Mixer::chunked_attention: return "chunked_attention";
    case Mixer::linear_attention: return "linear_attention";
  }
  return "full_attention";
}

const std::vector<std::string>& supported_wrapper_types() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> v;
    for (const auto& [w, text] : wrapper_text_types()) v.push_back(w);
    return v;
  }();
  return types;
}

int ModelConfig::moe_layer_count() const {
  return static_cast<int>(std::count(layer_moe.begin(), layer_moe.end(), true));
}

int ModelConfig::sliding_layer_count() const {
  return static_cast<int>(std::count(layer_sliding.begin(), layer_sliding.end(), true));
}

int ModelConfig::mixer_layer_count(Mixer mixer) const {
  return static_cast<int>(
      std::count_if(layer_specs.begin(), layer_specs.end(), [&](const LayerSpec& l) { return l.mixer == mixer; }));
}

int ModelConfig::nope_layer_count() const {
  return static_cast<int>(std::count_if(layer_specs.begin(), layer_specs.end(), [](const LayerSpec& l) { return !l.rope; }));
}

ModelConfig import_hf_config(const json& config, const std::string& path, const std::string& name) {
  if (!config.is_object())
    throw InputError(path, std::string("expected a Hugging Face config.json object, got ") + config.type_name());
  HfReader r(config, path);
  ModelConfig m = import_any(r, name);
  std::sort(m.ignored_fields.begin(), m.ignored_fields.end());
  return m;
}

}  // namespace trnsim::model
