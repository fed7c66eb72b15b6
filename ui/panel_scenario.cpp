// The Scenario panel: one control per field of the core's field table
// (core/scenario/schema.h), generated from it -- sections in the table's order, fields
// shown by their shown_when condition, ranges, log scale, choices, units and display
// scale, labels, help and the calibration note all read from the table (ui/view/
// scenario_form.h), so a field added to the table appears here by itself. Every control
// edits the working copy through trnsim::set_field (App::edit_field); App evaluates it
// with the core. A rejected edit stays in its control with the core's error under it (and
// a summary with "revert" at the top), so invalid combinations are explained where they
// are made. Special controls read their metadata from the table too: the system picker
// (UltraServer count and data alternatives through the core's system-name grammar), the
// model picker (bundled configs or a pasted config.json, whose JSON stays editable), and
// precision choices marked where the chip has no native support.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/format.h"
#include "hw/system.h"
#include "link/link.h"
#include "model/llm.h"
#include "ui/app.h"
#include "ui/view/scenario_form.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

// A linear range this many times wider than the default is dragged (speed follows the
// value) rather than slid: a slider over 0 .. 1 s cannot hit 20 us.
constexpr double kSliderSpan = 100;

class ScenarioPanel : public Panel {
 public:
  const char* name() const override { return "Scenario"; }
  void draw(App& app) override;

 private:
  struct Ctx {
    App& app;
    bool changed = false;
    bool active = false;
  };
  void set(Ctx& c, const Field& f, const json& v) {
    c.app.edit_field(f.path, v);
    c.changed = true;
  }
  void after(Ctx& c, const Field& f);
  void control(Ctx& c, const Field& f);
  void integer(Ctx& c, const Field& f, const json& v);
  void number(Ctx& c, const Field& f, const json& v, const char* label);
  void optional_number(Ctx& c, const Field& f, const json& v);
  void choice(Ctx& c, const Field& f, const json& v);
  void text(Ctx& c, const Field& f, const json& v);
  void integer_list(Ctx& c, const Field& f, const json& v);
  void raw_json(Ctx& c, const Field& f, const json& v);
  void system(Ctx& c, const Field& f, const json& v);
  void system_scale(Ctx& c, const Field& f, const std::string& text, const SystemChoice& info);
  void model(Ctx& c, const Field& f, const json& v);
  void paste_config(Ctx& c, const Field& f, const json& v);
  void section_footer(App& app, const FormSection& s);
  void import_box(App& app);
  bool json_tree(Ctx& c, const std::string& key, json& value, const std::string& path);

  std::string pasted_config_, pasted_scenario_, paste_error_, import_error_;
  struct Typing {
    std::string text;
    bool active = false;  // being typed into: keep the person's text
  };
  std::map<std::string, Typing> typing_;  // text controls of list and JSON fields
};

std::string field_label(const Field& f) { return f.label + "##" + f.path; }

bool slid(const Field& f) {
  if (f.log_scale) return true;
  const FieldControl fc = field_control(f);
  const double span = (fc.hi - fc.lo) / fc.scale;
  const double scale = f.default_value.is_number() ? std::max(std::fabs(f.default_value.get<double>()), 1e-300) : span;
  return span <= kSliderSpan * scale;
}

void ScenarioPanel::after(Ctx& c, const Field& f) {
  c.active |= ImGui::IsItemActive();
  probe(f.path.c_str());
  std::string help = f.help;
  if (!f.calibrated.empty()) help += "\nDefault " + f.calibrated + ".";
  if (!help.empty()) help_marker(help.c_str());
  if (!f.calibrated.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("cal");
  }
  if (const std::string* e = c.app.error_for(f.path)) error_text(*e);
  // The core's warnings about this field ("workload.precision.weights: mxfp4 is not
  // supported by Trainium2; modeled as bf16").
  if (const auto& r = c.app.report().primary.result)
    for (const auto& w : r->warnings)
      if (w.rfind(f.path + ":", 0) == 0) dim_text("%s", w.substr(f.path.size() + 2).c_str());
}

