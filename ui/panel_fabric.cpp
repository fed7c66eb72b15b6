// The Fabric panel: the scale-up fabric of the scenario's system beside another (the
// comparison system, normally the other kind: 3D torus vs NeuronSwitch), drawn on the
// GPU with the shaders in shaders/ -- chips and switches as instanced glyphs, every
// directed link coloured by its utilization during the chosen collective: one of the
// workload's own collectives (the "step": TP all-reduce, EP all-to-all, PP send, DP
// gradient exchange, with the sizes the workload priced) or a custom one. Hovering a
// link shows its name, bandwidth, bytes, busy time and utilization; hovering a chip
// shows where it is and whether it takes part.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "hw/system.h"
#include "collective/collective.h"
#include "ui/app.h"
#include "ui/fabric_gl.h"
#include "ui/fabric_model.h"
#include "ui/format.h"
#include "ui/plot.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

// One collective of the workload, as the workload priced it.
struct StepOp {
  std::string label;  // "decode: attn.all_reduce"
  std::string name;   // "attn.all_reduce"
  collective::Request request;
  double time_s = 0;
  double total_s = 0;  // count x time in its phase
};

// The requests behind the workload's fabric operators, as the workload layer priced them.
std::vector<StepOp> step_ops(const workload::Result& r) {
  std::vector<StepOp> out;
  for (const auto& ph : r.phases)
    for (const auto& o : ph.ops) {
      if (o.category != price::Category::fabric || o.fabric_bytes <= 0) continue;
      StepOp s;
      s.name = o.name;
      s.label = ph.name + ": " + o.name;
      s.request = o.collective;
      int ranks = o.collective.ranks;
      s.time_s = o.time_s;
      s.total_s = o.total_s();
      if (ranks >= 2) out.push_back(s);
    }
  return out;
}

struct Side {
  std::string system_key;
  hw::System system;
  FabricLayout layout;
  std::string loads_key;
  LinkLoads loads;
  FabricCanvas canvas;
  std::string note;  // how the request was chosen for this side
};

class FabricPanel : public Panel {
 public:
  const char* name() const override { return "Fabric"; }
  void draw(App& app) override;

 private:
  void set_system(Side& s, const hw::System& sys);
  void update_loads(Side& s, const collective::Request& req);
  void draw_side(Side& s, const char* id, ImVec2 size);

  Side sides_[2];
  int mode_ = 0;            // 0: the workload's collectives, 1: custom
  std::string step_name_;   // chosen workload collective ("attn.all_reduce")
  std::string right_override_;
  int custom_op_ = 0, custom_algo_ = 0;
  double custom_bytes_ = 64.0 * 1048576.0;
  int custom_ranks_ = 16;
  std::map<std::string, hw::System> system_cache_;
};

void FabricPanel::set_system(Side& s, const hw::System& sys) {
  std::string key = sys.name + "|" + std::to_string(sys.chips) + "|" + sys.fabric;
  for (const auto& kv : sys.chosen) key += "|" + kv.first + "=" + kv.second;
  if (key == s.system_key) return;
  s.system_key = key;
  s.system = sys;
  s.layout = layout_fabric(sys);
  s.loads_key.clear();
}

void FabricPanel::update_loads(Side& s, const collective::Request& req) {
  char key[256];
  std::snprintf(key, sizeof key, "%s|%s|%.17g|%d|%d|%s", s.system_key.c_str(), req.op.c_str(), req.bytes, req.ranks,
                req.stride, req.algo.c_str());
  if (key == s.loads_key) return;
  s.loads_key = key;
  s.loads = link_loads(s.system, req);
}

float seg_distance(ImVec2 p, ImVec2 a, ImVec2 b) {
  float dx = b.x - a.x, dy = b.y - a.y;
  float len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0f, 1.0f) : 0.0f;
  float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return std::sqrt(ex * ex + ey * ey);
}

