// The pricing seam: a plan's operators become times on one system. Two pricers share it
// (LLMCompass's roofline_model / compile_and_simulate, astra-sim's compute API):
//  - "roofline": max(FLOPs / (peak x efficiency), HBM bytes / (bandwidth x efficiency)) per
//    operator (hw/roofline.h), plus a fixed kernel overhead per launch;
//  - "engine": the engine-level NeuronCore model (core/engine/): each matmul is laid out as
//    a tiled GEMM and each attention kernel as a flash-attention block on one NeuronCore,
//    with the work split evenly over the chip's cores; memory-bound kernels stay on the
//    roofline; the scenario's efficiencies do not apply (the engine model is its own
//    utilization); kernel overhead is added as for the roofline.
// Collectives are priced the same way by both: collective::run on the system's fabric and
// DMA engines, each distinct request once per pricer (identical requests recur across layers).
// Tensor-engine warm-up (S15, chip data): every matmul or attention kernel starts at the
// chip's warmup_start_fraction of its rate and ramps linearly to full over warmup_ramp_s
// (kernels are separated by launch gaps longer than the ~3 us window, so each starts cold);
// a kernel whose full-rate compute is t then takes warmed_compute_s(t) -- at most
// ramp x (1 - start) / 2 more. It only shows where compute bounds the kernel.
// Does NOT model: overlap between consecutive operators (the schedule decides that),
// kernel fusion, back-to-back kernels that keep the engine warm.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "collective/collective.h"
#include "hw/system.h"
#include "plan/plan.h"
#include "price/time_split.h"

namespace trnsim::price {

// Where an operator's time goes.
enum class Category { compute, hbm, fabric };
const char* category_name(Category c);

// One priced operator, per chip, per occurrence; `count` occurrences per pass of its phase.
struct PricedOp {
  std::string name;
  Category category = Category::compute;
  std::string detail;  // "mxfp8 matmul", "all-reduce, 16 chips (ring)"
  plan::Scope scope = plan::Scope::layer;
  int layer_type = -1;
  double count = 0;
  double flops = 0;
  double hbm_bytes = 0;
  double fabric_bytes = 0;
  double compute_s = 0;   // tensor-engine time (0 for collectives)
  double memory_s = 0;    // HBM / DMA time
  double fabric_s = 0;    // collective time
  double overhead_s = 0;  // fixed kernel overhead
  double time_s = 0;      // per occurrence: kernel time (roofline: max(compute, memory)) + overhead, or fabric
  collective::Request collective;  // fabric operators: the request priced
  double total_s() const { return count * time_s; }
  // total_s() split by where it goes: the kernel time in its category, the overhead apart.
  TimeSplit split() const;
};

// The scenario's pricing assumptions (workload.efficiency).
struct Settings {
  double compute_efficiency = 1, attention_efficiency = 1, hbm_efficiency = 1;
  double kernel_overhead_s = 0;
};

class Pricer {
 public:
  Pricer(const hw::System& system, const Settings& settings) : system_(system), settings_(settings) {}
  virtual ~Pricer() = default;
  virtual std::string name() const = 0;
  PricedOp price(const plan::Operator& op) const;
  std::vector<PricedOp> price_all(const std::vector<plan::Operator>& ops) const;
  const hw::System& system() const { return system_; }
  const Settings& settings() const { return settings_; }

 protected:
  // Fills compute_s, memory_s and the category of a matmul, attention or memory operator
  // and returns the kernel's time without the fixed overhead.
  virtual double time_kernel(const plan::Operator& op, PricedOp& out) const = 0;
  double roofline_kernel(const plan::Operator& op, PricedOp& out) const;

 private:
  PricedOp price_collective(const plan::Operator& op) const;
  const hw::System& system_;
  Settings settings_;
  mutable std::map<std::tuple<std::string, double, int, int, int>, collective::Result> collectives_;
  mutable std::unique_ptr<collective::Runner> collective_runner_;  // made at the first collective
};

// Time of a tensor-engine burst that would take full_rate_s at full rate, with the warm-up
// ramp of `te` (S15).
double warmed_compute_s(const hw::TensorEngineSpec& te, double full_rate_s);

const std::vector<std::string>& pricer_names();  // "roofline", "engine"
// An InputError naming `field` unless `name` is one of pricer_names().
void check_pricer_name(const std::string& name, const std::string& field);
// InputError naming workload.pricer for an unknown name.
std::unique_ptr<Pricer> make_pricer(const std::string& name, const hw::System& system, const Settings& settings);

}  // namespace trnsim::price
