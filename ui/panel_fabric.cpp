// The Fabric panel: a scale-up domain of the scenario's system beside one of another
// (the comparison system, normally the other kind: 3D torus vs NeuronSwitch), drawn on
// the GPU with the shaders in shaders/ -- chips and switches as instanced glyphs, every
// directed link the router uses coloured by its utilization during the chosen
// collective: one of the workload's own (TP all-reduce, EP all-to-all, PP send, DP
// gradient exchange, the requests the workload priced) or a custom one. In a cluster
// either side can show any of its domains. Hovering a link shows its name, bandwidth,
// bytes, busy time and utilization; hovering a chip shows where it is and whether it
// takes part. Layout, links and loads come from ui/view/fabric_view.h (the core's
// Topology::domain_links / ends and collective::link_traffic); this file only draws.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "hw/system.h"
#include "collective/collective.h"
#include "ui/app.h"
#include "ui/fabric_gl.h"
#include "ui/view/fabric_view.h"
#include "ui/view/scenario_form.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

struct Side {
  std::string system_key;
  hw::System system;
  int domain = 0;  // the scale-up domain drawn
  FabricLayout layout;
  std::string loads_key;
  FabricLoads loads;
  FabricCanvas canvas;
  std::string note;  // how the request was chosen for this side
};

float glyph_kind(fabric::NodeKind k) {
  return k == fabric::NodeKind::chip ? 0.0f : k == fabric::NodeKind::l1_switch ? 1.0f : 2.0f;
}

class FabricPanel : public Panel {
 public:
  const char* name() const override { return "Fabric"; }
  void draw(App& app) override;

 private:
  void set_system(Side& s, const hw::System& sys);
  void update_loads(Side& s, const collective::Request& req);
  void draw_side(Side& s, const char* id, ImVec2 size);
  void side_header(Side& s, const char* id);
  collective::Request custom_request();
  void choose_requests(const Report& rep, collective::Request& a, collective::Request& b);

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
  s.domain = std::clamp(s.domain, 0, std::max(1, sys.domains) - 1);
  std::string key = sys.name + "|" + std::to_string(sys.chips) + "|" + sys.fabric;
  for (const auto& kv : sys.chosen) key += "|" + kv.first + "=" + kv.second;
  key += "|" + std::to_string(s.domain);
  if (key == s.system_key) return;
  s.system_key = key;
  s.system = sys;
  s.layout = layout_fabric(sys, s.domain);
  s.loads_key.clear();
}

void FabricPanel::update_loads(Side& s, const collective::Request& req) {
  char part[160];
  std::snprintf(part, sizeof part, "|%s|%.17g|%d|%d|%s", req.op.c_str(), req.bytes, req.ranks, req.stride, req.algo.c_str());
  const std::string key = s.system_key + part;  // (a fixed buffer cut long system keys off before the request)
  if (key == s.loads_key) return;
  s.loads_key = key;
  s.loads = fabric_loads(s.system, req, s.domain);
}

float seg_distance(ImVec2 p, ImVec2 a, ImVec2 b) {
  float dx = b.x - a.x, dy = b.y - a.y;
  float len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0f, 1.0f) : 0.0f;
  float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return std::sqrt(ex * ex + ey * ey);
}

// The drawing's hit test: the node or else the link under the mouse (-1: none).
struct Hit {
  int node = -1, link = -1;
};

// The layout fitted into the drawing area: where nodes and links land on screen, and how big.
struct FabricGeometry {
  ImVec2 p0, area;  // the drawing area
  float scale = 1, ox = 0, oy = 0;
  float chip_half = 0, base_w = 0;
  const collective::Traffic* traffic = nullptr;

