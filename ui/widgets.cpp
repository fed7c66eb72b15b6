#include "ui/widgets.h"

#include <cstdarg>
#include <map>

namespace trnsim::ui {

namespace {
std::map<std::string, std::pair<ImVec2, ImVec2>> g_current, g_last;
}

void probe(const char* id) { g_current[id] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}; }

bool probe_rect(const std::string& id, ImVec2& min, ImVec2& max) {
  auto it = g_last.find(id);
  if (it == g_last.end()) return false;
  min = it->second.first;
  max = it->second.second;
  return true;
}

void probe_new_frame() {
  g_last.swap(g_current);
  g_current.clear();
}

std::string probe_ids() {
  std::string s;
  for (const auto& kv : g_last) s += (s.empty() ? "" : ",") + kv.first;
  return s;
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void error_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.47f, 0.42f, 1.0f));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void dim_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrappedV(fmt, args);
  ImGui::PopStyleColor();
  va_end(args);
}

void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextUnformatted(title);
  ImGui::Separator();
}

bool slider_int_log(const char* label, int* v, int lo, int hi, const char* format) {
  return ImGui::SliderInt(label, v, lo, hi, format, ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
}

bool slider_double(const char* label, double* v, double lo, double hi, const char* format, bool log) {
  ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0);
  return ImGui::SliderScalar(label, ImGuiDataType_Double, v, &lo, &hi, format, flags);
}

void system_picker(const std::string& primary, const std::string* comparison, int* which) {
  if (!comparison) *which = 0;
  ImGui::RadioButton(primary.c_str(), which, 0);
  if (comparison) {
    ImGui::SameLine();
    ImGui::RadioButton(comparison->c_str(), which, 1);
  }
}

}  // namespace trnsim::ui
