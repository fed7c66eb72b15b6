#include "plot_data.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/metrics.h"
#include "scenario/schema.h"

namespace trnsim::plot {

namespace {

// A table label as an axis title: "time per output token" -> "Time per output token",
// and a short leading abbreviation in capitals: "tp (tensor)" -> "TP (tensor)".
std::string capitalized(std::string s) {
  const std::size_t word = std::min(s.find_first_of(" (/"), s.size());
  const std::size_t upto = word <= 3 ? word : 1;
  for (std::size_t i = 0; i < upto && i < s.size(); ++i)
    if (s[i] >= 'a' && s[i] <= 'z') s[i] = static_cast<char>(s[i] - 'a' + 'A');
  return s;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

}  // namespace

// Result metrics from core/report/metrics.h, grid paths from the scenario field table
// (core/scenario/schema.h): nothing here types a label or a unit.
MetricInfo metric_info(const std::string& key) {
  std::string k = key;
  for (const char* prefix : {"primary.", "compare.", "point."})
    if (starts_with(k, prefix)) k = k.substr(std::string(prefix).size());
  if (const Metric* m = find_metric_or_null(k)) {
    const int better = m->better == Better::higher ? +1 : m->better == Better::lower ? -1 : 0;
    return {capitalized(m->label), m->unit == "fraction" ? "" : m->unit, better};
  }
  if (const Field* f = find_field_or_null(k)) return {capitalized(f->label), f->unit, 0};
  return {key, "", 0};
}

DisplayUnit display_unit(const std::string& unit, double max_abs) {
  if (unit == "s") {
    if (max_abs < 1e-3) return {1e6, "us"};
    if (max_abs < 1) return {1e3, "ms"};
  }
  if (unit == "B") {
    if (max_abs >= 1e9) return {1e-9, "GB"};
    if (max_abs >= 1e6) return {1e-6, "MB"};
    if (max_abs >= 1e3) return {1e-3, "KB"};
  }
  return {1, unit};
}

std::vector<json> parse_lines(const std::string& text, const std::string& what) {
  std::vector<json> lines;
  std::size_t start = 0, number = 1;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      json j = parse_json_text(line, what + ":line " + std::to_string(number));
      if (!j.is_object()) throw InputError(what + ":line " + std::to_string(number), "not a sweep line (a JSON object)");
      lines.push_back(std::move(j));
    }
    start = end + 1;
    ++number;
  }
  return lines;
}

namespace {

const json* at_path(const json& j, const std::string& path) {
  const json* node = &j;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) {
      // Grid paths are keys with dots in them ("point" -> "workload.inference.batch").
      if (dot == std::string::npos) return nullptr;
      auto whole = node->find(path.substr(start));
      return whole == node->end() ? nullptr : &*whole;
    }
    if (dot == std::string::npos) return &*it;
    node = &*it;
    start = dot + 1;
  }
}

// Every path a key could mean on this line, in order of preference.
std::vector<std::string> candidates(const json& line, const std::string& key) {
  std::vector<std::string> out = {key, "point." + key, "primary." + key};
  if (const json* point = at_path(line, "point"); point && point->is_object())
    for (auto it = point->begin(); it != point->end(); ++it) {
      const std::string& p = it.key();
      if (p.size() > key.size() && p.compare(p.size() - key.size(), key.size(), key) == 0 &&
          p[p.size() - key.size() - 1] == '.')
        out.push_back("point." + p);
    }
  return out;
}

std::string known_keys(const json& line) {
  std::string list;
  for (const char* part : {"point", "primary"})
    if (const json* obj = at_path(line, part); obj && obj->is_object())
      for (auto it = obj->begin(); it != obj->end(); ++it)
        if (!it->is_object()) list += (list.empty() ? "" : ", ") + it.key();
  return list;
}

std::string resolve(const std::vector<json>& ok_lines, const std::string& key, const std::string& field) {
  if (key.empty()) throw InputError(field, "empty key");
  for (const json& line : ok_lines) {
    std::vector<std::string> found;
    for (const std::string& c : candidates(line, key))
      if (at_path(line, c) && std::find(found.begin(), found.end(), c) == found.end()) found.push_back(c);
    if (found.empty()) continue;
    // An exact or primary match wins; several grid paths ending in the key are ambiguous.
    if (found.size() > 1 && found[0] != key && found[0] != "point." + key && found[0] != "primary." + key) {
      std::string list;
      for (const auto& f : found) list += (list.empty() ? "" : ", ") + f.substr(6);
      throw InputError(field, "'" + key + "' is ambiguous: " + list);
    }
    return found[0];
  }
  throw InputError(field, "no value '" + key + "' in the sweep lines (there are: " + known_keys(ok_lines.front()) + ")");
}

std::string value_name(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

bool beats(const Point& a, const Point& b, int xb, int yb) {  // a dominates b
  const bool x_ge = xb > 0 ? a.x >= b.x : a.x <= b.x, y_ge = yb > 0 ? a.y >= b.y : a.y <= b.y;
  return x_ge && y_ge && (a.x != b.x || a.y != b.y);
}

}  // namespace

