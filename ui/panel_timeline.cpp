// The Timeline panel: the step (training) or the request (inference: prefill, then the
// first decode steps) as a Gantt chart of the schedule's typed timeline
// (workload::Result::timeline, read through ui/view/timeline_view.h -- the spans
// `trnsim run --trace` writes): per pipeline stage a compute (tensor engine), an HBM
// and a fabric lane. Mouse wheel zooms around the cursor, dragging pans, double-click
// fits; hovering a span shows the operator, its phase, start, duration, FLOPs and bytes.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ui/app.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/view/timeline_view.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

std::uint32_t name_hash(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

// Where the chart sits on screen this frame (the Gantt chart's frame, lanes and overview).
struct Gantt {
  float line = 0;             // text line height
  ImVec2 p0;                  // top left of the whole chart, labels included
  ImVec2 pmin, pmax;          // the plot area (lanes), right of the labels, under the time axis
  float band_h = 0, lane_h = 0;
  float width() const { return pmax.x - pmin.x; }
};

// What the mouse is over: a span of a lane, or a phase of the band.
struct TimelineHit {
  const schedule::Span* span = nullptr;
  const TimelineLane* lane = nullptr;
  const TimelinePhase* phase = nullptr;
};

class TimelinePanel : public Panel {
 public:
  const char* name() const override { return "Timeline"; }
  void draw(App& app) override;

 private:
  // The system's radio buttons and the result they pick (nullptr: none to show).
  const workload::Result* pick_result(const Report& rep);
  void load(const workload::Result& r, std::uint64_t generation);
  // Fit, zoom in and out, and what the view shows; true in `zoom_in` / `zoom_out` when pressed.
  void toolbar(double full, bool& zoom_in, bool& zoom_out);
  Gantt layout() const;
  void zoom(double factor, double around, double full);
  void zoom_and_pan(const Gantt& g, bool hovered, bool active, bool zoom_in, bool zoom_out, double full);
  void time_axis(ImDrawList* dl, const Gantt& g) const;
  const TimelinePhase* phase_band(ImDrawList* dl, const Gantt& g, bool hovered) const;
  void lanes(ImDrawList* dl, const Gantt& g, bool hovered, TimelineHit& hit) const;
  // The whole trace with the visible window; click or drag to move it. Returns its bottom.
  float overview(ImDrawList* dl, const Gantt& g, double full);
  void busy_table(const Gantt& g, float top) const;
  static void tooltip(const TimelineHit& hit);

  float to_px(const Gantt& g, double t) const { return static_cast<float>(g.pmin.x + (t - v0_) / (v1_ - v0_) * g.width()); }
  double to_t(const Gantt& g, float px) const { return v0_ + (px - g.pmin.x) / g.width() * (v1_ - v0_); }

  int which_ = 0;  // 0 primary, 1 comparison
  std::uint64_t generation_ = 0;
  int loaded_which_ = -1;
  TimelineView trace_;
  double v0_ = 0, v1_ = 1;  // visible time range, seconds
};

const workload::Result* TimelinePanel::pick_result(const Report& rep) {
  const bool have_b = rep.compare && rep.compare->result;
  system_picker(rep.primary.system.display_name, have_b ? &rep.compare->system.display_name : nullptr, &which_);
  return which_ == 0 ? (rep.primary.result ? &*rep.primary.result : nullptr) : &*rep.compare->result;
}

void TimelinePanel::load(const workload::Result& r, std::uint64_t generation) {
  if (generation_ == generation && loaded_which_ == which_) return;
  trace_ = timeline_view(r.timeline());
  generation_ = generation;
  loaded_which_ = which_;
  v0_ = 0;
  v1_ = trace_.end_s > 0 ? trace_.end_s * 1.02 : 1e-3;
}

void TimelinePanel::toolbar(double full, bool& zoom_in, bool& zoom_out) {
  ImGui::SameLine();
  if (ImGui::Button("Fit")) v0_ = 0, v1_ = full;
  probe("timeline:fit");
  ImGui::SameLine();
  zoom_in = ImGui::Button("Zoom in");
  ImGui::SameLine();
  zoom_out = ImGui::Button("Zoom out");
  ImGui::SameLine();
  ImGui::TextDisabled("wheel: zoom, drag: pan, double-click: fit | showing %s of %s", fmt::time(v1_ - v0_).c_str(),
                      fmt::time(trace_.end_s).c_str());
  if (!trace_.note.empty()) dim_text("%s", trace_.note.c_str());
}

Gantt TimelinePanel::layout() const {
  Gantt g;
  g.line = ImGui::GetTextLineHeight();
  float label_w = ImGui::CalcTextSize("phase").x;
  for (const auto& l : trace_.lanes) label_w = std::max(label_w, ImGui::CalcTextSize(l.label.c_str()).x);
  label_w += 12;
  g.p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis_h = g.line + 10, overview_h = g.line * 2 + 16;
  g.band_h = trace_.phases.empty() ? 0.0f : g.line + 8;
  const std::size_t nl = std::max<std::size_t>(1, trace_.lanes.size());
  g.lane_h = std::clamp((avail.y - axis_h - g.band_h - overview_h - g.line * 2) / nl, g.line + 8, 64.0f);
  float height = axis_h + g.band_h + g.lane_h * nl + 8;
  g.pmin = ImVec2(g.p0.x + label_w, g.p0.y + axis_h);
  g.pmax = ImVec2(g.p0.x + avail.x - 6, g.p0.y + height);
  return g;
}

void TimelinePanel::zoom(double factor, double around, double full) {
  double n0 = around - (around - v0_) * factor, n1 = around + (v1_ - around) * factor;
  double min_span = std::max(full * 1e-7, 1e-9);
  if (n1 - n0 < min_span) return;
  v0_ = n0, v1_ = n1;
}

void TimelinePanel::zoom_and_pan(const Gantt& g, bool hovered, bool active, bool zoom_in, bool zoom_out, double full) {
  ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0) zoom(std::pow(0.8, io.MouseWheel), to_t(g, io.MousePos.x), full);
  if (zoom_in) zoom(0.5, (v0_ + v1_) / 2, full);
  if (zoom_out) zoom(2.0, (v0_ + v1_) / 2, full);
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
    double dt = -io.MouseDelta.x / g.width() * (v1_ - v0_);
    v0_ += dt, v1_ += dt;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) v0_ = 0, v1_ = full;
  if (v1_ - v0_ > full * 4) v0_ = 0, v1_ = full;
}

