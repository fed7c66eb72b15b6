// Input strictness, the other formats, driven by the bundled files so no object is missed:
//  - hardware data (chip, system, cluster files): every object of every built-in file, with
//    an unknown key added and written as a user's file, is refused naming the file and the
//    key's path; a key given twice likewise;
//  - sweep files: the sweep object, its grid (keys must be scenario field paths) and an
//    inline base scenario refuse unknown keys, naming them;
//  - Hugging Face configs (the model): unknown keys are accounted for as warnings naming
//    them (the documented policy: a config carries library-specific keys), never dropped;
//    a key given twice is an error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "embedded.h"
#include "hw/system.h"
#include "model/llm.h"
#include "sweep/sweep.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_strict_data {

using trnsim::json;

namespace {

const char* kUnknown = "zz_unknown_key";

#ifdef __EMSCRIPTEN__
const std::string kPrefix = "test_strict_data_wasm_";
#else
const std::string kPrefix = "test_strict_data_native_";
#endif

// Paths of every object in j ("" the root), through arrays.
void objects(const json& j, const std::string& path, std::vector<std::string>& out, std::vector<json*>& nodes, json& self) {
  if (self.is_object()) {
    out.push_back(path);
    nodes.push_back(&self);
    for (auto it = self.begin(); it != self.end(); ++it) objects(j, trnsim::field_path(path, it.key()), out, nodes, it.value());
  } else if (self.is_array()) {
    for (std::size_t i = 0; i < self.size(); ++i) objects(j, trnsim::index_path(path, i), out, nodes, self[i]);
  }
}

// Loads data file text as a user's file; the InputError's field, or "(no error)".
std::string load_error(const std::string& text, const std::string& file) {
  const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/" + file;
  std::ofstream(path) << text;
  std::string field = "(no error)";
  try {
    trnsim::hw::load_system(path);
  } catch (const trnsim::InputError& e) {
    field = e.field();
  }
  std::remove(path.c_str());
  return field;
}

std::vector<std::string> data_keys() {
  std::vector<std::string> keys;
  for (const char* folder : {"data/chips/", "data/systems/", "data/clusters/"})
    for (const auto& k : trnsim::embedded_keys(folder)) keys.push_back(k);
  return keys;
}

std::string sweep_error(const json& j) {
  try {
    trnsim::sweep::parse_sweep(j, [](const std::string& name) {
      // The bundled sweeps name their base relative to examples/sweeps/.
      std::string key = "examples/" + name.substr(name.rfind('/') + 1);
      const std::string* text = trnsim::find_embedded(key);
      if (!text) throw trnsim::InputError("sweep.base", "no such example " + name);
      return *text;
    });
  } catch (const trnsim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("every object of every hardware data file refuses an unknown key, naming file and path", "[strict]") {
  std::size_t checked = 0;
  for (const auto& key : data_keys()) {
    const json original = json::parse(*trnsim::find_embedded(key));
    json probe = original;
    std::vector<std::string> paths;
    std::vector<json*> nodes;
    objects(probe, "", paths, nodes, probe);
    const std::string file = kPrefix + key.substr(key.rfind('/') + 1);
    const std::string label = std::string(TRNSIM_SOURCE_DIR) + "/build/" + file;
    REQUIRE(load_error(original.dump(), file) == "(no error)");
    for (const auto& p : paths) {
      json bad = original;
      std::vector<std::string> ps;
      std::vector<json*> ns;
      objects(bad, "", ps, ns, bad);
      (*ns[static_cast<std::size_t>(std::find(ps.begin(), ps.end(), p) - ps.begin())])[kUnknown] = 1;
      INFO(key << ": " << (p.empty() ? "(root)" : p));
      CHECK(load_error(bad.dump(), file) == label + ": " + trnsim::field_path(p, kUnknown));
      ++checked;
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("a key given twice in a data file is refused, naming file and path", "[strict]") {
  std::string text = *trnsim::find_embedded("data/systems/trn2-48xlarge.json");
  const std::string size = "\"size\": {\"value\": 4, \"source\": \"S6\"},";
  auto second = text.find(size, text.find(size) + 1);  // the second torus dimension
  REQUIRE(second != std::string::npos);
  text.insert(second + size.size(), "\"size\": {\"value\": 8, \"source\": \"S6\"},");
  const std::string file = kPrefix + "twice.json";
  CHECK(load_error(text, file) == std::string(TRNSIM_SOURCE_DIR) + "/build/" + file + ": fabric.torus[1].size");
}

TEST_CASE("sweep files refuse unknown keys in the sweep, its grid and an inline base", "[strict]") {
  for (const auto& key : trnsim::embedded_keys("examples/sweeps/")) {
    if (key.size() < 5 || key.compare(key.size() - 5, 5, ".json") != 0) continue;
    const json sweep = json::parse(*trnsim::find_embedded(key));
    INFO(key);
    REQUIRE(sweep_error(sweep) == "(no error)");
    json bad = sweep;
    bad[kUnknown] = 1;
    CHECK(sweep_error(bad).rfind(std::string("sweep.") + kUnknown + ": unknown key", 0) == 0);
    bad = sweep;
    bad["grid"][kUnknown] = json::array({1});
    CHECK(sweep_error(bad).rfind(std::string("sweep.grid.") + kUnknown + ": ", 0) == 0);
  }
  // An inline base is a scenario, read as strictly as a scenario file.
  json inline_base = {{"base", {{"workload", {{"model", "Llama-3.1-8B"}, {"efficiency", {{kUnknown, 1}}}}}}},
                      {"grid", {{"workload.inference.batch", {1, 2}}}}};
  CHECK(sweep_error(inline_base) == std::string("sweep.base: workload.efficiency.") + kUnknown + ": unknown key");
}

TEST_CASE("Hugging Face configs: unknown keys become warnings naming them, never dropped", "[strict]") {
  for (const auto& name : trnsim::model::bundled_model_names()) {
    json c = trnsim::model::bundled_model_json(name, "m");
    c[kUnknown] = 1;
    auto m = trnsim::model::import_hf_config(c, "workload.model", name);
    INFO(name);
    bool warned = false;
    for (const auto& w : m.warnings) warned = warned || w.rfind(std::string(kUnknown) + ": unknown field", 0) == 0;
    CHECK(warned);
    // Every key of the bundled config is read, listed as ignored, or warned about.
    auto plain = trnsim::model::import_hf_config(trnsim::model::bundled_model_json(name, "m"), "workload.model", name);
    for (const auto& w : plain.warnings) CHECK(w.find("unknown field") == std::string::npos);
  }
  std::string twice = "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"hidden_size\": 8192}";
  try {
    trnsim::parse_json_text(twice, "config.json");
    FAIL("a key given twice was accepted");
  } catch (const trnsim::InputError& e) {
    CHECK(e.field() == "hidden_size");
  }
}

}  // namespace unit_strict_data
