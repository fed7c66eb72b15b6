// The GPU server step model: a stack file with a "server" block (core/data/serving/trtllm.json:
// TensorRT-LLM), run on any system. In-flight batching of exact shapes -- no compiled batch,
// no sequence buckets, no padding (CUDA graphs replay the decode step; their launch cost is the
// chip's per-kernel overhead, execution.kernel_overhead in the chip data) -- priced by the
// exact-shape StepPricer, plus the stack's runtime costs per step and per request.
//  - limits: the stack's max_batch_size and max_num_tokens, or, given as "trtllm-bench", what
//    trtllm-bench's engine build derives from the mean request lengths (TensorRT-LLM
//    tensorrt_llm/bench/build/tuning.py, finetune_setting: the requests the KV cache holds at
//    input + output tokens, capped at 4096, rounded up to 32/128/256; max_num_tokens = that
//    batch x (1 + input / output), capped at 32768, rounded up to 256/512/1024, at least 2048).
//    serve.max_num_seqs / serve.max_batched_tokens set away from their defaults win.
//  - capacity: guaranteed_no_evict (TensorRT-LLM's default capacity scheduler) admits a request
//    only when its whole length fits the KV cache: the batch is capped at the requests the KV
//    budget holds at the mean input + output length, so nothing is preempted. max_utilization
//    admits while the running contexts fit and preempts when they outgrow the cache (the
//    simulator's KV manager). serve.capacity_policy overrides the stack's.
//  - micro-batches (serve.micro_batches, at most pp): TensorRT-LLM keeps pp micro-batches in
//    flight with pipeline parallelism (trtGptModelInflightBatching.cpp: mNumMicroBatches = pp;
//    the capacity scheduler holds max_batch_size x micro-batches). Each is a lane of the replica
//    (the runner makes dp x micro_batches lanes) whose step is one pass through every stage and
//    which holds 1 / micro_batches of each chip's KV budget: the stages alternate between lanes,
//    assumed balanced (a lane never waits for the other's stage).
// Attention data parallelism (TensorRT-LLM's DEP) is a placement, tp 1 with dp = ep: each
// replica here is one GPU of the EP group, its MoE priced with the group's tokens (plan.h).
// Does NOT model: a lane waiting for a stage the other lane's longer step still holds,
// overlap of the host scheduler with the GPU, speculative decoding, the DEP
// ranks' steps in lock-step (each replica steps on its own), disaggregated serving.
#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "price/stack.h"
#include "serve/fields.h"
#include "serve/stack/step_model.h"
#include "serve/stack/step_pricer.h"

