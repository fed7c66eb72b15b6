// How fast the workload layer answers: one evaluation per slider move in the playground
// (target < 16 ms in WebAssembly), one per point of a sweep (10,000 points in under a
// minute on 2 cores), and the whole `trnsim run` of an example (< 50 ms). Counters:
// evaluations (or points) per second.
#include "bench_api.h"

#include "hw/system.h"
#include "scenario/scenario.h"
#include "report/report.h"
#include "workload/workload.h"

using namespace trnsim;

namespace {

workload::Spec llama70b_training() {
  return trnsim::parse_workload({{"model", "Llama-3.1-70B"},
                               {"kind", "training"},
                               {"parallelism", {{"tp", 4}, {"pp", 4}, {"dp", 144}}},
                               {"training", {{"global_batch", 2304}}}});
}

void rate(benchmark::State& state) {
  state.counters["evaluations_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

static void BM_WorkloadEvaluateInference(benchmark::State& state) {
  hw::System sys = hw::load_system("trn3-gen2-ultraserver");
  workload::Spec spec = trnsim::default_scenario().workload;
  for (auto _ : state) {
    workload::Result r = workload::evaluate(spec, sys);
    benchmark::DoNotOptimize(r.inference().tpot_s);
  }
  rate(state);
}
BENCHMARK(BM_WorkloadEvaluateInference)->Unit(benchmark::kMicrosecond);

static void BM_WorkloadEvaluateDeepSeekEP(benchmark::State& state) {
  hw::System sys = hw::load_system("trn3-gen2-ultraserver");
  workload::Spec spec = trnsim::parse_workload({{"model", "DeepSeek-V3"},
                                              {"precision", {{"weights", "mxfp8"}, {"attention_weights", "mxfp8"},
                                                             {"activations", "mxfp8"}}},
                                              {"parallelism", {{"tp", 8}, {"dp", 8}, {"ep", 64}}},
                                              {"inference", {{"batch", 64}}}});
  for (auto _ : state) {
    workload::Result r = workload::evaluate(spec, sys);
    benchmark::DoNotOptimize(r.inference().tpot_s);
  }
  rate(state);
}
BENCHMARK(BM_WorkloadEvaluateDeepSeekEP)->Unit(benchmark::kMicrosecond);

static void BM_WorkloadEvaluateTrainingCluster(benchmark::State& state) {
  hw::System sys = hw::load_system("trn3-gen2-ultracluster:16");
  workload::Spec spec = llama70b_training();
  for (auto _ : state) {
    workload::Result r = workload::evaluate(spec, sys);
    benchmark::DoNotOptimize(r.training().step_time_s);
  }
  rate(state);
}
BENCHMARK(BM_WorkloadEvaluateTrainingCluster)->Unit(benchmark::kMicrosecond);

// What one sweep point costs: parse the scenario text, load both systems, evaluate both,
// write the report JSON.
static void BM_WorkloadSweepPoint(benchmark::State& state) {
  std::string text = scenario_to_string(default_scenario());
  for (auto _ : state) {
    Report r = evaluate(parse_scenario(text, "bench"));
    std::string out = report_to_json(r).dump();
    benchmark::DoNotOptimize(out.data());
  }
  rate(state);
}
BENCHMARK(BM_WorkloadSweepPoint)->Unit(benchmark::kMicrosecond);

// Its baseline: reading the same scenario text alone (JSON parse and validation, the
// bundled model's import) -- what any tool must do with a scenario before modelling it.
static void BM_ScenarioParse(benchmark::State& state) {
  std::string text = scenario_to_string(default_scenario());
  for (auto _ : state) {
    Scenario s = parse_scenario(text, "bench");
    benchmark::DoNotOptimize(s.name.data());
  }
  rate(state);
}
BENCHMARK(BM_ScenarioParse)->Unit(benchmark::kMicrosecond);

static void BM_WorkloadResultToJsonAndText(benchmark::State& state) {
  hw::System sys = hw::load_system("trn3-gen2-ultraserver");
  workload::Result r = workload::evaluate(trnsim::default_scenario().workload, sys);
  for (auto _ : state) {
    std::string j = workload::result_to_json(r).dump();
    std::string t = workload::result_to_text(r);
    benchmark::DoNotOptimize(j.data());
    benchmark::DoNotOptimize(t.data());
  }
  rate(state);
}
BENCHMARK(BM_WorkloadResultToJsonAndText)->Unit(benchmark::kMicrosecond);
