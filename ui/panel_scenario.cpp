// The Scenario panel: proper controls for every field of the Scenario -- systems,
// model (bundled or a pasted config.json), precisions, parallelism, sizes, assumptions.
// Controls write into App::editing() (a working copy of the scenario JSON); App
// validates and evaluates it with the core. A rejected edit stays visible in its
// control with the core's error under it (and a summary with "revert" at the top), so
// invalid combinations are explained where they are made.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <map>

#include "hw/system.h"
#include "link/link.h"
#include "ui/app.h"
#include "ui/format.h"
#include "ui/widgets.h"
#include "model/llm.h"

namespace trnsim::ui {

namespace {

struct SystemInfo {
  std::string name, display;
  int chips = 0, chips_per_domain = 0, domains = 1;
  std::string fabric, kind;  // kind: "chip", "system", "cluster"
  std::vector<std::string> alternatives;
};

const std::vector<SystemInfo>& system_infos() {
  static const std::vector<SystemInfo> infos = [] {
    std::vector<SystemInfo> out;
    auto chips = hw::chip_names();
    for (const auto& n : hw::system_names()) {
      SystemInfo i;
      i.name = n;
      try {
        hw::System s = hw::load_system(n);
        i.display = s.display_name;
        i.chips = s.chips;
        i.chips_per_domain = s.chips_per_domain;
        i.domains = s.domains;
        i.fabric = s.fabric;
        i.alternatives = hw::alternative_names(s);
      } catch (const InputError&) {
        i.display = n;
      }
      i.kind = std::find(chips.begin(), chips.end(), n) != chips.end() ? "chip"
               : n.find("ultracluster") != std::string::npos       ? "cluster"
                                                                     : "system";
      out.push_back(i);
    }
    // Systems first, then clusters, then single chips: the order a user looks for them.
    auto rank = [](const SystemInfo& i) { return i.kind == "system" ? 0 : i.kind == "cluster" ? 1 : 2; };
    std::stable_sort(out.begin(), out.end(), [&](const SystemInfo& a, const SystemInfo& b) { return rank(a) < rank(b); });
    return out;
  }();
  return infos;
}

const SystemInfo* find_info(const std::string& base) {
  for (const auto& i : system_infos())
    if (i.name == base) return &i;
  return nullptr;
}

// "base[:N][+alt+alt]" split the way hw::load_system reads it (built-in names only).
struct SystemName {
  std::string base;
  int ultraservers = 0;  // 0: as the data says
  std::vector<std::string> alternatives;
  bool parsed = true;
  std::string text() const {
    std::string s = base;
    if (ultraservers > 0) s += ":" + std::to_string(ultraservers);
    for (const auto& a : alternatives) s += "+" + a;
    return s;
  }
};

SystemName split_system(const std::string& text) {
  SystemName n;
  if (text.find('/') != std::string::npos) {
    n.base = text;
    n.parsed = false;
    return n;
  }
  std::string rest = text;
  auto plus = rest.find('+');
  if (plus != std::string::npos) {
    std::string alts = rest.substr(plus + 1);
    rest = rest.substr(0, plus);
    std::size_t pos = 0;
    while (pos <= alts.size()) {
      auto next = alts.find('+', pos);
      n.alternatives.push_back(alts.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
      if (next == std::string::npos) break;
      pos = next + 1;
    }
  }
  auto colon = rest.find(':');
  if (colon != std::string::npos) {
    try {
      n.ultraservers = std::stoi(rest.substr(colon + 1));
    } catch (...) {
      n.parsed = false;
    }
    rest = rest.substr(0, colon);
  }
  n.base = rest;
  if (!find_info(n.base)) n.parsed = false;
  return n;
}

json& node(json& root, const std::string& path) {
  json* n = &root;
  std::size_t pos = 0;
  for (;;) {
    auto dot = path.find('.', pos);
    n = &(*n)[path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos)];
    if (dot == std::string::npos) return *n;
    pos = dot + 1;
  }
}

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
  void after(Ctx& c, const std::string& path, const char* help = nullptr);
  void int_control(Ctx& c, const char* label, const std::string& path, int lo, int hi, bool log, const char* help);
  void real_control(Ctx& c, const char* label, const std::string& path, double lo, double hi, const char* fmt,
                    double display_scale, bool log, const char* help);
  void optional_real(Ctx& c, const char* label, const std::string& path, double lo, double hi, const char* fmt,
                     double fallback, const char* help);
  void choice_control(Ctx& c, const char* label, const std::string& path, const std::vector<std::string>& options,
                      const std::function<std::string(const std::string&)>& annotate, const char* help);
  void system_control(Ctx& c, const char* label, const std::string& path, bool allow_none);
  void model_controls(Ctx& c);
  void precision_controls(Ctx& c);
  void import_box(App& app);
  bool json_tree(Ctx& c, const std::string& key, json& value, const std::string& path);

