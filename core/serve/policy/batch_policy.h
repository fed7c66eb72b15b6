// Batch policies: what one replica runs in its next engine step (the replica scheduler's
// next batch, vidur's _get_next_batch): which running sequences continue, which waiting
// requests start, whole prompts or chunks. One file per policy in this folder, each ending in
//   TRNSIM_BATCH_POLICY(order, id, factory);
// where `id` is the name serve.scheduler (or a stack's data) takes and `order` its place among
// the choices. A policy fills the step through the simulator's StepBuilder
// (core/serve/sim/views.h), which keeps the server's limits and KV memory; it holds no state.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "serve/registry.h"
#include "serve/sim/views.h"

namespace trnsim::serve {

class BatchPolicy {
 public:
  virtual ~BatchPolicy() = default;
  // Fills `step` (empty on entry); a step left empty runs nothing (the replica idles).
  virtual void next_batch(StepBuilder& step) const = 0;
};

using BatchPolicyFactory = std::unique_ptr<BatchPolicy> (*)();
using BatchPolicies = Registry<BatchPolicyFactory>;

// The policy registered as `name`; InputError naming serve.scheduler when none is.
std::unique_ptr<BatchPolicy> make_batch_policy(const std::string& name);
// Registered policies in their order (the choices of serve.scheduler).
std::vector<std::string> batch_policy_names();

}  // namespace trnsim::serve

#define TRNSIM_BATCH_POLICY(order, id, factory) \
  TRNSIM_SERVE_REGISTER(batch_policy, id, ::trnsim::serve::BatchPolicies::add(order, #id, factory))
