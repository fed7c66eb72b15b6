// `trnsim capacity` of a Scenario (capacity.h).
#include "report/capacity.h"

namespace trnsim::capacity {

Result plan(const Scenario& scenario, const Options& options) {
  Result R = search(scenario.capacity, scenario.workload, scenario.serve, options);
  R.name = scenario.name;
  return R;
}

}  // namespace trnsim::capacity
