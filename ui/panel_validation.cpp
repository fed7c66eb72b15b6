// The Validation panel: every published figure the model is checked against -- the rows of
// core/data/validation/*.json evaluated by core/validate, the same table `trnsim validate`
// prints (ui/view/validation_view.h): id, figure, published value, the model's value, the
// error, the source (hover: the document behind its key, core/data/sources.json), whether
// the row calibrated a default, and the note. Filter by text, calibration rows or modeled
// rows; click a header to sort. The rows do not depend on the scenario: they are evaluated
// the first time the tab opens, and again when the pricer changes (roofline, as `trnsim
// validate`; engine, as `trnsim validate --pricer engine`), a few rows per frame
// (ValidationProgress) with a progress bar, so the engine's run of seconds never freezes the
// page. window.trnsim.panelState("Validation") returns the panel's rows as `trnsim validate --json`.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>

#include "hw/sources.h"
#include "price/pricer.h"
#include "ui/app.h"
#include "ui/view/validation_view.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

ImVec4 error_colour(const validate::Row& r) {
  if (!r.modeled) return ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  const double e = std::fabs(r.error());
  return e <= 0.25 ? ImVec4(0.45f, 0.85f, 0.5f, 1) : e <= 0.5 ? ImVec4(0.95f, 0.8f, 0.35f, 1) : ImVec4(1.0f, 0.5f, 0.45f, 1);
}

// The source key a row's source text starts with ("PERF-A row 7", "S12"), if listed.
const hw::SourceKey* source_key(const std::string& source) {
  const auto end = source.find_first_of(" ,;:(");
  return hw::find_source_key(source.substr(0, end));
}

class ValidationPanel : public Panel {
 public:
  const char* name() const override { return "Validation"; }
  void draw(App& app) override;
  std::string state_json() const override { return progress_.to_json().dump(); }
  bool busy() const override { return progress_.started() && !progress_.done(); }

 private:
  void summary_line() const;
  void table();
  void row(const validate::Row& r);

  void pricer_choice();

  ValidationProgress progress_;
  ValidationFilter filter_;
  ValidationColumn sort_ = ValidationColumn::id;
  bool ascending_ = true;
  std::vector<std::size_t> order_;
  bool dirty_ = true;
};

void ValidationPanel::summary_line() const {
  const validate::Summary& s = progress_.table().summary;
  if (!progress_.done()) ImGui::TextDisabled("So far (%zu of %zu rows):", progress_.evaluated(), progress_.total());
  if (!progress_.done()) ImGui::SameLine();
  ImGui::TextWrapped("%d figures modeled: %d within 25%%, %d off by more than 50%%. Uncalibrated measurements within "
                     "25%%: %d of %d. Error = (model - published) / published.",
                     s.modeled, s.within_25_percent, s.off_by_more_than_50_percent,
                     s.uncalibrated_measurements_within_25_percent, s.uncalibrated_measurements);
  probe("validation:summary");
}

void ValidationPanel::row(const validate::Row& r) {
  ImGui::TableNextRow();
  for (const auto& col : validation_columns()) {
    ImGui::TableNextColumn();
    const std::string text = cell_text(r, col.column);
    switch (col.column) {
      case ValidationColumn::error:
        ImGui::TextColored(error_colour(r), "%s", text.c_str());
        break;
      case ValidationColumn::source:
        ImGui::TextUnformatted(text.c_str());
        if (const hw::SourceKey* k = source_key(r.source); k && ImGui::IsItemHovered())
          ImGui::SetTooltip("%s: %s, %s\nused for: %s", k->key.c_str(), k->repository.c_str(), k->document.c_str(),
                            k->used_for.c_str());
        break;
      case ValidationColumn::figure:
      case ValidationColumn::note:
        ImGui::TextWrapped("%s", text.c_str());
        break;
      default:
        ImGui::TextUnformatted(text.c_str());
    }
  }
}

