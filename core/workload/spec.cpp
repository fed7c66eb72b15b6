// Precision names and sizes, and the imported model of a workload spec.
#include "workload/spec.h"

#include <map>

namespace trnsim::workload {

const std::vector<std::string>& precision_names() { return dtype::precision_names(); }

double bytes_per_element(const std::string& dtype) { return dtype::bytes_per_element(dtype, "precision"); }

namespace {

// Bundled models imported once (thread-safe static init), shared by every evaluation.
const std::map<std::string, std::shared_ptr<const model::ModelConfig>>& bundled_models() {
  static const auto cache = [] {
    std::map<std::string, std::shared_ptr<const model::ModelConfig>> m;
    for (const auto& n : model::bundled_model_names()) {
      const std::string file = "examples/models/" + n + ".json";
      m[n] = std::make_shared<const model::ModelConfig>(
          model::import_hf_config(model::bundled_model_json(n, file), file, n));
    }
    return m;
  }();
  return cache;
}

}  // namespace

std::string inline_model_name(const json& config) {
  if (config.is_object() && config.contains("_name_or_path") && config.at("_name_or_path").is_string() &&
      !config.at("_name_or_path").get<std::string>().empty())
    return config.at("_name_or_path").get<std::string>();
  return "inline";
}

std::shared_ptr<const model::ModelConfig> spec_model(const Spec& spec, const std::string& path) {
  if (spec.imported) return spec.imported;
  if (!spec.model_name.empty()) {
    const auto& cache = bundled_models();
    auto it = cache.find(spec.model_name);
    if (it == cache.end()) model::bundled_model_json(spec.model_name, path);  // throws with a hint
    return it->second;
  }
  return std::make_shared<const model::ModelConfig>(
      model::import_hf_config(spec.model_config, path, inline_model_name(spec.model_config)));
}

const std::vector<std::string>& kind_names() {
  static const std::vector<std::string> names = {"inference", "training", "video"};
  return names;
}

const char* kind_name(Kind kind) { return kind_names()[static_cast<std::size_t>(kind)].c_str(); }

Kind parse_kind(const std::string& name) {
  const auto& names = kind_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Kind>(i);
  throw InputError("workload.kind", "unknown kind '" + name + "' (expected inference, training or video)");
}

std::vector<std::string> model_choices(Kind kind) {
  return kind == Kind::video ? model::bundled_video_model_names() : model::bundled_model_names();
}

json bundled_model_config(const std::string& name, const std::string& field) {
  if (const std::string* text = model::bundled_video_model_text(name))
    return parse_json_text(*text, "examples/models/video/" + name + ".json");
  return model::bundled_model_json(name, field);
}

bool names_video_model(const Spec& spec) {
  if (!spec.model_name.empty()) return model::bundled_video_model_text(spec.model_name) != nullptr;
  return model::is_video_bundle(spec.model_config);
}

std::shared_ptr<const model::VideoModelConfig> spec_video_model(const Spec& spec, const std::string& path) {
  if (spec.imported_video) return spec.imported_video;
  if (!names_video_model(spec))
    throw InputError(path, "'" + (spec.model_name.empty() ? std::string("the inline config") : spec.model_name) +
                               "' is a language model; a video workload needs a video model (bundled: " +
                               model::bundled_video_model_list() +
                               "; or an inline object with transformer, vae and text_encoder configs)");
  if (!spec.model_name.empty()) return model::bundled_video_model(spec.model_name, path);
  return std::make_shared<const model::VideoModelConfig>(model::import_video_config(spec.model_config, path, "inline"));
}

}  // namespace trnsim::workload