namespace trnsim::serve {

namespace {

// trtllm-bench's engine settings for `kv_requests` requests in the KV cache (tuning.py).
std::pair<int, int> trtllm_bench_settings(double kv_requests, int input_len, int output_len) {
  const double raw_bs = std::min(kv_requests, 4096.0);
  const double raw_token = std::min(raw_bs * (1.0 + static_cast<double>(input_len) / output_len), 32768.0);
  int bs = 0;
  if (raw_bs < 256) bs = std::max(64, 32 * static_cast<int>(std::ceil(raw_bs / 32)));
  else if (raw_bs < 1024) bs = 128 * static_cast<int>(std::ceil(raw_bs / 128));
  else bs = 256 * static_cast<int>(std::ceil(raw_bs / 256));
  int tokens = 0;
  if (raw_token < 4096) tokens = std::max(2048, 256 * static_cast<int>(std::ceil(raw_token / 256)));
  else if (raw_token < 8192) tokens = 512 * static_cast<int>(std::ceil(raw_token / 512));
  else tokens = 1024 * static_cast<int>(std::ceil(raw_token / 1024));
  return {bs, tokens};
}

// A serve.* setting the scenario moved off its default (the stack's own value applies otherwise).
bool set_by_scenario(const char* path, int value) {
  for (const auto& f : serve::fields())
    if (f.path == path) return json(value) != f.default_value;
  return true;
}

class GpuStepModel : public StepModel {
 public:
  GpuStepModel(const hw::System& system, const workload::Spec& w, const Spec& v, std::pair<int, int> lengths)
      : stack_(price::load_stack(w.stack)), pricer_(w, system, lengths.first, lengths.second) {
    const price::ServerLimits& s = *stack_.server;
    if (w.speculation.enabled())
      throw InputError("workload.speculation.length",
                       "the " + stack_.name + " stack here does not run speculative decoding; use length 0");
    // The KV cache at the mean lengths, before the limits are known: a step of the largest
    // prefill the budget allows sets the activations (a first estimate at the prompt length).
    const double full = pricer_.kv_bytes(lengths.first + lengths.second);
    const double budget0 = pricer_.memory(std::max(lengths.first, 1)).kv_budget_bytes;
    const double kv_requests = full > 0 ? budget0 / full : 0;
    const auto tuned = trtllm_bench_settings(std::max(kv_requests, 1.0), lengths.first, lengths.second);
    limits_.max_batch = set_by_scenario("serve.max_num_seqs", v.max_num_seqs) ? v.max_num_seqs
                        : s.max_batch_size == price::ServerLimits::kTuned ? tuned.first
                                                                          : s.max_batch_size;
    limits_.max_batched_tokens = set_by_scenario("serve.max_batched_tokens", v.max_batched_tokens) ? v.max_batched_tokens
                                 : s.max_num_tokens == price::ServerLimits::kTuned ? tuned.second
                                                                                    : s.max_num_tokens;
    limits_.max_prefill_seqs = v.max_prefill_seqs;
    limits_.batch_policy = s.batch_policy;
    memory_ = pricer_.memory(limits_.max_batched_tokens);
    // With micro-batches in flight each lane holds its share of every chip's KV cache.
    if (v.micro_batches > w.parallelism.pp)
      throw InputError("serve.micro_batches", "a replica keeps at most its pipeline stages' micro-batches in flight "
                                              "(workload.parallelism.pp " + std::to_string(w.parallelism.pp) +
                                              "), got " + std::to_string(v.micro_batches));
    memory_.kv_budget_bytes /= std::max(v.micro_batches, 1);
    const std::string& capacity = v.capacity_policy.empty() ? s.capacity_policy : v.capacity_policy;
    if (capacity == "guaranteed_no_evict" && full > 0) {
      const int fit = static_cast<int>(std::floor(memory_.kv_budget_bytes / full));
      if (fit < 1)
        throw InputError("workload.parallelism.tp",
                         "one request of " + std::to_string(lengths.first + lengths.second) +
                             " tokens does not fit the KV cache left on each chip; use more chips per replica");
      limits_.max_batch = std::min(limits_.max_batch, fit);
    }
  }
  std::string name() const override { return stack_.name; }
  StepTime step(const Batch& batch) const override {
    StepTime t = pricer_.price(batch);
    const price::RuntimeCosts& r = stack_.runtime;
    const double host = r.graph_launch_s + r.step_host_s + r.step_extra_s;
    const double per_sequence = static_cast<double>(batch.decode_contexts.size()) * pricer_.layers() *
                                stack_.server->decode_sequence_layer_s;
    t.time_s += host + per_sequence;
    t.split.overhead_s += host + per_sequence;
    return t;
  }
  Limits limits() const override { return limits_; }
  ReplicaMemory memory() const override { return memory_; }
  double kv_bytes(double context_tokens) const override { return pricer_.kv_bytes(context_tokens); }
  double request_overhead_s() const override { return stack_.runtime.request_host_s; }
  const Reference* reference() const override { return &pricer_.reference(); }

 private:
  const price::Stack& stack_;
  StepPricer pricer_;
  Limits limits_;
  ReplicaMemory memory_;
};

std::unique_ptr<StepModel> make_gpu_step_model(const hw::System& system, const workload::Spec& w, const Spec& v,
                                               std::pair<int, int> lengths) {
  const price::Stack& stack = price::load_stack(w.stack);
  if (!stack.server)
    throw InputError("workload.stack", "'" + stack.name + "' has no \"server\" block: it is not a GPU server stack");
  return std::make_unique<GpuStepModel>(system, w, v, lengths);
}

}  // namespace

TRNSIM_STEP_MODEL(30, gpu_server, make_gpu_step_model, false);

}  // namespace trnsim::serve
