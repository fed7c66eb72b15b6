// The serving simulator's rows of the scenario field table: every field under "serve".
// core/scenario mounts them into the one table; what a row holds: core/common/field_table.h.
#pragma once
#include <vector>

#include "common/field_table.h"
#include "serve/spec.h"

namespace trnsim::serve {

// Every row, in canonical order (paths are full: "serve.rate").
const std::vector<FieldOf<Spec>>& fields();

}  // namespace trnsim::serve
