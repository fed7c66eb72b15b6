// The Compare panel: two scenarios side by side -- A, the current scenario, and B, a
// second one pinned from the current scenario, opened from the gallery or pasted (JSON
// or link) -- with what differs between them (field by field, through the core's field
// table) and every metric of the core's metric table with the ratio A / B (first /
// second, as `trnsim compare A B` prints it). B is view state: it is not in the page's
// link, which holds exactly one scenario (the link codec's format); "Swap" and "Open B"
// move it there.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <optional>

#include "link/link.h"
#include "ui/app.h"
#include "ui/view/scenario_form.h"
#include "ui/figures.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

void summary(const char* id, const Scenario& s, const Report* r, const std::string& error) {
  ImGui::PushID(id);
  ImGui::TextWrapped("%s", s.name.empty() ? "(unnamed)" : s.name.c_str());
  const auto& w = s.workload;
  ImGui::TextDisabled("%s on %s", workload::kind_name(w.kind), s.system.c_str());
  ImGui::TextDisabled("model %s; tp %d pp %d dp %d ep %d", w.model_name.empty() ? "(inline config)" : w.model_name.c_str(),
                      w.parallelism.tp, w.parallelism.pp, w.parallelism.dp, w.parallelism.ep);
  ImGui::TextDisabled("weights %s, activations %s, KV %s", w.precision.weights.c_str(), w.precision.activations.c_str(),
                      w.precision.kv_cache.c_str());
  if (!error.empty()) error_text(error);
  (void)r;
  ImGui::PopID();
}

class ComparePanel : public Panel {
 public:
  const char* name() const override { return "Compare"; }
  void draw(App& app) override {
    if (!b_) pin(app.scenario());
    if (ImGui::Button("Pin current as B")) pin(app.scenario());
    probe("compare:pin");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("B becomes a copy of the current scenario; then change A and compare.");
    ImGui::SameLine();
    if (ImGui::Button("B from the gallery")) ImGui::OpenPopup("b-gallery");
    if (ImGui::BeginPopup("b-gallery")) {
      for (const auto& e : examples())
        if (ImGui::Selectable(e.title.c_str())) {
          try {
            pin(scenario_from_json(e.scenario));
          } catch (const InputError& ex) {
            error_ = ex.what();
          }
        }
      ImGui::EndPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Swap A and B")) {
      Scenario a = app.scenario();
      if (app.set_scenario_json(scenario_to_json(*b_), "B")) pin(a);
    }
    probe("compare:swap");
    ImGui::SameLine();
    if (ImGui::Button("Open B as the scenario")) app.set_scenario_json(scenario_to_json(*b_), "B");
    if (ImGui::TreeNode("Paste B (scenario JSON or link)")) {
      ImGui::InputTextMultiline("##b", &paste_, ImVec2(-1, ImGui::GetTextLineHeight() * 5));
      if (ImGui::Button("Use as B")) {
        try {
          auto first = paste_.find_first_not_of(" \t\r\n");
          std::string t = first == std::string::npos ? "" : paste_.substr(first);
          json j = !t.empty() && t[0] == '{' ? parse_json_text(t, "B") : decode_fragment(t);
          pin(scenario_from_json(j));
        } catch (const InputError& e) {
          error_ = e.what();
        }
      }
      ImGui::TreePop();
    }
    if (!error_.empty()) error_text(error_);

    const Report& ra = app.report();
    if (ImGui::BeginTable("ab", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("A: the current scenario (in the link)");
      ImGui::TableSetupColumn("B: pinned");
      ImGui::TableHeadersRow();
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      summary("a", app.scenario(), &ra, "");
      ImGui::TableSetColumnIndex(1);
      summary("b", *b_, b_report_ ? &*b_report_ : nullptr, b_error_);
      ImGui::EndTable();
    }

    // What differs.
    const std::vector<std::string> diffs = scenario_differences(app.scenario(), *b_);
    section("What differs (A -> B)");
    if (diffs.empty()) dim_text("Nothing: B is the same scenario as A. Change A in the Scenario panel to compare.");
    for (const auto& d : diffs) ImGui::BulletText("%s", d.c_str());
    probe("compare:diffs");

    section("Every metric on each scenario's system (ratio A / B)");
    if (!ra.primary.result || !b_report_ || !b_report_->primary.result) {
      if (!b_error_.empty()) error_text("B: " + b_error_);
      return;
    }
    metric_table("figures", metric_rows(*ra.primary.result, &*b_report_->primary.result),
                 "A: " + ra.primary.system.display_name, "B: " + b_report_->primary.system.display_name, true, "compare:", "A / B");
    ImGui::TextDisabled("each ratio is A / B of the metric, as `trnsim compare A B` prints it; green where A is better");
  }

 private:
  void pin(const Scenario& s) {
    b_ = s;
    error_.clear();
    b_error_.clear();
    b_report_.reset();
    try {
      b_report_ = evaluate(s);
    } catch (const InputError& e) {
      b_error_ = e.what();
    }
  }

  std::optional<Scenario> b_;
  std::optional<Report> b_report_;
  std::string b_error_, error_, paste_;
};

}  // namespace

std::unique_ptr<Panel> make_compare_panel() { return std::make_unique<ComparePanel>(); }
TRNSIM_PANEL(make_compare_panel);

}  // namespace trnsim::ui
