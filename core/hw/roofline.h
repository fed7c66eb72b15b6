// The roofline of one operator on one chip: time = max(FLOPs / (peak x efficiency),
// HBM bytes / (bandwidth x efficiency)) + a fixed overhead. One of the two pricers of the
// workload layer (core/price/pricer.h); the engine-level model (core/engine/) is the other.
// Sources: peaks and bandwidths from the chip data (hw/system.h).
// Does NOT model: SBUF tiling, engine overlap inside a kernel, the tensor-engine warm-up.
#pragma once
#include <string>

#include "hw/system.h"

namespace trnsim::hw {
struct RooflineEfficiency {  // achievable fraction of peak (explicit assumptions)
  double compute = 1.0;
  double hbm = 1.0;
};
struct OperatorCost {
  std::string dtype = "bf16"; // tensor-engine dtype for the FLOPs
  double flops = 0;           // FLOP
  double hbm_bytes = 0;       // bytes read + written from/to HBM
  double fixed_overhead_s = 0;
};
struct RooflineTime {
  double time_s = 0, compute_s = 0, memory_s = 0;
  bool compute_bound = false;
};
RooflineTime roofline(const Chip& chip, const OperatorCost& op, const RooflineEfficiency& eff);
// Capacity check (addition): throws InputError(field, ...) when bytes_per_chip exceed a
// chip's HBM, naming what needs it, how much, and what the chip has, e.g.
// "weights: need 120 GiB of HBM per chip but a Trainium2 has 96 GiB".
void check_hbm_capacity(const Chip& chip, double bytes_per_chip, const std::string& field, const std::string& what);

}  // namespace trnsim::hw
