// The MX lab's "what each precision does to the scenario": the scenario evaluated by the
// core on its primary system with one precision field (a choice of
// workload::precision_names(), set through trnsim::set_field) at each of its values --
// weights per chip, HBM bytes per step (decode for inference), the matmul peak of the
// type it runs as, the headline time and tokens/s per chip (from the metric table), and
// the core's warning when the chip runs it as another type. No ImGui
// (tests/unit/test_ui_report.cpp).
#pragma once
#include <string>
#include <vector>

#include "hw/system.h"
#include "scenario/scenario.h"

namespace trnsim::ui {

struct PrecisionVariant {
  std::string precision;
  bool current = false;  // the scenario's own value
  std::string error;     // the core's error, or its warning about the field ("... modeled as bf16")
  bool evaluated = false;
  double weights_bytes = 0, hbm_bytes = 0, peak_flops = 0;
  double time_s = 0;             // time per output token (inference) or step time (training)
  double tokens_per_s_chip = 0;  // output or training tokens/s per chip
};
std::vector<PrecisionVariant> precision_variants(const Scenario& base, const hw::System& system, const std::string& field);

}  // namespace trnsim::ui
