// The bundled example scenarios (core/scenario/examples.h): the one list the page, the
// Python module and the site's gallery read holds exactly the .json files directly under
// examples/ in the source tree, in file order; each is embedded and parses; an unknown name
// is an InputError naming `example` with the closest name.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <algorithm>

#include "common/error.h"
#include "embedded.h"
#include "scenario/examples.h"
#include "scenario/scenario.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_examples {

using namespace trnsim;

TEST_CASE("the bundled examples are examples/*.json of the source tree, in file order") {
  const std::string dir = std::string(TRNSIM_SOURCE_DIR) + "/examples/";
  DIR* d = opendir(dir.c_str());
  REQUIRE(d);
  std::vector<std::string> files;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (e->d_type != DT_DIR && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(name);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  std::vector<std::string> stems;
  for (const auto& f : files) stems.push_back(f.substr(0, f.size() - 5));
  CHECK(bundled_example_names() == stems);
  CHECK(std::count(stems.begin(), stems.end(), "default") == 1);
  for (const auto& name : bundled_example_names()) {
    INFO(name);
    REQUIRE(find_embedded(bundled_example_key(name)));
    CHECK(&bundled_example_text(name) == find_embedded("examples/" + name + ".json"));
    CHECK_NOTHROW(parse_scenario(bundled_example_text(name), bundled_example_key(name)));
  }
}

TEST_CASE("an unknown example names the field and the closest example") {
  const std::string near = bundled_example_names().front();
  try {
    bundled_example_text(near + "x");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.field() == "example");
    CHECK(std::string(e.what()).find("did you mean '" + near + "'") != std::string::npos);
  }
}

}  // namespace unit_examples
