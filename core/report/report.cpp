#include "report/report.h"

#include "common/format.h"
#include "report/metrics.h"

#include <sstream>

namespace trnsim {

static SystemReport evaluate_on(const Scenario& s, const std::string& system_name, bool primary) {
  SystemReport r;
  r.system = hw::load_system(system_name);
  try {
    r.result = workload::evaluate(s.workload, r.system);
  } catch (const InputError& e) {
    if (primary) throw;
    r.error = e.what();
  }
  return r;
}

Report evaluate(const Scenario& scenario) {
  Report report;
  report.scenario = scenario;
  report.primary = evaluate_on(scenario, scenario.system, true);
  if (!scenario.compare_system.empty())
    report.compare = evaluate_on(scenario, scenario.compare_system, false);
  return report;
}

// Ratios of the primary system to the comparison system: the hardware aggregates (per chip,
// per system; higher is better for all of them), then the workload's metrics.
const char* const kRatioConvention =
    "every ratio is primary / comparison of the figure; per_chip and per_system figures are better higher; "
    "for workload figures, the metric table says which direction is better (lower for times and cost)";
static json ratios(const Report& r) {
  json out;
  if (!r.compare) return out;
  const hw::System& a = r.primary.system;
  const hw::System& b = r.compare->system;
  auto ratio = [](double num, double den) {
    const auto q = metric_ratio(num, den);
    return q ? json(*q) : json(nullptr);
  };
  // Per chip: the generation-to-generation comparison the Neuron docs tabulate (S1).
  json chip;
  const auto dtypes = hw::peak_table_dtypes({&a.chip, &b.chip});
  for (const auto& dt : dtypes) chip["peak_flops_" + dt] = ratio(a.chip.peak(dt), b.chip.peak(dt));
  chip["hbm_capacity"] = ratio(a.chip.hbm_capacity_bytes, b.chip.hbm_capacity_bytes);
  chip["hbm_bandwidth"] = ratio(a.chip.hbm_bandwidth_bytes_per_s, b.chip.hbm_bandwidth_bytes_per_s);
  chip["link_bandwidth"] = ratio(a.chip.link_bandwidth_bytes_per_s, b.chip.link_bandwidth_bytes_per_s);
  out["per_chip"] = chip;
  // Whole systems (aggregates derived from the per-chip data).
  json sys;
  sys["chips"] = ratio(a.chips, b.chips);
  for (const auto& dt : dtypes) sys["peak_flops_" + dt] = ratio(a.peak_flops(dt), b.peak_flops(dt));
  sys["hbm_capacity"] = ratio(a.hbm_capacity_bytes(), b.hbm_capacity_bytes());
  sys["hbm_bandwidth"] = ratio(a.hbm_bandwidth_bytes_per_s(), b.hbm_bandwidth_bytes_per_s());
  out["per_system"] = sys;
  if (r.primary.result && r.compare->result) {
    // Every metric with a better direction that both results have (core/report/metrics.h).
    json w = json::object();
    for (const auto& m : metrics()) {
      if (m.better == Better::neither) continue;
      auto x = m.of(*r.primary.result), y = m.of(*r.compare->result);
      if (x && y) w[m.key] = ratio(*x, *y);
    }
    out["workload"] = w;
  }
  out["convention"] = kRatioConvention;
  return out;
}

static json system_report_json(const SystemReport& s) {
  json j;
  j["system"] = hw::describe_json(s.system);
  if (s.result) j["result"] = workload::result_to_json(*s.result);
  else j["error"] = s.error;
  return j;
}

json report_to_json(const Report& r) {
  json j;
  j["trnsim"] = TRNSIM_VERSION;
  j["scenario"] = scenario_to_json(r.scenario);
  j["primary"] = system_report_json(r.primary);
  if (r.compare) {
    j["compare"] = system_report_json(*r.compare);
    j["ratios"] = ratios(r);
  }
  return j;
}

std::string report_to_json_string(const Report& r) { return report_to_json(r).dump(2) + "\n"; }

// A few lines about the system; `trnsim describe NAME` has the full data and sources.
static void system_summary(std::ostringstream& o, const hw::System& s) {
  o << "  system        " << s.chips << " x " << s.chip.display_name << ", " << s.chips_per_server
    << " per server, " << s.chips_per_domain << " per scale-up domain (" << s.fabric << ")\n";
  o << "  peak          ";
  bool first = true;
  for (const auto& dt : hw::peak_table_dtypes({&s.chip})) {
    double p = s.peak_flops(dt);
    o << (first ? "" : ", ") << dt << " " << (p > 0 ? fmt::si(p, "FLOP/s") : std::string("n/a"));
    first = false;
  }
  o << "\n  HBM           " << fmt::fixed(s.hbm_capacity_bytes() / (1024.0 * 1024 * 1024), 0) << " GiB at "
    << fmt::si(s.hbm_bandwidth_bytes_per_s(), "B/s") << "\n";
  o << "  data          trnsim describe " << s.name << " (every number with its source)\n";
}

static void system_text(std::ostringstream& o, const SystemReport& s) {
  system_summary(o, s.system);
  if (s.result) o << "\n" << workload::result_to_text(*s.result);
  else o << "\n  cannot run this workload: " << s.error << "\n";
}

std::string report_to_text(const Report& r) {
  std::ostringstream o;
  o << "trnsim " << TRNSIM_VERSION << " report";
  if (!r.scenario.name.empty()) o << ": " << r.scenario.name;
  o << "\n\n== " << r.primary.system.display_name << " ==\n";
  system_text(o, r.primary);
  if (r.compare) {
    o << "\n== compared with " << r.compare->system.display_name << " ==\n";
    system_text(o, *r.compare);
    json rat = ratios(r);
    const std::string a = r.primary.system.display_name, b = r.compare->system.display_name;
    o << "\n== " << a << " / " << b << " ==\n";
    o << "  (each ratio is " << a << " / " << b << " of the figure)\n";
    for (const char* group : {"per_chip", "per_system"}) {
      o << "  " << group << "\n";
      for (auto it = rat[group].begin(); it != rat[group].end(); ++it)
        o << "    " << fmt::pad(it.key(), 32)
          << (it->is_number() ? fmt::ratio(it->get<double>()) : std::string("n/a")) << "\n";
    }
    if (rat.contains("workload")) {
      o << "  workload\n";
      for (auto it = rat["workload"].begin(); it != rat["workload"].end(); ++it) {
        const Metric& m = find_metric(it.key());
        std::string text = "n/a", side;
        if (it->is_number()) {
          double q = it->get<double>();
          text = fmt::ratio(q);
          std::string w = better_side(m, q);
          side = w == "A" ? "  (" + a + " better)" : w == "B" ? "  (" + b + " better)" : "";
        }
        o << "    " << fmt::pad(m.label, 32) << fmt::pad(text, 8) << side << "\n";
      }
    }
  }
  return o.str();
}

}  // namespace trnsim
