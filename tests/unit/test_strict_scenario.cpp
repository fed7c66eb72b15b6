// Input strictness, scenarios, driven by the canonical JSON and by the field table so that
// no object or field is missed:
//  - every object of every example's canonical JSON, and every object the field table
//    defines, refuses an unknown key with an InputError naming exactly that key's path;
//  - every field refuses a value of the wrong type and values just outside its range (the
//    next representable number beyond lo and hi), naming the field, and accepts lo and hi
//    where they are closed (test_field_bounds.cpp: the messages and the bounds' meaning);
//  - a key given twice is refused, naming its path (JSON parsers would keep one silently).
// The inline Hugging Face config under workload.model follows its own documented policy
// (unknown keys become warnings naming them): test_strict_data.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "embedded.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_strict_scenario {

using trnsim::json;

namespace {

const char* kUnknown = "zz_unknown_key";

// The InputError scenario JSON j raises: its field and its message ("(no error)", "" when none).
std::pair<std::string, std::string> input_error(const json& j) {
  try {
    trnsim::scenario_from_json(j);
  } catch (const trnsim::InputError& e) {
    return {e.field(), e.what()};
  }
  return {"(no error)", ""};
}
std::string error_field(const json& j) { return input_error(j).first; }
std::string error_message(const json& j) { return input_error(j).second; }

std::string error_field_text(const std::string& text) {
  try {
    trnsim::parse_scenario(text, "s.json");
  } catch (const trnsim::InputError& e) {
    return e.field();
  }
  return "(no error)";
}

// Paths of every object in j (the root is ""), not descending into an inline model config.
void objects(const json& j, const std::string& path, std::vector<std::string>& out) {
  if (!j.is_object()) return;
  out.push_back(path);
  if (path == "workload.model") return;
  for (auto it = j.begin(); it != j.end(); ++it) objects(it.value(), trnsim::field_path(path, it.key()), out);
}

json* at_path(json& j, const std::string& path) {
  json* node = &j;
  std::size_t pos = 0;
  while (!path.empty() && pos <= path.size()) {
    auto dot = path.find('.', pos);
    node = &(*node)[path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos)];
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return node;
}

std::vector<std::string> example_keys() {
  std::vector<std::string> keys;
  for (const auto& key : trnsim::embedded_keys("examples/"))
    if (key.find('/', 9) == std::string::npos) keys.push_back(key);
  return keys;
}

json canonical_default() { return trnsim::scenario_to_json(trnsim::default_scenario()); }

}  // namespace

TEST_CASE("every object of every example refuses an unknown key, naming its path", "[strict]") {
  std::size_t checked = 0;
  for (const auto& key : example_keys()) {
    json canon = trnsim::scenario_to_json(trnsim::parse_scenario(*trnsim::find_embedded(key), key));
    std::vector<std::string> paths;
    objects(canon, "", paths);
    for (const auto& p : paths) {
      if (p == "workload.model") continue;  // a Hugging Face config: warnings (test_strict_data)
      json bad = canon;
      (*at_path(bad, p))[kUnknown] = 1;
      INFO(key << ": " << (p.empty() ? "(root)" : p));
      CHECK(error_field(bad) == trnsim::field_path(p, kUnknown));
      ++checked;
    }
  }
  CHECK(checked >= 7 * 8);  // 7 examples x (root, workload and its 6 objects)
}

TEST_CASE("every object of the field table refuses an unknown key, and is in the canonical JSON", "[strict]") {
  std::set<std::string> parents;
  for (const auto& f : trnsim::scenario_fields()) {
    for (std::string p = f.parent();; p = p.substr(0, p.rfind('.'))) {
      parents.insert(p);
      if (p.find('.') == std::string::npos) {
        parents.insert("");
        break;
      }
    }
  }
  std::vector<std::string> in_json;
  objects(canonical_default(), "", in_json);
  std::set<std::string> written(in_json.begin(), in_json.end());
  written.erase("workload.model");  // a bundled name in the default scenario; an object when inline
  CHECK(written == parents);
  for (const auto& p : parents) {
    json bad = canonical_default();
    (*at_path(bad, p))[kUnknown] = true;
    INFO(p);
    CHECK(error_field(bad) == trnsim::field_path(p, kUnknown));
  }
}