// Time axis on top with ticks and a unit in every label.
void TimelinePanel::time_axis(ImDrawList* dl, const Gantt& g) const {
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  Axis ax;
  ax.lo = v0_, ax.hi = v1_;
  std::vector<double> major, minor;
  axis_ticks(ax, std::max(2, static_cast<int>(g.width() / 110)), major, minor);
  for (double t : minor)
    dl->AddLine(ImVec2(to_px(g, t), g.pmin.y), ImVec2(to_px(g, t), g.pmax.y), IM_COL32(60, 65, 75, 50));
  for (double t : major) {
    float x = to_px(g, t);
    dl->AddLine(ImVec2(x, g.pmin.y - 4), ImVec2(x, g.pmax.y), IM_COL32(70, 76, 88, 140));
    std::string s = fmt::si(t, "s");  // axis ticks: "5.00 ms", "0 s"
    dl->AddText(ImVec2(x - ImGui::CalcTextSize(s.c_str()).x / 2, g.p0.y), dim, s.c_str());
  }
}

// The phase band over the lanes; returns the phase under the mouse.
const TimelinePhase* TimelinePanel::phase_band(ImDrawList* dl, const Gantt& g, bool hovered) const {
  if (g.band_h <= 0) return nullptr;
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled), text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImGuiIO& io = ImGui::GetIO();
  const TimelinePhase* hit = nullptr;
  float y0 = g.pmin.y + 3, y1 = g.pmin.y + g.band_h - 3;
  dl->AddText(ImVec2(g.p0.x, y0 + (y1 - y0 - g.line) / 2), dim, "phase");
  for (std::size_t i = 0; i < trace_.phases.size(); ++i) {
    const auto& ph = trace_.phases[i];
    float a = std::max(to_px(g, ph.t0), g.pmin.x), b = std::min(to_px(g, ph.t1), g.pmax.x);
    if (b <= a) continue;
    dl->AddRectFilled(ImVec2(a, y0), ImVec2(b, y1), i % 2 ? IM_COL32(70, 74, 90, 255) : IM_COL32(88, 92, 110, 255));
    float tw = ImGui::CalcTextSize(ph.name.c_str()).x;
    if (b - a > tw + 6) {
      dl->PushClipRect(ImVec2(a, y0), ImVec2(b, y1), true);
      dl->AddText(ImVec2(a + 3, y0 + (y1 - y0 - g.line) / 2), text, ph.name.c_str());
      dl->PopClipRect();
    }
    if (hovered && io.MousePos.y >= y0 && io.MousePos.y <= y1 && io.MousePos.x >= a && io.MousePos.x <= b) hit = &ph;
  }
  return hit;
}

