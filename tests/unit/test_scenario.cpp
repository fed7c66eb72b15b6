// The Scenario: strict reading with errors naming the field, canonical writing, and the
// default scenario from examples/default.json.
#include <catch2/catch.hpp>

#include "embedded.h"
#include "link/link.h"
#include "scenario/scenario.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_scenario {

using trnsim::json;

static std::string scenario_error(const std::string& text) {
  try {
    trnsim::parse_scenario(text, "s.json");
  } catch (const trnsim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_CASE("the default scenario is examples/default.json and round trips") {
  trnsim::Scenario s = trnsim::default_scenario();
  CHECK(s.system == "trn3-gen2-ultraserver");
  CHECK(s.compare_system == "trn2-ultraserver");
  std::string text = trnsim::scenario_to_string(s);
  trnsim::Scenario back = trnsim::parse_scenario(text, "canonical");
  CHECK(trnsim::scenario_to_string(back) == text);
  CHECK(back.workload == s.workload);
  // Through a link and back.
  trnsim::Scenario via_link = trnsim::scenario_from_json(trnsim::decode_fragment(
      trnsim::make_link(trnsim::scenario_to_json(s))));
  CHECK(trnsim::scenario_to_string(via_link) == text);
}

TEST_CASE("every example scenario parses and is canonical after one round") {
  for (const auto& key : trnsim::embedded_keys("examples/")) {
    if (key.find('/', 9) != std::string::npos) continue;  // examples/models/, examples/sweeps/ hold other files
    INFO(key);
    trnsim::Scenario s = trnsim::parse_scenario(*trnsim::find_embedded(key), key);
    std::string text = trnsim::scenario_to_string(s);
    CHECK(trnsim::scenario_to_string(trnsim::parse_scenario(text, key)) == text);
  }
}

TEST_CASE("minimal scenarios get the defaults") {
  trnsim::Scenario s = trnsim::parse_scenario("{}", "s.json");
  CHECK(s.system == "trn3-gen2-ultraserver");
  CHECK(s.workload == trnsim::default_scenario().workload);
  trnsim::Scenario t = trnsim::parse_scenario(R"({"compare_system": ""})", "s.json");
  CHECK(t.compare_system.empty());
}

TEST_CASE("bad scenarios name the field and the problem") {
  CHECK(scenario_error("{\"sytem\": \"trainium3\"}") == "sytem: unknown key (did you mean 'system'?)");
  CHECK(scenario_error("{\"version\": 2}") == "version: 2 is above 1 (this trnsim reads scenario version 1)");
  CHECK(scenario_error("{\"system\": 3}") == "system: expected a string, got number");
  CHECK(scenario_error("{\"system\": \"\"}") == "system: must name a system");
  CHECK(scenario_error("{\"system\": \"trn4\"}").rfind("system: ", 0) == 0);
  CHECK(scenario_error("[1, 2]") == "scenario: expected an object, got array");
  CHECK(scenario_error("{\"name\": ").rfind("s.json: not valid JSON at byte", 0) == 0);
  CHECK(scenario_error("{\"workload\": {\"kind\": \"infrence\"}}").rfind("workload.kind: ", 0) == 0);
}

}  // namespace unit_scenario
