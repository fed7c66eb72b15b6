// How fast the capacity planner searches (the target: the gpt-oss-120b example's >= 1,000
// configurations in under 60 s natively on 2 cores). The baseline, measured in the same run,
// is one simulation of one of its configurations at the offered load (the serving example
// the plan is built on, at the planner's replica count for its cheapest Trn3 family): a ratio
// says how many such runs the whole search costs. Counters: configurations and simulations.
#include "bench_api.h"

#include "embedded.h"
#include "report/capacity.h"
#include "report/serving.h"
#include "scenario/scenario.h"

using namespace trnsim;

namespace {

Scenario plan_example() {
  return parse_scenario(*find_embedded("examples/capacity-gpt-oss-120b.json"), "example");
}

}  // namespace

// One configuration simulated: 10 tp2 replicas of the example on a Trn3 Gen2 UltraServer.
static void BM_CapacityOneConfiguration(benchmark::State& state) {
  Scenario s = plan_example();
  set_field(s, "workload.parallelism.tp", 2);
  set_field(s, "workload.parallelism.dp", 10);
  for (auto _ : state) {
    serve::Result r = serve::run(s);
    benchmark::DoNotOptimize(r.attainment);
  }
}
BENCHMARK(BM_CapacityOneConfiguration)->Unit(benchmark::kMillisecond)->Iterations(3);

// The whole plan on `threads` threads (CPU time is the calling thread's: read the wall time).
static void BM_CapacityPlan(benchmark::State& state) {
  const Scenario s = plan_example();
  capacity::Options o;
  o.jobs = static_cast<int>(state.range(0));
  for (auto _ : state) {
    capacity::Result r = capacity::plan(s, o);
    benchmark::DoNotOptimize(r.best.size());
    state.counters["configurations"] = r.configurations;
    state.counters["simulations"] = r.simulations;
  }
}
BENCHMARK(BM_CapacityPlan)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1);
