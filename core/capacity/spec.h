// What a scenario's "capacity" object asks the capacity planner (core/capacity/capacity.h):
// the search space -- systems, placements (tp / ep / pp), precisions (weights, KV cache),
// batch slots, serving stacks and batch policies -- and the most chips a deployment may take.
// The model, the traffic and the targets are the scenario's workload and serve objects.
// Plain typed storage: every field's default, range, unit, label and help are rows of the
// one field table (core/scenario/schema.cpp, add_capacity_fields). Lists of names are
// comma-separated text ("trn2-ultraserver, trn3-gen2-ultraserver"); an empty list or text
// means the default the row's help states.
#pragma once
#include <string>
#include <vector>

namespace trnsim::capacity {

struct Spec {
  // Where and how a replica runs
  std::string systems;           // comma-separated system names (or data-file paths); "": every built-in system
  std::vector<int> tp, ep, pp;   // empty: tp every power of two dividing the scale-up domain; ep, pp: 1
  // What a replica holds
  std::string weights;           // comma-separated precisions of MLP / expert weights; "": the workload's
  std::string kv_cache;          // comma-separated KV cache precisions; "": the workload's
  // How a replica serves
  std::vector<int> batch_slots;  // serve.max_num_seqs choices; empty: the scenario's
  std::string stacks;            // comma-separated serving stacks; "": workload.stack
  std::string schedulers;        // comma-separated batch policies of the plain stack; "": serve.scheduler
  // How big a deployment may get
  int max_chips = 0;             // chips of one deployment (replicas x tp x pp)
};

}  // namespace trnsim::capacity
