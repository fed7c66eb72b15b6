// Roofline of one operator on one chip: time = max(compute, memory) + fixed overhead,
// with achievable-efficiency factors (explicit assumptions of the caller).
// Sources: the chip's dense peaks and HBM bandwidth (FACTS.md S1, S3, S5).
// Does NOT model: overlap imperfections, SBUF reuse (the caller gives HBM bytes),
// engines other than the tensor engine (see core/engine for that).
#include <cmath>
#include <cstdio>

#include "hw/system.h"
#include "hw/roofline.h"

namespace trnsim::hw {

RooflineTime roofline(const Chip& chip, const OperatorCost& op, const RooflineEfficiency& eff) {
  if (!(eff.compute > 0 && eff.compute <= 1)) throw InputError("efficiency.compute", "must be in (0, 1]");
  if (!(eff.hbm > 0 && eff.hbm <= 1)) throw InputError("efficiency.hbm", "must be in (0, 1]");
  if (!(op.flops >= 0) || !std::isfinite(op.flops)) throw InputError("flops", "must be a finite number >= 0");
  if (!(op.hbm_bytes >= 0) || !std::isfinite(op.hbm_bytes)) throw InputError("hbm_bytes", "must be a finite number >= 0");
  if (!(op.fixed_overhead_s >= 0)) throw InputError("fixed_overhead_s", "must be >= 0");
  RooflineTime t;
  if (op.flops > 0) {
    double peak = chip.peak(op.dtype);
    if (peak <= 0) {
      const bool known = dtype::find(op.dtype) != nullptr;
      throw InputError("dtype", known ? chip.display_name + " has no native " + op.dtype + " support"
                                      : "unknown dtype '" + op.dtype + "'");
    }
    t.compute_s = op.flops / (peak * eff.compute);
  }
  if (op.hbm_bytes > 0) t.memory_s = op.hbm_bytes / (chip.hbm_bandwidth_bytes_per_s * eff.hbm);
  t.compute_bound = t.compute_s >= t.memory_s && op.flops > 0;
  t.time_s = (t.compute_bound ? t.compute_s : t.memory_s) + op.fixed_overhead_s;
  return t;
}

void check_hbm_capacity(const Chip& chip, double bytes_per_chip, const std::string& field, const std::string& what) {
  if (!std::isfinite(bytes_per_chip) || bytes_per_chip < 0) throw InputError(field, what + ": size must be a finite number >= 0");
  if (bytes_per_chip <= chip.hbm_capacity_bytes) return;
  auto gib = [](double b) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g GiB", b / 1073741824.0);
    return std::string(buf);
  };
  throw InputError(field, what + ": need " + gib(bytes_per_chip) + " of HBM per chip but a " + chip.display_name + " has " +
                              gib(chip.hbm_capacity_bytes));
}

}  // namespace trnsim::hw
