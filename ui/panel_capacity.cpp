// The Capacity panel: the scenario's capacity plan (`trnsim capacity`, core/capacity) in the
// page -- per system the cheapest deployment meeting the serve targets at the offered load (its
// chips, price per hour, dollars per million tokens, tokens per second per megawatt, the TTFT
// and TPOT it reaches), the Pareto front of price against TTFT and TPOT (two plots and a table),
// and why each rejected family failed. The search runs a few families per frame
// (ui/view/capacity_view.h: the core's evaluate_range, one family at a time, folded as the CLI
// folds merged shards), with a progress bar and Cancel, so the single-threaded page keeps
// drawing; it starts when the tab is shown and again when the scenario changes. Every cell is
// the core's text (capacity::best_table, front_table, rejected_table: what the CLI prints), and
// window.trnsim.panelState("Capacity") returns the plan as `trnsim capacity --json` prints it.
// A scenario without a "capacity" object is told so and offered the bundled capacity examples.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "ui/app.h"
#include "ui/plot.h"
#include "ui/view/capacity_view.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

const float kCapacityPlotHeight = 240;

// A table of the core's cells; `scroll_rows` > 0 caps its height at that many rows (scrolling).
void capacity_cells(const char* id, const capacity::Table& t, int scroll_rows = 0) {
  if (t.rows.empty() || t.headers.empty()) return;
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV |
                          ImGuiTableFlags_ScrollX;
  const float row_h = ImGui::GetTextLineHeightWithSpacing() + 2;
  int shown = static_cast<int>(t.rows.size());
  if (scroll_rows > 0 && shown > scroll_rows) {
    flags |= ImGuiTableFlags_ScrollY;
    shown = scroll_rows;
  }
  const float height = row_h * float(shown + 1) + ImGui::GetStyle().ScrollbarSize + 4;
  if (!ImGui::BeginTable(id, static_cast<int>(t.headers.size()), flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (const auto& h : t.headers) ImGui::TableSetupColumn(h.c_str());
  ImGui::TableHeadersRow();
  for (const auto& row : t.rows) {
    ImGui::TableNextRow();
    for (const auto& c : row) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.c_str());
    }
  }
  ImGui::EndTable();
}

// Price per hour against one latency, every meeting family a dot in its system's colour, the
// front's ringed; hovering a dot names its configuration.
void capacity_front_plot(const char* id, const char* title, const capacity::Result& r, const CapacityPlot& p, bool ttft,
                float width) {
  Axis ax, ay;
  ax.lo = ttft ? p.ttft_lo : p.tpot_lo;
  ax.hi = ttft ? p.ttft_hi : p.tpot_hi;
  ax.log = true;
  ax.label = std::string(ttft ? "TTFT" : "TPOT") + " at " + capacity::percentile_text(r);
  ax.fmt = [](double v) { return fmt::time(v); };
  ay.lo = p.price_lo;
  ay.hi = p.price_hi;
  ay.log = true;
  ay.label = "price per hour";
  ay.fmt = [](double v) { return capacity::usd_text(v); };
  PlotFrame plot(id, ImVec2(width, kCapacityPlotHeight), ax, ay, title);
  probe(id);
  plot.push_clip();
  const CapacityPoint* hover = nullptr;
  float best = 8 * 8;
  for (int pass = 0; pass < 2; ++pass)  // the front on top
    for (const auto& pt : p.points) {
      if (pt.front != (pass == 1)) continue;
      const ImVec2 at = plot.to_screen(ttft ? pt.ttft_s : pt.tpot_s, pt.price_per_hour_usd);
      const int colour = static_cast<int>(pt.system);
      if (pt.front) {
        plot.draw_list()->AddCircleFilled(at, 4.5f, series_colour(colour));
        plot.draw_list()->AddCircle(at, 7.0f, IM_COL32(240, 240, 240, 220), 0, 1.5f);
      } else {
        plot.draw_list()->AddCircleFilled(at, 3.0f, series_colour(colour, 0.45f));
      }
      if (plot.hovered()) {
        const float dx = at.x - plot.mouse().x, dy = at.y - plot.mouse().y;
        if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hover = &pt;
      }
    }
  plot.pop_clip();
  if (hover) {
    const capacity::Outcome& o = r.outcomes[hover->outcome];
    ImGui::SetTooltip("%d x %s\n%s/h, %s/Mtok; TTFT %s, TPOT %s%s", o.replicas, o.family.label().c_str(),
                      capacity::usd_text(o.price_per_hour_usd).c_str(), capacity::usd_text(o.usd_per_million_tokens).c_str(),
                      fmt::time(o.ttft_s).c_str(), fmt::time(o.tpot_s).c_str(), hover->front ? " (on the front)" : "");
  }
}

