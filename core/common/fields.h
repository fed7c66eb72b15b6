// Strict reading of JSON objects written by users (scenarios, data files, model
// configs). Every read names its field path, every error says what is wrong with it,
// and keys that nothing read are reported with the closest valid name, so a typo is
// never silently ignored:
//   ObjectReader r(j, "workload");
//   int batch = r.integer("batch", 1, 1, 1 << 20);   // default 1, range [1, 2^20]
//   r.finish();   // throws InputError "workload.bach: unknown key (did you mean 'batch'?)"
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"

namespace trnsim {

using json = nlohmann::ordered_json;

// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate closest to word, or "" when none is reasonably close.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);
// Parses JSON text; a syntax error becomes an InputError naming `what` and the byte offset,
// and so does nesting deeper than limits::kMaxJsonDepth (deep nesting would exhaust the
// stack of every recursive walk over the value: copy, compare, dump); a key given twice in
// one object is an InputError naming its path.
json parse_json_text(const std::string& text, const std::string& what);
// Parses MessagePack with the same nesting limit and no key twice (InputError naming
// `what`); other errors are nlohmann's json::parse_error.
json parse_msgpack_bounded(const std::string& bytes, const std::string& what);
// "a.b" joined with a key, or "a[3]" for an index.
std::string field_path(const std::string& parent, const std::string& key);
std::string index_path(const std::string& parent, std::size_t i);

// One end of a number's accepted range and why it is there; the error states both:
//   "workload.economics.pue: 0.8 is below 1 (a PUE is at least 1)".
// An open end refuses the value itself: an efficiency is in (0, 1], so 0 is refused and 1
// is not. A physical end bounds the quantity itself (an efficiency is at most 1); a limit is
// trnsim's own cap on a side where the quantity has none (a batch has no largest size), and
// its reason says why the cap is where it is. Build ends with the functions below.
struct Bound {
  enum class Kind { undeclared, physical, limit };
  double value = 0;
  bool open = false;
  Kind kind = Kind::undeclared;  // undeclared: not a number's end (strings, choices)
  std::string why;
  // An open end has no nearest valid value: where a control (the page's slider) stops
  // short of it. A closed end's control stops at the value.
  double stop = 0;
  double control_end() const { return open ? stop : value; }
};
Bound at_least(double value, std::string why);          // physical, closed lower end
Bound above(double value, std::string why, double stop);  // physical, open lower end
Bound at_most(double value, std::string why);           // physical, closed upper end
Bound below(double value, std::string why, double stop);  // physical, open upper end
Bound limit(double value, std::string why);             // trnsim's cap, closed (either end)

// Why v lies beyond lo or hi ("0.8 is below 1 (a PUE is at least 1)"), or "" when it is
// within both.
std::string bound_violation(double v, const Bound& lo, const Bound& hi);

// The checks ObjectReader applies to one value, for callers that validate values outside an
// object (the scenario field table, set-by-path). Errors name `path`.
double checked_number(const json& value, const std::string& path, double lo, double hi);
std::int64_t checked_integer(const json& value, const std::string& path, std::int64_t lo, std::int64_t hi);
// The same within ends that say why they are there (bound_violation's message).
double checked_number(const json& value, const std::string& path, const Bound& lo, const Bound& hi);
std::int64_t checked_integer(const json& value, const std::string& path, const Bound& lo, const Bound& hi);
bool checked_boolean(const json& value, const std::string& path);
std::string checked_string(const json& value, const std::string& path);
std::string checked_choice(const std::string& value, const std::string& path, const std::vector<std::string>& allowed);
// "unknown key 'x'" with the closest of `known`, for a key no reader asked for.
[[noreturn]] void throw_unknown_key(const std::string& path, const std::string& key, const std::vector<std::string>& known);

class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path);

  bool has(const std::string& key) const;
  const json& raw(const std::string& key);  // required, any type
  const json* optional_raw(const std::string& key);
  std::string path(const std::string& key) const { return field_path(path_, key); }

  // Numbers: finite, within [lo, hi]. The variants without a default require the key.
  double number(const std::string& key, double lo, double hi);
  double number(const std::string& key, double def, double lo, double hi);
  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi);
  std::int64_t integer(const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi);
  bool boolean(const std::string& key, bool def);
  std::string string(const std::string& key);
  std::string string(const std::string& key, const std::string& def);
  // A string that must be one of `allowed` (the error lists them).
  std::string choice(const std::string& key, const std::vector<std::string>& allowed);
  std::string choice(const std::string& key, const std::string& def,
                     const std::vector<std::string>& allowed);

  // Marks a key as known without reading it (e.g. comments, or read elsewhere).
  void ignore(const std::string& key) { read_.insert(key); }
  // Throws InputError for the first key that was never read.
  void finish() const;

 private:
  const json& object_;
  std::string path_;
  std::set<std::string> read_;
  std::vector<std::string> known_;  // every key asked for, for suggestions
};

}  // namespace trnsim
