// The model configs bundled in examples/models/ (embedded into the core at build time):
// their names, and their JSON by name with a did-you-mean hint for a wrong one.
#include <algorithm>
#include <cctype>

#include "embedded.h"
#include "model/llm.h"

namespace trnsim::model {

std::vector<std::string> bundled_model_names() { return embedded_json_stems("examples/models/"); }

std::string model_name_hint(const std::string& name, const std::vector<std::string>& names) {
  for (const auto& n : names)  // a case-insensitive exact match first
    if (n.size() == name.size() &&
        std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return n;
  return closest_name(name, names);
}

json bundled_model_json(const std::string& name, const std::string& field) {
  const std::string key = "examples/models/" + name + ".json";
  const std::string* text = find_embedded(key);
  if (!text) {
    auto names = bundled_model_names();
    const std::string hint = model_name_hint(name, names);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError(field, "unknown bundled model '" + name + "'" +
                                (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                "; bundled: " + list + " (or give a Hugging Face config.json object inline, or a path to one ending in .json, relative to the scenario file)");
  }
  return parse_json_text(*text, key);
}

}  // namespace trnsim::model