void capacity_legend(const CapacityPlot& p) {
  for (std::size_t i = 0; i < p.systems.size(); ++i) {
    if (i) ImGui::SameLine();
    ImGui::ColorButton(("##cap-legend" + std::to_string(i)).c_str(),
                       ImGui::ColorConvertU32ToFloat4(series_colour(static_cast<int>(i))), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(10, 10));
    ImGui::SameLine(0, 3);
    ImGui::TextUnformatted(p.systems[i].c_str());
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(ringed: on the Pareto front of price, TTFT and TPOT)");
}

class CapacityPanel : public Panel {
 public:
  const char* name() const override { return "Capacity"; }
  void draw(App& app) override;
  std::string state_json() const override { return progress_.to_json().dump(); }
  bool busy() const override { return progress_.running(); }

 private:
  bool offer_examples(App& app);
  void show(const capacity::Result& r);

  CapacityProgress progress_;
  std::uint64_t generation_ = ~std::uint64_t(0);
  bool default_space_ = false;  // plan a scenario without a capacity object anyway (this generation)
};

// A scenario with no capacity object: say so, offer the bundled plans. True to plan it anyway.
bool CapacityPanel::offer_examples(App& app) {
  ImGui::TextWrapped("This scenario has no \"capacity\" object: no search space of its own. `trnsim capacity` would "
                     "search its default space (every built-in system of one scale-up domain, every tp dividing it, the "
                     "scenario's precisions, slots and stack). Open a capacity example:");
  for (const auto& e : examples()) {
    if (!e.scenario.contains("capacity")) continue;
    if (ImGui::Button(e.title.c_str())) app.set_scenario_json(e.scenario, e.key);
    probe(("capacity:example:" + e.stem).c_str());
  }
  if (ImGui::Button("Plan this scenario over the default space")) default_space_ = true;
  probe("capacity:default-space");
  return default_space_;
}

void CapacityPanel::show(const capacity::Result& r) {
  ImGui::TextUnformatted(capacity::summary_text(r).c_str());
  probe("capacity:summary");
  section(("Cheapest per system (latency at " + capacity::percentile_text(r) + ")").c_str());
  capacity_cells("capacity-best", capacity::best_table(r));
  probe("capacity:best");
  dim_text("Priced per chip at the chip's price per hour; $/Mtok and tokens/s per MW at the throughput the run served "
           "(all-in power). \"serve it as\" is the system to give `trnsim serve` for it.");
  section("Pareto front: price against TTFT and TPOT");
  const CapacityPlot p = capacity_plot(r);
  if (p.points.empty()) {
    dim_text("No family meets the targets.");
  } else {
    const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
    ImGui::BeginGroup();  // the title and the frame side by side with the other plot's
    capacity_front_plot("capacity:plot-ttft", "Price per hour vs TTFT", r, p, true, w);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    capacity_front_plot("capacity:plot-tpot", "Price per hour vs TPOT", r, p, false, w);
    ImGui::EndGroup();
    capacity_legend(p);
    capacity_cells("capacity-front", capacity::front_table(r), 12);
    probe("capacity:front");
  }
  const auto counts = capacity::rejected_counts(r);
  if (!counts.empty()) {
    section("Rejected families");
    std::string line;
    for (const auto& [why, n] : counts) line += (line.empty() ? "" : ", ") + why + ": " + std::to_string(n);
    ImGui::TextUnformatted(line.c_str());
    capacity_cells("capacity-rejected", capacity::rejected_table(r), 14);
    probe("capacity:rejected");
  }
}

void CapacityPanel::draw(App& app) {
  ImGui::TextWrapped("The cheapest deployment that meets the scenario's serve targets at its offered load "
                     "(`trnsim capacity`): for every family of the \"capacity\" search space -- system, tp / ep / pp, "
                     "precisions, batch slots, stack, batch policy -- the fewest replicas whose simulated run meets the "
                     "targets, after bounds that reject without simulating. docs/capacity.md.");
  const Scenario& s = app.scenario();
  if (generation_ != app.generation()) {
    generation_ = app.generation();
    default_space_ = false;
    if (progress_.state() != CapacityProgress::State::idle && !(progress_.scenario() == s))
      progress_ = CapacityProgress{};  // a new scenario: plan it afresh
  }
  if (!has_capacity_space(s) && !offer_examples(app)) return;
  if (progress_.state() == CapacityProgress::State::idle && !app.interacting()) progress_.start(s);
  if (progress_.running()) progress_.advance(0.03);  // ~30 ms of families a frame (at least one)

  switch (progress_.state()) {
    case CapacityProgress::State::idle:
      dim_text("(the plan starts when the edit ends)");
      return;
    case CapacityProgress::State::failed:
      error_text(progress_.error());
      probe("capacity:error");
      return;
    case CapacityProgress::State::running:
    case CapacityProgress::State::cancelled: {
      const std::string label = std::to_string(progress_.evaluated()) + " of " + std::to_string(progress_.total()) +
                                " families" + (progress_.running() ? "" : " (cancelled)");
      ImGui::ProgressBar(float(progress_.fraction()), ImVec2(360, 0), label.c_str());
      probe("capacity:progress");
      ImGui::SameLine();
      if (progress_.running()) {
        if (ImGui::Button("Cancel")) progress_.cancel();
        probe("capacity:cancel");
      } else {
        if (ImGui::Button("Plan again")) progress_.start(s);
        probe("capacity:restart");
      }
      const auto& o = progress_.outcomes();
      const long meets = std::count_if(o.begin(), o.end(), [](const capacity::Outcome& x) { return x.meets; });
      dim_text("So far %ld meet the targets, %ld rejected; %s of searching.", meets, static_cast<long>(o.size()) - meets,
               fmt::time(progress_.busy_ms() / 1000).c_str());
      return;
    }
    case CapacityProgress::State::done:
      dim_text("%zu families searched in %s.", progress_.total(), fmt::time(progress_.busy_ms() / 1000).c_str());
      probe("capacity:done");
      show(*progress_.result());
      return;
  }
}

}  // namespace

std::unique_ptr<Panel> make_capacity_panel() { return std::make_unique<CapacityPanel>(); }
TRNSIM_PANEL(make_capacity_panel);

}  // namespace trnsim::ui
