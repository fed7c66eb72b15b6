// The agentic-session generator (sessions.h).
#include "serve/sessions.h"

#include <cmath>

#include "common/error.h"
#include "common/format.h"

namespace trnsim::serve {

namespace {

constexpr std::uint64_t kSystemPromptNs = 0x53595354454d5050ull;  // every session's system prompt

class SessionGenerator : public Source {
 public:
  SessionGenerator(const Spec& spec, double rate)
      : s_(spec.sessions), shape_(session_shape(spec.sessions)), rate_(rate),
        seed_(static_cast<std::uint64_t>(spec.seed)), arrivals_(seed_ * 2 + 11), shape_rng_(seed_ * 2 + 12) {}

  bool next(Chain& c) override {
    if (made_ >= s_.count) return false;
    c = Chain();
    c.id = made_;
    c.session = true;
    if (made_ > 0) t_ += arrivals_.exponential(1 / rate_);
    c.arrival_s = t_;
    const std::uint64_t session_ns = block_key(seed_ ^ 0x5e551011ull, static_cast<std::uint64_t>(made_));
    const int S = static_cast<int>(std::lround(shape_.system_prompt_tokens));
    const double g = shape_.turn_growth_tokens, u = shape_.call_new_tokens;
    const int turns = shape_rng_.geometric(s_.turns);
    for (int t = 1; t <= turns; ++t) {
      const int calls = shape_rng_.geometric(s_.calls_per_turn);
      const int context = S + static_cast<int>(std::lround(t * g));
      for (int j = 1; j <= calls; ++j) {
        Call call;
        call.turn = t;
        call.input_tokens = context + static_cast<int>(std::lround(u));
        call.output_tokens = std::max(1, static_cast<int>(std::lround(shape_rng_.exponential(s_.output_tokens))));
        if (S > 0) call.segments.push_back({S, kSystemPromptNs});
        call.segments.push_back({context, session_ns});
        call.segments.push_back(
            {call.input_tokens, block_key(session_ns, static_cast<std::uint64_t>(t) << 20 | static_cast<std::uint64_t>(j)), false});
        const bool last_of_turn = j == calls;
        if (!(last_of_turn && t == turns))
          call.pause_after_s = shape_rng_.exponential(last_of_turn ? s_.think_time_s : s_.tool_pause_s);
        c.calls.push_back(std::move(call));
      }
    }
    ++made_;
    return true;
  }

  std::string describe() const override {
    return std::to_string(s_.count) + " agentic sessions (Poisson, " + fmt::general(rate_, 4) + " per second; " +
           fmt::general(s_.turns, 3) + " turns x " + fmt::general(s_.calls_per_turn, 3) +
           " calls; system prompt " + fmt::fixed(shape_.system_prompt_tokens, 0) + ", +" +
           fmt::fixed(shape_.turn_growth_tokens, 0) + " per turn, " + fmt::fixed(shape_.call_new_tokens, 0) +
           " new per call, " + fmt::general(s_.output_tokens, 4) + " out)";
  }

 private:
  Sessions s_;
  SessionShape shape_;
  double rate_;
  std::uint64_t seed_;
  Sampler arrivals_, shape_rng_;
  std::int64_t made_ = 0;
  double t_ = 0;
};

}  // namespace

SessionShape session_shape(const Sessions& s) {
  SessionShape shape;
  const double uncached = (1 - s.cached_fraction) * s.prompt_tokens;
  shape.call_new_tokens = uncached / (1 + 1 / s.calls_per_turn);
  shape.turn_growth_tokens = shape.call_new_tokens;
  shape.system_prompt_tokens = s.prompt_tokens - shape.call_new_tokens * (1 + s.turns);
  if (shape.system_prompt_tokens < 0)
    throw InputError("serve.sessions",
                     "no session structure matches these statistics: a mean prompt of " +
                         fmt::fixed(s.prompt_tokens, 0) + " tokens over " + fmt::general(s.turns, 3) +
                         " turns with " + fmt::percent(s.cached_fraction) +
                         " cached leaves a negative system prompt (" + fmt::fixed(shape.system_prompt_tokens, 0) +
                         " tokens); raise prompt_tokens or cached_fraction, or lower turns");
  return shape;
}

std::unique_ptr<Source> session_source(const Spec& spec, double rate) {
  return std::make_unique<SessionGenerator>(spec, rate);
}

}  // namespace trnsim::serve
