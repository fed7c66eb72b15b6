// Fused speculative decoding (speculative.h).
#include "workload/speculative.h"

#include <algorithm>

namespace trnsim::workload {

namespace {

double acceptance_at(const Speculation& s, std::size_t i) {
  const auto& p = s.acceptance_by_position_percent;
  if (p.empty()) return s.acceptance;
  return p[std::min(i, p.size() - 1)] / 100.0;  // the field table bounds each to [0, 100]
}

}  // namespace

int verify_positions(const Speculation& s, bool bonus_token) { return s.length + (bonus_token ? 1 : 0); }

double speculative_tokens_per_step(const Speculation& s, bool bonus_token) {
  if (!s.enabled()) return 1;
  const int drafted = verify_positions(s, bonus_token) - 1;  // positions beyond the target's own token
  double tokens = 1, run = 1;
  for (int j = 0; j < drafted; ++j) {
    run *= acceptance_at(s, static_cast<std::size_t>(j));
    tokens += run;
  }
  return tokens;
}

Spec draft_spec(const Spec& target) {
  Spec d = target;
  d.model_name = target.speculation.draft_model;
  d.model_config = nullptr;
  d.imported.reset();
  d.speculation = Speculation{};
  return d;
}

plan::Pass verify_pass(double seqs, double positions, double ctx_full, double ctx_sliding, double ctx_chunked) {
  plan::Pass p;
  p.seqs = seqs;
  p.new_tokens = positions;
  p.ctx_full = p.pairs_full = ctx_full;
  p.ctx_sliding = p.pairs_sliding = ctx_sliding;
  p.ctx_chunked = p.pairs_chunked = ctx_chunked;
  p.logits_all_tokens = true;
  return p;
}

}  // namespace trnsim::workload
