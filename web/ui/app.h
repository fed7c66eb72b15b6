// The playground's UI state and drawing, shared by the browser page (web/main_web.cpp)
// and the desktop GUI. It owns no model state: the Scenario is the whole state; the UI
// edits a working copy of its JSON, the core validates it (errors shown inline) and
// evaluates it, and the link codec turns it into the URL fragment.
#pragma once
#include <functional>
#include <string>

#include "common/fields.h"
#include "report/report.h"
#include "scenario/scenario.h"

namespace trnsim::ui {

class App {
 public:
  App();

  // Loads a link fragment ("" = the default scenario). A bad fragment leaves the default
  // scenario in place and sets a visible message.
  void load_fragment(const std::string& fragment);
  // Replaces the scenario (e.g. from the gallery); returns false and sets the message on error.
  bool set_scenario_json(const json& j, const std::string& what);

  void draw();  // one ImGui frame of every panel

  const Scenario& scenario() const { return scenario_; }
  const std::string& scenario_json_text() const { return scenario_text_; }  // == `trnsim link decode`
  const std::string& report_json_text() const { return report_text_; }     // == `trnsim run --json`
  const std::string& message() const { return message_; }  // "" when all is well
  std::string fragment() const;                              // "s=1...." for the current scenario

  // Called whenever the scenario changes through the UI. `new_entry` is true for the
  // first change of an interaction (the page pushes a history entry) and false while
  // the same drag or typing goes on (the page replaces the entry).
  std::function<void(const std::string& fragment, bool new_entry)> on_scenario_changed;
  std::function<void(const std::string& message)> on_message;

 private:
  bool apply(const Scenario& s, std::string& error);
  void set_message(const std::string& m);
  void draw_scenario_panel();
  void draw_report_panel();
  bool edit_value(const std::string& key, json& value, const std::string& path);

  Scenario scenario_;
  Report report_;
  json editing_;            // working copy of the scenario JSON, may be invalid
  std::string edit_error_;  // why editing_ is not applied
  std::string scenario_text_, report_text_, message_;
  bool edit_active_ = false;       // an editing widget is active this frame
  bool interaction_open_ = false;  // the current interaction already pushed a history entry
};

}  // namespace trnsim::ui
