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

class RooflinePanel : public Panel {
 public:
  const char* name() const override { return "Roofline"; }
  void draw(App& app) override {
    const Report& rep = app.report();
    bool have_b = rep.compare && rep.compare->result;
    if (!have_b) which_ = 0;
    ImGui::RadioButton(rep.primary.system.display_name.c_str(), &which_, 0);
    if (have_b) {
      ImGui::SameLine();
      ImGui::RadioButton(rep.compare->system.display_name.c_str(), &which_, 1);
    }
    ImGui::SameLine();
    ImGui::Checkbox("derated roof", &derated_);
    help_marker("The roof times the scenario's efficiencies (matmul and HBM): where an operator can get at best.");
    ImGui::SameLine();
    ImGui::Checkbox("labels", &labels_);
    const SystemReport& sr = which_ == 0 ? rep.primary : *rep.compare;
    if (!sr.result) return;
    const workload::Result& r = *sr.result;
    const hw::Chip& chip = sr.system.chip;
    const double bw = chip.hbm_bandwidth_bytes_per_s;

    RooflinePoints rp = roofline_points(r);
    std::vector<RooflinePoint>& pts = rp.points;
    const std::vector<std::string>& skipped = rp.skipped;
    double peak_max = 0;
    for (const auto& kv : chip.peak_flops) peak_max = std::max(peak_max, kv.second);
    double xlo = 1e9, xhi = 0, ylo = 1e30;
    for (const auto& p : pts) xlo = std::min(xlo, p.intensity), xhi = std::max(xhi, p.intensity), ylo = std::min(ylo, p.flops_per_s);
    double ridge = bw > 0 ? peak_max / bw : 100;
    if (pts.empty()) xlo = 0.1, xhi = ridge * 10, ylo = peak_max / 1e4;
    Axis ax, ay;
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
    std::string title = chip.display_name + ": HBM " + fmt::si(bw, "B/s") + "; " + r.model_name() + " " + workload::kind_name(r.kind());
    PlotFrame plot("roofline", ImVec2(0, -ImGui::GetTextLineHeightWithSpacing() * 3.6f), ax, ay, title.c_str());
    probe("roofline:plot");
    ImDrawList* dl = plot.draw_list();
    plot.push_clip();
    // Roofs: one per data type, the memory slope shared.
    // Data types with the same peak share one roof and one label.
    std::vector<std::pair<double, std::string>> roofs;
    for (const auto& kv : chip.peak_flops) {
      if (kv.second <= 0) continue;
      auto it = std::find_if(roofs.begin(), roofs.end(), [&](const auto& r) { return r.first == kv.second; });
      if (it == roofs.end()) roofs.push_back({kv.second, kv.first});
      else it->second += ", " + kv.first;
    }
    std::sort(roofs.begin(), roofs.end());
    int i = 0;
    for (const auto& roof : roofs) {
      double knee = roof.first / bw;
      ImU32 c = series_colour(4 + i++, 0.85f);
      dl->AddLine(plot.to_screen(ax.lo, bw * ax.lo), plot.to_screen(knee, roof.first), IM_COL32(200, 200, 210, 200), 2);
      dl->AddLine(plot.to_screen(knee, roof.first), plot.to_screen(ax.hi, roof.first), c, 2);
      std::string lab = roof.second + " peak " + fmt::si(roof.first, "FLOP/s");
      ImVec2 lp = plot.to_screen(ax.hi, roof.first);
      dl->AddText(ImVec2(lp.x - ImGui::CalcTextSize(lab.c_str()).x - 4, lp.y - ImGui::GetTextLineHeight() - 1), c, lab.c_str());
    }
    {
      // The memory roof's label, along the slope near its foot.
      std::string lab = "HBM " + fmt::si(bw, "B/s");
      ImVec2 a = plot.to_screen(ax.lo * 3, bw * ax.lo * 3);
      dl->AddText(ImVec2(a.x + 6, a.y - ImGui::GetTextLineHeight() - 4), IM_COL32(200, 200, 210, 220), lab.c_str());
    }
    if (derated_) {
      double peak = chip.peak(r.matmul_dtype) * r.spec.efficiency.compute, b = bw * r.spec.efficiency.hbm;
      if (peak > 0 && b > 0) {
        double knee = peak / b;
        const ImU32 c = IM_COL32(230, 230, 120, 150);
        // Dashed: short segments along the two parts.
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
    }
    // Operators.
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
      if (labels_) dl->AddText(ImVec2(a.x + rad + 2, a.y - ImGui::GetTextLineHeight() / 2), series_colour(p.phase_index, 0.9f),
                               p.op->name.c_str());
      if (plot.hovered()) {
        ImVec2 m = plot.mouse();
        float d = std::sqrt((m.x - a.x) * (m.x - a.x) + (m.y - a.y) * (m.y - a.y));
        if (d < best) best = d, hit = &p;
      }
    }
    plot.pop_clip();
    // Legend: phases.
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
    if (hit) {
      const auto& o = *hit->op;
      ImGui::BeginTooltip();
      ImGui::Text("%s (%s)", o.name.c_str(), hit->phase.c_str());
      ImGui::TextDisabled("%s, %s-bound", o.detail.c_str(), price::category_name(o.category));
      ImGui::Text("intensity %s FLOP/byte: %s over %s of HBM traffic", fmt::general(hit->intensity, 3).c_str(), fmt::si(o.flops, "FLOP").c_str(),
                  fmt::bytes(o.hbm_bytes).c_str());
      ImGui::Text("runs at %s (%s of the %s peak)", fmt::si(hit->flops_per_s, "FLOP/s").c_str(),
                  fmt::percent(chip.peak(r.matmul_dtype) > 0 ? hit->flops_per_s / chip.peak(r.matmul_dtype) : 0).c_str(),
                  r.matmul_dtype.c_str());
      ImGui::Text("roofline alone: %s; time %s = max(compute %s, memory %s) + overhead %s",
                  fmt::si(hit->roof_flops_per_s, "FLOP/s").c_str(), fmt::time(o.time_s).c_str(), fmt::time(o.compute_s).c_str(),
                  fmt::time(o.memory_s).c_str(), fmt::time(o.overhead_s).c_str());
      ImGui::EndTooltip();
    }
  }

 private:
  int which_ = 0;
  bool derated_ = true, labels_ = false;
};

}  // namespace

std::unique_ptr<Panel> make_roofline_panel() { return std::make_unique<RooflinePanel>(); }
TRNSIM_PANEL(40, make_roofline_panel);

}  // namespace trnsim::ui
