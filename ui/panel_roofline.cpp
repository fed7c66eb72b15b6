// The Roofline panel: log-log arithmetic intensity (FLOP per HBM byte) against FLOP/s
// per chip, with the chip's roofs -- HBM bandwidth x intensity up to each data type's
// peak (hw::Chip::peak_flops), and the derated roof for the scenario's efficiencies --
// and every operator of the scenario placed on it: a filled dot where it runs (FLOPs /
// time including the kernel's fixed overhead), a ring where the roofline alone would put
// it (FLOPs / max(compute, memory)). Operators without FLOPs (norms, embeddings) have no
// intensity on this chart and are listed instead.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/app.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/view/roofline_points.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

// Log-log axes covering every point, the ridge and the highest roof.
void roofline_axes(const RooflinePoints& rp, const Roofs& roofs, Axis& ax, Axis& ay) {
  const double bw = roofs.hbm_bytes_per_s, peak_max = roofs.peak_max;
  double xlo = 1e9, xhi = 0, ylo = 1e30;
  for (const auto& p : rp.points) xlo = std::min(xlo, p.intensity), xhi = std::max(xhi, p.intensity), ylo = std::min(ylo, p.flops_per_s);
  double ridge = bw > 0 ? peak_max / bw : 100;
  if (rp.points.empty()) xlo = 0.1, xhi = ridge * 10, ylo = peak_max / 1e4;
  ax.log = ay.log = true;
  ax.lo = std::pow(10.0, std::floor(std::log10(std::max(1e-3, std::min(xlo, ridge) / 2))));
  ax.hi = std::pow(10.0, std::ceil(std::log10(std::max(xhi, ridge) * 3)));
  ay.lo = std::pow(10.0, std::floor(std::log10(std::max(1.0, std::min(ylo, bw * ax.lo) / 2))));
  ay.hi = std::pow(10.0, std::ceil(std::log10(peak_max * 2)));
  ax.label = "arithmetic intensity (FLOP per HBM byte)";
  ay.label = "FLOP/s per chip";
  ax.fmt = [](double v) {
    if (v >= 1e4) {
      char b[16];
      std::snprintf(b, sizeof b, "1e%d", static_cast<int>(std::lround(std::log10(v))));
      return std::string(std::fabs(v - std::pow(10.0, std::lround(std::log10(v)))) < v * 1e-6 ? b : fmt::general(v, 2).c_str());
    }
    return fmt::general(v, 4);
  };
  ay.fmt = [](double v) { return fmt::si(v, "FLOP/s"); };
}

// Roofs: one per distinct peak, the memory slope shared, with their labels.
void draw_roofs(PlotFrame& plot, const Axis& ax, const Roofs& roofs) {
  ImDrawList* dl = plot.draw_list();
  const double bw = roofs.hbm_bytes_per_s;
  int i = 0;
  for (const auto& roof : roofs.peaks) {
    double knee = roof.flops_per_s / bw;
    ImU32 c = series_colour(4 + i++, 0.85f);
    dl->AddLine(plot.to_screen(ax.lo, bw * ax.lo), plot.to_screen(knee, roof.flops_per_s), IM_COL32(200, 200, 210, 200), 2);
    dl->AddLine(plot.to_screen(knee, roof.flops_per_s), plot.to_screen(ax.hi, roof.flops_per_s), c, 2);
    std::string lab = roof.dtypes + " peak " + fmt::si(roof.flops_per_s, "FLOP/s");
    ImVec2 lp = plot.to_screen(ax.hi, roof.flops_per_s);
    dl->AddText(ImVec2(lp.x - ImGui::CalcTextSize(lab.c_str()).x - 4, lp.y - ImGui::GetTextLineHeight() - 1), c, lab.c_str());
  }
  // The memory roof's label, along the slope near its foot.
  std::string lab = "HBM " + fmt::si(bw, "B/s");
  ImVec2 a = plot.to_screen(ax.lo * 3, bw * ax.lo * 3);
  dl->AddText(ImVec2(a.x + 6, a.y - ImGui::GetTextLineHeight() - 4), IM_COL32(200, 200, 210, 220), lab.c_str());
}