void ScenarioPanel::integer(Ctx& c, const Field& f, const json& v) {
  const FieldControl fc = field_control(f);
  long long x = v.is_number() ? v.get<long long>() : static_cast<long long>(fc.lo);
  const long long lo = static_cast<long long>(fc.lo), hi = static_cast<long long>(fc.hi);
  const std::string fmt_text = "%lld" + fc.format.substr(2);  // "%d tokens" -> "%lld tokens"
  bool changed;
  if (slid(f)) {
    ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp | (fc.log ? ImGuiSliderFlags_Logarithmic : 0);
    changed = ImGui::SliderScalar(field_label(f).c_str(), ImGuiDataType_S64, &x, &lo, &hi, fmt_text.c_str(), flags);
  } else {
    const float speed = std::max(1.0f, static_cast<float>(std::fabs(static_cast<double>(x)) * 0.01));
    changed = ImGui::DragScalar(field_label(f).c_str(), ImGuiDataType_S64, &x, speed, &lo, &hi, fmt_text.c_str(),
                                ImGuiSliderFlags_AlwaysClamp);
  }
  if (changed) set(c, f, x);
  after(c, f);
}

void ScenarioPanel::number(Ctx& c, const Field& f, const json& v, const char* label) {
  const FieldControl fc = field_control(f);
  double x = v.is_number() ? v.get<double>() * fc.scale : fc.lo;
  bool changed;
  if (slid(f)) {
    changed = slider_double(label, &x, fc.lo, fc.hi, fc.format.c_str(), fc.log);
  } else {
    const float speed = static_cast<float>(std::max(std::fabs(x), (fc.hi - fc.lo) * 1e-6) * 0.01);
    changed = ImGui::DragScalar(label, ImGuiDataType_Double, &x, speed, &fc.lo, &fc.hi, fc.format.c_str(),
                                ImGuiSliderFlags_AlwaysClamp);
  }
  if (changed) set(c, f, x / fc.scale);
}

