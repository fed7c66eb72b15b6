// The Report panel: the key figures of the scenario's system with the same scenario on
// the comparison system (normally the other Trainium generation) beside them and the
// ratio between the two; where the time goes (compute / HBM / fabric / kernel
// overhead), what fills HBM, the operators of each phase, warnings, assumptions with
// their sources, and the full text report exactly as `trnsim run` prints it.
#include <imgui.h>

#include <algorithm>

#include "ui/app.h"
#include "ui/figures.h"
#include "ui/view/roofline_points.h"
#include "ui/view/scenario_form.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

void shares_bar(const char* id, const workload::Result& r) {
  const workload::TimeSplit::Shares& s = r.time_shares;
  const float f[4] = {static_cast<float>(s.compute), static_cast<float>(s.hbm), static_cast<float>(s.fabric),
                      static_cast<float>(s.overhead)};
  const char* labels[4] = {"compute", "HBM", "fabric", "overhead"};
  const ImU32 cols[4] = {category_colour("compute"), category_colour("hbm"), category_colour("fabric"),
                         category_colour("overhead")};
  stacked_bar(id, f, labels, cols, 4, -1, ImGui::GetFrameHeight());
}

void memory_bar(const char* id, const workload::Result& r) {
  std::vector<float> f;
  std::vector<std::string> names, tips;
  std::vector<ImU32> cols;
  double cap = std::max(1.0, r.hbm_capacity_bytes);
  int i = 0;
  for (const auto& m : r.memory) {
    f.push_back(static_cast<float>(m.bytes / cap));
    names.push_back(m.name);
    tips.push_back(fmt::bytes(m.bytes));
    cols.push_back(series_colour(i++, 0.9f));
  }
  std::vector<const char*> l, t;
  for (auto& s : names) l.push_back(s.c_str());
  for (auto& s : tips) t.push_back(s.c_str());
  stacked_bar(id, f.data(), l.data(), cols.data(), static_cast<int>(f.size()), -1, ImGui::GetFrameHeight(), t.data());
}

void system_block(const char* id, const SystemReport& sr) {
  ImGui::PushID(id);
  const hw::System& s = sr.system;
  ImGui::Text("%s", s.display_name.c_str());
  ImGui::TextDisabled("%d x %s, %d per server, %d per scale-up domain (%s)", s.chips, s.chip.display_name.c_str(),
                      s.chips_per_server, s.chips_per_domain, s.fabric.c_str());
  if (!sr.result) {
    error_text("Cannot run here: " + sr.error);
    ImGui::PopID();
    return;
  }
  const auto& r = *sr.result;
  ImGui::TextDisabled("time shares of the headline figure");
  shares_bar("shares", r);
  ImGui::TextDisabled("HBM per chip: %s of %s", fmt::bytes(r.hbm_used_bytes).c_str(), fmt::bytes(r.hbm_capacity_bytes).c_str());
  memory_bar("memory", r);
  ImGui::PopID();
}

void ops_table(const workload::Result& r) {
  for (const auto& ph : r.phases) {
    const std::string overlap = workload::phase_overlap_text(ph);
    std::string head = ph.name + ": " + workload::phase_time_text(ph) + "  (" + ph.unit +
                       (overlap.empty() ? "" : "; " + overlap) + ")";
    if (!ImGui::TreeNode(ph.name.c_str(), "%s", head.c_str())) continue;
    std::vector<const workload::OpRecord*> ops;
    for (const auto& o : ph.ops) ops.push_back(&o);
    std::stable_sort(ops.begin(), ops.end(), [](auto* a, auto* b) { return a->total_s() > b->total_s(); });
    if (ImGui::BeginTable("ops", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("operator");
      ImGui::TableSetupColumn("count");
      ImGui::TableSetupColumn("total");
      ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthFixed, 120);
      ImGui::TableSetupColumn("bound");
      ImGui::TableSetupColumn("detail");
      ImGui::TableHeadersRow();
      for (auto* o : ops) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(o->name.c_str());
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::Text("%s (%s), per chip and occurrence:", o->name.c_str(), plan::scope_name(o->scope));
          if (o->flops > 0) ImGui::Text("  %s", fmt::si(o->flops, "FLOP").c_str());
          if (o->hbm_bytes > 0) ImGui::Text("  HBM %s", fmt::bytes(o->hbm_bytes).c_str());
          if (o->fabric_bytes > 0) ImGui::Text("  fabric %s", fmt::bytes(o->fabric_bytes).c_str());
          ImGui::Text("  compute %s, memory %s, fabric %s, overhead %s", fmt::time(o->compute_s).c_str(),
                      fmt::time(o->memory_s).c_str(), fmt::time(o->fabric_s).c_str(), fmt::time(o->overhead_s).c_str());
          ImGui::EndTooltip();
        }
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%s", fmt::general(o->count, 4).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(fmt::time(o->total_s()).c_str());
        ImGui::TableSetColumnIndex(3);
        float share = static_cast<float>(op_share(ph, *o));
        ImVec2 p = ImGui::GetCursorScreenPos();
        float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w * share, p.y + h), category_colour(price::category_name(o->category), 0.75f));
        ImGui::Text("%.1f%%", share * 100);
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(price::category_name(o->category));
        ImGui::TableSetColumnIndex(5);
        ImGui::TextUnformatted(o->detail.c_str());
      }
      ImGui::EndTable();
    }
    ImGui::TreePop();
  }
}

