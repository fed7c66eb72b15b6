// The capacity planner (`trnsim capacity`): the cheapest deployment of a model that meets a
// service's latency targets at its offered load. A family is one point of the search space
// (capacity::Spec) -- system, tp, ep, pp, weights and KV precision, batch slots, stack and
// batch policy -- and a configuration is a family with a replica count; a deployment costs its
// chips (replicas x tp x pp) at the chip's price per hour. For every family the planner finds
// the fewest replicas whose simulated run (serve's simulator, the scenario's own arrivals,
// lengths, seed and targets) has at least serve.targets.fraction of its requests within
// both targets, or says why none does; per system it reports the cheapest, and over all the
// Pareto front of price against TTFT and TPOT.
//
// Bounds applied before simulating (docs/capacity.md; each is a consequence of the step
// model being monotone: more tokens, a longer context or a larger batch never make a step
// faster, and a larger batch never makes a token dearer):
//  - memory: the step model's KV budget (HBM minus weights, working set and reserve) must hold
//    one request of the mean lengths -- else the family is rejected unsimulated;
//  - zero-load latency: a request alone is as fast as it gets. The request at the target
//    fraction's quantile of prompt length, alone, must meet TTFT, and a one-decode request of
//    that prompt must meet TPOT -- else no replica count helps and no load is simulated;
//  - throughput ceiling: a replica emits at most (batch slots) tokens per decode step of a
//    full batch at the shortest context, so the offered output tokens per second need at
//    least ceil(offered / ceiling) replicas; the search starts there (and checks one below,
//    which a finite run may still meet), doubles until the targets are met and bisects.
// One step model per family serves every replica count and the zero-load probes.
//
// NOT searched: prefill/decode disaggregation, heterogeneous replicas, mixed systems in one
// deployment, routers, compiled bucket sets, speculative decoding settings (the scenario's
// own apply), spot or reserved pricing. A replica never spans systems; replicas may (a
// deployment of several UltraServers is priced per chip).
#pragma once
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capacity/spec.h"
#include "common/fields.h"
#include "serve/spec.h"
#include "workload/workload.h"

