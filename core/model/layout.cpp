// Per-family layer layouts: which token mixer, RoPE or NoPE and which MLP each layer has,
// read the way each family's transformers configuration class derives them.
// Sources (transformers): LlamaConfig, MistralConfig, MixtralConfig, Qwen2/Qwen3(-MoE)Config
// (use_sliding_window, max_window_layers, decoder_sparse_step, mlp_only_layers),
// GptOssConfig (layer_types), DeepseekV3Config (first_k_dense_replace, moe_layer_freq; GLM-4.7-Flash's
// glm4_moe_lite takes the same keys: MLA with GLM's routed and shared experts),
// Llama4TextConfig (no_rope_layers / no_rope_layer_interval: 1 = RoPE applied; chunked
// attention on RoPE layers only; moe_layers = range(step - 1, layers, step)),
// Qwen3NextConfig / Qwen3_5TextConfig (layer_types, default linear_attention except every
// full_attention_interval-th layer), Glm4MoeConfig (first_k_dense_replace), AfmoeConfig
// (sliding except every global_attn_every_n_layers-th layer, RoPE on sliding layers only,
// num_dense_layers leading dense layers), Gemma3TextConfig (sliding except every
// sliding_window_pattern-th layer), Gemma4TextConfig (the same default pattern; global layers of
// global_head_dim with, under attention_k_eq_v, num_global_key_value_heads K = V heads;
// enable_moe_block: routed experts beside the dense MLP, top_k_experts), MiMoV2FlashConfig
// (hybrid_layer_pattern 1 = sliding; swa_* shapes of the sliding layers; sink biases by layer
// type; moe_layer_freq a list, 1 = MoE), GraniteMoeHybridConfig (layer_types 'attention' /
// 'mamba', all Mamba2 without it -- layers_block_type; the mamba_* defaults and the check that
// mamba_n_heads x mamba_d_head = mamba_expand x hidden_size).
#include <algorithm>
#include <map>
#include <set>

#include "common/format.h"
#include "model/family.h"