  FabricGeometry(const FabricLayout& lay, const collective::Traffic& t, ImVec2 origin, ImVec2 size)
      : p0(origin), area(size), traffic(&t) {
    const float lw = lay.hi.x - lay.lo.x, lh = lay.hi.y - lay.lo.y;
    scale = std::min(area.x / std::max(1.0f, lw), area.y / std::max(1.0f, lh));
    ox = p0.x + (area.x - lw * scale) / 2 - lay.lo.x * scale;
    oy = p0.y + (area.y - lh * scale) / 2 - lay.lo.y * scale;
    chip_half = std::max(2.5f, lay.chip_size * scale * 0.5f);
    base_w = std::clamp(chip_half * 0.22f, 1.2f, 3.5f);
  }
  ImVec2 map(FabricPoint p) const { return ImVec2(ox + p.x * scale, oy + p.y * scale); }
  float node_half(const FabricNode& n) const {
    return n.node.kind == fabric::NodeKind::chip ? chip_half : n.node.kind == fabric::NodeKind::l1_switch ? chip_half * 0.9f : chip_half * 1.6f;
  }
  float link_width(const FabricLink& l) const { return traffic->bytes.count(l.id) ? base_w * 1.7f : base_w * 0.8f; }
  float link_offset(const FabricLink& l) const {
    const float w = link_width(l);
    return w * 0.5f + 0.6f + l.lane * w;
  }
};

// Nodes first, then links.
Hit hit_test(const FabricLayout& lay, const FabricGeometry& g, ImVec2 mouse) {
  Hit hit;
  float best = 1e9f;
  for (std::size_t i = 0; i < lay.nodes.size(); ++i) {
    const ImVec2 c = g.map(lay.nodes[i].p);
    const float d = std::max(std::fabs(mouse.x - c.x), std::fabs(mouse.y - c.y));
    if (d <= g.node_half(lay.nodes[i]) + 1 && d < best) best = d, hit.node = static_cast<int>(i);
  }
  best = 1e9f;
  for (std::size_t i = 0; hit.node < 0 && i < lay.links.size(); ++i) {
    const auto& l = lay.links[i];
    const float w = g.link_width(l), off = g.link_offset(l);
    for (const auto& sg : l.segments) {
      const ImVec2 a = g.map(sg.first), b = g.map(sg.second);
      const float dx = b.x - a.x, dy = b.y - a.y, len = std::max(0.001f, std::sqrt(dx * dx + dy * dy));
      const ImVec2 n(-dy / len * off, dx / len * off);
      const float d = seg_distance(mouse, ImVec2(a.x + n.x, a.y + n.y), ImVec2(b.x + n.x, b.y + n.y));
      if (d < std::max(3.0f, w) && d < best) best = d, hit.link = static_cast<int>(i);
    }
  }
  return hit;
}

// Instances for the shaders: unused links first, so used ones are drawn on top; chips of the
// group highlighted, the hovered node and link marked.
void fill_canvas(Side& s, const FabricGeometry& g, const Hit& hit, const std::set<long>& members) {
  const FabricLayout& lay = s.layout;
  s.canvas.links.clear();
  s.canvas.glyphs.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < lay.links.size(); ++i) {
      const auto& l = lay.links[i];
      const float util = static_cast<float>(s.loads.utilization(l));
      if ((util >= 0) != (pass == 1)) continue;
      const float w = g.link_width(l), off = g.link_offset(l);
      for (const auto& sg : l.segments) {
        const ImVec2 a = g.map(sg.first), b = g.map(sg.second);
        s.canvas.links.push_back({a.x, a.y, b.x, b.y, w, util, static_cast<int>(i) == hit.link ? 1.0f : 0.0f, off});
      }
    }
  for (std::size_t i = 0; i < lay.nodes.size(); ++i) {
    const auto& n = lay.nodes[i];
    const ImVec2 c = g.map(n.p);
    GlyphInstance glyph{c.x, c.y, g.node_half(n), glyph_kind(n.node.kind), 0.28f, 0.30f, 0.36f, 1.0f, 0.0f};
    if (n.node.kind == fabric::NodeKind::chip && members.count(n.node.index)) {
      glyph.r = 0.36f, glyph.g = 0.60f, glyph.b = 0.95f;
      glyph.flags += 2;
    } else if (n.node.kind == fabric::NodeKind::l1_switch) {
      glyph.r = 0.50f, glyph.g = 0.46f, glyph.b = 0.66f;
    } else if (n.node.kind == fabric::NodeKind::l2_switch) {
      glyph.r = 0.66f, glyph.g = 0.50f, glyph.b = 0.78f;
    }
    if (static_cast<int>(i) == hit.node) glyph.flags += 1;
    s.canvas.glyphs.push_back(glyph);
  }
}

