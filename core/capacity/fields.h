// The capacity planner's rows of the scenario field table: its search space under "capacity"
// (`trnsim capacity`). core/scenario mounts them into the one table; what a row holds:
// core/common/field_table.h.
#pragma once
#include <vector>

#include "capacity/spec.h"
#include "common/field_table.h"

namespace trnsim::capacity {

// Every row, in canonical order (paths are full: "capacity.tp").
const std::vector<FieldOf<Spec>>& fields();

}  // namespace trnsim::capacity
