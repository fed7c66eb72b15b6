#include "ui/app.h"

#include <imgui.h>

#include <cstdio>
#include <cstring>

#include "embedded.h"
#include "hw/hw.h"
#include "link/link.h"

namespace trnsim::ui {

App::App() {
  std::string error;
  if (!apply(default_scenario(), error)) set_message("default scenario: " + error);
}

bool App::apply(const Scenario& s, std::string& error) {
  try {
    Report r = evaluate(s);
    scenario_ = s;
    report_ = std::move(r);
    scenario_text_ = scenario_to_string(scenario_);
    report_text_ = report_to_json_string(report_);
    editing_ = scenario_to_json(scenario_);
    edit_error_.clear();
    return true;
  } catch (const InputError& e) {
    error = e.what();
    return false;
  }
}

void App::set_message(const std::string& m) {
  message_ = m;
  if (on_message) on_message(m);
}

std::string App::fragment() const { return encode_fragment(scenario_to_json(scenario_)); }

void App::load_fragment(const std::string& fragment) {
  std::string error;
  if (fragment.empty() || fragment == "#") {
    if (apply(default_scenario(), error)) set_message("");
    return;
  }
  try {
    Scenario s = scenario_from_json(decode_fragment(fragment));
    if (apply(s, error)) {
      set_message("");
      return;
    }
  } catch (const InputError& e) {
    error = e.what();
  }
  std::string ignored;
  apply(default_scenario(), ignored);
  set_message("This link could not be opened (" + error + "). Showing the default scenario.");
}

bool App::set_scenario_json(const json& j, const std::string& what) {
  std::string error;
  try {
    if (apply(scenario_from_json(j), error)) {
      set_message("");
      if (on_scenario_changed) on_scenario_changed(fragment(), true);
      return true;
    }
  } catch (const InputError& e) {
    error = e.what();
  }
  set_message(what + ": " + error);
  return false;
}

// ---- drawing -------------------------------------------------------------------

static void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

bool App::edit_value(const std::string& key, json& value, const std::string& path) {
  bool changed = false;
  ImGui::PushID(path.c_str());
  const char* label = key.c_str();
  if (value.is_object()) {
    if (ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_DefaultOpen)) {
      for (auto it = value.begin(); it != value.end(); ++it)
        changed |= edit_value(it.key(), it.value(), field_path(path, it.key()));
      ImGui::TreePop();
    }
  } else if (value.is_array()) {
    if (ImGui::TreeNode(label)) {
      for (std::size_t i = 0; i < value.size(); ++i)
        changed |= edit_value("[" + std::to_string(i) + "]", value[i], index_path(path, i));
      ImGui::TreePop();
    }
  } else if (value.is_boolean()) {
    bool b = value.get<bool>();
    if (ImGui::Checkbox(label, &b)) value = b, changed = true;
  } else if (value.is_number_integer() || value.is_number_unsigned()) {
    long long v = value.get<long long>();
    if (ImGui::InputScalar(label, ImGuiDataType_S64, &v, nullptr, nullptr, "%lld")) value = v, changed = true;
  } else if (value.is_number_float()) {
    double v = value.get<double>();
    if (ImGui::InputDouble(label, &v, 0.0, 0.0, "%.6g")) value = v, changed = true;
  } else if (value.is_string()) {
    std::string s = value.get<std::string>();
    std::vector<std::string> options;
    if (path == "system" || path == "compare_system") {
      options = hw::system_names();
      if (path == "compare_system") options.insert(options.begin(), "");
    }
    if (!options.empty()) {
      if (ImGui::BeginCombo(label, s.empty() ? "(none)" : s.c_str())) {
        for (const auto& o : options) {
          if (ImGui::Selectable(o.empty() ? "(none)" : o.c_str(), o == s)) value = o, changed = true;
        }
        ImGui::EndCombo();
      }
    } else {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s", s.c_str());
      if (ImGui::InputText(label, buf, sizeof buf)) value = std::string(buf), changed = true;
    }
  } else {
    ImGui::TextDisabled("%s: null", label);
  }
  if (ImGui::IsItemActive()) edit_active_ = true;
  ImGui::PopID();
  return changed;
}

void App::draw_scenario_panel() {
  ImGui::SetNextWindowPos(ImVec2(10, 40), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420, 620), ImGuiCond_FirstUseEver);
  ImGui::Begin("Scenario");
  if (ImGui::BeginCombo("example", "open an example...")) {
    for (const auto& key : embedded_keys("examples/")) {
      if (key.find('/', 9) != std::string::npos) continue;  // examples/models/... are configs
      if (ImGui::Selectable(key.c_str() + 9)) set_scenario_json(parse_json_text(*find_embedded(key), key), key);
    }
    ImGui::EndCombo();
  }
  help_marker("The scenario is the whole state: every value here is in the page's link.");
  ImGui::Separator();
  edit_active_ = false;
  bool changed = false;
  for (auto it = editing_.begin(); it != editing_.end(); ++it) {
    if (it.key() == "version") continue;
    changed |= edit_value(it.key(), it.value(), it.key());
  }
  if (changed) {
    std::string error;
    try {
      Scenario s = scenario_from_json(editing_);
      json keep = editing_;
      if (apply(s, error)) {
        editing_ = keep;  // keep the user's layout while typing
        set_message("");
        // One history entry per interaction: the first change pushes, the rest of a
        // drag (or of typing into a field) replaces it.
        if (on_scenario_changed) on_scenario_changed(fragment(), !interaction_open_);
        interaction_open_ = edit_active_;
      } else {
        edit_error_ = error;
      }
    } catch (const InputError& e) {
      edit_error_ = e.what();
    }
  }
  if (!edit_active_) interaction_open_ = false;
  if (!edit_error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("Not applied: %s", edit_error_.c_str());
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("revert")) {
      editing_ = scenario_to_json(scenario_);
      edit_error_.clear();
    }
  }
  ImGui::End();
}

void App::draw_report_panel() {
  ImGui::SetNextWindowPos(ImVec2(440, 40), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(760, 620), ImGuiCond_FirstUseEver);
  ImGui::Begin("Report");
  std::string text = report_to_text(report_);
  ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
  ImGui::End();
}

void App::draw() {
  if (!message_.empty()) {
    ImGui::SetNextWindowPos(ImVec2(10, 6), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin("##message", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextUnformatted(message_.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) set_message("");
    ImGui::End();
  }
  draw_scenario_panel();
  draw_report_panel();
}

}  // namespace trnsim::ui
