// What a result metric is, for the owners that declare theirs: its key, label, unit, which
// direction is better, how to read it and where the JSON report holds it, plus the value for
// the owner's result. core/workload/metrics.cpp declares the workload metrics (over
// workload::Result), core/serve/metrics.cpp the serving ones (over serve::Result);
// core/report/metrics.h assembles the one table the reports, `trnsim compare`, sweeps, plots,
// Python and the page read.
//
// The ratio convention, everywhere: ratio = first / second (primary / comparison system,
// A / B in compare) of the metric's value; `better` says which way wins. A ratio of 0.24x
// on time to first token means the first system takes 0.24 of the second's time.
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace trnsim {

enum class Better { higher, lower, neither };

struct MetricMeta {
  std::string key;    // "tpot_s": the name in sweeps, compare --json, ratios, plots
  std::string label;  // "time per output token"
  std::string unit;   // "s", "B", "fraction", "USD", "W", "tokens/s", "tokens/s/MW"
  Better better = Better::neither;
  std::string help;   // how to read it
  std::string json_path;  // where the full report's result holds it ("inference.tpot_s")
  bool summary = true;    // a column of `trnsim sweep`'s summary lines
};

// A metric of an owner's result: the value, or nothing when it does not apply (another kind).
template <class Result>
struct MetricOf : MetricMeta {
  std::function<std::optional<double>(const Result&)> of;
};

// The ratio convention's one rule: first / second when both figures exist and are positive,
// nothing otherwise (a zero or missing figure has no meaningful ratio). The reports' ratio
// sections, `trnsim compare` and the page's metric rows all take their ratios from here.
std::optional<double> metric_ratio(std::optional<double> first, std::optional<double> second);
// "A", "B", "=" or "-" (neither better, or no ratio) for first / second = r.
std::string better_side(const MetricMeta& m, double r);
// The metric's value formatted by its unit (common/format.h).
std::string format_metric(const MetricMeta& m, double v);

}  // namespace trnsim
