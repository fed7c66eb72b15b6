// The bundled example scenarios (examples.h): the list core/CMakeLists.txt generates.
#include "scenario/examples.h"

#include <sstream>
#include <stdexcept>

#include "common/error.h"
#include "common/fields.h"
#include "embedded.h"

namespace trnsim {

const std::vector<std::string>& bundled_example_names() {
  static const std::vector<std::string> names = [] {
    const std::string* list = find_embedded("examples.list");
    if (!list) throw std::logic_error("examples.list is not embedded (core/CMakeLists.txt)");
    std::vector<std::string> out;
    std::istringstream in(*list);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
    return out;
  }();
  return names;
}

std::string bundled_example_key(const std::string& name) { return "examples/" + name + ".json"; }

const std::string& bundled_example_text(const std::string& name) {
  const std::string* text = find_embedded(bundled_example_key(name));
  if (!text) {
    const std::string hint = closest_name(name, bundled_example_names());
    throw InputError("example", "no example '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  return *text;
}

}  // namespace trnsim
