// The Roofline panel's points: every compute or memory operator of a result at its
// arithmetic intensity (FLOPs per HBM byte) with the FLOP/s it achieves (FLOPs / time,
// the kernel's fixed overhead included) and the FLOP/s the roofline alone gives it
// (FLOPs / max(compute, memory) time). Operators without FLOPs or HBM bytes have no place
// on the chart and are listed by name. No ImGui (tests/unit/test_ui_report.cpp).
#pragma once
#include <string>
#include <vector>

#include "workload/workload.h"

namespace trnsim::ui {

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

}  // namespace trnsim::ui
