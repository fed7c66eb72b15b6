// `trnsim serve` of a whole Scenario: the thin entry the faces call (CLI, Python, page,
// validation), over serve::run(system, workload, serve) (core/serve/serve.h), which knows
// nothing of scenarios. It loads the scenario's system and keeps the scenario's name and
// canonical JSON in the result (the report prints them).
#pragma once
#include <string>

#include "scenario/scenario.h"
#include "serve/serve.h"

namespace trnsim::serve {

// The scenario's serving run (InputError as serve::run).
Result run(const Scenario& scenario, const Options& options = {});

// What a scenario's step model depends on: the canonical scenario without the traffic
// fields (arrivals, rate, lengths, seed, targets, trace, sessions, harness, router, ...),
// plus the mean request lengths (the model's zero-load reference). Stacks read only these
// (core/serve/stack/step_model.h): two scenarios of one key may share a step model (Options::model).
std::string server_key(const Scenario& scenario);

}  // namespace trnsim::serve
