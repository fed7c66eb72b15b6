// The source keys the data cite (core/data/sources.json: S1..S16 and D1 from FACTS.md, the
// PERF.md sources), checked whenever a data file is read, printed by `trnsim describe
// --sources` and on the site's about page.
#pragma once
#include <string>
#include <vector>

namespace trnsim::hw {

struct SourceKey {
  std::string key;         // "S1"
  std::string repository;  // "aws-neuron/aws-neuron-sdk"
  std::string document;    // "about-neuron/arch/neuron-hardware/trainium3.rst"
  std::string used_for;
};
const std::vector<SourceKey>& source_keys();
const SourceKey* find_source_key(const std::string& key);
// Validates a data value's source text: it starts with a listed key, "press", "inferred",
// "assumption", "guess" or "calibrated" (a value fitted to PERF.md rows, which it names), and every key it names (S12, D1, ...) is listed. Throws
// InputError(path, ...) otherwise.
void check_source(const std::string& source, const std::string& path);

}  // namespace trnsim::hw
