// What a row of the scenario's field table is, for the owners that declare their rows.
//
// Each part of a scenario is owned by the layer that reads it, and that layer declares its
// own rows -- path, type, default, range with reasons, unit, label, help, panel section and,
// for a fitted default, its calibration note: core/workload/fields.cpp (the "workload"
// object), core/serve/fields.cpp (the "serve" object). core/scenario/schema.cpp mounts them
// into the one table over a Scenario (`mount`), adds the top-level rows, and does the
// generic work: strict reading, canonical writing, equality, set-by-path.
//
// A row is FieldMeta (what it means and accepts) plus get/put over its owner's struct.
// FieldRows<Owner> builds rows bound to one member of the owner through a reference
// function: `Rows::integer("workload.inference.batch", [](Spec& s) -> int& { return
// s.inference.batch; }, 1, lo, hi, {...})`. Paths are full scenario paths: an owner knows the
// name its object has in the file.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/fields.h"

namespace trnsim {

enum class FieldType {
  integer,          // whole number between lo and hi
  number,           // finite number between lo and hi
  boolean,
  string,           // at most hi.value characters
  choice,           // one of choices()
  optional_number,  // null (use the built-in assumption named in help) or a number between lo and hi
  system,           // a system name (hw::load_system grammar) or a data-file path
  model,            // a bundled model name or an inline Hugging Face config.json object
  integer_list,     // array of whole numbers in [lo, hi] (at most max_items)
};

// What a field means and accepts, whoever owns it.
struct FieldMeta {
  std::string path;   // "workload.inference.batch"
  FieldType type = FieldType::number;
  json default_value; // what a missing key gets; null for required fields (model)
  // Numbers and integers (and integer lists' entries): the range, each end open or closed
  // and physical or trnsim's limit, with the reason the error gives (common/fields.h). The
  // table is the one place a scenario's bounds live: the core reads its values as checked.
  Bound lo, hi;
  std::function<std::vector<std::string>()> choices;  // choice fields
  std::string unit;   // SI unit of the stored value ("s", "W", "tokens", "" for ratios)
  std::string label;  // short, for controls and tables
  std::string help;   // one or two sentences: what it means, where the default comes from
  std::string section;     // the Scenario panel's group
  std::string shown_when;  // "workload.kind=training": the panel shows it only then ("" always)
  bool log_scale = false;  // sizes spanning decades: logarithmic slider
  bool allow_empty = false;  // system fields: "" means none (compare_system)
  double display_scale = 1;  // the panel shows value x display_scale in display_unit
  std::string display_unit;
  std::string calibrated;    // non-empty: the default is fitted; says to which PERF.md rows
  std::size_t max_items = 0; // integer_list
  std::string key() const {  // last part of the path
    auto dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
  }
  std::string parent() const {  // the object holding it ("" = the top level)
    auto dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
  }
};

// A row bound to its storage in an Owner (the value put is already validated).
template <class Owner>
struct FieldOf : FieldMeta {
  std::function<json(const Owner&)> get;
  std::function<void(Owner&, const json&)> put;
};

// The same row over an outer struct holding the owner as `member` (the scenario holds the
// workload and serve specs).
template <class Outer, class Inner>
FieldOf<Outer> mount(const FieldOf<Inner>& f, Inner Outer::*member) {
  FieldOf<Outer> out;
  static_cast<FieldMeta&>(out) = f;
  out.get = [get = f.get, member](const Outer& o) { return get(o.*member); };
  out.put = [put = f.put, member](Outer& o, const json& v) { put(o.*member, v); };
  return out;
}

// The text of a row: unit, label, help, panel section, when the panel shows it, log slider.
struct FieldText {
  std::string unit, label, help, section, shown_when;
  bool log_scale = false;
  FieldText(std::string u = "", std::string l = "", std::string h = "", std::string s = "", std::string w = "",
            bool log = false)
      : unit(std::move(u)), label(std::move(l)), help(std::move(h)), section(std::move(s)), shown_when(std::move(w)),
        log_scale(log) {}
};

inline FieldMeta field_meta(const std::string& path, FieldType type, json def, Bound lo, Bound hi, const FieldText& m) {
  FieldMeta f;
  f.path = path;
  f.type = type;
  f.default_value = std::move(def);
  f.lo = std::move(lo);
  f.hi = std::move(hi);
  f.unit = m.unit;
  f.label = m.label;
  f.help = m.help;
  f.section = m.section;
  f.shown_when = m.shown_when;
  f.log_scale = m.log_scale;
  return f;
}

// A text field's length: no physical bound, a cap on what a scenario carries.
inline Bound text_limit(std::size_t max_chars) {
  return limit(static_cast<double>(max_chars), "trnsim's limit on this text's length");
}

inline std::function<std::vector<std::string>()> fixed_choices(std::vector<std::string> v) {
  return [v] { return v; };
}

// Row builders over one owner type.
template <class Owner>
struct FieldRows {
  using Field = FieldOf<Owner>;
  template <class T>
  using Ref = T& (*)(Owner&);

