// trnsim serve SCENARIO.json [--json] [--find-rate] [--trace-file FILE]: the scenario served as
// a stream of requests by the event-driven serving simulator (core/serve/serve.h): latency
// percentiles, throughput, goodput, occupancy over time, and optionally the highest request
// rate that meets the scenario's targets.
#include <chrono>
#include <memory>

#include "cli.h"
#include "progress.h"
#include "report/serving.h"
#include "scenario/scenario.h"

namespace {

const char* kServeUsage =
    "Usage: trnsim serve SCENARIO.json [--json] [--find-rate] [--trace-file FILE]\n\n"
    "Simulates serving the scenario's workload on its system (\"-\" reads stdin): requests arrive as the\n"
    "scenario's \"serve\" object says (Poisson, bursty, constant, a burst, closed-loop clients, agentic\n"
    "sessions or a trace file), are batched continuously into each replica's slots (dp replicas of tp x pp\n"
    "chips), prefilled in chunks, decoded, cached and preempted, with every engine step priced like\n"
    "`trnsim run` prices it. Prints TTFT, TPOT, ITL and end-to-end percentiles, throughput, goodput\n"
    "against serve.targets, occupancy over time, prefix-cache reuse, the KV precision trade-off and, for\n"
    "sessions, TTFT per turn. Deterministic: the same scenario prints the same bytes. docs/serving.md\n"
    "has every field and definition; examples/serve-*.json are ready to run.\n\n"
    "  --json              print the report as JSON\n"
    "  --find-rate         also search the highest request rate whose attainment meets serve.targets\n"
    "                      (as serve.find_rate: true)\n"
    "  --trace-file FILE   serve the requests of a trace file (Vidur or Splitwise CSV, Mooncake or\n"
    "                      LLMServingSim JSONL; serve.trace.format picks or detects the format)\n"
    "  --timing            also print on stderr how long the simulation took (wall clock)\n"
    "  --no-progress       no progress bar (drawn on stderr only when it is a terminal and the run is long)\n";

std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

int serve(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"trace-file"}, {"json", "find-rate", "timing", "no-progress"});
  args.expect_positional({"SCENARIO.json"});
  const std::string& path = args.positional()[0];
  trnsim::Scenario scenario = trnsim::parse_scenario(
      trnsim::cli::read_file(path, io), path,
      path == "-" ? trnsim::ScenarioFiles() : trnsim::scenario_files_in(trnsim::scenario_dir(path)));
  std::string base = path == "-" ? "" : dir_of(path);
  if (auto trace = args.value("trace-file")) {
    trnsim::set_field(scenario, "serve.arrivals", "trace");
    trnsim::set_field(scenario, "serve.trace.file", *trace);
    base.clear();  // a command-line path is relative to where the command runs
  }
  trnsim::serve::Options options;
  options.find_rate = args.flag("find-rate");
  options.open_file = trnsim::serve::Options::files_in(base);
  const auto start = std::chrono::steady_clock::now();
  trnsim::cli::Progress progress(io.err, "serve", "requests", 0, !args.flag("no-progress"));
  if (progress.enabled()) options.progress = [&progress](std::size_t done, std::size_t total) {
    progress.set_total(total);
    progress.update(done);
  };
  const trnsim::serve::Result result = trnsim::serve::run(scenario, options);
  progress.finish();
  if (args.flag("timing"))
    io.err << "trnsim serve: simulated " << result.requests << " requests in "
           << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() << " ms\n";
  io.out << (args.flag("json") ? trnsim::serve::result_to_json(result).dump(2) + "\n"
                               : trnsim::serve::result_to_text(result));
  return 0;
}

}  // namespace

TRNSIM_COMMAND("serve", "simulate serving a scenario's requests: latency percentiles, goodput, occupancy", kServeUsage,
               serve);
