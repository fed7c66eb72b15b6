// The Report: what a Scenario evaluates to. For the scenario's system and, when the
// scenario names one, the comparison system: the system's derived aggregates and the
// workload's result priced on it (core/workload), plus the ratios between the two.
// One writer for each form -- JSON (`trnsim run --json`, window.trnsim.report()) and
// text (`trnsim run`) -- used by the CLI and the playground alike.
#pragma once
#include <optional>
#include <string>

#include "hw/system.h"
#include "scenario/scenario.h"
#include "workload/workload.h"

namespace trnsim {

struct SystemReport {
  hw::System system;
  std::optional<workload::Result> result;  // empty when the workload cannot run there
  std::string error;                       // why not (comparison system only)
};

struct Report {
  Scenario scenario;
  SystemReport primary;
  std::optional<SystemReport> compare;
};

// Evaluates a scenario. An impossible workload on the primary system (does not fit,
// bad placement) throws InputError naming the field; on the comparison system it is
// reported in compare->error instead.
Report evaluate(const Scenario& scenario);
json report_to_json(const Report& report);
std::string report_to_json_string(const Report& report);  // dump(2) + "\n"
std::string report_to_text(const Report& report);

}  // namespace trnsim