// The lanes, stage by stage; the span under the mouse goes into `hit`.
void TimelinePanel::lanes(ImDrawList* dl, const Gantt& g, bool hovered, TimelineHit& hit) const {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImGuiIO& io = ImGui::GetIO();
  for (std::size_t li = 0; li < trace_.lanes.size(); ++li) {
    const TimelineLane& lane = trace_.lanes[li];
    float y0 = g.pmin.y + g.band_h + 4 + li * g.lane_h, y1 = y0 + g.lane_h - 4;
    if (li % 2 == 0) dl->AddRectFilled(ImVec2(g.pmin.x, y0 - 2), ImVec2(g.pmax.x, y1 + 2), IM_COL32(28, 31, 37, 255));
    dl->AddText(ImVec2(g.p0.x, y0 + (y1 - y0 - g.line) / 2), text, lane.label.c_str());
    float last_px = -1e9f;
    for (const auto& s : lane.spans) {
      const double s0 = s.start_s, s1 = s.start_s + s.dur_s;
      if (s1 < v0_ || s0 > v1_) continue;
      float a = std::max(to_px(g, s0), g.pmin.x - 2), b = std::min(to_px(g, s1), g.pmax.x + 2);
      if (b - a < 1.0f) {
        if (std::floor(a) <= last_px) continue;  // many tiny spans in one pixel: draw it once
        b = a + 1.0f;
      }
      last_px = std::floor(b);
      // Shade by operator name without a trailing number ("forward mb 3" -> "forward mb "),
      // so forward and backward blocks differ and consecutive operators alternate.
      std::uint32_t h = name_hash(op_family(s.name));
      float shade = 0.70f + 0.30f * ((h % 5) / 4.0f);
      ImVec4 c = ImGui::ColorConvertU32ToFloat4(category_colour(lane.category));
      ImU32 col = ImGui::GetColorU32(ImVec4(c.x * shade, c.y * shade, c.z * shade, 1.0f));
      dl->AddRectFilled(ImVec2(a, y0), ImVec2(b, y1), col);
      if (b - a > 3) dl->AddRect(ImVec2(a, y0), ImVec2(b, y1), IM_COL32(10, 10, 14, 160));
      float tw = ImGui::CalcTextSize(s.name.c_str()).x;
      if (b - a > tw + 6) {
        dl->PushClipRect(ImVec2(a, y0), ImVec2(b, y1), true);
        dl->AddText(ImVec2(a + 3, y0 + (y1 - y0 - g.line) / 2), IM_COL32(12, 14, 18, 255), s.name.c_str());
        dl->PopClipRect();
      }
      if (hovered && io.MousePos.y >= y0 && io.MousePos.y <= y1 && io.MousePos.x >= a - 1 && io.MousePos.x <= b + 1)
        hit.span = &s, hit.lane = &lane;
    }
  }
}

