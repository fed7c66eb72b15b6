// The schedule: priced passes become the times users read (TTFT, time per output token,
// training step) and a typed timeline of the same schedule, which the Chrome-trace writer
// and the playground's Timeline panel both draw. One schedule, so the timeline and the
// figures cannot disagree.
//
// Inference (continuous batching, one replica): a request's prefill runs alone through every
// pipeline stage (its TTFT: the stages' times plus the boundary transfers); a decode cycle
// moves min(batch, pp) micro-batches through the stages, max(one pass end to end,
// micro-batches x slowest stage); a request's latency is batch x TTFT (its own prefill and
// the other streams', each stalling decode once) + (output - 1) x cycle; with a prefill batch
// of p prompts per pass, batch / p passes stall decode.
// Training (1F1B, Megatron's non-interleaved schedule): every stage runs at the pace of the
// slowest -- a forward slot is the slowest forward plus the activation transfer, a backward
// slot the slowest backward plus the gradient transfer -- so the pipeline takes
// (micro-batches + pp - 1) x (forward slot + backward slot) and the bubble is
// (pp - 1) / (micro-batches + pp - 1). The data-parallel exchange overlaps the end of
// backward by the scenario's overlap fraction (at most the backward work of the step),
// then the optimizer runs.
// Overlap: a pass priced with an overlap fraction f (the serving stack's context-encoding
// overlap) runs each collective of a layer f of the way under the compute and HBM work since
// the layer's previous collective (the CC cores run collectives asynchronously, N4): a
// collective of d after work w costs d - min(f d, w). The stage times and the timeline
// (collective spans starting before the end of that work) both follow it.
// Does NOT model: interleaved or zero-bubble schedules, stage imbalance below the slowest
// stage's pace, decode/prefill overlap (the serving simulator does), stragglers.
#pragma once
#include <string>
#include <vector>

#include "plan/plan.h"
#include "price/pricer.h"

namespace trnsim::schedule {

// The priced operators of one pass and the stage times they add up to.
struct PricedPass {
  double overlap = 0;  // fraction of each collective run under the layer's preceding work
  std::vector<std::vector<price::PricedOp>> per_type;
  std::vector<price::PricedOp> first, last, boundary;
  std::vector<double> type_time;   // one layer of each type
  double first_time = 0, last_time = 0, boundary_time = 0;
  std::vector<double> stage_time;  // per stage, without boundary transfers
};
PricedPass price_pass(const price::Pricer& pricer, const plan::PassOps& ops, const plan::Layout& L, int pp,
                      double overlap = 0);
// Collective time the overlap rule (above) hides in one run of the ops, in order.
double hidden_collective_s(const std::vector<price::PricedOp>& ops, double overlap);
// The pass's hidden collective time over all its layers.
double hidden_collective_s(const PricedPass& p, const plan::Layout& L);
// Every operator of the pass through every stage (counts summed over stages), in order.
std::vector<price::PricedOp> pass_records(const plan::Layout& L, const PricedPass& p, int pp);

// ---- timeline ---------------------------------------------------------------------------
enum class Lane { compute = 1, hbm = 2, fabric = 3 };  // the Chrome-trace thread ids
struct Span {
  int stage = 0;
  Lane lane = Lane::compute;
  std::string name;   // operator or task ("attn.core", "forward mb 3")
  std::string phase;  // "prefill layer 5", "decode step 1", "forward", "data-parallel"
  double start_s = 0, dur_s = 0;
  bool op = false;    // an operator's span: detail and sizes below are meaningful
  std::string detail;
  double flops = 0, hbm_bytes = 0, fabric_bytes = 0;
};
struct Timeline {
  std::vector<std::string> stage_names;  // one lane group per pipeline stage
  std::vector<Span> spans;               // in the order they were scheduled
  double end_s = 0;
  std::string note;
};
// Appends a span (nothing for a zero duration).
void add_span(Timeline& tl, Span s);
// One occurrence of an operator on its lanes from t: the tensor engine busy for its compute
// time (with the kernel overhead), HBM for its memory time, the fabric for a collective.
// Returns its time.
double emit_op(Timeline& tl, int stage, const price::PricedOp& o, double t, const std::string& phase);

// ---- inference ----------------------------------------------------------------------------
struct InferenceTimes {
  double ttft_s = 0, tpot_s = 0, request_latency_s = 0;
  double decode_tokens_per_s_per_replica = 0, output_tokens_per_s_per_replica = 0;
  double prefill_tokens_per_s_per_replica = 0;  // prefill_batch x input tokens / TTFT
};
InferenceTimes inference_times(const plan::InferencePlan& P, const PricedPass& prefill, const PricedPass* decode, int pp);
// The prefill of one request, then the first decode steps of micro-batch 0 (at most three).
Timeline inference_timeline(int decode_steps, const plan::Layout& L, const PricedPass& prefill,
                            const PricedPass* decode, const plan::Placement& pl);

// ---- training -----------------------------------------------------------------------------
struct TrainingStages {
  std::vector<double> forward_s, backward_s;  // per stage, one micro-batch
  double activation_send_s = 0, gradient_send_s = 0;
};
struct TrainingTimes {
  double forward_slot_s = 0, backward_slot_s = 0, slot_s = 0;
  double slowest_backward_s = 0;  // backward work per micro-batch on the pacing stage
  double pipeline_s = 0, bubble_fraction = 0;
  double dp_s = 0, dp_exposed_s = 0, optimizer_s = 0, step_s = 0;
};
TrainingTimes training_times(const TrainingStages& st, int micro_batches, double dp_s, double optimizer_s,
                             double overlap);
// The same 1F1B schedule as a timeline; its end equals training_times(...).step_s.
Timeline training_timeline(const TrainingStages& st, const TrainingTimes& t, int micro_batches,
                           const plan::Placement& pl);

}  // namespace trnsim::schedule
