// Requests for the serving simulator and where they come from: generated arrivals (Poisson,
// gamma-bursty, constant, a burst at t = 0, closed-loop clients) with token-length
// distributions, agentic sessions (sessions.h) and trace files (traces.h). Everything
// arrives as a Chain: one or more calls, each released when the previous one has finished
// plus its pause (a plain request is a chain of one call; an agentic session is a chain of
// turns and tool calls).
//
// A call's prompt is described for the prefix cache as segments of tokens, each hashed in a
// namespace (a system prompt shared by every request, a session's growing context, a call's
// own new tokens), or as explicit block hashes (Mooncake's 512-token hash_ids, hashed token
// ids). Nothing here knows a time per token.
//
// Sampling is deterministic (SplitMix64 and the + - * / sqrt elementary functions of
// core/mx), so native and WebAssembly runs draw the same requests.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/splitmix64.h"
#include "serve/spec.h"

namespace trnsim::serve {

// Prompt tokens [previous segment's end, end) hashed in namespace `ns`. `shared`: other
// requests may start with the same tokens (a system prompt, a session's context), so the
// prefix cache keeps its blocks; a request's own tokens (false) are cached only when it is
// preempted (its recompute finds them) -- what vLLM does too, without the bookkeeping.
struct Segment {
  int end = 0;
  std::uint64_t ns = 0;
  bool shared = true;
};

struct Call {
  int input_tokens = 0, output_tokens = 0;
  std::vector<Segment> segments;              // empty and no hashes: a prompt nobody shares
  std::vector<std::uint64_t> block_hashes;    // explicit hashes of full prompt blocks
  int hash_block_tokens = 0;                  // tokens per explicit hash (0: none)
  std::uint64_t output_ns = 0;                // nonzero: the output continues this namespace (later calls reuse it)
  double pause_after_s = 0;                   // wait after this call completes before the next is released
  int turn = 0;                               // sessions: the user turn this call belongs to (1-based)
};

struct Chain {
  std::int64_t id = 0;
  double arrival_s = 0;  // of the first call
  bool session = false;  // an agentic session (its statistics are reported per turn)
  std::vector<Call> calls;
};

// A stream of chains in arrival order. `next` returns false at the end.
class Source {
 public:
  virtual ~Source() = default;
  virtual bool next(Chain& chain) = 0;
  virtual std::string describe() const = 0;  // one line for the report
  // Columns or keys a trace had that the reader did not use (reported, not silently dropped).
  virtual std::vector<std::string> ignored() const { return {}; }
};

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

// A 64-bit hash of (namespace, index): block keys of the prefix cache.
std::uint64_t block_key(std::uint64_t ns, std::uint64_t index);

// Generated arrivals (poisson, gamma, constant, burst, closed): `count` single-call chains.
// Arrival times come from one random stream and lengths from another, so the same seed
// gives the same prompts and outputs at every rate (the rate search compares like with like).
// `closed`: arrival times are left 0 (the simulator's clients send them).
std::unique_ptr<Source> generated_source(const Spec& spec, double rate, double mean_input, double mean_output);

}  // namespace trnsim::serve
