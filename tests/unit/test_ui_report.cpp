// The Report, Compare, Timeline, Roofline and MX lab panels' data (ui/view/metric_rows.h,
// timeline_view.h, roofline_points.h, precision_variants.h): metrics, texts and ratios
// are the core's (the JSON report's ratios, format_metric); the timeline lanes hold
// exactly the schedule's spans; points and variants come from the core's results.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "embedded.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "hw/system.h"
#include "ui/view/metric_rows.h"
#include "ui/view/precision_variants.h"
#include "ui/view/roofline_points.h"
#include "ui/view/timeline_view.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_report {

using namespace trnsim;
using namespace trnsim::ui;

TEST_CASE("metric rows: the core's table, texts and ratio convention (first / second)") {
  const Report rep = evaluate(default_scenario());
  REQUIRE(rep.primary.result);
  REQUIRE(rep.compare);
  REQUIRE(rep.compare->result);
  const auto rows = metric_rows(*rep.primary.result, &*rep.compare->result);
  const json ratios = report_to_json(rep)["ratios"]["workload"];
  std::size_t with_ratio = 0;
  for (const auto& r : rows) {
    REQUIRE(r.metric);
    INFO(r.metric->key);
    REQUIRE(r.first);
    CHECK(r.first_text == format_metric(*r.metric, *r.first));
    if (!r.ratio) continue;
    CHECK(*r.ratio == *r.first / *r.second);
    CHECK(r.better == better_side(*r.metric, *r.ratio));
    if (r.metric->better != Better::neither) {
      ++with_ratio;
      REQUIRE(ratios.contains(r.metric->key));
      CHECK(ratios[r.metric->key].get<double>() == *r.ratio);  // the report's own ratio
    }
  }
  CHECK(with_ratio == ratios.size());
  const auto tpot = std::find_if(rows.begin(), rows.end(), [](const MetricRow& r) { return r.metric->key == "tpot_s"; });
  REQUIRE(tpot != rows.end());
  CHECK(tpot->better == "A");  // Trn3 decodes faster than Trn2
  CHECK(better_text(*tpot, "Trn3", "Trn2") == "Trn3 better");
  // One result: no ratios; training metrics absent for inference.
  for (const auto& r : metric_rows(*rep.primary.result, nullptr)) {
    CHECK(!r.ratio);
    CHECK(r.metric->key != "step_time_s");
  }
}

TEST_CASE("the ratio rule: first / second when both are positive, otherwise no ratio") {
  const Report rep = evaluate(default_scenario());
  REQUIRE(rep.compare);
  const auto& a = rep.primary.system.chip;
  const auto& b = rep.compare->system.chip;
  // The JSON report's hardware ratios go through the same rule as the metric rows.
  const json per_chip = report_to_json(rep)["ratios"]["per_chip"];
  REQUIRE(per_chip["hbm_bandwidth"].is_number());
  CHECK(per_chip["hbm_bandwidth"].get<double>() == *metric_ratio(a.hbm_bandwidth_bytes_per_s, b.hbm_bandwidth_bytes_per_s));
  CHECK(*metric_ratio(a.hbm_capacity_bytes, b.hbm_capacity_bytes) == a.hbm_capacity_bytes / b.hbm_capacity_bytes);
  CHECK_FALSE(metric_ratio(a.hbm_capacity_bytes, 0.0));
  CHECK_FALSE(metric_ratio(0.0, b.hbm_capacity_bytes));
  CHECK_FALSE(metric_ratio(-a.hbm_capacity_bytes, b.hbm_capacity_bytes));
  CHECK_FALSE(metric_ratio(std::nullopt, b.hbm_capacity_bytes));
  CHECK_FALSE(metric_ratio(a.hbm_capacity_bytes, std::nullopt));
}

TEST_CASE("timeline lanes hold exactly the schedule's spans, in time order") {
  for (const char* example : {"examples/default.json", "examples/llama-3.1-70b-training-ultracluster.json"}) {
    INFO(example);
    const Report rep = evaluate(parse_scenario(*find_embedded(example), example));
    REQUIRE(rep.primary.result);
    const schedule::Timeline tl = rep.primary.result->timeline();
    const TimelineView v = timeline_view(tl);
    std::size_t spans = 0;
    double busy = 0;
    for (const auto& lane : v.lanes) {
      CHECK(!lane.spans.empty());
      for (std::size_t i = 0; i < lane.spans.size(); ++i) {
        CHECK(lane.spans[i].lane == lane.lane);
        CHECK(lane.spans[i].stage == lane.stage);
        if (i) CHECK(lane.spans[i - 1].start_s <= lane.spans[i].start_s);
        busy += lane.spans[i].dur_s;
      }
      spans += lane.spans.size();
    }
    CHECK(spans == tl.spans.size());
    CHECK(v.end_s == Approx(tl.end_s));
    double summed = 0;
    for (const auto& row : busy_in_window(v, 0, v.end_s * 2)) summed += row.busy_s;
    CHECK(summed == Approx(busy));
    // The share of one lane's time in a window: busy time over the window, per pipeline stage.
    std::set<int> stages;
    for (const auto& lane : v.lanes) stages.insert(lane.stage);
    const double window = v.end_s / 2;
    for (const auto& row : busy_in_window(v, 0, window))
      CHECK(row.share == Approx(row.busy_s / window / double(stages.size())));
    if (rep.primary.result->kind() == workload::Kind::training) CHECK(v.end_s == Approx(rep.primary.result->training().step_time_s));
  }
  CHECK(op_family("forward mb 12") == "forward mb ");
  CHECK(op_family("attn.core") == "attn.core");
}

