// The view tabs' order (panel_tabs.h).
#include "ui/view/panel_tabs.h"

namespace trnsim::ui {

const std::vector<PanelTab>& panel_tabs() {
  static const std::vector<PanelTab> tabs = {
      {"Report", 10},  {"Fabric", 20},     {"Timeline", 30}, {"Roofline", 40}, {"MX lab", 50},
      {"Compare", 60}, {"Validation", 70}, {"Serving", 80},  {"Capacity", 85}, {"Video", 90},
  };
  return tabs;
}

int panel_tab_order(const std::string& label) {
  for (const auto& t : panel_tabs())
    if (t.label == label) return t.order;
  return -1;
}

}  // namespace trnsim::ui
