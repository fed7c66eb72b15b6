// The runner of the portable benchmark stand-in (portable_benchmark.h).
#include "portable_benchmark.h"

#include <emscripten.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

// The process's CPU time (user + system), in seconds.
EM_JS(double, trnsim_bench_cpu_seconds, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});

namespace benchmark {

State::Iterator State::begin() {
  start_cpu_s_ = trnsim_bench_cpu_seconds();
  start_ = std::chrono::steady_clock::now();
  return Iterator{this, max_};
}

}  // namespace benchmark

namespace benchmark::internal {

std::vector<std::unique_ptr<Benchmark>>& registry() {
  static std::vector<std::unique_ptr<Benchmark>> r;
  return r;
}

std::map<std::string, std::string>& context() {
  static std::map<std::string, std::string> c;
  return c;
}
void add_context(const std::string& key, const std::string& value) { context()[key] = value; }

Benchmark* add(std::string name, std::function<void(State&)> fn) {
  registry().push_back(std::make_unique<Benchmark>());
  registry().back()->name = std::move(name);
  registry().back()->fn = std::move(fn);
  return registry().back().get();
}

namespace {

struct Run {
  std::string name;
  std::uint64_t iterations = 0;
  double seconds = 0;      // the whole timed loop, wall clock
  double cpu_seconds = 0;  // the same, CPU time
  TimeUnit unit = kNanosecond;
  std::map<std::string, Counter> counters;
  std::string label;
  int repetition = 0, repetitions = 1;
};

double unit_scale(TimeUnit u) { return u == kNanosecond ? 1e9 : u == kMicrosecond ? 1e6 : u == kMillisecond ? 1e3 : 1.0; }
const char* unit_name(TimeUnit u) { return u == kNanosecond ? "ns" : u == kMicrosecond ? "us" : u == kMillisecond ? "ms" : "s"; }

Run run_once(const Benchmark& b, const std::vector<std::int64_t>& args, const std::string& name, double min_time) {
  // Grow the iteration count until one timed loop lasts at least min_time (as Google
  // Benchmark does), then report that loop.
  std::uint64_t n = b.fixed_iterations ? b.fixed_iterations : 1;
  for (;;) {
    State s(n, args);
    b.fn(s);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start_).count();
    double t = trnsim_bench_cpu_seconds() - s.start_cpu_s_;
    if (b.manual_time) wall = t = s.manual_s_;  // the benchmark's own clock, as Google Benchmark reports it
    // Both clocks past the minimum: a coarse CPU clock cannot end a run after a few calls.
    if (b.fixed_iterations || (t >= min_time && wall >= min_time) || n >= (std::uint64_t{1} << 40)) {
      Run r;
      r.name = name, r.iterations = n, r.seconds = wall, r.cpu_seconds = t, r.unit = b.unit, r.label = s.label_;
      for (auto& [k, c] : s.counters) r.counters[k] = c.flags & Counter::kIsRate ? Counter(c.value / t) : c;
      return r;
    }
    double shortest = std::min(t, wall);
    double grow = shortest > 0 ? std::min(10.0, std::max(1.5, 1.4 * min_time / shortest)) : 10.0;
    n = static_cast<std::uint64_t>(static_cast<double>(n) * grow) + 1;
  }
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) o += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return o;
}

std::string to_json(const std::vector<Run>& runs) {
  std::ostringstream o;
  o.precision(17);
  o << "{\n  \"context\": {\"library\": \"trnsim portable benchmark (WebAssembly under node)\"";
  for (const auto& [k, v] : context()) o << ", \"" << json_escape(k) << "\": \"" << json_escape(v) << "\"";
  o << "},\n"
    << "  \"benchmarks\": [\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    double t = r.seconds / static_cast<double>(r.iterations) * unit_scale(r.unit);
    double ct = r.cpu_seconds / static_cast<double>(r.iterations) * unit_scale(r.unit);
    o << "    {\"name\": \"" << json_escape(r.name) << "\", \"run_name\": \"" << json_escape(r.name)
      << "\", \"run_type\": \"iteration\", \"repetitions\": " << r.repetitions << ", \"repetition_index\": " << r.repetition
      << ", \"iterations\": " << r.iterations << ", \"real_time\": " << t << ", \"cpu_time\": " << ct
      << ", \"time_unit\": \"" << unit_name(r.unit) << "\"";
    if (!r.label.empty()) o << ", \"label\": \"" << json_escape(r.label) << "\"";
    for (const auto& [k, c] : r.counters) o << ", \"" << json_escape(k) << "\": " << c.value;
    o << "}" << (i + 1 < runs.size() ? "," : "") << "\n";
  }
  o << "  ]\n}\n";
  return o.str();
}

}  // namespace

int run_all(int argc, char** argv) {
  std::string filter = ".", format = "console", out;
  double min_time = 0.5;
  int repetitions = 1;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* flag) -> const char* {
      std::size_t n = std::strlen(flag);
      return a.compare(0, n, flag) == 0 && a.size() > n && a[n] == '=' ? argv[i] + n + 1 : nullptr;
    };
    if (const char* v = value("--benchmark_filter")) filter = v;
    else if (const char* v = value("--benchmark_min_time")) min_time = std::atof(v);
    else if (const char* v = value("--benchmark_repetitions")) repetitions = std::max(1, std::atoi(v));
    else if (const char* v = value("--benchmark_format")) format = v;
    else if (const char* v = value("--benchmark_out")) out = v;
    else if (a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true") list = true;
    else if (value("--benchmark_out_format")) continue;
    else {
      std::fprintf(stderr, "trnsim-bench (portable): unknown flag %s\n", a.c_str());
      return 2;
    }
  }
  const std::regex re(filter);
  std::vector<Run> runs;
  for (const auto& b : registry()) {
    std::vector<std::vector<std::int64_t>> sets = b->arg_sets.empty() ? std::vector<std::vector<std::int64_t>>{{}} : b->arg_sets;
    for (const auto& args : sets) {
      std::string name = b->name;
      for (auto a : args) name += "/" + std::to_string(a);
      if (b->fixed_iterations) name += "/iterations:" + std::to_string(b->fixed_iterations);
      if (b->manual_time) name += "/manual_time";
      if (!std::regex_search(name, re)) continue;
      if (list) {
        std::printf("%s\n", name.c_str());
        continue;
      }
      for (int rep = 0; rep < repetitions; ++rep) {
        Run r = run_once(*b, args, name, min_time);
        r.repetition = rep, r.repetitions = repetitions;
        double t = r.seconds / static_cast<double>(r.iterations) * unit_scale(r.unit);
        std::fprintf(stderr, "%-48s %12.4g %s (cpu %.4g) %10llu", name.c_str(), t, unit_name(r.unit),
                     r.cpu_seconds / static_cast<double>(r.iterations) * unit_scale(r.unit),
                     static_cast<unsigned long long>(r.iterations));
        for (const auto& [k, c] : r.counters) std::fprintf(stderr, " %s=%.4g", k.c_str(), c.value);
        std::fprintf(stderr, "\n");
        runs.push_back(r);
      }
    }
  }
  if (list) return 0;
  std::string json = to_json(runs);
  if (format == "json") std::fputs(json.c_str(), stdout);
  if (!out.empty()) {
    std::ofstream f(out);
    f << json;
    if (!f) {
      std::fprintf(stderr, "trnsim-bench (portable): cannot write %s\n", out.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace benchmark::internal
