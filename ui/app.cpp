#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <climits>

#include "link/link.h"
#include "scenario/examples.h"
#include "ui/view/panel_tabs.h"
#include "ui/widgets.h"

namespace trnsim::ui {

const std::vector<Example>& examples() {
  static const std::vector<Example> list = [] {
    std::vector<Example> out;
    for (const auto& stem : bundled_example_names()) {
      Example e;
      e.key = bundled_example_key(stem);
      e.stem = stem;
      try {
        e.scenario = parse_json_text(bundled_example_text(stem), e.key);
      } catch (const InputError&) {
        continue;
      }
      e.title = e.scenario.is_object() && e.scenario.contains("name") && e.scenario["name"].is_string()
                    ? e.scenario["name"].get<std::string>()
                    : e.stem;
      out.push_back(std::move(e));
    }
    // The default first, the rest in key order.
    std::stable_partition(out.begin(), out.end(), [](const Example& e) { return e.stem == "default"; });
    return out;
  }();
  return list;
}

namespace {

std::vector<PanelFactory>& panel_registry() {
  static std::vector<PanelFactory> registry;
  return registry;
}

}  // namespace

bool register_panel(PanelFactory factory) {
  panel_registry().push_back(factory);
  return true;
}

App::App() {
  scenario_panel_ = make_scenario_panel();
  for (const auto& factory : panel_registry()) panels_.push_back(factory());
  // The tab order is ui/view/panel_tabs.cpp's; a panel without a row there goes last and says so.
  std::string unplaced;
  for (const auto& p : panels_)
    if (panel_tab_order(p->name()) < 0) unplaced += std::string(unplaced.empty() ? "" : ", ") + p->name();
  std::stable_sort(panels_.begin(), panels_.end(), [](const auto& a, const auto& b) {
    const int x = panel_tab_order(a->name()), y = panel_tab_order(b->name());
    return (x < 0 ? INT_MAX : x) < (y < 0 ? INT_MAX : y);
  });
  std::string error;
  if (!apply(default_scenario(), error)) set_message("default scenario: " + error);
  else if (!unplaced.empty()) set_message("no tab order for " + unplaced + " (ui/view/panel_tabs.cpp)");
}

App::~App() = default;

double App::now_ms() const {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

bool App::apply(const Scenario& s, std::string& error) {
  try {
    double t0 = now_ms();
    Report r = evaluate(s);
    double t1 = now_ms();
    scenario_ = s;
    report_ = std::move(r);
    editing_ = scenario_;
    refused_.clear();
    edit_error_.clear();
    edit_error_field_.clear();
    ++generation_;
    std::string link = fragment();  // what an edit writes into the URL
    (void)link;
    last_evaluate_ms_ = t1 - t0;
    last_apply_ms_ = now_ms() - t0;
    if (apply_ms_history_.size() >= 64) apply_ms_history_.erase(apply_ms_history_.begin());
    apply_ms_history_.push_back(last_apply_ms_);
    return true;
  } catch (const InputError& e) {
    error = e.what();
    edit_error_field_ = e.field();
    return false;
  }
}

const std::string& App::scenario_json_text() const {
  if (texts_generation_ != generation_) {
    scenario_text_ = scenario_to_string(scenario_);
    report_text_ = report_to_json_string(report_);
    texts_generation_ = generation_;
  }
  return scenario_text_;
}

const std::string& App::report_json_text() const {
  scenario_json_text();
  return report_text_;
}

double App::median_apply_ms() const {
  if (apply_ms_history_.empty()) return 0;
  std::vector<double> v = apply_ms_history_;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double App::max_apply_ms() const {
  double m = 0;
  for (double x : apply_ms_history_) m = std::max(m, x);
  return m;
}

double App::time_evaluate(int repeats) {
  repeats = std::max(1, repeats);
  double t0 = now_ms();
  for (int i = 0; i < repeats; ++i) {
    Report r = evaluate(scenario_);
    (void)r;
  }
  return (now_ms() - t0) / repeats;
}

void App::set_message(const std::string& m) {
  message_ = m;
  if (on_message) on_message(m);
}

std::string App::fragment() const { return encode_fragment(scenario_to_json(scenario_)); }

void App::load_fragment(const std::string& fragment_in) {
  std::string fragment = fragment_in;
  if (!fragment.empty() && fragment[0] == '#') fragment = fragment.substr(1);
  std::string error;
  if (fragment.empty()) {
    if (apply(default_scenario(), error)) set_message("");
    return;
  }
  // "#example=<stem>": the gallery page's links; replaced by the canonical link.
  if (fragment.compare(0, 8, "example=") == 0) {
    std::string stem = fragment.substr(8);
    for (const auto& e : examples()) {
      if (e.stem != stem) continue;
      try {
        if (apply(scenario_from_json(e.scenario), error)) {
          set_message("");
          if (on_scenario_changed) on_scenario_changed(this->fragment(), false);
          return;
        }
      } catch (const InputError& ex) {
        error = ex.what();
      }
    }
    if (error.empty()) error = "no bundled example named '" + stem.substr(0, 80) + "'";
  } else {
    try {
      Scenario s = scenario_from_json(decode_fragment(fragment));
      if (apply(s, error)) {
        set_message("");
        return;
      }
    } catch (const InputError& e) {
      error = e.what();
    }
  }
  std::string ignored;
  apply(default_scenario(), ignored);
  set_message("This link could not be opened (" + error + "). Showing the default scenario.");
}

bool App::set_scenario(const Scenario& s, const std::string& what) {
  std::string error;
  if (apply(s, error)) {
    set_message("");
    interaction_open_ = false;
    if (on_scenario_changed) on_scenario_changed(fragment(), true);
    return true;
  }
  set_message(what + ": " + error);
  return false;
}

bool App::set_scenario_json(const json& j, const std::string& what) {
  try {
    return set_scenario(scenario_from_json(j), what);
  } catch (const InputError& e) {
    set_message(what + ": " + e.what());
    return false;
  }
}

bool App::set_field(const std::string& path, const json& value) {
  Scenario s = scenario_;
  try {
    trnsim::set_field(s, path, value);
  } catch (const InputError& e) {
    set_message(path + ": " + e.what());
    return false;
  }
  return set_scenario(s, path);
}

json App::field_value(const std::string& path) const {
  auto it = refused_.find(path);
  return it != refused_.end() ? it->second : get_field(editing_, path);
}

void App::edit_field(const std::string& path, const json& value) {
  Scenario s = editing_;
  try {
    trnsim::set_field(s, path, value);
    editing_ = std::move(s);
    refused_.erase(path);
  } catch (const InputError& e) {
    refused_[path] = value;
    edit_error_ = e.what();
    edit_error_field_ = e.field().empty() ? path : e.field();
  }
}

void App::commit_edit(bool changed, bool active) {
  if (changed && refused_.empty()) {
    std::string error;
    if (apply(editing_, error)) {
      set_message("");
      // One history entry per interaction: the first change pushes, the rest of a
      // drag (or of typing into a field) replaces it.
      if (on_scenario_changed) on_scenario_changed(fragment(), !interaction_open_);
      interaction_open_ = active;
    } else {
      edit_error_ = error;
    }
  }
  if (!active) interaction_open_ = false;
}

void App::revert_edit() {
  editing_ = scenario_;
  refused_.clear();
  edit_error_.clear();
  edit_error_field_.clear();
}

const std::string* App::error_for(const std::string& path) const {
  if (edit_error_.empty()) return nullptr;
  const std::string& f = edit_error_field_;
  if (f == path) return &edit_error_;
  if (f.size() > path.size() && f.compare(0, path.size(), path) == 0 && (f[path.size()] == '.' || f[path.size()] == '['))
    return &edit_error_;
  return nullptr;
}

void App::show_panel(const std::string& name) { requested_panel_ = name; }

std::vector<std::string> App::panel_names() const {
  std::vector<std::string> names;
  for (const auto& p : panels_) names.push_back(p->name());
  return names;
}

// ---- drawing -------------------------------------------------------------------

void App::draw_toolbar(float height) {
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
  ImGui::Begin("##toolbar", nullptr, fixed);
  if (ImGui::Button("Copy link")) {
    std::string link = page_link ? page_link() : make_link(scenario_to_json(scenario_));
    bool ok = copy_text ? copy_text(link) : false;
    if (!ok) ImGui::SetClipboardText(link.c_str());
    copied_at_ms_ = now_ms();
  }
  probe("copy-link");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy the address of this exact view: the whole scenario is in the link.");
  ImGui::SameLine();
  if (ImGui::Button("Gallery")) ImGui::OpenPopup("gallery");
  probe("gallery");
  if (ImGui::BeginPopup("gallery")) {
    ImGui::TextDisabled("Bundled examples (examples/*.json): one click opens one");
    ImGui::Separator();
    for (const auto& e : examples()) {
      bool current = scenario_to_json(scenario_)["name"] == e.scenario.value("name", json());
      if (ImGui::Selectable(e.title.c_str(), current)) {
        set_scenario_json(e.scenario, e.key);
        ImGui::CloseCurrentPopup();
      }
      probe(("gallery:" + e.stem).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.key.c_str());
    }
    ImGui::EndPopup();
  }
  if (history_go) {
    ImGui::SameLine();
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) history_go(-1);
    probe("history-back");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back: the previous edit (the browser's Back button does the same)");
    ImGui::SameLine(0, 2);
    if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) history_go(+1);
    probe("history-forward");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Forward");
  }
  ImGui::SameLine();
  if (now_ms() - copied_at_ms_ < 2500) {
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.55f, 1), "Link copied to the clipboard.");
    ImGui::SameLine();
  }
  // Right-aligned: the last evaluation time, where the line has room for it.
  char timing[96];
  std::snprintf(timing, sizeof timing, "evaluated in %.2f ms", last_evaluate_ms_);
  const float w = ImGui::CalcTextSize(timing).x;
  const float timing_x = io.DisplaySize.x - w - 12;
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.45f, 1.0f));
    ImGui::TextUnformatted(message_.c_str());
    ImGui::PopStyleColor();
    probe("message");
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) set_message("");
  } else {
    // The scenario's name, cut to the room left of the timing (the whole name on hover).
    const std::string& name = scenario_.name;
    const float room = timing_x - 16 - ImGui::GetCursorScreenPos().x + ImGui::GetWindowPos().x;
    std::string shown = name;
    if (ImGui::CalcTextSize(name.c_str()).x > room) {
      const char* dots = "...";
      std::size_t n = name.size();
      while (n > 0 && ImGui::CalcTextSize((name.substr(0, n) + dots).c_str()).x > room) --n;
      while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 character
      shown = name.substr(0, n) + dots;
    }
    ImGui::TextDisabled("%s", shown.c_str());
    if (shown != name && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
  }
  // (A long message keeps the line: the timing then waits until it is dismissed.)
  const float end_x = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  if (end_x + 10 <= timing_x) {
    ImGui::SameLine(timing_x);
    ImGui::TextDisabled("%s", timing);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("evaluate(scenario) in the core: %.2f ms; with the new link for the address bar: %.2f ms",
                        last_evaluate_ms_, last_apply_ms_);
  }
  ImGui::End();
}

