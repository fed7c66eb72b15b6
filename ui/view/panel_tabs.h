// The order of the playground's view tabs, one row per panel (keyed by the panel's tab
// label, Panel::name()). One table, so no two panels share a place: a shared number would
// leave their order to static initialisation. A new panel adds its row here; the App
// (ui/app.cpp) sorts the registered panels by it, and tests/unit/test_ui_tabs.cpp checks
// that every order and every label is distinct. No ImGui.
#pragma once
#include <string>
#include <vector>

namespace trnsim::ui {

struct PanelTab {
  std::string label;  // the tab's label, Panel::name(): "Report"
  int order = 0;      // the tab's place, left to right
};

// Every view tab, in order.
const std::vector<PanelTab>& panel_tabs();
// The tab's order, or -1 for a label with no row.
int panel_tab_order(const std::string& label);

}  // namespace trnsim::ui
