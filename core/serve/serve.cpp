// `trnsim serve`: checks the settings, builds the run's context (its one step model), runs
// the main simulation and the analyses (analyses.h) into a Result (serve.h).
#include "serve/serve.h"

#include <fstream>
#include <string>
#include <utility>

#include "common/error.h"
#include "common/format.h"
#include "price/stack.h"
#include "serve/analyses.h"
#include "serve/mlperf.h"
#include "serve/requests.h"

namespace trnsim::serve {

namespace {

void check_settings(const workload::Spec& w, const Spec& v, bool search) {
  if (w.kind != workload::Kind::inference)
    throw InputError("workload.kind",
                     "serving needs an inference workload, got '" + std::string(workload::kind_name(w.kind)) + "'");
  if (v.arrivals == "trace" && v.trace.file.empty() && v.trace.text.empty())
    throw InputError("serve.trace.file", "arrivals 'trace' need a trace: a file (serve.trace.file, the CLI) or the "
                                         "trace itself (serve.trace.text)");
  if (!v.trace.file.empty() && !v.trace.text.empty())
    throw InputError("serve.trace", "set one of serve.trace.file and serve.trace.text, not both");
  for (const auto& [l, name] : {std::pair<const Lengths*, const char*>{&v.input, "input_tokens"}, {&v.output, "output_tokens"}})
    if (l->min > l->max)
      throw InputError(std::string("serve.") + name + ".min",
                       "must not exceed serve." + std::string(name) + ".max (" + std::to_string(l->max) + "), got " +
                           std::to_string(l->min));
  if (v.output.eos_mean) {
    if (v.arrivals == "trace" || v.arrivals == "sessions")
      throw InputError("serve.output_tokens.eos_mean", "applies to generated requests (their drawn lengths are the "
                                                       "max_tokens EOS cuts short); arrivals '" + v.arrivals +
                                                       "' give each call's output length, unset it");
    const double drawn = mean_length(v.output, w.inference.output_tokens);
    if (*v.output.eos_mean > drawn)
      throw InputError("serve.output_tokens.eos_mean",
                       "a stop at EOS only shortens outputs: must be at most the drawn mean (" + fmt::general(drawn, 6) +
                           " tokens), got " + fmt::general(*v.output.eos_mean, 6));
  }
  if (v.micro_batches > 1 || !v.capacity_policy.empty()) {
    const price::Stack& stack = price::load_stack(w.stack);
    if (!stack.server)
      throw InputError(v.micro_batches > 1 ? "serve.micro_batches" : "serve.capacity_policy",
                       "applies to a GPU server stack (a stack file with a \"server\" block); '" + stack.name +
                           "' has none: leave it unset");
  }
  if (v.arrivals == "closed" && v.max_concurrency > 0)
    throw InputError("serve.max_concurrency", "caps open-loop arrivals; closed-loop clients keep serve.concurrency (" +
                                                  std::to_string(v.concurrency) + ") in flight, set that instead");
  if (v.arrivals != "trace" && v.arrivals != "sessions" && v.warmup_requests >= v.requests)
    throw InputError("serve.warmup_requests", "must be less than serve.requests (" + std::to_string(v.requests) +
                                                  "), got " + std::to_string(v.warmup_requests));
  if (v.harness == "mlperf") {
    if (v.arrivals != "poisson" && v.arrivals != "burst")
      throw InputError("serve.arrivals", "the mlperf harness runs MLPerf's Server scenario (poisson arrivals at the "
                                         "target QPS) or its Offline scenario (burst: every sample at once), got '" +
                                             v.arrivals + "'");
    if (v.arrivals == "poisson" && (!v.targets.ttft_s || !v.targets.tpot_s))
      throw InputError(!v.targets.ttft_s ? "serve.targets.ttft_s" : "serve.targets.tpot_s",
                       "MLPerf's Server scenario is judged on its p99 TTFT and p99 TPOT constraints: set both "
                       "serve.targets.ttft_s and serve.targets.tpot_s (llama2-70b and mixtral-8x7b: 2 s and 0.2 s)");
  }
  if (!search) return;
  if (v.arrivals == "closed" || v.arrivals == "burst" || v.arrivals == "trace")
    throw InputError("serve.arrivals", "the rate search varies the arrival rate: use poisson, gamma, constant or "
                                       "sessions arrivals, got '" + v.arrivals + "'");
  if (!v.targets.ttft_s && !v.targets.tpot_s)
    throw InputError("serve.targets", "the rate search needs a target: serve.targets.ttft_s and/or serve.targets.tpot_s");
}

}  // namespace

std::function<std::unique_ptr<std::istream>(const std::string&)> Options::files_in(const std::string& dir) {
  return [dir](const std::string& file) -> std::unique_ptr<std::istream> {
    const std::string full = file.empty() || file[0] == '/' || dir.empty() ? file : dir + "/" + file;
    auto in = std::make_unique<std::ifstream>(full, std::ios::binary);
    if (!*in) throw InputError("serve.trace.file", "cannot open '" + full + "'");
    return in;
  };
}

Result run(const hw::System& system, const workload::Spec& w, const Spec& v, const Options& o) {
  const bool search = o.find_rate || v.find_rate;
  check_settings(w, v, search);
  Runner run(system, w, v, o);
  Result R;
  R.workload = w;
  R.system_name = run.system().name;
  R.system_display_name = run.system().display_name;
  R.system_chips = run.system().chips;
  R.stack = run.model().name();
  R.replicas = w.parallelism.dp;
  R.chips_per_replica = w.parallelism.tp * w.parallelism.pp;
  R.harness = v.harness;
  R.prefix_cache = run.config().prefix_cache;
  R.target_ttft_s = v.targets.ttft_s;
  R.target_tpot_s = v.targets.tpot_s;
  R.target_fraction = v.targets.fraction;
  const ReplicaMemory mem = run.model().memory();
  R.kv_budget_bytes = mem.kv_budget_bytes;
  R.weights_bytes = mem.weights_bytes;
  R.hbm_capacity_bytes = mem.capacity_bytes;
  R.batch_slots = run.model().limits().max_batch;

  SimConfig main_cfg = run.config();
  // Unknown up front: a trace, agentic sessions, or a run its duration may end first.
  const std::size_t total =
      v.arrivals == "trace" || v.arrivals == "sessions" || v.duration_s > 0 ? 0 : static_cast<std::size_t>(v.requests);
  main_cfg.expected_calls = total;
  if (o.progress) {
    main_cfg.on_call_done = [&o, total](std::size_t done) { o.progress(done, total); };
  }
  const SimResult sim = run.simulate_spec(v, main_cfg);
  if (o.observe) o.observe(sim);
  R.source = sim.source;
  if (!sim.ignored_trace_columns.empty()) {
    std::string cols;
    for (const auto& c : sim.ignored_trace_columns) cols += (cols.empty() ? "" : ", ") + c;
    R.notes.push_back("trace columns not used: " + cols);
  }
  latency(sim, v.harness, R);
  throughput(sim, R);
  occupancy(sim, R);
  goodput(sim, v.targets, R);
  if (v.harness == "mlperf")
    R.mlperf = mlperf_summary(sim.calls, v.arrivals == "poisson", v.targets.ttft_s, v.targets.tpot_s);
  zero_load(run, R);
  economics(run, R);
  kv_precisions(run, R);
  context_sweep(run, R);
  sessions(run, sim, R);
  if (search) search_rate(run, R), economics_at_max_rate(R);
  if (R.rejected > 0) R.notes.push_back(std::to_string(R.rejected) + " requests rejected: " + R.rejected_reason);
  return R;
}

}  // namespace trnsim::serve
