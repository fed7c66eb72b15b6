// The Serving panel: the scenario served as a stream of requests by the core's simulator
// (core/serve, `trnsim serve`), in the page -- latency percentiles and their distribution,
// batch and KV occupancy over time, time per token over a long response, what the KV
// precision buys and where the KV cache stops fitting, agentic turns with and without prefix
// reuse, and goodput versus request rate (the rate search, on demand). The run is the same
// report `trnsim serve --json` prints (ui/view/serving_view.h keeps it per scenario and keeps
// the step model while only the traffic changes). Edit the "Serving" sections of the
// Scenario panel to change arrivals, lengths, the server or the targets.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "report/serving.h"
#include "ui/app.h"
#include "ui/plot.h"
#include "ui/view/serving_view.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

const float kPlotHeight = 190;

Axis time_axis(double end_s) {
  Axis a;
  a.lo = 0;
  a.hi = end_s > 0 ? end_s : 1;
  a.label = "time since the first arrival";
  a.fmt = [](double v) { return fmt::time(v); };
  return a;
}

// A polyline through (x[i], y[i]) in a plot.
void polyline(const PlotFrame& p, const std::vector<double>& x, const std::vector<double>& y, ImU32 colour) {
  for (std::size_t i = 1; i < x.size() && i < y.size(); ++i)
    p.draw_list()->AddLine(p.to_screen(x[i - 1], y[i - 1]), p.to_screen(x[i], y[i]), colour, 2);
}

// Colour swatches with names, on one line.
void legend(const std::vector<std::pair<const char*, int>>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) ImGui::SameLine();
    ImGui::ColorButton((std::string("##lg") + entries[i].first).c_str(),
                       ImGui::ColorConvertU32ToFloat4(series_colour(entries[i].second)), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(10, 10));
    ImGui::SameLine(0, 3);
    ImGui::TextUnformatted(entries[i].first);
  }
}

void latency_table(const serve::Result& r) {
  if (!ImGui::BeginTable("serving-latency", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("");
  for (const char* h : {"mean", "p50", "p90", "p99", "max"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& row : serve::latency_rows(r)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.name.c_str());
    for (const auto& c : row.cells) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.c_str());
    }
  }
  ImGui::EndTable();
  probe("serving:latency");
  const json defs = serve::result_to_json(r)["serve"]["definitions"];
  dim_text("TTFT: %s. TPOT: %s. ITL: %s.", defs["ttft"].get<std::string>().c_str(),
           defs["tpot"].get<std::string>().c_str(), defs["itl"].get<std::string>().c_str());
}

// Histograms of TTFT and TPOT per request on a shared log axis of seconds.
void distributions(const serve::Result& r) {
  const serve::Histogram* hs[] = {&r.ttft_histogram, &r.tpot_histogram};
  double lo = 0, hi = 0, top = 1;
  for (const auto* h : hs) {
    if (h->edges.empty()) continue;
    lo = lo == 0 ? h->edges.front() : std::min(lo, h->edges.front());
    hi = std::max(hi, h->edges.back());
    for (auto c : h->counts) top = std::max(top, double(c));
  }
  if (!(hi > lo && lo > 0)) return;
  Axis ax, ay;
  ax.lo = lo / 1.2;
  ax.hi = hi * 1.2;
  ax.log = true;
  ax.label = "latency per request";
  ax.fmt = [](double v) { return fmt::time(v); };
  ay.lo = 0;
  ay.hi = top * 1.1;
  ay.label = "requests";
  PlotFrame plot("serving-dist", ImVec2(0, kPlotHeight), ax, ay, "Distribution of TTFT and TPOT (per request)");
  probe("serving:distribution");
  plot.push_clip();
  for (int k = 0; k < 2; ++k) {
    const auto& h = *hs[k];
    for (std::size_t i = 0; i < h.counts.size(); ++i)
      if (h.counts[i])
        plot.draw_list()->AddRectFilled(plot.to_screen(h.edges[i], double(h.counts[i])), plot.to_screen(h.edges[i + 1], 0),
                                        series_colour(k, 0.55f));
  }
  plot.pop_clip();
  legend({{"TTFT", 0}, {"TPOT", 1}});
}

// Lines over a shared x axis, with a legend under the plot.
struct Line {
  const char* name;
  int colour;
  std::vector<double> y;
};
void line_plot(const char* id, const char* title, const Axis& ax, const Axis& ay, const std::vector<double>& x,
               const std::vector<Line>& lines) {
  PlotFrame plot(id, ImVec2(0, kPlotHeight), ax, ay, title);
  probe(id);
  plot.push_clip();
  for (const auto& l : lines) polyline(plot, x, l.y, series_colour(l.colour));
  plot.pop_clip();
  std::vector<std::pair<const char*, int>> entries;
  for (const auto& l : lines) entries.push_back({l.name, l.colour});
  legend(entries);
}

