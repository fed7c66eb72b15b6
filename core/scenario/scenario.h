// The Scenario: the whole state of a trnsim evaluation -- which system, which
// system to compare it with, and the workload (model, sizes, precisions, placement,
// assumptions). One value shared by the CLI (`trnsim run FILE`), the playground (its
// URL fragment) and links (`trnsim link`): the UI edits it, the core evaluates it,
// the link codec carries it. There is no second copy of the truth.
//
// The file format is JSON:
//   { "version": 1, "name": "...", "system": "trn3-gen2-ultraserver",
//     "compare_system": "trn2-ultraserver", "workload": { ... see core/workload/ ... } }
// Reading is strict (unknown keys, wrong types and out-of-range values are errors that
// name the field); writing is canonical (every field, defaults filled, fixed order), so
// parse(to_json(s)) == s and two equal scenarios print identically.
#pragma once
#include <string>

#include "common/fields.h"
#include "workload/workload.h"

namespace trnsim {

constexpr int kScenarioVersion = 1;

struct Scenario {
  std::string name;
  std::string system = "trn3-gen2-ultraserver";
  std::string compare_system = "trn2-ultraserver";  // "" = no comparison
  workload::Spec workload;
};

// Strict reading; `what` names the source (a file name, "link") in syntax errors.
Scenario parse_scenario(const std::string& text, const std::string& what);
Scenario scenario_from_json(const json& j);
json scenario_to_json(const Scenario& s);
// The canonical text form: scenario_to_json(s).dump(2) plus a newline.
std::string scenario_to_string(const Scenario& s);
// examples/default.json (embedded in the core).
Scenario default_scenario();

}  // namespace trnsim