float TimelinePanel::overview(ImDrawList* dl, const Gantt& g, double full) {
  const ImGuiIO& io = ImGui::GetIO();
  const float line = g.line;
  ImVec2 o0(g.pmin.x, g.pmax.y + line + 8), o1(g.pmax.x, g.pmax.y + line + 8 + line * 1.4f);
  ImGui::SetCursorScreenPos(ImVec2(g.p0.x, g.pmax.y + 4));
  ImGui::TextDisabled("time from the start of the trace; overview:");
  ImGui::SetCursorScreenPos(o0);
  ImGui::InvisibleButton("overview", ImVec2(std::max(10.0f, o1.x - o0.x), o1.y - o0.y));
  probe("timeline:overview");
  if (ImGui::IsItemActive()) {
    double centre = (io.MousePos.x - o0.x) / (o1.x - o0.x) * full, span = v1_ - v0_;
    v0_ = centre - span / 2, v1_ = centre + span / 2;
  }
  auto ov = [&](double t) { return static_cast<float>(o0.x + t / full * (o1.x - o0.x)); };
  dl->AddRectFilled(o0, o1, IM_COL32(24, 26, 32, 255));
  for (std::size_t i = 0; i < trace_.phases.size(); ++i)
    dl->AddRectFilled(ImVec2(ov(trace_.phases[i].t0), o0.y + 2), ImVec2(ov(trace_.phases[i].t1), o1.y - 2),
                      i % 2 ? IM_COL32(70, 74, 90, 255) : IM_COL32(88, 92, 110, 255));
  for (const auto& lane : trace_.lanes) {
    float last = -1e9f;
    for (const auto& s : lane.spans) {
      float a = ov(s.start_s);
      if (a - last < 1) continue;
      last = a;
      float y = o0.y + 3 + (static_cast<int>(lane.lane) - 1) * (o1.y - o0.y - 6) / 3.0f;
      dl->AddRectFilled(ImVec2(a, y), ImVec2(std::max(a + 1, ov(s.start_s + s.dur_s)), y + (o1.y - o0.y - 6) / 3.0f),
                        category_colour(lane.category, 0.6f));
    }
  }
  dl->AddRect(ImVec2(std::max(o0.x, ov(v0_)), o0.y), ImVec2(std::min(o1.x, std::max(ov(v0_) + 2, ov(v1_))), o1.y),
              IM_COL32(255, 255, 255, 220), 0, 0, 1.5f);
  return o1.y;
}

