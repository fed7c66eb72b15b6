#include "scenario/scenario.h"

#include "embedded.h"
#include "hw/system.h"

namespace trnsim {

static std::string checked_system(ObjectReader& r, const std::string& key, const std::string& def,
                                  bool allow_empty) {
  std::string name = r.string(key, def);
  if (name.empty()) {
    if (allow_empty) return name;
    throw InputError(r.path(key), "must name a system");
  }
  // Validates the name now so the error points at this field.
  try {
    hw::load_system(name);
  } catch (const InputError& e) {
    throw InputError(r.path(key), e.what());
  }
  return name;
}

Scenario scenario_from_json(const json& j) {
  if (!j.is_object()) throw InputError("scenario", std::string("expected an object, got ") + j.type_name());
  ObjectReader r(j, "");
  std::int64_t version = r.integer("version", kScenarioVersion, 1, 1000000);
  if (version != kScenarioVersion)
    throw InputError("version", "unsupported scenario version " + std::to_string(version) +
                                    " (this trnsim reads version " + std::to_string(kScenarioVersion) + ")");
  Scenario s;
  s.name = r.string("name", "");
  if (s.name.size() > 200) throw InputError("name", "longer than 200 characters");
  s.system = checked_system(r, "system", s.system, false);
  s.compare_system = checked_system(r, "compare_system", s.compare_system, true);
  const json* w = r.optional_raw("workload");
  s.workload = w ? workload::parse_spec(*w, "workload") : workload::default_spec();
  r.finish();
  return s;
}

Scenario parse_scenario(const std::string& text, const std::string& what) {
  return scenario_from_json(parse_json_text(text, what));
}

json scenario_to_json(const Scenario& s) {
  json j;
  j["version"] = kScenarioVersion;
  j["name"] = s.name;
  j["system"] = s.system;
  j["compare_system"] = s.compare_system;
  j["workload"] = workload::spec_to_json(s.workload);
  return j;
}

std::string scenario_to_string(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

Scenario default_scenario() {
  const std::string* text = find_embedded("examples/default.json");
  if (!text) throw std::logic_error("examples/default.json is not embedded");
  return parse_scenario(*text, "examples/default.json");
}

}  // namespace trnsim
