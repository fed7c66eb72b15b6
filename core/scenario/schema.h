// The one table of scenario fields, assembled from its owners. Every field of a Scenario is one row here -- its path,
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

#include "common/field_table.h"

namespace trnsim {

struct Scenario;

// A row over the whole scenario: the owners' rows (core/workload/fields.h,
// core/serve/fields.h) mounted at their objects, and the top-level ones (version, name,
// systems). What a row holds: core/common/field_table.h.
using Field = FieldOf<Scenario>;

// Every field, in canonical order (the order scenario_to_json writes them).
const std::vector<Field>& scenario_fields();
// The field at `path`; InputError naming the path (with the closest field) when unknown.
const Field& find_field(const std::string& path);
const Field* find_field_or_null(const std::string& path);

// Checks `value` against the field's type and range and returns it in canonical form
// (e.g. 8.0 -> 8 for an integer). Errors name `path` (default: the field's own path).
json validate_field(const FieldMeta& field, const json& value, const std::string& path = "");
// Sets one field of a scenario, validated: what sweeps, the Python module and the
// playground's controls call. InputError naming the path.
void set_field(Scenario& scenario, const std::string& path, const json& value);
json get_field(const Scenario& scenario, const std::string& path);
// True when the scenario's value of `path` is the table's default.
bool is_default(const Scenario& scenario, const std::string& path);

// A scenario with every field at its default and the default scenario's workload model.
Scenario scenario_defaults();

}  // namespace trnsim
