// The Capacity panel's data (ui/view/capacity_view.h): the plan computed a family per step
// is the plan `trnsim capacity` computes in one call (the same JSON, the same text); the
// progress counts families up to the total; Cancel stops it; the tables' cells are the text
// report's; the plot holds every meeting family and marks the front; a scenario without a
// capacity object is recognised; bad input fails with the core's message.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/format.h"
#include "report/capacity.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "ui/view/capacity_view.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_capacity {

using namespace trnsim;
using namespace trnsim::ui;
using test_support::contains;

// Llama-3.1-8B at 20 requests/s on Trainium2 servers and Trn2 UltraServers, plain stack: a
// grid of a fraction of a second whose families meet at different counts and fail in each way.
Scenario plan_scenario(const json& targets = json::object()) {
  json t = {{"ttft_s", 0.5}, {"tpot_s", 0.02}, {"fraction", 0.9}};
  for (auto& [k, v] : targets.items()) t[k] = v;
  return scenario_from_json(
      {{"system", "trn2-48xlarge"},
       {"compare_system", ""},
       {"workload",
        {{"model", "Llama-3.1-8B"}, {"inference", {{"input_tokens", 1000}, {"output_tokens", 100}}}, {"stack", "plain"}}},
       {"serve", {{"arrivals", "poisson"}, {"rate", 20}, {"requests", 80}, {"targets", t}}},
       {"capacity",
        {{"systems", "trn2-48xlarge, trn2-ultraserver"},
         {"tp", {1, 2, 4}},
         {"batch_slots", {4, 32}},
         {"schedulers", "chunked, prefill_first"},
         {"max_chips", 16}}}});
}

// Every step of zero budget evaluates one family; returns the steps taken.
std::size_t run_to_end(CapacityProgress& p) {
  std::size_t steps = 0;
  while (p.running()) {
    const std::size_t before = p.evaluated();
    CHECK(p.advance(0));
    ++steps;
    CHECK(p.evaluated() == before + 1);
    CHECK(p.evaluated() <= p.total());
  }
  return steps;
}

TEST_CASE("the Capacity panel's plan, a family a step, is trnsim capacity's", "[ui][capacity]") {
  for (const double tpot : {0.02, 0.0085}) {  // the tighter target also rejects at zero load
    const Scenario s = plan_scenario({{"tpot_s", tpot}});
    const capacity::Result once = capacity::plan(s);
    CapacityProgress p;
    CHECK(p.state() == CapacityProgress::State::idle);
    p.start(s);
    REQUIRE(p.running());
    CHECK(p.total() == capacity::families(s.capacity, s.workload, s.serve).size());
    CHECK(p.evaluated() == 0);
    CHECK(p.to_json()["plan"].is_null());
    CHECK(run_to_end(p) == p.total());
    REQUIRE(p.state() == CapacityProgress::State::done);
    CHECK(p.fraction() == 1.0);
    REQUIRE(p.result());
    CHECK(p.to_json()["plan"] == capacity::result_to_json(once));
    CHECK(capacity::result_to_text(*p.result()) == capacity::result_to_text(once));
    CHECK_FALSE(p.advance(1));  // nothing more to do
  }
}

TEST_CASE("the Capacity panel's budget: a step takes at least one family, and more while time remains", "[ui][capacity]") {
  CapacityProgress p;
  p.start(plan_scenario());
  p.advance(60);  // a minute: the whole grid in one step
  CHECK(p.state() == CapacityProgress::State::done);
  CHECK(p.evaluated() == p.total());
}

TEST_CASE("Cancel stops the Capacity panel's search between families", "[ui][capacity]") {
  CapacityProgress p;
  p.start(plan_scenario());
  p.advance(0);
  p.advance(0);
  p.cancel();
  CHECK(p.state() == CapacityProgress::State::cancelled);
  CHECK_FALSE(p.running());
  CHECK_FALSE(p.advance(1));
  CHECK(p.evaluated() == 2);
  CHECK(p.evaluated() < p.total());
  CHECK(p.result() == nullptr);
  const json j = p.to_json();
  CHECK(j["state"] == "cancelled");
  CHECK(j["evaluated"] == 2);
  CHECK(j["plan"].is_null());
  // The families done so far are the one-call search's first two.
  const Scenario& s = p.scenario();
  const auto first = capacity::evaluate_range(s.capacity, s.workload, s.serve, 0, 2);
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(capacity::outcome_to_json(p.outcomes()[i]) == capacity::outcome_to_json(first[i]));
  // Started again, it plans from the first family.
  p.start(s);
  CHECK(p.evaluated() == 0);
  run_to_end(p);
  CHECK(p.state() == CapacityProgress::State::done);
}

