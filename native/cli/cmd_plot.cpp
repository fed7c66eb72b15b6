// `trnsim plot SWEEP.jsonl --x KEY --y KEY [--color KEY] [--kind line|scatter] [--pareto]
// [--log-x] [--log-y] [--title T] [-o OUT.svg]`: a chart of sweep results as a standalone
// SVG file, drawn here (no plotting library): line or scatter series by a colour key, and
// Pareto fronts (e.g. throughput per chip against time per output token, one front per
// system). Which values, labels, units and fronts: plot_data.h (shared with Python's
// trnsim.plot). Axis values are shown in a readable unit (ms for seconds below one, GB for
// bytes); ticks are 1-2-5 steps (decades on log axes). Every point has a tooltip (<title>)
// with its sweep index and values.
// Does NOT: rasterize (any browser or SVG viewer shows the file), or plot ok:false points
// (counted in a note under the chart).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "cli.h"
#include "plot_data.h"

namespace {

using trnsim::InputError;
namespace plot = trnsim::plot;

const char* kPlotUsage =
    "Usage: trnsim plot SWEEP.jsonl --x KEY --y KEY [--color KEY] [--kind line|scatter]\n"
    "                   [--pareto] [--log-x] [--log-y] [--title TEXT] [-o OUT.svg]\n\n"
    "Draws the points of a `trnsim sweep` output (\"-\" reads stdin) as an SVG chart, one series\n"
    "per value of --color. KEY is a metric of the summary (tpot_s, ttft_s,\n"
    "output_tokens_per_s_per_chip, tokens_per_s_per_megawatt, ...), a grid path\n"
    "(workload.inference.batch, system) or its last part (batch), or a dotted path of the line\n"
    "(primary.tpot_s, compare.tpot_s). Labels and units come from the metric table.\n"
    "--color takes one key or several (\"system,tp\": a series per combination).\n\n"
    "  --kind line     points joined in x order (default); scatter: markers only\n"
    "  --pareto        mark each series' Pareto front (the points no other point beats on both\n"
    "                  axes); --x and --y default to tpot_s and output_tokens_per_s_per_chip\n"
    "  --log-x, --log-y  logarithmic axis (values must be positive)\n"
    "  --title TEXT    chart title (default: \"Y vs X\")\n"
    "  -o, --output F  write the SVG to F (default: stdout)\n\n"
    "Example:\n"
    "  trnsim sweep examples/sweeps/gpt-oss-batch-tp.json > points.jsonl\n"
    "  trnsim plot points.jsonl --x batch --y tpot_s --color system -o tpot.svg\n"
    "  trnsim plot points.jsonl --pareto --color system -o pareto.svg\n"
    "Exit codes: 0 ok, 2 bad input (unknown key, no plottable point, bad option).\n";

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string num(double v, int digits = 6) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string coord(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

struct Scale {
  double lo = 0, hi = 1;  // data range shown (in displayed units)
  bool log = false;
  double px0 = 0, px1 = 1;  // pixel positions of lo and hi
  double map(double v) const {
    double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return px0 + t * (px1 - px0);
  }
};

Scale make_scale(double lo, double hi, bool log, double px0, double px1) {
  Scale s{lo, hi, log, px0, px1};
  if (log) {
    double a = std::log10(lo), b = std::log10(hi);
    if (b - a < 1e-9) a -= 0.5, b += 0.5;
    double pad = (b - a) * 0.05;
    s.lo = std::pow(10.0, a - pad), s.hi = std::pow(10.0, b + pad);
  } else {
    double span = hi - lo;
    if (span <= 0) span = std::fabs(hi) > 0 ? std::fabs(hi) * 0.2 : 1;
    double pad = span * 0.05;
    s.lo = lo - pad, s.hi = hi + pad;
    if (lo >= 0 && s.lo < 0) s.lo = 0;  // counts and times never go below zero
  }
  return s;
}

std::vector<double> ticks(const Scale& s) {
  std::vector<double> t;
  if (s.log) {
    int a = static_cast<int>(std::floor(std::log10(s.lo))), b = static_cast<int>(std::ceil(std::log10(s.hi)));
    const bool few = std::log10(s.hi / s.lo) <= 2.5;  // under ~2 decades: 1-2-5 ticks
    for (int e = a; e <= b; ++e)
      for (double m : few ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        double v = m * std::pow(10.0, e);
        if (v >= s.lo && v <= s.hi) t.push_back(v);
      }
    return t;
  }
  double raw = (s.hi - s.lo) / 6, mag = std::pow(10.0, std::floor(std::log10(raw))), step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  for (double v = std::ceil(s.lo / step) * step; v <= s.hi + step * 1e-9; v += step)
    t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return t;
}

std::string axis_title(const plot::Axis& a, const plot::DisplayUnit& d) {
  return a.info.label + (d.unit.empty() ? "" : " (" + d.unit + ")");
}

struct Options {
  std::string kind = "line", title;
  bool pareto = false, log_x = false, log_y = false;
};

std::string render_svg(const plot::Chart& c, const Options& o) {
  const double W = 960, H = 520, left = 90, right = 640, top = 56, bottom = 450;
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300, xabs = 0, yabs = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      if (o.log_x && !(p.x > 0)) throw InputError("--log-x", "value " + num(p.x) + " (point " + std::to_string(p.index) + ") is not positive");
      if (o.log_y && !(p.y > 0)) throw InputError("--log-y", "value " + num(p.y) + " (point " + std::to_string(p.index) + ") is not positive");
      xabs = std::max(xabs, std::fabs(p.x)), yabs = std::max(yabs, std::fabs(p.y));
    }
  const plot::DisplayUnit dx = plot::display_unit(c.x.info.unit, xabs), dy = plot::display_unit(c.y.info.unit, yabs);
  std::size_t shown = 0;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      xmin = std::min(xmin, p.x * dx.factor), xmax = std::max(xmax, p.x * dx.factor);
      ymin = std::min(ymin, p.y * dy.factor), ymax = std::max(ymax, p.y * dy.factor);
      ++shown;
    }
  if (shown == 0) throw InputError("input", "no point has numeric values for both axes");
  const Scale sx = make_scale(xmin, xmax, o.log_x, left, right), sy = make_scale(ymin, ymax, o.log_y, bottom, top);
  const std::string title = o.title.empty() ? c.y.info.label + " vs " + c.x.info.label : o.title;

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
      << " " << H << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      << "<title>" << esc(title) << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"" << coord((left + right) / 2) << "\" y=\"30\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">"
      << esc(title) << "</text>\n";
  // Grid and ticks.
  svg << "<g class=\"grid\" stroke=\"#e5e5e5\" stroke-width=\"1\">\n";
  const std::vector<double> tx = ticks(sx), ty = ticks(sy);
  for (double v : tx) svg << "<line x1=\"" << coord(sx.map(v)) << "\" y1=\"" << top << "\" x2=\"" << coord(sx.map(v)) << "\" y2=\"" << bottom << "\"/>\n";
  for (double v : ty) svg << "<line x1=\"" << left << "\" y1=\"" << coord(sy.map(v)) << "\" x2=\"" << right << "\" y2=\"" << coord(sy.map(v)) << "\"/>\n";
  svg << "</g>\n<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\"" << bottom - top
      << "\" fill=\"none\" stroke=\"#333333\"/>\n<g class=\"ticks\" fill=\"#333333\">\n";
  for (double v : tx)
    svg << "<text x=\"" << coord(sx.map(v)) << "\" y=\"" << bottom + 18 << "\" text-anchor=\"middle\">" << num(v, 4) << "</text>\n";
  for (double v : ty)
    svg << "<text x=\"" << left - 8 << "\" y=\"" << coord(sy.map(v) + 4) << "\" text-anchor=\"end\">" << num(v, 4) << "</text>\n";
  svg << "</g>\n";
  svg << "<text class=\"x-label\" x=\"" << coord((left + right) / 2) << "\" y=\"" << bottom + 44 << "\" text-anchor=\"middle\" font-size=\"13\">"
      << esc(axis_title(c.x, dx)) << "</text>\n";
  svg << "<text class=\"y-label\" x=\"22\" y=\"" << coord((top + bottom) / 2) << "\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 22 "
      << coord((top + bottom) / 2) << ")\">" << esc(axis_title(c.y, dy)) << "</text>\n";

