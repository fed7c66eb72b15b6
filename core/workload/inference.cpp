// Inference: the plan's prefill and decode passes, priced and scheduled (workload.h).
#include <cmath>
#include <memory>

#include "schedule/schedule.h"
#include "workload/evaluate_parts.h"

namespace trnsim::workload::detail {

namespace {

void fill_throughput(const Evaluation& ev, const schedule::InferenceTimes& t, Result& R) {
  const plan::Placement& pl = ev.ctx.pl;
  R.ttft_s = t.ttft_s;
  R.tpot_s = t.tpot_s;
  R.request_latency_s = t.request_latency_s;
  R.decode_tokens_per_s_per_replica = t.decode_tokens_per_s_per_replica;
  R.output_tokens_per_s_per_replica = t.output_tokens_per_s_per_replica;
  R.replicas = pl.dp;
  const double per_chip = R.output_tokens_per_s_per_replica / (double(pl.tp) * pl.pp);
  R.output_tokens_per_s_per_chip = per_chip;
  R.output_tokens_per_s_per_server = per_chip * ev.system.chips_per_server;
  R.output_tokens_per_s_per_system = per_chip * ev.system.chips;
}

}  // namespace

void evaluate_inference(const Evaluation& ev, Result& R) {
  const InferenceParams& in = ev.spec.inference;
  const plan::Placement& pl = ev.ctx.pl;
  const plan::Layout& L = ev.layout;
  const plan::InferencePlan P = plan::plan_inference(ev.ctx, L, in.batch, in.input_tokens, in.output_tokens);
  if (P.batch < pl.pp)
    R.warnings.push_back("batch " + fixed(P.batch, 0) + " < pp " + std::to_string(pl.pp) +
                         ": the pipeline is under-filled in decode");

  const schedule::PricedPass pre = schedule::price_pass(*ev.pricer, P.prefill, L, pl.pp);
  R.phases.push_back(make_phase("prefill", "prefill of one request (" + fixed(P.input_tokens, 0) + " tokens), all stages",
                                schedule::pass_records(L, pre, pl.pp)));
  schedule::PricedPass dec;
  const bool decodes = P.steps > 0;
  if (decodes) {
    dec = schedule::price_pass(*ev.pricer, P.decode, L, pl.pp);
    const double b = P.micro_batch;
    R.phases.push_back(make_phase("decode",
                                  "one decode step of a micro-batch of " + fixed(b, b == std::floor(b) ? 0 : 2) +
                                      " sequences at mean context " + fixed(P.decode_pass.ctx_full, 0) + ", all stages",
                                  schedule::pass_records(L, dec, pl.pp)));
  }
  const schedule::InferenceTimes t = schedule::inference_times(P, pre, decodes ? &dec : nullptr, pl.pp);
  fill_throughput(ev, t, R);

  std::vector<std::pair<const Phase*, double>> w = {{&R.phases[0], P.batch}};
  if (R.phases.size() > 1) w.push_back({&R.phases[1], P.steps});
  finish_shares(R, w);

  hold_memory(ev, P.memory, R);
  fill_economics(ev, R, R.output_tokens_per_s_per_chip);
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
