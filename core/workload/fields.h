// The workload's rows of the scenario field table: every field under "workload" -- model and
// precision, placement, sizes per kind, assumptions (with the calibration notes of fitted
// defaults) and the Neuron execution settings. core/scenario mounts them into the one table;
// what a row holds: core/common/field_table.h.
#pragma once
#include <string>
#include <vector>

#include "common/field_table.h"
#include "workload/spec.h"

namespace trnsim::workload {

// Every row, in canonical order (paths are full: "workload.inference.batch").
const std::vector<FieldOf<Spec>>& fields();
// The row at `path` (a programming error when there is none).
const FieldMeta& field(const std::string& path);

}  // namespace trnsim::workload