  std::string pasted_config_, pasted_scenario_, paste_error_, import_error_;
};

void ScenarioPanel::after(Ctx& c, const std::string& path, const char* help) {
  c.active |= ImGui::IsItemActive();
  probe(path.c_str());
  if (help) help_marker(help);
  if (const std::string* e = c.app.error_for(path)) error_text(*e);
}

void ScenarioPanel::int_control(Ctx& c, const char* label, const std::string& path, int lo, int hi, bool log,
                                const char* help) {
  json& v = node(c.app.editing(), path);
  int x = v.is_number() ? v.get<int>() : lo;
  int top = std::max(hi, x);
  ImGui::PushID(path.c_str());
  bool changed = log ? slider_int_log(label, &x, lo, top) : ImGui::SliderInt(label, &x, lo, top, "%d", ImGuiSliderFlags_AlwaysClamp);
  if (changed) v = x, c.changed = true;
  after(c, path, help);
  ImGui::PopID();
}

void ScenarioPanel::real_control(Ctx& c, const char* label, const std::string& path, double lo, double hi, const char* fmt,
                                 double display_scale, bool log, const char* help) {
  json& v = node(c.app.editing(), path);
  double x = (v.is_number() ? v.get<double>() : lo) * display_scale;
  ImGui::PushID(path.c_str());
  if (slider_double(label, &x, lo, std::max(hi, x), fmt, log)) v = x / display_scale, c.changed = true;
  after(c, path, help);
  ImGui::PopID();
}

void ScenarioPanel::optional_real(Ctx& c, const char* label, const std::string& path, double lo, double hi, const char* fmt,
                                  double fallback, const char* help) {
  json& v = node(c.app.editing(), path);
  ImGui::PushID(path.c_str());
  bool set = v.is_number();
  if (ImGui::Checkbox("##set", &set)) {
    v = set ? json(fallback) : json(nullptr);
    c.changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Checked: your value. Unchecked (null): the built-in assumption.");
  ImGui::SameLine();
  if (set) {
    double x = v.get<double>();
    ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x);
    if (slider_double(label, &x, lo, std::max(hi, x), fmt, true)) v = x, c.changed = true;
  } else {
    ImGui::BeginDisabled();
    char buf[96];
    std::snprintf(buf, sizeof buf, "built-in (%s)", fmt_g(fallback, 4).c_str());
    ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::InputText(label, buf, sizeof buf, ImGuiInputTextFlags_ReadOnly);
    ImGui::EndDisabled();
  }
  after(c, path, help);
  ImGui::PopID();
}

void ScenarioPanel::choice_control(Ctx& c, const char* label, const std::string& path,
                                   const std::vector<std::string>& options,
                                   const std::function<std::string(const std::string&)>& annotate, const char* help) {
  json& v = node(c.app.editing(), path);
  std::string cur = v.is_string() ? v.get<std::string>() : "";
  ImGui::PushID(path.c_str());
  std::string preview = cur + (annotate ? annotate(cur) : "");
  if (ImGui::BeginCombo(label, preview.c_str())) {
    for (const auto& o : options) {
      std::string text = o + (annotate ? annotate(o) : "");
      if (ImGui::Selectable(text.c_str(), o == cur)) v = o, c.changed = true;
    }
    ImGui::EndCombo();
  }
  after(c, path, help);
  ImGui::PopID();
}

void ScenarioPanel::system_control(Ctx& c, const char* label, const std::string& path, bool allow_none) {
  json& v = node(c.app.editing(), path);
  std::string text = v.is_string() ? v.get<std::string>() : "";
  SystemName sn = split_system(text);
  const SystemInfo* info = find_info(sn.base);
  ImGui::PushID(path.c_str());
  std::string preview = text.empty() ? "(none)" : info ? info->display + "  [" + text + "]" : text;
  if (ImGui::BeginCombo(label, preview.c_str())) {
    if (allow_none && ImGui::Selectable("(none): no comparison", text.empty())) v = "", c.changed = true;
    std::string last_kind;
    for (const auto& i : system_infos()) {
      if (i.kind != last_kind) {
        ImGui::TextDisabled("%s", i.kind == "system" ? "Servers and UltraServers" : i.kind == "cluster" ? "UltraClusters (EFA between UltraServers)" : "One chip");
        last_kind = i.kind;
      }
      std::string item = i.display + "  (" + std::to_string(i.chips) + " chips, " + i.fabric + ")";
      if (ImGui::Selectable(item.c_str(), i.name == sn.base)) v = i.name, c.changed = true;
      probe((path + ":" + i.name).c_str());
    }
    ImGui::EndCombo();
  }
  after(c, path, allow_none ? "The same workload on a second system, shown beside the first in Report (ratios), Fabric, "
                              "Timeline and Roofline."
                            : "The system the workload runs on. Built-in data files cite their sources (About page).");
  if (!text.empty() && sn.parsed && info && info->kind != "chip") {
    // Scale-out: N UltraServers joined by EFA (NAME:N).
    int n = sn.ultraservers > 0 ? sn.ultraservers : info->domains;
    ImGui::Indent();
    char fmt[96];
    std::snprintf(fmt, sizeof fmt, "%%d x %d = %s chips", info->chips_per_domain,
                  fmt_count(static_cast<double>(n) * info->chips_per_domain).c_str());
    if (slider_int_log("UltraServers##n", &n, 1, 4096, fmt)) {
      sn.ultraservers = n == info->domains && info->kind != "cluster" ? 0 : n;
      v = sn.text();
      c.changed = true;
    }
    c.active |= ImGui::IsItemActive();
    probe((path + ".ultraservers").c_str());
    help_marker("Scale-up domains (UltraServers) joined by EFA: the ':N' of the system name. "
                "Collectives that cross them use the EFA bandwidth of the system data.");
    if (!info->alternatives.empty()) {
      std::string head = "data alternatives (" + std::to_string(sn.alternatives.size()) + " of " +
                         std::to_string(info->alternatives.size()) + " chosen)###alternatives";
      bool open = ImGui::TreeNode(head.c_str());
      help_marker("Where published sources disagree, the data files keep both values; a checked alternative is "
                  "used everywhere it exists (the '+name' of the system name; `trnsim describe` lists them).");
      if (open) {
        for (const auto& alt : info->alternatives) {
          bool on = std::find(sn.alternatives.begin(), sn.alternatives.end(), alt) != sn.alternatives.end();
          if (ImGui::Checkbox(alt.c_str(), &on)) {
            if (on) sn.alternatives.push_back(alt);
            else sn.alternatives.erase(std::find(sn.alternatives.begin(), sn.alternatives.end(), alt));
            v = sn.text();
            c.changed = true;
          }
          probe((path + "+" + alt).c_str());
        }
        ImGui::TreePop();
      }
    }
    ImGui::Unindent();
  }
  ImGui::PopID();
}

void ScenarioPanel::model_controls(Ctx& c) {
  json& m = node(c.app.editing(), "workload.model");
  std::string cur = m.is_string() ? m.get<std::string>() : "";
  auto names = trnsim::model::bundled_model_names();
  std::string preview = m.is_object() ? "pasted config.json (inline)" : cur;
  if (ImGui::BeginCombo("model", preview.c_str())) {
    for (const auto& n : names)
      if (ImGui::Selectable(n.c_str(), n == cur)) m = n, c.changed = true;
    if (m.is_object()) ImGui::Selectable("pasted config.json (inline)", true);
    ImGui::EndCombo();
  }
  after(c, "workload.model",
        "A bundled Hugging Face config (examples/models/, sources beside each) or your own config.json pasted below.");
  if (c.app.report().primary.result) {
    const auto& r = *c.app.report().primary.result;
    const auto& mc = r.model;
    ImGui::TextDisabled("%s: %d layers, hidden %d, %d heads / %d KV%s; %s params, %s active", mc.model_type.c_str(),
                        mc.layers, mc.hidden, mc.heads, mc.kv_heads,
                        mc.is_moe() ? (", " + std::to_string(mc.experts) + " experts top-" + std::to_string(mc.experts_per_token)).c_str() : "",
                        fmt_si(r.params.total, "").c_str(), fmt_si(r.params.active, "").c_str());
  }
  bool paste_open = ImGui::TreeNode("Paste a config.json");
  probe("paste-config-open");
  if (paste_open) {
    ImGui::TextDisabled("A Hugging Face config.json (decoder-only: llama, mistral, mixtral, qwen2/3, qwen MoE, "
                        "gpt_oss, deepseek_v2/v3). Unknown keys become warnings.");
    ImGui::InputTextMultiline("##config", &pasted_config_, ImVec2(-1, ImGui::GetTextLineHeight() * 7));
    probe("paste-config");
    if (ImGui::Button("Use this model")) {
      paste_error_.clear();
      try {
        json cfg = parse_json_text(pasted_config_, "pasted config.json");
        if (!cfg.is_object()) throw InputError("pasted config.json", "expected a JSON object");
        m = cfg;
        c.changed = true;
      } catch (const InputError& e) {
        paste_error_ = e.what();
      }
    }
    probe("use-config");
    ImGui::SameLine();
    if (ImGui::Button("Fill with the current model")) {
      try {
        pasted_config_ = m.is_object() ? m.dump(2) : trnsim::model::bundled_model_json(cur, "model").dump(2);
      } catch (const InputError& e) {
        paste_error_ = e.what();
      }
    }
    if (!paste_error_.empty()) error_text(paste_error_);
    ImGui::TreePop();
  }
}

void ScenarioPanel::precision_controls(Ctx& c) {
  const Report& rep = c.app.report();
  const hw::Chip& chip = rep.primary.system.chip;
  auto annotate = [&chip](const std::string& d) -> std::string {
    if (d == "bf16" || chip.peak(d) > 0) return "";
    return "  (no native " + d + " on " + chip.display_name + ")";
  };
  const char* help_w = "Storage of MLP and expert weights: bytes moved from HBM per token (bf16 2, fp8 1, "
                       "mxfp8 1+1/32, mxfp4 0.5+1/32 bytes per element).";
  choice_control(c, "weights", "workload.precision.weights", workload::precision_names(), annotate, help_w);
  choice_control(c, "attention weights", "workload.precision.attention_weights", workload::precision_names(), annotate,
                 "Storage of the attention projections.");
  choice_control(c, "activations", "workload.precision.activations", workload::precision_names(), annotate,
                 "The tensor engine's input type: sets the peak FLOP/s of every matmul.");
  choice_control(c, "KV cache", "workload.precision.kv_cache", workload::precision_names(), annotate,
                 "Storage of the KV cache: bytes read per decode step.");
  if (rep.primary.result) {
    const auto& r = *rep.primary.result;
    const auto& p = r.spec.precision;
    if (r.matmul_dtype != p.activations || r.weights_dtype != p.weights || r.attention_weights_dtype != p.attention_weights ||
        r.kv_dtype != p.kv_cache)
      dim_text("On %s this runs as: matmuls %s, weights %s, attention weights %s, KV %s.", chip.display_name.c_str(),
               r.matmul_dtype.c_str(), r.weights_dtype.c_str(), r.attention_weights_dtype.c_str(), r.kv_dtype.c_str());
  }
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
      std::string t = pasted_scenario_;
      auto first = t.find_first_not_of(" \t\r\n");
      json j = first != std::string::npos && t[first] == '{' ? parse_json_text(t, "pasted scenario")
                                                              : decode_fragment(t.substr(first == std::string::npos ? 0 : first));
      std::string before = app.message();
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
    float h = ImGui::GetTextLineHeightWithSpacing() * 4.2f;
    ImGui::BeginChild("##error", ImVec2(0, h), true);
    error_text("Not applied: " + app.edit_error());
    if (ImGui::SmallButton("revert to the last valid scenario")) app.revert_edit();
    probe("revert");
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }

