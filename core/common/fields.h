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

// The checks ObjectReader applies to one value, for callers that validate values outside an
// object (the scenario field table, set-by-path). Errors name `path`.
double checked_number(const json& value, const std::string& path, double lo, double hi);
std::int64_t checked_integer(const json& value, const std::string& path, std::int64_t lo, std::int64_t hi);
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