// Checked: the person's value; unchecked (null): the assumption the core used, with its source.
void ScenarioPanel::optional_number(Ctx& c, const Field& f, const json& v) {
  const auto& result = c.app.report().primary.result;
  const workload::Assumption* builtin = result ? builtin_assumption(f, *result) : nullptr;
  bool on = v.is_number();
  if (ImGui::Checkbox(("##set" + f.path).c_str(), &on)) {
    const FieldControl fc = field_control(f);
    const double lo = fc.lo / fc.scale, hi = fc.hi / fc.scale;
    set(c, f, on ? json(std::clamp(builtin ? builtin->value : lo, lo, hi)) : json(nullptr));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Checked: your value. Unchecked (null): the built-in assumption.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x);
  if (on) {
    number(c, f, v, field_label(f).c_str());
  } else {
    std::string shown = builtin ? "built-in: " + fmt::value(field_control(f).unit, builtin->value) : std::string("built-in");
    ImGui::BeginDisabled();
    ImGui::InputText(field_label(f).c_str(), &shown, ImGuiInputTextFlags_ReadOnly);
    ImGui::EndDisabled();
    if (builtin && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", builtin->source.c_str());
  }
  after(c, f);
}

void ScenarioPanel::choice(Ctx& c, const Field& f, const json& v) {
  const std::vector<std::string> options = f.choices ? f.choices() : std::vector<std::string>();
  const std::string cur = v.is_string() ? v.get<std::string>() : "";
  // Precision choices: marked where the primary system's chip has no peak for the type.
  const bool dtypes = options == workload::precision_names();
  const hw::Chip& chip = c.app.report().primary.system.chip;
  auto note = [&](const std::string& o) {
    return dtypes && chip.peak(o) <= 0 ? "  (no native " + o + " on " + chip.display_name + ")" : std::string();
  };
  if (options.size() <= 3) {
    ImGui::BeginGroup();
    for (std::size_t i = 0; i < options.size(); ++i) {
      if (i) ImGui::SameLine();
      if (ImGui::RadioButton((options[i] + "##" + f.path).c_str(), options[i] == cur)) set(c, f, options[i]);
      probe((f.path + ":" + options[i]).c_str());
    }
    ImGui::SameLine();
    ImGui::TextUnformatted(f.label.c_str());
    ImGui::EndGroup();
  } else if (ImGui::BeginCombo(field_label(f).c_str(), (cur + note(cur)).c_str())) {
    for (const auto& o : options) {
      if (ImGui::Selectable((o + note(o)).c_str(), o == cur)) set(c, f, o);
      probe((f.path + ":" + o).c_str());
    }
    ImGui::EndCombo();
  }
  after(c, f);
}

void ScenarioPanel::text(Ctx& c, const Field& f, const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : "";
  if (ImGui::InputText(field_label(f).c_str(), &s)) set(c, f, s);
  after(c, f);
}

// "1, 2, 4": whole numbers separated by commas; the table checks them.
void ScenarioPanel::integer_list(Ctx& c, const Field& f, const json& v) {
  Typing& t = typing_[f.path];
  if (!t.active) {
    t.text.clear();
    if (v.is_array())
      for (const auto& x : v) t.text += (t.text.empty() ? "" : ", ") + x.dump();
  }
  if (ImGui::InputText(field_label(f).c_str(), &t.text)) {
    json arr = json::array();
    std::size_t pos = 0;
    while (pos < t.text.size()) {
      const std::size_t comma = t.text.find(',', pos);
      std::string item = t.text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty()) {
        try {
          arr.push_back(parse_json_text(item, f.path));
        } catch (const InputError&) {
          arr.push_back(item);  // the table names the bad entry
        }
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    set(c, f, arr);
  }
  t.active = ImGui::IsItemActive();
  after(c, f);
}

// A field of a type this panel has no control for (a future one): its JSON, typed.
void ScenarioPanel::raw_json(Ctx& c, const Field& f, const json& v) {
  Typing& t = typing_[f.path];
  if (!t.active) t.text = v.dump();
  if (ImGui::InputText(field_label(f).c_str(), &t.text)) {
    try {
      set(c, f, parse_json_text(t.text, f.path));
    } catch (const InputError&) {
      set(c, f, t.text);  // not JSON: the table says what it expects
    }
  }
  t.active = ImGui::IsItemActive();
  after(c, f);
}

void ScenarioPanel::system(Ctx& c, const Field& f, const json& v) {
  const std::string text = v.is_string() ? v.get<std::string>() : "";
  const SystemChoice* info = nullptr;
  try {
    if (!text.empty()) info = find_system_choice(hw::parse_system_name(text).base);
  } catch (const InputError&) {
  }
  const std::string preview = text.empty() ? "(none)" : info ? info->display + "  [" + text + "]" : text;
  if (ImGui::BeginCombo(field_label(f).c_str(), preview.c_str())) {
    if (f.allow_empty && ImGui::Selectable("(none): no comparison", text.empty())) set(c, f, "");
    int group = -1;
    for (const auto& s : system_choices()) {
      if (s.group != group) ImGui::TextDisabled("%s", group_title(s.group)), group = s.group;
      const std::string item = s.display + "  (" + fmt::count(s.chips) + " chips, " + s.fabric + ")";
      if (ImGui::Selectable(item.c_str(), info && info->name == s.name)) set(c, f, s.name);
      probe((f.path + ":" + s.name).c_str());
    }
    ImGui::EndCombo();
  }
  after(c, f);
  if (info && info->group != SystemChoice::chip) system_scale(c, f, text, *info);
}

// Scale-out (the ":N" of the name) and the data alternatives (its "+name"s).
void ScenarioPanel::system_scale(Ctx& c, const Field& f, const std::string& text, const SystemChoice& info) {
  hw::SystemName sn;
  try {
    sn = hw::parse_system_name(text);
  } catch (const InputError&) {
    return;
  }
  ImGui::Indent();
  int n = sn.ultraservers > 0 ? sn.ultraservers : info.domains;
  const std::string format =
      "%d x " + std::to_string(info.chips_per_domain) + " = " + fmt::count(static_cast<double>(n) * info.chips_per_domain) + " chips";
  if (slider_int_log(("UltraServers##" + f.path).c_str(), &n, 1, info.max_ultraservers, format.c_str()))
    set(c, f, with_ultraservers(text, n));
  c.active |= ImGui::IsItemActive();
  probe((f.path + ".ultraservers").c_str());
  help_marker("Scale-up domains (UltraServers) joined by EFA: the ':N' of the system name. "
              "Collectives that cross them use the EFA bandwidth of the system data.");
  if (!info.alternatives.empty()) {
    const std::string head = "data alternatives (" + std::to_string(sn.alternatives.size()) + " of " +
                             std::to_string(info.alternatives.size()) + " chosen)###alternatives" + f.path;
    const bool open = ImGui::TreeNode(head.c_str());
    help_marker("Where published sources disagree, the data files keep both values; a checked alternative is "
                "used everywhere it exists (the '+name' of the system name; `trnsim describe` lists them).");
    if (open) {
      for (const auto& alt : info.alternatives) {
        bool on = std::find(sn.alternatives.begin(), sn.alternatives.end(), alt) != sn.alternatives.end();
        if (ImGui::Checkbox((alt + "##" + f.path).c_str(), &on)) set(c, f, with_alternative(text, alt, on));
        probe((f.path + "+" + alt).c_str());
      }
      ImGui::TreePop();
    }
  }
  ImGui::Unindent();
}

void ScenarioPanel::model(Ctx& c, const Field& f, const json& v) {
  const std::string cur = v.is_string() ? v.get<std::string>() : "";
  const std::string preview = v.is_object() ? "pasted config.json (inline)" : cur;
  if (ImGui::BeginCombo(field_label(f).c_str(), preview.c_str())) {
    for (const auto& n : workload::model_choices(c.app.scenario().workload.kind))
      if (ImGui::Selectable(n.c_str(), n == cur)) set(c, f, n);
    if (v.is_object()) ImGui::Selectable("pasted config.json (inline)", true);
    ImGui::EndCombo();
  }
  after(c, f);
  if (const auto& r = c.app.report().primary.result) {
    const char* line = "%s: %d layers, hidden %d, %d heads / %d KV%s; %s params, %s active";
    if (const workload::LanguageModelResult* lm = r->language_model()) {
      const auto& mc = lm->model;
      const std::string moe =
          mc.is_moe() ? ", " + std::to_string(mc.experts) + " experts top-" + std::to_string(mc.experts_per_token) : "";
      ImGui::TextDisabled(line, mc.model_type.c_str(), mc.layers, mc.hidden, mc.heads, mc.kv_heads, moe.c_str(),
                          fmt::params(lm->params.total).c_str(), fmt::params(lm->params.active).c_str());
    } else {  // video: every component a clip runs; the transformer runs every step
      const workload::VideoResult& x = r->video();
      ImGui::TextDisabled(line, x.model_type.c_str(), x.blocks, x.hidden, x.heads, x.heads, "",
                          fmt::params(x.params.total()).c_str(), fmt::params(x.params.transformer).c_str());
    }
  }
  paste_config(c, f, v);
  if (v.is_object() && ImGui::TreeNode("the inline config.json")) {
    json edited = v;
    if (json_tree(c, "config", edited, f.path)) set(c, f, edited);
    ImGui::TreePop();
  }
}

void ScenarioPanel::paste_config(Ctx& c, const Field& f, const json& v) {
  const bool open = ImGui::TreeNode("Paste a config.json");
  probe("paste-config-open");
  if (!open) return;
  ImGui::TextDisabled("A Hugging Face config.json (decoder-only: llama, mistral, mixtral, qwen2/3, qwen MoE, "
                      "gpt_oss, deepseek_v2/v3), or for kind video an object of diffusers configs (transformer, vae, "
                      "text_encoder: docs/video.md). Unknown keys become warnings.");
  ImGui::InputTextMultiline("##config", &pasted_config_, ImVec2(-1, ImGui::GetTextLineHeight() * 7));
  probe("paste-config");
  if (ImGui::Button("Use this model")) {
    paste_error_.clear();
    try {
      json cfg = parse_json_text(pasted_config_, "pasted config.json");
      if (!cfg.is_object()) throw InputError("pasted config.json", "expected a JSON object");
      set(c, f, cfg);
    } catch (const InputError& e) {
      paste_error_ = e.what();
    }
  }
  probe("use-config");
  ImGui::SameLine();
  if (ImGui::Button("Fill with the current model")) {
    try {
      pasted_config_ = v.is_object() ? v.dump(2) : workload::bundled_model_config(v.get<std::string>(), f.path).dump(2);
    } catch (const InputError& e) {
      paste_error_ = e.what();
    }
  }
  if (!paste_error_.empty()) error_text(paste_error_);
  ImGui::TreePop();
}

void ScenarioPanel::control(Ctx& c, const Field& f) {
  const json v = c.app.field_value(f.path);
  ImGui::PushID(f.path.c_str());
  switch (f.type) {
    case FieldType::integer: integer(c, f, v); break;
    case FieldType::number:
      number(c, f, v, field_label(f).c_str());
      after(c, f);
      break;
    case FieldType::optional_number: optional_number(c, f, v); break;
    case FieldType::boolean: {
      bool b = v.is_boolean() && v.get<bool>();
      if (ImGui::Checkbox(field_label(f).c_str(), &b)) set(c, f, b);
      after(c, f);
      break;
    }
    case FieldType::string: text(c, f, v); break;
    case FieldType::choice: choice(c, f, v); break;
    case FieldType::system: system(c, f, v); break;
    case FieldType::model: model(c, f, v); break;
    case FieldType::integer_list: integer_list(c, f, v); break;
    default: raw_json(c, f, v); break;
  }
  ImGui::PopID();
}

void ScenarioPanel::section_footer(App& app, const FormSection& s) {
  const bool placement = std::any_of(s.fields.begin(), s.fields.end(),
                                     [](const Field* f) { return f->path.rfind("workload.parallelism.", 0) == 0; });
  if (!placement || !app.report().primary.result) return;
  const auto& r = *app.report().primary.result;
  const std::string overlay = fmt::count(r.chips_used) + " of " + fmt::count(r.system_chips) + " chips used";
  ImGui::ProgressBar(static_cast<float>(r.chips_used) / std::max(1, r.system_chips), ImVec2(-1, 0), overlay.c_str());
}

bool ScenarioPanel::json_tree(Ctx& c, const std::string& key, json& value, const std::string& path) {
  bool changed = false;
  ImGui::PushID(path.c_str());
  const char* label = key.c_str();
  if (value.is_object()) {
    if (ImGui::TreeNode(label)) {
      for (auto it = value.begin(); it != value.end(); ++it)
        changed |= json_tree(c, it.key(), it.value(), field_path(path, it.key()));
      ImGui::TreePop();
    }
  } else if (value.is_array()) {
    if (ImGui::TreeNode(label)) {
      for (std::size_t i = 0; i < value.size(); ++i)
        changed |= json_tree(c, "[" + std::to_string(i) + "]", value[i], index_path(path, i));
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
    if (ImGui::InputText(label, &s)) value = s, changed = true;
  } else {
    ImGui::TextDisabled("%s: null", label);
  }
  c.active |= ImGui::IsItemActive();
  ImGui::PopID();
  return changed;
}

void ScenarioPanel::import_box(App& app) {
  ImGui::TextDisabled("Paste a scenario JSON (as `trnsim run` reads) or a playground link.");
  ImGui::InputTextMultiline("##scenario", &pasted_scenario_, ImVec2(-1, ImGui::GetTextLineHeight() * 6));
  probe("paste-scenario");
  if (ImGui::Button("Open")) {
    import_error_.clear();
    try {
      const std::string& t = pasted_scenario_;
      const auto first = t.find_first_not_of(" \t\r\n");
      json j = first != std::string::npos && t[first] == '{'
                   ? parse_json_text(t, "pasted scenario")
                   : decode_fragment(t.substr(first == std::string::npos ? 0 : first));
      const std::string before = app.message();
      if (!app.set_scenario_json(j, "pasted scenario")) {
        import_error_ = app.message();
        app.set_message(before);
      }
    } catch (const InputError& e) {
      import_error_ = e.what();
    }
  }
  probe("open-pasted");
  ImGui::SameLine();
  if (ImGui::Button("Fill with the current scenario")) pasted_scenario_ = app.scenario_json_text();
  if (!import_error_.empty()) error_text(import_error_);
}

void ScenarioPanel::draw(App& app) {
  Ctx c{app};
  ImGui::PushItemWidth(-std::max(150.0f, ImGui::GetWindowWidth() * 0.36f));
  if (!app.edit_error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.30f, 0.10f, 0.10f, 0.9f));
    ImGui::BeginChild("##error", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 4.2f), true);
    error_text("Not applied: " + app.edit_error());
    if (ImGui::SmallButton("revert to the last valid scenario")) app.revert_edit();
    probe("revert");
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }
  for (const FormSection& s : form_sections()) {
    std::vector<const Field*> shown;
    for (const Field* f : s.fields)
      if (field_shown(*f, app.editing())) shown.push_back(f);
    if (shown.empty()) continue;
    if (!s.name.empty()) {
      const bool open = ImGui::CollapsingHeader(s.name.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
      probe(("section:" + s.name).c_str());
      if (!open) continue;
    }
    for (const Field* f : shown) control(c, *f);
    section_footer(app, s);
  }

  const bool import_open = ImGui::CollapsingHeader("Open or paste a scenario");
  probe("paste-scenario-open");
  if (import_open) import_box(app);
  if (ImGui::CollapsingHeader("The scenario as JSON")) {
    ImGui::TextDisabled("As `trnsim link decode` prints it; every value here is in the link.");
    const std::string& t = app.scenario_json_text();
    ImGui::TextUnformatted(t.c_str(), t.c_str() + t.size());
  }
  ImGui::PopItemWidth();
  app.commit_edit(c.changed, c.active);
}

}  // namespace

std::unique_ptr<Panel> make_scenario_panel() { return std::make_unique<ScenarioPanel>(); }

}  // namespace trnsim::ui
