// trnsim capacity SCENARIO.json [--json] [--jobs N] [--exhaustive]: the cheapest deployment of
// the scenario's model that meets its serve targets at its offered load, per system, over the
// scenario's "capacity" search space (core/capacity/capacity.h, docs/capacity.md).
#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

#include "cli.h"
#include "progress.h"
#include "report/capacity.h"
#include "serve/serve.h"
#include "scenario/scenario.h"

namespace {

const char* kCapacityUsage =
    "Usage: trnsim capacity SCENARIO.json [--json | --lines] [--jobs N] [--shard I/N] [--merge LINES]\n"
    "                       [--exhaustive] [--timing] [--no-progress]\n\n"
    "Plans capacity for the scenario's model and traffic (\"-\" reads stdin): over the search space of its\n"
    "\"capacity\" object -- systems, tp / ep / pp, weights and KV precisions, batch slots, serving stacks and\n"
    "batch policies -- finds for every combination the fewest replicas whose simulated run (the scenario's\n"
    "serve arrivals, lengths and seed) has serve.targets.fraction of requests within serve.targets.ttft_s\n"
    "and .tpot_s, after bounds that reject without simulating (HBM fit, zero-load latency) and start the\n"
    "replica search at the throughput ceiling. Prints per system the cheapest deployment (chips, price per\n"
    "hour, $ per million tokens, tokens per MW, the latency reached), the Pareto front of price against\n"
    "TTFT and TPOT, and why each rejected combination failed. docs/capacity.md; examples/capacity-*.json.\n\n"
    "  --json         print the plan as JSON\n"
    "  --lines        JSON Lines, one per family, in `trnsim sweep`'s form (point: the scenario fields that\n"
    "                 serve it; primary: its figures; ok: meets the targets): for `trnsim plot`, and shards\n"
    "  --jobs N       search on N threads (the same answer)\n"
    "  --shard I/N    only the I-th of N contiguous blocks of families (0-based; with --lines), for batch\n"
    "                 engines (examples/slurm/capacity.sbatch)\n"
    "  --merge LINES  no search: the plan from the --lines output of every shard (concatenated in any order)\n"
    "  --exhaustive   no bounds: simulate every replica count from 1 (slow; what the bounds are checked against)\n"
    "  --timing       also print on stderr how long the search took (wall clock)\n"
    "  --no-progress  no progress bar (drawn on stderr only when it is a terminal and the search is long)\n\n"
    "Example: the front as an SVG chart\n"
    "  trnsim capacity examples/capacity-gpt-oss-120b.json --lines > plan.jsonl\n"
    "  trnsim plot plan.jsonl --x usd_per_million_tokens --y tpot_s --color system --kind scatter --pareto -o front.svg\n";

// One family as a `trnsim sweep` line: the scenario fields that serve it, its figures.
trnsim::json line(std::size_t index, const trnsim::capacity::Outcome& o) {
  const auto& f = o.family;
  trnsim::json point = {{"system", o.deployment_system.empty() ? f.system : o.deployment_system},
                        {"workload.parallelism.tp", f.tp},
                        {"workload.parallelism.ep", f.ep},
                        {"workload.parallelism.pp", f.pp},
                        {"workload.parallelism.dp", o.replicas},
                        {"workload.precision.weights", f.weights},
                        {"workload.precision.kv_cache", f.kv_cache},
                        {"workload.stack", f.stack},
                        {"serve.max_num_seqs", f.batch_slots}};
  if (!f.scheduler.empty()) point["serve.scheduler"] = f.scheduler;
  trnsim::json j = {{"index", index}, {"point", point}, {"ok", o.meets}};
  if (o.meets)
    j["primary"] = {{"ttft_s", o.ttft_s},
                    {"tpot_s", o.tpot_s},
                    {"usd_per_million_tokens", o.usd_per_million_tokens},
                    {"tokens_per_s_per_megawatt", o.output_tokens_per_s_per_megawatt},
                    {"price_per_hour_usd", o.price_per_hour_usd},
                    {"chips", o.chips}};
  else
    j["error"] = o.rejected_by + ": " + o.reason;
  j["outcome"] = trnsim::capacity::outcome_to_json(o);
  return j;
}

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  auto bad = [&] { return trnsim::InputError("--shard", "expected I/N with 0 <= I < N, got '" + text + "'"); };
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  std::size_t i = 0, n = 0;
  try {
    std::size_t a = 0, b = 0;
    i = std::stoul(text.substr(0, slash), &a);
    n = std::stoul(text.substr(slash + 1), &b);
    if (a != slash || b != text.size() - slash - 1) throw bad();
  } catch (const std::logic_error&) {
    throw bad();
  }
  if (n == 0 || i >= n || n > 100000) throw bad();
  return {i, n};
}

