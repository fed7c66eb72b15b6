// The metric table the Report and Compare panels draw (ImGui): rows from ui/view/
// metric_rows.h -- the core's metric table, values formatted by the core, ratios first /
// second coloured by which side the metric's better direction favours.
#pragma once
#include <string>
#include <vector>

#include "ui/view/metric_rows.h"

namespace trnsim::ui {

// A table "metric | first | second | first / second" (two columns when `two` is false).
// Probes: probe_prefix + metric key on each first value.
void metric_table(const char* id, const std::vector<MetricRow>& rows, const std::string& first_name,
                  const std::string& second_name, bool two, const char* probe_prefix,
                  const char* ratio_header = "first / second");

}  // namespace trnsim::ui
