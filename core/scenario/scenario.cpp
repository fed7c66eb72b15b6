// Reading and writing scenarios through the field table (schema.h).
#include "scenario/scenario.h"

#include <map>

#include "common/input_file.h"
#include "common/limits.h"
#include "embedded.h"

namespace trnsim {

namespace {

// The objects of a scenario file, each with its keys in table order: a field, or a
// nested object (field == nullptr).
struct ObjectNode {
  std::vector<std::pair<std::string, const Field*>> keys;
};

const std::map<std::string, ObjectNode>& object_nodes() {
  static const std::map<std::string, ObjectNode> nodes = [] {
    std::map<std::string, ObjectNode> m;
    auto add = [&](const std::string& parent, const std::string& key, const Field* f) {
      auto& keys = m[parent].keys;
      for (const auto& k : keys)
        if (k.first == key) return;
      keys.push_back({key, f});
    };
    for (const auto& f : scenario_fields()) {
      std::string parent = f.parent();
      add(parent, f.key(), &f);
      // Register each enclosing object under its own parent.
      while (!parent.empty()) {
        auto dot = parent.rfind('.');
        std::string up = dot == std::string::npos ? std::string() : parent.substr(0, dot);
        add(up, dot == std::string::npos ? parent : parent.substr(dot + 1), nullptr);
        parent = up;
      }
    }
    return m;
  }();
  return nodes;
}

void read_object(const json& obj, const std::string& path, Scenario& s) {
  ObjectReader r(obj, path);
  for (const auto& [key, field] : object_nodes().at(path).keys) {
    const json* v = r.optional_raw(key);
    if (field) {
      if (v) field->put(s, validate_field(*field, *v));
      else if (field->default_value.is_null() && field->type != FieldType::optional_number)
        throw InputError(field->path, "missing (required)");
    } else {
      std::string sub = field_path(path, key);
      if (v) read_object(*v, sub, s);
      else if (sub == "workload") s.workload = default_scenario().workload;
    }
  }
  r.finish();
}

}  // namespace

Scenario scenario_from_json(const json& j) {
  if (!j.is_object()) throw InputError("scenario", std::string("expected an object, got ") + j.type_name());
  Scenario s = scenario_defaults();
  read_object(j, "", s);
  return s;
}

// A model named by a path rather than a bundled name: it ends in .json or has a folder in it
// (no bundled name has either).
bool names_a_model_file(const std::string& model) {
  const std::string ext = ".json";
  return model.find('/') != std::string::npos || model.find('\\') != std::string::npos ||
         (model.size() > ext.size() && model.compare(model.size() - ext.size(), ext.size(), ext) == 0);
}

json read_model_file(const std::string& path, const ScenarioFiles& files, const std::string& field) {
  if (!files)
    throw InputError(field, "'" + path +
                                "' names a config file, and this scenario was read where there are no files (the "
                                "page, a link, stdin): paste the config.json object inline instead");
  const std::string text = files(path, field);
  json config;
  try {
    config = parse_json_text(text, path);
  } catch (const InputError& e) {
    throw InputError(field, "'" + path + "' is not a config.json: " + e.what());
  }
  if (!config.is_object())
    throw InputError(field, "'" + path + "' is not a config.json: expected a JSON object, got " + config.type_name());
  return config;
}

// "workload.model": "path/to/config.json" -> the file's JSON object in its place, before the
// field table reads it (which imports it as it would an inline config). A language model's
// config keeps the path it came from as its "_name_or_path" (the metadata key transformers
// writes, which names the model in reports) unless it has one.
void inline_model_file(json& scenario, const ScenarioFiles& files) {
  if (!scenario.is_object() || !scenario.contains("workload") || !scenario["workload"].is_object()) return;
  json& w = scenario["workload"];
  if (!w.contains("model") || !w["model"].is_string()) return;
  const std::string path = w["model"].get<std::string>();
  if (!names_a_model_file(path)) return;
  json config = read_model_file(path, files, "workload.model");
  if (!config.contains("_name_or_path") && !config.contains("transformer")) config["_name_or_path"] = path;
  w["model"] = std::move(config);
}

ScenarioFiles scenario_files_in(const std::string& dir) {
  return [dir](const std::string& path, const std::string& field) -> std::string {
    const std::string full = path.empty() || path[0] == '/' || dir.empty() ? path : dir + "/" + path;
    try {
      return read_input_file(full, full, limits::kMaxJsonInputBytes);
    } catch (const InputError& e) {
      throw InputError(field, e.what());
    }
  };
}

std::string scenario_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash == 0 ? 1 : slash);
}

Scenario parse_scenario(const std::string& text, const std::string& what, const ScenarioFiles& files) {
  json j = parse_json_text(text, what);
  inline_model_file(j, files);
  return scenario_from_json(j);
}

json scenario_to_json(const Scenario& s) {
  json j = json::object();
  for (const auto& f : scenario_fields()) {
    json* node = &j;
    std::string parent = f.parent();
    std::size_t pos = 0;
    while (!parent.empty() && pos <= parent.size()) {
      auto dot = parent.find('.', pos);
      node = &(*node)[parent.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos)];
      if (dot == std::string::npos) break;
      pos = dot + 1;
    }
    (*node)[f.key()] = f.get(s);
  }
  return j;
}

std::string scenario_to_string(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

const Scenario& default_scenario() {
  static const Scenario s = [] {
    const std::string* text = find_embedded("examples/default.json");
    if (!text) throw std::logic_error("examples/default.json is not embedded");
    return parse_scenario(*text, "examples/default.json");
  }();
  return s;
}

Scenario scenario_with_workload(const json& workload) {
  return scenario_from_json(json{{"workload", workload}});
}

workload::Spec parse_workload(const json& workload) { return scenario_with_workload(workload).workload; }

json workload_to_json(const workload::Spec& spec) {
  Scenario s = scenario_defaults();
  s.workload = spec;
  return scenario_to_json(s)["workload"];
}

}  // namespace trnsim

namespace trnsim::workload {

bool operator==(const Spec& a, const Spec& b) {
  Scenario x = scenario_defaults(), y = scenario_defaults();
  x.workload = a;
  y.workload = b;
  return x == y;
}

}  // namespace trnsim::workload
