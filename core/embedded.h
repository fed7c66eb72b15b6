// Data compiled into the core: the hardware data files under core/data/ (keys
// "data/chips/trainium3.json", ...) and the scenarios and model configs under
// examples/ (keys "examples/default.json", ...). The bytes are generated at build
// time by cmake/embed_files.cmake, so native and WebAssembly builds read the same data.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace trnsim {

// All embedded files, keyed by their path relative to core/ or the project root.
const std::map<std::string, std::string>& embedded_files();

// The file's contents, or nullptr when no embedded file has that key.
const std::string* find_embedded(const std::string& key);

// Keys starting with prefix (e.g. "examples/"), sorted.
std::vector<std::string> embedded_keys(const std::string& prefix);
// The stems of the .json files directly in folder `prefix` ("examples/models/"), sorted:
// "Llama-3.1-8B" for "examples/models/Llama-3.1-8B.json", nothing from its subfolders.
std::vector<std::string> embedded_json_stems(const std::string& prefix);

}  // namespace trnsim
