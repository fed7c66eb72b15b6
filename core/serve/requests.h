// Requests for the serving simulator and where they come from: generated arrivals (Poisson,
// gamma-bursty, constant, a burst at t = 0, closed-loop clients) with token-length
// distributions, agentic sessions (sessions.h) and trace files (traces.h). Everything
// arrives as a Chain (sim/chain.h): one or more calls, each released when the previous one
// has finished plus its pause. Nothing here knows a time per token.
//
// Sampling is deterministic (SplitMix64 and the + - * / sqrt elementary functions of
// core/mx), so native and WebAssembly runs draw the same requests.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/splitmix64.h"
#include "serve/sim/chain.h"
#include "serve/spec.h"

namespace trnsim::serve {

// Deterministic sampling.
class Sampler {
 public:
  explicit Sampler(std::uint64_t seed) : rng_(seed) {}
  double unit_open();  // (0, 1)
  double exponential(double mean);
  double normal();     // N(0, 1), Marsaglia polar
  double gamma(double shape);  // scale 1, Marsaglia-Tsang
  int geometric(double mean);  // >= 1 with the given mean (>= 1)
  int length(const Lengths& l, double mean);  // one draw of a length distribution, clamped
 private:
  SplitMix64 rng_;
  bool has_spare_ = false;
  double spare_ = 0;
};

// The mean of a length distribution: its mean, or the workload's length when null.
double mean_length(const Lengths& l, double workload_tokens);
// The mean length as served: eos_mean when set (outputs that may stop at EOS), else mean_length.
double served_mean_length(const Lengths& l, double workload_tokens);
// Stopping at EOS (Lengths::eos_mean): a constant per-token stop rate h, so that a request
// drawn at length M (its max_tokens) stops at min(M, G), G geometric with rate h; h is solved
// (bisection) so that the mean of min(M, G) over the distribution -- E[(1 - (1 - h)^M) / h],
// taken over 2048 deterministic draws -- is eos_mean. 0 when eos_mean is unset or reaches the
// drawn mean. Deterministic (the library's own exp and log), so every build solves the same h.
double eos_stop_rate(const Lengths& l, double drawn_mean);
const std::vector<std::string>& distribution_names();
const std::vector<std::string>& arrival_names();

// Generated arrivals (poisson, gamma, constant, burst, closed): `count` single-call chains.
// Arrival times come from one random stream and lengths from another, so the same seed
// gives the same prompts and outputs at every rate (the rate search compares like with like).
// `closed`: arrival times are left 0 (the simulator's clients send them).
std::unique_ptr<Source> generated_source(const Spec& spec, double rate, double mean_input, double mean_output);

}  // namespace trnsim::serve
