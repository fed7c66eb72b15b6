#include "embedded.h"

#include <algorithm>

namespace trnsim {

const std::string* find_embedded(const std::string& key) {
  const auto& files = embedded_files();
  auto it = files.find(key);
  return it == files.end() ? nullptr : &it->second;
}

std::vector<std::string> embedded_keys(const std::string& prefix) {
  std::vector<std::string> keys;
  for (const auto& [key, text] : embedded_files())
    if (key.compare(0, prefix.size(), prefix) == 0) keys.push_back(key);
  return keys;
}

std::vector<std::string> embedded_json_stems(const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& key : embedded_keys(prefix)) {
    const std::string rest = key.substr(prefix.size());
    if (rest.size() > 5 && rest.compare(rest.size() - 5, 5, ".json") == 0 && rest.find('/') == std::string::npos)
      names.push_back(rest.substr(0, rest.size() - 5));
  }
  std::sort(names.begin(), names.end());  // "A-B.json" sorts before "A.json", "A" before "A-B"
  return names;
}

}  // namespace trnsim
