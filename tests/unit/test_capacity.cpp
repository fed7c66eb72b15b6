// The capacity planner: the pruned search returns what simulating every replica count of every
// family returns; the configuration it picks, served again on its own by `trnsim serve`'s
// path, meets the targets; prices and per-token figures follow from the chip data; outcomes
// survive JSON (shards); bad input names its field.
#include <catch2/catch.hpp>

#include <cmath>

#include "capacity/capacity.h"
#include "hw/system.h"
#include "report/capacity.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_capacity {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

// Llama-3.1-8B at 20 requests/s on Trainium2 servers, plain stack: a small grid that runs in a
// fraction of a second, whose families fail in each way (too slow per token at tp1 with few
// slots, needing more replicas) and meet at different replica counts.
Scenario small(const json& capacity = json::object(), const json& targets = json::object()) {
  json t = {{"ttft_s", 0.5}, {"tpot_s", 0.02}, {"fraction", 0.9}};
  for (auto& [k, v] : targets.items()) t[k] = v;
  json c = {{"systems", "trn2-48xlarge"},
            {"tp", {1, 2, 4}},
            {"batch_slots", {4, 32}},
            {"schedulers", "chunked, prefill_first"},
            {"max_chips", 16}};
  for (auto& [k, v] : capacity.items()) c[k] = v;
  json j = {{"system", "trn2-48xlarge"},
            {"compare_system", ""},
            {"workload",
             {{"model", "Llama-3.1-8B"}, {"inference", {{"input_tokens", 1000}, {"output_tokens", 100}}}, {"stack", "plain"}}},
            {"serve", {{"arrivals", "poisson"}, {"rate", 20}, {"requests", 80}, {"targets", t}}},
            {"capacity", c}};
  return scenario_from_json(j);
}

capacity::Result planned(const Scenario& s, bool exhaustive = false) {
  capacity::Options o;
  o.exhaustive = exhaustive;
  return capacity::plan(s, o);
}

}  // namespace

TEST_CASE("capacity: the pruned search finds what simulating every replica count finds", "[capacity]") {
  // A tighter TPOT target than small()'s default also makes the zero-load bound reject families.
  for (double tpot : {0.02, 0.0085}) {
    const Scenario s = small({}, {{"tpot_s", tpot}});
    const capacity::Result pruned = planned(s), every = planned(s, true);
    REQUIRE(pruned.outcomes.size() == every.outcomes.size());
    REQUIRE(pruned.best.size() == 1);
    REQUIRE(pruned.best[0].index >= 0);
    REQUIRE(every.best[0].index == pruned.best[0].index);
    for (std::size_t i = 0; i < pruned.outcomes.size(); ++i) {
      const auto& a = pruned.outcomes[i];
      const auto& b = every.outcomes[i];
      INFO(a.family.label() << ": " << a.reason);
      CHECK(a.meets == b.meets);
      if (a.meets) {
        CHECK(a.replicas == b.replicas);
        CHECK(a.ttft_s == b.ttft_s);
        CHECK(a.tpot_s == b.tpot_s);
      }
    }
    CHECK(pruned.front == every.front);
    CHECK(pruned.simulations < every.simulations);  // the bounds saved runs
  }
  // And the bounds did decide some families of the tight case unsimulated.
  const capacity::Result tight = planned(small({}, {{"tpot_s", 0.0085}}));
  int zero_load = 0;
  for (const auto& o : tight.outcomes) zero_load += o.rejected_by == "zero_load_tpot" && o.simulations == 0;
  CHECK(zero_load > 0);
}

TEST_CASE("capacity: the chosen configuration, served again on its own, meets the targets", "[capacity]") {
  const Scenario s = small();
  const capacity::Result R = planned(s);
  REQUIRE(R.best[0].index >= 0);
  const capacity::Outcome& o = R.outcomes[R.best[0].index];
  Scenario again = s;
  set_field(again, "system", o.deployment_system);
  set_field(again, "workload.parallelism.tp", o.family.tp);
  set_field(again, "workload.parallelism.ep", o.family.ep);
  set_field(again, "workload.parallelism.pp", o.family.pp);
  set_field(again, "workload.parallelism.dp", o.replicas);
  set_field(again, "workload.precision.weights", o.family.weights);
  set_field(again, "workload.precision.kv_cache", o.family.kv_cache);
  set_field(again, "workload.stack", o.family.stack);
  set_field(again, "serve.max_num_seqs", o.family.batch_slots);
  if (!o.family.scheduler.empty()) set_field(again, "serve.scheduler", o.family.scheduler);
  const serve::Result served = serve::run(again);
  CHECK(served.attainment >= s.serve.targets.fraction);
  CHECK(served.attainment == Approx(o.attainment).epsilon(1e-12));
  CHECK(served.replicas * served.chips_per_replica == o.chips);
  // One replica fewer misses: the planner's answer is the least.
  if (o.replicas > 1) {
    set_field(again, "workload.parallelism.dp", o.replicas - 1);
    CHECK(serve::run(again).attainment < s.serve.targets.fraction);
  }
}

