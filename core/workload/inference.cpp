// Inference: the plan's prefill and decode passes, priced and scheduled (workload.h).
#include <cmath>
#include <memory>

#include "common/format.h"
#include "schedule/schedule.h"
#include "workload/evaluate_parts.h"
#include "workload/speculative.h"

namespace trnsim::workload::detail {

namespace {

void fill_throughput(const Evaluation& ev, const schedule::InferenceTimes& t, InferenceResult& x) {
  const plan::Placement& pl = ev.ctx.pl;
  x.ttft_s = t.ttft_s;
  x.tpot_s = t.tpot_s;
  x.request_latency_s = t.request_latency_s;
  x.decode_tokens_per_s_per_replica = t.decode_tokens_per_s_per_replica;
  x.output_tokens_per_s_per_replica = t.output_tokens_per_s_per_replica;
  x.replicas = pl.dp;
  const double per_chip = x.output_tokens_per_s_per_replica / (double(pl.tp) * pl.pp);
  x.output_tokens_per_s_per_chip = per_chip;
  x.output_tokens_per_s_per_server = per_chip * ev.system.chips_per_server;
  x.output_tokens_per_s_per_system = per_chip * ev.system.chips;
  const double chips = double(pl.tp) * pl.pp;
  x.prefill_tokens_per_s_per_replica = t.prefill_tokens_per_s_per_replica;
  x.prefill_tokens_per_s_per_server = t.prefill_tokens_per_s_per_replica / chips * ev.system.chips_per_server;
  x.decode_tokens_per_s_per_server = t.decode_tokens_per_s_per_replica / chips * ev.system.chips_per_server;
}

// One pass through every stage, end to end (no micro-batches in flight).
double through(const schedule::PricedPass& p, int pp) {
  double t = p.boundary_time * (pp - 1);
  for (double s : p.stage_time) t += s;
  return t;
}

// Fused speculative decoding (speculative.h): the draft's prefill and k decode steps, the
// target's verify pass; replaces the decode cycle in the times and adds phases and memory.
void speculate(const Evaluation& ev, const plan::InferencePlan& P, schedule::InferenceTimes& t, Result& R,
               std::vector<std::pair<const Phase*, double>>& weights, std::vector<MemoryItem>& memory) {
  const Speculation& sp = ev.spec.speculation;
  const int pp = ev.ctx.pl.pp;
  const bool bonus = ev.stack && ev.stack->speculation_bonus_token;
  std::unique_ptr<Pricing> draft;
  try {
    draft = make_pricing(draft_spec(ev.spec), ev.system);
  } catch (const InputError& e) {
    throw InputError("workload.speculation.draft_model", "the draft model cannot run this placement: " + std::string(e.what()));
  }
  const InferenceParams& in = ev.spec.inference;
  const plan::InferencePlan D = plan::plan_inference(draft->ctx, draft->layout, in.batch, in.input_tokens, in.output_tokens);
  const double overlap = ev.stack ? ev.stack->context_encoding_overlap : 0;
  const schedule::PricedPass dpre = schedule::price_pass(*draft->pricer, D.prefill, draft->layout, pp, overlap);
  const schedule::PricedPass ddec = schedule::price_pass(*draft->pricer, D.decode, draft->layout, pp);
  const double positions = verify_positions(sp, bonus);
  const plan::Pass& dp = P.decode_pass;
  const plan::PassOps vops =
      plan::pass_ops(ev.ctx, ev.layout, verify_pass(P.micro_batch, positions, dp.ctx_full, dp.ctx_sliding, dp.ctx_chunked));
  const schedule::PricedPass ver = schedule::price_pass(*ev.pricer, vops, ev.layout, pp);
  const double tokens = speculative_tokens_per_step(sp, bonus);
  const double cycle = sp.length * through(ddec, pp) + through(ver, pp);
  const double steps = P.steps / tokens;  // speculative steps after the first token
  t.ttft_s += through(dpre, pp);
  t.tpot_s = cycle / tokens;
  t.request_latency_s = P.batch / P.prefill_batch * t.ttft_s + steps * cycle;
  t.decode_tokens_per_s_per_replica = P.batch * tokens / cycle;
  t.output_tokens_per_s_per_replica = P.batch * P.output_tokens / t.request_latency_s;
  const std::string d = ev.spec.speculation.draft_model;
  R.phases.push_back(make_phase("draft prefill", "the draft model (" + d + ") encodes the prompt, all stages",
                                schedule::pass_records(draft->layout, dpre, pp)));
  R.phases.push_back(make_phase("draft decode",
                                "one draft decode step (" + std::to_string(sp.length) + " per speculative step), all stages",
                                schedule::pass_records(draft->layout, ddec, pp)));
  R.phases.push_back(make_phase("verify",
                                "the target over " + fixed(positions, 0) + " positions per sequence; " + fixed(tokens, 2) +
                                    " tokens gained per step (acceptance " +
                                    (sp.acceptance_by_position_percent.empty() ? fixed(sp.acceptance, 2) : "by position") +
                                    "), all stages",
                                schedule::pass_records(ev.layout, ver, pp)));
  const std::size_t n = R.phases.size();
  weights.push_back({&R.phases[n - 3], P.batch / P.prefill_batch});
  weights.push_back({&R.phases[n - 2], steps * sp.length});
  weights.push_back({&R.phases[n - 1], steps});
  for (const auto& m : D.memory)
    if (m.name != "activations") memory.push_back({"draft " + m.name, m.bytes});
}

}  // namespace

void evaluate_inference(const Evaluation& ev, Result& R, InferenceResult& x) {
  const InferenceParams& in = ev.spec.inference;
  const plan::Placement& pl = ev.ctx.pl;
  const plan::Layout& L = ev.layout;
  const plan::InferencePlan P =
      plan::plan_inference(ev.ctx, L, in.batch, in.input_tokens, in.output_tokens, in.prefill_batch);
  if (P.batch < pl.pp)
    R.warnings.push_back("batch " + fixed(P.batch, 0) + " < pp " + std::to_string(pl.pp) +
                         ": the pipeline is under-filled in decode");

  // Context encoding runs part of its collectives under compute (the stack's overlap).
  const double overlap = ev.stack ? ev.stack->context_encoding_overlap : 0;
  const schedule::PricedPass pre = schedule::price_pass(*ev.pricer, P.prefill, L, pl.pp, overlap);
  R.phases.push_back(make_phase("prefill",
                                (P.prefill_batch > 1 ? "prefill of " + fixed(P.prefill_batch, 0) + " requests (" +
                                                           fixed(P.input_tokens, 0) + " tokens each)"
                                                     : "prefill of one request (" + fixed(P.input_tokens, 0) + " tokens)") +
                                    ", all stages",
                                schedule::pass_records(L, pre, pl.pp)));
  schedule::PricedPass dec;
  const bool decodes = P.steps > 0;
  if (decodes) {
    dec = schedule::price_pass(*ev.pricer, P.decode, L, pl.pp, ev.stack ? ev.stack->decode_overlap : 0);
    const double b = P.micro_batch;
    R.phases.push_back(make_phase("decode",
                                  "one decode step of a micro-batch of " + fixed(b, b == std::floor(b) ? 0 : 2) +
                                      " sequences at mean context " + fixed(P.decode_pass.ctx_full, 0) + ", all stages",
                                  schedule::pass_records(L, dec, pl.pp)));
  }
  schedule::InferenceTimes t = schedule::inference_times(P, pre, decodes ? &dec : nullptr, pl.pp);
  if (const double hidden = schedule::hidden_collective_s(pre, L); hidden > 0) {
    R.phases[0].hidden_s = hidden;
    R.phases[0].hidden_by = ev.spec.stack;
  }
  if (decodes)
    if (const double hidden = schedule::hidden_collective_s(dec, L); hidden > 0) {
      R.phases[1].hidden_s = hidden;
      R.phases[1].hidden_by = ev.spec.stack;
    }

  R.phases.reserve(R.phases.size() + 3);  // the weights below point into it
  std::vector<std::pair<const Phase*, double>> w = {{&R.phases[0], P.batch / P.prefill_batch}};
  std::vector<MemoryItem> memory = P.memory;
  if (decodes && ev.spec.speculation.enabled()) speculate(ev, P, t, R, w, memory);  // the decode phase stays as the reference
  else if (R.phases.size() > 1) w.push_back({&R.phases[1], P.steps});
  fill_throughput(ev, t, x);
  finish_shares(R, w);

  hold_memory(ev, memory, R);
  fill_economics(ev, R, x.output_tokens_per_s_per_chip);
  struct Kept {
    plan::Layout layout;
    plan::Placement placement;
    int steps;
    schedule::PricedPass prefill, decode;
    bool decodes;
  };
  auto kept = std::make_shared<const Kept>(Kept{L, pl, static_cast<int>(P.steps), std::move(pre), std::move(dec), decodes});
  R.make_timeline = [kept] {
    return schedule::inference_timeline(kept->steps, kept->layout, kept->prefill,
                                        kept->decodes ? &kept->decode : nullptr, kept->placement);
  };
}

}  // namespace trnsim::workload::detail
