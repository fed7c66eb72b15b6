// The Video panel (kind video): where one clip's time goes -- text encoding, the denoising
// steps, the VAE decode -- on the scenario's system and the comparison system, and the
// real-time factor against the number of sequence-parallel chips (the result's scaling
// curve: tp and cfg as given, Ulysses then ring degrees doubling up to the scale-up domain),
// with real time (1.0) marked. Clicking a point of the curve applies that placement. An image
// model (FLUX, Qwen-Image) shows time per image, images per chip-hour and the cost of a
// thousand images instead of the real-time figures and curve. For other kinds it offers the
// bundled video and image examples.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/app.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

// The clip's phases as fractions of its time, with the times in the tooltips.
void phase_bar(const char* id, const workload::VideoResult& v) {
  const double total = std::max(1e-30, v.video_s);
  const double denoise = v.denoise_s;
  const float f[3] = {static_cast<float>(v.text_s / total), static_cast<float>(denoise / total),
                      static_cast<float>(v.vae_s / total)};
  const char* labels[3] = {"text encoding", "denoising", "VAE decode"};
  const std::string tips[3] = {fmt::time(v.text_s), std::to_string(v.steps) + " steps: " + fmt::time(denoise),
                               fmt::time(v.vae_s)};
  const char* t[3] = {tips[0].c_str(), tips[1].c_str(), tips[2].c_str()};
  const ImU32 cols[3] = {series_colour(0, 0.9f), series_colour(1, 0.9f), series_colour(2, 0.9f)};
  stacked_bar(id, f, labels, cols, 3, -1, ImGui::GetFrameHeight(), t);
}