void FabricPanel::draw_side(Side& s, const char* id, ImVec2 size) {
  ImGui::BeginChild(id, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const hw::System& sys = s.system;
  ImGui::Text("%s", sys.display_name.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s, %d chips per scale-up domain%s", sys.fabric.c_str(), sys.chips_per_domain,
                      sys.domains > 1 ? (", " + std::to_string(sys.domains) + " domains over EFA").c_str() : "");
  if (!s.layout.error.empty()) {
    dim_text("%s", s.layout.error.c_str());
    ImGui::EndChild();
    return;
  }
  const LinkLoads& L = s.loads;
  const auto& req = L.request;
  if (!L.error.empty()) {
    error_text(req.op + " of " + fmt_bytes(req.bytes) + " over " + std::to_string(req.ranks) + " ranks: " + L.error);
  } else {
    ImGui::TextWrapped("%s of %s over %ld ranks%s: %s, %s (busbw %s); busiest link %s busy%s", req.op.c_str(),
                       fmt_bytes(req.bytes).c_str(), L.ranks,
                       req.stride > 1 ? (" (every " + std::to_string(req.stride) + "th chip)").c_str() : "",
                       L.result.algorithm.c_str(), fmt_time(L.result.time_s).c_str(),
                       fmt_rate_bytes(L.result.busbw_bytes_per_s).c_str(), fmt_percent(L.max_utilization).c_str(),
                       L.efa_bytes > 0 ? (", " + fmt_bytes(L.efa_bytes) + " over EFA").c_str() : "");
  }
  if (!s.note.empty()) ImGui::TextDisabled("%s", s.note.c_str());
  dim_text("%s", s.layout.caption.c_str());

  // The drawing area.
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float legend_h = ImGui::GetTextLineHeightWithSpacing() + 8;
  ImVec2 area(avail.x, std::max(60.0f, avail.y - legend_h));
  ImGui::InvisibleButton("canvas", area);
  probe((std::string("fabric:") + id).c_str());
  bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + area.x, p0.y + area.y), IM_COL32(16, 18, 22, 255));

  const FabricLayout& lay = s.layout;
  float lw = lay.hi.x - lay.lo.x, lh = lay.hi.y - lay.lo.y;
  float scale = std::min(area.x / std::max(1.0f, lw), area.y / std::max(1.0f, lh));
  float ox = p0.x + (area.x - lw * scale) / 2 - lay.lo.x * scale, oy = p0.y + (area.y - lh * scale) / 2 - lay.lo.y * scale;
  auto map = [&](FabricPoint p) { return ImVec2(ox + p.x * scale, oy + p.y * scale); };
  const float chip_half = std::max(2.5f, lay.chip_size * scale * 0.5f);
  const float base_w = std::clamp(chip_half * 0.22f, 1.2f, 3.5f);
  const double time_s = L.result.time_s;

  // Hit testing: nodes first, then links.
  ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover_node = -1, hover_link = -1;
  if (hovered) {
    float best = 1e9f;
    for (std::size_t i = 0; i < lay.nodes.size(); ++i) {
      const auto& n = lay.nodes[i];
      float half = n.kind == FabricNode::chip ? chip_half : n.kind == FabricNode::l1_switch ? chip_half * 0.9f : chip_half * 1.6f;
      ImVec2 c = map(n.p);
      float d = std::max(std::fabs(mouse.x - c.x), std::fabs(mouse.y - c.y));
      if (d <= half + 1 && d < best) best = d, hover_node = static_cast<int>(i);
    }
    if (hover_node < 0) {
      best = 1e9f;
      for (std::size_t i = 0; i < lay.links.size(); ++i) {
        const auto& l = lay.links[i];
        bool used = L.bytes.count(l.id) > 0;
        float w = used ? base_w * 1.7f : base_w * 0.8f;
        float off = w * 0.5f + 0.6f + l.lane * w;
        for (const auto& sg : l.segments) {
          ImVec2 a = map(sg.first), b = map(sg.second);
          float dx = b.x - a.x, dy = b.y - a.y, len = std::max(0.001f, std::sqrt(dx * dx + dy * dy));
          ImVec2 n(-dy / len * off, dx / len * off);
          float d = seg_distance(mouse, ImVec2(a.x + n.x, a.y + n.y), ImVec2(b.x + n.x, b.y + n.y));
          if (d < std::max(3.0f, w) && d < best) best = d, hover_link = static_cast<int>(i);
        }
      }
    }
  }

  // Instances for the shaders: unused links first, so used ones are drawn on top.
  s.canvas.links.clear();
  s.canvas.glyphs.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < lay.links.size(); ++i) {
      const auto& l = lay.links[i];
      auto it = L.bytes.find(l.id);
      bool used = it != L.bytes.end();
      if (used != (pass == 1)) continue;
      float util = -1;
      if (used && time_s > 0 && l.bandwidth_bytes_per_s > 0)
        util = static_cast<float>(it->second / l.bandwidth_bytes_per_s / time_s);
      float w = used ? base_w * 1.7f : base_w * 0.8f;
      float off = w * 0.5f + 0.6f + l.lane * w;
      for (const auto& sg : l.segments) {
        ImVec2 a = map(sg.first), b = map(sg.second);
        s.canvas.links.push_back({a.x, a.y, b.x, b.y, w, util, static_cast<int>(i) == hover_link ? 1.0f : 0.0f, off});
      }
    }
  std::vector<char> member(static_cast<std::size_t>(std::max(0, sys.chips_per_domain)), 0);
  for (long c : L.member_chips)
    if (c >= 0 && c < static_cast<long>(member.size())) member[c] = 1;
  for (std::size_t i = 0; i < lay.nodes.size(); ++i) {
    const auto& n = lay.nodes[i];
    ImVec2 c = map(n.p);
    GlyphInstance g{c.x, c.y, chip_half, static_cast<float>(n.kind), 0.28f, 0.30f, 0.36f, 1.0f, 0.0f};
    if (n.kind == FabricNode::chip && n.chip_index < static_cast<long>(member.size()) && member[n.chip_index]) {
      g.r = 0.36f, g.g = 0.60f, g.b = 0.95f;
      g.flags += 2;
    } else if (n.kind == FabricNode::l1_switch) {
      g.half = chip_half * 0.9f;
      g.r = 0.50f, g.g = 0.46f, g.b = 0.66f;
    } else if (n.kind == FabricNode::l2_switch) {
      g.half = chip_half * 1.6f;
      g.r = 0.66f, g.g = 0.50f, g.b = 0.78f;
    }
    if (static_cast<int>(i) == hover_node) g.flags += 1;
    s.canvas.glyphs.push_back(g);
  }
  dl->PushClipRect(p0, ImVec2(p0.x + area.x, p0.y + area.y), true);
  s.canvas.submit(dl);
  dl->PopClipRect();

  if (hover_link >= 0) {
    const auto& l = lay.links[hover_link];
    auto it = L.bytes.find(l.id);
    ImGui::BeginTooltip();
    ImGui::Text("%s", l.name.c_str());
    ImGui::TextDisabled("%s per direction", fmt_rate_bytes(l.bandwidth_bytes_per_s).c_str());
    if (it == L.bytes.end()) {
      ImGui::Text("carries nothing in this collective");
    } else {
      double busy = it->second / l.bandwidth_bytes_per_s;
      ImGui::Text("load: %s, busy %s", fmt_bytes(it->second).c_str(), fmt_time(busy).c_str());
      ImGui::Text("utilization: %s of the collective's %s", fmt_percent(time_s > 0 ? busy / time_s : 0).c_str(),
                  fmt_time(time_s).c_str());
    }
    ImGui::EndTooltip();
  } else if (hover_node >= 0) {
    const auto& n = lay.nodes[hover_node];
    ImGui::BeginTooltip();
    ImGui::Text("%s", n.label.c_str());
    if (n.kind == FabricNode::chip) {
      bool m = n.chip_index < static_cast<long>(member.size()) && member[n.chip_index];
      ImGui::TextDisabled("%s", m ? "takes part in the drawn group" : "not in the drawn group");
    }
    ImGui::EndTooltip();
  }

  // Legend: the utilization ramp and the unused colour.
  ImVec2 lp = ImGui::GetCursorScreenPos();
  lp.y += 4;
  const float lw2 = std::min(160.0f, area.x * 0.3f), lhh = ImGui::GetTextLineHeight() * 0.8f;
  for (int i = 0; i < 32; ++i) {
    float a = i / 32.0f, b = (i + 1) / 32.0f;
    dl->AddRectFilled(ImVec2(lp.x + a * lw2, lp.y), ImVec2(lp.x + b * lw2 + 0.5f, lp.y + lhh),
                      ImGui::GetColorU32(utilization_colour((a + b) / 2)));
  }
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const char* legend = "busy 0 .. 100% of the collective";
  dl->AddText(ImVec2(lp.x + lw2 + 6, lp.y - 2), dim, legend);
  float tx = lp.x + lw2 + 14 + ImGui::CalcTextSize(legend).x;
  dl->AddRectFilled(ImVec2(tx, lp.y + 2), ImVec2(tx + 16, lp.y + lhh - 2), IM_COL32(77, 84, 102, 255));
  dl->AddText(ImVec2(tx + 20, lp.y - 2), dim, "unused");
  ImGui::Dummy(ImVec2(area.x, legend_h - 4));
  ImGui::EndChild();
}

