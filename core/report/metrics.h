// The one table of result metrics, assembled from their owners: the workload metrics
// (core/workload/metrics.h: every headline figure of `trnsim run`) and the serving metrics
// (core/serve/metrics.h: `trnsim serve`). The text and JSON reports' ratio sections,
// `trnsim compare`, `trnsim sweep`'s columns, the plots' axis labels, the Python module and
// every playground view read metrics from here. What a metric is, and the ratio convention:
// core/common/metric.h.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/metric.h"
#include "workload/workload.h"

namespace trnsim::serve {
struct Result;
}

namespace trnsim {

// A metric of either owner: `of` gives the workload value (nothing for the serving metrics),
// `of_serve` the serving value (empty for the workload metrics).
struct Metric : MetricMeta {
  std::function<std::optional<double>(const workload::Result&)> of;
  std::function<std::optional<double>(const serve::Result&)> of_serve;
};

// Every metric, in the order reports list them (the serving metrics last, keys "serve_...").
const std::vector<Metric>& metrics();
// Only the serving metrics, in order.
std::vector<const Metric*> serve_metrics();
// The metric with this key; InputError naming `field` (with the closest key) when unknown.
const Metric& find_metric(const std::string& key, const std::string& field = "metric");
const Metric* find_metric_or_null(const std::string& key);
}  // namespace trnsim
