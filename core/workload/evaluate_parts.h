// Internal to the workload layer: the steps evaluate() runs around plan -> price ->
// schedule, shared by its inference and training halves (evaluate.cpp, inference.cpp,
// training.cpp, economics.cpp).
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "plan/plan.h"
#include "price/pricer.h"
#include "workload/workload.h"

namespace trnsim::workload::detail {

// Everything one evaluation shares: the system, the spec, the plan context and the pricer.
struct Evaluation {
  const hw::System& system;
  const Spec& spec;
  plan::Context ctx;
  plan::Layout layout;
  std::unique_ptr<price::Pricer> pricer;
};

// A phase of the report: its operators and where their time goes.
Phase make_phase(const std::string& name, const std::string& unit, std::vector<OpRecord> ops);
// The headline's time shares from phases weighted by how often they run.
void finish_shares(Result& R, const std::vector<std::pair<const Phase*, double>>& weighted);
// The bytes each chip holds: the plan's items plus the runtime reserve; throws InputError
// naming workload.parallelism when they do not fit the chip's HBM.
void hold_memory(const Evaluation& ev, const std::vector<MemoryItem>& items, Result& R);
// Power, price, tokens per MW, cost per million tokens and the assumptions list.
void fill_economics(const Evaluation& ev, Result& R, double tokens_per_s_per_chip);

void evaluate_inference(const Evaluation& ev, Result& R);
void evaluate_training(const Evaluation& ev, Result& R);

std::string fixed(double v, int decimals);

}  // namespace trnsim::workload::detail
