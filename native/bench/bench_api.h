// The benchmark API every native/bench/*.cpp is written against: Google Benchmark natively
// (Debian's libbenchmark-dev), and in the WebAssembly build our own stand-in for the part of
// it these benchmarks use (portable/portable_benchmark.h: Google Benchmark is not packaged
// for emscripten).
#pragma once
#ifdef __EMSCRIPTEN__
#include "portable/portable_benchmark.h"
#else
#include <benchmark/benchmark.h>
#endif
