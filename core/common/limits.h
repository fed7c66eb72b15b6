// Limits on user input: the one place each limit the core enforces is defined. Beyond a
// limit, input is refused with an InputError that names the field (or file) and states the
// limit -- never read into unbounded memory or time. The README's "Bad input" table lists
// what a user sees for each; tests/cli/test_bad_input.sh runs its examples.
//
// Limits defined elsewhere (one place each, listed here so this file is the index):
//  - chips in one system, after a cluster's ":N" UltraServers: 1e8, hw::kMaxChips in
//    core/hw/system.h (the ':N' count and every data file are checked against it);
//  - tokens of context (workload.inference.input_tokens / output_tokens,
//    workload.training.sequence_length): at most 2^24, core/workload/spec.cpp kMaxTokens;
//  - flows the event collective backend simulates in one step: 4,000,000,
//    core/collective/event.cpp;
//  - `trnsim mx error --n`: at most 2^26 samples, native/cli/cmd_mx.cpp.
#pragma once
#include <cstddef>
#include <cstdint>

namespace trnsim::limits {

// A JSON document a user hands in: a scenario, a sweep, a system / chip / cluster file, a
// model config (files and stdin). The largest bundled file is ~10 KB; a scenario with an
// inline config is a few tens of KB. nlohmann's DOM takes ~10-20x the text in memory, so
// this bounds a parse to a few hundred MB (within the browser's WebAssembly heap).
inline constexpr std::size_t kMaxJsonInputBytes = std::size_t{16} << 20;  // 16 MiB

// Nesting of objects and arrays in any JSON (or a link's MessagePack): every recursive walk
// over a value (copy, compare, dump, the binary reader) uses stack per level. Scenarios
// and configs nest a handful of levels.
inline constexpr std::size_t kMaxJsonDepth = 64;

// A playground link's fragment ("s=1.<base64>"); the page and `trnsim link decode`.
inline constexpr std::size_t kMaxLinkFragmentBytes = 256 * 1024;  // 256 KiB

// MX input on stdin (`trnsim mx quantize|dequantize|dot`): values per run, and bytes of
// text (a value is at most ~16 characters with its separator) or of raw float32.
inline constexpr std::size_t kMaxMxValues = std::size_t{1} << 26;  // 64 Mi values (256 MiB of FP32)
inline constexpr std::size_t kMaxMxInputBytes = std::size_t{1} << 30;  // 1 GiB

// A Hugging Face config's layer count (every per-layer table is sized by it). The largest
// published decoder has ~200 layers.
inline constexpr int kMaxModelLayers = 100000;

// Serving traces (core/serve/, not written yet): the readers must refuse a trace beyond
// these with an InputError naming the line, and stream lines rather than hold the text.
inline constexpr std::size_t kMaxTraceRequests = 10000000;             // 10 M requests (lines)
inline constexpr std::size_t kMaxTraceBytes = std::size_t{1} << 30;    // 1 GiB

}  // namespace trnsim::limits
