// The "workload" object of a scenario: strict parsing, canonical serialization, defaults.
#include <map>
#include <mutex>

#include "workload/workload.h"

namespace trnsim::workload {

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names = {"bf16", "fp8", "mxfp8", "mxfp4"};
  return names;
}

double bytes_per_element(const std::string& dtype) {
  // MX formats carry one 8-bit (E8M0) scale per block of 32 elements (OCP MX v1.0; S10).
  if (dtype == "fp32") return 4.0;
  if (dtype == "bf16") return 2.0;
  if (dtype == "fp8") return 1.0;
  if (dtype == "mxfp8") return 1.0 + 1.0 / 32.0;
  if (dtype == "mxfp4") return 0.5 + 1.0 / 32.0;
  throw InputError("precision", "unknown dtype '" + dtype + "'");
}

namespace {

constexpr std::int64_t kMaxTokens = 1 << 24;  // 16M tokens of context is already absurd

Precision parse_precision(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Precision p;
  const auto& names = precision_names();
  p.weights = r.choice("weights", p.weights, names);
  p.attention_weights = r.choice("attention_weights", p.attention_weights, names);
  p.activations = r.choice("activations", p.activations, names);
  p.kv_cache = r.choice("kv_cache", p.kv_cache, names);
  r.finish();
  return p;
}

Parallelism parse_parallelism(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Parallelism p;
  p.tp = static_cast<int>(r.integer("tp", 1, 1, 1 << 16));
  p.pp = static_cast<int>(r.integer("pp", 1, 1, 1 << 16));
  p.dp = static_cast<int>(r.integer("dp", 1, 1, 1 << 20));
  p.ep = static_cast<int>(r.integer("ep", 1, 1, 1 << 16));
  r.finish();
  return p;
}

InferenceParams parse_inference(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  InferenceParams p;
  p.batch = static_cast<int>(r.integer("batch", p.batch, 1, 1 << 20));
  p.input_tokens = static_cast<int>(r.integer("input_tokens", p.input_tokens, 1, kMaxTokens));
  p.output_tokens = static_cast<int>(r.integer("output_tokens", p.output_tokens, 1, kMaxTokens));
  r.finish();
  return p;
}

TrainingParams parse_training(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  TrainingParams p;
  p.sequence_length = static_cast<int>(r.integer("sequence_length", p.sequence_length, 1, kMaxTokens));
  p.global_batch = static_cast<int>(r.integer("global_batch", p.global_batch, 1, 1 << 26));
  p.micro_batch = static_cast<int>(r.integer("micro_batch", p.micro_batch, 1, 1 << 20));
  p.zero_stage = static_cast<int>(r.integer("zero_stage", p.zero_stage, 0, 3));
  p.recompute = r.choice("recompute", p.recompute, {"none", "selective", "full"});
  p.overlap = r.number("overlap", p.overlap, 0.0, 1.0);
  r.finish();
  return p;
}

Efficiency parse_efficiency(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Efficiency e;
  e.compute = r.number("compute", e.compute, 0.01, 1.0);
  e.attention = r.number("attention", e.attention, 0.01, 1.0);
  e.hbm = r.number("hbm", e.hbm, 0.01, 1.0);
  e.kernel_overhead_s = r.number("kernel_overhead_s", e.kernel_overhead_s, 0.0, 1.0);
  e.hbm_reserve_fraction = r.number("hbm_reserve_fraction", e.hbm_reserve_fraction, 0.0, 0.9);
  r.finish();
  return e;
}

std::optional<double> optional_number(ObjectReader& r, const std::string& key, double lo, double hi) {
  const json* v = r.optional_raw(key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number()) throw InputError(r.path(key), std::string("expected a number or null, got ") + v->type_name());
  double x = v->get<double>();
  if (!(x >= lo && x <= hi))
    throw InputError(r.path(key), "must be between " + json(lo).dump() + " and " + json(hi).dump() + ", got " + v->dump());
  return x;
}

Economics parse_economics(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Economics e;
  e.chip_power_watts = optional_number(r, "chip_power_watts", 1.0, 1e5);
  e.host_power_fraction = r.number("host_power_fraction", e.host_power_fraction, 0.0, 10.0);
  e.pue = r.number("pue", e.pue, 1.0, 5.0);
  e.price_per_chip_hour_usd = optional_number(r, "price_per_chip_hour_usd", 0.0, 1e4);
  r.finish();
  return e;
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// Bundled configs parsed once (thread-safe static init), shared by every evaluation.
const std::map<std::string, json>& bundled_cache() {
  static const std::map<std::string, json> cache = [] {
    std::map<std::string, json> m;
    for (const auto& n : model::bundled_model_names()) m[n] = model::bundled_model_json(n, "examples/models/" + n + ".json");
    return m;
  }();
  return cache;
}

}  // namespace

ModelConfig spec_model(const Spec& spec, const std::string& path) {
  if (!spec.model_name.empty()) {
    const auto& cache = bundled_cache();
    auto it = cache.find(spec.model_name);
    if (it == cache.end()) model::bundled_model_json(spec.model_name, path);  // throws with a hint
    return model::import_hf_config(it->second, "examples/models/" + spec.model_name + ".json", spec.model_name);
  }
  return model::import_hf_config(spec.model_config, path, "inline");
}

Spec parse_spec(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  Spec s;
  s.kind = r.choice("kind", "inference", {"inference", "training"});
  const json& model = r.raw("model");
  if (model.is_string()) {
    s.model_name = model.get<std::string>();
    if (s.model_name.empty()) throw InputError(r.path("model"), "empty model name");
    model::bundled_model_json(s.model_name, r.path("model"));  // unknown name: error with hint
  } else if (model.is_object()) {
    s.model_config = model;
  } else {
    throw InputError(r.path("model"), std::string("expected a bundled model name or a Hugging Face config.json object, got ") +
                                          model.type_name());
  }
  spec_model(s, r.path("model"));  // config errors surface at parse time, naming the field
  if (const json* p = r.optional_raw("precision")) s.precision = parse_precision(*p, r.path("precision"));
  if (const json* p = r.optional_raw("parallelism")) s.parallelism = parse_parallelism(*p, r.path("parallelism"));
  if (const json* p = r.optional_raw("inference")) s.inference = parse_inference(*p, r.path("inference"));
  if (const json* p = r.optional_raw("training")) s.training = parse_training(*p, r.path("training"));
  if (const json* p = r.optional_raw("efficiency")) s.efficiency = parse_efficiency(*p, r.path("efficiency"));
  if (const json* p = r.optional_raw("economics")) s.economics = parse_economics(*p, r.path("economics"));
  r.finish();
  return s;
}

json spec_to_json(const Spec& s) {
  json j;
  j["kind"] = s.kind;
  j["model"] = s.model_name.empty() ? s.model_config : json(s.model_name);
  j["precision"] = {{"weights", s.precision.weights},
                    {"attention_weights", s.precision.attention_weights},
                    {"activations", s.precision.activations},
                    {"kv_cache", s.precision.kv_cache}};
  j["parallelism"] = {{"tp", s.parallelism.tp}, {"pp", s.parallelism.pp}, {"dp", s.parallelism.dp}, {"ep", s.parallelism.ep}};
  j["inference"] = {{"batch", s.inference.batch},
                    {"input_tokens", s.inference.input_tokens},
                    {"output_tokens", s.inference.output_tokens}};
  j["training"] = {{"sequence_length", s.training.sequence_length},
                   {"global_batch", s.training.global_batch},
                   {"micro_batch", s.training.micro_batch},
                   {"zero_stage", s.training.zero_stage},
                   {"recompute", s.training.recompute},
                   {"overlap", s.training.overlap}};
  j["efficiency"] = {{"compute", s.efficiency.compute},
                     {"attention", s.efficiency.attention},
                     {"hbm", s.efficiency.hbm},
                     {"kernel_overhead_s", s.efficiency.kernel_overhead_s},
                     {"hbm_reserve_fraction", s.efficiency.hbm_reserve_fraction}};
  j["economics"] = {{"chip_power_watts", optional_json(s.economics.chip_power_watts)},
                    {"host_power_fraction", s.economics.host_power_fraction},
                    {"pue", s.economics.pue},
                    {"price_per_chip_hour_usd", optional_json(s.economics.price_per_chip_hour_usd)}};
  return j;
}

Spec default_spec() {
  // gpt-oss-120b served the way the Neuron Trn3 tutorial sets it up (TP8 endpoints, MXFP4 MoE
  // weights, 10000 input / 3000 output tokens; trn3-gpt-oss-120b-tutorial.rst, PERF.md claims),
  // with 16 concurrent sequences per endpoint (a guess: the tutorial publishes no batch size).
  Spec s;
  s.kind = "inference";
  s.model_name = "gpt-oss-120b";
  s.precision.weights = "mxfp4";
  s.precision.attention_weights = "bf16";
  s.precision.activations = "mxfp8";
  s.precision.kv_cache = "bf16";
  s.parallelism = {8, 1, 1, 1};
  s.inference = {16, 10000, 3000};
  return s;
}

}  // namespace trnsim::workload
