// The playground's UI, shared by the browser page (web/main_web.cpp) and the desktop
// GUI (native/gui/main_gui.cpp). It owns no model state: the Scenario is the whole
// state; the Scenario panel edits a working copy of its JSON, the core validates it
// (errors shown inline, next to the control) and evaluates it, and the link codec turns
// it into the URL fragment. Every other panel reads the Scenario and its Report; what
// panels keep (zoom, the chosen collective, the MX lab's sample settings, the Compare
// panel's pinned second scenario) is view state, and what they compute (link loads,
// traces, histograms) are caches keyed by the scenario's generation.
//
// Layout: a toolbar (Copy link, gallery, back/forward, messages), the Scenario panel on
// the left, and the views as tabs on the right: Report, Fabric, Timeline, Roofline,
// MX lab, Compare, Validation, Serving, Capacity, Video -- one file per panel under ui/, each registering itself
// with TRNSIM_PANEL(factory) (the tab's place: ui/view/panel_tabs.cpp). What a panel turns
// the Scenario and Report into (fabric loads, timeline lanes, metric rows, validation
// rows, the Scenario panel's sections) lives in ui/view/, a library without ImGui.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/fields.h"
#include "report/report.h"
#include "scenario/scenario.h"

namespace trnsim::ui {

class Panel {
 public:
  virtual ~Panel() = default;
  virtual const char* name() const = 0;  // tab label
  virtual void draw(class App& app) = 0;
  // What the panel holds beyond the scenario and the report, as JSON, for the page's
  // window.trnsim.panelState(name) ("null": nothing; the Validation panel: its rows).
  virtual std::string state_json() const { return "null"; }
  // True while the panel has work it does a piece per frame (the Validation panel's rows):
  // the page then keeps drawing frames instead of idling until the next event.
  virtual bool busy() const { return false; }
};

// The view tabs register themselves, one line at the end of each panel file:
//   TRNSIM_PANEL(make_timeline_panel);
// Tabs are ordered by ui/view/panel_tabs.cpp (one row per tab label, each with its own
// place; a new panel adds its row there).
using PanelFactory = std::unique_ptr<Panel> (*)();
bool register_panel(PanelFactory factory);
#define TRNSIM_PANEL(factory) \
  static const bool trnsim_panel_##factory##_registered = ::trnsim::ui::register_panel(factory)

// An example bundled with the core (examples/*.json).
struct Example {
  std::string key;    // "examples/default.json"
  std::string stem;   // "default"
  std::string title;  // the scenario's name
  json scenario;
};
const std::vector<Example>& examples();

class App {
 public:
  App();
  ~App();

  // ---- the scenario --------------------------------------------------------------
  // Loads a link fragment ("" = the default scenario; "example=<stem>" = a bundled
  // example). A bad fragment leaves the default scenario and sets a visible message.
  void load_fragment(const std::string& fragment);
  // Replaces the scenario (gallery, pasted JSON, other panels); pushes a history entry.
  // Returns false and sets the message on error.
  bool set_scenario_json(const json& j, const std::string& what);
  bool set_scenario(const Scenario& s, const std::string& what);
  // Changes one field of the scenario through the field table (trnsim::set_field, path
  // like "workload.precision.weights") and applies it: other panels' buttons.
  bool set_field(const std::string& path, const json& value);

  const Scenario& scenario() const { return scenario_; }
  const Report& report() const { return report_; }
  std::uint64_t generation() const { return generation_; }  // +1 on every applied scenario
  // Written on first use after each change (an edit does not pay for them).
  const std::string& scenario_json_text() const;  // == `trnsim link decode`
  const std::string& report_json_text() const;    // == `trnsim run --json`
  const std::string& message() const { return message_; }  // "" when all is well
  std::string fragment() const;                              // "s=1...." for the current scenario
  void set_message(const std::string& m);

  // ---- editing (the Scenario panel) ----------------------------------------------
  // The working copy the Scenario panel's controls edit, field by field through the
  // field table. It may not evaluate (tp 3 with 64 heads): then the error is shown next
  // to the control and the applied scenario stays.
  const Scenario& editing() const { return editing_; }
  // What a control shows: the value last entered for `path` when the table refused it
  // (kept, with its error), else the working copy's.
  json field_value(const std::string& path) const;
  // trnsim::set_field on the working copy; a refused value is kept for its control.
  void edit_field(const std::string& path, const json& value);
  // After the controls of a frame: `changed` if any control called edit_field,
  // `active` if a control is still held (a drag or typing goes on).
  void commit_edit(bool changed, bool active);
  void revert_edit();
  // A drag or typing is going on (panels may defer expensive derived views until it ends).
  bool interacting() const { return interaction_open_; }
  const std::string& edit_error() const { return edit_error_; }
  const std::string& edit_error_field() const { return edit_error_field_; }
  // The error text when the pending edit failed on `path` or a field below it.
  const std::string* error_for(const std::string& path) const;

  // ---- drawing -------------------------------------------------------------------
  void draw();  // one ImGui frame of every panel
  void show_panel(const std::string& name);  // selects a tab ("Fabric", ...)
  std::vector<std::string> panel_names() const;
  const std::string& current_panel() const { return current_panel_; }
  // Panel::state_json() of the tab named `name` ("null" when there is none).
  std::string panel_state_json(const std::string& name) const;

  // ---- timing (shown in the toolbar, read by the browser tests) ------------------
  double last_evaluate_ms() const { return last_evaluate_ms_; }
  double last_apply_ms() const { return last_apply_ms_; }
  // Median and maximum of the last (up to 64) applied edits, evaluate + new link.
  double median_apply_ms() const;
  double max_apply_ms() const;
  double time_evaluate(int repeats);  // mean ms of evaluate(scenario()) over `repeats`
  double now_ms() const;
  // True while something on screen changes without input (the "Link copied" notice).
  bool animating() const;  // a toast fading, or a panel busy (Panel::busy): keep drawing

  // ---- platform hooks (set by main_web.cpp / main_gui.cpp) -----------------------
  // The scenario changed through the UI. `new_entry`: the first change of an interaction
  // (push a history entry); false while the same drag or typing goes on (replace it).
  std::function<void(const std::string& fragment, bool new_entry)> on_scenario_changed;
  std::function<void(const std::string& message)> on_message;
  std::function<std::string()> page_link;          // the shareable URL of the current view
  std::function<bool(const std::string&)> copy_text;  // to the clipboard; false if refused
  std::function<void(int)> history_go;             // -1 back, +1 forward (absent: hidden)

 private:
  bool apply(const Scenario& s, std::string& error);
  void draw_toolbar(float height);

  Scenario scenario_;
  Report report_;
  std::uint64_t generation_ = 0;
  Scenario editing_;             // working copy, may not evaluate
  std::map<std::string, json> refused_;  // values the field table refused, by path
  std::string edit_error_, edit_error_field_;
  std::string message_;
  mutable std::string scenario_text_, report_text_;
  mutable std::uint64_t texts_generation_ = 0;
  bool interaction_open_ = false;  // the current interaction already pushed a history entry
  double last_evaluate_ms_ = 0, last_apply_ms_ = 0;
  std::vector<double> apply_ms_history_;
  double copied_at_ms_ = -1e9;

  std::unique_ptr<Panel> scenario_panel_;
  std::vector<std::unique_ptr<Panel>> panels_;
  std::string current_panel_ = "Report", requested_panel_;
};

// The Scenario panel (the left column; ui/panel_scenario.cpp).
std::unique_ptr<Panel> make_scenario_panel();

}  // namespace trnsim::ui
