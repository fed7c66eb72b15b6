// What the serving policies (core/serve/policy/) see of the simulator: the replicas' loads,
// for a router (plain values, filled for each call), and the step being built, for a batch
// policy. The simulator implements
// these; a policy includes only this header and its own interface, so it never depends on
// the simulator's internals (its sequences, KV blocks or events).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace trnsim::serve {

// A released call, as a router sees it.
struct RoutedCall {
  std::int64_t chain = 0;  // the chain's id (in arrival order)
  int call = 0;            // its index in the chain
  bool session = false;    // the chain is an agentic session
};

// One of the dp replicas of the server, as a router sees it when a call is released: the
// requests there.
struct ReplicaLoad {
  std::size_t waiting = 0, running = 0;
  std::size_t routed = 0;  // routed there and still in their host-overhead window (on their way)
};

// One replica's next engine step while a batch policy fills it, within the server's Limits
// (the stack's batch slots, token budget, prefills per step) and its KV memory. Each call
// adds work in a fixed order and returns whether the policy may go on.
class StepBuilder {
 public:
  virtual ~StepBuilder() = default;
  // The running sequences in admission order, within the step's token budget: a decode token
  // each, or (unless `decodes_only`) the next chunk of an unfinished prompt; KV memory for
  // each, preempting the most recently admitted when it runs out. False if any was preempted.
  virtual bool continue_running(bool decodes_only) = 0;
  // The head of the waiting queue, if a batch slot, the token budget, a prefill slot and
  // memory allow (its cached prefix found first): admitted with its first chunk, or with its
  // whole prompt (`whole_prompt`; beyond the budget only as the step's first prefill). False
  // when it cannot start: those behind it wait too (first come, first served).
  virtual bool admit_waiting(bool whole_prompt) = 0;
  virtual bool empty() const = 0;  // nothing in the step yet
};

}  // namespace trnsim::serve
