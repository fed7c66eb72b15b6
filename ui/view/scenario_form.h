// What the Scenario panel shows, from the core's field table (core/scenario/schema.h) --
// no ImGui here, so it is unit-tested natively (tests/unit/test_ui_view.cpp):
//   - the sections in table order, each with its fields, and whether a field is shown
//     for a scenario (its shown_when condition);
//   - a field's control in display units (range, log scale, unit, printf format);
//   - the built-in assumption an optional field falls back to, as the core used it
//     (the result's assumptions, never a value typed here);
//   - the system picker's entries (from the data files) and edits of a system name
//     through hw::parse_system_name / format_system_name (the one grammar).
// A field another helper adds to the table appears in its section automatically.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/schema.h"
#include "workload/workload.h"

namespace trnsim::ui {

struct FormSection {
  std::string name;                  // "" for the top-level fields (the scenario's name)
  std::vector<const Field*> fields;  // table order
};
// Every field a person sets, grouped by section in the order the table first names each
// section; the format version (not a setting) is left out.
const std::vector<FormSection>& form_sections();
// The field's shown_when ("workload.kind=training") holds for the scenario ("" always).
bool field_shown(const Field& field, const Scenario& scenario);

// "path: a -> b" for every field of the table whose values differ (Compare's list).
std::vector<std::string> scenario_differences(const Scenario& a, const Scenario& b);

// The form as data for the page's tests (window.trnsim.fields()): every field of every
// section in order, {path, section, label, shown} with shown for this scenario.
json form_json(const Scenario& scenario);

// A numeric field's control: the table's range in display units.
struct FieldControl {
  double lo = 0, hi = 0;  // display units
  double scale = 1;       // display value = stored value x scale
  std::string unit;       // display unit ("us", "W", "tokens", "" for ratios)
  bool log = false;
  std::string format;     // printf format of the value with its unit ("%d tokens", "%.3g us")
};
FieldControl field_control(const Field& field);

// The assumption the core used for an optional field left null (the result's assumption
// whose name is the field's path below "workload."), or null when the result has none.
const workload::Assumption* builtin_assumption(const Field& field, const workload::Result& result);

// ---- the system picker ---------------------------------------------------------------
struct SystemChoice {
  enum Group { system = 0, cluster = 1, chip = 2 };  // the order the picker lists them
  std::string name, display, fabric;
  Group group = system;
  int chips = 0, chips_per_domain = 0, domains = 1;
  int max_ultraservers = 1;               // hw::kMaxChips / chips_per_domain
  std::vector<std::string> alternatives;  // hw::alternative_names
};
const char* group_title(SystemChoice::Group group);
// Every built-in system, systems first, then clusters, then single chips.
const std::vector<SystemChoice>& system_choices();
const SystemChoice* find_system_choice(const std::string& base);
// A system name with the number of UltraServers set (a system's own count writes the base
// name; a cluster keeps ":N"), or an alternative chosen or dropped. Through the core's
// grammar; a name it cannot parse is returned unchanged.
std::string with_ultraservers(const std::string& name, int n);
// A system to show beside `system` when the scenario names none: the field table's default
// comparison system, or its default system when `system` is that one.
std::string other_system(const std::string& system);
std::string with_alternative(const std::string& name, const std::string& alternative, bool on);

}  // namespace trnsim::ui
