// What `trnsim serve` measures around its main simulation, each a function of the run's
// context (Runner: the system, the step model built once, the simulator's settings and the
// arrivals): the latency, throughput, goodput and occupancy figures of the main run; the
// zero-load request and `trnsim run`'s figures for it (the reference the step model
// evaluated); what the KV precision buys; decode steps as the context grows; agentic turns
// with and without prefix reuse; the rate search. Internal to core/serve (serve.cpp runs them).
#pragma once
#include <memory>
#include <utility>

#include "hw/system.h"
#include "serve/serve.h"

namespace trnsim::serve {

// The run's context, shared by the analyses: one system, one step model, one reference.
class Runner {
 public:
  Runner(const hw::System& system, const workload::Spec& workload, const Spec& serve, const Options& options);

  const hw::System& system() const { return system_; }
  const workload::Spec& workload() const { return workload_; }
  const Spec& serve() const { return serve_; }
  const StepModel& model() const { return *model_; }
  // The model's zero-load reference (evaluated here once if the model has none).
  const Reference& reference() const { return *reference_; }
  int input_tokens() const { return reference_->input_tokens; }   // the mean request lengths
  int output_tokens() const { return reference_->output_tokens; }
  const SimConfig& config() const { return cfg_; }

  // The arrivals of `v` (serve's settings with another rate, arrivals...).
  std::unique_ptr<Source> source(const Spec& v) const;
  SimResult simulate_spec(const Spec& v, const SimConfig& cfg) const;

 private:
  const hw::System& system_;
  const workload::Spec& workload_;
  const Spec& serve_;
  const Options& options_;
  std::shared_ptr<const StepModel> model_;
  std::shared_ptr<const Reference> own_reference_;  // when the model has none
  const Reference* reference_ = nullptr;
  SimConfig cfg_;
};

// The main run's figures.
void latency(const SimResult& sim, const std::string& harness, Result& R);
void throughput(const SimResult& sim, Result& R);
void occupancy(const SimResult& sim, Result& R);
void goodput(const SimResult& sim, const Targets& targets, Result& R);
// The side experiments.
void zero_load(const Runner& run, Result& R);
// Tokens per scale-up domain, per MW and per dollar, after throughput() and zero_load().
void economics(const Runner& run, Result& R);
// The same at the rate search's answer, after search_rate().
void economics_at_max_rate(Result& R);
void kv_precisions(const Runner& run, Result& R);
void context_sweep(const Runner& run, Result& R);
void sessions(const Runner& run, const SimResult& sim, Result& R);
void search_rate(const Runner& run, Result& R);

}  // namespace trnsim::serve
