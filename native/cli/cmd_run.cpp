// trnsim run SCENARIO.json [--json] [--trace FILE]: evaluates a scenario and prints its
// report (text, or the JSON the playground's window.trnsim.report() returns).
#include <iostream>

#include "cli.h"
#include "report/report.h"
#include "scenario/scenario.h"

namespace {

const char* kRunUsage =
    "Usage: trnsim run SCENARIO.json [--json] [--trace FILE]\n\n"
    "Evaluates a scenario file (\"-\" reads stdin) and prints its report: the system, the\n"
    "workload priced on it, and the comparison system with ratios. Examples are in examples/\n"
    "(examples/default.json is the playground's default).\n\n"
    "  --json        print the report as JSON (identical to the playground's window.trnsim.report())\n"
    "  --trace FILE  also write the timeline as Chrome trace / Perfetto JSON (open in ui.perfetto.dev)\n";

int run_scenario(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"trace"}, {"json"});
  args.expect_positional({"SCENARIO.json"});
  const std::string& path = args.positional()[0];
  trnsim::Scenario scenario = trnsim::parse_scenario(
      trnsim::cli::read_file(path, io), path == "-" ? "stdin" : path,
      path == "-" ? trnsim::ScenarioFiles() : trnsim::scenario_files_in(trnsim::scenario_dir(path)));
  trnsim::Report report = trnsim::evaluate(scenario);
  if (auto trace = args.value("trace")) {
    trnsim::cli::write_file(*trace, trnsim::workload::chrome_trace(*report.primary.result).dump() + "\n");
  }
  io.out << (args.flag("json") ? trnsim::report_to_json_string(report) : trnsim::report_to_text(report));
  return 0;
}

}  // namespace

TRNSIM_COMMAND("run", "evaluate a scenario file and print its report", kRunUsage, run_scenario);
