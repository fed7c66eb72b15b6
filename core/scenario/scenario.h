// The Scenario: the whole state of a trnsim evaluation -- which system, which system to
// compare it with, and the workload (model, sizes, precisions, placement, assumptions).
// One value shared by the CLI (`trnsim run FILE`), the playground (its URL fragment), the
// Python module and links (`trnsim link`): the UI edits it, the core evaluates it, the link
// codec carries it. There is no second copy of the truth.
//
// The file format is JSON:
//   { "version": 1, "name": "...", "system": "trn3-gen2-ultraserver",
//     "compare_system": "trn2-ultraserver", "workload": { ... }, "serve": { ... }, "capacity": { ... } }
// Every field is a row of the field table (core/scenario/schema.h), which does the reading
// (strict: unknown keys, wrong types and out-of-range values are errors that name the
// field), the writing (canonical: every field, defaults filled, fixed order, so
// parse(to_json(s)) == s and two equal scenarios print identically) and the comparing.
#pragma once
#include <functional>
#include <string>

#include "common/fields.h"
#include "capacity/spec.h"
#include "scenario/schema.h"
#include "serve/spec.h"
#include "workload/spec.h"

namespace trnsim {

constexpr int kScenarioVersion = 1;

struct Scenario {
  std::string name;
  std::string system;
  std::string compare_system;  // "" = no comparison
  workload::Spec workload;
  serve::Spec serve;  // the serving simulator's settings (`trnsim serve`, core/serve/)
  capacity::Spec capacity;  // the capacity planner's search space (`trnsim capacity`, core/capacity/)
};
// Field by field through the table (the imported model copy is not compared).
bool operator==(const Scenario& a, const Scenario& b);
inline bool operator!=(const Scenario& a, const Scenario& b) { return !(a == b); }

// Reads a file that a scenario names by path -- "workload.model": "configs/my-model.json", a
// config.json beside the scenario file -- returning its text, or an InputError naming `field`.
using ScenarioFiles = std::function<std::string(const std::string& path, const std::string& field)>;
// Files relative to `dir` (the scenario file's folder; "" = the working directory), each read
// bounded by kMaxJsonInputBytes.
ScenarioFiles scenario_files_in(const std::string& dir);
// The folder of a scenario file's path ("" for a bare name or "-").
std::string scenario_dir(const std::string& path);
// Whether a "workload.model" string names a config file (a path, or a name ending in .json)
// rather than a bundled model.
bool names_a_model_file(const std::string& model);
// The config.json object a "workload.model" path names, read through `files`; an InputError
// naming `field` when there are no files, the file is missing, or it is not a JSON object.
json read_model_file(const std::string& path, const ScenarioFiles& files, const std::string& field);
// A scenario object's "workload.model" path replaced by the config it names (nothing to do
// for a bundled name or an inline config).
void inline_model_file(json& scenario, const ScenarioFiles& files);

// Strict reading; `what` names the source (a file name, "link") in syntax errors. `files`
// reads what the scenario names by path; empty where there is no file system (the page, a
// link, stdin), and a scenario naming a file is then an error that says to paste it inline.
Scenario parse_scenario(const std::string& text, const std::string& what, const ScenarioFiles& files = {});
Scenario scenario_from_json(const json& j);
json scenario_to_json(const Scenario& s);
// The canonical text form: scenario_to_json(s).dump(2) plus a newline.
std::string scenario_to_string(const Scenario& s);
// examples/default.json (embedded in the core).
const Scenario& default_scenario();
// A scenario whose workload is `workload` (a scenario file's "workload" object), every
// other field at its default: for callers that describe only a workload (validation rows).
Scenario scenario_with_workload(const json& workload);
// The same for the workload part alone: read, write, compare (through the field table).
workload::Spec parse_workload(const json& workload);
json workload_to_json(const workload::Spec& spec);

}  // namespace trnsim

namespace trnsim::workload {
bool operator==(const Spec& a, const Spec& b);
inline bool operator!=(const Spec& a, const Spec& b) { return !(a == b); }

}  // namespace trnsim
