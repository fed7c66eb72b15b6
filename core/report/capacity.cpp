// `trnsim capacity` of a Scenario (capacity.h).
#include "report/capacity.h"

#include <utility>

namespace trnsim::capacity {

Result plan(const Scenario& scenario, const Options& options) {
  Result R = search(scenario.capacity, scenario.workload, scenario.serve, options);
  R.name = scenario.name;
  return R;
}

Result plan_from(const Scenario& scenario, std::vector<Outcome> outcomes) {
  Result R = summarize(std::move(outcomes), scenario.workload, scenario.serve, scenario.capacity);
  R.name = scenario.name;
  return R;
}

}  // namespace trnsim::capacity
