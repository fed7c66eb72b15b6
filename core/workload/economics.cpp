// Token economics (workload.h): all-in power per chip from the chip data's power assumption
// (or the scenario's), tokens per second per megawatt, and cost per million tokens at the
// chip data's price guess (or the scenario's); and the list of assumptions every report shows,
// with where each value comes from (the workload's field rows' calibration note for fitted defaults).
#include "workload/evaluate_parts.h"
#include "workload/fields.h"

namespace trnsim::workload::detail {

namespace {

// The chip data's source of one of its values (a chip file records it as "power", a
// system or cluster file under "chip.power").
std::string chip_source(const Evaluation& ev, const std::string& key, const char* missing) {
  for (const std::string& k : {key, "chip." + key}) {
    auto it = ev.system.sources.find(k);
    if (it != ev.system.sources.end()) return it->second;
  }
  return missing;
}

void add_assumptions(const Evaluation& ev, Result& R, const std::string& power_src, const std::string& price_src) {
  const EffectiveEfficiency eff = effective_efficiency(ev.spec, ev.system, ev.ctx.dt.matmul);
  const Efficiency& ef = eff.value;
  const Economics& ec = ev.spec.economics;
  // A value the chip's execution data gave is labelled with its source; the rest as before.
  auto source_of = [&](const char* field, double value, const char* text) {
    auto it = eff.chip_source.find(field);
    return it != eff.chip_source.end() ? it->second : detail::source_of(field, value, text);
  };
  R.assumptions.push_back({"efficiency.compute", ef.compute, "of peak", source_of("efficiency.compute", ef.compute, "")});
  R.assumptions.push_back({"efficiency.attention", ef.attention, "of peak",
                           source_of("efficiency.attention", ef.attention, "assumption: attention kernels")});
  R.assumptions.push_back({"efficiency.hbm", ef.hbm, "of bandwidth",
                           source_of("efficiency.hbm", ef.hbm, "assumption: achievable HBM bandwidth")});
  R.assumptions.push_back({"efficiency.kernel_overhead_s", ef.kernel_overhead_s, "s per kernel",
                           source_of("efficiency.kernel_overhead_s", ef.kernel_overhead_s, "")});
  R.assumptions.push_back({"efficiency.hbm_reserve_fraction", ef.hbm_reserve_fraction, "of HBM", "assumption"});
  R.assumptions.push_back({"economics.chip_power_watts", R.chip_power_watts, "W", power_src});
  R.assumptions.push_back({"economics.host_power_fraction", ec.host_power_fraction, "of chip power",
                           "guess: hosts, NICs, switches and fans"});
  R.assumptions.push_back({"economics.pue", ec.pue, "", "guess: facility power usage effectiveness"});
  R.assumptions.push_back({"economics.price_per_chip_hour_usd", R.price_per_chip_hour_usd, "USD", price_src});
}

}  // namespace

std::string source_of(const char* field, double value, const char* text) {
  const FieldMeta& f = workload::field(std::string("workload.") + field);
  if (json(value) != f.default_value) return "scenario";
  return f.calibrated.empty() ? std::string(text) : "assumption, " + f.calibrated;
}

void fill_economics(const Evaluation& ev, Result& R, double tokens_per_s_per_chip) {
  const Economics& ec = ev.spec.economics;
  const hw::Chip& chip = ev.system.chip;
  std::string power_src;
  if (ec.chip_power_watts) {
    R.chip_power_watts = *ec.chip_power_watts;
    power_src = "scenario";
  } else {
    R.chip_power_watts = chip.power_watts;
    power_src = chip_source(ev, "power", "system data (no source recorded)");
  }
  R.power_per_chip_all_in_watts = R.chip_power_watts * (1.0 + ec.host_power_fraction) * ec.pue;
  LanguageModelResult* lm = R.language_model();  // video reports its clip's economics instead
  if (lm)
    lm->tokens_per_s_per_megawatt =
        R.power_per_chip_all_in_watts > 0 ? tokens_per_s_per_chip / R.power_per_chip_all_in_watts * 1e6 : 0;
  if (R.chip_power_watts <= 0)
    R.warnings.push_back("economics: " + chip.display_name +
                         " has no power in its data and the scenario sets none (workload.economics.chip_power_watts): "
                         "tokens per megawatt are not computed");
  R.price_per_chip_hour_usd = ec.price_per_chip_hour_usd ? *ec.price_per_chip_hour_usd : chip.price_per_hour_usd;
  if (lm)
    lm->usd_per_million_tokens =
        tokens_per_s_per_chip > 0 ? R.price_per_chip_hour_usd / (tokens_per_s_per_chip * 3600.0) * 1e6 : 0;
  add_assumptions(ev, R, power_src, ec.price_per_chip_hour_usd ? std::string("scenario") : chip_source(ev, "price_per_chip_hour", "guess: no price known for this chip"));
}

}  // namespace trnsim::workload::detail
