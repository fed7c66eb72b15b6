// Choosing a stack's step model from the registered ones, and the zero-load reference every
// stack prices against (step_model.h).
#include "serve/stack/step_model.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "price/stack.h"
#include "serve/requests.h"

namespace trnsim::serve {

std::pair<int, int> reference_lengths(const workload::Spec& w, const Spec& v) {
  double in = mean_length(v.input, w.inference.input_tokens);
  double out = served_mean_length(v.output, w.inference.output_tokens);
  if (v.arrivals == "sessions") in = v.sessions.prompt_tokens, out = v.sessions.output_tokens;
  return {std::max(1, static_cast<int>(std::lround(in))), std::max(1, static_cast<int>(std::lround(out)))};
}

namespace {

workload::Spec reference_spec(workload::Spec spec, int input_tokens, int output_tokens) {
  spec.kind = workload::Kind::inference;
  spec.inference.batch = 1;
  spec.inference.input_tokens = std::max(1, input_tokens);
  spec.inference.output_tokens = std::max(1, output_tokens);
  return spec;
}

}  // namespace

// `trnsim run` at batch 1; when the lengths do not fit that way, at one token (the HBM check).
Reference evaluate_reference(const workload::Spec& spec, const hw::System& system, int in, int out,
                             std::unique_ptr<workload::Pricing>& pricing) {
  Reference r;
  r.input_tokens = in;
  r.output_tokens = out;
  try {
    r.run = workload::evaluate(reference_spec(spec, in, out), system, pricing);
  } catch (const InputError& e) {
    if (e.field() != "workload.parallelism" || (in <= 1 && out <= 1)) throw;
    r.ok = false;
    r.error = e.what();
    r.run = workload::evaluate(reference_spec(spec, 1, 1), system, pricing);
  }
  return r;
}

Reference evaluate_reference(const workload::Spec& spec, const hw::System& system, int in, int out) {
  std::unique_ptr<workload::Pricing> pricing;
  return evaluate_reference(spec, system, in, out, pricing);
}

std::vector<std::string> stack_names() {
  std::vector<std::string> names = price::stack_names();
  std::stable_partition(names.begin(), names.end(), [](const std::string& n) { return n == "plain"; });
  return names;
}

std::unique_ptr<StepModel> make_step_model(const hw::System& system, const workload::Spec& workload, const Spec& serve) {
  const std::string& stack = workload.stack;
  const auto* entry = StepModels::find(stack);
  if (!entry && price::load_stack(stack).server) entry = StepModels::find("gpu_server");  // GPU server stacks
  if (!entry) {
    price::load_stack(stack);  // an unknown name: InputError naming workload.stack (set_field checked the choice)
    for (const auto& name : StepModels::names())
      if (!entry && StepModels::find(name)->make.serves_stack_files) entry = StepModels::find(name);
    if (!entry) throw InputError("workload.stack", "no step model runs the stack '" + stack + "'");
  }
  return entry->make.make(system, workload, serve, reference_lengths(workload, serve));
}

}  // namespace trnsim::serve
