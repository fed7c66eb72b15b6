// The Timeline panel's lanes, read straight from the schedule's typed timeline
// (workload::Result::timeline, core/schedule/schedule.h -- the same spans the Chrome-trace
// writer turns into `trnsim run --trace`): per pipeline stage a compute, an HBM and a
// fabric lane with their spans in time order, phase bands (spans grouped by phase without
// the layer, dropped when phases interleave as in a pipelined training step), and the
// busy time per operator and lane inside a time window. No ImGui (tests/unit/test_ui_view.cpp).
#pragma once
#include <string>
#include <vector>

#include "schedule/schedule.h"

namespace trnsim::ui {

struct TimelineLane {
  int stage = 0;
  schedule::Lane lane = schedule::Lane::compute;
  std::string label;     // "stage 0 compute"
  std::string stage_name;  // the schedule's name of the stage ("stage 0: TP group of chips 0-7 (replica 0)")
  std::string category;  // "compute", "hbm", "fabric" (the colours of plot.h)
  std::vector<schedule::Span> spans;  // by start time
};
struct TimelinePhase {
  std::string name;  // "prefill", "decode step 1", "forward", ...
  double t0 = 0, t1 = 0;
};
struct TimelineView {
  std::vector<TimelineLane> lanes;    // stage by stage, compute / HBM / fabric; empty lanes left out
  std::vector<TimelinePhase> phases;  // empty when phases overlap
  double end_s = 0;
  std::string note;
};
TimelineView timeline_view(const schedule::Timeline& timeline);

// An operator's family: its name without a trailing number ("forward mb 3" -> "forward mb "),
// for shading and for summing busy time.
std::string op_family(const std::string& name);

struct BusyRow {
  std::string op;        // op_family of the spans
  std::string category;  // lane category
  double busy_s = 0;     // inside the window
  long spans = 0;
  double share = 0;      // of one lane's time in the window: busy_s / (t1 - t0) / stages
};
// Busy time per operator family and lane category inside [t0, t1), all stages, largest first.
std::vector<BusyRow> busy_in_window(const TimelineView& view, double t0, double t1);

}  // namespace trnsim::ui
