#include "ui/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace trnsim::ui {

namespace {

std::string default_fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// The 1-2-5 step closest (by ratio) to range / max_ticks.
double nice_step(double range, int max_ticks) {
  double raw = range / std::max(1, max_ticks);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double best = mag, best_err = 1e300;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    double err = std::fabs(std::log(m * mag / raw));
    if (err < best_err) best_err = err, best = m * mag;
  }
  return best;
}

}  // namespace

void axis_ticks(const Axis& a, int max_ticks, std::vector<double>& major, std::vector<double>& minor) {
  major.clear();
  minor.clear();
  if (!(a.hi > a.lo)) return;
  if (a.log) {
    double l0 = std::log10(a.lo), l1 = std::log10(a.hi);
    int d0 = static_cast<int>(std::floor(l0)), d1 = static_cast<int>(std::ceil(l1));
    int decades = d1 - d0;
    int every = std::max(1, (decades + max_ticks - 1) / std::max(1, max_ticks));
    for (int d = d0; d <= d1; ++d) {
      double base = std::pow(10.0, d);
      if (base >= a.lo * 0.999 && base <= a.hi * 1.001 && (d % every) == 0) major.push_back(base);
      for (int m = 2; m <= 9; ++m) {
        double v = m * base;
        if (v < a.lo || v > a.hi) continue;
        if (decades <= 2 && (m == 2 || m == 5)) major.push_back(v);
        else minor.push_back(v);
      }
    }
    std::sort(major.begin(), major.end());
    return;
  }
  double step = nice_step(a.hi - a.lo, max_ticks);
  double first = std::ceil(a.lo / step) * step;
  for (double v = first; v <= a.hi + step * 1e-9; v += step) major.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  double sub = step / 5;
  double f2 = std::ceil(a.lo / sub) * sub;
  for (double v = f2; v <= a.hi; v += sub) minor.push_back(v);
}

PlotFrame::PlotFrame(const char* id, ImVec2 size, const Axis& x, const Axis& y, const char* title) : x_(x), y_(y) {
  if (!x_.fmt) x_.fmt = default_fmt;
  if (!y_.fmt) y_.fmt = default_fmt;
  ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = std::max(100.0f, avail.x + size.x);
  if (size.y <= 0) size.y = std::max(80.0f, avail.y + size.y);
  ImVec2 p0 = ImGui::GetCursorScreenPos();
  dl_ = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  // Room for tick labels: measure the widest y label.
  std::vector<double> ymaj, ymin, xmaj, xmin;
  axis_ticks(y_, 8, ymaj, ymin);
  float ylab = 0;
  for (double v : ymaj) ylab = std::max(ylab, ImGui::CalcTextSize(y_.fmt(v).c_str()).x);
  float top = title ? line + 6 : 6;
  if (!y_.label.empty()) top += line + 2;
  min_ = ImVec2(p0.x + ylab + 10, p0.y + top);
  max_ = ImVec2(p0.x + size.x - 8, p0.y + size.y - 2 * line - 8);
  if (max_.x < min_.x + 20) max_.x = min_.x + 20;
  if (max_.y < min_.y + 20) max_.y = min_.y + 20;

  ImGui::SetCursorScreenPos(min_);
  ImGui::InvisibleButton(id, ImVec2(max_.x - min_.x, max_.y - min_.y));
  hovered_ = ImGui::IsItemHovered();
  active_ = ImGui::IsItemActive();

  const ImU32 frame = IM_COL32(90, 96, 108, 255), grid = IM_COL32(60, 65, 75, 110), grid2 = IM_COL32(60, 65, 75, 55);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl_->AddRectFilled(min_, max_, IM_COL32(20, 22, 27, 255));
  if (title) {
    dl_->PushClipRect(p0, ImVec2(p0.x + size.x, p0.y + line + 4), true);
    dl_->AddText(ImVec2(p0.x, p0.y), text, title);
    dl_->PopClipRect();
  }
  if (!y_.label.empty()) dl_->AddText(ImVec2(p0.x, min_.y - line - 4), dim, y_.label.c_str());

  axis_ticks(x_, std::max(3, static_cast<int>((max_.x - min_.x) / 60)), xmaj, xmin);
  axis_ticks(y_, std::max(2, static_cast<int>((max_.y - min_.y) / 40)), ymaj, ymin);
  for (double v : xmin) dl_->AddLine(ImVec2(sx(v), min_.y), ImVec2(sx(v), max_.y), grid2);
  for (double v : ymin) dl_->AddLine(ImVec2(min_.x, sy(v)), ImVec2(max_.x, sy(v)), grid2);
  float last_right = -1e9f;
  for (double v : xmaj) {
    float px = sx(v);
    dl_->AddLine(ImVec2(px, min_.y), ImVec2(px, max_.y), grid);
    dl_->AddLine(ImVec2(px, max_.y), ImVec2(px, max_.y + 4), frame);
    std::string s = x_.fmt(v);
    float w = ImGui::CalcTextSize(s.c_str()).x;
    float left = std::clamp(px - w / 2, min_.x - 4, max_.x - w + 4);
    if (left > last_right + 6) {
      dl_->AddText(ImVec2(left, max_.y + 5), dim, s.c_str());
      last_right = left + w;
    }
  }
  for (double v : ymaj) {
    float py = sy(v);
    dl_->AddLine(ImVec2(min_.x, py), ImVec2(max_.x, py), grid);
    dl_->AddLine(ImVec2(min_.x - 4, py), ImVec2(min_.x, py), frame);
    std::string s = y_.fmt(v);
    float w = ImGui::CalcTextSize(s.c_str()).x;
    dl_->AddText(ImVec2(min_.x - 6 - w, py - line / 2), dim, s.c_str());
  }
  dl_->AddRect(min_, max_, frame);
  if (!x_.label.empty()) {
    float w = ImGui::CalcTextSize(x_.label.c_str()).x;
    dl_->AddText(ImVec2(max_.x - w, max_.y + line + 6), dim, x_.label.c_str());
  }
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + size.y));
  ImGui::Dummy(ImVec2(size.x, 0));
}

