#include "embedded.h"

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

}  // namespace trnsim
