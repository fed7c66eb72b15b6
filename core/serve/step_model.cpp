// The stacks behind make_step_model (step_model.h) and the "plain" stack: the exact-shape
// pricer with the scenario's serve.* server settings and no runtime costs.
#include "serve/step_model.h"

#include "scenario/scenario.h"
#include "serve/neuron_step_model.h"
#include "serve/step_pricer.h"

#include <algorithm>

namespace trnsim::serve {

namespace {

class PlainStepModel : public StepModel {
 public:
  PlainStepModel(const Scenario& s, const hw::System& system) : pricer_(s, system) {
    const Spec& v = s.serve;
    limits_.max_batch = v.max_num_seqs;
    limits_.max_batched_tokens = v.max_batched_tokens;
    limits_.max_prefill_seqs = v.max_prefill_seqs;
    limits_.mixed_steps = v.scheduler == "chunked";
    const double step_tokens =
        v.max_batched_tokens > 0 ? v.max_batched_tokens : pricer_.reference().spec.inference.input_tokens;
    memory_ = pricer_.memory(step_tokens);
  }
  std::string name() const override { return "plain"; }
  StepTime step(const Batch& batch) const override { return pricer_.price(batch); }
  Limits limits() const override { return limits_; }
  ReplicaMemory memory() const override { return memory_; }
  double kv_bytes(double context_tokens) const override { return pricer_.kv_bytes(context_tokens); }
  double request_overhead_s() const override { return 0; }

 private:
  StepPricer pricer_;
  Limits limits_;
  ReplicaMemory memory_;
};

}  // namespace

std::vector<std::string> stack_names() {
  std::vector<std::string> names = price::stack_names();
  std::stable_partition(names.begin(), names.end(), [](const std::string& n) { return n == "plain"; });
  return names;
}

std::unique_ptr<StepModel> make_step_model(const Scenario& scenario, const hw::System& system) {
  const std::string& stack = scenario.workload.stack;
  if (stack == "plain") {
    if (scenario.workload.speculation.enabled())
      throw InputError("workload.speculation.length",
                       "the plain serving stack does not run speculative decoding; use a Neuron stack (vllm-neuron, nxdi) "
                       "or length 0 (trnsim run prices it on any stack)");
    return std::make_unique<PlainStepModel>(scenario, system);
  }
  price::load_stack(stack);  // an unknown name: InputError naming workload.stack (set_field checked the choice)
  return std::make_unique<NeuronStepModel>(scenario, system);
}

}  // namespace trnsim::serve
