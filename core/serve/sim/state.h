// The serving simulator's own state (simulator.cpp and its KV manager, kv_manager.h): the
// calls in the server and each replica's queues, memory and current step. Not for policies
// (they see views.h).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "serve/sim/chain.h"
#include "serve/sim/prefix_cache.h"
#include "serve/stack/step_model.h"

namespace trnsim::serve {

// A call in the server. The fields every step touches come first, in one cache line of their
// own (aligned: a step visits every running sequence twice -- scheduling, then its tokens --
// and with thousands in flight each visit is a trip to memory, one line instead of two).
struct alignas(64) Seq {
  // Progress (every step)
  int prompt_len = 0;  // tokens to prefill: the prompt (+ the tokens generated before a preemption)
  int computed = 0;    // tokens whose KV is in the cache
  int alloc = 0;       // tokens allocated (a multiple of the block)
  int emitted = 0;
  int target = 0;      // output tokens to generate
  int sync = 0;        // lazy decode: the replica's tick its progress fields were last brought up to
  bool measured = true, session = false;
  bool output_blocks = false;  // its output's blocks have prefix-cache keys (Call::output_ns: a later call re-sends them)
  double credit = 0;   // speculative decoding: the fraction of a token carried to the next step
  double first_token_s = -1, last_token_s = 0;
  // KV held in the prefix cache
  int shared = 0;      // leading tokens held as referenced prefix-cache blocks
  // Which call, where
  int call = 0, replica = 0;
  std::int64_t chain = 0;
  const Call* c = nullptr;
  std::vector<std::uint64_t> refs;  // the prefix-cache blocks it references, in order
  // Times
  double arrival_s = 0;
  double queue_since = 0, queue_s = 0;
  int cached_at_admission = -1, preemptions = 0;
};

// A sequence's work in the step being run.
struct Item {
  int seq = 0, tokens = 0;
  int index = 0;        // its place in Replica::running (stable while the step runs)
  int lazy_before = 0;  // lazy decodes just before it in running order (their tokens come first)
  bool decode = false;
  bool light = false;   // a lazy sequence at a sampled position (`tokens`: the tokens it has emitted)
};

// Lazy decode (simulator.cpp): a running sequence's entry beside Replica::running. A lazy one's
// progress lives here, relative to its replica's tick T: computed tokens c + T, emitted e + T.
struct LazyEntry {
  int due = 0;  // the tick at which it must be looked at (kVisitEveryStep: not lazy, every step)
  int c = 0, e = 0, alloc = 0, target = 0;
};
constexpr int kVisitEveryStep = -2147483647 - 1;

struct Replica {
  // Queues
  std::deque<int> waiting;
  std::vector<int> running;
  std::vector<LazyEntry> lazy;  // beside `running` (lazy decode)
  int tick = 0;          // steps in which the running sequences decoded (lazy ones gain a token at each)
  double tick_s = 0;     // when the last of them ended (every lazy sequence's last token)
  bool loop_ran = false; // the step being run went over the running sequences
  int loop_items = 0;    // items of that pass (the first ones), and lazy decodes after its last
  int lazy_tail = 0, lazy_count = 0, light = 0;  // (light: items that are lazy sequences)
  int routed = 0;  // calls routed here still in their host-overhead window (not yet waiting)
  // KV memory
  PrefixCache cache;
  double private_bytes = 0;  // blocks sequences hold outside the prefix cache
  // The step in flight
  bool busy = false;
  std::vector<Item> items;
  Batch batch;
  StepTime step;
  double step_start = 0;

  explicit Replica(double cache_tokens) : cache(cache_tokens) {}
  double used() const { return private_bytes + cache.bytes(); }
  // Held by sequences: their own blocks and the cached blocks they reference.
  double held() const { return private_bytes + cache.bytes() - cache.evictable_bytes(); }
};

}  // namespace trnsim::serve