namespace trnsim::model {

namespace {

const std::vector<std::string> kFullSliding = {"full_attention", "sliding_attention"};

Family family(const std::string& type) {
  Family f;
  f.type = type;
  f.layer_types = kFullSliding;
  return f;
}

Family moe_family(const std::string& type, const char* expert_key) {
  Family f = family(type);
  f.experts = ExpertUse::required;
  f.expert_key = expert_key;
  return f;
}

std::vector<Family> make_families() {
  std::vector<Family> t;
  // kimi_k2: Moonshot's Kimi K2 keeps DeepseekV3ForCausalLM and its config keys; only the
  // model_type differs, so engines can tell it apart (Moonshot's deployment guide).
  for (const char* type : {"deepseek_v2", "deepseek_v3", "glm4_moe_lite", "kimi_k2"}) {
    Family f = moe_family(type, "n_routed_experts");
    f.mla = true;
    t.push_back(f);
  }
  {
    Family f = moe_family("glm4_moe", "n_routed_experts");
    f.output_bias = false;
    f.qk_norm = QkNorm::from_use_qk_norm;
    f.layer_types = {"full_attention"};
    t.push_back(f);
  }
  {
    Family f = moe_family("gpt_oss", "num_local_experts");
    f.sinks = true;
    t.push_back(f);
  }
  {
    Family f = family("gemma3_text");
    f.qk_norm = QkNorm::always;
    f.norms_per_layer = 4;  // input, post-attention, pre- and post-feedforward RMSNorms
    f.tie_default = true;
    t.push_back(f);
  }
  t.push_back(family("llama"));
  {
    Family f = moe_family("llama4_text", "num_local_experts");
    f.layer_types = {"full_attention", "chunked_attention"};
    t.push_back(f);
  }
  t.push_back(family("mistral"));
  t.push_back(moe_family("mixtral", "num_local_experts"));
  {
    Family f = family("qwen2");
    f.qkv_bias_default = true;
    f.output_bias = false;
    t.push_back(f);
  }
  {
    Family f = moe_family("qwen2_moe", "num_experts");
    f.qkv_bias_default = true;
    f.output_bias = false;
    t.push_back(f);
  }
  {
    Family f = family("qwen3");
    f.qk_norm = QkNorm::always;
    t.push_back(f);
  }
  for (const char* type : {"qwen3_5_moe_text", "qwen3_5_text", "qwen3_moe", "qwen3_next"}) {
    Family f = std::string(type) == "qwen3_5_text" ? family(type) : moe_family(type, "num_experts");
    f.qk_norm = QkNorm::always;
    if (std::string(type) != "qwen3_moe") {
      f.output_gate = true;
      f.layer_types = {"full_attention", "linear_attention"};
    }
    t.push_back(f);
  }
  {
    Family f = family("gemma4_text");
    f.qk_norm = QkNorm::always;  // q_norm and k_norm with weights (v_norm has none)
    f.norms_per_layer = 4;
    f.tie_default = true;
    t.push_back(f);
  }
  {
    Family f = moe_family("mimo_v2_flash", "n_routed_experts");
    t.push_back(f);
  }
  // MiniMax-Text-01 / M1 (minimax: lightning-attention layers are refused by attn_type_list) and
  // MiniMax-M2 (minimax_m2: full attention everywhere, q/k RMSNorm over all heads).
  for (const char* type : {"minimax", "minimax_m2"}) {
    Family f = moe_family(type, "num_local_experts");
    f.qk_norm = QkNorm::from_use_qk_norm;
    f.output_bias = false;
    t.push_back(f);
  }
  {
    // Solar Open: Llama attention, GLM-4.5's MoE (routed + shared experts, selection bias) in
    // every layer.
    Family f = moe_family("solar_open", "n_routed_experts");
    f.output_bias = false;
    f.layer_types = {"full_attention"};
    t.push_back(f);
  }
  {
    // Granite 4.0 (GraniteMoeHybrid): attention and Mamba2 layers (layer_types 'attention' /
    // 'mamba', the mamba_* keys); a shared MLP (shared_intermediate_size) in every layer,
    // routed experts when num_local_experts > 0.
    Family f = family("granitemoehybrid");
    f.layer_types = {"attention", "mamba"};
    t.push_back(f);
  }
  {
    Family f = moe_family("afmoe", "num_experts");
    f.output_bias = false;
    f.qk_norm = QkNorm::always;
    f.output_gate = true;
    f.norms_per_layer = 4;  // input, post-attention, pre-MLP and post-MLP RMSNorms
    t.push_back(f);
  }
  std::sort(t.begin(), t.end(), [](const Family& a, const Family& b) { return a.type < b.type; });
  return t;
}

bool allows(const Family& f, const std::string& layer_type) {
  return std::find(f.layer_types.begin(), f.layer_types.end(), layer_type) != f.layer_types.end();
}

// The families that may use a layer type, for error messages.
std::string families_with(const std::string& layer_type) {
  std::vector<std::string> types;
  for (const auto& t : supported_model_types()) {
    const Family* f = find_family(t);
    if (f && allows(*f, layer_type)) types.push_back(t);
  }
  return fmt::join(types);
}

Mixer mixer_of(const std::string& s) {
  if (s == "sliding_attention") return Mixer::sliding_attention;
  if (s == "attention") return Mixer::full_attention;  // Granite's spelling
  if (s == "chunked_attention") return Mixer::chunked_attention;
  if (s == "linear_attention" || s == "mamba") return Mixer::linear_attention;  // Gated DeltaNet; Granite's Mamba2
  return Mixer::full_attention;
}

void parse_layer_types(HfReader& r, const Family& f, ModelConfig& m) {
  const json* lt = r.get("layer_types");
  const std::string lp = r.path("layer_types");
  if (!lt->is_array() || static_cast<int>(lt->size()) != m.layers)
    throw InputError(lp, "expected a list of " + std::to_string(m.layers) + " layer types");
  for (int i = 0; i < m.layers; ++i) {
    const json& e = (*lt)[i];
    const std::string s = e.is_string() ? e.get<std::string>() : e.dump();
    if (!allows(f, s)) {
      std::string elsewhere = families_with(s);
      throw InputError(index_path(lp, i), "unsupported layer type '" + s + "' for model_type '" + f.type +
                                              "' (modeled: " + fmt::join(f.layer_types) + ")" +
                                              (elsewhere.empty() ? "" : "; '" + s + "' is modeled for " + elsewhere));
    }
    m.layer_specs[i].mixer = mixer_of(s);
  }
}

// Every `interval`-th layer (1-based) is `every`, the others `other` (transformers'
// "(i + 1) % interval" convention).
void interleave(ModelConfig& m, int interval, Mixer every, Mixer other) {
  for (int i = 0; i < m.layers; ++i) m.layer_specs[i].mixer = (i + 1) % interval == 0 ? every : other;
}

int interval_key(HfReader& r, const std::string& key, int def) {
  int n = r.whole(key, def);
  if (n == 0) throw InputError(r.path(key), "must be positive, got 0");
  return n;
}

// The file's layer_types when it has them, else every `interval`-th layer `every` and the
// others `other`. Returns the key that decided.
std::string layer_types_or_interleave(HfReader& r, const Family& f, ModelConfig& m, int interval,
                                      const std::string& interval_name, Mixer every, Mixer other) {
  if (r.has("layer_types")) {
    parse_layer_types(r, f, m);
    return "layer_types";
  }
  r.use("layer_types");
  interleave(m, interval, every, other);
  return interval_name;
}

// Keys that only some families read: present elsewhere they describe an architecture the
// family cannot have, so they are refused by name.
void refuse_foreign_keys(HfReader& r, const Family& f) {
  if (!allows(f, "chunked_attention") && f.type != "mimo_v2_flash" && r.has("attention_chunk_size"))
    throw InputError(r.path("attention_chunk_size"), "chunked attention is modeled for " +
                                                         families_with("chunked_attention") +
                                                         " (its RoPE layers), not for model_type '" + f.type + "'");
  if (!allows(f, "linear_attention"))
    for (const char* k : {"linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                          "linear_value_head_dim", "linear_conv_kernel_dim"})
      if (r.has(k))
        throw InputError(r.path(k), "Gated DeltaNet linear attention is modeled for " + families_with("linear_attention") +
                                        ", not for model_type '" + f.type + "'");
}

// gpt-oss, Mistral/Mixtral/Llama and Qwen2/Qwen3(-MoE) sliding windows.
std::string classic_sliding(HfReader& r, const Family& f, ModelConfig& m, int window) {
  const bool qwen = f.type == "qwen2" || f.type == "qwen3" || f.type == "qwen2_moe" || f.type == "qwen3_moe";
  bool use_sliding = r.boolean("use_sliding_window", !qwen);
  int max_window_layers = r.whole("max_window_layers", m.layers);
  if (r.has("layer_types")) {
    parse_layer_types(r, f, m);
    return "layer_types";
  }
  r.use("layer_types");
  if (window > 0 && use_sliding) {
    for (int i = 0; i < m.layers; ++i) {
      bool sliding = f.type == "gpt_oss" ? (i + 1) % 2 != 0 : qwen ? i >= max_window_layers : true;
      if (sliding) m.layer_specs[i].mixer = Mixer::sliding_attention;
    }
  }
  return "sliding_window";
}

// Llama 4: NoPE every no_rope_layer_interval-th layer (or as no_rope_layers lists, 1 = RoPE);
// RoPE layers attend within attention_chunk_size chunks, NoPE layers over the whole context.
std::string llama4_mixers(HfReader& r, ModelConfig& m, const Family& f) {
  const int chunk = r.whole("attention_chunk_size", 0);
  const int interval = interval_key(r, "no_rope_layer_interval", 4);
  const json* nr = r.get("no_rope_layers");
  std::string key = "no_rope_layer_interval";
  if (nr && !(nr->is_array() && nr->empty())) {
    const std::string p = r.path("no_rope_layers");
    if (!nr->is_array() || static_cast<int>(nr->size()) != m.layers)
      throw InputError(p, "expected a list of " + std::to_string(m.layers) + " flags (1 = RoPE, 0 = NoPE)");
    for (int i = 0; i < m.layers; ++i) {
      const json& e = (*nr)[i];
      if (!e.is_number_integer() || (e.get<int>() != 0 && e.get<int>() != 1))
        throw InputError(index_path(p, i), "expected 1 (RoPE) or 0 (NoPE), got " + e.dump());
      m.layer_specs[i].rope = e.get<int>() == 1;
    }
    key = "no_rope_layers";
  } else {
    for (int i = 0; i < m.layers; ++i) m.layer_specs[i].rope = (i + 1) % interval != 0;
  }
  if (r.has("layer_types")) {
    parse_layer_types(r, f, m);
    key = "layer_types";
  } else {
    r.use("layer_types");
    for (auto& l : m.layer_specs) l.mixer = l.rope && chunk > 0 ? Mixer::chunked_attention : Mixer::full_attention;
  }
  m.attention_chunk = chunk;
  return chunk > 0 ? "attention_chunk_size" : key;
}

// Qwen3-Next / Qwen3.5: Gated DeltaNet except every full_attention_interval-th layer.
std::string hybrid_linear_mixers(HfReader& r, const Family& f, ModelConfig& m) {
  if (r.boolean("use_sliding_window", false))
    throw InputError(r.path("use_sliding_window"), "sliding-window layers are not modeled for model_type '" + f.type + "'");
  r.use("sliding_window");
  r.use("max_window_layers");
  const int interval = interval_key(r, "full_attention_interval", 4);
  return layer_types_or_interleave(r, f, m, interval, "full_attention_interval", Mixer::full_attention,
                                   Mixer::linear_attention);
}

// Gemma 3: sliding except every sliding_window_pattern-th layer (transformers
// Gemma3TextConfig; re-saved configs spell it _sliding_window_pattern), unless layer_types.
std::string gemma3_mixers(HfReader& r, const Family& f, ModelConfig& m) {
  int pattern = 6;
  for (const char* k : {"sliding_window_pattern", "_sliding_window_pattern"})
    if (r.has(k)) pattern = interval_key(r, k, 6);
    else r.use(k);
  return layer_types_or_interleave(r, f, m, pattern, "sliding_window_pattern", Mixer::full_attention,
                                   Mixer::sliding_attention);
}

// Trinity (afmoe): sliding except every global_attn_every_n_layers-th layer; RoPE on the
// sliding (local) layers only, the global layers are NoPE.
std::string afmoe_mixers(HfReader& r, const Family& f, ModelConfig& m) {
  if (!r.has("layer_types") && !r.has("global_attn_every_n_layers"))
    throw InputError(r.path("global_attn_every_n_layers"), "missing (and no layer_types): which layers are global");
  const int interval = interval_key(r, "global_attn_every_n_layers", 4);
  const std::string key = layer_types_or_interleave(r, f, m, interval, "global_attn_every_n_layers",
                                                    Mixer::full_attention, Mixer::sliding_attention);
  for (auto& l : m.layer_specs) l.rope = l.mixer == Mixer::sliding_attention;
  return key;
}

// A list of one flag per layer (MiMo's hybrid_layer_pattern and moe_layer_freq).
std::vector<bool> layer_flags(HfReader& r, const std::string& key, const ModelConfig& m, const char* what) {
  const json* v = r.get(key);
  const std::string p = r.path(key);
  if (!v) throw InputError(p, std::string("missing: one flag per layer (") + what + ")");
  if (!v->is_array() || static_cast<int>(v->size()) != m.layers)
    throw InputError(p, "expected a list of " + std::to_string(m.layers) + " flags (" + what + ")");
  std::vector<bool> out;
  for (int i = 0; i < m.layers; ++i) {
    const json& e = (*v)[i];
    if (!e.is_number_integer() || (e.get<long long>() != 0 && e.get<long long>() != 1))
      throw InputError(index_path(p, i), std::string("expected 0 or 1 (") + what + "), got " + e.dump());
    out.push_back(e.get<int>() == 1);
  }
  return out;
}

// MiMo-V2-Flash: hybrid_layer_pattern, 1 = sliding-window layer, 0 = full attention; the
// window is sliding_window_size (sliding_window and attention_chunk_size, where present, say the
// same and must agree).
std::string mimo_mixers(HfReader& r, const Family& f, ModelConfig& m, int& window) {
  std::string key = "hybrid_layer_pattern";
  if (r.has("hybrid_layer_pattern")) {
    r.use("layer_types");
    const std::vector<bool> sliding = layer_flags(r, "hybrid_layer_pattern", m, "1 = sliding-window attention");
    for (int i = 0; i < m.layers; ++i) m.layer_specs[i].mixer = sliding[i] ? Mixer::sliding_attention : Mixer::full_attention;
  } else if (r.has("layer_types")) {  // transformers' MiMoV2FlashConfig spelling
    r.use("hybrid_layer_pattern");
    parse_layer_types(r, f, m);
    key = "layer_types";
  } else {  // transformers' default: full attention in the first and every 6th layer
    r.use("hybrid_layer_pattern");
    r.use("layer_types");
    for (int i = 0; i < m.layers; ++i)
      m.layer_specs[i].mixer = i == 0 || (i + 1) % 6 == 0 ? Mixer::full_attention : Mixer::sliding_attention;
  }
  std::string which;
  for (const char* k : {"sliding_window_size", "sliding_window", "attention_chunk_size"}) {
    const int w = r.whole(k, 0);
    if (w == 0) continue;
    if (window > 0 && w != window)
      throw InputError(r.path(k), "disagrees with " + which + " (" + std::to_string(window) + ") about the sliding window");
    if (window == 0) window = w, which = k;
  }
  return key;
}

// Granite 4.0 Mamba2 dimensions, as GraniteMoeHybridConfig reads them (its defaults when a key
// is absent: 128 heads, 1 group, state 256, head dim "auto" = expand x hidden / heads, conv 4,
// expand 2, chunk 256, conv bias, no projection bias) and checks them: the heads' width
// n_heads x d_head must be mamba_expand x hidden_size.
void read_mamba_dims(HfReader& r, ModelConfig& m) {
  const bool needed = m.mixer_layer_count(Mixer::linear_attention) > 0;
  if (!needed) {
    for (const char* k : {"mamba_chunk_size", "mamba_conv_bias", "mamba_d_conv", "mamba_d_head", "mamba_d_state",
                          "mamba_expand", "mamba_n_groups", "mamba_n_heads", "mamba_proj_bias"})
      r.use(k);  // the Mamba2 layers' shape: no such layers here
    return;
  }
  LinearAttentionDims& g = m.linear;
  g.kind = LinearKind::mamba2;
  const int expand = r.whole("mamba_expand", 2);
  if (expand <= 0) throw InputError(r.path("mamba_expand"), "must be positive, got " + std::to_string(expand));
  const int width = expand * m.hidden;  // the mixer's intermediate width
  auto dim = [&](const char* key, int def) {
    if (r.has(key)) return r.positive(key);
    r.use(key);
    return def;
  };
  g.value_heads = dim("mamba_n_heads", 128);
  g.key_heads = dim("mamba_n_groups", 1);
  g.key_head_dim = dim("mamba_d_state", 256);
  g.conv_kernel = dim("mamba_d_conv", 4);
  g.chunk = dim("mamba_chunk_size", 256);
  g.conv_bias = r.boolean("mamba_conv_bias", true);
  g.proj_bias = r.boolean("mamba_proj_bias", false);
  const json* dh = r.peek("mamba_d_head");
  if (dh && dh->is_string() && *dh == "auto") {
    r.use("mamba_d_head");
    if (width % g.value_heads != 0)
      throw InputError(r.path("mamba_n_heads"), "must divide mamba_expand x hidden_size (" + std::to_string(width) +
                                                    "), got " + std::to_string(g.value_heads));
    g.value_head_dim = width / g.value_heads;
  } else {
    g.value_head_dim = dim("mamba_d_head", width / g.value_heads);
  }
  if (g.value_heads * g.value_head_dim != width)
    throw InputError(r.path("mamba_d_head"), "mamba_n_heads x mamba_d_head (" + std::to_string(g.value_heads) + " x " +
                                                 std::to_string(g.value_head_dim) + ") must equal mamba_expand x hidden_size (" +
                                                 std::to_string(width) + ")");
  if (g.value_heads % g.key_heads != 0)
    throw InputError(r.path("mamba_n_groups"), "must divide mamba_n_heads (" + std::to_string(g.value_heads) + "), got " +
                                                   std::to_string(g.key_heads));
}

// Granite 4.0: layer_types 'attention' or 'mamba'; without the key every layer is Mamba2 (the
// config's layers_block_type).
std::string granite_mixers(HfReader& r, const Family& f, ModelConfig& m) {
  if (r.has("layer_types")) {
    parse_layer_types(r, f, m);
  } else {
    r.use("layer_types");
    for (auto& l : m.layer_specs) l.mixer = Mixer::linear_attention;
  }
  read_mamba_dims(r, m);
  const std::string pe = r.string("position_embedding_type");
  if (pe == "nope")
    for (auto& l : m.layer_specs) l.rope = false;
  else if (!pe.empty() && pe != "rope")
    throw InputError(r.path("position_embedding_type"), "expected 'rope' or 'nope', got '" + pe + "'");
  return "layer_types";
}

// MiniMax: attn_type_list, 1 = softmax attention, 0 = lightning (linear) attention -- not
// modeled, refused by index.
std::string minimax_mixers(HfReader& r, ModelConfig& m) {
  if (const json* a = r.get("attn_type_list")) {
    const std::string p = r.path("attn_type_list");
    if (!a->is_array() || static_cast<int>(a->size()) != m.layers)
      throw InputError(p, "expected a list of " + std::to_string(m.layers) + " layer flags (1 = softmax attention)");
    for (int i = 0; i < m.layers; ++i) {
      const json& e = (*a)[i];
      if (e == 0)
        throw InputError(index_path(p, i), "unsupported: 0 (MiniMax lightning attention, a linear-attention layer) is not modeled");
      if (e != 1) throw InputError(index_path(p, i), "expected 1 (softmax attention) or 0 (lightning attention), got " + e.dump());
    }
  }
  return "attn_type_list";
}

void read_linear_dims(HfReader& r, ModelConfig& m) {
  const bool needed = m.mixer_layer_count(Mixer::linear_attention) > 0;
  auto dim = [&](const char* key) { return needed ? r.positive(key) : r.whole(key, 0); };
  m.linear.key_heads = dim("linear_num_key_heads");
  m.linear.value_heads = dim("linear_num_value_heads");
  m.linear.key_head_dim = dim("linear_key_head_dim");
  m.linear.value_head_dim = dim("linear_value_head_dim");
  m.linear.conv_kernel = dim("linear_conv_kernel_dim");
  if (needed && m.linear.value_heads % m.linear.key_heads != 0)
    throw InputError(r.path("linear_num_value_heads"), "must be a multiple of linear_num_key_heads (" +
                                                           std::to_string(m.linear.key_heads) + "), got " +
                                                           std::to_string(m.linear.value_heads));
  m.linear_state_dtype = r.string("mamba_ssm_dtype");
}

}  // namespace

const Family* find_family(const std::string& model_type) {
  static const std::vector<Family> table = make_families();
  for (const auto& f : table)
    if (f.type == model_type) return &f;
  return nullptr;
}

const std::vector<std::string>& supported_model_types() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> v;
    for (const auto& f : make_families()) v.push_back(f.type);
    return v;
  }();
  return types;
}

std::string read_mixers(HfReader& r, const Family& f, ModelConfig& m) {
  refuse_foreign_keys(r, f);
  std::string key;
  if (f.type == "llama4_text") {
    key = llama4_mixers(r, m, f);
  } else if (allows(f, "linear_attention")) {
    key = hybrid_linear_mixers(r, f, m);
    read_linear_dims(r, m);
  } else {
    int window = f.type == "mimo_v2_flash" ? 0 : r.whole("sliding_window", 0);
    key = f.type == "afmoe"                                      ? afmoe_mixers(r, f, m)
          : f.type == "gemma3_text" || f.type == "gemma4_text" ? gemma3_mixers(r, f, m)
          : f.type == "mimo_v2_flash"                           ? mimo_mixers(r, f, m, window)
          : f.type == "granitemoehybrid"                        ? granite_mixers(r, f, m)
          : f.type == "minimax" || f.type == "minimax_m2"       ? (classic_sliding(r, f, m, window), minimax_mixers(r, m))
                                                                : classic_sliding(r, f, m, window);
    if (window == 0 && m.mixer_layer_count(Mixer::sliding_attention) > 0)
      throw InputError(r.path("sliding_window"), "missing, but " + key + " has sliding_attention layers");
    m.sliding_window = m.mixer_layer_count(Mixer::sliding_attention) > 0 ? window : 0;
  }
  if (m.mixer_layer_count(Mixer::chunked_attention) > 0 && m.attention_chunk == 0)
    throw InputError(r.path("attention_chunk_size"), "missing, but layer_types has chunked_attention layers");
  if (m.mixer_layer_count(Mixer::chunked_attention) == 0) m.attention_chunk = 0;
  return key;
}

// ---- Attention shape per layer ---------------------------------------------------------

namespace {

int positive_or(HfReader& r, const std::string& key, int def) {
  const int v = r.whole(key, def);
  if (v == 0) throw InputError(r.path(key), "must be positive, got 0");
  return v;
}

void check_kv_divides(HfReader& r, const std::string& key, const ModelConfig& m, int kv) {
  if (m.heads % kv != 0)
    throw InputError(r.path(key), "must divide num_attention_heads (" + std::to_string(m.heads) + "), got " + std::to_string(kv));
}

// Gemma 4: global (full-attention) layers have heads of global_head_dim; with
// attention_k_eq_v their keys serve as values (no v_proj, one cached tensor) over
// num_global_key_value_heads heads. Per-layer input embeddings and KV-sharing layers (the
// small E-models) are refused by name.
void gemma4_attention(HfReader& r, ModelConfig& m) {
  if (r.whole("hidden_size_per_layer_input", 0) > 0)
    throw InputError(r.path("hidden_size_per_layer_input"),
                     "unsupported: per-layer input embeddings (Gemma 4's E-models) are not modeled");
  r.use("vocab_size_per_layer_input");
  if (r.whole("num_kv_shared_layers", 0) > 0)
    throw InputError(r.path("num_kv_shared_layers"),
                     "unsupported: layers reusing an earlier layer's K/V (Gemma 4's E-models) are not modeled");
  r.use("use_double_wide_mlp");  // only widens the KV-sharing layers' MLPs
  const int global_dim = positive_or(r, "global_head_dim", 512);  // transformers' Gemma4TextConfig default
  const bool k_eq_v = r.boolean("attention_k_eq_v", false);
  int global_kv = m.kv_heads;
  if (k_eq_v) {
    global_kv = positive_or(r, "num_global_key_value_heads", m.kv_heads);
    check_kv_divides(r, "num_global_key_value_heads", m, global_kv);
  } else {
    r.use("num_global_key_value_heads");  // transformers applies it only with attention_k_eq_v
  }
  if (const json* b = r.get("use_bidirectional_attention"); b && b->is_string() && b->get<std::string>() == "all")
    m.warnings.push_back(r.label("use_bidirectional_attention") + ": 'all' (bidirectional attention) is priced as causal");
  for (auto& l : m.layer_specs) {
    if (l.mixer != Mixer::full_attention) continue;
    l.attn.head_dim = l.attn.v_head_dim = global_dim;
    l.attn.kv_heads = global_kv;
    l.attn.k_eq_v = k_eq_v;
  }
}

// MiMo-V2-Flash: the sliding layers' own K/V heads and head dims (swa_*); a learned sink
// logit per head where add_swa_attention_sink_bias / add_full_attention_sink_bias say.
void mimo_attention(HfReader& r, ModelConfig& m) {
  const int swa_heads = positive_or(r, "swa_num_attention_heads", m.heads);
  if (swa_heads != m.heads)
    throw InputError(r.path("swa_num_attention_heads"), "unsupported: query heads unlike num_attention_heads (" +
                                                            std::to_string(m.heads) + ") in the sliding layers are not modeled");
  AttentionShape swa;
  // Without swa_* keys (transformers' MiMoV2FlashConfig) the sliding layers have twice the K/V heads.
  swa.kv_heads = positive_or(r, "swa_num_key_value_heads", 2 * m.kv_heads);
  check_kv_divides(r, "swa_num_key_value_heads", m, swa.kv_heads);
  swa.head_dim = positive_or(r, "swa_head_dim", m.head_dim);
  swa.v_head_dim = positive_or(r, "swa_v_head_dim", v_head_dim_of(m));
  swa.sinks = r.boolean("add_swa_attention_sink_bias", false);
  const bool full_sinks = r.boolean("add_full_attention_sink_bias", false);
  for (auto& l : m.layer_specs) {
    if (l.mixer == Mixer::sliding_attention) l.attn = swa;
    else l.attn.sinks = full_sinks;
  }
}

}  // namespace

void read_layer_attention(HfReader& r, const Family& f, ModelConfig& m) {
  for (auto& l : m.layer_specs) l.attn = default_attention_shape(m);
  if (f.type == "gemma4_text") gemma4_attention(r, m);
  if (f.type == "mimo_v2_flash") mimo_attention(r, m);
  for (auto& l : m.layer_specs)
    if (l.attn.sinks) m.attention_sinks = true;
}

// ---- MLP layout ---------------------------------------------------------------------

namespace {

struct ExpertCounts {
  int experts = 0, top_k = 0;
  std::string experts_key, top_k_key;
};

// The first positive value among `keys`; two keys that disagree are an error naming both.
void one_count(HfReader& r, std::initializer_list<const char*> keys, int& value, std::string& which,
               const char* what) {
  for (const char* k : keys) {
    int e = r.whole(k, 0);
    if (e == 0) continue;
    if (value > 0 && e != value)
      throw InputError(r.path(k), "disagrees with " + which + " (" + std::to_string(value) + ") about the " + what);
    if (value == 0) which = k;
    value = e;
  }
}

ExpertCounts read_expert_counts(HfReader& r) {
  ExpertCounts c;
  one_count(r, {"num_local_experts", "num_experts", "n_routed_experts"}, c.experts, c.experts_key, "number of experts");
  one_count(r, {"num_experts_per_tok", "experts_per_token", "top_k_experts"}, c.top_k, c.top_k_key, "experts per token");
  return c;
}

std::string moe_families() {
  std::vector<std::string> types;
  for (const auto& t : supported_model_types())
    if (find_family(t)->experts == ExpertUse::required) types.push_back(t);
  return fmt::join(types);
}

// Layer indices from a JSON list (mlp_only_layers, moe_layers).
std::set<int> layer_list(HfReader& r, const std::string& key, int layers) {
  std::set<int> out;
  const json* v = r.get(key);
  if (!v) return out;
  if (!v->is_array()) throw InputError(r.path(key), "expected a list of layer indices");
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= layers)
      throw InputError(index_path(r.path(key), i), "expected a layer index below " + std::to_string(layers));
    out.insert(e.get<int>());
  }
  return out;
}