  // Typed storage of a field: get/put through a reference into the owner.
  template <class T>
  static Field bound(const FieldMeta& m, Ref<T> ref) {
    Field f;
    static_cast<FieldMeta&>(f) = m;
    f.get = [ref](const Owner& s) { return json(ref(const_cast<Owner&>(s))); };
    f.put = [ref](Owner& s, const json& v) { ref(s) = v.template get<T>(); };
    return f;
  }
  static Field bound_optional(const FieldMeta& m, Ref<std::optional<double>> ref) {
    Field f;
    static_cast<FieldMeta&>(f) = m;
    f.get = [ref](const Owner& s) {
      const auto& v = ref(const_cast<Owner&>(s));
      return v ? json(*v) : json(nullptr);
    };
    f.put = [ref](Owner& s, const json& v) {
      ref(s) = v.is_null() ? std::nullopt : std::optional<double>(v.template get<double>());
    };
    return f;
  }
  // A row whose get/put the caller writes.
  static Field make(const std::string& path, FieldType type, json def, Bound lo, Bound hi, const FieldText& m) {
    Field f;
    static_cast<FieldMeta&>(f) = field_meta(path, type, std::move(def), std::move(lo), std::move(hi), m);
    return f;
  }
  static Field integer(const std::string& path, Ref<int> ref, int def, const Bound& lo, const Bound& hi,
                       const FieldText& m) {
    return bound<int>(field_meta(path, FieldType::integer, def, lo, hi, m), ref);
  }
  static Field number(const std::string& path, Ref<double> ref, double def, const Bound& lo, const Bound& hi,
                      const FieldText& m) {
    return bound<double>(field_meta(path, FieldType::number, def, lo, hi, m), ref);
  }
  static Field integer_list(const std::string& path, Ref<std::vector<int>> ref, const Bound& lo, const Bound& hi,
                            std::size_t max_items, const FieldText& m) {
    Field f = bound<std::vector<int>>(field_meta(path, FieldType::integer_list, json::array(), lo, hi, m), ref);
    f.max_items = max_items;
    return f;
  }
  static Field choice(const std::string& path, Ref<std::string> ref, const std::string& def,
                      std::function<std::vector<std::string>()> choices, const FieldText& m) {
    Field f = bound<std::string>(field_meta(path, FieldType::choice, def, {}, {}, m), ref);
    f.choices = std::move(choices);
    return f;
  }
  static Field optional_number(const std::string& path, Ref<std::optional<double>> ref, const Bound& lo,
                               const Bound& hi, const FieldText& m) {
    return bound_optional(field_meta(path, FieldType::optional_number, nullptr, lo, hi, m), ref);
  }
  static Field boolean(const std::string& path, Ref<bool> ref, bool def, const FieldText& m) {
    return bound<bool>(field_meta(path, FieldType::boolean, def, {}, {}, m), ref);
  }
  static Field text(const std::string& path, Ref<std::string> ref, std::size_t max_chars, const FieldText& m) {
    return bound<std::string>(field_meta(path, FieldType::string, "", {}, text_limit(max_chars), m), ref);
  }
};

// Ends shared by rows of one meaning across owners (each row's own ends are written in the
// row). A limit's reason says why trnsim caps a quantity that has no bound of its own on that
// side. Functions, not constants: a table may be built during another file's static
// initialisation.
namespace field_ends {
constexpr int kMaxTokens = 1 << 24;  // 16M tokens of context is already absurd
inline Bound tokens_cap() { return limit(kMaxTokens, "trnsim's limit: 2^24 tokens, beyond every model's context"); }
inline Bound chips_cap() { return limit(1 << 16, "trnsim's limit: 2^16 chips, beyond every system it models"); }
inline Bound efficiency_lo() { return above(0, "an efficiency is a share of the peak: more than none", 0.01); }
inline Bound efficiency_hi() { return at_most(1, "an efficiency is a share of the peak: nothing runs faster than it"); }
inline Bound none_or_more() { return at_least(0, "a count or a length is not negative; 0 turns it off"); }
inline Bound time_lo() { return at_least(0, "a time is not negative"); }
inline Bound time_cap() { return limit(1e6, "trnsim's limit: a million seconds, about 12 days"); }
inline Bound length_lo() { return at_least(1, "every request has at least one token"); }
inline Bound share_lo() { return at_least(0, "a share is not negative"); }
inline Bound share_hi() { return at_most(1, "a share is at most the whole"); }
inline Bound count_cap() { return limit(1 << 20, "trnsim's limit: 2^20"); }
}  // namespace field_ends

}  // namespace trnsim
