// Helpers shared by the model-import tests (test_model*.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "model/llm.h"

namespace test_model {

inline trnsim::model::ModelConfig bundled(const std::string& name) {
  return trnsim::model::import_hf_config(trnsim::model::bundled_model_json(name, "model"),
                                         "examples/models/" + name + ".json", name);
}

inline bool has_warning(const trnsim::model::ModelConfig& m, const std::string& prefix) {
  for (const auto& w : m.warnings)
    if (w.rfind(prefix, 0) == 0) return true;
  return false;
}

inline bool is_ignored(const trnsim::model::ModelConfig& m, const std::string& key) {
  return std::find(m.ignored_fields.begin(), m.ignored_fields.end(), key) != m.ignored_fields.end();
}

// A publisher's parameter figure is met when the count is within 1% of it, or -- for a
// figure stated to fewer digits than that ("17B active") -- rounds to it: lies within half
// a unit of its last stated digit (`unit`, 1e9 for "17B", 0.01e9 for "116.83B").
inline bool matches_published(double count, double published, double unit) {
  return std::abs(count - published) <= std::max(0.01 * published, 0.5 * unit);
}

}  // namespace test_model
