// How fast the serving simulator runs (the targets: `trnsim serve` of 100,000 requests
// in under 1 s natively, 10,000 in under 100 ms in the page, the rate search under 10 s).
// The baseline, measured in the same run, is the event loop alone: the same arrivals and
// scheduler with a step model of constant cost (no pricing), so a ratio says what pricing
// steps through plan -> price adds. Counters: requests per second of simulation.
#include "bench_api.h"

#include "embedded.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/requests.h"
#include "serve/sim/simulator.h"
#include "serve/stack/step_model.h"

using namespace trnsim;

namespace {

// Llama-3.1-8B on a trn2.48xlarge, 16 one-chip replicas, guidellm's 1500 +- 150 / 250 +- 20
// lengths at a rate that keeps the batches full.
Scenario loaded(int requests) {
  return scenario_from_json(
      {{"system", "trn2-48xlarge"},
       {"compare_system", ""},
       {"workload", {{"model", "Llama-3.1-8B"}, {"parallelism", {{"tp", 1}, {"dp", 16}}},
                     {"inference", {{"batch", 1}, {"input_tokens", 1500}, {"output_tokens", 250}}}}},
       {"serve", {{"arrivals", "poisson"}, {"rate", 150}, {"requests", requests},
                  {"input_tokens", {{"distribution", "normal"}, {"spread", 150}}},
                  {"output_tokens", {{"distribution", "normal"}, {"spread", 20}}}}}});
}

// Every step costs the same: the simulator's own work.
class ConstantStep : public serve::StepModel {
 public:
  std::string name() const override { return "constant"; }
  serve::StepTime step(const serve::Batch& b) const override {
    serve::StepTime t;
    t.time_s = 0.02;
    t.split.compute_s = t.time_s;
    t.padded_batch = static_cast<int>(b.decode_contexts.size() + b.prefills.size());
    return t;
  }
  serve::Limits limits() const override {
    serve::Limits l;
    l.max_batch = 256;
    l.max_batched_tokens = 8192;
    return l;
  }
  serve::ReplicaMemory memory() const override {
    serve::ReplicaMemory m;
    m.kv_budget_bytes = 64e9;
    return m;
  }
  double kv_bytes(double context) const override { return context * 131072; }
  double request_overhead_s() const override { return 0; }
};

serve::SimConfig config(const Scenario& s) {
  serve::SimConfig c;
  c.replicas = s.workload.parallelism.dp;
  return c;
}

void requests_rate(benchmark::State& state, double requests) {
  state.counters["requests_per_s"] =
      benchmark::Counter(requests * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

static void BM_ServeEventLoopConstantStep(benchmark::State& state) {
  const Scenario s = loaded(static_cast<int>(state.range(0)));
  const ConstantStep model;
  for (auto _ : state) {
    auto src = serve::generated_source(s.serve, s.serve.rate, 1500, 250);
    serve::SimResult r = serve::simulate(model, *src, config(s));
    benchmark::DoNotOptimize(r.end_s);
  }
  requests_rate(state, double(state.range(0)));
}
BENCHMARK(BM_ServeEventLoopConstantStep)->Arg(100000)->Unit(benchmark::kMillisecond);

static void BM_ServeSimulatePlain(benchmark::State& state) {
  const Scenario s = loaded(static_cast<int>(state.range(0)));
  const hw::System sys = hw::load_system(s.system);
  for (auto _ : state) {
    auto model = serve::make_step_model(sys, s.workload, s.serve);  // a fresh shape cache every run
    auto src = serve::generated_source(s.serve, s.serve.rate, 1500, 250);
    serve::SimResult r = serve::simulate(*model, *src, config(s));
    benchmark::DoNotOptimize(r.end_s);
  }
  requests_rate(state, double(state.range(0)));
}
BENCHMARK(BM_ServeSimulatePlain)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// The whole of `trnsim serve` but parsing and printing: the run, zero load, the KV tables.
static void BM_ServeRun(benchmark::State& state) {
  const Scenario s = loaded(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    serve::Result r = serve::run(s);
    benchmark::DoNotOptimize(r.ttft.p50);
  }
  requests_rate(state, double(state.range(0)));
}
BENCHMARK(BM_ServeRun)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// The rate search on the bundled Trn3 serving-at-load example (4,000 requests per probe),
// judged against one run of the same example at its own rate (BM_ServeAtLoadOnce).
static void BM_ServeAtLoadOnce(benchmark::State& state) {
  Scenario s = parse_scenario(*find_embedded("examples/serve-at-load-trn3-gen2.json"), "example");
  for (auto _ : state) {
    serve::Result r = serve::run(s);
    benchmark::DoNotOptimize(r.ttft.p50);
  }
}
BENCHMARK(BM_ServeAtLoadOnce)->Unit(benchmark::kMillisecond)->Iterations(3);

static void BM_ServeFindRate(benchmark::State& state) {
  Scenario s = parse_scenario(*find_embedded("examples/serve-at-load-trn3-gen2.json"), "example");
  set_field(s, "serve.find_rate", true);
  for (auto _ : state) {
    serve::Result r = serve::run(s);
    benchmark::DoNotOptimize(r.max_rate);
    state.counters["probes"] = static_cast<double>(r.probes.size());
  }
}
BENCHMARK(BM_ServeFindRate)->Unit(benchmark::kMillisecond)->Iterations(2);
