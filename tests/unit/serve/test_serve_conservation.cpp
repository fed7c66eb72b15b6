// Conservation on every serving stack (serve_invariants.h, check_every_run): every generated
// request arrives once and ends once (measured + rejected + cut = generated), the tokens the
// steps emit are the tokens the requests asked for, and every KV block a sequence held is
// returned when the run drains -- on plain traffic, with preemptions (cases built to preempt,
// and asserted to), with rejections and dropped recomputes, with a run cut by its duration,
// warm-up requests, two replicas behind each router, and a client cap on requests in flight.
// Little's law and the KV budget bound are checked on every one of these runs too.
#include "serve_invariants.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve_conservation {

using namespace serve_invariants;

TEST_CASE("serve invariants: requests, tokens and KV blocks are conserved on every stack", "[serve]") {
  const std::vector<std::string> stacks = serve::stack_names();
  REQUIRE(stacks.size() >= 2);  // enumerated from core/data/serving/, "plain" first
  for (const auto& stack : stacks) {
    INFO("stack " << stack);
    const Scenario base = small_scenario(stack);
    const Run first = run(base);
    const double longest_kv = kv_bytes(base, longest_request(base));
    const std::vector<Variant> variants = {
        {"plain traffic", json::object()},
        {"warm-up", {{"warmup_requests", 10}}},
        {"cut by the duration", {{"duration", 0.5 * 60 / slot_rate(first.report)}}},
        {"two replicas, round robin", {{"router", "round_robin"}}, {{"parallelism", {{"dp", 2}}}}},
        {"two replicas, least loaded", {{"router", "least_loaded"}}, {{"parallelism", {{"dp", 2}}}}},
        {"client cap on requests in flight", {{"max_concurrency", 5}}},
        {"closed loop", {{"arrivals", "closed"}, {"concurrency", 6}}},
        {"bursty", {{"arrivals", "gamma"}, {"burstiness", 0.25}}},
    };
    for (const auto& v : variants) {
      INFO(v.name);
      for (double load : {0.4, 1.5}) {
        std::int64_t cut = 0;
        for (int seed : seeds(4)) {
          Scenario s = small_scenario(stack, v.serve, v.workload);
          set_field(s, "serve.seed", seed);
          s = at_load(s, first.report, load);
          const Run r = run(s);
          check_every_run(s, r);
          cut += r.sim.cut;
        }
        if (v.serve.contains("duration") && load > 1) CHECK(cut > 0);  // the case does cut
      }
    }

    // Preemptions: a KV budget of three longest requests for eight slots, overloaded. Where
    // the stack keeps KV in blocks the run preempts (asserted, so the drain check is not
    // vacuous); without blocks every slot holds a whole sequence, so the budget cannot be cut
    // below eight of them and nothing is preempted.
    if (block_layout(base)) {
      const Scenario tight = with_kv_budget(base, 3 * longest_kv);
      std::int64_t preempted = 0;
      for (int seed : seeds(8)) {
        Scenario s = tight;
        set_field(s, "serve.seed", seed);
        for (double load : {0.8, 2.0}) {
          const Scenario sl = at_load(s, first.report, load);
          const Run r = run(sl);
          check_every_run(sl, r);
          preempted += r.report.preemptions;
          if (load > 1 && !admits_without_eviction(base)) CHECK(r.report.preemptions > 0);
        }
      }
      if (!admits_without_eviction(base)) CHECK(preempted > 0);
    } else {
      for (int seed : seeds(4)) {
        Scenario s = at_load(base, first.report, 2.0);
        set_field(s, "serve.seed", seed);
        const Run r = run(s);
        check_every_run(s, r);
        CHECK(r.report.preemptions == 0);
      }
    }

    // Rejections: prompts up to 1150 tokens. A Neuron stack compiled for 1024-token sequences
    // rejects what exceeds them; with blocks, a budget of one 900-token request rejects every
    // longer request on any stack (and a preempted one whose recompute outgrows the largest
    // prompt bucket is dropped, counted rejected too).
    {
      Scenario s = small_scenario(stack, {{"input_tokens", {{"mean", 600}, {"spread", 550}}}});
      if (block_layout(s)) s = with_kv_budget(s, kv_bytes(s, 900));
      std::int64_t rejected = 0;
      for (int seed : seeds(6)) {
        set_field(s, "serve.seed", seed);
        for (double load : {0.3, 1.5}) {
          const Scenario sl = at_load(s, first.report, load);
          const Run r = run(sl);
          check_every_run(sl, r);
          rejected += r.report.rejected;
        }
      }
      CHECK(rejected > 0);
    }
  }
}

}  // namespace unit_serve_conservation
