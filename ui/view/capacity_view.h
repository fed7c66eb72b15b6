// The Capacity panel's data (no ImGui; tests/unit/test_ui_capacity.cpp): the scenario's
// capacity plan -- the report `trnsim capacity --json` prints (core/capacity, report/capacity.h)
// -- computed a few families per frame, so the page (single-threaded WebAssembly) keeps
// drawing while it searches: the core's own evaluate_range over one family [i, i+1) at a time,
// its outcomes folded by capacity::plan_from exactly as the CLI folds merged shards. Cancel
// stops between two families. The tables are the core's (capacity::best_table, front_table,
// rejected_table: the text report's cells); the plot's points are the meeting families'
// price, TTFT and TPOT as the report holds them.
// The page has no file system: a scenario naming a trace file gets the core's error (put the
// trace in serve.trace.text instead).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "report/capacity.h"
#include "scenario/scenario.h"

namespace trnsim::ui {

// True when the scenario's "capacity" object sets any field (every field at its default: the
// scenario has no search space of its own, and the panel says so before planning).
bool has_capacity_space(const Scenario& s);

class CapacityProgress {
 public:
  enum class State { idle, running, cancelled, done, failed };
  // (Re)starts the plan of `scenario`: checks its traffic and enumerates its families (an
  // InputError fails it with the core's message).
  void start(const Scenario& scenario);
  // Evaluates families for up to `budget_s` seconds of wall time (at least one), then, after
  // the last, folds them into the plan. True when something changed; nothing unless running.
  bool advance(double budget_s);
  // Stops between families; the families done so far are kept (not a plan: the rest are missing).
  void cancel();

  State state() const { return state_; }
  bool running() const { return state_ == State::running; }
  const Scenario& scenario() const { return scenario_; }  // the one planned
  std::size_t evaluated() const { return outcomes_.size(); }
  std::size_t total() const { return total_; }
  double fraction() const { return total_ ? double(outcomes_.size()) / double(total_) : 0.0; }
  double busy_ms() const { return busy_ms_; }  // time spent searching so far
  const std::vector<capacity::Outcome>& outcomes() const { return outcomes_; }  // families() order
  const capacity::Result* result() const { return result_ ? &*result_ : nullptr; }  // when done
  const std::string& error() const { return error_; }                                // when failed
  // {"state", "evaluated", "total", "error", "plan"}: the plan is what `trnsim capacity --json`
  // prints (null until done) -- the page's window.trnsim.panelState("Capacity").
  json to_json() const;

 private:
  State state_ = State::idle;
  Scenario scenario_;
  std::size_t total_ = 0;
  std::vector<capacity::Outcome> outcomes_;
  std::optional<capacity::Result> result_;
  std::string error_;
  double busy_ms_ = 0;
};

const char* capacity_state_name(CapacityProgress::State s);  // "idle", "running", ...

// The Pareto plot: every family meeting the targets at its price per hour, TTFT and TPOT (at
// the target fraction's percentile), coloured by system, the front's marked.
struct CapacityPoint {
  double price_per_hour_usd = 0, ttft_s = 0, tpot_s = 0;
  std::size_t system = 0;  // into CapacityPlot::systems
  bool front = false;
  std::size_t outcome = 0;  // into Result::outcomes
};
struct CapacityPlot {
  std::vector<std::string> systems;  // the result's systems, in its order
  std::vector<CapacityPoint> points;  // in the outcomes' order
  // Axis ranges over the points (log scales: every value positive), padded by a tenth of a decade.
  double price_lo = 0, price_hi = 0, ttft_lo = 0, ttft_hi = 0, tpot_lo = 0, tpot_hi = 0;
};
CapacityPlot capacity_plot(const capacity::Result& r);

}  // namespace trnsim::ui