namespace trnsim::capacity {

// One point of the search space, without its replica count.
struct Family {
  std::string system;
  int tp = 1, ep = 1, pp = 1;
  std::string weights, kv_cache;
  int batch_slots = 1;
  std::string stack;
  std::string scheduler;  // the plain stack's batch policy; "" for stacks that name their own
  std::string label() const;  // "trn3-gen2-ultraserver tp8 ep1 pp1 mxfp4/bf16 64 slots vllm-neuron"
};

// What was found for one family.
struct Outcome {
  Family family;
  bool meets = false;
  // Rejected: which bound or check decided (memory, zero_load_ttft, zero_load_tpot, placement,
  // max_chips, simulated) and why, in words.
  std::string rejected_by, reason;
  // The configuration found (meets), or the largest simulated (rejected after simulating)
  int replicas = 0, chips_per_replica = 0, chips = 0;
  std::string deployment_system;  // the system name to serve it ("name:N" for N scale-up domains)
  double price_per_hour_usd = 0, usd_per_million_tokens = 0, output_tokens_per_s_per_megawatt = 0;
  double ttft_s = 0, tpot_s = 0;  // at the target fraction's percentile (p90 for 0.9)
  double attainment = 0, output_tokens_per_s = 0;
  // The search
  double zero_load_ttft_s = 0, zero_load_tpot_s = 0;  // the quantile request alone
  double ceiling_tokens_per_s = 0;                    // per replica (0: not computed)
  int bound_replicas = 0;                             // the throughput ceiling's lower bound
  int simulations = 0;                                // runs at the offered load
};

struct Options {
  // No bounds: every replica count from 1 up is simulated until one meets the targets (the
  // oracle the tests compare the pruned search with).
  bool exhaustive = false;
  // Threads over families (1: this thread). Results are the same whatever the count.
  int jobs = 1;
  // Opens serve.trace.file (as serve::Options::open_file).
  std::function<std::unique_ptr<std::istream>(const std::string& file)> open_file;
  // Families finished and the total, after each one.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// The families of the search space, in a fixed order (system, tp, ep, pp, weights, KV,
// slots, stack, scheduler). InputError naming the capacity field for an unknown system,
// precision, stack or batch policy, or a space with nothing in it.
std::vector<Family> families(const Spec& spec, const workload::Spec& workload, const serve::Spec& serve);
// Checks that the scenario's traffic and targets can be planned for (InputError naming the
// serve field otherwise).
void check_inputs(const workload::Spec& workload, const serve::Spec& serve);
// Searches one family (never throws for the family's own impossibility: that is an Outcome).
Outcome evaluate(const Family& family, const workload::Spec& workload, const serve::Spec& serve, const Spec& spec,
                 const Options& options = {});

struct Result {
  std::string name;  // the scenario's, when there is one
  std::string model;
  std::string traffic;  // what is offered, in words
  double offered_output_tokens_per_s = 0;  // 0: not known up front (a trace)
  std::optional<double> target_ttft_s, target_tpot_s;
  double target_fraction = 0;
  int max_chips = 0;
  std::vector<Outcome> outcomes;              // every family, in families() order
  struct SystemBest {
    std::string system;
    long index = -1;  // into outcomes: the cheapest family meeting the targets; -1: none does
  };
  std::vector<SystemBest> best;               // per system, in order of first appearance
  std::vector<std::size_t> front;             // Pareto front of price vs TTFT and TPOT over every meeting family, by price
  int simulations = 0;                        // runs at the offered load, all families
  int configurations = 0;                     // family x replica counts the search decided
};

// Folds the families' outcomes into the report (the per-system optimum, the front, totals).
// InputError naming serve.targets when no family meets the targets and every one failed a
// zero-load bound (the targets are impossible in this space).
Result summarize(std::vector<Outcome> outcomes, const workload::Spec& workload, const serve::Spec& serve,
                 const Spec& spec);
// Evaluates families [first, last) of families(spec, ...) on options.jobs threads (a shard of a
// batch job: every machine enumerates the same families in the same order).
std::vector<Outcome> evaluate_range(const Spec& spec, const workload::Spec& workload, const serve::Spec& serve,
                                    std::size_t first, std::size_t last, const Options& options = {});
// families + evaluate (on options.jobs threads) + summarize.
Result search(const Spec& spec, const workload::Spec& workload, const serve::Spec& serve, const Options& options = {});

// The report's figures as text, the same cells wherever they are shown (the text report, the
// page's Capacity panel): a table's column headers and its rows of formatted cells.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};
std::string usd_text(double usd);                    // "$61.44" (4 significant digits)
std::string deployment_text(const Outcome& o);       // "4 x (tp8 ep1 pp1)": replicas and placement
std::string percentile_text(const Result& r);        // "p90": where the latencies are taken
// Per system its cheapest configuration: system, deployment, chips, weights, KV cache, slots,
// stack, $/h, $/Mtok, tokens/s per MW, TTFT, TPOT, within targets, serve it as (the cells
// of a system where nothing meets say so).
Table best_table(const Result& r);
// The Pareto front, cheapest first: $/h, TTFT, TPOT, the configuration.
Table front_table(const Result& r);
// Every rejected family: the family, the bound or check that decided, why.
Table rejected_table(const Result& r);
// How many families each bound or check rejected, by its name.
std::map<std::string, int> rejected_counts(const Result& r);
// What was planned and searched, in three lines: the model and traffic, the targets, the
// families, configurations and simulations (the text report's head, after the name).
std::string summary_text(const Result& r);

json outcome_to_json(const Outcome& o);
Outcome outcome_from_json(const json& j);  // the inverse (merging shards); InputError naming the key
json result_to_json(const Result& r);
std::string result_to_text(const Result& r);

}  // namespace trnsim::capacity
