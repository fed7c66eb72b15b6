#include "ui/view/validation_view.h"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>

namespace trnsim::ui {

const std::vector<ValidationColumnInfo>& validation_columns() {
  static const std::vector<ValidationColumnInfo> cols = {
      {ValidationColumn::id, "#"},           {ValidationColumn::figure, "figure"},
      {ValidationColumn::published, "published"}, {ValidationColumn::model, "model"},
      {ValidationColumn::error, "error"},    {ValidationColumn::source, "source"},
      {ValidationColumn::calibration, "calibration"}, {ValidationColumn::note, "note"}};
  return cols;
}

void ValidationProgress::start(const std::string& pricer) {
  started_ = true;
  pricer_ = pricer;
  table_ = ValidationTable{};
  run_.reset();
  try {
    validate::Options o;
    o.pricer = pricer;
    run_ = std::make_unique<validate::Run>(o);
  } catch (const InputError& e) {
    table_.error = e.what();
  }
}

bool ValidationProgress::advance(double budget_s) {
  if (!run_ || run_->done()) return false;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    do {
      run_->step();
    } while (!run_->done() && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < budget_s);
  } catch (const InputError& e) {
    table_.error = e.what();
    run_.reset();
    return true;
  }
  const auto& rows = run_->rows();  // append the new ones: the earlier rows do not change
  table_.rows.insert(table_.rows.end(), rows.begin() + static_cast<std::ptrdiff_t>(table_.rows.size()), rows.end());
  table_.summary = validate::summarize(table_.rows);
  return true;
}

json ValidationProgress::to_json() const {
  validate::Options o;
  o.pricer = pricer_;
  json j = validate::to_json(table_.rows, o);
  j["done"] = done();
  j["evaluated"] = evaluated();
  j["total"] = total();
  if (!table_.error.empty()) j["error"] = table_.error;
  return j;
}

std::string cell_text(const validate::Row& r, ValidationColumn c) {
  switch (c) {
    case ValidationColumn::id: return r.id;
    case ValidationColumn::figure: return r.figure;
    case ValidationColumn::published: return validate::value_text(r.published, r.unit);
    case ValidationColumn::model: return r.modeled ? validate::value_text(r.model, r.unit) : "n/a";
    case ValidationColumn::error: return validate::error_text(r);
    case ValidationColumn::source: return r.source;
    case ValidationColumn::calibration: return r.calibration ? "yes" : "";
    case ValidationColumn::note: return r.note;
  }
  return "";
}

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool passes(const validate::Row& r, const ValidationFilter& f, const std::string& needle) {
  if (f.calibration_only && !r.calibration) return false;
  if (f.modeled_only && !r.modeled) return false;
  if (needle.empty()) return true;
  for (const std::string* s : {&r.id, &r.figure, &r.source, &r.note})
    if (lower(*s).find(needle) != std::string::npos) return true;
  return false;
}

// A sort key: a number (NaN when the row has none, sorted last) or a text.
struct Key {
  double number = NAN;
  std::string text;
};

Key key_of(const validate::Row& r, ValidationColumn c) {
  switch (c) {
    case ValidationColumn::published: return {r.published, ""};
    case ValidationColumn::model: return {r.modeled ? r.model : NAN, ""};
    case ValidationColumn::error: return {r.modeled ? std::fabs(r.error()) : NAN, ""};
    case ValidationColumn::calibration: return {r.calibration ? 0.0 : 1.0, ""};
    case ValidationColumn::id: {
      // "7" < "12" < "C3b": numbers first by value, then claims by text.
      char* end = nullptr;
      const double v = std::strtod(r.id.c_str(), &end);
      if (end && *end == '\0' && !r.id.empty()) return {v, ""};
      return {NAN, r.id};
    }
    default: return {NAN, lower(cell_text(r, c))};
  }
}

}  // namespace

std::vector<std::size_t> validation_order(const std::vector<validate::Row>& rows, const ValidationFilter& f,
                                          ValidationColumn sort_by, bool ascending) {
  const std::string needle = lower(f.text);
  std::vector<std::size_t> idx;
  std::vector<Key> keys(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!passes(rows[i], f, needle)) continue;
    idx.push_back(i);
    keys[i] = key_of(rows[i], sort_by);
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const Key &x = keys[a], &y = keys[b];
    const bool xn = !std::isnan(x.number), yn = !std::isnan(y.number);
    if (xn != yn) return xn;  // rows with a number first (either direction)
    if (xn) return ascending ? x.number < y.number : x.number > y.number;
    return ascending ? x.text < y.text : x.text > y.text;
  });
  return idx;
}

}  // namespace trnsim::ui