void FabricPanel::draw(App& app) {
  const Report& rep = app.report();
  // Left: the scenario's system. Right: the comparison system, or the other fabric kind.
  set_system(sides_[0], rep.primary.system);
  std::string right_name;
  const hw::System* right = nullptr;
  if (!right_override_.empty()) {
    right_name = right_override_;
  } else if (rep.compare) {
    right = &rep.compare->system;
  } else {
    right_name = rep.primary.system.fabric_spec.kind == "switch" ? "trn2-ultraserver" : "trn3-gen2-ultraserver";
  }
  if (!right) {
    auto it = system_cache_.find(right_name);
    if (it == system_cache_.end()) {
      try {
        it = system_cache_.emplace(right_name, hw::load_system(right_name)).first;
      } catch (const InputError&) {
        it = system_cache_.emplace(right_name, rep.primary.system).first;
      }
    }
    right = &it->second;
  }
  set_system(sides_[1], *right);

  // Controls.
  std::vector<StepOp> ops_a = rep.primary.result ? step_ops(*rep.primary.result) : std::vector<StepOp>();
  std::vector<StepOp> ops_b;
  if (rep.compare && rep.compare->result && right == &rep.compare->system) ops_b = step_ops(*rep.compare->result);
  if (ops_a.empty() && mode_ == 0) mode_ = 1;
  ImGui::RadioButton("the workload's collectives", &mode_, 0);
  probe("fabric:mode-step");
  ImGui::SameLine();
  ImGui::RadioButton("a custom collective", &mode_, 1);
  probe("fabric:mode-custom");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(240);
  std::string right_preview = right_override_.empty() ? "right: " + sides_[1].system.display_name : right_override_;
  if (ImGui::BeginCombo("##right", right_preview.c_str())) {
    if (ImGui::Selectable("the scenario's comparison (or the other fabric)", right_override_.empty())) right_override_.clear();
    for (const auto& n : hw::system_names())
      if (ImGui::Selectable(n.c_str(), n == right_override_)) right_override_ = n;
    ImGui::EndCombo();
  }
  help_marker("The right-hand side: by default the scenario's comparison system (Trn2's 3D torus beside Trn3's "
              "NeuronSwitch), or any other system.");

  collective::Request req_a, req_b;
  sides_[0].note.clear();
  sides_[1].note.clear();
  if (mode_ == 0 && !ops_a.empty()) {
    auto by_total = [](const StepOp& a, const StepOp& b) { return a.total_s > b.total_s; };
    std::vector<StepOp> sorted = ops_a;
    std::stable_sort(sorted.begin(), sorted.end(), by_total);
    const StepOp* chosen = nullptr;
    for (const auto& o : ops_a)
      if (o.label == step_name_) chosen = &o;
    if (!chosen) {
      // The costliest collective whose group stays inside one scale-up domain (something
      // to see on the drawing), else the costliest.
      const long per = sides_[0].system.chips_per_domain;
      for (const auto& o : sorted)
        if (!chosen && static_cast<long>(o.request.ranks - 1) * o.request.stride < per) chosen = &o;
      if (!chosen) chosen = &sorted.front();
      step_name_ = chosen->label;
    }
    ImGui::SetNextItemWidth(std::min(420.0f, ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("collective", chosen->label.c_str())) {
      for (const auto& o : sorted) {
        std::string item = o.label + "  (" + o.request.op + ", " + fmt_bytes(o.request.bytes) + ", " +
                           std::to_string(o.request.ranks) + " chips; " + fmt_time(o.total_s) + " in its phase)";
        if (ImGui::Selectable(item.c_str(), o.label == step_name_)) step_name_ = o.label;
      }
      ImGui::EndCombo();
    }
    probe("fabric:collective");
    req_a = chosen->request;
    req_b = req_a;
    bool found = false;
    for (const auto& o : ops_b)
      if (o.label == chosen->label) req_b = o.request, found = true;
    sides_[1].note = found ? "the same operator of the workload on this system"
                           : "the left side's request (this system's workload has no such operator)";
  } else {
    const auto& ops = collective::op_names();
    const auto& algos = collective::algo_names();
    custom_op_ = std::clamp(custom_op_, 0, static_cast<int>(ops.size()) - 1);
    custom_algo_ = std::clamp(custom_algo_, 0, static_cast<int>(algos.size()) - 1);
    ImGui::SetNextItemWidth(130);
    if (ImGui::BeginCombo("op", ops[custom_op_].c_str())) {
      for (int i = 0; i < static_cast<int>(ops.size()); ++i)
        if (ImGui::Selectable(ops[i].c_str(), i == custom_op_)) custom_op_ = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160);
    double mib = custom_bytes_ / 1048576.0;
    if (slider_double("MiB", &mib, 1.0 / 1024, 4096, "%.3g MiB", true)) custom_bytes_ = mib * 1048576.0;
    probe("fabric:bytes");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(130);
    int max_ranks = std::max(2, std::max(sides_[0].system.chips_per_domain, sides_[1].system.chips_per_domain));
    slider_int_log("ranks", &custom_ranks_, 2, max_ranks);
    probe("fabric:ranks");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(130);
    if (ImGui::BeginCombo("algorithm", algos[custom_algo_].c_str())) {
      for (int i = 0; i < static_cast<int>(algos.size()); ++i)
        if (ImGui::Selectable(algos[i].c_str(), i == custom_algo_)) custom_algo_ = i;
      ImGui::EndCombo();
    }
    req_a.op = ops[custom_op_];
    req_a.algo = algos[custom_algo_];
    req_a.bytes = custom_bytes_;
    req_a.ranks = custom_ranks_;
    req_b = req_a;
  }
  // A group larger than a side's system is trimmed to it.
  for (int i = 0; i < 2; ++i) {
    collective::Request& r = i == 0 ? req_a : req_b;
    long chips = sides_[i].system.chips;
    if (static_cast<long>(r.ranks - 1) * r.stride + 1 > chips) {
      r.ranks = static_cast<int>(std::max<long>(2, (chips - 1) / std::max(1, r.stride) + 1));
      sides_[i].note = "group trimmed to " + std::to_string(r.ranks) + " ranks to fit this system";
    }
    update_loads(sides_[i], r);
  }

  ImVec2 avail = ImGui::GetContentRegionAvail();
  float w = (avail.x - ImGui::GetStyle().ItemSpacing.x) / 2;
  draw_side(sides_[0], "left", ImVec2(w, avail.y));
  ImGui::SameLine();
  draw_side(sides_[1], "right", ImVec2(w, avail.y));
  if (!FabricCanvas::gl_error().empty() && ImGui::IsItemHovered())
    ImGui::SetTooltip("GPU shaders unavailable (%s): drawn without them", FabricCanvas::gl_error().c_str());
}

}  // namespace

std::unique_ptr<Panel> make_fabric_panel() { return std::make_unique<FabricPanel>(); }

}  // namespace trnsim::ui
