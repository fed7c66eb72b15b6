// The ratio rule and the formatting of a metric's value (metric.h).
#include "common/metric.h"

#include "common/format.h"

namespace trnsim {

std::optional<double> metric_ratio(std::optional<double> first, std::optional<double> second) {
  if (first && second && *first > 0 && *second > 0) return *first / *second;
  return std::nullopt;
}

std::string better_side(const MetricMeta& m, double r) {
  if (m.better == Better::neither || !(r > 0)) return "-";
  if (r == 1.0) return "=";
  return (r > 1.0) == (m.better == Better::higher) ? "A" : "B";
}

std::string format_metric(const MetricMeta& m, double v) {
  if (m.unit == "tokens/s" || m.unit == "tokens/s/MW") return fmt::number(v);
  if (m.unit == "chips") return fmt::count(v) + " chips";
  return fmt::value(m.unit, v);
}

}  // namespace trnsim
