// The "plain" stack: the exact-shape StepPricer (step_pricer.h) with the serve.* server
// settings (batch slots, token budget, prefills per step, serve.scheduler's batch policy) and
// no runtime costs -- what a server would do that adds nothing to the kernels' time. At zero
// load it reproduces `trnsim run`'s single-request TTFT and TPOT.
// NOT modeled: speculative decoding (the Neuron stacks run it), host and runtime costs.
#include "common/error.h"
#include "serve/stack/step_model.h"
#include "serve/stack/step_pricer.h"

namespace trnsim::serve {

namespace {

class PlainStepModel : public StepModel {
 public:
  PlainStepModel(const hw::System& system, const workload::Spec& w, const Spec& v, std::pair<int, int> lengths)
      : pricer_(w, system, lengths.first, lengths.second) {
    limits_.max_batch = v.max_num_seqs;
    limits_.max_batched_tokens = v.max_batched_tokens;
    limits_.max_prefill_seqs = v.max_prefill_seqs;
    limits_.batch_policy = v.scheduler;
    const double step_tokens =
        v.max_batched_tokens > 0 ? v.max_batched_tokens : pricer_.reference().run.spec.inference.input_tokens;
    memory_ = pricer_.memory(step_tokens);
  }
  std::string name() const override { return "plain"; }
  StepTime step(const Batch& batch) const override { return pricer_.price(batch); }
  Limits limits() const override { return limits_; }
  ReplicaMemory memory() const override { return memory_; }
  double kv_bytes(double context_tokens) const override { return pricer_.kv_bytes(context_tokens); }
  double request_overhead_s() const override { return 0; }
  const Reference* reference() const override { return &pricer_.reference(); }

 private:
  StepPricer pricer_;
  Limits limits_;
  ReplicaMemory memory_;
};

std::unique_ptr<StepModel> make_plain_step_model(const hw::System& system, const workload::Spec& w, const Spec& v,
                                                 std::pair<int, int> reference_lengths) {
  if (w.speculation.enabled())
    throw InputError("workload.speculation.length",
                     "the plain serving stack does not run speculative decoding; use a Neuron stack (vllm-neuron, nxdi) "
                     "or length 0 (trnsim run prices it on any stack)");
  return std::make_unique<PlainStepModel>(system, w, v, reference_lengths);
}

}  // namespace

TRNSIM_STEP_MODEL(10, plain, make_plain_step_model, false);

}  // namespace trnsim::serve
