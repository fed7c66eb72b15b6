// Helpers shared by the unit tests.
#pragma once
#include <functional>
#include <string>

#include "common/error.h"

namespace test_support {

// The message of the InputError that f throws, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const trnsim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace test_support
