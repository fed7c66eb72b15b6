// trnsim capacity SCENARIO.json [--json] [--jobs N] [--exhaustive]: the cheapest deployment of
// the scenario's model that meets its serve targets at its offered load, per system, over the
// scenario's "capacity" search space (core/capacity/capacity.h, docs/capacity.md).
#include <chrono>
#include <string>

#include "cli.h"
#include "progress.h"
#include "report/capacity.h"
#include "serve/serve.h"
#include "scenario/scenario.h"

namespace {

const char* kCapacityUsage =
    "Usage: trnsim capacity SCENARIO.json [--json] [--jobs N] [--exhaustive] [--timing] [--no-progress]\n\n"
    "Plans capacity for the scenario's model and traffic (\"-\" reads stdin): over the search space of its\n"
    "\"capacity\" object -- systems, tp / ep / pp, weights and KV precisions, batch slots, serving stacks and\n"
    "batch policies -- finds for every combination the fewest replicas whose simulated run (the scenario's\n"
    "serve arrivals, lengths and seed) has serve.targets.fraction of requests within serve.targets.ttft_s\n"
    "and .tpot_s, after bounds that reject without simulating (HBM fit, zero-load latency) and start the\n"
    "replica search at the throughput ceiling. Prints per system the cheapest deployment (chips, price per\n"
    "hour, $ per million tokens, tokens per MW, the latency reached), the Pareto front of price against\n"
    "TTFT and TPOT, and why each rejected combination failed. docs/capacity.md; examples/capacity-*.json.\n\n"
    "  --json         print the plan as JSON\n"
    "  --jobs N       search on N threads (the same answer)\n"
    "  --exhaustive   no bounds: simulate every replica count from 1 (slow; what the bounds are checked against)\n"
    "  --timing       also print on stderr how long the search took (wall clock)\n"
    "  --no-progress  no progress bar (drawn on stderr only when it is a terminal and the search is long)\n";

std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

int capacity(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"jobs"}, {"json", "exhaustive", "timing", "no-progress"});
  args.expect_positional({"SCENARIO.json"});
  const std::string& path = args.positional()[0];
  const trnsim::Scenario scenario = trnsim::parse_scenario(
      trnsim::cli::read_file(path, io), path,
      path == "-" ? trnsim::ScenarioFiles() : trnsim::scenario_files_in(trnsim::scenario_dir(path)));
  trnsim::capacity::Options options;
  options.exhaustive = args.flag("exhaustive");
  options.open_file = trnsim::serve::Options::files_in(path == "-" ? "" : dir_of(path));
  if (auto j = args.value("jobs")) {
    std::size_t used = 0;
    int jobs = 0;
    try {
      jobs = std::stoi(*j, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != j->size()) throw trnsim::InputError("--jobs", "expected a whole number, got '" + *j + "'");
    if (jobs < 1 || jobs > 256) throw trnsim::InputError("--jobs", "must be between 1 and 256, got " + *j);
    options.jobs = jobs;
  }
  const auto start = std::chrono::steady_clock::now();
  trnsim::cli::Progress progress(io.err, "capacity", "families", 0, !args.flag("no-progress"));
  if (progress.enabled()) options.progress = [&progress](std::size_t done, std::size_t total) {
    progress.set_total(total);
    progress.update(done);
  };
  const trnsim::capacity::Result result = trnsim::capacity::plan(scenario, options);
  progress.finish();
  if (args.flag("timing"))
    io.err << "trnsim capacity: " << result.outcomes.size() << " families, " << result.simulations << " simulations in "
           << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() << " ms\n";
  io.out << (args.flag("json") ? trnsim::capacity::result_to_json(result).dump(2) + "\n"
                               : trnsim::capacity::result_to_text(result));
  return 0;
}

}  // namespace

TRNSIM_COMMAND("capacity", "the cheapest deployment meeting a service's latency targets, per system", kCapacityUsage,
               capacity);
