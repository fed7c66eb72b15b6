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

class TimelinePanel : public Panel {
 public:
  const char* name() const override { return "Timeline"; }
  void draw(App& app) override;

 private:
  int which_ = 0;  // 0 primary, 1 comparison
  std::uint64_t generation_ = 0;
  int loaded_which_ = -1;
  TimelineView trace_;
  double v0_ = 0, v1_ = 1;  // visible time range, seconds
};

void TimelinePanel::draw(App& app) {
  const Report& rep = app.report();
  bool have_b = rep.compare && rep.compare->result;
  if (!have_b) which_ = 0;
  ImGui::RadioButton(rep.primary.system.display_name.c_str(), &which_, 0);
  if (have_b) {
    ImGui::SameLine();
    ImGui::RadioButton(rep.compare->system.display_name.c_str(), &which_, 1);
  }
  const workload::Result* r = which_ == 0 ? (rep.primary.result ? &*rep.primary.result : nullptr) : &*rep.compare->result;
  if (!r) return;
  if (generation_ != app.generation() || loaded_which_ != which_) {
    trace_ = timeline_view(r->timeline());
    generation_ = app.generation();
    loaded_which_ = which_;
    v0_ = 0;
    v1_ = trace_.end_s > 0 ? trace_.end_s * 1.02 : 1e-3;
  }
  const double full = trace_.end_s > 0 ? trace_.end_s * 1.02 : 1e-3;
  ImGui::SameLine();
  if (ImGui::Button("Fit")) v0_ = 0, v1_ = full;
  probe("timeline:fit");
  ImGui::SameLine();
  bool zin = ImGui::Button("Zoom in");
  ImGui::SameLine();
  bool zout = ImGui::Button("Zoom out");
  ImGui::SameLine();
  ImGui::TextDisabled("wheel: zoom, drag: pan, double-click: fit | showing %s of %s", fmt::time(v1_ - v0_).c_str(),
                      fmt::time(trace_.end_s).c_str());
  if (!trace_.note.empty()) dim_text("%s", trace_.note.c_str());

  // Geometry.
  const float line = ImGui::GetTextLineHeight();
  float label_w = ImGui::CalcTextSize("phase").x;
  for (const auto& l : trace_.lanes) label_w = std::max(label_w, ImGui::CalcTextSize(l.label.c_str()).x);
  label_w += 12;
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis_h = line + 10, band_h = trace_.phases.empty() ? 0.0f : line + 8, overview_h = line * 2 + 16;
  const std::size_t nl = std::max<std::size_t>(1, trace_.lanes.size());
  const float lane_h = std::clamp((avail.y - axis_h - band_h - overview_h - line * 2) / nl, line + 8, 64.0f);
  float height = axis_h + band_h + lane_h * nl + 8;
  ImVec2 pmin(p0.x + label_w, p0.y + axis_h), pmax(p0.x + avail.x - 6, p0.y + height);
  ImGui::SetCursorScreenPos(pmin);
  ImGui::InvisibleButton("gantt", ImVec2(std::max(10.0f, pmax.x - pmin.x), std::max(10.0f, pmax.y - pmin.y)));
  probe("timeline:chart");
  bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  ImGuiIO& io = ImGui::GetIO();
  const float W = pmax.x - pmin.x;
  auto to_px = [&](double t) { return static_cast<float>(pmin.x + (t - v0_) / (v1_ - v0_) * W); };
  auto to_t = [&](float px) { return v0_ + (px - pmin.x) / W * (v1_ - v0_); };

  // Zoom and pan.
  auto zoom = [&](double factor, double around) {
    double n0 = around - (around - v0_) * factor, n1 = around + (v1_ - around) * factor;
    double min_span = std::max(full * 1e-7, 1e-9);
    if (n1 - n0 < min_span) return;
    v0_ = n0, v1_ = n1;
  };
  if (hovered && io.MouseWheel != 0) zoom(std::pow(0.8, io.MouseWheel), to_t(io.MousePos.x));
  if (zin) zoom(0.5, (v0_ + v1_) / 2);
  if (zout) zoom(2.0, (v0_ + v1_) / 2);
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
    double dt = -io.MouseDelta.x / W * (v1_ - v0_);
    v0_ += dt, v1_ += dt;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) v0_ = 0, v1_ = full;
  if (v1_ - v0_ > full * 4) v0_ = 0, v1_ = full;

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled), text = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddRectFilled(pmin, pmax, IM_COL32(20, 22, 27, 255));
  // Time axis on top with ticks and a unit in every label.
  Axis ax;
  ax.lo = v0_, ax.hi = v1_;
  std::vector<double> major, minor;
  axis_ticks(ax, std::max(2, static_cast<int>(W / 110)), major, minor);
  for (double t : minor) dl->AddLine(ImVec2(to_px(t), pmin.y), ImVec2(to_px(t), pmax.y), IM_COL32(60, 65, 75, 50));
  for (double t : major) {
    float x = to_px(t);
    dl->AddLine(ImVec2(x, pmin.y - 4), ImVec2(x, pmax.y), IM_COL32(70, 76, 88, 140));
    std::string s = fmt::si(t, "s");  // axis ticks: "5.00 ms", "0 s"
    dl->AddText(ImVec2(x - ImGui::CalcTextSize(s.c_str()).x / 2, p0.y), dim, s.c_str());
  }

  // Phase band, then the lanes.
  const schedule::Span* hit = nullptr;
  const TimelineLane* hit_lane = nullptr;
  const TimelinePhase* hit_phase = nullptr;
  dl->PushClipRect(ImVec2(p0.x, pmin.y), pmax, true);
  if (band_h > 0) {
    float y0 = pmin.y + 3, y1 = pmin.y + band_h - 3;
    dl->AddText(ImVec2(p0.x, y0 + (y1 - y0 - line) / 2), dim, "phase");
    for (std::size_t i = 0; i < trace_.phases.size(); ++i) {
      const auto& ph = trace_.phases[i];
      float a = std::max(to_px(ph.t0), pmin.x), b = std::min(to_px(ph.t1), pmax.x);
      if (b <= a) continue;
      dl->AddRectFilled(ImVec2(a, y0), ImVec2(b, y1), i % 2 ? IM_COL32(70, 74, 90, 255) : IM_COL32(88, 92, 110, 255));
      float tw = ImGui::CalcTextSize(ph.name.c_str()).x;
      if (b - a > tw + 6) {
        dl->PushClipRect(ImVec2(a, y0), ImVec2(b, y1), true);
        dl->AddText(ImVec2(a + 3, y0 + (y1 - y0 - line) / 2), text, ph.name.c_str());
        dl->PopClipRect();
      }
      if (hovered && io.MousePos.y >= y0 && io.MousePos.y <= y1 && io.MousePos.x >= a && io.MousePos.x <= b) hit_phase = &ph;
    }
  }
  for (std::size_t li = 0; li < trace_.lanes.size(); ++li) {
    const TimelineLane& lane = trace_.lanes[li];
    float y0 = pmin.y + band_h + 4 + li * lane_h, y1 = y0 + lane_h - 4;
    if (li % 2 == 0) dl->AddRectFilled(ImVec2(pmin.x, y0 - 2), ImVec2(pmax.x, y1 + 2), IM_COL32(28, 31, 37, 255));
    dl->AddText(ImVec2(p0.x, y0 + (y1 - y0 - line) / 2), text, lane.label.c_str());
    float last_px = -1e9f;
    for (const auto& s : lane.spans) {
      const double s0 = s.start_s, s1 = s.start_s + s.dur_s;
      if (s1 < v0_ || s0 > v1_) continue;
      float a = std::max(to_px(s0), pmin.x - 2), b = std::min(to_px(s1), pmax.x + 2);
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
        dl->AddText(ImVec2(a + 3, y0 + (y1 - y0 - line) / 2), IM_COL32(12, 14, 18, 255), s.name.c_str());
        dl->PopClipRect();
      }
      if (hovered && io.MousePos.y >= y0 && io.MousePos.y <= y1 && io.MousePos.x >= a - 1 && io.MousePos.x <= b + 1)
        hit = &s, hit_lane = &lane;
    }
  }
  dl->PopClipRect();
  dl->AddRect(pmin, pmax, IM_COL32(90, 96, 108, 255));

  // Overview: the whole trace with the visible window; click or drag to move it.
  ImVec2 o0(pmin.x, pmax.y + line + 8), o1(pmax.x, pmax.y + line + 8 + line * 1.4f);
  ImGui::SetCursorScreenPos(ImVec2(p0.x, pmax.y + 4));
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

  // What the visible window holds: busy time per operator and lane, clipped to the view.
  ImGui::SetCursorScreenPos(ImVec2(p0.x, o1.y + 8));
  const std::vector<BusyRow> rows = busy_in_window(trace_, v0_, v1_);
  const double view = v1_ - v0_;
  ImGui::TextDisabled("In view (%s to %s): busy time per operator and lane, all stages", fmt::time(std::max(0.0, v0_)).c_str(),
                      fmt::time(v1_).c_str());
  if (!rows.empty() &&
      ImGui::BeginTable("in-view", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY,
                        ImVec2(0, std::max(line * 4, ImGui::GetContentRegionAvail().y - 4)))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("operator", 0, 1.6f);
    ImGui::TableSetupColumn("lane", 0, 0.7f);
    ImGui::TableSetupColumn("busy", 0, 0.8f);
    ImGui::TableSetupColumn("spans", 0, 0.5f);
    ImGui::TableSetupColumn("share of the view (per lane)", 0, 1.6f);
    ImGui::TableHeadersRow();
    const std::size_t stages = std::max<std::size_t>(1, trace_.lanes.empty() ? 1 : trace_.lanes.back().stage + 1);
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
      float share = view > 0 ? static_cast<float>(r.busy_s / view / stages) : 0;
      ImVec2 bp = ImGui::GetCursorScreenPos();
      float bw = ImGui::GetContentRegionAvail().x;
      ImGui::GetWindowDrawList()->AddRectFilled(bp, ImVec2(bp.x + bw * std::min(1.0f, share), bp.y + line),
                                                category_colour(r.category, 0.55f));
      ImGui::Text("%.1f%%", share * 100);
    }
    ImGui::EndTable();
  }

  if (!hit && hit_phase) {
    ImGui::SetTooltip("%s: %s to %s (%s)", hit_phase->name.c_str(), fmt::time(hit_phase->t0).c_str(),
                      fmt::time(hit_phase->t1).c_str(), fmt::time(hit_phase->t1 - hit_phase->t0).c_str());
  }
  if (hit) {
    ImGui::BeginTooltip();
    ImGui::Text("%s", hit->name.c_str());
    ImGui::TextDisabled("%s | %s", hit_lane->label.c_str(), hit->phase.c_str());
    if (!hit_lane->stage_name.empty()) ImGui::TextDisabled("%s", hit_lane->stage_name.c_str());
    ImGui::Text("start %s, duration %s", fmt::time(hit->start_s).c_str(), fmt::time(hit->dur_s).c_str());
    if (!hit->detail.empty()) ImGui::Text("%s", hit->detail.c_str());
    if (hit->flops > 0) ImGui::Text("%s", fmt::si(hit->flops, "FLOP").c_str());
    if (hit->hbm_bytes > 0) ImGui::Text("HBM %s", fmt::bytes(hit->hbm_bytes).c_str());
    if (hit->fabric_bytes > 0) ImGui::Text("fabric %s", fmt::bytes(hit->fabric_bytes).c_str());
    ImGui::EndTooltip();
  }
}

}  // namespace

std::unique_ptr<Panel> make_timeline_panel() { return std::make_unique<TimelinePanel>(); }
TRNSIM_PANEL(30, make_timeline_panel);

}  // namespace trnsim::ui