// The derated roof, dashed: short segments along its two parts.
void draw_derated_roof(PlotFrame& plot, const Axis& ax, const Roofs& roofs, const workload::Result& r) {
  const double peak = roofs.derated_flops_per_s, b = roofs.derated_hbm_bytes_per_s;
  if (!(peak > 0 && b > 0)) return;
  ImDrawList* dl = plot.draw_list();
  double knee = peak / b;
  const ImU32 c = IM_COL32(230, 230, 120, 150);
  auto dashed = [&](double x0, double y0, double x1, double y1) {
    const int n = 40;
    for (int k = 0; k < n; k += 2) {
      double t0 = double(k) / n, t1 = double(k + 1) / n;
      double lx0 = std::log10(x0), lx1 = std::log10(x1), ly0 = std::log10(y0), ly1 = std::log10(y1);
      dl->AddLine(plot.to_screen(std::pow(10, lx0 + (lx1 - lx0) * t0), std::pow(10, ly0 + (ly1 - ly0) * t0)),
                  plot.to_screen(std::pow(10, lx0 + (lx1 - lx0) * t1), std::pow(10, ly0 + (ly1 - ly0) * t1)), c, 1.5f);
    }
  };
  dashed(ax.lo, b * ax.lo, knee, peak);
  dashed(knee, peak, ax.hi, peak);
  std::string lab = r.matmul_dtype + " x " + fmt::general(r.spec.efficiency.compute, 2) + ", HBM x " +
                    fmt::general(r.spec.efficiency.hbm, 2);
  ImVec2 lp = plot.to_screen(ax.hi, peak);
  dl->AddText(ImVec2(lp.x - ImGui::CalcTextSize(lab.c_str()).x - 4, lp.y + 2), c, lab.c_str());
}

// The operators: a dot where each runs, a ring where the roofline alone puts it; returns the
// point under the mouse.
const RooflinePoint* draw_operators(PlotFrame& plot, std::vector<RooflinePoint>& pts, bool labels) {
  ImDrawList* dl = plot.draw_list();
  const RooflinePoint* hit = nullptr;
  float best = 10;
  // Later phases first: where a backward operator sits on its forward twin, the forward
  // dot stays visible (and the ring of the other marks the overlap).
  std::stable_sort(pts.begin(), pts.end(), [](const RooflinePoint& a, const RooflinePoint& b) { return a.phase_index > b.phase_index; });
  for (const auto& p : pts) {
    ImVec2 a = plot.to_screen(p.intensity, p.flops_per_s), b = plot.to_screen(p.intensity, p.roof_flops_per_s);
    float rad = 3.5f + 6.0f * static_cast<float>(std::sqrt(std::max(0.0, p.share)));
    ImU32 c = series_colour(p.phase_index);
    if (std::fabs(b.y - a.y) > 2) {
      dl->AddLine(a, b, series_colour(p.phase_index, 0.5f), 1);
      dl->AddCircle(b, rad * 0.7f, series_colour(p.phase_index, 0.8f), 12, 1.5f);
    }
    dl->AddCircleFilled(a, rad, c, 16);
    dl->AddCircle(a, rad, IM_COL32(10, 10, 14, 200), 16, 1);
    if (labels) dl->AddText(ImVec2(a.x + rad + 2, a.y - ImGui::GetTextLineHeight() / 2), series_colour(p.phase_index, 0.9f),
                            p.op->name.c_str());
    if (plot.hovered()) {
      ImVec2 m = plot.mouse();
      float d = std::sqrt((m.x - a.x) * (m.x - a.x) + (m.y - a.y) * (m.y - a.y));
      if (d < best) best = d, hit = &p;
    }
  }
  return hit;
}

