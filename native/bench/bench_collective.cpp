// Collective timing speed (targets: README performance table): the event backend on a 144-rank all-to-all
// over the Trn3 Gen2 NeuronSwitch fabric (144 x 143 = 20,592 flows, target < 100 ms) and
// the analytic backend on an all-reduce over a 1,000,000-chip UltraCluster (< 10 ms).
// Baselines in the same run (scripts/bench.sh): each event-backend case against the
// analytic backend on the same request, and the 1M-chip all-reduce against the same
// all-reduce on one UltraServer. Counter: collectives evaluated per second.
#include "bench_api.h"

#include "hw/system.h"
#include "collective/collective.h"

namespace {

void run(benchmark::State& state, const char* system_name, const char* op, double bytes, const char* algo,
         const char* backend) {
  trnsim::hw::System system = trnsim::hw::load_system(system_name);
  trnsim::collective::Request req;
  req.op = op;
  req.bytes = bytes;
  req.algo = algo;
  req.backend = backend;
  double flows = 0;
  for (auto _ : state) {
    auto r = trnsim::collective::run(system, req);
    flows = r.flows_timed;
    benchmark::DoNotOptimize(r.time_s);
  }
  state.counters["flows_timed"] = flows;
  state.counters["collectives_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_EventAllToAll144Gen2(benchmark::State& state) {
  run(state, "trn3-gen2-ultraserver", "all-to-all", 64.0 * 1048576, "mesh", "event");
}
void BM_AnalyticAllToAll144Gen2(benchmark::State& state) {
  run(state, "trn3-gen2-ultraserver", "all-to-all", 64.0 * 1048576, "mesh", "analytic");
}
void BM_EventAllToAll64Trn2Torus(benchmark::State& state) {
  run(state, "trn2-ultraserver", "all-to-all", 64.0 * 1048576, "mesh", "event");
}
void BM_AnalyticAllToAll64Trn2Torus(benchmark::State& state) {
  run(state, "trn2-ultraserver", "all-to-all", 64.0 * 1048576, "mesh", "analytic");
}
void BM_AnalyticAllReduce1MChips(benchmark::State& state) {
  run(state, "trn2-ultracluster:15625", "all-reduce", 1073741824.0, "auto", "analytic");
}
void BM_AnalyticAllReduce1MChipsTrn3(benchmark::State& state) {
  run(state, "trn3-gen1-ultracluster:15625", "all-reduce", 1073741824.0, "auto", "analytic");
}
void BM_AnalyticAllReduceGen2Sweep(benchmark::State& state) {
  run(state, "trn3-gen2-ultraserver", "all-reduce", 268435456.0, "auto", "analytic");
}

}  // namespace

BENCHMARK(BM_EventAllToAll144Gen2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticAllToAll144Gen2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EventAllToAll64Trn2Torus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticAllToAll64Trn2Torus)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticAllReduce1MChips)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticAllReduce1MChipsTrn3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyticAllReduceGen2Sweep)->Unit(benchmark::kMillisecond);
