// The MX lab: pick a distribution (the core's deterministic samplers, optionally with
// outliers), the MX element formats, the scale rule and overflow handling; see the
// values before and after a quantize-dequantize round trip (core/mx), the histogram of
// the errors, the element codes a format actually uses, and the SQNR, RMSE and worst
// relative error per format (mx::error_stats), NVFP4 among them (NVIDIA's recipe,
// mx::nv_error_stats) with its gain over MXFP4 on the same samples. Below, the effect on the scenario: the
// same workload with each storage precision for the weights and each tensor-engine input
// type, evaluated by the core -- bytes moved from HBM, peak FLOP/s, latency and
// throughput -- with a button to adopt one.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "common/dtype.h"
#include "common/splitmix64.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"
#include "ui/app.h"
#include "common/format.h"
#include "ui/plot.h"
#include "ui/view/precision_variants.h"
#include "ui/widgets.h"

namespace trnsim::ui {

namespace {

struct FormatResult {
  mx::Format format;    // the element format (e2m1 for NVFP4)
  bool nvfp4 = false;   // NVFP4: E4M3 scales per 16 and an FP32 tensor scale (the MX options do not apply)
  bool enabled = true;
  std::string error;  // invalid combination (e.g. the nki rule with a non-FP8 format)
  mx::ErrorStats stats;
  std::vector<float> q;
  std::vector<std::uint64_t> codes;
};

void histogram_plot(const char* id, const char* title, const std::vector<const std::vector<float>*>& series,
                    const std::vector<std::string>& names, double lo, double hi, bool log_y, const char* xlabel, ImVec2 size) {
  const int bins = 72;
  std::vector<mx::Histogram> hs;
  double top = 1;
  for (const auto* s : series) {
    hs.push_back(mx::histogram(s->data(), s->size(), lo, hi, bins));
    for (auto c : hs.back().counts) top = std::max(top, static_cast<double>(c));
  }
  Axis ax, ay;
  ax.lo = lo, ax.hi = hi, ax.label = xlabel;
  ay.log = log_y;
  ay.lo = log_y ? 0.8 : 0;
  ay.hi = log_y ? top * 2 : top * 1.1;
  ay.label = "count";
  ay.fmt = [](double v) { return v >= 1e4 ? fmt::si(v, "") : fmt::general(v, 4); };
  PlotFrame plot(id, size, ax, ay, title);
  probe(id);
  ImDrawList* dl = plot.draw_list();
  plot.push_clip();
  const double w = (hi - lo) / bins;
  int hover_bin = -1;
  if (plot.hovered()) hover_bin = static_cast<int>((plot.x_at(plot.mouse().x) - lo) / w);
  for (std::size_t s = 0; s < hs.size(); ++s) {
    ImU32 fill = series_colour(static_cast<int>(s) * 3, s == 0 ? 0.55f : 0.0f), line = series_colour(static_cast<int>(s) * 3, 1.0f);
    ImVec2 prev;
    for (int b = 0; b < bins; ++b) {
      double c = static_cast<double>(hs[s].counts[b]);
      double yv = log_y ? std::max(c, 0.8) : c;
      ImVec2 a = plot.to_screen(lo + b * w, ay.lo), t = plot.to_screen(lo + (b + 1) * w, yv);
      if (s == 0) dl->AddRectFilled(ImVec2(a.x + 0.5f, t.y), ImVec2(t.x - 0.5f, a.y), fill);
      else {  // later series as a step outline
        ImVec2 l(a.x, t.y), r(t.x, t.y);
        if (b > 0) dl->AddLine(prev, l, line, 1.5f);
        dl->AddLine(l, r, line, 1.5f);
        prev = r;
      }
    }
  }
  plot.pop_clip();
  if (hover_bin >= 0 && hover_bin < bins) {
    ImGui::BeginTooltip();
    ImGui::Text("[%s, %s)", fmt::general(lo + hover_bin * w, 4).c_str(), fmt::general(lo + (hover_bin + 1) * w, 4).c_str());
    for (std::size_t s = 0; s < hs.size(); ++s)
      ImGui::Text("%s: %llu", names[s].c_str(), static_cast<unsigned long long>(hs[s].counts[hover_bin]));
    ImGui::EndTooltip();
  }
}

const char* result_name(const FormatResult& r) { return r.nvfp4 ? "nvfp4" : mx::format_name(r.format); }
const char* result_long_name(const FormatResult& r) {
  return r.nvfp4 ? "NVFP4 (E2M1, E4M3 scale per 16, FP32 tensor scale)" : mx::format_info(r.format).long_name;
}
// Stored bits per element: the element and its share of the block scale (NVFP4's tensor
// scale, 32 bits per tensor, left out).
double bits_per_element(const FormatResult& r) {
  return r.nvfp4 ? 4.0 + 8.0 / mx::kNvBlockSize : mx::format_info(r.format).element_bits + 8.0 / mx::kBlockSize;
}

class MxPanel : public Panel {
 public:
  const char* name() const override { return "MX lab"; }
  void draw(App& app) override;

