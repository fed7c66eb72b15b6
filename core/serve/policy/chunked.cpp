// The chunked-prefill batch policy (vLLM V1's scheduler): a step mixes decodes with prefill
// chunks. The running sequences first, in admission order -- a decode token each, or the next
// chunk of an unfinished prompt -- within the step's token budget; then, if none had to be
// preempted, waiting requests first come first served while batch slots, budget and memory
// last (a request that does not fit blocks those behind it). With no token budget
// (serve.max_batched_tokens 0, or a Neuron stack that mixes) prompts start whole.
#include "serve/policy/batch_policy.h"

namespace trnsim::serve {

namespace {

class ChunkedPolicy : public BatchPolicy {
 public:
  void next_batch(StepBuilder& step) const override {
    if (!step.continue_running(false)) return;
    while (step.admit_waiting(false)) {
    }
  }
};

std::unique_ptr<BatchPolicy> make_chunked_policy() { return std::make_unique<ChunkedPolicy>(); }

}  // namespace

TRNSIM_BATCH_POLICY(10, chunked, make_chunked_policy);

}  // namespace trnsim::serve
