#include "ui/figures.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

const char* direction(Better b) {
  switch (b) {
    case Better::higher: return "higher is better";
    case Better::lower: return "lower is better";
    case Better::neither: return "neither direction is better";
  }
  return "";
}

// The ratio, coloured by the side that wins, and a bar on a log2 scale centred on 1x.
void ratio_cell(const MetricRow& r, const std::string& first_name, const std::string& second_name) {
  if (!r.ratio) {
    ImGui::TextDisabled("-");
    return;
  }
  const ImVec4 c = r.better == "A"   ? ImVec4(0.45f, 0.85f, 0.5f, 1)
                   : r.better == "B" ? ImVec4(1.0f, 0.5f, 0.45f, 1)
                                     : ImVec4(0.7f, 0.7f, 0.7f, 1);
  ImGui::TextColored(c, "%s", r.ratio_text.c_str());
  const std::string side = better_text(r, first_name, second_name);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s / %s = %s; %s%s", first_name.c_str(), second_name.c_str(), r.ratio_text.c_str(),
                      direction(r.metric->better), side.empty() ? "" : (": " + side).c_str());
  ImGui::SameLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = std::min(90.0f, ImGui::GetContentRegionAvail().x), h = ImGui::GetTextLineHeight();
  if (w <= 20) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mid = p.x + w / 2, len = static_cast<float>(std::clamp(std::log2(*r.ratio) / 4.0, -1.0, 1.0)) * (w / 2);
  dl->AddRectFilled(ImVec2(std::min(mid, mid + len), p.y + h * 0.25f), ImVec2(std::max(mid, mid + len), p.y + h * 0.75f),
                    ImGui::GetColorU32(ImVec4(c.x, c.y, c.z, 0.6f)));
  dl->AddLine(ImVec2(mid, p.y), ImVec2(mid, p.y + h), IM_COL32(140, 140, 150, 160));
  ImGui::Dummy(ImVec2(w, h));
}

}  // namespace

void metric_table(const char* id, const std::vector<MetricRow>& rows, const std::string& first_name,
                  const std::string& second_name, bool two, const char* probe_prefix, const char* ratio_header) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable(id, two ? 4 : 2, flags)) return;
  ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn(first_name.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.1f);
  if (two) {
    ImGui::TableSetupColumn(second_name.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.1f);
    ImGui::TableSetupColumn(ratio_header, ImGuiTableColumnFlags_WidthStretch, 0.9f);
  }
  ImGui::TableHeadersRow();
  for (const auto& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(r.metric->label.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n(%s; key %s)", r.metric->help.c_str(), direction(r.metric->better), r.metric->key.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(r.first_text.c_str());
    if (probe_prefix) probe((std::string(probe_prefix) + r.metric->key).c_str());
    if (!two) continue;
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(r.second_text.c_str());
    ImGui::TableSetColumnIndex(3);
    ratio_cell(r, first_name, second_name);
  }
  ImGui::EndTable();
}

}  // namespace trnsim::ui