  {
    json& nm = node(app.editing(), "name");
    std::string s = nm.is_string() ? nm.get<std::string>() : "";
    if (ImGui::InputText("name", &s)) nm = s, c.changed = true;
    after(c, "name");
  }

  if (ImGui::CollapsingHeader("System", ImGuiTreeNodeFlags_DefaultOpen)) {
    system_control(c, "system", "system", false);
    system_control(c, "compare with", "compare_system", true);
  }

  if (ImGui::CollapsingHeader("Model and precision", ImGuiTreeNodeFlags_DefaultOpen)) {
    json& kind = node(app.editing(), "workload.kind");
    std::string k = kind.is_string() ? kind.get<std::string>() : "inference";
    if (ImGui::RadioButton("inference", k == "inference")) kind = "inference", c.changed = true;
    probe("workload.kind:inference");
    ImGui::SameLine();
    if (ImGui::RadioButton("training", k == "training")) kind = "training", c.changed = true;
    probe("workload.kind:training");
    after(c, "workload.kind");
    model_controls(c);
    precision_controls(c);
  }

  const hw::System& sys = app.report().primary.system;
  if (ImGui::CollapsingHeader("Parallelism", ImGuiTreeNodeFlags_DefaultOpen)) {
    int chips = std::max(1, sys.chips);
    int_control(c, "tp (tensor)", "workload.parallelism.tp", 1, std::min(chips, 1024), true,
                "Tensor parallelism: chips sharing every layer (all-reduce after attention and MLP). Must divide the "
                "attention heads and fit the scale-up domain.");
    int_control(c, "pp (pipeline)", "workload.parallelism.pp", 1, std::min(chips, 256), true,
                "Pipeline stages: layers split into consecutive groups (activations sent between stages).");
    int_control(c, "dp (data)", "workload.parallelism.dp", 1, chips, true,
                "Replicas: independent copies (inference) or data-parallel ranks with gradient exchange (training).");
    int_control(c, "ep (expert)", "workload.parallelism.ep", 1, std::min(chips, 1024), true,
                "Expert parallelism for MoE layers: experts spread over ep chips (all-to-all dispatch and combine).");
    if (app.report().primary.result) {
      const auto& r = *app.report().primary.result;
      float used = static_cast<float>(r.chips_used) / std::max(1, r.system_chips);
      char overlay[96];
      std::snprintf(overlay, sizeof overlay, "%d of %d chips used", r.chips_used, r.system_chips);
      ImGui::ProgressBar(used, ImVec2(-1, 0), overlay);
    }
  }

