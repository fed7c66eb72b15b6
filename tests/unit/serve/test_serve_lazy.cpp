// The lazy decode (core/serve/sim/simulator.cpp) against the reference that visits every
// running sequence at every step (serve::Options::exact_steps): on every stack whose step model
// takes decodes by their count and longest context, runs built to exercise each reason a lazy
// sequence is looked at again -- a KV block, a sampled position, its last token, memory running
// out (preemption), a run cut by its duration -- and the traffic around it (warm-up requests,
// two replicas, a closed loop, a client cap) give the same report to the bit (its JSON), the
// same records of every call and the same pooled token gaps, run for run. The lazy path is
// asserted to have run (tokens emitted without a visit), so the comparison is never vacuous.
#include "serve_invariants.h"

#include "report/serving.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve_lazy {

using namespace serve_invariants;

namespace {

Run run_with(const Scenario& s, bool exact) {
  Run r;
  serve::Options o;
  o.exact_steps = exact;
  o.observe = [&r](const serve::SimResult& sim) { r.sim = sim; };
  r.report = serve::run(s, o);
  return r;
}

bool same_call(const serve::CallRecord& a, const serve::CallRecord& b) {
  return a.chain == b.chain && a.call == b.call && a.turn == b.turn && a.replica == b.replica &&
         a.session == b.session && a.arrival_s == b.arrival_s && a.first_token_s == b.first_token_s &&
         a.finish_s == b.finish_s && a.queue_s == b.queue_s && a.input_tokens == b.input_tokens &&
         a.output_tokens == b.output_tokens && a.cached_tokens == b.cached_tokens && a.preemptions == b.preemptions &&
         a.kv_bytes_final == b.kv_bytes_final;
}

// Runs `s` both ways and compares; returns the lazy run.
Run compare(const Scenario& s) {
  const Run exact = run_with(s, true);
  const Run lazy = run_with(s, false);
  CHECK(exact.sim.lazy_tokens == 0);
  CHECK(serve::result_to_json(lazy.report).dump() == serve::result_to_json(exact.report).dump());
  CHECK(lazy.sim.token_gaps == exact.sim.token_gaps);
  REQUIRE(lazy.sim.calls.size() == exact.sim.calls.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < lazy.sim.calls.size(); ++i) differ += same_call(lazy.sim.calls[i], exact.sim.calls[i]) ? 0 : 1;
  CHECK(differ == 0);
  CHECK(lazy.sim.steps == exact.sim.steps);
  CHECK(lazy.sim.busy_s == exact.sim.busy_s);
  CHECK(lazy.sim.output_tokens == exact.sim.output_tokens);
  CHECK(lazy.sim.peak_kv_used_bytes == exact.sim.peak_kv_used_bytes);
  CHECK(lazy.sim.kv_held_at_end_bytes == exact.sim.kv_held_at_end_bytes);
  CHECK(lazy.sim.cache_evictions == exact.sim.cache_evictions);
  return lazy;
}

}  // namespace

TEST_CASE("serve lazy decode: every report and record equals the per-step reference", "[serve]") {
  int lazy_stacks = 0;
  for (const auto& stack : serve::stack_names()) {
    // Outputs long enough for many blocks and sampled positions each (up to ~300 tokens).
    const json long_outputs = {{"requests", 120}, {"output_tokens", {{"mean", 160}, {"spread", 140}}}};
    const Scenario base = small_scenario(stack, long_outputs);
    if (!step_model(base)->prices_decodes_by_longest_context()) continue;
    ++lazy_stacks;
    INFO("stack " << stack);
    const Run first = run(base);
    const std::vector<Variant> variants = {
        {"plain traffic", json::object()},
        {"warm-up", {{"warmup_requests", 20}}},
        {"cut by the duration", {{"duration", 0.5 * 120 / slot_rate(first.report)}}},
        {"two replicas, least loaded", {{"router", "least_loaded"}}, {{"parallelism", {{"dp", 2}}}}},
        {"client cap on requests in flight", {{"max_concurrency", 5}}},
        {"closed loop", {{"arrivals", "closed"}, {"concurrency", 12}}},
    };
    std::int64_t lazy_tokens = 0;
    for (const auto& v : variants) {
      INFO(v.name);
      json patch = long_outputs;
      patch.merge_patch(v.serve);
      const Scenario s = at_load(small_scenario(stack, patch, v.workload), first.report, 1.5);
      lazy_tokens += compare(s).sim.lazy_tokens;
    }
    CHECK(lazy_tokens > 0);
    // Memory running out: a KV budget of three longest requests for eight slots, overloaded
    // (preempted sequences leave lazily, from the back of the batch).
    if (block_layout(base)) {
      const Scenario tight = at_load(with_kv_budget(base, 3 * kv_bytes(base, longest_request(base))), first.report, 2.0);
      const Run r = compare(tight);
      CHECK(r.report.preemptions > 0);
      CHECK(r.sim.lazy_tokens > 0);
    }
  }
  CHECK(lazy_stacks > 0);
}

}  // namespace unit_serve_lazy
