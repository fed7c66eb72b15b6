// MLPerf Inference's LLM benchmarks as a harness (serve.harness mlperf): what loadgen reports
// for a run of the serving simulator, in its own definitions (mlcommons/inference loadgen:
// results.cc PerformanceSummary, logging.cc, mlperf.conf), for the two scenarios a server runs:
//  - Server: samples arrive as a Poisson process at the target QPS (serve.arrivals poisson);
//    the run is VALID only when the 99th-percentile TTFT and the 99th-percentile TPOT meet the
//    benchmark's constraints (serve.targets; llama2-70b and mixtral-8x7b: 2 s and 200 ms).
//    "Completed tokens per second" = output tokens / the time the last-issued sample completed;
//    "Completed samples per second" = (samples - 1) / the same time.
//  - Offline: every sample issued at once (serve.arrivals burst); tokens and samples per second
//    over the last completion.
// TPOT is loadgen's per sample: (latency - first-token latency) / (output tokens - 1); means
// are over the samples; a percentile p is the sorted values' element at index floor(p x n).
// Output tokens are what the SUT reports per sample (every generated token, the first too).
// Does NOT model: loadgen's 600 s minimum duration, minimum query count and early-stopping
// test (a simulated run is far shorter: the minimum is reported, not enforced), sample
// selection from the dataset (lengths come from serve.input / serve.output), accuracy.
#pragma once
#include <optional>
#include <vector>

#include "serve/serve.h"

namespace trnsim::serve {

// loadgen's percentile of ascending values: sorted[floor(p x n)] (p < 1); 0 when empty.
double loadgen_percentile(const std::vector<double>& sorted, double p);

// The summary of the measured calls (SimResult::calls; the run opens at the first one's issue,
// so warm-up requests left out of the measurement are left out of its time too). server: the
// Server scenario (constraints checked), else Offline.
Mlperf mlperf_summary(const std::vector<CallRecord>& calls, bool server, std::optional<double> ttft_limit_s,
                      std::optional<double> tpot_limit_s);

// loadgen's minimum run length for these scenarios (mlperf.conf: *.Server.min_duration,
// *.Offline.min_duration = 600000 ms).
constexpr double kMlperfMinDurationS = 600;

}  // namespace trnsim::serve