void ValidationPanel::table() {
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  const auto& cols = validation_columns();
  if (!ImGui::BeginTable("validation", static_cast<int>(cols.size()), flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const auto& c : cols) {
    // Stretch weights; the short columns fit their header.
    float weight = 1.0f;
    ImGuiTableColumnFlags flags = c.column == ValidationColumn::id ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (c.column == ValidationColumn::figure || c.column == ValidationColumn::note) weight = 3.0f;
    if (c.column == ValidationColumn::source) weight = 1.4f;
    if (c.column == ValidationColumn::id || c.column == ValidationColumn::error || c.column == ValidationColumn::calibration) {
      flags |= ImGuiTableColumnFlags_WidthFixed;
      weight = ImGui::CalcTextSize(c.header).x + ImGui::GetFontSize() * 1.5f;
    }
    ImGui::TableSetupColumn(c.header, flags, weight);
  }
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty && specs->SpecsCount > 0) {
    sort_ = cols[static_cast<std::size_t>(specs->Specs[0].ColumnIndex)].column;
    ascending_ = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
    specs->SpecsDirty = false;
    dirty_ = true;
  }
  const auto& rows = progress_.table().rows;
  if (dirty_) order_ = validation_order(rows, filter_, sort_, ascending_), dirty_ = false;
  for (std::size_t i : order_) row(rows[i]);
  ImGui::EndTable();
  probe("validation:table");
}

void ValidationPanel::pricer_choice() {
  // One button per pricer (price::pricer_names(), the default first). The default's run is
  // validate::Options::pricer "": each row as its scenario says, what `trnsim validate` runs.
  ImGui::TextUnformatted("pricer");
  const auto& names = price::pricer_names();
  for (const std::string& name : names) {
    const std::string option = name == names.front() ? "" : name;
    ImGui::SameLine();
    if (ImGui::RadioButton(name.c_str(), progress_.pricer() == option) && progress_.pricer() != option)
      progress_.start(option), dirty_ = true;
    probe(("validation:pricer:" + name).c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", option.empty() ? "The default: each operator at max(compute, HBM) of the chip's roofline at "
                                              "the calibrated efficiencies, plus its kernel overhead -- `trnsim validate`."
                                            : name == "engine"
                                                  ? "Every GEMM and attention timed on the engine-level NeuronCore model "
                                                    "(core/engine) -- `trnsim validate --pricer engine`. A comparison: the "
                                                    "calibrated defaults are the roofline's fit."
                                                  : ("`trnsim validate --pricer " + name + "`").c_str());
  }
}

void ValidationPanel::draw(App&) {
  if (!progress_.started()) progress_.start("");
  if (progress_.advance(0.03)) dirty_ = true;  // ~30 ms of rows a frame
  ImGui::TextDisabled("The model against published Trainium2/Trainium3 figures (PERF.md, FACTS.md): the rows of "
                      "core/data/validation/*.json, as `trnsim validate` prints them.");
  pricer_choice();  // before any error, so a run that failed can be left for the other pricer
  const ValidationTable& t = progress_.table();
  if (!t.error.empty()) {
    error_text(t.error);
    return;
  }
  if (!progress_.done()) {
    ImGui::SameLine();
    const float f = progress_.total() ? float(progress_.evaluated()) / float(progress_.total()) : 0.0f;
    const std::string label = "evaluating row " + std::to_string(progress_.evaluated() + 1) + " of " +
                              std::to_string(progress_.total());
    ImGui::ProgressBar(f, ImVec2(320, 0), label.c_str());
    probe("validation:progress");
  }
  summary_line();
  ImGui::SetNextItemWidth(260);
  dirty_ |= ImGui::InputTextWithHint("##filter", "filter: id, figure, source, note", &filter_.text);
  probe("validation:filter");
  ImGui::SameLine();
  dirty_ |= ImGui::Checkbox("calibration rows", &filter_.calibration_only);
  probe("validation:calibration");
  ImGui::SameLine();
  dirty_ |= ImGui::Checkbox("modeled only", &filter_.modeled_only);
  ImGui::SameLine();
  if (dirty_) order_ = validation_order(t.rows, filter_, sort_, ascending_), dirty_ = false;
  ImGui::TextDisabled("%zu of %zu rows", order_.size(), progress_.total());
  probe("validation:count");
  table();
}

}  // namespace

std::unique_ptr<Panel> make_validation_panel() { return std::make_unique<ValidationPanel>(); }
TRNSIM_PANEL(make_validation_panel);

}  // namespace trnsim::ui