// What the visible window holds: busy time per operator and lane, clipped to the view.
void TimelinePanel::busy_table(const Gantt& g, float top) const {
  const float line = g.line;
  ImGui::SetCursorScreenPos(ImVec2(g.p0.x, top + 8));
  const std::vector<BusyRow> rows = busy_in_window(trace_, v0_, v1_);
  ImGui::TextDisabled("In view (%s to %s): busy time per operator and lane, all stages", fmt::time(std::max(0.0, v0_)).c_str(),
                      fmt::time(v1_).c_str());
  if (rows.empty() ||
      !ImGui::BeginTable("in-view", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY,
                         ImVec2(0, std::max(line * 4, ImGui::GetContentRegionAvail().y - 4))))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("operator", 0, 1.6f);
  ImGui::TableSetupColumn("lane", 0, 0.7f);
  ImGui::TableSetupColumn("busy", 0, 0.8f);
  ImGui::TableSetupColumn("spans", 0, 0.5f);
  ImGui::TableSetupColumn("share of the view (per lane)", 0, 1.6f);
  ImGui::TableHeadersRow();
  for (const auto& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(r.op.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(category_colour(r.category)), "%s", r.category.c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(fmt::time(r.busy_s).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%ld", r.spans);
    ImGui::TableSetColumnIndex(4);
    const float share = static_cast<float>(r.share);
    ImVec2 bp = ImGui::GetCursorScreenPos();
    float bw = ImGui::GetContentRegionAvail().x;
    ImGui::GetWindowDrawList()->AddRectFilled(bp, ImVec2(bp.x + bw * std::min(1.0f, share), bp.y + line),
                                              category_colour(r.category, 0.55f));
    ImGui::Text("%.1f%%", share * 100);
  }
  ImGui::EndTable();
}

void TimelinePanel::tooltip(const TimelineHit& hit) {
  if (!hit.span && hit.phase) {
    ImGui::SetTooltip("%s: %s to %s (%s)", hit.phase->name.c_str(), fmt::time(hit.phase->t0).c_str(),
                      fmt::time(hit.phase->t1).c_str(), fmt::time(hit.phase->t1 - hit.phase->t0).c_str());
  }
  if (!hit.span) return;
  const schedule::Span& s = *hit.span;
  ImGui::BeginTooltip();
  ImGui::Text("%s", s.name.c_str());
  ImGui::TextDisabled("%s | %s", hit.lane->label.c_str(), s.phase.c_str());
  if (!hit.lane->stage_name.empty()) ImGui::TextDisabled("%s", hit.lane->stage_name.c_str());
  ImGui::Text("start %s, duration %s", fmt::time(s.start_s).c_str(), fmt::time(s.dur_s).c_str());
  if (!s.detail.empty()) ImGui::Text("%s", s.detail.c_str());
  if (s.flops > 0) ImGui::Text("%s", fmt::si(s.flops, "FLOP").c_str());
  if (s.hbm_bytes > 0) ImGui::Text("HBM %s", fmt::bytes(s.hbm_bytes).c_str());
  if (s.fabric_bytes > 0) ImGui::Text("fabric %s", fmt::bytes(s.fabric_bytes).c_str());
  ImGui::EndTooltip();
}

void TimelinePanel::draw(App& app) {
  const workload::Result* r = pick_result(app.report());
  if (!r) return;
  load(*r, app.generation());
  const double full = trace_.end_s > 0 ? trace_.end_s * 1.02 : 1e-3;
  bool zoom_in = false, zoom_out = false;
  toolbar(full, zoom_in, zoom_out);

  // The chart's frame: one button over the lanes takes the wheel and the drags.
  const Gantt g = layout();
  ImGui::SetCursorScreenPos(g.pmin);
  ImGui::InvisibleButton("gantt", ImVec2(std::max(10.0f, g.pmax.x - g.pmin.x), std::max(10.0f, g.pmax.y - g.pmin.y)));
  probe("timeline:chart");
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  zoom_and_pan(g, hovered, active, zoom_in, zoom_out, full);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(g.pmin, g.pmax, IM_COL32(20, 22, 27, 255));
  time_axis(dl, g);
  // Phase band, then the lanes.
  TimelineHit hit;
  dl->PushClipRect(ImVec2(g.p0.x, g.pmin.y), g.pmax, true);
  hit.phase = phase_band(dl, g, hovered);
  lanes(dl, g, hovered, hit);
  dl->PopClipRect();
  dl->AddRect(g.pmin, g.pmax, IM_COL32(90, 96, 108, 255));

  const float bottom = overview(dl, g, full);
  busy_table(g, bottom);
  tooltip(hit);
}

}  // namespace

std::unique_ptr<Panel> make_timeline_panel() { return std::make_unique<TimelinePanel>(); }
TRNSIM_PANEL(make_timeline_panel);

}  // namespace trnsim::ui