std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

int capacity(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"jobs", "shard", "merge"}, {"json", "lines", "exhaustive", "timing", "no-progress"});
  if (args.flag("json") && args.flag("lines")) throw trnsim::InputError("--lines", "choose --json or --lines, not both");
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
  if (auto merge = args.value("merge")) {
    // The shards' lines, in any order: every family of the space exactly once.
    const std::vector<trnsim::capacity::Family> fams =
        trnsim::capacity::families(scenario.capacity, scenario.workload, scenario.serve);
    std::vector<trnsim::capacity::Outcome> outcomes(fams.size());
    std::vector<bool> seen(fams.size(), false);
    std::istringstream in(trnsim::cli::read_file(*merge, io, trnsim::limits::kMaxJsonInputBytes));
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      if (text.empty()) continue;
      const std::string where = *merge + ":line " + std::to_string(n);
      trnsim::json j;
      try {
        j = trnsim::json::parse(text);
      } catch (const std::exception&) {
        throw trnsim::InputError(where, "not JSON");
      }
      if (!j.is_object() || !j.contains("index") || !j["index"].is_number_unsigned() || !j.contains("outcome"))
        throw trnsim::InputError(where, "not a line of `trnsim capacity --lines` (index, outcome)");
      const std::size_t i = j["index"].get<std::size_t>();
      trnsim::capacity::Outcome o;
      try {
        o = trnsim::capacity::outcome_from_json(j["outcome"]);
      } catch (const trnsim::InputError& e) {
        throw trnsim::InputError(where, e.what());
      }
      if (i >= fams.size() || o.family.label() != fams[i].label())
        throw trnsim::InputError(where, "family " + std::to_string(i) + " is not this scenario's (" + o.family.label() +
                                            "): merge the shards of the same scenario");
      if (seen[i]) throw trnsim::InputError(where, "family " + std::to_string(i) + " appears twice");
      seen[i] = true;
      outcomes[i] = o;
    }
    const auto missing = std::find(seen.begin(), seen.end(), false);
    if (missing != seen.end())
      throw trnsim::InputError("--merge", "family " + std::to_string(missing - seen.begin()) + " of " +
                                              std::to_string(fams.size()) + " is in no shard");
    const trnsim::capacity::Result result = trnsim::capacity::plan_from(scenario, std::move(outcomes));
    io.out << (args.flag("json") ? trnsim::capacity::result_to_json(result).dump(2) + "\n"
                                 : trnsim::capacity::result_to_text(result));
    return 0;
  }
  trnsim::cli::Progress progress(io.err, "capacity", "families", 0, !args.flag("no-progress"));
  if (progress.enabled()) options.progress = [&progress](std::size_t done, std::size_t total) {
    progress.set_total(total);
    progress.update(done);
  };
  if (args.flag("lines") || args.value("shard")) {
    if (!args.flag("lines")) throw trnsim::InputError("--shard", "a shard prints --lines (merge them with --merge)");
    const std::size_t total = trnsim::capacity::families(scenario.capacity, scenario.workload, scenario.serve).size();
    std::size_t first = 0, last = total;
    if (auto sh = args.value("shard")) {
      const auto [i, n] = parse_shard(*sh);
      first = total * i / n;
      last = total * (i + 1) / n;
    }
    const auto outcomes =
        trnsim::capacity::evaluate_range(scenario.capacity, scenario.workload, scenario.serve, first, last, options);
    progress.finish();
    for (std::size_t k = 0; k < outcomes.size(); ++k) io.out << line(first + k, outcomes[k]).dump() << "\n";
    return 0;
  }
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