TEST_CASE("the Capacity panel's tables are the text report's cells", "[ui][capacity]") {
  const capacity::Result r = capacity::plan(plan_scenario({{"tpot_s", 0.0085}}));
  const std::string text = capacity::result_to_text(r);
  const capacity::Table best = capacity::best_table(r), front = capacity::front_table(r),
                        rejected = capacity::rejected_table(r);
  REQUIRE(best.rows.size() == r.best.size());
  REQUIRE(front.rows.size() == r.front.size());
  REQUIRE(!front.rows.empty());
  std::size_t rejects = 0;
  for (const auto& o : r.outcomes) rejects += o.meets ? 0 : 1;
  REQUIRE(rejected.rows.size() == rejects);
  REQUIRE(rejects > 0);
  for (const auto* t : {&best, &front, &rejected})
    for (const auto& row : t->rows) {
      CHECK(row.size() == t->headers.size());
      for (const auto& cell : row) CHECK(contains(text, cell));
    }
  // The cheapest per system: the outcome the result names, its figures through the core's formatters.
  for (std::size_t k = 0; k < r.best.size(); ++k) {
    if (r.best[k].index < 0) continue;
    const capacity::Outcome& o = r.outcomes[static_cast<std::size_t>(r.best[k].index)];
    CHECK(best.rows[k][0] == o.family.system);
    CHECK(best.rows[k][2] == std::to_string(o.chips));
    CHECK(best.rows[k][7] == "$" + fmt::general(o.price_per_hour_usd, 4));
    CHECK(best.rows[k][10] == fmt::time(o.ttft_s));
    CHECK(best.rows[k][13] == o.deployment_system);
  }
  int counted = 0;
  for (const auto& [why, n] : capacity::rejected_counts(r)) {
    CHECK(contains(text, "  " + why + ": " + std::to_string(n) + "\n"));
    counted += n;
  }
  CHECK(counted == static_cast<int>(rejects));
}

TEST_CASE("the Capacity panel's plot holds every meeting family and marks the front", "[ui][capacity]") {
  const capacity::Result r = capacity::plan(plan_scenario());
  const CapacityPlot p = capacity_plot(r);
  REQUIRE(p.systems.size() == r.best.size());
  std::size_t meets = 0, front = 0;
  for (const auto& o : r.outcomes) meets += o.meets ? 1 : 0;
  CHECK(p.points.size() == meets);
  for (const auto& pt : p.points) {
    const capacity::Outcome& o = r.outcomes[pt.outcome];
    CHECK(o.meets);
    REQUIRE(pt.system < p.systems.size());
    CHECK(p.systems[pt.system] == o.family.system);
    CHECK(pt.front == (std::find(r.front.begin(), r.front.end(), pt.outcome) != r.front.end()));
    front += pt.front ? 1 : 0;
    CHECK((pt.price_per_hour_usd == o.price_per_hour_usd && pt.ttft_s == o.ttft_s && pt.tpot_s == o.tpot_s));
    CHECK((p.price_lo < pt.price_per_hour_usd && pt.price_per_hour_usd < p.price_hi));
    CHECK((p.ttft_lo < pt.ttft_s && pt.ttft_s < p.ttft_hi));
    CHECK((p.tpot_lo < pt.tpot_s && pt.tpot_s < p.tpot_hi));
  }
  CHECK(front == r.front.size());
}

TEST_CASE("the Capacity panel knows a scenario without a capacity object, and fails as the CLI does", "[ui][capacity]") {
  CHECK_FALSE(has_capacity_space(default_scenario()));
  CHECK(has_capacity_space(plan_scenario()));
  Scenario s = default_scenario();
  set_field(s, "capacity.max_chips", 64);
  CHECK(has_capacity_space(s));

  // Targets no configuration meets even alone: the core's error, word for word.
  const Scenario impossible = plan_scenario({{"ttft_s", 1e-6}});
  std::string want;
  try {
    capacity::plan(impossible);
  } catch (const InputError& e) {
    want = e.what();
  }
  REQUIRE(!want.empty());
  CapacityProgress p;
  p.start(impossible);
  run_to_end(p);
  CHECK(p.state() == CapacityProgress::State::failed);
  CHECK(p.error() == want);
  CHECK(p.to_json()["error"] == want);

  // No targets: refused before any family.
  Scenario none = plan_scenario();
  none.serve.targets.ttft_s.reset();
  none.serve.targets.tpot_s.reset();
  CapacityProgress q;
  q.start(none);
  CHECK(q.state() == CapacityProgress::State::failed);
  CHECK(!q.error().empty());
  CHECK(q.evaluated() == 0);
}

}  // namespace unit_ui_capacity
