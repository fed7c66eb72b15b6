// Internal to the workload layer: the steps evaluate() runs around plan -> price ->
// schedule, shared by its inference and training halves (evaluate.cpp, inference.cpp,
// training.cpp, economics.cpp).
#pragma once
#include <map>
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
  const price::Stack* stack = nullptr;
};

// A phase of the report: its operators and where their time goes.
Phase make_phase(const std::string& name, const std::string& unit, std::vector<OpRecord> ops);
// The headline's time shares from phases weighted by how often they run.
void finish_shares(Result& R, const std::vector<std::pair<const Phase*, double>>& weighted);
// The bytes each chip holds: the plan's items plus the runtime reserve; throws InputError
// naming workload.parallelism when they do not fit the chip's HBM.
void hold_memory(const Evaluation& ev, const std::vector<MemoryItem>& items, Result& R);
// The source of an assumption ("workload." + field): the field table's calibration note when
// the value is its (fitted) default, `text` for other defaults, "scenario" when the user set it.
std::string source_of(const char* field, double value, const char* text);
// The efficiencies a run prices with and where each comes from: the scenario's, except that a
// field left at its default (the Trainium2 fit) takes the chip's execution block where it
// gives the quantity -- matmuls: achieved / peak FLOP/s of the run's matmul dtype; HBM:
// achieved / published bandwidth; the per-kernel overhead as given.
struct EffectiveEfficiency {
  Efficiency value;
  std::map<std::string, std::string> chip_source;  // "efficiency.compute" -> the chip data's source
};
EffectiveEfficiency effective_efficiency(const Spec& spec, const hw::System& system, const std::string& matmul_dtype);
// Power, price, the assumptions list and, for the language-model kinds, tokens per MW and
// cost per million tokens.
void fill_economics(const Evaluation& ev, Result& R, double tokens_per_s_per_chip);

// The kind's halves of evaluate(): R is the common part, x its figures (R.figures).
void evaluate_inference(const Evaluation& ev, Result& R, InferenceResult& x);
// Kind video (core/workload/video.cpp): the whole evaluation of one clip.
Result evaluate_video(const Spec& spec, const hw::System& system);
// The system's identity, the precisions the chip runs (with fallback warnings) and the
// pricing assumptions: what evaluate() computes for every kind.
void describe_system_into(const hw::System& system, Result& R);
plan::Dtypes chip_dtypes(const hw::Chip& chip, const Precision& p, Result& R);
price::Settings pricing_settings(const Efficiency& e);
void evaluate_training(const Evaluation& ev, Result& R, TrainingResult& x);

std::string fixed(double v, int decimals);

}  // namespace trnsim::workload::detail
