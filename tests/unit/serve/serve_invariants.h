// Shared by the serving simulator's invariant tests (tests/unit/serve/test_serve_*.cpp): a
// small serving scenario for any stack, a run that keeps the simulator's own result beside the
// report (serve::Options::observe), and the checks every run must pass whatever its traffic --
// conservation of requests, tokens and KV blocks, Little's law, and the KV budget bound.
//
// Every stack of core/data/serving/ is enumerated from the data (serve::stack_names()), and the
// scales (rates, KV budgets) are derived from a first run of each stack, never typed: the
// invariants must hold for a stack added tomorrow.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "price/stack.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"
#include "report/serving.h"
#include "serve/serve.h"
#include "serve/sim/simulator.h"
#include "serve/stack/step_model.h"

namespace serve_invariants {

using namespace trnsim;

// A small, fast serving scenario on `stack`: Llama-3.1-8B on one Trainium2 chip (one H100 for a
// GPU server stack), 8 batch slots, compiled for 1024-token sequences (the Neuron stacks), prompts
// of ~256 tokens and
// outputs of ~64 varying per request, the prefix cache on where the stack keeps one. `serve`
// overrides serve.* fields (merged).
inline Scenario small_scenario(const std::string& stack, const json& serve = json::object(),
                               const json& workload = json::object()) {
  json w = {{"model", "Llama-3.1-8B"},
            {"parallelism", {{"tp", 1}}},
            {"inference", {{"batch", 1}, {"input_tokens", 256}, {"output_tokens", 64}}},
            {"stack", stack},
            {"compiled", {{"sequence_length", 1024}}}};
  w.merge_patch(workload);
  json v = {{"arrivals", "poisson"},
            {"rate", 10},
            {"requests", 60},
            {"seed", 1},
            {"max_num_seqs", 8},
            {"max_batched_tokens", 512},
            {"input_tokens", {{"distribution", "uniform"}, {"mean", 256}, {"spread", 192}}},
            {"output_tokens", {{"distribution", "uniform"}, {"mean", 64}, {"spread", 56}}}};
  v.merge_patch(serve);
  // A GPU server stack runs on GPUs (a Neuron chip refuses it): one node of H100s.
  const char* system = price::load_stack(stack).server ? "dgx-h100" : "trn2-48xlarge";
  return scenario_from_json({{"system", system}, {"compare_system", ""}, {"workload", w}, {"serve", v}});
}

// A named variant of small_scenario: its serve.* and workload.* fields merged over the base's.
struct Variant {
  const char* name;
  json serve;
  json workload = json::object();
};

// A serving run: the report and the simulator's own result (every call's record).
struct Run {
  serve::Result report;
  serve::SimResult sim;
};

inline Run run(const Scenario& s, std::shared_ptr<const serve::StepModel> model = nullptr) {
  Run r;
  serve::Options o;
  o.model = std::move(model);
  o.observe = [&r](const serve::SimResult& sim) { r.sim = sim; };
  r.report = serve::run(s, o);
  return r;
}

// The step model of `s` (shared across runs that change only the traffic: serve::server_key).
inline std::shared_ptr<const serve::StepModel> step_model(const Scenario& s) {
  return serve::make_step_model(hw::load_system(s.system), s.workload, s.serve);
}

// The request rate at which every batch slot is busy with requests of the mean lengths served
// at their zero-load pace: the scale of "load" for a stack (a prefill-first stack, whose
// prefills stall the decodes, saturates below it).
inline double slot_rate(const serve::Result& R) {
  return R.batch_slots / (R.zero_load_ttft_s + (R.reference_output_tokens - 1) * R.zero_load_tpot_s);
}

// `s` with more HBM held in reserve, so that the KV budget is `bytes`: the reserve fraction
// that leaves it, derived from a run's budget and the chip's capacity (weights and activations
// do not depend on the reserve).
inline Scenario with_kv_budget(Scenario s, double bytes) {
  const serve::Result R = serve::run(s);
  const double f = s.workload.efficiency.hbm_reserve_fraction + (R.kv_budget_bytes - bytes) / R.hbm_capacity_bytes;
  set_field(s, "workload.efficiency.hbm_reserve_fraction", f);
  return s;
}

// KV bytes (per chip) one request of `tokens` tokens of context holds on `s`'s server.
inline double kv_bytes(const Scenario& s, double tokens) { return step_model(s)->kv_bytes(tokens); }

// The longest request `s` generates: the clamps of its uniform length draws.
inline int longest_request(const Scenario& s) {
  auto top = [](const serve::Lengths& l) { return static_cast<int>(std::ceil(*l.mean + l.spread)) + 1; };
  return top(s.serve.input) + top(s.serve.output);
}

// Whether `s`'s server keeps the KV cache in blocks shared out of one budget (vLLM's paged
// layout; the Neuron stacks with prefix caching): then a request can be preempted when the
// blocks run out. Without it every compiled slot holds a whole sequence's KV from the start.
inline bool block_layout(const Scenario& s) { return step_model(s)->limits().prefix_caching; }
// A GPU server admitting under GUARANTEED_NO_EVICT (the trtllm stack) caps its batch at the
// requests the KV budget holds at full length: a tight budget shrinks the batch instead of
// preempting (preemption can still follow from requests longer than the mean).
inline bool admits_without_eviction(const Scenario& s) {
  const price::Stack& st = price::load_stack(s.workload.stack);
  return st.server && st.server->capacity_policy == "guaranteed_no_evict";
}

// The same requests (seed, lengths) at `load` times the slot rate.
inline Scenario at_load(Scenario s, const serve::Result& base, double load) {
  set_field(s, "serve.rate", load * slot_rate(base));
  return s;
}

// Every seed of the invariant runs: many small runs rather than one large one.
inline std::vector<int> seeds(int n) {
  std::vector<int> v;
  for (int i = 1; i <= n; ++i) v.push_back(i * 7919);  // spread over the seed space
  return v;
}

// Requests the source generated (generated arrivals: serve.requests).
inline std::int64_t generated(const Scenario& s) { return s.serve.requests; }

// The checks every run passes, whatever its traffic and stack.
inline void check_every_run(const Scenario& s, const Run& r) {
  const serve::SimResult& sim = r.sim;
  const serve::Result& R = r.report;
  const std::int64_t n = generated(s), warmup = s.serve.warmup_requests;
  INFO("stack " << s.workload.stack << ", seed " << s.serve.seed << ", rate " << s.serve.rate);

  // Conservation of requests: every generated request arrives once (none held back at the
  // client when the run ends: a cap on in-flight requests sends held ones as others finish) ...
  if (s.serve.duration_s == 0) REQUIRE(sim.calls_all == n);
  REQUIRE(sim.calls_all <= n);
  // ... and ends once: measured (warm-up chains apart), rejected or cut by serve.duration.
  std::set<std::int64_t> ids;
  for (const auto& c : sim.calls) {
    REQUIRE(c.chain >= warmup);
    REQUIRE(c.chain < n);
    REQUIRE(ids.insert(c.chain).second);  // no request finishes twice
    REQUIRE(c.arrival_s <= c.first_token_s);
    REQUIRE(c.first_token_s <= c.finish_s);
  }
  REQUIRE(R.requests == sim.calls.size());
  REQUIRE(R.rejected == sim.rejected);
  REQUIRE(R.cut == sim.cut);
  REQUIRE(sim.rejected_measured <= sim.rejected);
  // Warm-up completions are not recorded; every other request is measured, rejected or cut.
  const std::int64_t ended = static_cast<std::int64_t>(sim.calls.size()) + sim.rejected_measured;
  REQUIRE(ended <= n - warmup);
  REQUIRE(ended + sim.cut + (sim.rejected - sim.rejected_measured) + warmup >= sim.calls_all);
  if (warmup == 0) REQUIRE(static_cast<std::int64_t>(sim.calls.size()) + sim.rejected + sim.cut == sim.calls_all);

  // Tokens: what the steps emitted is what the requests asked for. Requests that did not
  // finish (cut, or dropped after a preemption) emitted part of theirs; rejected ones none.
  double asked = 0;
  int longest = 0;
  for (const auto& c : sim.calls) asked += c.output_tokens, longest = std::max(longest, c.output_tokens);
  const double unfinished = double(sim.cut + sim.rejected);
  if (warmup == 0) {
    REQUIRE(sim.output_tokens >= asked);
    const int max_output = s.serve.output.max > 0 ? s.serve.output.max : longest;
    REQUIRE(sim.output_tokens - asked <= unfinished * max_output);
    if (unfinished == 0) REQUIRE(sim.output_tokens == asked);
  }
  if (R.duration_s > 0) REQUIRE(R.output_tokens_per_s * R.duration_s == Approx(sim.output_tokens).epsilon(1e-12));

  // KV blocks: every block a sequence held is returned once the run drains -- finished,
  // preempted, rejected or dropped alike (unreferenced prefix-cache blocks may stay cached).
  const double budget = sim.kv_budget_bytes;
  if (sim.cut == 0) REQUIRE(std::fabs(sim.kv_held_at_end_bytes) <= 1e-9 * budget);
  // The budget: no replica ever had more KV allocated than its budget (the allocator's
  // tolerance is 1e-9 of it), and the report's peak share of sequences stays within it.
  REQUIRE(sim.peak_kv_used_bytes <= budget * (1 + 1e-9));
  REQUIRE(R.peak_kv_fraction <= 1 + 1e-9);
  REQUIRE(R.kv_budget_bytes == budget);

  // Little's law on the finite window [first arrival, end]: the area under N(t), the requests
  // in the system, equals the summed time in the system of the requests that left, plus the
  // part of the window spent by those still inside at its end. Counted from the records alone
  // (arrival to finish of every measured call), the calls the records miss are the warm-up
  // ones, the rejected (no time in the system, or the time until a dropped recompute: at most
  // the window each) and the cut (inside at the end: at most the window each). So
  //   0 <= L - lambda W_records <= (warm-up + rejected + cut) requests,
  // exact (to rounding) when every request was measured and finished; and the simulator's own
  // sum over every call matches L to rounding once the run has drained.
  const double T = sim.end_s - sim.start_s;
  if (T > 0) {
    double sojourn = 0, queued = 0;
    for (const auto& c : sim.calls) sojourn += c.finish_s - c.arrival_s, queued += c.queue_s;
    const double L = sim.in_system_area / T, lambda_w = sojourn / T;
    const double slack = double(warmup + sim.rejected + sim.cut);
    const double eps = 1e-9 * std::max(1.0, L);
    REQUIRE(R.little_l == Approx(L).epsilon(1e-12));
    REQUIRE(L >= lambda_w - eps);
    REQUIRE(L - lambda_w <= slack + eps);
    if (slack == 0) REQUIRE(L == Approx(lambda_w).epsilon(1e-9));
    if (sim.cut == 0) REQUIRE(L == Approx(sim.e2e_s_all / T).epsilon(1e-9));
    // The queue alone (waiting for admission, every episode of a preempted request).
    const double Lq = sim.in_queue_area / T;
    REQUIRE(Lq >= queued / T - eps);
    REQUIRE(Lq - queued / T <= slack + eps);
    if (slack == 0) REQUIRE(Lq == Approx(queued / T).margin(eps));
  }
}

}  // namespace serve_invariants