// The hovered link (its load, busy time, utilization) or node (whether it takes part).
void fabric_tooltip(const Side& s, const Hit& hit, const std::set<long>& members) {
  const FabricLayout& lay = s.layout;
  const FabricLoads& L = s.loads;
  if (hit.link >= 0) {
    const auto& l = lay.links[hit.link];
    auto it = L.traffic.bytes.find(l.id);
    ImGui::BeginTooltip();
    ImGui::Text("%s", l.name.c_str());
    ImGui::TextDisabled("%s per direction (%s)", fmt::si(l.bandwidth_bytes_per_s, "B/s").c_str(), fabric::link_kind_name(l.ends.kind));
    if (it == L.traffic.bytes.end()) {
      ImGui::Text("carries nothing in this collective");
    } else {
      ImGui::Text("load: %s, busy %s", fmt::bytes(it->second).c_str(), fmt::time(L.busy_s(l)).c_str());
      ImGui::Text("utilization: %s of the collective's %s", fmt::percent(L.utilization(l)).c_str(),
                  fmt::time(L.traffic.result.time_s).c_str());
    }
    ImGui::EndTooltip();
  } else if (hit.node >= 0) {
    const auto& n = lay.nodes[hit.node];
    ImGui::BeginTooltip();
    ImGui::Text("%s", n.label.c_str());
    if (n.node.kind == fabric::NodeKind::chip)
      ImGui::TextDisabled("%s", members.count(n.node.index) ? "takes part in the drawn group" : "not in the drawn group");
    ImGui::EndTooltip();
  }
}

// Legend: the utilization ramp and the unused colour.
void fabric_legend(ImDrawList* dl, float area_w, float legend_h) {
  ImVec2 lp = ImGui::GetCursorScreenPos();
  lp.y += 4;
  const float lw2 = std::min(160.0f, area_w * 0.3f), lhh = ImGui::GetTextLineHeight() * 0.8f;
  for (int i = 0; i < 32; ++i) {
    const float a = i / 32.0f, b = (i + 1) / 32.0f;
    dl->AddRectFilled(ImVec2(lp.x + a * lw2, lp.y), ImVec2(lp.x + b * lw2 + 0.5f, lp.y + lhh),
                      ImGui::GetColorU32(utilization_colour((a + b) / 2)));
  }
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const char* legend = "busy 0 .. 100% of the collective";
  dl->AddText(ImVec2(lp.x + lw2 + 6, lp.y - 2), dim, legend);
  const float tx = lp.x + lw2 + 14 + ImGui::CalcTextSize(legend).x;
  dl->AddRectFilled(ImVec2(tx, lp.y + 2), ImVec2(tx + 16, lp.y + lhh - 2), IM_COL32(77, 84, 102, 255));
  dl->AddText(ImVec2(tx + 20, lp.y - 2), dim, "unused");
  ImGui::Dummy(ImVec2(area_w, legend_h - 4));
}

// The collective drawn on this side: its time, bus bandwidth and busiest link, or the error.
void request_summary(const Side& s) {
  const FabricLoads& L = s.loads;
  const auto& req = L.request;
  const collective::Traffic& T = L.traffic;
  if (!L.error.empty()) {
    error_text(req.op + " of " + fmt::bytes(req.bytes) + " over " + std::to_string(req.ranks) + " ranks: " + L.error);
  } else {
    ImGui::TextWrapped("%s of %s over %ld ranks%s: %s, %s (busbw %s); busiest link %s busy%s", req.op.c_str(),
                       fmt::bytes(req.bytes).c_str(), T.ranks,
                       req.stride > 1 ? (" (every " + std::to_string(req.stride) + "th chip)").c_str() : "",
                       T.result.algorithm.c_str(), fmt::time(T.result.time_s).c_str(),
                       fmt::si(T.result.busbw_bytes_per_s, "B/s").c_str(), fmt::percent(L.max_utilization).c_str(),
                       T.efa_bytes_out > 0 ? (", " + fmt::bytes(T.efa_bytes_out) + " out over EFA").c_str() : "");
  }
  if (!s.note.empty()) ImGui::TextDisabled("%s", s.note.c_str());
  dim_text("%s", s.layout.caption.c_str());
}

