#include "ui/view/timeline_view.h"

#include <algorithm>
#include <map>

namespace trnsim::ui {

namespace {

// A lane's colour category (plot.h) and its title.
struct LaneName {
  const char* category;
  const char* title;
};
LaneName lane_name(schedule::Lane l) {
  if (l == schedule::Lane::hbm) return {"hbm", "HBM"};
  if (l == schedule::Lane::fabric) return {"fabric", "fabric"};
  return {"compute", "compute"};
}

std::vector<TimelinePhase> phase_bands(const std::vector<TimelineLane>& lanes) {
  std::map<std::string, TimelinePhase> ranges;
  for (const auto& l : lanes)
    for (const auto& s : l.spans) {
      const std::string name = s.phase.substr(0, s.phase.find(" layer "));
      auto it = ranges.find(name);
      if (it == ranges.end()) ranges[name] = TimelinePhase{name, s.start_s, s.start_s + s.dur_s};
      else it->second.t0 = std::min(it->second.t0, s.start_s), it->second.t1 = std::max(it->second.t1, s.start_s + s.dur_s);
    }
  std::vector<TimelinePhase> out;
  for (const auto& kv : ranges) out.push_back(kv.second);
  std::sort(out.begin(), out.end(), [](const TimelinePhase& a, const TimelinePhase& b) { return a.t0 < b.t0; });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i].t0 < out[i - 1].t1 - 1e-12) return {};
  return out;
}

}  // namespace

TimelineView timeline_view(const schedule::Timeline& tl) {
  TimelineView v;
  v.end_s = tl.end_s;
  v.note = tl.note;
  const std::size_t stages = std::max<std::size_t>(1, tl.stage_names.size());
  const schedule::Lane kinds[] = {schedule::Lane::compute, schedule::Lane::hbm, schedule::Lane::fabric};
  std::vector<TimelineLane> lanes;
  for (std::size_t st = 0; st < stages; ++st)
    for (schedule::Lane k : kinds) {
      TimelineLane l;
      l.stage = static_cast<int>(st);
      l.lane = k;
      l.stage_name = st < tl.stage_names.size() ? tl.stage_names[st] : "";
      l.label = "stage " + std::to_string(st) + " " + lane_name(k).title;
      l.category = lane_name(k).category;
      lanes.push_back(std::move(l));
    }
  for (const auto& s : tl.spans) {
    const std::size_t st = std::min<std::size_t>(static_cast<std::size_t>(std::max(0, s.stage)), stages - 1);
    lanes[st * 3 + static_cast<std::size_t>(s.lane) - 1].spans.push_back(s);
    v.end_s = std::max(v.end_s, s.start_s + s.dur_s);
  }
  for (auto& l : lanes) {
    if (l.spans.empty()) continue;
    std::stable_sort(l.spans.begin(), l.spans.end(),
                     [](const schedule::Span& a, const schedule::Span& b) { return a.start_s < b.start_s; });
    v.lanes.push_back(std::move(l));
  }
  v.phases = phase_bands(v.lanes);
  return v;
}

std::string op_family(const std::string& name) {
  const auto last = name.find_last_not_of("0123456789");
  return last == std::string::npos ? std::string() : name.substr(0, last + 1);
}

std::vector<BusyRow> busy_in_window(const TimelineView& v, double t0, double t1) {
  std::map<std::pair<std::string, std::string>, BusyRow> busy;
  for (const auto& lane : v.lanes)
    for (const auto& s : lane.spans) {
      const double a = std::max(s.start_s, t0), b = std::min(s.start_s + s.dur_s, t1);
      if (b <= a) continue;
      BusyRow& r = busy[{op_family(s.name), lane.category}];
      r.op = op_family(s.name);
      r.category = lane.category;
      r.busy_s += b - a;
      r.spans += 1;
    }
  const double window = t1 - t0;
  const std::size_t stages = std::max<std::size_t>(1, v.lanes.empty() ? 1 : v.lanes.back().stage + 1);
  std::vector<BusyRow> rows;
  for (auto& kv : busy) {
    kv.second.share = window > 0 ? kv.second.busy_s / window / stages : 0;
    rows.push_back(std::move(kv.second));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const BusyRow& a, const BusyRow& b) { return a.busy_s > b.busy_s; });
  return rows;
}

}  // namespace trnsim::ui