  const std::string kind = node(app.editing(), "workload.kind").is_string()
                               ? node(app.editing(), "workload.kind").get<std::string>()
                               : "inference";
  if (kind == "inference") {
    if (ImGui::CollapsingHeader("Inference sizes", ImGuiTreeNodeFlags_DefaultOpen)) {
      int_control(c, "batch", "workload.inference.batch", 1, 4096, true,
                  "Concurrent sequences per replica (continuous batching). Ctrl+click to type a value.");
      int_control(c, "input tokens", "workload.inference.input_tokens", 1, 1 << 20, true, "Prompt length per request.");
      int_control(c, "output tokens", "workload.inference.output_tokens", 1, 1 << 20, true, "Generated tokens per request.");
    }
  } else {
    if (ImGui::CollapsingHeader("Training sizes", ImGuiTreeNodeFlags_DefaultOpen)) {
      int_control(c, "sequence length", "workload.training.sequence_length", 128, 1 << 20, true, "Tokens per sequence.");
      int_control(c, "global batch", "workload.training.global_batch", 1, 1 << 16, true, "Sequences per optimizer step.");
      int_control(c, "micro batch", "workload.training.micro_batch", 1, 1024, true,
                  "Sequences per micro-batch (global batch / (dp x micro batch) micro-batches per step).");
      int_control(c, "ZeRO stage", "workload.training.zero_stage", 0, 3, false,
                  "0: replicated optimizer state; 1: sharded optimizer; 2: + gradients; 3: + parameters.");
      choice_control(c, "recompute", "workload.training.recompute", {"none", "selective", "full"}, nullptr,
                     "Activation recomputation in backward: trades FLOPs for activation memory.");
      real_control(c, "DP overlap", "workload.training.overlap", 0.0, 1.0, "%.2f", 1.0, false,
                   "Fraction of the data-parallel exchange hidden behind backward.");
    }
  }

