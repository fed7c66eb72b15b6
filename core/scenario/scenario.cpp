// Reading and writing scenarios through the field table (schema.h).
#include "scenario/scenario.h"

#include <map>

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

Scenario parse_scenario(const std::string& text, const std::string& what) {
  return scenario_from_json(parse_json_text(text, what));
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