void over_time(const serve::Result& r) {
  if (r.series.empty()) return;
  std::vector<double> t;
  Line run{"running", 0, {}}, wait{"waiting", 3, {}}, kv{"held by sequences", 2, {}}, cache{"cached, evictable", 5, {}};
  double top = 1;
  for (const auto& p : r.series) {
    t.push_back((p.t0_s + p.t1_s) / 2);
    run.y.push_back(p.running / r.replicas);
    wait.y.push_back(p.waiting / r.replicas);
    kv.y.push_back(100 * p.kv_fraction);
    cache.y.push_back(100 * p.cache_fraction);
    top = std::max({top, run.y.back(), wait.y.back()});
  }
  const Axis ax = time_axis(r.duration_s);
  Axis ay, ak;
  ay.hi = top * 1.1;
  ay.label = "sequences per replica";
  line_plot("serving:batch", "Batch (running) and queue (waiting) per replica", ax, ay, t, {run, wait});
  ak.hi = 100;
  ak.label = "% of the KV budget";
  ak.fmt = [](double v) { return fmt::fixed(v, 0) + "%"; };
  line_plot("serving:kv", "KV cache: held by sequences, and cached blocks (evictable)", ax, ak, t, {kv, cache});
}

void over_response(const serve::Result& r) {
  if (r.positions.size() < 2) return;
  std::vector<double> x;
  Line per_token{"time per token", 4, {}};
  double top = 0;
  for (const auto& p : r.positions) {
    x.push_back((p.from + p.to) / 2);
    per_token.y.push_back(p.time_per_token_s);
    top = std::max(top, p.time_per_token_s);
  }
  Axis ax, ay;
  ax.hi = r.positions.back().to;
  ax.label = "output token";
  ax.fmt = [](double v) { return fmt::count(v); };
  ay.hi = top * 1.2;
  ay.label = "time per token";
  ay.fmt = [](double v) { return fmt::time(v); };
  line_plot("serving:positions", "Time per token over the length of a response", ax, ay, x, {per_token});
  dim_text("The mean gap before the tokens at each position (every 16th token sampled). Where few responses are that "
           "long the batch producing them is smaller; the tables below hold the batch full.");
}

// A table of the core's formatted cells under these headers; `probe_id` names it for the page's tests.
void cell_table(const char* id, const char* probe_id, std::initializer_list<const char*> headers,
                const serve::TableRows& rows) {
  if (!ImGui::BeginTable(id, static_cast<int>(headers.size()), ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : headers) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& row : rows) {
    ImGui::TableNextRow();
    for (const auto& c : row) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.c_str());
    }
  }
  ImGui::EndTable();
  if (probe_id) probe(probe_id);
}

void kv_tables(const serve::Result& r) {
  cell_table("serving-kv-precision", "serving:kv-precision",
             {"KV cache", "bytes/token/chip", "sequences that fit", "batch", "decode step", "tokens/s/chip"},
             serve::kv_precision_rows(r));
  dim_text("At %s tokens (the mean request at its end). As the context grows, a full batch:",
           fmt::count(double(r.reference_input_tokens + r.reference_output_tokens)).c_str());
  cell_table("serving-contexts", nullptr, {"context", "sequences that fit", "batch", "decode step", "tokens/s/chip"},
             serve::context_rows(r));
}

void sessions(const serve::Result& r) {
  if (r.sessions == 0) return;
  section("Agentic sessions: TTFT per turn, with the prefix cache and without");
  ImGui::Text("%zu sessions; KV held at a session's last call %s per chip (p90 %s)", r.sessions,
              fmt::bytes(r.session_kv_bytes_mean).c_str(), fmt::bytes(r.session_kv_bytes_p90).c_str());
  cell_table("serving-turns", "serving:turns", {"turn", "calls", "TTFT p50", "without reuse", "prompt cached"}, serve::turn_rows(r));
}

class ServingPanel : public Panel {
 public:
  const char* name() const override { return "Serving"; }
  void draw(App& app) override;

 private:
  void goodput(App& app);
  ServingRunner runner_;
  bool want_curve_ = false;  // the search was asked for this scenario
  int curve_frames_ = 0;
  std::uint64_t curve_generation_ = 0;
};

