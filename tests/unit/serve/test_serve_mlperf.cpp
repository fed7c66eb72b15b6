// The MLPerf harness (core/serve/mlperf.h) against loadgen's definitions, each figure computed
// here another way: the p99 as the smallest value that at least floor(0.99 n) + 1 samples do
// not exceed (the sorted element at floor(0.99 n)); the Server VALID rule as "enough samples
// within each constraint"; TPOT from each sample's own times; Server throughput over the
// last-issued sample's completion, Offline over the last completion. And a serving run with
// the harness: its summary is the one of the run's own calls, and bad settings are refused.
#include "serve_invariants.h"

#include "serve/mlperf.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve_mlperf {

using namespace serve_invariants;

namespace {

// The smallest of `v` that at least k = floor(p n) + 1 of the values do not exceed: loadgen's
// percentile by counting, no sort.
double by_count(const std::vector<double>& v, double p) {
  const std::size_t k = static_cast<std::size_t>(std::floor(p * double(v.size()))) + 1;
  double best = 0;
  bool found = false;
  for (double x : v) {
    std::size_t within = 0;
    for (double y : v) within += y <= x ? 1 : 0;
    if (within >= k && (!found || x < best)) best = x, found = true;
  }
  return best;
}

// Calls with deterministic, scattered times: arrival i / rate, TTFT and per-token gap varying.
std::vector<serve::CallRecord> calls(int n, double rate, double tpot_scale) {
  std::vector<serve::CallRecord> out;
  std::uint64_t s = 12345;
  auto unit = [&s] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) / 9007199254740992.0;
  };
  for (int i = 0; i < n; ++i) {
    serve::CallRecord r;
    r.chain = i;
    r.arrival_s = i / rate;
    r.output_tokens = 1 + static_cast<int>(unit() * 400);  // some of one token (no TPOT)
    r.first_token_s = r.arrival_s + 0.05 + 1.5 * unit() * unit();
    r.finish_s = r.first_token_s + (r.output_tokens - 1) * tpot_scale * (0.5 + unit());
    out.push_back(r);
  }
  // The simulator records calls in finishing order: shuffle so the last issued is not last.
  std::sort(out.begin(), out.end(), [](const serve::CallRecord& a, const serve::CallRecord& b) { return a.finish_s < b.finish_s; });
  return out;
}

}  // namespace

TEST_CASE("mlperf: loadgen's percentile is the sorted sample at floor(p n)", "[serve][mlperf]") {
  for (int n : {1, 2, 99, 100, 101, 250, 1000}) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(double((i * 7919) % n) + 0.5 * (i % 3));
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    CHECK(serve::loadgen_percentile(sorted, 0.99) == by_count(v, 0.99));
    CHECK(serve::loadgen_percentile(sorted, 0.5) == by_count(v, 0.5));
  }
  CHECK(serve::loadgen_percentile({}, 0.99) == 0);
}

TEST_CASE("mlperf: Server figures and the VALID rule, computed independently", "[serve][mlperf]") {
  const double rate = 20;
  for (double tpot_scale : {0.02, 0.15, 0.3}) {
    const auto c = calls(700, rate, tpot_scale);
    const double ttft_limit = 2.0, tpot_limit = 0.2;
    const serve::Mlperf m = serve::mlperf_summary(c, true, ttft_limit, tpot_limit);
    std::vector<double> ttft, tpot;
    double tokens = 0, ttft_sum = 0, tpot_sum = 0;
    const serve::CallRecord* last = nullptr;
    for (const auto& r : c) {
      ttft.push_back(r.first_token_s - r.arrival_s);
      ttft_sum += ttft.back();
      if (r.output_tokens > 1) {
        tpot.push_back((r.finish_s - r.first_token_s) / (r.output_tokens - 1));
        tpot_sum += tpot.back();
      }
      tokens += r.output_tokens;
      if (!last || r.arrival_s > last->arrival_s) last = &r;
    }
    CHECK(m.scenario == "Server");
    CHECK(m.samples == c.size());
    CHECK(m.ttft_mean_s == Approx(ttft_sum / double(c.size())));
    CHECK(m.tpot_mean_s == Approx(tpot_sum / double(tpot.size())));
    CHECK(m.ttft_p99_s == by_count(ttft, 0.99));
    CHECK(m.tpot_p99_s == by_count(tpot, 0.99));
    CHECK(m.tokens_per_s == Approx(tokens / last->finish_s));
    CHECK(m.samples_per_s == Approx(double(c.size() - 1) / last->finish_s));
    // VALID: at least floor(0.99 n) + 1 samples within each constraint.
    auto enough = [](const std::vector<double>& v, double limit) {
      std::size_t within = 0;
      for (double x : v) within += x <= limit ? 1 : 0;
      return within >= static_cast<std::size_t>(std::floor(0.99 * double(v.size()))) + 1;
    };
    CHECK(m.valid == (enough(ttft, ttft_limit) && enough(tpot, tpot_limit)));
    CHECK_FALSE(m.min_duration_met);  // 35 s of arrivals: short of loadgen's 600 s
  }
  // The rule bites both ways over these runs.
  CHECK(serve::mlperf_summary(calls(700, rate, 0.02), true, 2.0, 0.2).valid);
  CHECK_FALSE(serve::mlperf_summary(calls(700, rate, 0.3), true, 2.0, 0.2).valid);
  CHECK_FALSE(serve::mlperf_summary(calls(700, rate, 0.02), true, 0.5, 0.2).valid);
}

TEST_CASE("mlperf: Offline throughput over the last completion", "[serve][mlperf]") {
  auto c = calls(300, 1e9, 0.05);
  for (auto& r : c) r.first_token_s -= r.arrival_s, r.finish_s -= r.arrival_s, r.arrival_s = 0;  // all issued at once
  const serve::Mlperf m = serve::mlperf_summary(c, false, std::nullopt, std::nullopt);
  double tokens = 0, end = 0;
  for (const auto& r : c) tokens += r.output_tokens, end = std::max(end, r.finish_s);
  CHECK(m.scenario == "Offline");
  CHECK(m.valid);
  CHECK(m.tokens_per_s == Approx(tokens / end));
  CHECK(m.samples_per_s == Approx(300 / end));
}

TEST_CASE("mlperf: a serving run's summary is its own calls', and bad settings are refused", "[serve][mlperf]") {
  const json mlperf = {{"harness", "mlperf"}, {"targets", {{"ttft_s", 2.0}, {"tpot_s", 0.2}}}};
  const Run r = run(small_scenario("trtllm", mlperf));
  REQUIRE(r.report.mlperf);
  const serve::Mlperf want = serve::mlperf_summary(r.sim.calls, true, 2.0, 0.2);
  CHECK(r.report.mlperf->tokens_per_s == want.tokens_per_s);
  CHECK(r.report.mlperf->ttft_p99_s == want.ttft_p99_s);
  CHECK(r.report.mlperf->tpot_p99_s == want.tpot_p99_s);
  CHECK(r.report.mlperf->valid == want.valid);
  CHECK(r.report.mlperf->samples == r.sim.calls.size());

  json closed = mlperf;
  closed["arrivals"] = "closed";
  closed["concurrency"] = 4;
  CHECK_THROWS_WITH(serve::run(small_scenario("trtllm", closed)), Catch::Contains("serve.arrivals"));
  json untargeted = mlperf;
  untargeted["targets"] = {{"ttft_s", nullptr}, {"tpot_s", 0.2}};
  CHECK_THROWS_WITH(serve::run(small_scenario("trtllm", untargeted)), Catch::Contains("serve.targets.ttft_s"));
}

}  // namespace unit_serve_mlperf
