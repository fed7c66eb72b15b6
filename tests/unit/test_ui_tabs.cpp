// The view tabs' order (ui/view/panel_tabs.h): every tab has its own place, and every panel
// that registers itself (TRNSIM_PANEL in ui/panel_*.cpp) has a row, read from the panel
// files' own tab labels (Panel::name()), since the panels themselves need ImGui.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "ui/view/panel_tabs.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_tabs {

using namespace trnsim::ui;

TEST_CASE("every view tab has its own place and its own label") {
  std::set<int> orders;
  std::set<std::string> labels;
  for (const auto& t : panel_tabs()) {
    INFO(t.label << " at " << t.order);
    CHECK(t.order > 0);
    CHECK(orders.insert(t.order).second);
    CHECK(labels.insert(t.label).second);
    CHECK(panel_tab_order(t.label) == t.order);
  }
  CHECK(panel_tab_order("no such tab") == -1);
}

TEST_CASE("every registered panel (ui/panel_*.cpp) has a row in the tab table") {
  const std::string dir = std::string(TRNSIM_SOURCE_DIR) + "/ui/";
  DIR* d = opendir(dir.c_str());
  REQUIRE(d);
  std::vector<std::string> files;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind("panel_", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".cpp") == 0)
      files.push_back(name);
  }
  closedir(d);
  const std::regex label(R"re(name\(\) const override \{ return "([^"]+)"; \})re");
  std::size_t registered = 0;
  for (const auto& f : files) {
    std::ifstream in(dir + f);
    std::stringstream text;
    text << in.rdbuf();
    const std::string src = text.str();
    if (src.find("\nTRNSIM_PANEL(") == std::string::npos) continue;  // the Scenario panel sits apart
    std::smatch m;
    INFO(f);
    REQUIRE(std::regex_search(src, m, label));
    INFO(m[1].str());
    CHECK(panel_tab_order(m[1].str()) > 0);
    ++registered;
  }
  CHECK(registered == panel_tabs().size());
}

}  // namespace unit_ui_tabs
