// In-order list scheduling of a NeuronCore program (see engine.h).
#include <algorithm>

#include "engine/engine.h"

namespace trnsim::engine {

const char* unit_name(int unit) {
  switch (unit) {
    case kTensor: return "tensor";
    case kVector: return "vector";
    case kScalar: return "scalar";
    case kGpsimd: return "gpsimd";
    case kDma: return "dma";
  }
  return "?";
}

Schedule simulate(const Program& program, int dma_queues) {
  const auto& code = program.code();
  Schedule s;
  s.end_s.assign(code.size(), 0.0);
  double free_at[kUnits] = {0, 0, 0, 0, 0};
  std::vector<double> queue_free(static_cast<std::size_t>(std::max(1, dma_queues)), 0.0);
  double dma_busy = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Instruction& in = code[i];
    double ready = 0;
    for (int d : in.deps) ready = std::max(ready, s.end_s[static_cast<std::size_t>(d)]);
    double start;
    if (in.unit == kJoin) {
      start = ready;
    } else if (in.unit == kDma) {
      std::size_t q = static_cast<std::size_t>(in.queue) % queue_free.size();
      start = std::max(ready, queue_free[q]);
      queue_free[q] = start + in.busy_s;
      dma_busy += in.busy_s;
    } else {
      start = std::max(ready, free_at[in.unit]);
      free_at[in.unit] = start + in.busy_s;
      s.busy_s[in.unit] += in.busy_s;
    }
    s.end_s[i] = start + in.busy_s + in.latency_s;
    s.time_s = std::max(s.time_s, s.end_s[i]);
  }
  s.busy_s[kDma] = dma_busy / static_cast<double>(queue_free.size());
  return s;
}

}  // namespace trnsim::engine
