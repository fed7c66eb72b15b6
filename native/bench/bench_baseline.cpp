// Baselines every other benchmark is read against: a plain memory copy over a
// buffer too large for the caches. Counters count bytes read + written.
#include "bench_api.h"

#include <cstring>
#include <vector>

static void BM_MemcpyBaseline(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.counters["bytes_per_s"] = benchmark::Counter(
      static_cast<double>(2 * bytes) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MemcpyBaseline)->Arg(64 << 20)->Unit(benchmark::kMillisecond);