float PlotFrame::sx(double x) const {
  double t = x_.log ? (std::log10(std::max(x, 1e-300)) - std::log10(x_.lo)) / (std::log10(x_.hi) - std::log10(x_.lo))
                    : (x - x_.lo) / (x_.hi - x_.lo);
  return static_cast<float>(min_.x + t * (max_.x - min_.x));
}

float PlotFrame::sy(double y) const {
  double t = y_.log ? (std::log10(std::max(y, 1e-300)) - std::log10(y_.lo)) / (std::log10(y_.hi) - std::log10(y_.lo))
                    : (y - y_.lo) / (y_.hi - y_.lo);
  return static_cast<float>(max_.y - t * (max_.y - min_.y));
}

double PlotFrame::x_at(float px) const {
  double t = (px - min_.x) / (max_.x - min_.x);
  if (x_.log) return std::pow(10.0, std::log10(x_.lo) + t * (std::log10(x_.hi) - std::log10(x_.lo)));
  return x_.lo + t * (x_.hi - x_.lo);
}

double PlotFrame::y_at(float py) const {
  double t = (max_.y - py) / (max_.y - min_.y);
  if (y_.log) return std::pow(10.0, std::log10(y_.lo) + t * (std::log10(y_.hi) - std::log10(y_.lo)));
  return y_.lo + t * (y_.hi - y_.lo);
}

ImU32 category_colour(const std::string& c, float alpha) {
  int a = static_cast<int>(alpha * 255);
  if (c == "compute") return IM_COL32(84, 148, 240, a);
  if (c == "hbm") return IM_COL32(240, 160, 60, a);
  if (c == "fabric") return IM_COL32(80, 200, 140, a);
  if (c == "overhead") return IM_COL32(150, 150, 160, a);
  return IM_COL32(190, 120, 220, a);
}

// The same ramp as shaders/colormap.glsl: blue, teal, yellow, red.
ImVec4 utilization_colour(float u) {
  u = std::clamp(u, 0.0f, 1.0f);
  const float stops[4][3] = {{0.16f, 0.45f, 0.85f}, {0.10f, 0.75f, 0.60f}, {0.95f, 0.80f, 0.20f}, {0.95f, 0.25f, 0.20f}};
  float t = u * 3.0f;
  int i = std::min(2, static_cast<int>(t));
  float f = t - i;
  return ImVec4(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f, stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f,
                stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f, 1.0f);
}

ImU32 series_colour(int i, float alpha) {
  static const ImU32 base[] = {IM_COL32(84, 148, 240, 255), IM_COL32(240, 160, 60, 255), IM_COL32(80, 200, 140, 255),
                               IM_COL32(230, 90, 110, 255), IM_COL32(180, 130, 230, 255), IM_COL32(220, 210, 90, 255),
                               IM_COL32(110, 210, 230, 255), IM_COL32(200, 200, 200, 255)};
  ImU32 c = base[((i % 8) + 8) % 8];
  return (c & 0x00FFFFFF) | (static_cast<ImU32>(alpha * 255) << 24);
}

void stacked_bar(const char* id, const float* fractions, const char* const* labels, const ImU32* colours, int n,
                 float width, float height, const char* const* tooltips) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  if (width <= 0) width = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton(id, ImVec2(width, height));
  bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + height), IM_COL32(35, 38, 45, 255));
  float x = p.x;
  float mx = ImGui::GetIO().MousePos.x;
  int hovered_part = -1;
  for (int i = 0; i < n; ++i) {
    float w = std::max(0.0f, fractions[i]) * width;
    if (w <= 0) continue;
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + height), colours[i]);
    if (w > ImGui::CalcTextSize(labels[i]).x + 6)
      dl->AddText(ImVec2(x + 3, p.y + (height - ImGui::GetTextLineHeight()) / 2), IM_COL32(15, 15, 20, 255), labels[i]);
    if (hovered && mx >= x && mx < x + w) hovered_part = i;
    x += w;
  }
  if (hovered) {
    ImGui::BeginTooltip();
    for (int i = 0; i < n; ++i) {
      ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(colours[i]), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
      ImGui::SameLine();
      if (i == hovered_part) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 255, 255, 255));
      ImGui::Text("%s: %.1f%%%s%s", labels[i], fractions[i] * 100.0f, tooltips ? "  " : "", tooltips ? tooltips[i] : "");
      if (i == hovered_part) ImGui::PopStyleColor();
    }
    ImGui::EndTooltip();
  }
}

}  // namespace trnsim::ui
