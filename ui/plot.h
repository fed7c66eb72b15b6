// Plots drawn with ImGui's draw lists (no ImPlot is packaged): a frame with linear or
// log10 axes, "nice" ticks (1-2-5 steps, decades with 2/5 subdivisions), tick labels
// in the axis's unit, grid lines and an invisible button over the plotting area so
// the caller can read hover, wheel and drag. Display-only arithmetic (std::log10 is
// fine here: nothing drawn reaches a report).
#pragma once
#include <imgui.h>

#include <functional>
#include <string>

namespace trnsim::ui {

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::string label;                        // "arithmetic intensity (FLOP/byte)"
  std::function<std::string(double)> fmt;   // tick label; default "%.3g"
};

// Tick positions of an axis (at most about `max_ticks`), in data units.
void axis_ticks(const Axis& a, int max_ticks, std::vector<double>& major, std::vector<double>& minor);

class PlotFrame {
 public:
  // Reserves `size` (negative or zero components: fill the available width/height)
  // at the cursor and draws the frame, grid, ticks, labels and optional title.
  PlotFrame(const char* id, ImVec2 size, const Axis& x, const Axis& y, const char* title = nullptr);

  ImVec2 to_screen(double x, double y) const { return ImVec2(sx(x), sy(y)); }
  float sx(double x) const;
  float sy(double y) const;
  double x_at(float px) const;
  double y_at(float py) const;

  ImDrawList* draw_list() const { return dl_; }
  ImVec2 min() const { return min_; }  // plotting area (inside the axes)
  ImVec2 max() const { return max_; }
  bool hovered() const { return hovered_; }
  bool active() const { return active_; }  // mouse held down on the area
  ImVec2 mouse() const { return ImGui::GetIO().MousePos; }
  void push_clip() const { dl_->PushClipRect(min_, max_, true); }
  void pop_clip() const { dl_->PopClipRect(); }

 private:
  Axis x_, y_;
  ImDrawList* dl_ = nullptr;
  ImVec2 min_, max_;
  bool hovered_ = false, active_ = false;
};

// Colours used across panels (compute, HBM, fabric, overhead) and a utilization ramp
// (0 idle .. 1 saturated) matching shaders/colormap.glsl.
ImU32 category_colour(const std::string& category, float alpha = 1.0f);
ImVec4 utilization_colour(float u);
ImU32 series_colour(int i, float alpha = 1.0f);

// A horizontal stacked bar of fractions with a legend tooltip.
void stacked_bar(const char* id, const float* fractions, const char* const* labels, const ImU32* colours, int n,
                 float width, float height, const char* const* tooltips = nullptr);

}  // namespace trnsim::ui
