// Reading the hardware data files (core/data/**, or a user's own file): every number
// is a quantity {"value", "unit", "source", "alternatives"} whose unit is converted to
// SI and whose source must be a FACTS.md key (S1..S13), "press", "inferred: ..." or
// "assumption: ...". Alternatives (values the sources disagree on) are kept, and one
// is chosen when its name was selected ("trainium3+nki-guide").
//
// Not modelled here: anything about what the numbers mean (see load.cpp).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "common/fields.h"
#include "hw/system.h"

namespace trnsim::hw {

enum class Dim { count, ratio, bytes, bytes_per_s, flops, time, frequency, power, money_per_hour, boolean };

// What a quantity can say instead of a number (only where a field allows it).
struct SpecialValue {
  std::string word;   // e.g. "chip-scale-up"
  double value = 0;   // what it stands for, in SI units
};

class DataContext {
 public:
  explicit DataContext(std::set<std::string> selected) : selected_(std::move(selected)) {}
  // Reads r[key] as a quantity of dimension dim within [lo, hi] (SI). `source_key` is
  // the name under which its source and alternatives are recorded. Required.
  double quantity(ObjectReader& r, const std::string& key, const std::string& source_key, Dim dim,
                  double lo, double hi, const std::vector<SpecialValue>& specials = {});
  // Optional: returns def (and records nothing) when the key is absent or null.
  bool optional_quantity(ObjectReader& r, const std::string& key, const std::string& source_key, Dim dim,
                         double lo, double hi, double& value);
  // Records the source of a value derived here rather than read (execution.assumed_from).
  void record_source(const std::string& source_key, const std::string& source) { out_.sources[source_key] = source; }
  const std::set<std::string>& selected() const { return selected_; }
  const std::set<std::string>& used() const { return used_; }
  const std::set<std::string>& seen() const { return seen_; }
  // Takes over what a nested file recorded (its keys prefixed) and which alternatives it saw.
  void merge(const System& nested, const DataContext& nested_ctx, const std::string& prefix);
  // Copies the recorded sources, alternatives and choices into a system.
  void store(System& s) const;

 private:
  double read_value(const json& j, const std::string& path, Dim dim, double lo, double hi,
                    const std::vector<SpecialValue>& specials, bool allow_unit_absent);
  System out_;  // only its sources / alternatives / chosen maps are used
  std::set<std::string> selected_, used_, seen_;
};

// SI factor of a unit for a dimension, or throws naming the allowed units.
double unit_factor(const std::string& unit, Dim dim, const std::string& path);

}  // namespace trnsim::hw
