// What the serving simulator serves: chains of calls from a Source. A plain request is a
// chain of one call; an agentic session is a chain of turns and tool calls, each call
// released when the previous one has finished plus its pause. Where chains come from
// (generated arrivals, sessions, traces) is core/serve/requests.h and its neighbours; the
// simulator reads only this.
//
// A call's prompt is described for the prefix cache as segments of tokens, each hashed in a
// namespace (a system prompt shared by every request, a session's growing context, a call's
// own new tokens), or as explicit block hashes (Mooncake's 512-token hash_ids, hashed token
// ids). Nothing here knows a time per token.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/splitmix64.h"

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
  // Lengths
  int input_tokens = 0, output_tokens = 0;
  // The prompt for the prefix cache
  std::vector<Segment> segments;              // empty and no hashes: a prompt nobody shares
  std::vector<std::uint64_t> block_hashes;    // explicit hashes of full prompt blocks
  int hash_block_tokens = 0;                  // tokens per explicit hash (0: none)
  std::uint64_t output_ns = 0;                // nonzero: the output continues this namespace (later calls reuse it)
  // Its place in a chain
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

// A 64-bit hash of (namespace, index): block keys of the prefix cache.
inline std::uint64_t block_key(std::uint64_t ns, std::uint64_t index) {
  std::uint64_t s = ns ^ (index * 0xD6E8FEB86659FD93ull);
  splitmix64(s);
  return splitmix64(s);
}

}  // namespace trnsim::serve
