// The workload's result metrics: every headline figure of `trnsim run` for the three kinds
// (inference, training, video), the memory, the economics and the time shares, each with its
// meaning (core/common/metric.h) and its value for a Result. core/report/metrics.h assembles
// them with the serving metrics into the one table.
#pragma once
#include <vector>

#include "common/metric.h"
#include "workload/workload.h"

namespace trnsim::workload {

// In the order reports list them.
const std::vector<MetricOf<Result>>& metrics();

}  // namespace trnsim::workload
