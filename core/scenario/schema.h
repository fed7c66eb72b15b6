// The one table of scenario fields. Every field of a Scenario is one row here -- its path,
// type, default, range or choices, unit, label, help and where the playground shows it --
// and every consumer iterates this table instead of spelling fields again:
//   - parse_scenario / scenario_from_json (strict reading: unknown keys, types, ranges),
//   - scenario_to_json (canonical writing: every field, table order, defaults filled),
//   - equality (operator== on Scenario),
//   - set_field (sweeps, the Python module, the playground's controls),
//   - the Scenario panel's widgets (label, range, log scale, choices, unit, help).
// Modelled on TensorFlow Playground's state.ts PROPS list (src/state.ts of tensorflow/playground).
//
// A field's JSON key is the last part of its path; the parts before it are objects of the
// scenario file. An object missing from a file takes every default below it, except
// "workload": a scenario without one runs the default scenario's workload
// (examples/default.json).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim {

struct Scenario;

enum class FieldType {
  integer,          // whole number between lo and hi
  number,           // finite number between lo and hi
  boolean,
  string,           // at most hi.value characters
  choice,           // one of choices()
  optional_number,  // null (use the built-in assumption named in help) or a number between lo and hi
  system,           // a system name (hw::load_system grammar) or a data-file path
  model,            // a bundled model name or an inline Hugging Face config.json object
  integer_list,     // array of whole numbers in [lo, hi] (at most max_items)
};

struct Field {
  std::string path;   // "workload.inference.batch"
  FieldType type = FieldType::number;
  json default_value; // what a missing key gets; null for required fields (model)
  // Numbers and integers (and integer lists' entries): the range, each end open or closed
  // and physical or trnsim's limit, with the reason the error gives (common/fields.h). This
  // table is the one place a scenario's bounds live: the core reads its values as checked.
  Bound lo, hi;
  std::function<std::vector<std::string>()> choices;  // choice fields
  std::string unit;   // SI unit of the stored value ("s", "W", "tokens", "" for ratios)
  std::string label;  // short, for controls and tables
  std::string help;   // one or two sentences: what it means, where the default comes from
  std::string section;     // the Scenario panel's group
  std::string shown_when;  // "workload.kind=training": the panel shows it only then ("" always)
  bool log_scale = false;  // sizes spanning decades: logarithmic slider
  bool allow_empty = false;  // system fields: "" means none (compare_system)
  double display_scale = 1;  // the panel shows value x display_scale in display_unit
  std::string display_unit;
  std::string calibrated;    // non-empty: the default is fitted; says to which PERF.md rows
  std::size_t max_items = 0; // integer_list
  // Storage in the typed Scenario (set by the table's binding helpers).
  std::function<json(const Scenario&)> get;
  std::function<void(Scenario&, const json&)> put;  // the value is already validated
  std::string key() const;     // last part of the path
  std::string parent() const;  // the object holding it ("" = the top level)
};

// Every field, in canonical order (the order scenario_to_json writes them).
const std::vector<Field>& scenario_fields();
// The field at `path`; InputError naming the path (with the closest field) when unknown.
const Field& find_field(const std::string& path);
const Field* find_field_or_null(const std::string& path);

// Checks `value` against the field's type and range and returns it in canonical form
// (e.g. 8.0 -> 8 for an integer). Errors name `path` (default: the field's own path).
json validate_field(const Field& field, const json& value, const std::string& path = "");
// Sets one field of a scenario, validated: what sweeps, the Python module and the
// playground's controls call. InputError naming the path.
void set_field(Scenario& scenario, const std::string& path, const json& value);
json get_field(const Scenario& scenario, const std::string& path);
// True when the scenario's value of `path` is the table's default.
bool is_default(const Scenario& scenario, const std::string& path);

// A scenario with every field at its default and the default scenario's workload model.
Scenario scenario_defaults();

}  // namespace trnsim
