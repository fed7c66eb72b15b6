// trnsim-bench: Google Benchmark binary. Benchmarks live one topic per file in this
// folder (bench_*.cpp) and report rates through counters (bytes/s, FLOP/s), so ratios
// against baselines measured in the same run (memory copy, OpenBLAS) can be read off.
#include "bench_api.h"

BENCHMARK_MAIN();
