// The serving metrics: what `trnsim serve` measures (definitions in core/serve/serve.h), each
// with its meaning (core/common/metric.h) and its value for a serve::Result; keys "serve_...".
// core/report/metrics.h assembles them after the workload metrics into the one table.
#pragma once
#include <vector>

#include "common/metric.h"
#include "serve/serve.h"

namespace trnsim::serve {

// The latency figures of a serving run, in the order every view lists them: the key of the
// metric table's "serve_<key>_<stat>_s" metrics, the label, the Summary it reads and what it
// measures; and the statistics of each that the metric table and the latency table carry.
struct LatencyKind {
  const char* key;    // "ttft"
  const char* label;  // "TTFT"
  Summary Result::*summary;
  const char* help;
};
const std::vector<LatencyKind>& latency_kinds();
struct LatencyStat {
  const char* name;  // "p50"
  double Summary::*value;
};
const std::vector<LatencyStat>& latency_stats();  // mean, p50, p90, p99

// In the order reports list them.
const std::vector<MetricOf<Result>>& metrics();

}  // namespace trnsim::serve
