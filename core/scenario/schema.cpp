// The scenario field table (schema.h) and the generic operations on it.
#include "scenario/schema.h"

#include <algorithm>
#include <map>

#include "capacity/fields.h"
#include "common/limits.h"
#include "hw/system.h"
#include "model/video.h"
#include "scenario/scenario.h"
#include "serve/fields.h"
#include "workload/fields.h"

namespace trnsim {

namespace {

using Rows = FieldRows<Scenario>;
const char* kSystem = "System";


// The scenario fields.
void add_scenario_fields(std::vector<Field>& t) {
  {
    const std::string reads = "this trnsim reads scenario version " + std::to_string(kScenarioVersion);
    Field f = Rows::make("version", FieldType::integer, kScenarioVersion, limit(kScenarioVersion, reads),
                   limit(kScenarioVersion, reads),
                   {"", "version", "The scenario format version (this trnsim reads version 1)."});
    f.get = [](const Scenario&) { return json(kScenarioVersion); };
    f.put = [](Scenario&, const json&) {};  // the range admits this trnsim's version only
    t.push_back(f);
  }
  t.push_back(Rows::bound<std::string>(field_meta("name", FieldType::string, "", {}, text_limit(200),
                                      {"", "name", "A title for the scenario."}),
                                 [](Scenario& s) -> std::string& { return s.name; }));
  {
    Field f = Rows::bound<std::string>(
        Rows::make("system", FieldType::system, "trn3-gen2-ultraserver", {}, {},
             {"", "system", "The system the workload runs on. Built-in data files cite their sources (About page).",
              kSystem}),
        [](Scenario& s) -> std::string& { return s.system; });
    t.push_back(f);
  }
  {
    Field f = Rows::bound<std::string>(
        Rows::make("compare_system", FieldType::system, "trn2-ultraserver", {}, {},
             {"", "compare with",
              "The same workload on a second system, shown beside the first with ratios. Empty: no comparison.", kSystem}),
        [](Scenario& s) -> std::string& { return s.compare_system; });
    f.allow_empty = true;
    t.push_back(f);
  }
}

std::vector<Field> build_table() {
  std::vector<Field> t;
  add_scenario_fields(t);
  for (const auto& f : workload::fields()) t.push_back(mount(f, &Scenario::workload));
  for (const auto& f : serve::fields()) t.push_back(mount(f, &Scenario::serve));
  for (const auto& f : capacity::fields()) t.push_back(mount(f, &Scenario::capacity));
  return t;
}

const std::map<std::string, std::size_t>& field_index() {
  static const std::map<std::string, std::size_t> index = [] {
    std::map<std::string, std::size_t> m;
    const auto& t = scenario_fields();
    for (std::size_t i = 0; i < t.size(); ++i) m[t[i].path] = i;
    return m;
  }();
  return index;
}

std::vector<std::string> field_paths() {
  std::vector<std::string> out;
  for (const auto& f : scenario_fields()) out.push_back(f.path);
  return out;
}

std::string checked_system_name(const std::string& name, const std::string& path, bool allow_empty) {
  if (name.empty()) {
    if (allow_empty) return name;
    throw InputError(path, "must name a system");
  }
  try {
    hw::load_system(name);  // validates now, so the error points at this field
  } catch (const InputError& e) {
    // load_system names its argument "system": name this field instead, once. An error
    // inside a user's file keeps the file and the field in it ("my.json: hbm.bandwidth.unit").
    throw InputError(path, e.field() == "system" ? e.problem() : e.what());
  }
  return name;
}

}  // namespace

const std::vector<Field>& scenario_fields() {
  static const std::vector<Field> table = build_table();
  return table;
}

const Field* find_field_or_null(const std::string& path) {
  const auto& idx = field_index();
  auto it = idx.find(path);
  return it == idx.end() ? nullptr : &scenario_fields()[it->second];
}

const Field& find_field(const std::string& path) {
  if (const Field* f = find_field_or_null(path)) return *f;
  std::string hint = closest_name(path, field_paths());
  throw InputError(path, "not a scenario field" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
}

json validate_field(const FieldMeta& f, const json& v, const std::string& path_in) {
  const std::string& p = path_in.empty() ? f.path : path_in;
  switch (f.type) {
    case FieldType::integer:
      return checked_integer(v, p, f.lo, f.hi);
    case FieldType::number:
      return checked_number(v, p, f.lo, f.hi);
    case FieldType::boolean:
      return checked_boolean(v, p);
    case FieldType::string: {
      std::string s = checked_string(v, p);
      if (s.size() > static_cast<std::size_t>(f.hi.value))
        throw InputError(p, "longer than " + std::to_string(static_cast<long long>(f.hi.value)) + " characters");
      return s;
    }
    case FieldType::choice:
      return checked_choice(checked_string(v, p), p, f.choices());
    case FieldType::optional_number:
      if (v.is_null()) return nullptr;
      if (!v.is_number()) throw InputError(p, std::string("expected a number or null, got ") + v.type_name());
      return checked_number(v, p, f.lo, f.hi);
    case FieldType::system:
      return checked_system_name(checked_string(v, p), p, f.allow_empty);
    case FieldType::model:
      if (v.is_string()) {
        if (v.get<std::string>().empty()) throw InputError(p, "empty model name");
        model::check_bundled_model_name(v.get<std::string>(), p);  // unknown name: error with hint
        return v;
      }
      if (v.is_object()) return v;
      throw InputError(p, std::string("expected a bundled model name or a Hugging Face config.json object, got ") +
                              v.type_name());
    case FieldType::integer_list: {
      if (!v.is_array()) throw InputError(p, std::string("expected an array of whole numbers, got ") + v.type_name());
      if (f.max_items && v.size() > f.max_items)
        throw InputError(p, "at most " + std::to_string(f.max_items) + " entries, got " + std::to_string(v.size()));
      json out = json::array();
      for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(checked_integer(v[i], index_path(p, i), f.lo, f.hi));
      return out;
    }
  }
  return v;
}

void set_field(Scenario& s, const std::string& path, const json& value) {
  const Field& f = find_field(path);
  try {
    f.put(s, validate_field(f, value));
  } catch (const InputError& e) {
    if (e.field().rfind(path, 0) == 0) throw;  // already names this field (or a part of it)
    throw InputError(path, e.what());
  }
}

json get_field(const Scenario& s, const std::string& path) { return find_field(path).get(s); }

bool is_default(const Scenario& s, const std::string& path) {
  const Field& f = find_field(path);
  return f.get(s) == f.default_value;
}

Scenario scenario_defaults() {
  Scenario s;
  for (const auto& f : scenario_fields())
    if (f.type != FieldType::model) f.put(s, f.default_value);
  return s;
}

bool operator==(const Scenario& a, const Scenario& b) {
  for (const auto& f : scenario_fields())
    if (f.get(a) != f.get(b)) return false;
  return true;
}

}  // namespace trnsim
