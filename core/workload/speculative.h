// Fused speculative decoding with a draft model (NxD Inference's enable_fused_speculation,
// N7), priced with the same plan -> price layer as everything else. One speculative step of a
// batch: the draft model decodes k times (k = speculation length), then the target runs one
// pass over the k candidate positions of every sequence (NxDI: the last sampled token and the
// k - 1 drafts it verifies; with a bonus token, k drafts and k + 1 positions). A sequence
// keeps the target's token at the first rejected position, so it gains
//   tokens = 1 + sum_{j=1..n} prod_{i=1..j} a_i   (n = k - 1, or k with a bonus token)
// where a_i is the acceptance of the i-th drafted token given the earlier ones were accepted
// (a fixed rate, or one per position). Time per output token = (k draft steps + verify) /
// tokens. The draft shares the target's placement, precisions, efficiencies and stack; its
// prefill adds to the time to first token (fused speculation encodes the prompt with both).
// `trnsim run` reports it; the serving simulator carries tokens through
// StepTime::tokens_per_sequence (core/serve/).
// Sources: N7 (NxDI model_base.py _token_gen_forward: k draft iterations, target on k tokens).
// Does NOT model: tree / EAGLE drafts (an EAGLE head is a one-layer draft: give its config as
// the draft model), acceptance that depends on context or temperature, the draft's separate
// KV cache beyond its HBM (counted with the draft's weights).
#pragma once
#include "plan/plan.h"
#include "workload/spec.h"

namespace trnsim::workload {

// Expected tokens a sequence gains per speculative step (formula above).
double speculative_tokens_per_step(const Speculation& s, bool bonus_token);
// Positions the target verifies per sequence and step: k, or k + 1 with a bonus token.
int verify_positions(const Speculation& s, bool bonus_token);
// The draft model's spec: the target's, with the draft's model and no speculation.
Spec draft_spec(const Spec& target);
// The target's verify pass: `positions` new tokens per sequence after `ctx_*` cached tokens
// (decode-style attention against the cache; logits at every position).
plan::Pass verify_pass(double seqs, double positions, double ctx_full, double ctx_sliding, double ctx_chunked);

}  // namespace trnsim::workload
