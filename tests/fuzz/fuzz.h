// Shared by the fuzz targets (tests/fuzz/targets/*.cpp). A target is one file defining
// LLVMFuzzerTestOneInput; it is built twice:
//  - in the asan build (clang, -fsanitize=fuzzer,address,undefined) as a libFuzzer program
//    that ctest runs for a bounded time (asan.fuzz.<target>, tests/fuzz/run.sh);
//  - in the native build as a replay program (tests/fuzz/replay_main.cpp) that runs every
//    seed and every committed regression input once (native.fuzz.<target>).
// What counts as a finding: a crash or sanitizer report, a hang (-timeout), a leak, an
// allocation beyond -malloc_limit_mb, and -- checked here -- any exception other than
// trnsim::InputError escaping the core (the CLI would exit 1, "internal error"), or a
// property of the surface (a round trip) that does not hold.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "common/error.h"

namespace trnsim::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "trnsim fuzz: FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Runs fn. Returns true when it succeeded, false when it threw InputError (bad input,
// reported as such: fine). Any other exception is a finding.
template <class Fn>
bool accepts(const char* surface, Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const InputError&) {
    return false;
  } catch (const std::exception& e) {
    fail(std::string(surface) + ": " + typeid(e).name() + " escaped instead of an InputError: " + e.what());
  } catch (...) {
    fail(std::string(surface) + ": a non-standard exception escaped");
  }
}

}  // namespace trnsim::fuzz