 private:
  void recompute();
  void recompute_variants(App& app);
  void controls();
  void formats_table();
  void plots(float line);
  void code_strip(const FormatResult& shown, const std::string& shown_name, float line);
  void variant_table(App& app, const char* id, const char* field, const std::vector<PrecisionVariant>& rows, const char* what);

  int dist_ = 0, rule_ = 0, overflow_ = 0, shown_ = 0;
  int n_ = 16384, seed_ = 1;
  float outlier_fraction_ = 0.0f, outlier_scale_ = 100.0f;
  bool flush_ = false, log_y_ = true;
  bool enabled_[7] = {true, true, true, true, true, true, true};
  std::string key_;
  std::vector<float> x_;
  std::vector<FormatResult> results_;
  double xmax_ = 1;
  std::uint64_t variants_generation_ = 0;
  std::vector<PrecisionVariant> weights_, activations_;
};

void MxPanel::recompute() {
  char key[256];
  std::snprintf(key, sizeof key, "%d|%d|%d|%d|%d|%g|%g|%d", dist_, n_, seed_, rule_, overflow_, outlier_fraction_,
                outlier_scale_, flush_ ? 1 : 0);
  if (key_ == key) return;
  key_ = key;
  static const mx::Distribution dists[] = {mx::Distribution::normal, mx::Distribution::laplace, mx::Distribution::uniform,
                                           mx::Distribution::lognormal};
  x_ = mx::sample(dists[dist_], static_cast<std::size_t>(n_), static_cast<std::uint64_t>(seed_));
  std::uint64_t s = 0x5eed0000ull + static_cast<std::uint64_t>(seed_);
  if (outlier_fraction_ > 0)
    for (auto& v : x_)
      if (static_cast<double>(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0) < outlier_fraction_) v *= outlier_scale_;
  xmax_ = 0;
  for (float v : x_) xmax_ = std::max(xmax_, static_cast<double>(std::fabs(v)));
  mx::Options o;
  o.scale = static_cast<mx::ScaleRule>(rule_);
  o.overflow = static_cast<mx::Overflow>(overflow_);
  o.flush_subnormal_inputs = flush_;
  results_.clear();
  for (mx::Format f : mx::kAllFormats) {
    FormatResult r;
    r.format = f;
    try {
      mx::check_options(f, o);
      mx::Tensor t = mx::quantize(x_, f, o);
      r.q = mx::dequantize(t);
      r.codes = mx::code_histogram(t);
      r.stats = mx::error_stats(x_.data(), x_.size(), f, o);
    } catch (const InputError& e) {
      r.error = e.what();
    }
    results_.push_back(std::move(r));
  }
  FormatResult nv;  // NVFP4 by NVIDIA's recipe on the same samples
  nv.format = mx::Format::e2m1;
  nv.nvfp4 = true;
  const mx::NvTensor t = mx::quantize_nvfp4(x_);
  nv.q = mx::dequantize(t);
  nv.codes = mx::code_histogram(t);
  nv.stats = mx::nv_error_stats(x_.data(), x_.size());
  results_.push_back(std::move(nv));
}

void MxPanel::recompute_variants(App& app) {
  if (variants_generation_ == app.generation()) return;
  // Eight evaluations: not on every frame of a drag, once it ends.
  if (app.interacting() && variants_generation_ != 0) return;
  variants_generation_ = app.generation();
  weights_ = precision_variants(app.scenario(), app.report().primary.system, "workload.precision.weights");
  activations_ = precision_variants(app.scenario(), app.report().primary.system, "workload.precision.activations");
}

// The lab's row for a precision core/mx implements: its element format, or "nvfp4" for the
// kind with E4M3 block scales.
const char* mx_format_of(const std::string& precision) {
  const dtype::Dtype* d = dtype::find(precision);
  if (!d || !d->mx_kernel) return nullptr;
  return d->block_scale == "e4m3" ? "nvfp4" : d->element_format.c_str();
}

void MxPanel::variant_table(App& app, const char* id, const char* field, const std::vector<PrecisionVariant>& rows, const char* what) {
  const bool inference = app.report().primary.result && app.report().primary.result->kind() == workload::Kind::inference;
  if (!ImGui::BeginTable(id, 8, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn(what, 0, 1.3f);
  ImGui::TableSetupColumn("bytes/elem", 0, 0.7f);
  ImGui::TableSetupColumn("weights/chip", 0, 0.9f);
  ImGui::TableSetupColumn(inference ? "HBM/decode step" : "HBM/step", 0, 1.1f);
  ImGui::TableSetupColumn("matmul peak/chip", 0, 1.6f);
  ImGui::TableSetupColumn(inference ? "time/token" : "step time", 0, 0.8f);
  ImGui::TableSetupColumn("tokens/s/chip", 0, 0.8f);
  ImGui::TableSetupColumn("", 0, 0.4f);
  ImGui::TableHeadersRow();
  for (const auto& v : rows) {
    ImGui::TableNextRow();
    if (v.current) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(50, 70, 110, 160));
    ImGui::TableSetColumnIndex(0);
    const char* f = mx_format_of(v.precision);
    ImGui::Text("%s%s", v.precision.c_str(), v.current ? " (current)" : "");
    if (f) {
      for (const auto& r : results_)
        if (std::string(result_name(r)) == f && r.error.empty() && ImGui::IsItemHovered())
          ImGui::SetTooltip("%s elements: SQNR %.1f dB on the lab's samples", f, r.stats.sqnr_db);
    }
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%.4g", workload::bytes_per_element(v.precision));
    if (!v.evaluated) {
      ImGui::TableSetColumnIndex(2);
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.5f, 0.45f, 1));
      ImGui::TextWrapped("%s", v.error.c_str());
      ImGui::PopStyleColor();
      continue;
    }
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(fmt::bytes(v.weights_bytes).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(fmt::bytes(v.hbm_bytes).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(fmt::si(v.peak_flops, "FLOP/s").c_str());
    if (!v.error.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("(%s)", v.error.c_str());
    }
    ImGui::TableSetColumnIndex(5);
    ImGui::TextUnformatted(fmt::time(v.time_s).c_str());
    ImGui::TableSetColumnIndex(6);
    ImGui::TextUnformatted(fmt::count(v.tokens_per_s_chip).c_str());
    ImGui::TableSetColumnIndex(7);
    if (!v.current) {
      ImGui::PushID((std::string(field) + v.precision).c_str());
      if (ImGui::SmallButton("use")) app.set_field(field, v.precision);
      probe((std::string("mx:use:") + field + ":" + v.precision).c_str());
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

// The sample settings: distribution, size, seed, outliers, the scale rule and overflow.
void MxPanel::controls() {
  static const char* dists[] = {"normal (0, 1)", "laplace (0, 1)", "uniform [-1, 1)", "lognormal exp(N(0, 1))"};
  static const char* rules[] = {"floor (OCP)", "rceil", "even", "nki (FP8 only)"};
  static const char* overflows[] = {"saturate", "inf"};
  ImGui::PushItemWidth(-110);
  ImGui::Combo("distribution", &dist_, dists, 4);
  probe("mx:distribution");
  slider_int_log("samples", &n_, 256, 262144);
  ImGui::InputInt("seed", &seed_);
  seed_ = std::max(0, seed_);
  ImGui::SliderFloat("outliers", &outlier_fraction_, 0.0f, 0.02f, "%.4f of values", ImGuiSliderFlags_AlwaysClamp);
  help_marker("A fraction of the samples multiplied by the outlier scale: how a block's shared scale copes with one "
              "large value among 32.");
  if (outlier_fraction_ > 0)
    ImGui::SliderFloat("outlier scale", &outlier_scale_, 2.0f, 10000.0f, "x%.0f", ImGuiSliderFlags_Logarithmic);
  ImGui::Combo("scale rule", &rule_, rules, 4);
  probe("mx:rule");
  help_marker("How the shared E8M0 scale of a 32-element block is chosen from its largest magnitude (MX.md): "
              "floor = OCP, rceil = cuDNN/TE/MLX, even = torchao, nki = Trainium's quantize_mx (FP8 only). "
              "NVFP4 always uses NVIDIA's recipe (E4M3 block scales from amax / (6 * 448)); the scale rule, "
              "overflow and flush settings apply to the MX formats.");
  ImGui::Combo("overflow", &overflow_, overflows, 2);
  ImGui::Checkbox("flush subnormal inputs", &flush_);
  ImGui::Checkbox("log count axis", &log_y_);
  ImGui::PopItemWidth();
}

// Each format's bits per element and SQNR on the samples; which to show and plot.
void MxPanel::formats_table() {
  section("Formats");
  std::vector<const char*> names;
  for (const auto& r : results_) names.push_back(result_name(r));
  if (ImGui::BeginTable("sqnr", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("format", 0, 1.2f);
    ImGui::TableSetupColumn("bits", 0, 0.5f);
    ImGui::TableSetupColumn("SQNR", 0, 1.6f);
    ImGui::TableSetupColumn("show", 0, 0.5f);
    ImGui::TableHeadersRow();
    double top = 1;
    for (const auto& r : results_)
      if (r.error.empty() && std::isfinite(r.stats.sqnr_db)) top = std::max(top, r.stats.sqnr_db);
    for (int i = 0; i < static_cast<int>(results_.size()); ++i) {
      const auto& r = results_[i];
      const char* name = result_name(r);
      const char* long_name = result_long_name(r);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      ImGui::Checkbox(name, &enabled_[i]);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", long_name);
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%.2f", bits_per_element(r));
      if (ImGui::IsItemHovered()) {
        if (r.nvfp4) ImGui::SetTooltip("4 element bits + an 8-bit E4M3 scale per 16 elements (+ 32 bits per tensor)");
        else ImGui::SetTooltip("%d element bits + an 8-bit scale per 32 elements", mx::format_info(r.format).element_bits);
      }
      ImGui::TableSetColumnIndex(2);
      if (!r.error.empty()) {
        ImGui::TextDisabled("n/a");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.error.c_str());
      } else {
        float frac = static_cast<float>(std::isfinite(r.stats.sqnr_db) ? std::max(0.0, r.stats.sqnr_db) / top : 1.0);
        ImVec2 p = ImGui::GetCursorScreenPos();
        float w = ImGui::GetContentRegionAvail().x;
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w * frac, p.y + ImGui::GetTextLineHeight()),
                                                  series_colour(i, enabled_[i] ? 0.6f : 0.2f));
        ImGui::Text("%.1f dB", r.stats.sqnr_db);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s: SQNR %.2f dB, RMSE %.4g, worst relative error %.3g, %zu nonzero inputs became 0, "
                            "%zu clamped",
                            long_name, r.stats.sqnr_db, r.stats.rmse, r.stats.max_rel_error, r.stats.zeros,
                            r.stats.clamped);
      }
      probe((std::string("mx:sqnr:") + name).c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::RadioButton("##shown", &shown_, i);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // The two 4-bit formats on the same samples: NVFP4's finer scales against MXFP4's.
  const FormatResult* mx4 = nullptr;
  const FormatResult* nv4 = nullptr;
  for (const auto& r : results_) {
    if (r.nvfp4) nv4 = &r;
    else if (r.format == mx::Format::e2m1 && r.error.empty()) mx4 = &r;
  }
  if (mx4 && nv4 && std::isfinite(mx4->stats.sqnr_db) && std::isfinite(nv4->stats.sqnr_db)) {
    ImGui::Text("NVFP4 vs MXFP4: SQNR %+.2f dB, RMSE x%.3f", nv4->stats.sqnr_db - mx4->stats.sqnr_db,
                mx4->stats.rmse > 0 ? nv4->stats.rmse / mx4->stats.rmse : 1.0);
    probe("mx:nvfp4-vs-mxfp4");
  }
  ImGui::TextDisabled("SQNR = 10 log10(sum x^2 / sum (x - q(x))^2)");
}

// The element codes the shown format used, as a strip of log-scaled counts.
void MxPanel::code_strip(const FormatResult& shown, const std::string& shown_name, float line) {
  const auto& codes = shown.codes;
  std::size_t used = 0;
  for (auto c : codes) used += c > 0;
  ImGui::Text("%s element codes used: %zu of %zu", shown_name.c_str(), used, codes.size());
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x, h = line * 2;
  ImGui::InvisibleButton("mx:codes", ImVec2(w, h));
  probe("mx:codes");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(20, 22, 27, 255));
  double cmax = 1;
  for (auto c : codes) cmax = std::max(cmax, static_cast<double>(c));
  float bw = w / std::max<std::size_t>(1, codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    float f = static_cast<float>(std::log(1.0 + static_cast<double>(codes[i])) / std::log(1.0 + cmax));
    dl->AddRectFilled(ImVec2(p.x + i * bw, p.y + h * (1 - f)), ImVec2(p.x + (i + 1) * bw - (bw > 3 ? 1 : 0), p.y + h),
                      series_colour(shown_, 0.9f));
  }
  if (ImGui::IsItemHovered()) {
    std::size_t i = static_cast<std::size_t>((ImGui::GetIO().MousePos.x - p.x) / bw);
    if (i < codes.size())
      ImGui::SetTooltip("code 0x%02zX = %g (times the block scale): %llu elements", i,
                        mx::decode_element(shown.format, static_cast<std::uint8_t>(i)),
                        static_cast<unsigned long long>(codes[i]));
  }
}

// The samples and their quantized values, the error histogram and the codes used.
void MxPanel::plots(float line) {
  const FormatResult& shown = results_[std::clamp(shown_, 0, static_cast<int>(results_.size()) - 1)];
  const float plot_h = std::max(150.0f, ImGui::GetContentRegionAvail().y - line * 4.5f);
  const float half_w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
  double lo = dist_ == 3 && outlier_fraction_ <= 0 ? 0.0 : -xmax_ * 1.02, hi = xmax_ * 1.02;
  std::string shown_name = result_long_name(shown);
  if (shown.error.empty()) {
    std::vector<const std::vector<float>*> series = {&x_, &shown.q};
    ImGui::BeginGroup();
    histogram_plot("mx:values", ("values (bars) and " + shown_name + " (line)").c_str(), series,
                   {"samples", shown_name}, lo, hi, log_y_, "value", ImVec2(half_w, plot_h));
    ImGui::EndGroup();
    ImGui::SameLine();
    std::vector<float> err(x_.size());
    double emax = 0;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      err[i] = shown.q[i] - x_[i];
      emax = std::max(emax, static_cast<double>(std::fabs(err[i])));
    }
    if (emax <= 0) emax = 1;
    ImGui::BeginGroup();
    histogram_plot("mx:errors", ("error q(x) - x, " + shown_name).c_str(), {&err}, {"error"}, -emax * 1.02,
                   emax * 1.02, log_y_, "error (value units)", ImVec2(half_w, plot_h));
    ImGui::EndGroup();
    code_strip(shown, shown_name, line);
  } else {
    error_text(shown_name + ": " + shown.error);
  }
}

void MxPanel::draw(App& app) {
  const float left_w = std::min(330.0f, ImGui::GetContentRegionAvail().x * 0.33f);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float effect_h = line * 14;
  const float top_h = std::max(line * 20, ImGui::GetContentRegionAvail().y - effect_h);
  ImGui::BeginChild("mx-top", ImVec2(0, top_h), false);
  ImGui::BeginChild("mx-controls", ImVec2(left_w, 0), false);
  controls();
  recompute();
  formats_table();
  ImGui::EndChild();

  ImGui::SameLine();
  ImGui::BeginChild("mx-plots", ImVec2(0, 0), false);
  plots(line);
  ImGui::EndChild();
  ImGui::EndChild();

  section("Effect on the scenario");
  recompute_variants(app);
  ImGui::TextDisabled("%s, evaluated by the core with one precision changed (bytes summed per chip%s)",
                      app.report().primary.system.display_name.c_str(),
                      app.report().primary.result && app.report().primary.result->kind() == workload::Kind::inference ? ", one decode step" : ", one step");
  variant_table(app, "mx:weights", "workload.precision.weights", weights_, "weights stored as");
  variant_table(app, "mx:activations", "workload.precision.activations", activations_, "matmul inputs as");
}

}  // namespace

std::unique_ptr<Panel> make_mx_panel() { return std::make_unique<MxPanel>(); }
TRNSIM_PANEL(make_mx_panel);

}  // namespace trnsim::ui