TEST_CASE("capacity: price, dollars per million tokens and tokens per megawatt follow from the chip data", "[capacity]") {
  const Scenario s = small();
  const capacity::Result R = planned(s);
  const hw::System sys = hw::load_system("trn2-48xlarge");
  const workload::Economics& ec = s.workload.economics;
  const double watts = sys.chip.power_watts * (1 + ec.host_power_fraction) * ec.pue;
  int checked = 0;
  for (const auto& o : R.outcomes) {
    if (!o.meets) continue;
    ++checked;
    CHECK(o.chips == o.replicas * o.family.tp * o.family.pp);
    CHECK(o.price_per_hour_usd == Approx(o.chips * sys.chip.price_per_hour_usd));
    CHECK(o.usd_per_million_tokens == Approx(o.price_per_hour_usd / 3600.0 / o.output_tokens_per_s * 1e6));
    CHECK(o.output_tokens_per_s_per_megawatt == Approx(o.output_tokens_per_s / (o.chips * watts) * 1e6));
    // The throughput ceiling is a bound: what was served never exceeds the replicas' ceiling.
    CHECK(o.output_tokens_per_s <= o.ceiling_tokens_per_s * o.replicas * (1 + 1e-9));
  }
  CHECK(checked > 1);
  // The cheapest per system is no dearer than any meeting family; the front is non-dominated.
  const auto& best = R.outcomes[R.best[0].index];
  for (const auto& o : R.outcomes)
    if (o.meets) CHECK(best.price_per_hour_usd <= o.price_per_hour_usd);
  for (std::size_t a : R.front)
    for (const auto& o : R.outcomes)
      if (o.meets)
        CHECK_FALSE((o.price_per_hour_usd < R.outcomes[a].price_per_hour_usd && o.ttft_s <= R.outcomes[a].ttft_s &&
                     o.tpot_s <= R.outcomes[a].tpot_s));
}

TEST_CASE("capacity: outcomes read back from JSON give the same plan (shards merge)", "[capacity]") {
  const Scenario s = small();
  const capacity::Result R = planned(s);
  std::vector<capacity::Outcome> back;
  for (const auto& o : R.outcomes) back.push_back(capacity::outcome_from_json(capacity::outcome_to_json(o)));
  const capacity::Result again = capacity::summarize(back, s.workload, s.serve, s.capacity);
  CHECK(capacity::result_to_json(again) == capacity::result_to_json(R));
  CHECK(contains(error_of([] { capacity::outcome_from_json(json{{"family", json::object()}}); }), "outcome.system"));
}

TEST_CASE("capacity: bad input names the field", "[capacity]") {
  CHECK(contains(error_of([] { planned(small({{"systems", "trn9-ultraserver"}})); }), "capacity.systems"));
  CHECK(contains(error_of([] { planned(small({{"systems", "trn2-48xlarge,"}})); }), "capacity.systems: an empty entry"));
  CHECK(contains(error_of([] { planned(small({{"weights", "bf17"}})); }), "capacity.weights: unknown 'bf17'"));
  CHECK(contains(error_of([] { planned(small({{"stacks", "tgi"}})); }), "capacity.stacks"));
  CHECK(contains(error_of([] { planned(small({{"schedulers", "fifo"}})); }), "capacity.schedulers"));
  // No tp of the space divides the scale-up domain: nothing to search.
  CHECK(contains(error_of([] { planned(small({{"tp", {3, 5}}})); }), "capacity: no family of the search space"));
  CHECK(contains(error_of([] { planned(small({}, {{"tpot_s", 1e-5}})); }),
                 "serve.targets.tpot_s: no configuration of the search space meets"));
  CHECK(contains(error_of([] { planned(small({}, {{"ttft_s", 1e-5}})); }), "serve.targets.ttft_s"));
  CHECK(contains(error_of([] {
                   Scenario s = small();
                   s.serve.targets.ttft_s.reset();
                   s.serve.targets.tpot_s.reset();
                   planned(s);
                 }),
                 "serve.targets: a capacity plan needs a target"));
  CHECK(contains(error_of([] {
                   Scenario s = small();
                   set_field(s, "serve.arrivals", "closed");
                   planned(s);
                 }),
                 "serve.arrivals"));
  CHECK(contains(error_of([] { scenario_from_json(json{{"capacity", {{"tp", {0}}}}}); }), "capacity.tp[0]"));
  CHECK(contains(error_of([] { scenario_from_json(json{{"capacity", {{"max_chips", 0}}}}); }), "capacity.max_chips"));
}

}  // namespace unit_capacity
