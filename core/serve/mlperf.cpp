// MLPerf Inference loadgen's summary of a serving run (mlperf.h).
#include "serve/mlperf.h"

#include <algorithm>
#include <cmath>

namespace trnsim::serve {

double loadgen_percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(std::floor(p * static_cast<double>(sorted.size())));
  return sorted[std::min(i, sorted.size() - 1)];
}

Mlperf mlperf_summary(const std::vector<CallRecord>& calls, bool server, std::optional<double> ttft_limit_s,
                      std::optional<double> tpot_limit_s) {
  Mlperf m;
  m.scenario = server ? "Server" : "Offline";
  m.samples = calls.size();
  if (calls.empty()) {
    m.valid = false;
    return m;
  }
  // The run opens at the first measured sample's issue (serve.warmup_requests leave the ramp out).
  double start_s = calls.front().arrival_s;
  for (const auto& r : calls) start_s = std::min(start_s, r.arrival_s);
  std::vector<double> ttft, tpot;
  double tokens = 0, last_completion = start_s, last_issued = -1, last_issued_done = start_s;
  for (const auto& r : calls) {
    ttft.push_back(r.first_token_s - r.arrival_s);
    // A sample of one token has no time per output token (loadgen divides by tokens - 1; the
    // reference's generation asks for at least two).
    if (r.output_tokens > 1) tpot.push_back((r.finish_s - r.first_token_s) / double(r.output_tokens - 1));
    tokens += r.output_tokens;
    last_completion = std::max(last_completion, r.finish_s);
    if (r.arrival_s >= last_issued) last_issued = r.arrival_s, last_issued_done = r.finish_s;
  }
  double sum = 0;
  for (double x : ttft) sum += x;
  m.ttft_mean_s = sum / double(m.samples);
  sum = 0;
  for (double x : tpot) sum += x;
  m.tpot_mean_s = tpot.empty() ? 0 : sum / double(tpot.size());
  std::sort(ttft.begin(), ttft.end());
  std::sort(tpot.begin(), tpot.end());
  m.ttft_p99_s = loadgen_percentile(ttft, 0.99);
  m.tpot_p99_s = loadgen_percentile(tpot, 0.99);
  if (server) {
    m.duration_s = last_issued_done - start_s;
    m.samples_per_s = m.duration_s > 0 ? double(m.samples - 1) / m.duration_s : 0;
    m.ttft_limit_s = ttft_limit_s;
    m.tpot_limit_s = tpot_limit_s;
    m.valid = (!ttft_limit_s || m.ttft_p99_s <= *ttft_limit_s) && (!tpot_limit_s || m.tpot_p99_s <= *tpot_limit_s);
    // loadgen: the last sample's scheduled time must reach the minimum duration
    m.min_duration_met = last_issued - start_s >= kMlperfMinDurationS;
  } else {
    m.duration_s = last_completion - start_s;
    m.samples_per_s = m.duration_s > 0 ? double(m.samples) / m.duration_s : 0;
    m.min_duration_met = m.duration_s >= kMlperfMinDurationS;
  }
  m.tokens_per_s = m.duration_s > 0 ? tokens / m.duration_s : 0;
  return m;
}

}  // namespace trnsim::serve
