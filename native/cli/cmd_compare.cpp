// `trnsim compare A.json B.json [--json]`: two scenarios side by side -- each evaluated on
// its own system -- with the ratio A/B of every headline figure. Typical use: the same
// model on two systems, each at its own best precision and placement
// (examples/gpt-oss-120b-trn3-gen2.json vs examples/gpt-oss-120b-trn2-ultraserver.json).
#include <ostream>

#include "cli.h"
#include "common/format.h"
#include "report/metrics.h"
#include "hw/system.h"
#include "scenario/scenario.h"
#include "workload/workload.h"

namespace {

using trnsim::InputError;
using trnsim::json;
namespace wl = trnsim::workload;

struct Evaluated {
  std::string path;
  trnsim::Scenario scenario;
  trnsim::hw::System system;
  wl::Result result;
};

// Errors name the file first, then the field inside it.
[[noreturn]] void rethrow_for(const std::string& path, const InputError& e) {
  std::string what = e.what();
  if (what.rfind(path, 0) == 0) throw e;
  throw InputError(path, what);
}

Evaluated load(const std::string& path, trnsim::cli::Io& io) {
  Evaluated ev;
  ev.path = path;
  std::string text = trnsim::cli::read_file(path, io);
  try {
    ev.scenario = trnsim::parse_scenario(text, path, trnsim::scenario_files_in(trnsim::scenario_dir(path)));
    ev.system = trnsim::hw::load_system(ev.scenario.system);
    ev.result = wl::evaluate(ev.scenario.workload, ev.system);
  } catch (const InputError& e) {
    rethrow_for(path, e);
  }
  return ev;
}

std::string describe(const Evaluated& e) {
  const auto& r = e.result;
  const auto& p = e.scenario.workload.parallelism;
  const wl::VideoResult* video = std::get_if<wl::VideoResult>(&r.figures);
  const std::string placement =
      video ? "tp " + std::to_string(p.tp) + " Ulysses " + std::to_string(video->ulysses) + " ring " +
                  std::to_string(video->ring) + " cfg " + std::to_string(video->cfg) + " dp " + std::to_string(p.dp)
            : "tp " + std::to_string(p.tp) + " pp " + std::to_string(p.pp) + " dp " + std::to_string(p.dp) + " ep " +
                  std::to_string(p.ep);
  return r.model_name() + " " + wl::kind_name(r.kind()) + " on " + r.system_display_name + ", " + placement + ", matmuls " +
         r.matmul_dtype + ", weights " + r.weights_dtype;
}

int run_compare(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {}, {"json"});
  args.expect_positional({"A.json", "B.json"});
  Evaluated A = load(args.positional()[0], io);
  Evaluated B = load(args.positional()[1], io);
  using trnsim::fmt::pad;

  if (args.flag("json")) {
    json j;
    auto side = [](const Evaluated& e) {
      return json{{"file", e.path},
                  {"scenario", trnsim::scenario_to_json(e.scenario)},
                  {"result", wl::result_to_json(e.result)}};
    };
    j["a"] = side(A);
    j["b"] = side(B);
    json ratios = json::object();
    for (const auto& m : trnsim::metrics()) {
      const auto q = trnsim::metric_ratio(m.of(A.result), m.of(B.result));
      ratios[m.key] = q ? json(*q) : json(nullptr);
    }
    j["ratios"] = ratios;
    io.out << j.dump(2) << "\n";
    return 0;
  }

  io.out << "A: " << A.path << (A.scenario.name.empty() ? "" : " (" + A.scenario.name + ")") << "\n   "
         << describe(A) << "\n";
  io.out << "B: " << B.path << (B.scenario.name.empty() ? "" : " (" + B.scenario.name + ")") << "\n   "
         << describe(B) << "\n\n";
  io.out << pad("", 30) << pad("A", 18) << pad("B", 18) << pad("A/B", 10) << "better\n";
  for (const auto& m : trnsim::metrics()) {
    auto a = m.of(A.result), b = m.of(B.result);
    if (!a && !b) continue;
    std::string ratio = "-", better = "-";
    if (const auto q = trnsim::metric_ratio(a, b)) {
      ratio = trnsim::fmt::ratio(*q);
      better = trnsim::better_side(m, *q);
    }
    io.out << pad("  " + m.label, 30) << pad(a ? trnsim::format_metric(m, *a) : "-", 18)
           << pad(b ? trnsim::format_metric(m, *b) : "-", 18) << pad(ratio, 10) << better << "\n";
  }
  io.out << "\nRatios are A/B of each figure; 'better' says which side wins where one direction is better.\n"
            "Assumptions differ? Check each side's list with `trnsim run FILE` (power, price and "
            "efficiencies are explicit in workload.economics / workload.efficiency).\n";
  return 0;
}

}  // namespace

TRNSIM_COMMAND("compare", "two scenarios side by side, with ratios of every headline figure",
               "Usage: trnsim compare A.json B.json [--json]\n"
               "  Evaluates each scenario on its own system (its compare_system is ignored) and prints\n"
               "  TTFT, time per token, throughput per chip/server/system (or training step, tokens/s,\n"
               "  MFU), HBM use, tokens per MW, cost per million tokens and the time shares, with A/B.\n"
               "  --json   {a: {file, scenario, result}, b: {...}, ratios: {metric: A/B or null}}\n"
               "Exit codes: 0 ok, 2 bad input (the message names the file and the field).\n",
               run_compare);
