// Quantities in the hardware data files: value + unit + source (+ alternatives).
#include "hw/data_reader.h"

#include "hw/sources.h"

#include <cmath>
#include <utility>

namespace trnsim::hw {

namespace {

struct UnitRow {
  const char* unit;
  Dim dim;
  double factor;
};

// Every unit a data file may use, with its SI factor. Bits per second (Gbps) are
// network line rates; everything else is bytes.
const UnitRow kUnits[] = {
    {"B", Dim::bytes, 1.0},
    {"KB", Dim::bytes, 1e3},
    {"MB", Dim::bytes, 1e6},
    {"GB", Dim::bytes, 1e9},
    {"TB", Dim::bytes, 1e12},
    {"KiB", Dim::bytes, 1024.0},
    {"MiB", Dim::bytes, 1048576.0},
    {"GiB", Dim::bytes, 1073741824.0},
    {"TiB", Dim::bytes, 1099511627776.0},
    {"B/s", Dim::bytes_per_s, 1.0},
    {"MB/s", Dim::bytes_per_s, 1e6},
    {"GB/s", Dim::bytes_per_s, 1e9},
    {"TB/s", Dim::bytes_per_s, 1e12},
    {"MiB/s", Dim::bytes_per_s, 1048576.0},
    {"GiB/s", Dim::bytes_per_s, 1073741824.0},
    {"TiB/s", Dim::bytes_per_s, 1099511627776.0},
    {"Mbps", Dim::bytes_per_s, 1e6 / 8},
    {"Gbps", Dim::bytes_per_s, 1e9 / 8},
    {"Tbps", Dim::bytes_per_s, 1e12 / 8},
    {"FLOP/s", Dim::flops, 1.0},
    {"GFLOPS", Dim::flops, 1e9},
    {"TFLOPS", Dim::flops, 1e12},
    {"PFLOPS", Dim::flops, 1e15},
    {"s", Dim::time, 1.0},
    {"ms", Dim::time, 1e-3},
    {"us", Dim::time, 1e-6},
    {"ns", Dim::time, 1e-9},
    {"Hz", Dim::frequency, 1.0},
    {"MHz", Dim::frequency, 1e6},
    {"GHz", Dim::frequency, 1e9},
    {"W", Dim::power, 1.0},
    {"kW", Dim::power, 1e3},
    {"USD/h", Dim::money_per_hour, 1.0},
};

bool dim_has_unit(Dim d) { return d != Dim::count && d != Dim::ratio && d != Dim::boolean; }

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

double unit_factor(const std::string& unit, Dim dim, const std::string& path) {
  std::vector<std::string> allowed;
  for (const auto& row : kUnits) {
    if (row.dim != dim) continue;
    if (unit == row.unit) return row.factor;
    allowed.push_back(row.unit);
  }
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  std::string hint = closest_name(unit, allowed);
  throw InputError(path, "unknown unit '" + unit + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                             "; one of: " + list);
}

double DataContext::read_value(const json& j, const std::string& path, Dim dim, double lo, double hi,
                               const std::vector<SpecialValue>& specials, bool allow_unit_absent) {
  ObjectReader q(j, path);
  const json& v = q.raw("value");
  double value = 0;
  bool special = false;
  if (dim == Dim::boolean) {
    if (!v.is_boolean()) throw InputError(q.path("value"), std::string("expected true or false, got ") + v.type_name());
    value = v.get<bool>() ? 1.0 : 0.0;
  } else if (v.is_string()) {
    std::string word = v.get<std::string>();
    for (const auto& s : specials)
      if (s.word == word) value = s.value, special = true;
    if (!special) {
      std::string list;
      for (const auto& s : specials) list += (list.empty() ? "" : ", ") + s.word;
      throw InputError(q.path("value"), "expected a number" + (list.empty() ? std::string() : " or one of: " + list) +
                                            ", got '" + word + "'");
    }
  } else {
    value = q.number("value", -1e300, 1e300);
  }
  if (dim_has_unit(dim) && !special) {
    if (q.has("unit") || !allow_unit_absent) value *= unit_factor(q.string("unit"), dim, q.path("unit"));
  } else if (q.has("unit")) {
    throw InputError(q.path("unit"), "this quantity takes no unit");
  }
  if (!special && dim != Dim::boolean && (value < lo || value > hi)) {
    if (value < 0 && lo >= 0) throw InputError(q.path("value"), "must not be negative, got " + fmt(value));
    throw InputError(q.path("value"), "must be between " + fmt(lo) + " and " + fmt(hi) + " (SI units), got " + fmt(value));
  }
  check_source(q.string("source"), q.path("source"));
  q.ignore("note");
  q.ignore("alternatives");
  q.finish();
  return value;
}

double DataContext::quantity(ObjectReader& r, const std::string& key, const std::string& source_key, Dim dim,
                             double lo, double hi, const std::vector<SpecialValue>& specials) {
  const json& j = r.raw(key);
  std::string path = r.path(key);
  double value = read_value(j, path, dim, lo, hi, specials, false);
  out_.sources[source_key] = j.at("source").get<std::string>();
  out_.chosen.erase(source_key);
  out_.alternatives.erase(source_key);
  auto alts = j.find("alternatives");
  if (alts != j.end()) {
    std::string apath = field_path(path, "alternatives");
    if (!alts->is_object()) throw InputError(apath, std::string("expected an object, got ") + alts->type_name());
    std::vector<Alternative> list;
    std::string chosen = "default";
    double chosen_value = value;
    std::string chosen_source = out_.sources[source_key];
    for (auto it = alts->begin(); it != alts->end(); ++it) {
      std::string name = it.key();
      if (name.empty() || name == "default") throw InputError(field_path(apath, name), "an alternative needs a name other than 'default'");
      double av = read_value(it.value(), field_path(apath, name), dim, lo, hi, specials, false);
      Alternative a{name, av, it.value().at("source").get<std::string>()};
      list.push_back(a);
      seen_.insert(name);
      if (selected_.count(name)) {
        chosen = name, chosen_value = av, chosen_source = a.source;
        used_.insert(name);
      }
    }
    // The default is listed first among the options, so describe shows every value.
    list.insert(list.begin(), Alternative{"default", value, out_.sources[source_key]});
    out_.alternatives[source_key] = list;
    out_.chosen[source_key] = chosen;
    out_.sources[source_key] = chosen_source;
    value = chosen_value;
  }
  return value;
}

void DataContext::merge(const System& nested, const DataContext& nested_ctx, const std::string& prefix) {
  for (const auto& [k, v] : nested.sources) out_.sources[prefix + k] = v;
  for (const auto& [k, v] : nested.alternatives) out_.alternatives[prefix + k] = v;
  for (const auto& [k, v] : nested.chosen) out_.chosen[prefix + k] = v;
  used_.insert(nested_ctx.used_.begin(), nested_ctx.used_.end());
  seen_.insert(nested_ctx.seen_.begin(), nested_ctx.seen_.end());
}

void DataContext::store(System& s) const {
  s.sources = out_.sources;
  s.alternatives = out_.alternatives;
  s.chosen = out_.chosen;
}

bool DataContext::optional_quantity(ObjectReader& r, const std::string& key, const std::string& source_key, Dim dim,
                                    double lo, double hi, double& value) {
  const json* j = r.optional_raw(key);
  if (!j || j->is_null()) return false;
  value = quantity(r, key, source_key, dim, lo, hi);
  return true;
}

}  // namespace trnsim::hw
