// The metrics of one or two results as the Report and Compare panels list them: every
// metric of the core's table (core/report/metrics.h: label, unit, better direction, help)
// that applies to either result, its values formatted by the core (format_metric), and
// the ratio with the core's convention -- first / second (primary / comparison system in
// the Report, A / B in Compare), better_side saying which side wins. The same text
// `trnsim compare` and the text report print. No ImGui (tests/unit/test_ui_view.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "report/metrics.h"
#include "workload/workload.h"

namespace trnsim::ui {

struct MetricRow {
  const Metric* metric = nullptr;
  std::optional<double> first, second;
  std::string first_text, second_text;  // "-" when the metric does not apply
  std::optional<double> ratio;          // first / second when both are positive
  std::string ratio_text;               // "0.24x", "-" without a ratio
  std::string better;                   // better_side: "A" (first), "B" (second), "=", "-"
};

// Rows for `first` alone (second null: no ratios) or for both, in the table's order.
std::vector<MetricRow> metric_rows(const workload::Result& first, const workload::Result* second);
// "A better", "B better" or "" with the sides' names in place of A and B.
std::string better_text(const MetricRow& row, const std::string& first_name, const std::string& second_name);

}  // namespace trnsim::ui