void figures_table(const SystemReport& a, const SystemReport* b) {
  const bool two = b && b->result && b->result->kind() == workload::Kind::video;
  if (!ImGui::BeginTable("video-figures", two ? 3 : 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("figure", 0, 1.3f);
  ImGui::TableSetupColumn(a.system.display_name.c_str(), 0, 1.0f);
  if (two) ImGui::TableSetupColumn(b->system.display_name.c_str(), 0, 1.0f);
  ImGui::TableHeadersRow();
  const workload::VideoResult& x = a.result->video();
  const workload::VideoResult* y = two ? &b->result->video() : nullptr;
  auto row = [&](const char* label, const std::string& va, const std::string& vb, const char* probe_id) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(label);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(va.c_str());
    probe(probe_id);
    if (two) {
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(vb.c_str());
    }
  };
  auto both = [&](const char* label, double workload::VideoResult::*f, const char* probe_id) {
    row(label, fmt::time(x.*f), y ? fmt::time(y->*f) : "", probe_id);
  };
  if (x.image) both("time per image", &workload::VideoResult::image_s, "video:time-per-image");
  both(x.image ? "time per pass (the batch)" : "time per video", &workload::VideoResult::video_s, "video:time-per-video");
  both("  text encoding", &workload::VideoResult::text_s, "video:text");
  both("  denoising (all steps)", &workload::VideoResult::denoise_s, "video:denoise");
  both("  VAE decode", &workload::VideoResult::vae_s, "video:vae");
  both("per denoising step", &workload::VideoResult::step_s, "video:step");
  if (x.image) {
    row("images per chip-hour", fmt::general(x.images_per_chip_hour, 4), y ? fmt::general(y->images_per_chip_hour, 4) : "",
        "video:images-per-chip-hour");
    row("USD per 1,000 images", "$" + fmt::fixed(x.usd_per_thousand_images, 3),
        y ? "$" + fmt::fixed(y->usd_per_thousand_images, 3) : "", "video:usd-per-thousand-images");
  } else {
    row("real-time factor", fmt::general(x.real_time_factor, 3), y ? fmt::general(y->real_time_factor, 3) : "", "video:rtf");
    row("chips for a real-time stream", fmt::count(x.chips_for_real_time), y ? fmt::count(y->chips_for_real_time) : "",
        "video:chips-real-time");
  }
  row("attention share of a step", fmt::percent(x.attention_time_share), y ? fmt::percent(y->attention_time_share) : "",
      "video:attention-share");
  ImGui::EndTable();
}

// log2 chips against log10 real-time factor, one curve per system, real time dashed.
class VideoPanel : public Panel {
 public:
  const char* name() const override { return "Video"; }
  void draw(App& app) override {
    const Report& rep = app.report();
    const SystemReport& a = rep.primary;
    if (!a.result || a.result->kind() != workload::Kind::video) {
      offer_examples(app);
      return;
    }
    const workload::Result& r = *a.result;
    const workload::VideoResult& x = r.video();
    const SystemReport* b = rep.compare && rep.compare->result && rep.compare->result->kind() == workload::Kind::video ? &*rep.compare : nullptr;
    if (x.image)
      ImGui::TextWrapped("%s: %dx%d images, batch %d, %d steps, guidance %s; %s image tokens per joint attention",
                         x.model_name.c_str(), x.width, x.height, x.batch, x.steps, x.guidance.c_str(),
                         fmt::count(x.video_tokens).c_str());
    else
      ImGui::TextWrapped("%s: %dx%d, %d frames at %s fps (%s of video), %d steps, guidance %s; %s video tokens per "
                         "self-attention",
                         x.model_name.c_str(), x.width, x.height, x.frames, fmt::general(x.fps, 3).c_str(),
                         fmt::time(x.duration_s).c_str(), x.steps, x.guidance.c_str(), fmt::count(x.video_tokens).c_str());
    ImGui::TextDisabled("placement: tp %d x Ulysses %d x ring %d x cfg %d = %d chips per replica", x.tp, x.ulysses, x.ring,
                        x.cfg, x.chips_per_replica);
    figures_table(a, b);
    ImGui::TextDisabled("%s: where the %s's time goes", a.system.display_name.c_str(), x.image ? "image" : "clip");
    phase_bar("phases-a", x);
    if (b) {
      ImGui::TextDisabled("%s", b->system.display_name.c_str());
      phase_bar("phases-b", b->result->video());
    }
    ImGui::Spacing();
    if (x.image) {
      ImGui::TextDisabled("An image has no real-time factor; trnsim run prints its time against sequence-parallel chips.");
      return;
    }
    curve(app, r, b ? &*b->result : nullptr, a.system.display_name, b ? b->system.display_name : "");
  }

 private:
  // For other kinds: the bundled video examples priced on the scenario's system (cached per
  // scenario generation), each one click away.
  void offer_examples(App& app) {
    ImGui::TextWrapped("The Video panel shows a video-generation scenario (workload kind \"video\" with a video "
                       "or image model). The bundled video and image examples on %s:",
                       app.report().primary.system.display_name.c_str());
    if (preview_generation_ != app.generation()) {
      preview_.clear();
      for (const auto& e : examples()) {
        if (!e.scenario.contains("workload") || e.scenario["workload"].value("kind", "") != "video") continue;
        Preview p{&e, {}, ""};
        try {
          Scenario s = scenario_from_json(e.scenario);
          s.system = app.scenario().system;
          s.compare_system.clear();
          p.result = trnsim::evaluate(s).primary.result;
        } catch (const InputError& err) {
          p.error = err.what();
        }
        preview_.push_back(std::move(p));
      }
      preview_generation_ = app.generation();
    }
    if (ImGui::BeginTable("video-examples", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("example", 0, 3.2f);
      for (const char* h : {"time per video", "per step", "real-time factor", "chips"}) ImGui::TableSetupColumn(h, 0, 0.9f);
      ImGui::TableHeadersRow();
      for (const auto& p : preview_) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (ImGui::Button(p.example->title.c_str())) app.set_scenario_json(p.example->scenario, p.example->key);
        probe(("video:example:" + p.example->stem).c_str());
        if (!p.result) {
          ImGui::TableSetColumnIndex(1);
          error_text(p.error);
          continue;
        }
        const auto& v = p.result->video();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted((fmt::time(v.image ? v.image_s : v.video_s) + (v.image ? " an image" : "")).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(fmt::time(v.step_s).c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(v.image ? "-" : fmt::general(v.real_time_factor, 3).c_str());
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(fmt::count(v.chips_per_replica).c_str());
      }
      ImGui::EndTable();
    }
    for (const auto& p : preview_)
      if (p.result) {
        ImGui::TextDisabled("%s:", p.example->title.c_str());
        phase_bar(("preview-" + p.example->stem).c_str(), p.result->video());
      }
  }

  struct Preview {
    const Example* example = nullptr;
    std::optional<workload::Result> result;
    std::string error;
  };
  std::vector<Preview> preview_;
  std::uint64_t preview_generation_ = ~std::uint64_t(0);

  void curve(App& app, const workload::Result& r, const workload::Result* rb, const std::string& name_a,
             const std::string& name_b) {
    const auto& pa = r.video().scaling;
    if (pa.empty()) return;
    double ylo = 1, yhi = 1, xhi = 1;
    auto extend = [&](const std::vector<workload::VideoScalingPoint>& pts) {
      for (const auto& p : pts) {
        ylo = std::min(ylo, p.real_time_factor);
        yhi = std::max(yhi, p.real_time_factor);
        xhi = std::max(xhi, double(p.chips));
      }
    };
    extend(pa);
    if (rb) extend(rb->video().scaling);
    Axis ax, ay;
    ax.log = ay.log = true;
    ax.lo = 1;
    ax.hi = std::pow(2.0, std::ceil(std::log2(xhi * 1.5)));
    ay.lo = std::pow(10.0, std::floor(std::log10(ylo * 0.7)));
    ay.hi = std::pow(10.0, std::ceil(std::log10(yhi * 1.5)));
    ax.label = "chips per replica (tp x sequence parallel x cfg)";
    ay.label = "real-time factor (compute s per video s)";
    ax.fmt = [](double v) { return fmt::general(v, 4); };
    ay.fmt = [](double v) { return fmt::general(v, 3); };
    PlotFrame plot("video-curve", ImVec2(0, std::max(220.0f, ImGui::GetContentRegionAvail().y - 40)), ax, ay,
                   "real-time factor against chips: click a point to use that placement");
    probe("video:curve");
    ImDrawList* dl = plot.draw_list();
    plot.push_clip();
    {  // real time: a dashed line at 1.0
      const ImU32 c = IM_COL32(120, 220, 120, 200);
      const float y = plot.sy(1.0);
      for (float px = plot.min().x; px < plot.max().x; px += 12) dl->AddLine(ImVec2(px, y), ImVec2(px + 6, y), c, 1.5f);
      dl->AddText(ImVec2(plot.min().x + 4, y - ImGui::GetTextLineHeight() - 1), c, "real time");
    }
    const workload::VideoScalingPoint* hit = nullptr;
    int hit_series = 0;
    float best = 12;
    auto series = [&](const std::vector<workload::VideoScalingPoint>& pts, int s, int current_chips) {
      const ImU32 c = series_colour(s);
      for (std::size_t i = 1; i < pts.size(); ++i)
        dl->AddLine(plot.to_screen(pts[i - 1].chips, pts[i - 1].real_time_factor),
                    plot.to_screen(pts[i].chips, pts[i].real_time_factor), series_colour(s, 0.7f), 2);
      for (const auto& p : pts) {
        const ImVec2 q = plot.to_screen(p.chips, p.real_time_factor);
        dl->AddCircleFilled(q, 4.5f, c, 16);
        if (p.chips == current_chips) dl->AddCircle(q, 8, c, 20, 2);
        if (plot.hovered()) {
          const ImVec2 m = plot.mouse();
          const float d = std::hypot(m.x - q.x, m.y - q.y);
          if (d < best) best = d, hit = &p, hit_series = s;
        }
      }
    };
    series(pa, 0, r.video().chips_per_replica);
    if (rb) series(rb->video().scaling, 1, rb->video().chips_per_replica);
    plot.pop_clip();
    {  // each point of the scenario's curve as a probe (the browser test clicks them)
      const ImVec2 after = ImGui::GetCursorScreenPos();
      for (const auto& p : pa) {
        const ImVec2 q = plot.to_screen(p.chips, p.real_time_factor);
        ImGui::SetCursorScreenPos(ImVec2(q.x - 4, q.y - 4));
        ImGui::Dummy(ImVec2(8, 8));
        probe(("video:point:" + std::to_string(p.chips)).c_str());
      }
      ImGui::SetCursorScreenPos(after);
    }
    ImGui::TextDisabled("series:");
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_colour(0)), "%s", name_a.c_str());
    if (rb) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series_colour(1)), "%s", name_b.c_str());
    }
    ImGui::SameLine();
    ImGui::TextDisabled("| ring: the scenario's placement");
    if (!hit) return;
    ImGui::BeginTooltip();
    ImGui::Text("%d chips: Ulysses %d x ring %d", hit->chips, hit->ulysses, hit->ring);
    ImGui::Text("step %s, video %s, real-time factor %s", fmt::time(hit->step_s).c_str(), fmt::time(hit->video_s).c_str(),
                fmt::general(hit->real_time_factor, 3).c_str());
    ImGui::TextDisabled("fabric %s of a step", fmt::percent(hit->fabric_share).c_str());
    ImGui::EndTooltip();
    if (hit_series == 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      json s = scenario_to_json(app.scenario());
      s["workload"]["video"]["ulysses"] = hit->ulysses;
      s["workload"]["video"]["ring"] = hit->ring;
      app.set_scenario_json(s, "the Video panel's curve");
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_video_panel() { return std::make_unique<VideoPanel>(); }
TRNSIM_PANEL(make_video_panel);

}  // namespace trnsim::ui
