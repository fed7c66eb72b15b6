// Order on every serving stack: with one replica and requests of one length, first come first
// served means requests get their first token and finish in the order they arrived -- under
// load, with preemptions (a preempted request returns to the head of the queue, ahead of every
// later arrival), and under either scheduler of the plain stack (chunked, prefill first).
// Policies that reorder say so here and are checked against their own rule: the routers of
// several replicas serve requests out of arrival order across replicas (a later request on an
// idle replica starts before an earlier one queued on a busy one); within a replica order holds,
// and round robin sends the i-th accepted request to replica i mod dp.
#include "serve_invariants.h"

#include <map>

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve_order {

using namespace serve_invariants;

namespace {

const json kFixedLengths = {{"input_tokens", {{"distribution", "fixed"}}}, {"output_tokens", {{"distribution", "fixed"}}}};

// Within each replica, a request arriving later gets its first token and finishes no earlier.
// Returns how many pairs of consecutive arrivals (all replicas together) are out of order.
int check_fcfs_per_replica(const serve::SimResult& sim) {
  std::vector<serve::CallRecord> calls = sim.calls;
  std::sort(calls.begin(), calls.end(), [](const serve::CallRecord& a, const serve::CallRecord& b) {
    return a.arrival_s != b.arrival_s ? a.arrival_s < b.arrival_s : a.chain < b.chain;
  });
  std::map<int, const serve::CallRecord*> last;  // per replica
  int crossed = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const serve::CallRecord& c = calls[i];
    if (i > 0 && (c.first_token_s < calls[i - 1].first_token_s || c.finish_s < calls[i - 1].finish_s)) ++crossed;
    const serve::CallRecord*& prev = last[c.replica];
    if (prev) {
      INFO("request " << c.chain << " after " << prev->chain << " on replica " << c.replica);
      REQUIRE(prev->arrival_s <= c.arrival_s);
      REQUIRE(prev->first_token_s <= c.first_token_s);
      REQUIRE(prev->finish_s <= c.finish_s);
    }
    prev = &c;
  }
  return crossed;
}

}  // namespace

TEST_CASE("serve invariants: one replica serves requests of one length first come first served", "[serve]") {
  for (const auto& stack : serve::stack_names()) {
    INFO("stack " << stack);
    const Scenario base = small_scenario(stack, kFixedLengths);
    const Run first = run(base);
    std::vector<std::pair<std::string, Scenario>> cases = {{"", base}};
    if (stack == "plain") {
      Scenario s = base;
      set_field(s, "serve.scheduler", "prefill_first");
      cases.push_back({"prefill first", s});
    }
    // A KV budget of 2.5 requests: two run, the third is admitted and preempted as they grow.
    if (block_layout(base)) cases.push_back({"preempting", with_kv_budget(base, 2.5 * kv_bytes(base, 320))});
    for (const auto& [name, sc] : cases) {
      INFO(name);
      std::int64_t preempted = 0;
      for (int seed : seeds(6)) {
        for (double load : {0.5, 1.0, 2.0}) {
          Scenario s = at_load(sc, first.report, load);
          set_field(s, "serve.seed", seed);
          const Run r = run(s);
          check_every_run(s, r);
          REQUIRE(r.sim.calls.size() == static_cast<std::size_t>(generated(s)));
          CHECK(check_fcfs_per_replica(r.sim) == 0);
          preempted += r.report.preemptions;
        }
      }
      if (name == "preempting" && !admits_without_eviction(base)) CHECK(preempted > 0);  // the case does preempt
    }
  }
}

TEST_CASE("serve invariants: routers reorder across replicas, never within one", "[serve]") {
  for (const auto& stack : serve::stack_names()) {
    INFO("stack " << stack);
    const Scenario one = small_scenario(stack, kFixedLengths);
    const Run first = run(one);
    for (const char* router : {"round_robin", "least_loaded"}) {
      INFO(router);
      int crossed = 0;
      for (int seed : seeds(6)) {
        Scenario s = small_scenario(stack, kFixedLengths, {{"parallelism", {{"dp", 2}}}});
        set_field(s, "serve.router", router);
        set_field(s, "serve.seed", seed);
        s = at_load(s, first.report, 2 * 1.5);  // two replicas: twice one replica's scale
        const Run r = run(s);
        check_every_run(s, r);
        crossed += check_fcfs_per_replica(r.sim);
        if (std::string(router) == "round_robin")  // nothing rejected: the i-th request to replica i mod 2
          for (const auto& c : r.sim.calls) REQUIRE(c.replica == c.chain % 2);
      }
      CHECK(crossed > 0);  // the reordering the router documents does happen
    }
  }
}

}  // namespace unit_serve_order
