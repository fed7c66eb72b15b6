// The model configs bundled in examples/models/ (embedded into the core at build time):
// their names, and their JSON by name with a did-you-mean hint for a wrong one.
#include <algorithm>
#include <cctype>

#include "embedded.h"
#include "model/llm.h"

namespace trnsim::model {

std::vector<std::string> bundled_model_names() {
  std::vector<std::string> names;
  const std::string prefix = "examples/models/";
  for (const auto& key : embedded_keys(prefix)) {
    std::string rest = key.substr(prefix.size());
    if (rest.size() > 5 && rest.compare(rest.size() - 5, 5, ".json") == 0 && rest.find('/') == std::string::npos)
      names.push_back(rest.substr(0, rest.size() - 5));
  }
  std::sort(names.begin(), names.end());
  return names;
}

json bundled_model_json(const std::string& name, const std::string& field) {
  const std::string key = "examples/models/" + name + ".json";
  const std::string* text = find_embedded(key);
  if (!text) {
    auto names = bundled_model_names();
    std::string hint;
    for (const auto& n : names) {  // case-insensitive exact match first
      if (n.size() == name.size() &&
          std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
        hint = n;
    }
    if (hint.empty()) hint = closest_name(name, names);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError(field, "unknown bundled model '" + name + "'" +
                                (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                "; bundled: " + list + " (or give a Hugging Face config.json object inline)");
  }
  return parse_json_text(*text, key);
}

}  // namespace trnsim::model