void ServingPanel::goodput(App& app) {
  section("Goodput versus request rate");
  const Scenario& s = app.scenario();
  if (curve_generation_ != app.generation()) want_curve_ = false;  // a new scenario: search again on request
  curve_generation_ = app.generation();
  if (!s.serve.targets.ttft_s && !s.serve.targets.tpot_s) {
    dim_text("Set a TTFT or TPOT target (Scenario panel, Serving: targets) to search the highest rate that meets it.");
    return;
  }
  if (!want_curve_) {
    if (ImGui::Button("Search the highest rate that meets the targets")) want_curve_ = true, curve_frames_ = 0;
    probe("serving:find-rate");
    dim_text("The rate search of `trnsim serve --find-rate` (at most 2,000 requests per probe here).");
    return;
  }
  if (curve_frames_++ < 1) {  // say what is coming before the frame that computes it
    dim_text("Searching...");
    return;
  }
  const ServingRun& c = runner_.goodput_curve(s);
  if (!c.error.empty()) {
    error_text(c.error);
    return;
  }
  const serve::Result& r = *c.result;
  ImGui::Text("Highest rate with %s of requests meeting the targets: %s requests/s (%zu runs, %s)",
              fmt::percent(r.target_fraction, 0).c_str(), fmt::significant(r.max_rate, 4).c_str(), r.probes.size(),
              fmt::time(c.ms / 1000).c_str());
  probe("serving:max-rate");
  ImGui::TextDisabled("there, in steady state: %s output tokens/s per chip, %s per rack (%d chips), %s per MW, $%s per million",
                      fmt::number(r.max_rate_tokens_per_s_per_chip).c_str(),
                      fmt::number(r.max_rate_tokens_per_s_per_domain).c_str(), r.chips_per_domain,
                      fmt::number(r.max_rate_tokens_per_s_per_megawatt).c_str(),
                      fmt::fixed(r.max_rate_usd_per_million_tokens, 3).c_str());
  if (r.probes.size() < 2) return;
  Axis ax, ay;
  ax.lo = 0;
  ax.hi = r.probes.back().rate * 1.05;
  ax.label = "request rate (requests/s)";
  ay.lo = 0;
  ay.hi = 100;
  ay.label = "% of requests meeting both targets";
  ay.fmt = [](double v) { return fmt::fixed(v, 0) + "%"; };
  PlotFrame plot("serving-goodput", ImVec2(0, kPlotHeight), ax, ay, "Attainment and goodput versus request rate");
  plot.push_clip();
  std::vector<double> x, att, good;
  double top = 0;
  for (const auto& p : r.probes) top = std::max(top, p.goodput_rps);
  for (const auto& p : r.probes) {
    x.push_back(p.rate);
    att.push_back(100 * p.attainment);
    good.push_back(top > 0 ? 100 * p.goodput_rps / top : 0);
  }
  polyline(plot, x, att, series_colour(0));
  polyline(plot, x, good, series_colour(2));
  plot.draw_list()->AddLine(plot.to_screen(ax.lo, 100 * r.target_fraction), plot.to_screen(ax.hi, 100 * r.target_fraction),
                            IM_COL32(230, 230, 120, 160), 1);
  plot.draw_list()->AddLine(plot.to_screen(r.max_rate, 0), plot.to_screen(r.max_rate, 100), IM_COL32(230, 230, 120, 160), 1);
  plot.pop_clip();
  legend({{"attainment", 0}, {"goodput (% of its highest)", 2}});
}

void ServingPanel::draw(App& app) {
  ImGui::TextWrapped("The scenario served as a stream of requests (`trnsim serve`): arrivals, continuous batching, "
                     "chunked prefill, the KV budget and prefix cache, each step priced like the Report. The "
                     "Scenario panel's Serving sections set the traffic, the server and the targets.");
  if (app.interacting()) {
    dim_text("(the simulation runs when the edit ends)");
    return;
  }
  const ServingRun& run = runner_.run(app.scenario());
  if (!run.error.empty()) {
    error_text(run.error);
    return;
  }
  const serve::Result& r = *run.result;
  ImGui::Text("%s: %d replica%s x %d chip%s, stack %s. %s", r.system_display_name.c_str(), r.replicas,
              r.replicas > 1 ? "s" : "", r.chips_per_replica, r.chips_per_replica > 1 ? "s" : "", r.stack.c_str(),
              r.source.c_str());
  dim_text("%zu requests measured, %lld rejected, %lld preemptions; %s simulated in %.1f ms%s", r.requests,
           static_cast<long long>(r.rejected), static_cast<long long>(r.preemptions), fmt::time(r.duration_s).c_str(),
           run.ms, run.reused_model ? " (step shapes from the last run)" : "");
  probe("serving:summary");
  section("Latency");
  latency_table(r);
  distributions(r);
  section("Figures");
  const auto figures = serve::headline_figures(r);
  float column = ImGui::GetFontSize() * 18;  // the values' column: past the longest label
  for (const auto& f : figures) column = std::max(column, ImGui::CalcTextSize(f.first.c_str()).x + ImGui::GetFontSize());
  for (const auto& [label, text] : figures) {
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine(column);
    ImGui::TextUnformatted(text.c_str());
  }
  dim_text("Zero load: TTFT %s, TPOT %s; `trnsim run` at batch 1: %s, %s. Little's law: %.3f in the system = %.3f.",
           fmt::time(r.zero_load_ttft_s).c_str(), fmt::time(r.zero_load_tpot_s).c_str(), fmt::time(r.run_ttft_s).c_str(),
           fmt::time(r.run_tpot_s).c_str(), r.little_l, r.little_lambda_w);
  section("Occupancy over time");
  over_time(r);
  section("Long responses: time per token and the KV cache");
  over_response(r);
  kv_tables(r);
  sessions(r);
  goodput(app);
  for (const auto& n : r.notes) dim_text("note: %s", n.c_str());
}

}  // namespace

std::unique_ptr<Panel> make_serving_panel() { return std::make_unique<ServingPanel>(); }
TRNSIM_PANEL(make_serving_panel);

}  // namespace trnsim::ui
