// Agentic sessions, generated from published statistics (serve.arrivals = "sessions"): a
// coding agent's session is a few user turns, each a chain of LLM calls separated by tool
// executions; every call re-sends the conversation so far, which the prefix cache can reuse.
//
// Sources (public datasets, each named with its repository):
//  - GitHub Copilot coding-agent dataset 2026 (Azure/AzurePublicDataset): 301K sessions, 9.3M
//    LLM calls, 3.95 turns per session, 7.83 calls per turn; prompt tokens 631.4B of which
//    540.95B cached (86%), completion tokens 4.91B. -> the session structure and the cached share.
//  - Mooncake FAST'25 tool-agent trace (kvcache-ai/Mooncake): 23,608 requests, mean input 8,596,
//    mean output 182 tokens. -> the lengths of one call.
//
// The generated structure (each number derived below, not typed):
//  - sessions arrive as a Poisson process at serve.rate; turns per session and calls per turn
//    are geometric with the published means (so 3.95 x 7.83 = 30.9 calls per session);
//  - every prompt starts with a system prompt of S tokens shared by all sessions; turn t's
//    calls share the session context X_t = S + t g (each turn adds g tokens: the user's
//    message and what the turn carried forward); call j of turn t sends X_t + u tokens, its
//    own u new tokens (tool output) after the shared context; outputs are exponential with
//    the published mean;
//  - with an unbounded prefix cache, a call reuses everything but its own u tokens, and the
//    first call of a turn also computes the turn's g new tokens, so the uncached share of
//    prompt tokens is (u + g / calls_per_turn) / mean prompt; the mean prompt is S + g x turns
//    + u (the call-weighted mean turn index of a geometric turn count is its mean). Taking
//    g = u (an assumption: a turn adds as much shared context as a call adds of its own)
//    leaves u = (1 - cached) x mean prompt / (1 + 1 / calls_per_turn) and S = mean prompt -
//    u (1 + turns) -- with the defaults, u = g = 1,092 and S = 3,189 tokens;
//  - the pauses: tool executions between calls and the user's think time between turns are
//    exponential with means that are assumptions (not in the published statistics).
// NOT modeled: parallel tool calls, sub-agents, context compaction or truncation, prompt
// caching outside the engine (a provider's cache TTL).
#pragma once
#include <memory>

#include "serve/requests.h"

namespace trnsim::serve {

// The published statistics behind the defaults of serve.sessions.*.
namespace published {
constexpr double kCopilotTurnsPerSession = 3.95;
constexpr double kCopilotCallsPerTurn = 7.83;
constexpr double kCopilotPromptTokens = 631.4e9;
constexpr double kCopilotCachedPromptTokens = 540.95e9;
constexpr double kMooncakeToolAgentInputTokens = 8596;
constexpr double kMooncakeToolAgentOutputTokens = 182;
inline double copilot_cached_fraction() { return kCopilotCachedPromptTokens / kCopilotPromptTokens; }
}  // namespace published

// The derived structure of one session's prompts.
struct SessionShape {
  double system_prompt_tokens = 0;  // S
  double turn_growth_tokens = 0;    // g
  double call_new_tokens = 0;       // u
};
// InputError naming serve.sessions when the statistics admit no such structure (S < 0).
SessionShape session_shape(const Sessions& s);

// serve.sessions.count sessions, seeded by serve.seed.
std::unique_ptr<Source> session_source(const Spec& spec, double rate);

}  // namespace trnsim::serve
