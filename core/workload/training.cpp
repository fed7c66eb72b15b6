// Training: the plan's forward and backward passes, data-parallel exchange and optimizer,
// priced and scheduled as 1F1B (workload.h), with weak scaling across UltraServers.
#include "schedule/schedule.h"
#include "workload/evaluate_parts.h"

namespace trnsim::workload::detail {

namespace {

using price::PricedOp;

double sum_total(const std::vector<PricedOp>& ops) {
  double t = 0;
  for (const auto& o : ops) t += o.total_s();
  return t;
}

// The operators of one pass through every stage, counts summed over the layers of a type.
std::vector<PricedOp> gather(const plan::Layout& L, const schedule::PricedPass& p) {
  std::vector<PricedOp> ops(p.first.begin(), p.first.end());
  for (std::size_t ty = 0; ty < p.per_type.size(); ++ty)
    for (auto o : p.per_type[ty]) {
      o.count *= L.type_counts[ty];
      ops.push_back(o);
    }
  ops.insert(ops.end(), p.last.begin(), p.last.end());
  return ops;
}

struct Step {
  schedule::TrainingStages stages;
  schedule::TrainingTimes times;
  std::vector<PricedOp> dp_ops, boundary;
  PricedOp optimizer;
};

Step schedule_step(const Evaluation& ev, const plan::TrainingPlan& P, const schedule::PricedPass& fwd,
                   const schedule::PricedPass& bwd, int dense_group, int expert_group) {
  Step s;
  s.stages.forward_s = fwd.stage_time;
  s.stages.backward_s = bwd.stage_time;
  s.boundary = ev.pricer->price_all(P.boundary);
  if (s.boundary.size() == 2) {
    s.stages.activation_send_s = s.boundary[0].time_s;
    s.stages.gradient_send_s = s.boundary[1].time_s;
  }
  s.dp_ops = ev.pricer->price_all(plan::dp_exchange(ev.ctx, P, dense_group, expert_group));
  s.optimizer = ev.pricer->price(plan::optimizer_step(ev.ctx, P, dense_group, expert_group));
  s.times = schedule::training_times(s.stages, P.micro_batches, sum_total(s.dp_ops), s.optimizer.time_s,
                                     ev.spec.training.overlap);
  return s;
}

schedule::PricedPass priced(const Evaluation& ev, const std::vector<std::vector<plan::Operator>>& per_type,
                            const std::vector<plan::Operator>& first, const std::vector<plan::Operator>& last) {
  plan::PassOps ops;
  ops.per_type = per_type;
  ops.first = first;
  ops.last = last;
  return schedule::price_pass(*ev.pricer, ops, ev.layout, ev.ctx.pl.pp);
}

void add_phases(const Evaluation& ev, const plan::TrainingPlan& P, const schedule::PricedPass& fwd,
                const schedule::PricedPass& bwd, const Step& st, Result& R) {
  const auto& t = ev.spec.training;
  R.phases.push_back(make_phase("forward", "forward of one micro-batch (" + std::to_string(t.micro_batch) + " x " +
                                               fixed(t.sequence_length, 0) + " tokens), all stages",
                                gather(ev.layout, fwd)));
  R.phases.push_back(make_phase("backward", "backward (with " + t.recompute + " recompute) of one micro-batch, all stages",
                                gather(ev.layout, bwd)));
  std::vector<PricedOp> b = st.boundary;
  for (auto& o : b) o.count = double(ev.ctx.pl.pp - 1);
  R.phases.push_back(make_phase("pipeline", "activation/gradient transfers of one micro-batch", b));
  R.phases.push_back(make_phase("data-parallel", "gradient/parameter synchronisation per step (before overlap)", st.dp_ops));
  R.phases.push_back(make_phase("optimizer", "optimizer step", {st.optimizer}));
  // Shares of the step: stage-critical work scaled by micro-batches, exposed DP, optimizer.
  const double pipeline = st.times.pipeline_s;
  const double scale = pipeline / std::max(1e-30, R.phases[0].time_s + R.phases[1].time_s + R.phases[2].time_s);
  const double dps = st.times.dp_s > 0 ? st.times.dp_exposed_s / st.times.dp_s : 0;
  finish_shares(R, {{&R.phases[0], scale}, {&R.phases[1], scale}, {&R.phases[2], scale}, {&R.phases[3], dps},
                    {&R.phases[4], 1.0}});
  (void)P;
}

void fill_flops(const Evaluation& ev, const plan::TrainingPlan& P, int chips_used, TrainingResult& x) {
  x.model_flops_per_step = 3.0 * P.model_flops_per_token * x.tokens_per_step;
  x.hardware_flops_per_step = x.model_flops_per_step + P.recompute_flops_per_token * x.tokens_per_step;
  const double peak = ev.system.chip.peak(ev.ctx.dt.matmul);
  if (peak > 0) {
    x.mfu = x.model_flops_per_step / (x.step_time_s * chips_used * peak);
    x.hfu = x.hardware_flops_per_step / (x.step_time_s * chips_used * peak);
  }
}

// Set while a weak-scaling point is evaluated: that evaluation reports its own step only
// (its points would be the outer evaluation's smaller ones again).
thread_local bool in_scaling_point = false;
struct ScalingPointScope {  // sets in_scaling_point for one nested evaluation, exceptions included
  ScalingPointScope() { in_scaling_point = true; }
  ~ScalingPointScope() { in_scaling_point = false; }
};

// Weak scaling across the UltraServers of the placement: the same per-replica work with 1, 2,
// 4, ... UltraServers' worth of replicas, each point the whole training evaluated at that
// size (dp and the global batch scaled): its stages are then tp x dp_n chips apart, as on
// that many UltraServers, and its data-parallel exchange spans them.
void fill_scaling(const Evaluation& ev, const Result& R, TrainingResult& x) {
  const plan::Placement& pl = ev.ctx.pl;
  const int domains = R.domains_used;
  const int per_domain = ev.system.chips_per_domain > 0 ? ev.system.chips_per_domain : ev.system.chips;
  if (in_scaling_point || !(domains > 1 && R.chips_used % per_domain == 0 && pl.dp % domains == 0)) {
    x.scaling.push_back({domains, R.chips_used, x.step_time_s, x.tokens_per_s, 1.0});
    return;
  }
  std::vector<int> points;
  for (int n = 1; n < domains; n *= 2) points.push_back(n);
  points.push_back(domains);
  double base_per_chip = 0;
  for (int n : points) {
    ScalingPoint sp;
    sp.ultraservers = n;
    sp.chips = R.chips_used / domains * n;
    if (n == domains) {
      sp.step_time_s = x.step_time_s;
    } else {
      Spec s = ev.spec;
      s.parallelism.dp = pl.dp / domains * n;
      s.training.global_batch = ev.spec.training.global_batch / domains * n;
      ScalingPointScope scope;
      sp.step_time_s = evaluate(s, ev.system).training().step_time_s;
    }
    sp.tokens_per_s = x.tokens_per_step / domains * n / sp.step_time_s;
    double per_chip = sp.tokens_per_s / sp.chips;
    if (n == 1) base_per_chip = per_chip;
    sp.scaling_efficiency = base_per_chip > 0 ? per_chip / base_per_chip : 0;
    x.scaling.push_back(sp);
  }
}

}  // namespace

void evaluate_training(const Evaluation& ev, Result& R, TrainingResult& x) {
  const TrainingParams& t = ev.spec.training;
  const plan::Placement& pl = ev.ctx.pl;
  const plan::TrainingPlan P = plan::plan_training(
      ev.ctx, ev.layout, {t.sequence_length, t.global_batch, t.micro_batch, t.zero_stage, t.recompute});
  x.micro_batches = P.micro_batches;
  const schedule::PricedPass fwd = priced(ev, P.forward, P.first_forward, P.last_forward);
  const schedule::PricedPass bwd = priced(ev, P.backward, P.first_backward, P.last_backward);
  const Step st = schedule_step(ev, P, fwd, bwd, P.dense_group, P.expert_group);
  x.pipeline_bubble_fraction = st.times.bubble_fraction;
  x.step_time_s = st.times.step_s;
  x.tokens_per_step = double(t.global_batch) * t.sequence_length;
  x.tokens_per_s = x.tokens_per_step / x.step_time_s;
  x.tokens_per_s_per_chip = x.tokens_per_s / R.chips_used;
  add_phases(ev, P, fwd, bwd, st, R);
  fill_flops(ev, P, R.chips_used, x);
  R.make_timeline = [stages = st.stages, times = st.times, m = P.micro_batches, pl] {
    return schedule::training_timeline(stages, times, m, pl);
  };

  hold_memory(ev, P.memory, R);
  fill_scaling(ev, R, x);
  if (x.micro_batches < pl.pp)
    R.warnings.push_back("only " + std::to_string(x.micro_batches) + " micro-batches for " + std::to_string(pl.pp) +
                         " pipeline stages: most of the step is pipeline bubble");
  fill_economics(ev, R, x.tokens_per_s_per_chip);
  R.assumptions.push_back({"training.overlap", t.overlap, "of DP communication", "assumption: hidden behind backward"});
}

}  // namespace trnsim::workload::detail
