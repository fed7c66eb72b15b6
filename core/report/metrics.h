// The one table of result metrics: every headline figure a workload evaluation yields, with
// its key, label, unit, which direction is better and how to read it. The text and JSON
// reports' ratio sections, `trnsim compare`, `trnsim sweep`'s columns, the plots' axis
// labels, the Python module and every playground view read metrics from here.
//
// The ratio convention, everywhere: ratio = first / second (primary / comparison system,
// A / B in compare) of the metric's value; `better` says which way wins. A ratio of 0.24x
// on time to first token means the first system takes 0.24 of the second's time.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "workload/workload.h"

namespace trnsim::serve {
struct Result;
}

namespace trnsim {

enum class Better { higher, lower, neither };

struct Metric {
  std::string key;    // "tpot_s": the name in sweeps, compare --json, ratios, plots
  std::string label;  // "time per output token"
  std::string unit;   // "s", "B", "fraction", "USD", "W", "tokens/s", "tokens/s/MW"
  Better better = Better::neither;
  std::string help;   // how to read it
  std::string json_path;  // where the full report's result holds it ("inference.tpot_s")
  bool summary = true;    // a column of `trnsim sweep`'s summary lines
  // The value for a result, or nothing when the metric does not apply to its kind.
  std::function<std::optional<double>(const workload::Result&)> of;
  // Serving metrics (`trnsim serve`, core/serve/serve.h): the value for a serving run; `of`
  // gives nothing for them, and this is empty for the workload metrics.
  std::function<std::optional<double>(const serve::Result&)> of_serve;
};

// Every metric, in the order reports list them (the serving metrics last, keys "serve_...").
const std::vector<Metric>& metrics();
// Only the serving metrics, in order.
std::vector<const Metric*> serve_metrics();
// The metric with this key; InputError naming `field` (with the closest key) when unknown.
const Metric& find_metric(const std::string& key, const std::string& field = "metric");
const Metric* find_metric_or_null(const std::string& key);
// The ratio convention's one rule: first / second when both figures exist and are positive,
// nothing otherwise (a zero or missing figure has no meaningful ratio). The reports' ratio
// sections, `trnsim compare` and the page's metric rows all take their ratios from here.
std::optional<double> metric_ratio(std::optional<double> first, std::optional<double> second);
// "A", "B", "=" or "-" (neither better, or no ratio) for first / second = r.
std::string better_side(const Metric& m, double r);
// The metric's value formatted by its unit (common/format.h).
std::string format_metric(const Metric& m, double v);

}  // namespace trnsim
