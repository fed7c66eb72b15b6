// Hardware-model speed: loading a system from its data files (every slider move in the
// playground may reload one) and the NeuronCore engine model on a 4096^3 GEMM and an
// attention block, each judged against the roofline pricing of the same kernel on one
// NeuronCore (BM_RooflineGemm4096Bf16, BM_RooflineAttention4096: the fast pricer the
// engine model refines). Counter: evaluations per second.
#include "bench_api.h"

#include "engine/engine.h"
#include "hw/roofline.h"
#include "hw/system.h"

namespace {

void BM_LoadSystemGen2(benchmark::State& state) {
  for (auto _ : state) {
    auto s = trnsim::hw::load_system("trn3-gen2-ultraserver");
    benchmark::DoNotOptimize(s.chips);
  }
  state.counters["loads_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_EngineGemm4096Bf16(benchmark::State& state) {
  auto chip = trnsim::hw::load_chip("trainium3");
  trnsim::engine::GemmShape g;
  for (auto _ : state) {
    auto r = trnsim::engine::gemm(chip, g);
    benchmark::DoNotOptimize(r.time_s);
  }
  state.counters["kernels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_EngineAttention4096(benchmark::State& state) {
  auto chip = trnsim::hw::load_chip("trainium3");
  trnsim::engine::AttentionShape a;
  a.seq_q = a.seq_kv = 4096;
  for (auto _ : state) {
    auto r = trnsim::engine::attention(chip, a);
    benchmark::DoNotOptimize(r.time_s);
  }
  state.counters["kernels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The roofline baselines: the same FLOPs and HBM bytes, priced by hw::roofline on one core.
void roofline_bench(benchmark::State& state, double flops, double bytes) {
  auto core = trnsim::engine::one_core(trnsim::hw::load_chip("trainium3"));
  trnsim::hw::OperatorCost op;
  op.flops = flops;
  op.hbm_bytes = bytes;
  for (auto _ : state) {
    auto r = trnsim::hw::roofline(core, op, {});
    benchmark::DoNotOptimize(r.time_s);
  }
  state.counters["kernels_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_RooflineGemm4096Bf16(benchmark::State& state) {
  const double n = 4096;
  roofline_bench(state, 2 * n * n * n, 3 * n * n * 2);
}

void BM_RooflineAttention4096(benchmark::State& state) {
  const double s = 4096, d = 128;
  roofline_bench(state, 4 * s * s * d / 2, 4 * s * d * 2);
}

}  // namespace

BENCHMARK(BM_RooflineGemm4096Bf16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RooflineAttention4096)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LoadSystemGen2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EngineGemm4096Bf16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EngineAttention4096)->Unit(benchmark::kMillisecond);