  if (ImGui::CollapsingHeader("Assumptions: efficiency, power, price")) {
    real_control(c, "matmul efficiency", "workload.efficiency.compute", 0.01, 1.0, "%.2f", 1.0, false,
                 "Achievable fraction of the tensor-engine peak for matmuls (calibrated on Trainium2 prefill).");
    real_control(c, "attention efficiency", "workload.efficiency.attention", 0.01, 1.0, "%.2f", 1.0, false,
                 "Achievable fraction of peak for the attention kernels.");
    real_control(c, "HBM efficiency", "workload.efficiency.hbm", 0.01, 1.0, "%.2f", 1.0, false,
                 "Achievable fraction of the HBM bandwidth.");
    real_control(c, "kernel overhead (us)", "workload.efficiency.kernel_overhead_s", 0.0, 1000.0, "%.1f us", 1e6, false,
                 "Fixed cost per kernel: launch, synchronisation, DMA set-up (calibrated on Trainium2 decode).");
    real_control(c, "HBM reserve", "workload.efficiency.hbm_reserve_fraction", 0.0, 0.9, "%.2f", 1.0, false,
                 "HBM kept for the runtime and fragmentation.");
    double chip_w = sys.chip.power_watts > 0 ? sys.chip.power_watts : 500;
    optional_real(c, "chip power (W)", "workload.economics.chip_power_watts", 50, 5000, "%.0f W", chip_w,
                  "Power per chip (not published by AWS: the system data holds an assumption).");
    real_control(c, "host power", "workload.economics.host_power_fraction", 0.0, 2.0, "%.2f of chip", 1.0, false,
                 "Hosts, NICs, switches and fans on top of the chips.");
    real_control(c, "PUE", "workload.economics.pue", 1.0, 3.0, "%.2f", 1.0, false, "Facility power usage effectiveness.");
    double price = app.report().primary.result ? app.report().primary.result->price_per_chip_hour_usd : 3.0;
    optional_real(c, "price ($/chip-h)", "workload.economics.price_per_chip_hour_usd", 0.1, 100, "$%.2f", price,
                  "Price per chip-hour (no Trainium3 price is published: a guess).");
  }

  bool import_open = ImGui::CollapsingHeader("Open or paste a scenario");
  probe("paste-scenario-open");
  if (import_open) import_box(app);

  if (ImGui::CollapsingHeader("Every field (JSON)")) {
    ImGui::TextDisabled("The scenario as `trnsim link decode` prints it; every value here is in the link.");
    for (auto it = app.editing().begin(); it != app.editing().end(); ++it) {
      if (it.key() == "version") continue;
      c.changed |= json_tree(c, it.key(), it.value(), it.key());
    }
  }
  ImGui::PopItemWidth();
  app.commit_edit(c.changed, c.active);
}

}  // namespace

std::unique_ptr<Panel> make_scenario_panel() { return std::make_unique<ScenarioPanel>(); }

}  // namespace trnsim::ui
