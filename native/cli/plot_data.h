// Charts of sweep results, as data: which value of each JSON line goes on which axis, the
// axes' labels, units and better directions, series by a colour key, and Pareto fronts.
// One implementation shared by `trnsim plot` (cmd_plot.cpp draws it as SVG) and the Python
// module (trnsim.plot draws it with matplotlib), so both show the same points and fronts.
//
// A sweep line is what `trnsim sweep` prints: {index, point: {grid path: value}, ok,
// primary: {metric: value}, compare: {...}} (or ok:false with error). A key names a value:
//   an exact dotted path of the line ("primary.tpot_s", "point.workload.inference.batch"),
//   a grid path ("workload.inference.batch", "system"), a primary metric ("tpot_s"), or the
//   last segment of one grid path ("batch").
// Pareto front: the points no other point of the same series beats on both axes (better
// direction of each axis from the metric table), sorted by x.
// Does NOT: draw anything, or read files (callers pass the text).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::plot {

// What a chart needs to know of a value: its label, unit and which way is better
// (+1 higher, -1 lower, 0 neither), from the metric table (core/report/metrics.h) for
// results and the field table (core/scenario/schema.h) for grid paths. `key` is a metric
// key or field path, optionally prefixed "primary.", "compare." or "point.".
struct MetricInfo {
  std::string label;
  std::string unit;  // SI: "s", "B", "tokens/s", "" for counts and names
  int better = 0;
};
MetricInfo metric_info(const std::string& key);

// The unit values are shown in: seconds below 1 as ms or us, bytes as KB/MB/GB (SI);
// shown = value * factor.
struct DisplayUnit {
  double factor = 1;
  std::string unit;
};
DisplayUnit display_unit(const std::string& unit, double max_abs);

struct Axis {
  std::string key;   // as asked ("tpot_s")
  std::string path;  // as found in the lines ("primary.tpot_s")
  MetricInfo info;
};
struct Point {
  double x = 0, y = 0;
  std::size_t index = 0;  // the sweep point's index
};
struct Series {
  std::string name;            // the colour key's value ("" when there is no colour key)
  std::vector<Point> points;   // in sweep order
  std::vector<Point> front;    // Pareto front, sorted by x (empty unless asked for)
};
struct Chart {
  Axis x, y;
  std::vector<std::string> color_keys, color_paths;  // "system,tp": one series per combination
  std::vector<Series> series;  // in order of first appearance
  std::size_t failed = 0;      // lines with ok:false (not plotted)
  std::size_t missing = 0;     // ok lines without a numeric x or y
};

// Sweep JSON Lines; a line that is not JSON is an InputError naming "WHAT:line N".
std::vector<json> parse_lines(const std::string& text, const std::string& what);
// Resolves the keys on the lines and collects the series. Errors (InputError): a key found
// in no line (field `x_field` / `y_field` / `color_field`, with the keys there are), no ok
// line, a Pareto front over an axis without a better direction.
Chart make_chart(const std::vector<json>& lines, const std::string& x, const std::string& y, const std::string& color,
                 bool pareto, const std::string& x_field = "--x", const std::string& y_field = "--y",
                 const std::string& color_field = "--color");
// Labels of the colour keys (for legend titles).
std::vector<std::string> color_labels(const Chart& chart);
std::vector<Point> pareto_front(const std::vector<Point>& points, int x_better, int y_better);
// The chart as JSON (for the Python module): {x: {key, path, label, unit, better,
// display_unit, display_factor (for the largest |value| of the axis)}, y, color: [keys], color_labels,
// series: [{name, points: [[x, y, index]...], front: [...]}], failed, missing}.
json chart_to_json(const Chart& chart);

}  // namespace trnsim::plot
