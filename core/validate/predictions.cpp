// Pre-registered predictions (predictions.h), computed with the validation rows' evaluator.
#include "validate/predictions.h"

#include <cstdio>
#include <regex>

#include "common/format.h"
#include "embedded.h"

namespace trnsim::validate {

namespace {

constexpr const char* kFormat = "trnsim-prediction-1";

void check_date(const std::string& date, const std::string& path) {
  static const std::regex iso("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$");
  if (!std::regex_match(date, iso)) throw InputError(path, "expected a date as YYYY-MM-DD, got '" + date + "'");
}

void check_commit(const std::string& commit, const std::string& path) {
  static const std::regex hex("^[0-9a-f]{7,40}$");
  if (!std::regex_match(commit, hex))
    throw InputError(path, "expected a git commit (7 to 40 lowercase hex digits), got '" + commit + "'");
}

// Reads a file's header; `recorded` false for a draft (no date, commit or values yet).
struct Header {
  std::string date, commit, title;
  const json* rows = nullptr;
};

Header read_header(const json& doc, const std::string& what, bool recorded) {
  ObjectReader r(doc, what);
  Header h;
  const std::string format = r.string("format");
  if (format != kFormat) throw InputError(r.path("format"), "expected '" + std::string(kFormat) + "', got '" + format + "'");
  if (recorded) {
    h.date = r.string("date");
    check_date(h.date, r.path("date"));
    h.commit = r.string("commit");
    check_commit(h.commit, r.path("commit"));
  }
  h.title = r.string("title");
  h.rows = &r.raw("predictions");
  r.finish();
  if (!h.rows->is_array() || h.rows->empty()) throw InputError(what + ": predictions", "expected a non-empty array");
  return h;
}

}  // namespace

std::vector<Prediction> predictions_of(const std::string& text, const std::string& what, const Options& options) {
  const json doc = parse_json_text(text, what);
  const Header h = read_header(doc, what, true);
  Computer compute(options);
  std::vector<Prediction> out;
  for (std::size_t i = 0; i < h.rows->size(); ++i) {
    const std::string path = index_path(what + ": predictions", i);
    ObjectReader r((*h.rows)[i], path);
    Prediction p;
    p.file = what;
    p.date = h.date;
    p.commit = h.commit;
    p.id = r.string("id");
    p.figure = r.string("figure");
    p.unit = r.string("unit");
    p.recorded = r.number("predicted", 1e-300, 1e300);
    p.note = r.string("note", "");
    const json& c = r.raw("compute");
    r.finish();
    p.now = compute(c, p.unit, r.path("compute")).first;
    out.push_back(p);
  }
  return out;
}

std::vector<Prediction> predictions(const std::function<void(std::size_t, std::size_t)>& progress,
                                    const Options& options) {
  std::vector<Prediction> out;
  const auto keys = embedded_keys("predictions/");
  for (std::size_t k = 0; k < keys.size(); ++k) {
    auto rows = predictions_of(*find_embedded(keys[k]), keys[k], options);
    out.insert(out.end(), rows.begin(), rows.end());
    if (progress) progress(k + 1, keys.size());
  }
  return out;
}

json record(const json& draft, const std::string& what, const std::string& date, const std::string& commit) {
  check_date(date, "--date");
  check_commit(commit, "--commit");
  const Header h = read_header(draft, what, false);
  Computer compute;
  json out;
  out["format"] = kFormat;
  out["date"] = date;
  out["commit"] = commit;
  out["title"] = h.title;
  out["predictions"] = json::array();
  for (std::size_t i = 0; i < h.rows->size(); ++i) {
    const std::string path = index_path(what + ": predictions", i);
    ObjectReader r((*h.rows)[i], path);
    json row;
    row["id"] = r.string("id");
    row["figure"] = r.string("figure");
    const std::string unit = r.string("unit");
    row["unit"] = unit;
    const std::string note = r.string("note", "");
    const json& c = r.raw("compute");
    r.finish();
    auto [value, point] = compute(c, unit, r.path("compute"));
    if (!(value > 0)) throw InputError(r.path("compute"), "the model gives no positive figure to record");
    row["predicted"] = value;
    row["note"] = point.empty() ? note : note + (note.empty() ? "" : " ") + "(placement " + point + ")";
    row["compute"] = c;
    out["predictions"].push_back(row);
  }
  return out;
}

json predictions_to_json(const std::vector<Prediction>& rows) {
  json arr = json::array();
  for (const auto& p : rows)
    arr.push_back({{"file", p.file},     {"date", p.date},         {"commit", p.commit}, {"id", p.id},
                   {"figure", p.figure}, {"unit", p.unit},         {"recorded", p.recorded},
                   {"now", p.now},       {"change", p.change()},   {"note", p.note}});
  return {{"predictions", arr}};
}

std::string predictions_to_text(const std::vector<Prediction>& rows) {
  using fmt::lpad;
  auto pad = [](const std::string& s, std::size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); };
  std::string o =
      "trnsim validate --predictions: figures recorded before any measurement (predictions/*.json),\n"
      "each beside what this build's model says now. Change = (now - recorded) / recorded.\n\n";
  o += pad("#", 6) + pad("figure", 64) + pad("recorded on", 22) + lpad("recorded", 12) + lpad("now", 12) +
       lpad("change", 9) + "\n";
  for (const auto& p : rows) {
    char change[32];
    std::snprintf(change, sizeof change, "%+.0f%%", 100.0 * p.change());
    o += pad(p.id, 6) + pad(p.figure, 64) + pad(p.date + " " + p.commit.substr(0, 9), 22) +
         lpad(value_text(p.recorded, p.unit), 12) + lpad(value_text(p.now, p.unit), 12) + lpad(change, 9) + "\n";
  }
  return o;
}

}  // namespace trnsim::validate