TEST_CASE("every field refuses the wrong type and values beyond its range, naming the field", "[strict]") {
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& f : trnsim::scenario_fields()) {
    INFO(f.path);
    auto with = [&](const json& v) {
      json j = canonical_default();
      *at_path(j, f.path) = v;
      return j;
    };
    // No field takes a list of objects.
    CHECK(error_field(with(json::array({json::object()}))) ==
          (f.type == trnsim::FieldType::integer_list ? f.path + "[0]" : f.path));
    switch (f.type) {
      case trnsim::FieldType::integer:
        CHECK(error_field(with(f.lo.value - 1)) == f.path);
        CHECK(error_field(with(f.hi.value + 1)) == f.path);
        CHECK(error_field(with(f.lo.value + 0.5)) == f.path);
        CHECK(error_field(with("1")) == f.path);
        CHECK(error_field(with(f.lo.value)) == "(no error)");  // (version: any but this trnsim's is refused)
        CHECK(error_field(with(f.hi.value)) == "(no error)");
        break;
      case trnsim::FieldType::number:
      case trnsim::FieldType::optional_number:
        CHECK(error_field(with(std::nextafter(f.lo.value, -inf))) == f.path);
        CHECK(error_field(with(std::nextafter(f.hi.value, inf))) == f.path);
        CHECK(error_field(with("0.5")) == f.path);
        CHECK(error_field(with(true)) == f.path);
        CHECK(error_field(with(f.lo.value)) == (f.lo.open ? f.path : "(no error)"));
        CHECK(error_field(with(f.hi.value)) == (f.hi.open ? f.path : "(no error)"));
        if (f.type == trnsim::FieldType::optional_number) CHECK(error_field(with(nullptr)) == "(no error)");
        else CHECK(error_field(with(nullptr)) == f.path);
        break;
      case trnsim::FieldType::boolean:
        CHECK(error_field(with(1)) == f.path);
        CHECK(error_field(with("true")) == f.path);
        break;
      case trnsim::FieldType::string:
        CHECK(error_field(with(3)) == f.path);
      {
        const auto max_chars = static_cast<std::size_t>(f.hi.value);
        const std::string too_long(max_chars + 1, 'x'), at_limit(max_chars, 'x');
        CHECK(error_field(with(too_long)) == f.path);
        CHECK(error_message(with(too_long)).find("longer than") != std::string::npos);
        CHECK(error_field(with(f.default_value)) == "(no error)");
        // At the limit the length passes. Fields whose value names something -- a serving
        // stack (built-in or a file), a bundled draft model -- then refuse a name that does
        // not exist, naming the field; free text (a title) takes it.
        static const std::set<std::string> names = {"workload.stack", "workload.speculation.draft_model"};
        CHECK(error_field(with(at_limit)) == (names.count(f.path) ? f.path : std::string("(no error)")));
        CHECK(error_message(with(at_limit)).find("longer than") == std::string::npos);
        break;
      }
      case trnsim::FieldType::choice:
        CHECK(error_field(with("zz-not-a-choice")) == f.path);
        CHECK(error_field(with(1)) == f.path);
        for (const auto& c : f.choices()) CHECK(error_field(with(c)) == "(no error)");
        break;
      case trnsim::FieldType::system:
        CHECK(error_field(with("zz-no-such-system")) == f.path);
        CHECK(error_field(with(144)) == f.path);
        break;
      case trnsim::FieldType::model:
        CHECK(error_field(with("zz-no-such-model")) == f.path);
        CHECK(error_field(with(3)) == f.path);
        break;
      case trnsim::FieldType::integer_list:
        CHECK(error_field(with(json::array({f.lo.value - 1}))) == f.path + "[0]");
        CHECK(error_field(with(7)) == f.path);
        CHECK(error_field(with(json(std::vector<int>(f.max_items + 1, static_cast<int>(f.lo.value))))) == f.path);
        break;
    }
  }
}

TEST_CASE("a key given twice is refused, naming its path", "[strict]") {
  CHECK(error_field_text(R"({"system": "trn2-ultraserver", "system": "trn3-gen2-ultraserver"})") == "system");
  CHECK(error_field_text(R"({"workload": {"model": "Llama-3.1-8B", "inference": {"batch": 1, "batch": 2}}})") ==
        "workload.inference.batch");
  // Inside arrays (an inline model config's lists), the index is named.
  CHECK(error_field_text(R"({"workload": {"model": {"mlp_only_layers": [], "x": [{"a": 1}, {"b": 2, "b": 3}]}}})") ==
        "workload.model.x[1].b");
  // The same key in different objects is fine.
  CHECK(error_field_text(R"({"workload": {"model": "Llama-3.1-8B", "inference": {"batch": 2}, "training": {"global_batch": 8}}})") ==
        "(no error)");
}

}  // namespace unit_strict_scenario