std::vector<Point> pareto_front(const std::vector<Point>& points, int x_better, int y_better) {
  std::vector<Point> front;
  for (const Point& p : points) {
    bool dominated = false;
    for (const Point& q : points)
      if (beats(q, p, x_better, y_better)) {
        dominated = true;
        break;
      }
    bool duplicate = std::any_of(front.begin(), front.end(), [&](const Point& f) { return f.x == p.x && f.y == p.y; });
    if (!dominated && !duplicate) front.push_back(p);
  }
  std::sort(front.begin(), front.end(), [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  return front;
}

Chart make_chart(const std::vector<json>& lines, const std::string& x, const std::string& y, const std::string& color,
                 bool pareto, const std::string& x_field, const std::string& y_field, const std::string& color_field) {
  Chart c;
  std::vector<json> ok_lines;
  for (const json& l : lines) {
    const json* ok = at_path(l, "ok");
    if (ok && ok->is_boolean() && ok->get<bool>()) ok_lines.push_back(l);
    else ++c.failed;
  }
  if (ok_lines.empty()) throw InputError("input", "no point with \"ok\": true to plot (" + std::to_string(lines.size()) + " lines)");
  c.x.key = x, c.x.path = resolve(ok_lines, x, x_field), c.x.info = metric_info(c.x.path);
  c.y.key = y, c.y.path = resolve(ok_lines, y, y_field), c.y.info = metric_info(c.y.path);
  // Several colour keys ("system,tp") make one series per combination.
  for (std::size_t start = 0; !color.empty() && start <= color.size();) {
    std::size_t comma = std::min(color.find(',', start), color.size());
    c.color_keys.push_back(color.substr(start, comma - start));
    c.color_paths.push_back(resolve(ok_lines, c.color_keys.back(), color_field));
    start = comma + 1;
  }
  const std::vector<std::string>& color_paths = c.color_paths;
  if (pareto && (c.x.info.better == 0 || c.y.info.better == 0))
    throw InputError(c.x.info.better == 0 ? x_field : y_field,
                     "a Pareto front needs metrics with a better direction (e.g. tpot_s and output_tokens_per_s_per_chip)");
  std::map<std::string, std::size_t> series_of;
  for (const json& l : ok_lines) {
    const json* xv = at_path(l, c.x.path);
    const json* yv = at_path(l, c.y.path);
    if (!xv || !yv || !xv->is_number() || !yv->is_number()) {
      ++c.missing;
      continue;
    }
    std::string name;
    for (const auto& p : color_paths) {
      const json* cv = at_path(l, p);
      std::string leaf = p.substr(p.find_last_of('.') + 1);
      // Names speak for themselves ("trn2-ultraserver"); numbers get their key ("tp 8").
      const bool named = !cv || cv->is_string() || color_paths.size() == 1;
      name += (name.empty() ? "" : ", ") + (named ? "" : leaf + " ") + (cv ? value_name(*cv) : "(none)");
    }
    auto [it, added] = series_of.emplace(name, c.series.size());
    if (added) c.series.push_back({name, {}, {}});
    const json* index = at_path(l, "index");
    c.series[it->second].points.push_back(
        {xv->get<double>(), yv->get<double>(), index && index->is_number_unsigned() ? index->get<std::size_t>() : 0});
  }
  if (pareto)
    for (Series& s : c.series) s.front = pareto_front(s.points, c.x.info.better, c.y.info.better);
  return c;
}

std::vector<std::string> color_labels(const Chart& c) {
  std::vector<std::string> labels;
  for (const auto& p : c.color_paths) labels.push_back(metric_info(p).label);
  return labels;
}

json chart_to_json(const Chart& c) {
  double x_abs = 0, y_abs = 0;
  for (const Series& s : c.series)
    for (const Point& p : s.points) x_abs = std::max(x_abs, std::fabs(p.x)), y_abs = std::max(y_abs, std::fabs(p.y));
  auto axis = [](const Axis& a, double max_abs) {
    DisplayUnit d = display_unit(a.info.unit, max_abs);
    return json{{"key", a.key},           {"path", a.path},         {"label", a.info.label},
                {"unit", a.info.unit},    {"better", a.info.better}, {"display_unit", d.unit},
                {"display_factor", d.factor}};
  };
  auto pts = [](const std::vector<Point>& v) {
    json arr = json::array();
    for (const Point& p : v) arr.push_back(json::array({p.x, p.y, p.index}));
    return arr;
  };
  json series = json::array();
  for (const Series& s : c.series) series.push_back({{"name", s.name}, {"points", pts(s.points)}, {"front", pts(s.front)}});
  return {{"x", axis(c.x, x_abs)}, {"y", axis(c.y, y_abs)},           {"color", c.color_keys}, {"color_labels", color_labels(c)},
          {"series", series}, {"failed", c.failed}, {"missing", c.missing}};
}

}  // namespace trnsim::plot
