// The capacity planner's search space as rows of the scenario field table (fields.h).
#include "capacity/fields.h"

namespace trnsim::capacity {

namespace {

using Rows = FieldRows<Spec>;
using Field = Rows::Field;
using namespace field_ends;

std::vector<Field> build_capacity_fields() {
  std::vector<Field> t;
  const char* section = "Capacity plan: search space";
  using Names = std::string& (*)(Spec&);
  const auto names = [&](const char* path, Names ref, const char* label, const char* help) {
    t.push_back(Rows::text(path, ref, 4000, {"", label, help, section}));
  };
  names("capacity.systems", [](Spec& s) -> std::string& { return s.systems; }, "systems",
        "Systems to search, separated by commas (names or data-file paths). Empty: every built-in system that is one "
        "scale-up domain (UltraServers, servers).");
  const auto placement = [&](const char* path, Rows::Ref<std::vector<int>> ref, const char* label, const char* help) {
    t.push_back(Rows::integer_list(path, ref, at_least(1, "a parallel group has at least one chip"), chips_cap(), 16,
                                   {"chips", label, help, section}));
  };
  placement("capacity.tp", [](Spec& s) -> std::vector<int>& { return s.tp; }, "tp choices",
            "Tensor-parallel sizes to search. Empty: every power of two dividing the system's scale-up domain.");
  placement("capacity.ep", [](Spec& s) -> std::vector<int>& { return s.ep; }, "ep choices",
            "Expert-parallel sizes to search (MoE models). Empty: 1.");
  placement("capacity.pp", [](Spec& s) -> std::vector<int>& { return s.pp; }, "pp choices",
            "Pipeline stages to search. Empty: 1.");
  names("capacity.weights", [](Spec& s) -> std::string& { return s.weights; }, "weights choices",
        "Precisions of MLP and expert weights to search, separated by commas. Empty: workload.precision.weights.");
  names("capacity.kv_cache", [](Spec& s) -> std::string& { return s.kv_cache; }, "KV cache choices",
        "KV cache precisions to search, separated by commas. Empty: workload.precision.kv_cache.");
  t.push_back(Rows::integer_list("capacity.batch_slots", [](Spec& s) -> std::vector<int>& { return s.batch_slots; },
                                 at_least(1, "a replica holds at least one sequence"),
                                 limit(1 << 16, "trnsim's limit: 2^16 slots"), 16,
                                 {"sequences", "batch slots choices",
                                  "serve.max_num_seqs values to search. Empty: serve.max_num_seqs.", section}));
  names("capacity.stacks", [](Spec& s) -> std::string& { return s.stacks; }, "stacks",
        "Serving stacks to search, separated by commas (plain, vllm-neuron, nxdi, optimum-neuron). Empty: "
        "workload.stack.");
  names("capacity.schedulers", [](Spec& s) -> std::string& { return s.schedulers; }, "batch policies",
        "Batch policies of the plain stack to search, separated by commas (chunked, prefill_first). Empty: "
        "serve.scheduler.");
  t.push_back(Rows::integer("capacity.max_chips", [](Spec& s) -> int& { return s.max_chips; }, 1024,
                            at_least(1, "a deployment has at least one chip"), chips_cap(),
                            {"chips", "max chips",
                             "The most chips a deployment may take (replicas x tp x pp); the replica search stops there.",
                             section, "", true}));
  return t;
}

}  // namespace

const std::vector<FieldOf<Spec>>& fields() {
  static const std::vector<FieldOf<Spec>> table = build_capacity_fields();
  return table;
}

}  // namespace trnsim::capacity
