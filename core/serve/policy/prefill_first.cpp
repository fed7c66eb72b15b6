// The prefill-first batch policy (vLLM V0 without chunked prefill; Neuron context encoding):
// a step is either prefills or decodes. When requests wait and batch slots are free the step
// prefills whole prompts only, first come first served (the decodes stall); otherwise every
// running sequence decodes one token.
#include "serve/policy/batch_policy.h"

namespace trnsim::serve {

namespace {

class PrefillFirstPolicy : public BatchPolicy {
 public:
  void next_batch(StepBuilder& step) const override {
    while (step.admit_waiting(true)) {
    }
    if (!step.empty()) return;
    step.continue_running(true);
  }
};

std::unique_ptr<BatchPolicy> make_prefill_first_policy() { return std::make_unique<PrefillFirstPolicy>(); }

}  // namespace

TRNSIM_BATCH_POLICY(20, prefill_first, make_prefill_first_policy);

}  // namespace trnsim::serve
