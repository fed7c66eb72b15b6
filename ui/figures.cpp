#include "ui/figures.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/format.h"
#include "ui/widgets.h"

namespace trnsim::ui {

std::vector<Figure> key_figures(const workload::Result& r) {
  std::vector<Figure> f;
  auto add = [&](const char* label, double v, std::string text, bool higher, const char* help) {
    f.push_back(Figure{label, v, std::move(text), higher, help});
  };
  if (r.kind == "inference") {
    add("time to first token", r.ttft_s, fmt_time(r.ttft_s), false, "prefill of one request, all pipeline stages");
    add("time per output token", r.tpot_s, fmt_time(r.tpot_s), false, "one decode step of a micro-batch at the mean context");
    add("request latency", r.request_latency_s, fmt_time(r.request_latency_s), false,
        "own prefill + decode + the other streams' prefills (continuous batching)");
    add("output tokens/s per chip", r.output_tokens_per_s_per_chip, fmt_count(r.output_tokens_per_s_per_chip), true,
        "prefills included");
    add("output tokens/s per system", r.output_tokens_per_s_per_system, fmt_count(r.output_tokens_per_s_per_system), true,
        "every replica that fits the system");
  } else {
    add("step time", r.step_time_s, fmt_time(r.step_time_s), false, "one optimizer step of the global batch");
    add("training tokens/s", r.training_tokens_per_s, fmt_si(r.training_tokens_per_s, ""), true, "whole placement");
    add("tokens/s per chip", r.training_tokens_per_s_per_chip, fmt_count(r.training_tokens_per_s_per_chip), true, "");
    add("MFU", r.mfu, fmt_percent(r.mfu), true, "model FLOPs / (chips x peak x step time)");
    add("HFU", r.hfu, fmt_percent(r.hfu), true, "hardware FLOPs (recompute included) / peak");
    add("pipeline bubble", r.pipeline_bubble_fraction, fmt_percent(r.pipeline_bubble_fraction), false, "1F1B: (pp-1)/(m+pp-1)");
  }
  add("chips used", r.chips_used, fmt_count(r.chips_used) + " of " + fmt_count(r.system_chips), false, "tp x pp x dp");
  add("HBM used per chip", r.hbm_used_bytes,
      fmt_bytes(r.hbm_used_bytes) + " of " + fmt_bytes(r.hbm_capacity_bytes), false, "weights, KV cache, activations, reserve");
  add("tokens/s per MW", r.tokens_per_s_per_megawatt, fmt_count(r.tokens_per_s_per_megawatt), true,
      "all-in power: chips + hosts, times PUE");
  char usd[64];
  std::snprintf(usd, sizeof usd, "$%.3f", r.usd_per_million_tokens);
  add("cost per million tokens", r.usd_per_million_tokens, usd, false, "at the scenario's price per chip-hour");
  add("compute share", r.compute_share, fmt_percent(r.compute_share), true, "share of the headline time");
  add("HBM share", r.hbm_share, fmt_percent(r.hbm_share), false, "");
  add("fabric share", r.fabric_share, fmt_percent(r.fabric_share), false, "");
  add("kernel overhead share", r.overhead_share, fmt_percent(r.overhead_share), false, "");
  return f;
}

void figure_rows(const std::vector<Figure>& a, const std::vector<Figure>* b, bool a_over_b, const char* probe_prefix) {
  for (const auto& fa : a) {
    const Figure* fb = nullptr;
    if (b)
      for (const auto& x : *b)
        if (x.label == fa.label) fb = &x;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(fa.label.c_str());
    if (!fa.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", fa.help.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(fa.text.c_str());
    if (probe_prefix) probe((std::string(probe_prefix) + fa.label).c_str());
    if (!b) continue;
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(fb ? fb->text.c_str() : "-");
    ImGui::TableSetColumnIndex(3);
    if (fb && fa.value > 0 && fb->value > 0) {
      double r = a_over_b ? fa.value / fb->value : fb->value / fa.value;
      bool better = fa.higher_is_better ? r > 1.0005 : r < 0.9995;
      bool worse = fa.higher_is_better ? r < 0.9995 : r > 1.0005;
      ImVec4 c = better ? ImVec4(0.45f, 0.85f, 0.5f, 1) : worse ? ImVec4(1.0f, 0.5f, 0.45f, 1) : ImVec4(0.7f, 0.7f, 0.7f, 1);
      ImGui::TextColored(c, "%s", fmt_ratio(r).c_str());
      // A bar on a log2 scale centred on 1x: to the right when the ratio is above 1.
      ImGui::SameLine();
      ImVec2 p = ImGui::GetCursorScreenPos();
      float w = std::min(90.0f, ImGui::GetContentRegionAvail().x), h = ImGui::GetTextLineHeight();
      if (w > 20) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        float mid = p.x + w / 2, len = static_cast<float>(std::clamp(std::log2(r) / 4.0, -1.0, 1.0)) * (w / 2);
        dl->AddRectFilled(ImVec2(std::min(mid, mid + len), p.y + h * 0.25f), ImVec2(std::max(mid, mid + len), p.y + h * 0.75f),
                          ImGui::GetColorU32(ImVec4(c.x, c.y, c.z, 0.6f)));
        dl->AddLine(ImVec2(mid, p.y), ImVec2(mid, p.y + h), IM_COL32(140, 140, 150, 160));
        ImGui::Dummy(ImVec2(w, h));
      }
    } else {
      ImGui::TextDisabled("-");
    }
  }
}

}  // namespace trnsim::ui
