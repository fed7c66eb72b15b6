// The key figures of a workload result, as the Report and Compare panels list them:
// label, value, display text and which direction is better, so two results can be
// put side by side with ratios. Values come straight from workload::Result.
#pragma once
#include <string>
#include <vector>

#include "workload/workload.h"

namespace trnsim::ui {

struct Figure {
  std::string label;   // "time to first token"
  double value = 0;    // SI units
  std::string text;    // "28.9 ms"
  bool higher_is_better = false;
  std::string help;    // tooltip: what it is, from which model quantity
};

std::vector<Figure> key_figures(const workload::Result& r);

// Draws rows "label | a | b | ratio" for two lists (aligned by label) in the current
// ImGui table (4 columns; 2 when b is null). The ratio is a / b when `a_over_b`, else
// b / a, coloured green when the numerator side is better. Missing values show "-".
void figure_rows(const std::vector<Figure>& a, const std::vector<Figure>* b, bool a_over_b, const char* probe_prefix);

}  // namespace trnsim::ui
