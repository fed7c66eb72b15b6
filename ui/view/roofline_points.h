// The Roofline panel's points: every compute or memory operator of a result at its
// arithmetic intensity (FLOPs per HBM byte) with the FLOP/s it achieves (FLOPs / time,
// the kernel's fixed overhead included) and the FLOP/s the roofline alone gives it
// (FLOPs / max(compute, memory) time). Operators without FLOPs or HBM bytes have no place
// on the chart and are listed by name. No ImGui (tests/unit/test_ui_report.cpp).
#pragma once
#include <string>
#include <vector>

#include "hw/system.h"
#include "workload/workload.h"

namespace trnsim::ui {

// An operator's share of its phase's time (count x time over the phase's time; 0 for an
// empty phase): the roofline's dot sizes and the Report panel's operator bars.
double op_share(const workload::Phase& phase, const workload::OpRecord& op);

struct RooflinePoint {
  double intensity = 0;     // FLOP / byte
  double flops_per_s = 0;   // achieved
  double roof_flops_per_s = 0;  // roofline alone
  const workload::OpRecord* op = nullptr;  // into the result
  std::string phase;
  int phase_index = 0;
  double share = 0;  // of its phase's time
};
struct RooflinePoints {
  std::vector<RooflinePoint> points;
  std::vector<std::string> skipped;  // operators without an intensity, by name
};
RooflinePoints roofline_points(const workload::Result& result);

// The chip's roofs for a result: HBM bandwidth x intensity up to each data type's peak
// (data types with the same peak share one roof), and the derated roof -- the matmul data
// type's peak and the HBM bandwidth times the scenario's efficiencies.
struct Roof {
  double flops_per_s = 0;
  std::string dtypes;  // "fp8, mxfp8"
};
struct Roofs {
  double hbm_bytes_per_s = 0;
  std::vector<Roof> peaks;  // lowest first
  double peak_max = 0;      // the highest peak (0: none)
  double matmul_peak = 0;   // the result's matmul data type's peak (0: the chip lacks it)
  double derated_flops_per_s = 0, derated_hbm_bytes_per_s = 0;
  // FLOP/s as a share of the matmul data type's peak (0 without one).
  double of_matmul_peak(double flops_per_s) const { return matmul_peak > 0 ? flops_per_s / matmul_peak : 0; }
};
Roofs roofline_roofs(const hw::Chip& chip, const workload::Result& result);

}  // namespace trnsim::ui