void set_moe_layers(ModelConfig& m, const std::vector<bool>& moe, int dense_width) {
  for (int i = 0; i < m.layers; ++i) {
    m.layer_specs[i].mlp = moe[i] ? MlpKind::moe : MlpKind::dense;
    m.layer_specs[i].dense_intermediate = moe[i] ? 0 : dense_width;
  }
}

// The dense width, required when some layer is dense.
int dense_width(HfReader& r, const char* key, const std::vector<bool>& moe, const ModelConfig& m) {
  int w = r.whole(key, 0);
  if (w == 0 && std::find(moe.begin(), moe.end(), false) != moe.end())
    throw InputError(r.path(key), "missing, but " + std::to_string(m.layers - int(std::count(moe.begin(), moe.end(), true))) +
                                      " layers have a dense MLP");
  return w;
}

void deepseek_like(HfReader& r, const Family& f, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("moe_intermediate_size");
  m.shared_experts = r.whole("n_shared_experts", 0);
  const int first_dense = r.whole("first_k_dense_replace", 0);
  const int freq = f.mla ? interval_key(r, "moe_layer_freq", 1) : 1;
  for (int i = 0; i < m.layers; ++i) moe[i] = i >= first_dense && i % freq == 0;
  // DeepSeek-V3's noaux_tc and every GLM-4.5 router carry a per-expert selection bias
  // (e_score_correction_bias). topk_method is peeked, not read: it is still warned about.
  const json* method = r.peek("topk_method");
  m.router_bias = f.type == "glm4_moe" || f.type == "solar_open" ||
                  (method && method->is_string() && method->get<std::string>() == "noaux_tc");
}