// The system's name and fabric, and in a cluster the domain slider.
void FabricPanel::side_header(Side& s, const char* id) {
  const hw::System& sys = s.system;
  ImGui::Text("%s", sys.display_name.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s, %d chips per scale-up domain%s", sys.fabric.c_str(), sys.chips_per_domain,
                      sys.domains > 1 ? (", " + fmt::count(sys.domains) + " domains over EFA").c_str() : "");
  if (s.layout.domains <= 1) return;
  // Any domain of a cluster: its chips, links and its part of the collective.
  int d = s.domain;
  ImGui::SetNextItemWidth(std::min(220.0f, ImGui::GetContentRegionAvail().x));
  const std::string format = "domain %d of " + std::to_string(s.layout.domains);
  if (ImGui::SliderInt((std::string("##domain") + id).c_str(), &d, 0, s.layout.domains - 1, format.c_str(),
                       ImGuiSliderFlags_AlwaysClamp | (s.layout.domains > 64 ? ImGuiSliderFlags_Logarithmic : 0)))
    s.domain = d;
  probe((std::string("fabric:domain:") + id).c_str());
  help_marker("The scale-up domain (UltraServer) drawn. A group that fits in one domain runs in every domain "
              "(its copy in this one is drawn); a group spanning domains shows its flows in, out of and inside this one.");
  ImGui::SameLine();
  ImGui::TextDisabled("chips %s-%s", fmt::count(s.layout.first_chip).c_str(),
                      fmt::count(s.layout.first_chip + sys.chips_per_domain - 1).c_str());
  probe((std::string("fabric:domain-chips:") + id).c_str());
}

void FabricPanel::draw_side(Side& s, const char* id, ImVec2 size) {
  ImGui::BeginChild(id, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  side_header(s, id);
  if (!s.layout.error.empty()) {
    dim_text("%s", s.layout.error.c_str());
    ImGui::EndChild();
    return;
  }
  request_summary(s);

  // The drawing area.
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() + 8;
  const ImVec2 area(avail.x, std::max(60.0f, avail.y - legend_h));
  ImGui::InvisibleButton("canvas", area);
  probe((std::string("fabric:") + id).c_str());
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + area.x, p0.y + area.y), IM_COL32(16, 18, 22, 255));

  const FabricGeometry g(s.layout, s.loads.traffic, p0, area);
  const Hit hit = hovered ? hit_test(s.layout, g, ImGui::GetIO().MousePos) : Hit{};
  const std::set<long> members(s.loads.members.begin(), s.loads.members.end());
  fill_canvas(s, g, hit, members);
  dl->PushClipRect(p0, ImVec2(p0.x + area.x, p0.y + area.y), true);
  s.canvas.submit(dl);
  dl->PopClipRect();
  fabric_tooltip(s, hit, members);
  fabric_legend(dl, area.x, legend_h);
  ImGui::EndChild();
}

collective::Request FabricPanel::custom_request() {
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
  const int max_ranks = std::max(2, std::max(sides_[0].system.chips_per_domain, sides_[1].system.chips_per_domain));
  slider_int_log("ranks", &custom_ranks_, 2, max_ranks);
  probe("fabric:ranks");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(130);
  if (ImGui::BeginCombo("algorithm", algos[custom_algo_].c_str())) {
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (ImGui::Selectable(algos[i].c_str(), i == custom_algo_)) custom_algo_ = i;
    ImGui::EndCombo();
  }
  collective::Request r;
  r.op = ops[custom_op_];
  r.algo = algos[custom_algo_];
  r.bytes = custom_bytes_;
  r.ranks = custom_ranks_;
  return r;
}

