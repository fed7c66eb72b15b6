#include "hw/sources.h"

#include <cctype>
#include <unordered_map>

#include "common/fields.h"
#include "embedded.h"

namespace trnsim::hw {

const std::vector<SourceKey>& source_keys() {
  static const std::vector<SourceKey> keys = [] {
    const std::string* text = find_embedded("data/sources.json");
    if (!text) throw std::logic_error("data/sources.json is not embedded");
    json j = parse_json_text(*text, "core/data/sources.json");
    ObjectReader r(j, "sources.json");
    r.ignore("note");
    std::vector<SourceKey> out;
    const json& list = r.raw("sources");
    for (std::size_t i = 0; i < list.size(); ++i) {
      ObjectReader s(list[i], index_path("sources", i));
      out.push_back({s.string("key"), s.string("repository"), s.string("document"), s.string("used_for")});
      s.finish();
    }
    r.finish();
    return out;
  }();
  return keys;
}

const SourceKey* find_source_key(const std::string& key) {
  // Every sourced number of every data file asks here (thousands of times when the page first
  // lists the systems): an index, not a walk over the list.
  static const std::unordered_map<std::string, const SourceKey*> index = [] {
    std::unordered_map<std::string, const SourceKey*> out;
    for (const auto& k : source_keys()) out.emplace(k.key, &k);
    return out;
  }();
  auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
}

namespace {

bool key_char(char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }

// Tokens that look like source keys: a capital S or D followed by digits, as a whole word.
std::vector<std::string> named_keys(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((s[i] != 'S' && s[i] != 'D') || (i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1])))) continue;
    std::size_t j = i + 1;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i + 1 || (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j])))) continue;
    out.push_back(s.substr(i, j - i));
  }
  return out;
}

}  // namespace

void check_source(const std::string& source, const std::string& path) {
  auto starts = [&](const char* p) { return source.rfind(p, 0) == 0; };
  std::size_t n = 0;
  while (n < source.size() && key_char(source[n])) ++n;
  const std::string first = source.substr(0, n);
  bool ok = starts("press") || starts("inferred") || starts("assumption") || starts("guess") || starts("calibrated") ||
            (!first.empty() && find_source_key(first));
  if (!ok)
    throw InputError(path, "a source must start with a key of core/data/sources.json (S1..S16, D1, N1.., PERF-A..C, PERF-V), "
                           "'press', 'inferred', 'assumption', 'guess' or 'calibrated', got '" + source + "'");
  for (const auto& k : named_keys(source))
    if (!find_source_key(k)) throw InputError(path, "unknown source key '" + k + "' (core/data/sources.json lists the keys)");
}

}  // namespace trnsim::hw