void qwen_like(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("moe_intermediate_size");
  m.shared_expert_intermediate = r.whole("shared_expert_intermediate_size", 0);
  m.shared_expert_gate = m.shared_expert_intermediate > 0;
  const int step = interval_key(r, "decoder_sparse_step", 1);
  const std::set<int> dense = layer_list(r, "mlp_only_layers", m.layers);
  for (int i = 0; i < m.layers; ++i) moe[i] = !dense.count(i) && (i + 1) % step == 0;
}

// Llama 4: `intermediate_size` is the expert width, `intermediate_size_mlp` the dense one;
// every MoE layer adds one shared expert of the expert width.
void llama4_like(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("intermediate_size");
  m.shared_experts = 1;
  const int step = interval_key(r, "interleave_moe_layer_step", 1);
  if (r.has("moe_layers")) {
    const std::set<int> listed = layer_list(r, "moe_layers", m.layers);
    for (int i = 0; i < m.layers; ++i) moe[i] = listed.count(i) > 0;
  } else {
    r.use("moe_layers");
    for (int i = 0; i < m.layers; ++i) moe[i] = (i + 1) % step == 0;
  }
}

// MiMo-V2-Flash: moe_layer_freq lists one flag per layer (1 = MoE); DeepSeek's router with its
// noaux_tc selection bias; n_shared_experts (null in the published config).
void mimo_like(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("moe_intermediate_size");
  m.shared_experts = r.whole("n_shared_experts", 0);
  if (r.has("moe_layer_freq") || !r.has("mlp_layer_types")) {
    r.use("mlp_layer_types");
    if (r.has("moe_layer_freq")) moe = layer_flags(r, "moe_layer_freq", m, "1 = mixture-of-experts MLP");
    else for (int i = 0; i < m.layers; ++i) moe[i] = i > 0;  // transformers' default: the first layer dense
    r.use("moe_layer_freq");
  } else {  // transformers' spelling: "dense" or "sparse" per layer
    const json* v = r.get("mlp_layer_types");
    const std::string p = r.path("mlp_layer_types");
    if (!v->is_array() || static_cast<int>(v->size()) != m.layers)
      throw InputError(p, "expected a list of " + std::to_string(m.layers) + " MLP types ('dense' or 'sparse')");
    for (int i = 0; i < m.layers; ++i) {
      const json& e = (*v)[i];
      if (e != "dense" && e != "sparse") throw InputError(index_path(p, i), "expected 'dense' or 'sparse', got " + e.dump());
      moe[i] = e == "sparse";
    }
  }
  const json* method = r.peek("topk_method");
  m.router_bias = method && method->is_string() && method->get<std::string>() == "noaux_tc";
}

