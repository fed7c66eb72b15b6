// Sampling and generated arrivals (requests.h).
#include "serve/requests.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/error.h"
#include "common/format.h"
#include "mx/mx.h"

namespace trnsim::serve {

namespace {

constexpr std::uint64_t kSharedPrefixNs = 0x5157454d50524f4dull;  // the generated requests' shared prompt

// Namespaces of generated prompts: one per request (nobody else shares it).
std::uint64_t request_ns(std::uint64_t seed, std::int64_t id) { return block_key(seed ^ 0xa5a5a5a5a5a5a5a5ull, id); }

class Generated : public Source {
 public:
  Generated(const Spec& spec, double rate, double mean_input, double mean_output)
      : spec_(spec),
        rate_(rate),
        mean_input_(mean_input),
        mean_output_(mean_output),
        arrivals_(static_cast<std::uint64_t>(spec.seed) * 2 + 1),
        lengths_(static_cast<std::uint64_t>(spec.seed) * 2 + 2),
        stops_(block_key(0x454f5353544f5053ull, static_cast<std::uint64_t>(spec.seed))),  // its own stream
        stop_rate_(eos_stop_rate(spec.output, mean_output)) {}

  bool next(Chain& c) override {
    if (sent_ >= spec_.requests) return false;
    c = Chain();
    c.id = sent_;
    c.arrival_s = next_arrival();
    Call call;
    call.input_tokens = lengths_.length(spec_.input, mean_input_);
    call.output_tokens = lengths_.length(spec_.output, mean_output_);
    if (stop_rate_ > 0) call.output_tokens = std::min(call.output_tokens, stops_.geometric(1 / stop_rate_));
    const int shared = std::min(spec_.shared_prefix_tokens, call.input_tokens);
    if (shared > 0) call.segments.push_back({shared, kSharedPrefixNs});
    call.segments.push_back({call.input_tokens, request_ns(static_cast<std::uint64_t>(spec_.seed), sent_), false});
    c.calls.push_back(std::move(call));
    ++sent_;
    return true;
  }

  std::string describe() const override {
    const std::string& a = spec_.arrivals;
    std::string what = std::to_string(spec_.requests) + " requests, ";
    if (a == "closed") what += "closed loop with " + std::to_string(spec_.concurrency) + " in flight";
    else if (a == "burst") what += "all sent at t = 0";
    else
      what += a + " arrivals at " + fmt::general(rate_, 6) + " per second" +
              (a == "gamma" ? " (burstiness " + fmt::general(spec_.burstiness, 4) + ")" : "");
    if (stop_rate_ > 0)
      what += "; outputs stop at EOS at " + fmt::general(stop_rate_, 3) + " per token (" +
              fmt::general(*spec_.output.eos_mean, 6) + " of " + fmt::general(mean_output_, 6) + " tokens served on average)";
    return what;
  }

 private:
  double next_arrival() {
    const std::string& a = spec_.arrivals;
    if (a == "burst" || a == "closed") return 0;
    if (sent_ == 0) return 0;
    double gap = 0;
    if (a == "constant") gap = 1 / rate_;
    else if (a == "gamma") gap = arrivals_.gamma(spec_.burstiness) / (rate_ * spec_.burstiness);
    else gap = arrivals_.exponential(1 / rate_);
    t_ += gap;
    return t_;
  }

  Spec spec_;
  double rate_, mean_input_, mean_output_;
  Sampler arrivals_, lengths_, stops_;
  double stop_rate_;
  std::int64_t sent_ = 0;
  double t_ = 0;
};

}  // namespace

double Sampler::unit_open() {
  double u;
  do u = rng_.unit();
  while (u <= 0);
  return u;
}

double Sampler::exponential(double mean) { return -mean * mx::det_log(unit_open()); }

double Sampler::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double x, y, s;
  do {
    x = 2 * rng_.unit() - 1;
    y = 2 * rng_.unit() - 1;
    s = x * x + y * y;
  } while (s >= 1 || s == 0);
  const double f = std::sqrt(-2 * mx::det_log(s) / s);
  spare_ = y * f;
  has_spare_ = true;
  return x * f;
}

double Sampler::gamma(double shape) {
  if (shape < 1) return gamma(shape + 1) * mx::det_exp(mx::det_log(unit_open()) / shape);
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = unit_open();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (mx::det_log(u) < 0.5 * x * x + d * (1 - v + mx::det_log(v))) return d * v;
  }
}

int Sampler::geometric(double mean) {
  if (mean <= 1) return 1;
  const double p = 1 / mean;
  const double k = std::floor(mx::det_log(unit_open()) / mx::det_log(1 - p));
  return 1 + static_cast<int>(std::min(k, 1e9));
}

int Sampler::length(const Lengths& l, double mean) {
  double v = mean;
  const std::string& d = l.distribution;
  if (d == "uniform") v = mean - l.spread + 2 * l.spread * rng_.unit();
  else if (d == "normal") v = mean + l.spread * normal();
  else if (d == "exponential") v = exponential(mean);
  else if (d == "lognormal" && l.spread > 0) {
    const double s2 = mx::det_log(1 + (l.spread * l.spread) / (mean * mean));
    v = mx::det_exp(mx::det_log(mean) - s2 / 2 + std::sqrt(s2) * normal());
  }
  const double r = std::floor(v + 0.5);
  return static_cast<int>(std::clamp(r, double(std::max(1, l.min)), double(std::max(1, l.max))));
}

double mean_length(const Lengths& l, double workload_tokens) { return l.mean ? *l.mean : workload_tokens; }

double served_mean_length(const Lengths& l, double workload_tokens) {
  return l.eos_mean ? *l.eos_mean : mean_length(l, workload_tokens);
}

double eos_stop_rate(const Lengths& l, double drawn_mean) {
  if (!l.eos_mean) return 0;
  Sampler draws(0x6c656e67746873ull);  // fixed: the same draws for every scenario
  std::vector<double> m(2048);
  double sum = 0;
  for (double& x : m) sum += (x = draws.length(l, drawn_mean));
  const double target = *l.eos_mean;
  if (target >= sum / m.size()) return 0;
  auto served = [&](double h) {  // E[min(M, G)] at stop rate h
    const double log_keep = mx::det_log(1 - h);
    double t = 0, last = -1, keep = 0;  // equal draws in a row (a fixed draw: all) share one det_exp
    for (double x : m) {
      if (x != last) last = x, keep = mx::det_exp(x * log_keep);
      t += (1 - keep) / h;
    }
    return t / m.size();
  };
  double lo = 0, hi = 1;  // served() falls from the drawn mean (h -> 0) to 1 (h -> 1)
  for (int i = 0; i < 60; ++i) {
    const double h = (lo + hi) / 2;
    (served(h) > target ? lo : hi) = h;
  }
  return (lo + hi) / 2;
}

const std::vector<std::string>& distribution_names() {
  static const std::vector<std::string> v = {"fixed", "uniform", "normal", "lognormal", "exponential"};
  return v;
}

const std::vector<std::string>& arrival_names() {
  static const std::vector<std::string> v = {"poisson", "gamma", "constant", "burst", "closed", "trace", "sessions"};
  return v;
}

std::unique_ptr<Source> generated_source(const Spec& spec, double rate, double mean_input, double mean_output) {
  return std::make_unique<Generated>(spec, rate, mean_input, mean_output);
}

}  // namespace trnsim::serve