TEST_CASE("precision variants: the scenario evaluated with each value of a precision field") {
  const Scenario base = default_scenario();
  const Report rep = evaluate(base);
  const auto v = precision_variants(base, rep.primary.system, "workload.precision.weights");
  REQUIRE(v.size() == workload::precision_names().size());
  int current = 0;
  for (const auto& x : v) {
    INFO(x.precision);
    current += x.current;
    if (!x.current) continue;
    // The scenario's own value gives the report's own figures.
    REQUIRE(x.evaluated);
    CHECK(x.time_s == rep.primary.result->inference().tpot_s);
    CHECK(x.tokens_per_s_chip == rep.primary.result->inference().output_tokens_per_s_per_chip);
  }
  CHECK(current == 1);
  const auto bf16 = std::find_if(v.begin(), v.end(), [](const PrecisionVariant& x) { return x.precision == "bf16"; });
  const auto fp4 = std::find_if(v.begin(), v.end(), [](const PrecisionVariant& x) { return x.precision == "mxfp4"; });
  REQUIRE(bf16->evaluated);
  REQUIRE(fp4->evaluated);
  CHECK(fp4->weights_bytes < bf16->weights_bytes);
  // On Trainium2 mxfp4 weights fall back: the core's warning says so.
  const auto t2 = precision_variants(base, hw::load_system("trn2-ultraserver"), "workload.precision.weights");
  const auto t2fp4 = std::find_if(t2.begin(), t2.end(), [](const PrecisionVariant& x) { return x.precision == "mxfp4"; });
  CHECK(t2fp4->error.find("modeled as") != std::string::npos);
}

TEST_CASE("roofline points: every compute or memory operator at its intensity, achieved under the roof") {
  const Report rep = evaluate(default_scenario());
  const auto& r = *rep.primary.result;
  const RooflinePoints rp = roofline_points(r);
  REQUIRE(!rp.points.empty());
  std::size_t ops = 0;
  for (const auto& ph : r.phases)
    for (const auto& o : ph.ops)
      if (o.category != price::Category::fabric && o.flops > 0 && o.hbm_bytes > 0 && o.time_s > 0) ++ops;
  CHECK(rp.points.size() == ops);
  for (const auto& p : rp.points) {
    CHECK(p.intensity == p.op->flops / p.op->hbm_bytes);
    CHECK(p.flops_per_s <= p.roof_flops_per_s * (1 + 1e-12));  // overhead only slows it down
  }
  // Operator shares: each phase's operators add up to its time (the operators are its stages).
  for (const auto& ph : r.phases) {
    double shares = 0, totals = 0;
    for (const auto& o : ph.ops) shares += op_share(ph, o), totals += o.total_s();
    INFO(ph.name);
    CHECK(shares == Approx(totals / ph.time_s));
  }
  CHECK(op_share(workload::Phase{}, r.phases.front().ops.front()) == 0);  // an empty phase: no share
}

TEST_CASE("roofline roofs: one per distinct peak naming its data types, and the derated roof") {
  const Report rep = evaluate(default_scenario());
  const auto& r = *rep.primary.result;
  const hw::Chip& chip = rep.primary.system.chip;
  const Roofs roofs = roofline_roofs(chip, r);
  CHECK(roofs.hbm_bytes_per_s == chip.hbm_bandwidth_bytes_per_s);
  // Every data type with a peak sits on exactly the roof of its peak; roofs rise left to right.
  std::map<std::string, double> on_roof;  // data type -> the roof naming it
  for (std::size_t i = 0; i < roofs.peaks.size(); ++i) {
    if (i) CHECK(roofs.peaks[i - 1].flops_per_s < roofs.peaks[i].flops_per_s);
    const std::string& list = roofs.peaks[i].dtypes;
    for (std::size_t a = 0;;) {
      const std::size_t b = list.find(", ", a);
      CHECK(on_roof.emplace(list.substr(a, b - a), roofs.peaks[i].flops_per_s).second);
      if (b == std::string::npos) break;
      a = b + 2;
    }
  }
  std::size_t with_peak = 0;
  for (const auto& [dtype, peak] : chip.peak_flops) {
    INFO(dtype);
    CHECK(roofs.peak_max >= peak);
    if (peak <= 0) continue;
    ++with_peak;
    REQUIRE(on_roof.count(dtype));
    CHECK(on_roof[dtype] == peak);
  }
  CHECK(on_roof.size() == with_peak);
  CHECK(roofs.peak_max == roofs.peaks.back().flops_per_s);
  CHECK(roofs.derated_flops_per_s == chip.peak(r.matmul_dtype) * r.spec.efficiency.compute);
  CHECK(roofs.derated_hbm_bytes_per_s == chip.hbm_bandwidth_bytes_per_s * r.spec.efficiency.hbm);
  CHECK(roofs.of_matmul_peak(chip.peak(r.matmul_dtype) / 4) == Approx(0.25));
}

}  // namespace unit_ui_report