// Gemma 4 with enable_moe_block: every layer runs its dense MLP (intermediate_size) and, beside
// it, the routed experts (moe_intermediate_size) -- priced as MoE layers whose always-on shared
// expert is the dense MLP, without a gate. The router carries a per-expert scale and a
// hidden-size input scale; three more RMSNorms per layer.
void gemma4_moe(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  // Early Gemma 4 configs spell the expert width expert_intermediate_size.
  m.moe_intermediate = r.has("moe_intermediate_size") || !r.has("expert_intermediate_size")
                           ? r.positive("moe_intermediate_size")
                           : r.positive("expert_intermediate_size");
  r.use("expert_intermediate_size");
  m.shared_expert_intermediate = r.positive("intermediate_size");
  moe.assign(m.layers, true);
  m.router_bias = true;  // per_expert_scale: one value per expert
  m.norms_per_layer = 4 + 3 + 1;  // + post_feedforward_layernorm_1/_2, pre_feedforward_layernorm_2; the router's scale
}

// MiniMax: intermediate_size is the expert width (as Mixtral's), experts in every layer; the
// sigmoid router's selection bias (use_routing_bias); shared_intermediate_size an ungated
// shared expert (0 in MiniMax-M2).
void minimax_like(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("intermediate_size");
  m.shared_expert_intermediate = r.whole("shared_intermediate_size", 0);
  moe.assign(m.layers, true);
  m.router_bias = r.boolean("use_routing_bias", false);
}

