// A portable stand-in for the part of Google Benchmark that trnsim's benchmarks use, so the
// same native/bench/*.cpp sources build for WebAssembly (Google Benchmark is not packaged
// for emscripten) and run under node as build/wasm/native/trnsim-bench.js. It measures the
// way Google Benchmark does -- a calibrated number of iterations of the `for (auto _ :
// state)` loop until the minimum time has passed, each repetition timed as a whole -- with a
// wall clock (there is no per-process CPU clock in WebAssembly; scripts/bench.sh reads the
// native run's wall times too, so both sides are compared on the same clock). Output: the
// console table, or --benchmark_format=json / --benchmark_out=FILE in Google Benchmark's
// JSON layout (name, iterations, real_time, cpu_time = real_time, time_unit, counters).
// Flags: --benchmark_filter=REGEX, --benchmark_min_time=SECONDS, --benchmark_repetitions=N,
// --benchmark_list_tests. Only used when building for WebAssembly (native/bench/bench_api.h picks it).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace benchmark {

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };

class Counter {
 public:
  enum Flags { kDefaults = 0, kIsRate = 1 };
  Counter(double v = 0, Flags f = kDefaults) : value(v), flags(f) {}  // NOLINT: implicit as in Google Benchmark
  double value;
  Flags flags;
};

class State {
 public:
  State(std::uint64_t iterations, std::vector<std::int64_t> args) : max_(iterations), args_(std::move(args)) {}
  struct Iterator {
    State* s;
    std::uint64_t left;
    bool operator!=(const Iterator&) const { return left != 0; }
    void operator++() { --left; }
    struct Value {
      ~Value() {}  // non-trivial, so `for (auto _ : state)` draws no unused-variable warning
    };
    Value operator*() const { return {}; }
  };
  Iterator begin();
  Iterator end() { return Iterator{this, 0}; }
  std::uint64_t iterations() const { return max_; }
  std::int64_t range(std::size_t i = 0) const { return i < args_.size() ? args_[i] : 0; }
  void SetLabel(const std::string& label) { label_ = label; }
  // UseManualTime(): the benchmark times itself; rates then divide by the sum of these.
  void SetIterationTime(double seconds) { manual_s_ += seconds; }
  double manual_s_ = 0;
  std::map<std::string, Counter> counters;
  // Set by the runner after the loop.
  std::chrono::steady_clock::time_point start_;
  double start_cpu_s_ = 0;
  std::string label_;

 private:
  std::uint64_t max_;
  std::vector<std::int64_t> args_;
};

template <class T>
inline void DoNotOptimize(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}
template <class T>
inline void DoNotOptimize(T& value) {
  asm volatile("" : "+r,m"(value) : : "memory");
}
inline void ClobberMemory() { asm volatile("" : : : "memory"); }

namespace internal {

struct Benchmark {
  std::string name;
  std::function<void(State&)> fn;
  TimeUnit unit = kNanosecond;
  std::vector<std::vector<std::int64_t>> arg_sets;
  bool manual_time = false;
  std::uint64_t fixed_iterations = 0;  // 0: calibrated
  Benchmark* Unit(TimeUnit u) { unit = u; return this; }
  Benchmark* Arg(std::int64_t a) { arg_sets.push_back({a}); return this; }
  Benchmark* UseManualTime() { manual_time = true; return this; }
  Benchmark* Iterations(std::uint64_t n) { fixed_iterations = n; return this; }
};
void add_context(const std::string& key, const std::string& value);

std::vector<std::unique_ptr<Benchmark>>& registry();
Benchmark* add(std::string name, std::function<void(State&)> fn);
int run_all(int argc, char** argv);

}  // namespace internal

// Key/value lines for the output's "context" (the CPU, the kernels chosen, ...).
inline void AddCustomContext(const std::string& key, const std::string& value) { internal::add_context(key, value); }

template <class Fn, class... Args>
internal::Benchmark* RegisterBenchmark(const char* name, Fn&& fn, Args&&... args) {
  return internal::add(name, [fn, args...](State& s) { fn(s, args...); });
}

}  // namespace benchmark

#define BENCHMARK_PRIVATE_CONCAT2(a, b) a##b
#define BENCHMARK_PRIVATE_CONCAT(a, b) BENCHMARK_PRIVATE_CONCAT2(a, b)
#define BENCHMARK(fn)                                                                          \
  static ::benchmark::internal::Benchmark* BENCHMARK_PRIVATE_CONCAT(benchmark_reg_, __COUNTER__) = \
      ::benchmark::internal::add(#fn, fn)
#define BENCHMARK_MAIN() \
  int main(int argc, char** argv) { return ::benchmark::internal::run_all(argc, argv); }