  // Series.
  auto polyline = [&](const std::vector<plot::Point>& pts, const char* color, double width, const char* cls) {
    svg << "<polyline class=\"" << cls << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"" << width << "\" points=\"";
    for (std::size_t i = 0; i < pts.size(); ++i)
      svg << (i ? " " : "") << coord(sx.map(pts[i].x * dx.factor)) << "," << coord(sy.map(pts[i].y * dy.factor));
    svg << "\"/>\n";
  };
  auto marker = [&](const plot::Point& p, const std::string& name, const char* color, double r, double opacity) {
    svg << "<circle cx=\"" << coord(sx.map(p.x * dx.factor)) << "\" cy=\"" << coord(sy.map(p.y * dy.factor)) << "\" r=\"" << r
        << "\" fill=\"" << color << "\" fill-opacity=\"" << opacity << "\"><title>" << esc(name.empty() ? "" : name + ", ")
        << "point " << p.index << ": " << esc(c.x.key) << " = " << num(p.x * dx.factor) << (dx.unit.empty() ? "" : " " + esc(dx.unit)) << ", "
        << esc(c.y.key) << " = " << num(p.y * dy.factor) << (dy.unit.empty() ? "" : " " + esc(dy.unit)) << "</title></circle>\n";
  };
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const plot::Series& s = c.series[i];
    const char* color = kPalette[i % (sizeof kPalette / sizeof *kPalette)];
    svg << "<g class=\"series\" data-name=\"" << esc(s.name) << "\">\n";
    if (o.pareto) {
      for (const auto& p : s.points) marker(p, s.name, color, 3, 0.3);
      polyline(s.front, color, 2, "front");
      for (const auto& p : s.front) marker(p, s.name + " (front)", color, 4.5, 1);
    } else {
      if (o.kind == "line") {
        std::vector<plot::Point> sorted = s.points;
        std::stable_sort(sorted.begin(), sorted.end(), [](const plot::Point& a, const plot::Point& b) { return a.x < b.x; });
        polyline(sorted, color, 1.8, "line");
      }
      for (const auto& p : s.points) marker(p, s.name, color, 3.5, 0.9);
    }
    svg << "</g>\n";
  }
  // Legend (right of the plot) and notes.
  double ly = top + 8;
  if (!c.color_keys.empty()) {
    std::string legend_title;
    for (const auto& l : plot::color_labels(c)) legend_title += (legend_title.empty() ? "" : ", ") + l;
    svg << "<text x=\"" << right + 20 << "\" y=\"" << ly + 4 << "\" font-weight=\"bold\">" << esc(legend_title) << "</text>\n";
    ly += 22;
  }
  for (std::size_t i = 0; i < c.series.size() && (!c.color_keys.empty() || o.pareto); ++i) {
    const char* color = kPalette[i % (sizeof kPalette / sizeof *kPalette)];
    svg << "<circle cx=\"" << right + 26 << "\" cy=\"" << ly << "\" r=\"5\" fill=\"" << color << "\"/>\n"
        << "<text class=\"legend\" x=\"" << right + 38 << "\" y=\"" << ly + 4 << "\">"
        << esc(c.series[i].name.empty() ? "all points" : c.series[i].name) << "</text>\n";
    ly += 20;
  }
  if (o.pareto)
    svg << "<text x=\"" << right + 20 << "\" y=\"" << ly + 12 << "\" fill=\"#555555\">lines: Pareto fronts</text>\n"
        << "<text x=\"" << right + 20 << "\" y=\"" << ly + 28 << "\" fill=\"#555555\">(better: " << (c.x.info.better < 0 ? "lower" : "higher")
        << " x, " << (c.y.info.better < 0 ? "lower" : "higher") << " y)</text>\n";
  std::string note = std::to_string(shown) + " points";
  if (c.failed) note += "; " + std::to_string(c.failed) + " could not run (ok: false)";
  if (c.missing) note += "; " + std::to_string(c.missing) + " without both values";
  svg << "<text class=\"note\" x=\"" << left << "\" y=\"" << H - 12 << "\" fill=\"#555555\" font-size=\"11\">" << esc(note)
      << " -- trnsim " << TRNSIM_VERSION << "</text>\n</svg>\n";
  return svg.str();
}