void App::draw() {
  probe_new_frame();
  ImGuiIO& io = ImGui::GetIO();
  const float toolbar = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
  const float left = std::clamp(io.DisplaySize.x * 0.30f, 330.0f, 450.0f);
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  draw_toolbar(toolbar);

  ImGui::SetNextWindowPos(ImVec2(0, toolbar));
  ImGui::SetNextWindowSize(ImVec2(left, io.DisplaySize.y - toolbar));
  ImGui::Begin("Scenario", nullptr, fixed);
  scenario_panel_->draw(*this);
  ImGui::End();

  ImGui::SetNextWindowPos(ImVec2(left, toolbar));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x - left, io.DisplaySize.y - toolbar));
  ImGui::Begin("##views", nullptr, fixed | ImGuiWindowFlags_NoTitleBar);
  if (ImGui::BeginTabBar("views")) {
    for (auto& p : panels_) {
      ImGuiTabItemFlags flags = requested_panel_ == p->name() ? ImGuiTabItemFlags_SetSelected : 0;
      bool open = ImGui::BeginTabItem(p->name(), nullptr, flags);
      probe((std::string("tab:") + p->name()).c_str());
      if (open) {
        current_panel_ = p->name();
        ImGui::BeginChild("panel", ImVec2(0, 0), false);
        p->draw(*this);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  requested_panel_.clear();
  ImGui::End();
}

std::string App::panel_state_json(const std::string& name) const {
  for (const auto& p : panels_)
    if (name == p->name()) return p->state_json();
  return "null";
}

bool App::animating() const {
  if (now_ms() - copied_at_ms_ < 3000) return true;
  for (const auto& p : panels_)  // only the tab on screen does its work
    if (p->busy() && current_panel_ == p->name()) return true;
  return false;
}

}  // namespace trnsim::ui
