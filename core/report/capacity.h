// `trnsim capacity` of a whole Scenario: the thin entry the faces call (CLI, Python), over
// capacity::search(spec, workload, serve) (core/capacity/capacity.h), which knows nothing of
// scenarios. It keeps the scenario's name in the result.
#pragma once
#include "capacity/capacity.h"
#include "scenario/scenario.h"

namespace trnsim::capacity {

// The scenario's capacity plan: its workload, its serve traffic and targets, its capacity
// search space (InputError as capacity::search).
Result plan(const Scenario& scenario, const Options& options = {});
// The plan from its families' outcomes, however they were evaluated (shards merged by the CLI,
// the page's few families per frame): capacity::summarize with the scenario's name.
Result plan_from(const Scenario& scenario, std::vector<Outcome> outcomes);

}  // namespace trnsim::capacity