int run_plot(const std::vector<std::string>& raw_in, trnsim::cli::Io& io) {
  std::vector<std::string> raw = raw_in;
  for (auto& a : raw)
    if (a == "-o") a = "--output";
  trnsim::cli::Args args(raw, {"x", "y", "color", "kind", "title", "output"}, {"pareto", "log-x", "log-y"});
  args.expect_positional({"SWEEP.jsonl"});
  Options o;
  o.pareto = args.flag("pareto");
  o.log_x = args.flag("log-x");
  o.log_y = args.flag("log-y");
  o.kind = args.value_or("kind", o.pareto ? "scatter" : "line");
  if (o.kind != "line" && o.kind != "scatter") throw InputError("--kind", "unknown kind '" + o.kind + "' (expected line|scatter)");
  if (o.pareto && o.kind == "line" && args.value("kind")) throw InputError("--kind", "--pareto draws the fronts as lines; use --kind scatter or leave it out");
  o.title = args.value_or("title", "");
  std::string x = args.value_or("x", o.pareto ? "tpot_s" : ""), y = args.value_or("y", o.pareto ? "output_tokens_per_s_per_chip" : "");
  if (x.empty()) throw InputError("--x", "missing (required without --pareto)");
  if (y.empty()) throw InputError("--y", "missing (required without --pareto)");
  const std::string& path = args.positional()[0];
  std::vector<trnsim::json> lines = plot::parse_lines(trnsim::cli::read_file(path, io), path);
  plot::Chart chart = plot::make_chart(lines, x, y, args.value_or("color", ""), o.pareto);
  std::string svg = render_svg(chart, o);
  auto out = args.value("output");
  if (!out || *out == "-") io.out << svg;
  else trnsim::cli::write_file(*out, svg);
  return 0;
}

}  // namespace

TRNSIM_COMMAND("plot", "draw sweep results as an SVG chart (lines, scatter, Pareto fronts)", kPlotUsage, run_plot);
