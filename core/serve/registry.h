// Named implementations that register themselves: the serving stacks' step models
// (stack/step_model.h), the routers (policy/router.h) and the batch policies
// (policy/batch_policy.h). Each implementation is one file ending in one registration line
// (TRNSIM_ROUTER, TRNSIM_BATCH_POLICY, TRNSIM_STEP_MODEL), as ui panels register with
// TRNSIM_PANEL; the field table takes its choices from the names registered here, so a new
// policy needs no other edit.
//
// The registration line also defines a symbol named after the implementation
// (trnsim_<kind>_<id>, C linkage): the core is a static library, whose unreferenced members a
// linker would drop with their registration, so core/CMakeLists.txt reads the registration
// lines of core/serve and asks every consumer's link for those symbols. A registration in an
// executable's own file (a unit test's router) needs nothing more.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

namespace trnsim::serve {

template <class Factory>
class Registry {
 public:
  struct Entry {
    int order = 0;  // the place among the choices (then the name)
    std::string name;
    Factory make{};
  };
  // At static initialisation, from a registration line. A name registered twice keeps the first.
  static bool add(int order, const std::string& name, Factory make) {
    auto& v = entries();
    if (find(name)) return false;
    Entry e;
    e.order = order;
    e.name = name;
    e.make = make;
    v.insert(std::upper_bound(v.begin(), v.end(), e,
                              [](const Entry& a, const Entry& b) {
                                return a.order != b.order ? a.order < b.order : a.name < b.name;
                              }),
             e);
    return true;
  }
  static const Entry* find(const std::string& name) {
    for (const auto& e : entries())
      if (e.name == name) return &e;
    return nullptr;
  }
  // The registered names by order, then name.
  static std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto& e : entries()) out.push_back(e.name);
    return out;
  }

 private:
  static std::vector<Entry>& entries() {
    static std::vector<Entry> v;  // built at first use: registration order across files is unspecified
    return v;
  }
};

}  // namespace trnsim::serve

// The registration line's symbol and its registrar (see above); `kind` and `id` are identifiers.
#define TRNSIM_SERVE_REGISTER(kind, id, call) extern "C" const bool trnsim_##kind##_##id = (call)