class ReportPanel : public Panel {
 public:
  const char* name() const override { return "Report"; }
  void draw(App& app) override {
    const Report& rep = app.report();
    const SystemReport& a = rep.primary;
    const SystemReport* b = rep.compare ? &*rep.compare : nullptr;
    ImGui::TextWrapped("%s", rep.scenario.name.empty() ? "(unnamed scenario)" : rep.scenario.name.c_str());
    if (!a.result) return;
    const auto& ra = *a.result;
    std::string what;
    switch (ra.kind()) {
      case workload::Kind::inference:
        what = std::to_string(ra.spec.inference.batch) + " concurrent x " + std::to_string(ra.spec.inference.input_tokens) +
               " in / " + std::to_string(ra.spec.inference.output_tokens) + " out";
        break;
      case workload::Kind::video: {
        const workload::VideoResult& v = ra.video();
        what = std::to_string(v.width) + "x" + std::to_string(v.height) + ", " + std::to_string(v.frames) + " frames, " +
               std::to_string(v.steps) + " steps (the Video tab has the phases and the real-time curve)";
        break;
      }
      case workload::Kind::training:
        what = std::to_string(ra.spec.training.global_batch) + " sequences x " +
               std::to_string(ra.spec.training.sequence_length) + " tokens per step";
        break;
    }
    ImGui::TextDisabled("%s %s on %s: %s", ra.model_name().c_str(), workload::kind_name(ra.kind()), ra.system_display_name.c_str(),
                        what.c_str());

    const bool have_b = b && b->result;
    ImGui::Spacing();
    metric_table("figures", metric_rows(ra, have_b ? &*b->result : nullptr), a.system.display_name,
                 have_b ? b->system.display_name : "", have_b, "figure:");
    if (have_b)
      ImGui::TextDisabled("each ratio is %s / %s of the metric (as `trnsim run` reports it), green where %s is better",
                          a.system.display_name.c_str(), b->system.display_name.c_str(), a.system.display_name.c_str());
    if (b && !b->result) error_text("On " + b->system.display_name + ": " + b->error);
    if (!b) {
      const std::string other = other_system(rep.scenario.system);
      if (ImGui::Button(("Compare with " + other).c_str())) app.set_field("compare_system", other);
      probe("compare-other-generation");
    }
    ImGui::Spacing();
    if (have_b && ImGui::BeginTable("systems", 2, ImGuiTableFlags_SizingStretchSame)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      system_block("a", a);
      ImGui::TableSetColumnIndex(1);
      system_block("b", *b);
      ImGui::EndTable();
    } else if (!have_b) {
      system_block("a", a);
    }

    ImGui::Spacing();
    if (ImGui::CollapsingHeader("Operators, per phase", ImGuiTreeNodeFlags_DefaultOpen)) {
      ImGui::PushID("ops-a");
      ImGui::TextDisabled("%s", a.system.display_name.c_str());
      ops_table(ra);
      ImGui::PopID();
      if (have_b) {
        ImGui::PushID("ops-b");
        ImGui::TextDisabled("%s", b->system.display_name.c_str());
        ops_table(*b->result);
        ImGui::PopID();
      }
    }
    if (!ra.warnings.empty() && ImGui::CollapsingHeader("Warnings")) {
      for (const auto& w : ra.warnings) ImGui::BulletText("%s", w.c_str());
    }
    if (ImGui::CollapsingHeader("Assumptions and their sources")) {
      if (ImGui::BeginTable("assumptions", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("assumption", 0, 1.0f);
        ImGui::TableSetupColumn("value", 0, 0.6f);
        ImGui::TableSetupColumn("source", 0, 2.4f);
        ImGui::TableHeadersRow();
        for (const auto& as : ra.assumptions) {
          ImGui::TableNextRow();
          ImGui::TableSetColumnIndex(0);
          ImGui::TextUnformatted(as.name.c_str());
          ImGui::TableSetColumnIndex(1);
          ImGui::Text("%s %s", fmt::general(as.value, 4).c_str(), as.unit.c_str());
          ImGui::TableSetColumnIndex(2);
          ImGui::TextWrapped("%s", as.source.c_str());
        }
        ImGui::EndTable();
      }
    }
    if (ImGui::CollapsingHeader("Full text report (as `trnsim run` prints it)")) {
      if (text_generation_ != app.generation()) {
        text_ = report_to_text(rep);
        text_generation_ = app.generation();
      }
      ImGui::TextUnformatted(text_.c_str(), text_.c_str() + text_.size());
    }
  }

 private:
  std::string text_;
  std::uint64_t text_generation_ = 0;
};

}  // namespace

std::unique_ptr<Panel> make_report_panel() { return std::make_unique<ReportPanel>(); }
TRNSIM_PANEL(make_report_panel);

}  // namespace trnsim::ui
