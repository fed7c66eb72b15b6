// SplitMix64 (Steele, Lea, Flood 2014): the one small deterministic 64-bit generator of
// the project, for test inputs, sampled distributions and seeding larger generators.
// Unlike std:: distributions it gives the same numbers in every build (native and wasm).
#pragma once
#include <cstdint>

namespace trnsim {

// Advances state and returns the next output.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct SplitMix64 {
  std::uint64_t state;
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t next() { return splitmix64(state); }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }  // [0, n)
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }                     // [0, 1)
};

}  // namespace trnsim