// The requests of both sides: the chosen workload collective (the right side's own
// operator of the same name when it runs the workload) or the custom one.
void FabricPanel::choose_requests(const Report& rep, collective::Request& a, collective::Request& b) {
  const std::vector<WorkloadCollective> ops_a =
      rep.primary.result ? workload_collectives(*rep.primary.result) : std::vector<WorkloadCollective>();
  std::vector<WorkloadCollective> ops_b;
  if (rep.compare && rep.compare->result && right_override_.empty()) ops_b = workload_collectives(*rep.compare->result);
  if (ops_a.empty() && mode_ == 0) mode_ = 1;
  if (mode_ == 1 || ops_a.empty()) {
    a = b = custom_request();
    return;
  }
  const WorkloadCollective* chosen = nullptr;
  for (const auto& o : ops_a)
    if (o.label == step_name_) chosen = &o;
  if (!chosen) chosen = default_collective(ops_a, sides_[0].system.chips_per_domain);
  step_name_ = chosen->label;
  ImGui::SetNextItemWidth(std::min(420.0f, ImGui::GetContentRegionAvail().x));
  if (ImGui::BeginCombo("collective", chosen->label.c_str())) {
    for (const auto& o : ops_a) {
      const std::string item = o.label + "  (" + o.request.op + ", " + fmt::bytes(o.request.bytes) + ", " +
                               std::to_string(o.request.ranks) + " chips; " + fmt::time(o.total_s) + " in its phase)";
      if (ImGui::Selectable(item.c_str(), o.label == step_name_)) step_name_ = o.label;
    }
    ImGui::EndCombo();
  }
  probe("fabric:collective");
  a = b = chosen->request;
  bool found = false;
  for (const auto& o : ops_b)
    if (o.label == chosen->label) b = o.request, found = true;
  sides_[1].note = found ? "the same operator of the workload on this system"
                         : "the left side's request (this system's workload has no such operator)";
}

void FabricPanel::draw(App& app) {
  const Report& rep = app.report();
  // Left: the scenario's system. Right: the comparison system, or another to set it beside.
  set_system(sides_[0], rep.primary.system);
  const std::string right_name = !right_override_.empty() ? right_override_ : other_system(rep.scenario.system);
  const hw::System* right = rep.compare && right_override_.empty() ? &rep.compare->system : nullptr;
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

  ImGui::RadioButton("the workload's collectives", &mode_, 0);
  probe("fabric:mode-step");
  ImGui::SameLine();
  ImGui::RadioButton("a custom collective", &mode_, 1);
  probe("fabric:mode-custom");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(240);
  const std::string right_preview = right_override_.empty() ? "right: " + sides_[1].system.display_name : right_override_;
  if (ImGui::BeginCombo("##right", right_preview.c_str())) {
    if (ImGui::Selectable("the scenario's comparison (or the other fabric)", right_override_.empty())) right_override_.clear();
    for (const auto& c : system_choices())
      if (ImGui::Selectable(c.name.c_str(), c.name == right_override_)) right_override_ = c.name;
    ImGui::EndCombo();
  }
  probe("fabric:right-system");
  help_marker("The right-hand side: by default the scenario's comparison system (Trn2's 3D torus beside Trn3's "
              "NeuronSwitch), or any other system.");

  collective::Request req_a, req_b;
  sides_[0].note.clear();
  sides_[1].note.clear();
  choose_requests(rep, req_a, req_b);
  // A group larger than a side's system is trimmed to it.
  for (int i = 0; i < 2; ++i) {
    std::string note;
    const collective::Request r = fit_request(i == 0 ? req_a : req_b, sides_[i].system, note);
    if (!note.empty()) sides_[i].note = note;
    update_loads(sides_[i], r);
  }

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float w = (avail.x - ImGui::GetStyle().ItemSpacing.x) / 2;
  draw_side(sides_[0], "left", ImVec2(w, avail.y));
  ImGui::SameLine();
  draw_side(sides_[1], "right", ImVec2(w, avail.y));
  if (!FabricCanvas::gl_error().empty() && ImGui::IsItemHovered())
    ImGui::SetTooltip("GPU shaders unavailable (%s): drawn without them", FabricCanvas::gl_error().c_str());
}

}  // namespace

std::unique_ptr<Panel> make_fabric_panel() { return std::make_unique<FabricPanel>(); }
TRNSIM_PANEL(make_fabric_panel);

}  // namespace trnsim::ui