// Legend: the phases' colours and what dots and rings mean; the operators left off.
void roofline_legend(const workload::Result& r, const std::vector<std::string>& skipped) {
  ImGui::TextDisabled("phases:");
  for (std::size_t pi = 0; pi < r.phases.size(); ++pi) {
    ImGui::SameLine();
    ImGui::ColorButton(("##ph" + std::to_string(pi)).c_str(), ImGui::ColorConvertU32ToFloat4(series_colour(static_cast<int>(pi))),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine(0, 3);
    ImGui::TextUnformatted(r.phases[pi].name.c_str());
  }
  ImGui::SameLine();
  ImGui::TextDisabled("| dot: with kernel overhead, ring: roofline alone, size: share of the phase");
  if (!skipped.empty()) {
    std::string s;
    for (const auto& n : skipped) s += (s.empty() ? "" : ", ") + n;
    dim_text("No FLOPs, so not on the chart: %s", s.c_str());
  }
}

void roofline_tooltip(const RooflinePoint& hit, const Roofs& roofs, const workload::Result& r) {
  const auto& o = *hit.op;
  ImGui::BeginTooltip();
  ImGui::Text("%s (%s)", o.name.c_str(), hit.phase.c_str());
  ImGui::TextDisabled("%s, %s-bound", o.detail.c_str(), price::category_name(o.category));
  ImGui::Text("intensity %s FLOP/byte: %s over %s of HBM traffic", fmt::general(hit.intensity, 3).c_str(), fmt::si(o.flops, "FLOP").c_str(),
              fmt::bytes(o.hbm_bytes).c_str());
  ImGui::Text("runs at %s (%s of the %s peak)", fmt::si(hit.flops_per_s, "FLOP/s").c_str(),
              fmt::percent(roofs.of_matmul_peak(hit.flops_per_s)).c_str(), r.matmul_dtype.c_str());
  ImGui::Text("roofline alone: %s; time %s = max(compute %s, memory %s) + overhead %s",
              fmt::si(hit.roof_flops_per_s, "FLOP/s").c_str(), fmt::time(o.time_s).c_str(), fmt::time(o.compute_s).c_str(),
              fmt::time(o.memory_s).c_str(), fmt::time(o.overhead_s).c_str());
  ImGui::EndTooltip();
}

class RooflinePanel : public Panel {
 public:
  const char* name() const override { return "Roofline"; }
  void draw(App& app) override;

 private:
  // The system's radio buttons and the chart's options; the system report chosen.
  const SystemReport& controls(const Report& rep);

  int which_ = 0;
  bool derated_ = true, labels_ = false;
};

const SystemReport& RooflinePanel::controls(const Report& rep) {
  const bool have_b = rep.compare && rep.compare->result;
  system_picker(rep.primary.system.display_name, have_b ? &rep.compare->system.display_name : nullptr, &which_);
  ImGui::SameLine();
  ImGui::Checkbox("derated roof", &derated_);
  help_marker("The roof times the scenario's efficiencies (matmul and HBM): where an operator can get at best.");
  ImGui::SameLine();
  ImGui::Checkbox("labels", &labels_);
  return which_ == 0 ? rep.primary : *rep.compare;
}

void RooflinePanel::draw(App& app) {
  const SystemReport& sr = controls(app.report());
  if (!sr.result) return;
  const workload::Result& r = *sr.result;
  const hw::Chip& chip = sr.system.chip;
  RooflinePoints rp = roofline_points(r);
  const Roofs roofs = roofline_roofs(chip, r);
  Axis ax, ay;
  roofline_axes(rp, roofs, ax, ay);
  std::string title = chip.display_name + ": HBM " + fmt::si(roofs.hbm_bytes_per_s, "B/s") + "; " + r.model_name() + " " + workload::kind_name(r.kind());
  PlotFrame plot("roofline", ImVec2(0, -ImGui::GetTextLineHeightWithSpacing() * 3.6f), ax, ay, title.c_str());
  probe("roofline:plot");
  plot.push_clip();
  draw_roofs(plot, ax, roofs);
  if (derated_) draw_derated_roof(plot, ax, roofs, r);
  const RooflinePoint* hit = draw_operators(plot, rp.points, labels_);
  plot.pop_clip();
  roofline_legend(r, rp.skipped);
  if (hit) roofline_tooltip(*hit, roofs, r);
}

}  // namespace

std::unique_ptr<Panel> make_roofline_panel() { return std::make_unique<RooflinePanel>(); }
TRNSIM_PANEL(make_roofline_panel);

}  // namespace trnsim::ui
