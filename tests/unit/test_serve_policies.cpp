// Serving policies as registered implementations: a router defined and registered in this
// file alone (as a new router file in core/serve/policy/ would be) becomes a choice of
// serve.router and runs; what it does is derived from its definition -- every call on the
// first of four replicas is served exactly as one replica serves them -- and the built-in
// registrations feed the field table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "hw/system.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/policy/batch_policy.h"
#include "serve/policy/router.h"
#include "serve/requests.h"
#include "serve/sim/simulator.h"
#include "serve/stack/step_model.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve_policies {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

// The trivial router: every call to replica 0.
class FirstReplicaRouter : public serve::Router {
 public:
  int route(const serve::RoutedCall&, const std::vector<serve::ReplicaLoad>&) override { return 0; }
};

std::unique_ptr<serve::Router> make_first_replica_router() { return std::make_unique<FirstReplicaRouter>(); }

// Llama-3.1-8B on one Trainium2 chip per replica, `dp` replicas, Poisson arrivals faster than
// one chip serves (its queue grows).
Scenario loaded(int dp, const std::string& router) {
  Scenario s = scenario_from_json({{"system", "trn2-48xlarge"},
                                   {"compare_system", ""},
                                   {"workload",
                                    {{"model", "Llama-3.1-8B"},
                                     {"parallelism", {{"tp", 1}, {"dp", dp}}},
                                     {"inference", {{"batch", 1}, {"input_tokens", 1500}, {"output_tokens", 250}}},
                                     {"stack", "plain"}}},
                                   {"serve", {{"arrivals", "poisson"}, {"rate", 50}, {"requests", 200}}}});
  set_field(s, "serve.router", router);
  return s;
}

}  // namespace

TRNSIM_ROUTER(1000, test_first_replica, make_first_replica_router);

TEST_CASE("serve policies: a router registered from one file is a choice of serve.router", "[serve]") {
  const auto names = serve::router_names();
  CHECK(std::find(names.begin(), names.end(), "test_first_replica") != names.end());
  CHECK(names.back() == "test_first_replica");  // its order (1000) places it after the built-in ones
  Scenario s = loaded(4, "round_robin");
  set_field(s, "serve.router", "test_first_replica");
  CHECK(s.serve.router == "test_first_replica");
  CHECK(contains(error_of([&] { set_field(s, "serve.router", "no_such_router"); }), "serve.router"));
  CHECK(contains(error_of([] { serve::make_router("no_such_router"); }), "test_first_replica"));
  // The built-in policies are the field table's choices, in their registered order.
  CHECK(names.front() == "round_robin");
  CHECK(serve::batch_policy_names() == std::vector<std::string>{"chunked", "prefill_first"});
}

TEST_CASE("serve policies: every call on the first of four replicas is served as one replica serves them", "[serve]") {
  const Scenario four = loaded(4, "test_first_replica"), one = loaded(1, "round_robin");
  const hw::System sys = hw::load_system(four.system);
  const auto model = serve::make_step_model(sys, four.workload, four.serve);
  auto simulate = [&](int replicas, const std::string& router) {
    auto src = serve::generated_source(four.serve, four.serve.rate, 1500, 250);
    serve::SimConfig c;
    c.replicas = replicas;
    c.router = router;
    return serve::simulate(*model, *src, c);
  };
  // The router's effect, call by call: replica 0 only; round robin deals them out in turn.
  const serve::SimResult first = simulate(4, "test_first_replica"), dealt = simulate(4, "round_robin");
  REQUIRE(first.calls.size() == 200);
  CHECK(std::all_of(first.calls.begin(), first.calls.end(), [](const serve::CallRecord& r) { return r.replica == 0; }));
  for (const auto& r : dealt.calls) CHECK(r.replica == r.chain % 4);

  // Through `trnsim serve`: the same latencies as one replica, to the bit; the mean batch per
  // replica is a quarter of it (three replicas idle).
  const serve::Result r4 = serve::run(four), r1 = serve::run(one);
  CHECK(r4.ttft.mean == r1.ttft.mean);
  CHECK(r4.ttft.p99 == r1.ttft.p99);
  CHECK(r4.tpot.mean == r1.tpot.mean);
  CHECK(r4.e2e.max == r1.e2e.max);
  CHECK(r4.max_batch == r1.max_batch);
  CHECK(std::fabs(4 * r4.mean_batch - r1.mean_batch) <= 1e-12 * r1.mean_batch);
  // Spreading the same load over four replicas queues less.
  const serve::Result spread = serve::run(loaded(4, "round_robin"));
  CHECK(spread.ttft.mean < r4.ttft.mean);
}

}  // namespace unit_serve_policies