// Granite 4.0 MoE: intermediate_size is the expert width; every layer also runs the shared MLP
// of shared_intermediate_size (ungated).
void granite_moe(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("intermediate_size");
  m.shared_expert_intermediate = r.whole("shared_intermediate_size", 0);
  moe.assign(m.layers, true);
}

void afmoe_like(HfReader& r, ModelConfig& m, std::vector<bool>& moe) {
  m.moe_intermediate = r.positive("moe_intermediate_size");
  m.shared_experts = r.whole("num_shared_experts", 0);
  if (!r.has("num_dense_layers")) throw InputError(r.path("num_dense_layers"), "missing (the leading dense layers)");
  const int first_dense = r.whole("num_dense_layers", 0);
  for (int i = 0; i < m.layers; ++i) moe[i] = i >= first_dense;
  m.router_bias = true;  // expert_bias: a per-expert selection bias
}

}  // namespace

void read_mlp(HfReader& r, const Family& f, ModelConfig& m) {
  if (f.type == "gemma4_text" && !r.boolean("enable_moe_block", false)) {
    // Without the MoE block the expert keys (null in dense configs) are unused.
    for (const char* k : {"num_experts", "top_k_experts", "moe_intermediate_size", "expert_intermediate_size"}) {
      if (r.has(k)) m.warnings.push_back(r.label(k) + ": not used without enable_moe_block");
      r.use(k);
    }
    m.intermediate = r.positive("intermediate_size");
    set_moe_layers(m, std::vector<bool>(m.layers, false), m.intermediate);
    return;
  }
  if (f.type == "granitemoehybrid" && r.whole("num_local_experts", 0) == 0) {
    // Dense Granite 4.0 (micro): the shared MLP is the layer's MLP; intermediate_size is unused.
    r.use("num_experts_per_tok");
    r.use("intermediate_size");
    m.intermediate = r.positive("shared_intermediate_size");
    set_moe_layers(m, std::vector<bool>(m.layers, false), m.intermediate);
    return;
  }
  const ExpertCounts c = read_expert_counts(r);
  const bool gemma4_moe_block = f.type == "gemma4_text";
  if (gemma4_moe_block && c.experts == 0)
    throw InputError(r.path("num_experts"), "missing, but enable_moe_block is true");
  std::vector<bool> moe(m.layers, false);
  if (c.experts > 0 && f.experts == ExpertUse::none && !gemma4_moe_block && f.type != "granitemoehybrid")
    throw InputError(r.path(c.experts_key), "experts are not part of model_type '" + f.type +
                                                "' (mixture-of-experts types: " + moe_families() + ")");
  if (c.experts == 0 && f.experts == ExpertUse::required)
    throw InputError(r.path(f.expert_key), "missing: model_type '" + f.type + "' is a mixture-of-experts family");
  if (c.experts == 0) {
    // Qwen's dense configs may carry the MoE family's (empty) list of dense layers.
    if (f.type.rfind("qwen", 0) == 0) layer_list(r, "mlp_only_layers", m.layers);
    m.intermediate = r.positive("intermediate_size");
    set_moe_layers(m, moe, m.intermediate);
    return;
  }
  if (c.top_k == 0) throw InputError(r.path("num_experts_per_tok"), "missing for a mixture-of-experts model");
  if (c.top_k > c.experts)
    throw InputError(r.path(c.top_k_key), "must not exceed " + c.experts_key + " (" + std::to_string(c.experts) + ")");
  m.experts = c.experts;
  m.experts_per_token = c.top_k;
  const char* dense_key = "intermediate_size";
  if (f.type == "mixtral" || f.type == "gpt_oss") {
    m.moe_intermediate = r.positive("intermediate_size");
    moe.assign(m.layers, true);
    m.router_bias = f.type == "gpt_oss";
    m.expert_bias = f.type == "gpt_oss";
  } else if (f.type == "mimo_v2_flash") {
    mimo_like(r, m, moe);
  } else if (f.type == "minimax" || f.type == "minimax_m2") {
    minimax_like(r, m, moe);
    set_moe_layers(m, moe, 0);
    return;
  } else if (f.type == "granitemoehybrid") {
    granite_moe(r, m, moe);
    set_moe_layers(m, moe, 0);
    return;
  } else if (f.type == "gemma4_text") {
    gemma4_moe(r, m, moe);
    set_moe_layers(m, moe, 0);
    m.intermediate = m.shared_expert_intermediate;
    return;
  } else if (f.mla || f.type == "glm4_moe" || f.type == "solar_open") {
    deepseek_like(r, f, m, moe);
  } else if (f.type == "llama4_text") {
    llama4_like(r, m, moe);
    dense_key = "intermediate_size_mlp";
  } else if (f.type == "afmoe") {
    afmoe_like(r, m, moe);
  } else {
    qwen_like(r, m, moe);
  }
  m.intermediate = dense_width(r, dense_key, moe, m);
  set_moe_layers(m, moe, m.intermediate);
}

}  // namespace trnsim::model
