#include "ui/view/metric_rows.h"

#include "common/format.h"

namespace trnsim::ui {

std::vector<MetricRow> metric_rows(const workload::Result& a, const workload::Result* b) {
  std::vector<MetricRow> rows;
  for (const Metric& m : metrics()) {
    MetricRow r;
    r.metric = &m;
    r.first = m.of(a);
    if (b) r.second = m.of(*b);
    if (!r.first && !r.second) continue;
    r.first_text = r.first ? format_metric(m, *r.first) : "-";
    r.second_text = r.second ? format_metric(m, *r.second) : "-";
    r.ratio = metric_ratio(r.first, r.second);
    r.ratio_text = r.ratio ? fmt::ratio(*r.ratio) : "-";
    r.better = r.ratio ? better_side(m, *r.ratio) : "-";
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string better_text(const MetricRow& row, const std::string& first_name, const std::string& second_name) {
  if (row.better == "A") return first_name + " better";
  if (row.better == "B") return second_name + " better";
  return "";
}

}  // namespace trnsim::ui
