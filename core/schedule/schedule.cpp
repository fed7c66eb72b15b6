// Inference and 1F1B training schedules and their timelines (schedule.h).
#include "schedule/schedule.h"

#include <algorithm>

namespace trnsim::schedule {

using price::Category;
using price::PricedOp;

namespace {

double sum_time(const std::vector<PricedOp>& ops) {
  double t = 0;
  for (const auto& o : ops) t += o.time_s;
  return t;
}

std::vector<std::string> stage_names(const plan::Placement& pl) {
  std::vector<std::string> names;
  for (int s = 0; s < pl.pp; ++s) {
    int first_chip = s * pl.tp * pl.dp;
    names.push_back("stage " + std::to_string(s) + ": TP group of chips " + std::to_string(first_chip) + "-" +
                    std::to_string(first_chip + pl.tp - 1) + " (replica 0)");
  }
  return names;
}

// The part of collective `o` run under `work` seconds of preceding work.
double hidden_part(const PricedOp& o, double work, double overlap) { return std::min(overlap * o.time_s, work); }

// One pass through every stage, layer by layer; returns the end time.
double replay_pass(Timeline& tl, const plan::Layout& L, const PricedPass& p, int pp, double t,
                   const std::string& label) {
  for (int s = 0; s < pp; ++s) {
    if (s == 0)
      for (const auto& o : p.first) t += emit_op(tl, s, o, t, label);
    for (std::size_t i = 0; i < L.layer_type.size(); ++i) {
      if (L.layer_stage[i] != s) continue;
      double work = 0;  // since the layer's previous collective
      for (const auto& o : p.per_type[L.layer_type[i]]) {
        const double h = o.category == Category::fabric ? hidden_part(o, work, p.overlap) : 0;
        t += emit_op(tl, s, o, t - h, label + " layer " + std::to_string(i)) - h;
        work = o.category == Category::fabric ? 0 : work + o.time_s;
      }
    }
    if (s == pp - 1)
      for (const auto& o : p.last) t += emit_op(tl, s, o, t, label);
    else
      for (const auto& o : p.boundary) t += emit_op(tl, s, o, t, label);
  }
  return t;
}

}  // namespace

void add_span(Timeline& tl, Span s) {
  if (s.dur_s > 0) tl.spans.push_back(std::move(s));
}

double emit_op(Timeline& tl, int stage, const PricedOp& o, double t, const std::string& phase) {
  Span s;
  s.stage = stage;
  s.name = o.name;
  s.phase = phase;
  s.start_s = t;
  s.op = true;
  s.detail = o.detail;
  s.flops = o.flops;
  s.hbm_bytes = o.hbm_bytes;
  s.fabric_bytes = o.fabric_bytes;
  if (o.category == Category::fabric) {
    s.lane = Lane::fabric;
    s.dur_s = o.time_s;
    add_span(tl, s);
    return o.time_s;
  }
  if (o.compute_s > 0) {
    Span c = s;
    c.lane = Lane::compute;
    c.dur_s = o.compute_s + o.overhead_s;
    add_span(tl, c);
  }
  if (o.memory_s > 0) {
    Span h = s;
    h.lane = Lane::hbm;
    h.dur_s = o.memory_s;
    add_span(tl, h);
  }
  if (o.compute_s <= 0 && o.memory_s <= 0) {
    s.lane = Lane::compute;
    s.dur_s = o.overhead_s;
    add_span(tl, s);
  }
  return o.time_s;
}

double hidden_collective_s(const std::vector<PricedOp>& ops, double overlap) {
  double hidden = 0, work = 0;
  for (const auto& o : ops) {
    if (o.category == Category::fabric) {
      hidden += hidden_part(o, work, overlap);
      work = 0;
    } else {
      work += o.time_s;
    }
  }
  return hidden;
}

double hidden_collective_s(const PricedPass& p, const plan::Layout& L) {
  double h = 0;
  for (std::size_t t = 0; t < p.per_type.size(); ++t) h += L.type_counts[t] * hidden_collective_s(p.per_type[t], p.overlap);
  return h;
}

PricedPass price_pass(const price::Pricer& pricer, const plan::PassOps& ops, const plan::Layout& L, int pp,
                      double overlap) {
  PricedPass c;
  c.overlap = overlap;
  for (const auto& type_ops : ops.per_type) {
    c.per_type.push_back(pricer.price_all(type_ops));
    c.type_time.push_back(sum_time(c.per_type.back()) - hidden_collective_s(c.per_type.back(), overlap));
  }
  c.first = pricer.price_all(ops.first);
  c.last = pricer.price_all(ops.last);
  c.first_time = sum_time(c.first);
  c.last_time = sum_time(c.last);
  c.boundary = pricer.price_all(ops.boundary);
  c.boundary_time = sum_time(c.boundary);
  for (int s = 0; s < pp; ++s) {
    double t = 0;
    for (std::size_t ty = 0; ty < L.type_names.size(); ++ty) t += L.stage_type_counts[s][ty] * c.type_time[ty];
    if (s == 0) t += c.first_time;
    if (s == pp - 1) t += c.last_time;
    c.stage_time.push_back(t);
  }
  return c;
}

std::vector<PricedOp> pass_records(const plan::Layout& L, const PricedPass& c, int pp) {
  std::vector<PricedOp> ops;
  for (auto o : c.first) ops.push_back(o);
  for (std::size_t t = 0; t < c.per_type.size(); ++t)
    for (auto o : c.per_type[t]) {
      o.count *= L.type_counts[t];
      ops.push_back(o);
    }
  for (auto o : c.last) ops.push_back(o);
  for (auto o : c.boundary) {
    o.count *= pp - 1;
    ops.push_back(o);
  }
  return ops;
}

InferenceTimes inference_times(const plan::InferencePlan& P, const PricedPass& pre, const PricedPass* dec, int pp) {
  InferenceTimes r;
  double prefill = pre.boundary_time * (pp - 1);
  for (double t : pre.stage_time) prefill += t;
  r.ttft_s = prefill;
  double cycle = 0;
  if (dec && P.steps > 0) {
    double through = dec->boundary_time * (pp - 1), slowest = 0;
    for (double t : dec->stage_time) {
      through += t;
      slowest = std::max(slowest, t);
    }
    cycle = std::max(through, P.micro_batches * slowest);
  }
  r.tpot_s = cycle;
  r.request_latency_s = P.batch / P.prefill_batch * r.ttft_s + P.steps * cycle;
  r.prefill_tokens_per_s_per_replica = prefill > 0 ? P.prefill_batch * P.input_tokens / prefill : 0;
  r.decode_tokens_per_s_per_replica = cycle > 0 ? P.batch / cycle : 0;
  r.output_tokens_per_s_per_replica = P.batch * P.output_tokens / r.request_latency_s;
  return r;
}

Timeline inference_timeline(int decode_steps, const plan::Layout& L, const PricedPass& pre,
                            const PricedPass* dec, const plan::Placement& pl) {
  Timeline tl;
  tl.stage_names = stage_names(pl);
  double t = replay_pass(tl, L, pre, pl.pp, 0, "prefill");
  if (dec) {
    int steps = std::min(3, decode_steps);
    for (int i = 0; i < steps; ++i) t = replay_pass(tl, L, *dec, pl.pp, t, "decode step " + std::to_string(i + 1));
  }
  tl.end_s = t;
  tl.note = "Prefill, then the first decode steps of micro-batch 0 (every later step looks the same at its context length).";
  return tl;
}

TrainingTimes training_times(const TrainingStages& st, int micro, double dp_s, double optimizer_s, double overlap) {
  TrainingTimes r;
  const int pp = static_cast<int>(st.forward_s.size());
  const double boundary = 0 + st.activation_send_s + st.gradient_send_s;
  // The pacing stage: the most work per micro-batch, transfers included.
  double slowest = 0, max_f = 0, max_b = 0;
  int pacing = 0;
  for (int s = 0; s < pp; ++s) {
    const double tf = st.forward_s[s], tb = st.backward_s[s];
    if (tf + tb + boundary > slowest) slowest = tf + tb + boundary, r.slowest_backward_s = tb, pacing = s;
    max_f = std::max(max_f, tf);
    max_b = std::max(max_b, tb);
  }
  r.forward_slot_s = max_f + st.activation_send_s;
  r.backward_slot_s = max_b + st.gradient_send_s;
  // When one stage is the slowest both ways the slot is its whole work (the same sum).
  const bool one_stage = pp > 0 && st.forward_s[pacing] == max_f && st.backward_s[pacing] == max_b;
  r.slot_s = one_stage ? slowest : r.forward_slot_s + r.backward_slot_s;
  r.pipeline_s = (micro + pp - 1) * r.slot_s;
  r.bubble_fraction = double(pp - 1) / (micro + pp - 1);
  r.dp_s = dp_s;
  r.dp_exposed_s = std::max((1.0 - overlap) * dp_s, dp_s - micro * r.slowest_backward_s);
  r.optimizer_s = optimizer_s;
  r.step_s = r.pipeline_s + r.dp_exposed_s + optimizer_s;
  return r;
}

Timeline training_timeline(const TrainingStages& st, const TrainingTimes& t, int m, const plan::Placement& pl) {
  Timeline tl;
  tl.stage_names = stage_names(pl);
  const int stages = pl.pp;
  // 1F1B task order per stage: warm-up forwards, then one forward / one backward, then backwards.
  std::vector<std::vector<std::pair<char, int>>> order(stages);
  for (int s = 0; s < stages; ++s) {
    int warm = std::min(stages - s - 1, m), nf = 0, nb = 0;
    for (int i = 0; i < warm; ++i) order[s].push_back({'F', nf++});
    while (nf < m || nb < m) {
      if (nf < m) order[s].push_back({'F', nf++});
      if (nb < m) order[s].push_back({'B', nb++});
    }
  }
  // List scheduling at the pacing stage's slots: a forward waits for the previous stage's
  // forward of its micro-batch, a backward for the next stage's backward (the last stage's
  // for its own forward). Each task's own work fills the start of its slot.
  std::vector<double> free_at(stages, 0.0);
  std::vector<std::vector<double>> f_done(stages, std::vector<double>(m, -1.0)), b_done = f_done;
  std::vector<std::size_t> next(stages, 0);
  auto task = [&](int s, int lane, const std::string& name, const std::string& phase, double start, double dur) {
    Span sp;
    sp.stage = s;
    sp.lane = static_cast<Lane>(lane);
    sp.name = name;
    sp.phase = phase;
    sp.start_s = start;
    sp.dur_s = dur;
    add_span(tl, sp);
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < stages; ++s) {
      while (next[s] < order[s].size()) {
        auto [kind, i] = order[s][next[s]];
        const std::string mb = " mb " + std::to_string(i);
        double ready = free_at[s];
        if (kind == 'F') {
          if (s > 0 && f_done[s - 1][i] < 0) break;
          if (s > 0) ready = std::max(ready, f_done[s - 1][i]);
          task(s, 1, "forward" + mb, "forward", ready, st.forward_s[s]);
          if (s < stages - 1)
            task(s, 3, "send activations" + mb, "pipeline", ready + st.forward_s[s], st.activation_send_s);
          f_done[s][i] = free_at[s] = ready + t.forward_slot_s;
        } else {
          if (s < stages - 1 && b_done[s + 1][i] < 0) break;
          ready = std::max(ready, s < stages - 1 ? b_done[s + 1][i] : f_done[s][i]);
          task(s, 1, "backward" + mb, "backward", ready, st.backward_s[s]);
          if (s > 0) task(s, 3, "send gradients" + mb, "pipeline", ready + st.backward_s[s], st.gradient_send_s);
          b_done[s][i] = free_at[s] = ready + t.backward_slot_s;
        }
        ++next[s];
        progress = true;
      }
    }
  }
  double end = 0;
  for (double x : free_at) end = std::max(end, x);
  // The exchange overlaps the end of backward by what the schedule hides, then the optimizer.
  const double hidden = t.dp_s - t.dp_exposed_s;
  for (int s = 0; s < stages; ++s) {
    task(s, 3, "data-parallel gradient sync", "data-parallel", end - hidden, t.dp_s);
    task(s, 2, "optimizer step", "optimizer", end + t.dp_exposed_s, t.optimizer_s);
  }
  tl.end_s = end + t.dp_exposed_s + t.optimizer_s;
  tl.note = "One training step: 1F1B pipeline blocks per micro-batch at the pace of the slowest stage (each "
            "stage's own work at the start of its slot), the data-parallel exchange overlapping the end of "
            "backward, and the optimizer.";
  return tl;
}

}  // namespace trnsim::schedule
