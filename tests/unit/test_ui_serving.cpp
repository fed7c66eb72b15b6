// The Serving panel's data (ui/view/serving_view.h): the page's run is `trnsim serve`'s report,
// a reused step model changes nothing but the time, a trace file is the core's error, and the
// goodput curve is the rate search's probes.
#include <catch2/catch.hpp>

#include "embedded.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "ui/view/serving_view.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_serving {

using namespace trnsim;
using namespace trnsim::ui;

namespace {

Scenario example(const char* key) { return parse_scenario(*find_embedded(key), key); }

Scenario small() {
  return scenario_from_json({{"system", "trn2-48xlarge"},
                             {"compare_system", ""},
                             {"workload", {{"model", "Llama-3.1-8B"}, {"parallelism", {{"dp", 2}}}}},
                             {"serve", {{"requests", 200}, {"rate", 4}, {"max_num_seqs", 16}, {"targets", {{"ttft_s", 0.5}, {"tpot_s", 0.03}}}}}});
}

}  // namespace

TEST_CASE("serving view: the page's run is trnsim serve's report", "[ui]") {
  ServingRunner runner;
  const Scenario s = example("examples/serve-agentic-trn3-gen2.json");
  const ServingRun& run = runner.run(s);
  REQUIRE(run.error.empty());
  CHECK(serve::result_to_json(*run.result).dump() == serve::result_to_json(serve::run(s)).dump());
  CHECK(&runner.run(s) == &run);  // the same scenario: not run again
}

TEST_CASE("serving view: a step model kept while only the traffic changes changes nothing but the time", "[ui]") {
  ServingRunner runner;
  Scenario s = small();
  CHECK_FALSE(runner.run(s).reused_model);
  set_field(s, "serve.rate", 12);
  set_field(s, "serve.seed", 5);
  const ServingRun& again = runner.run(s);
  CHECK(again.reused_model);
  CHECK(serve::result_to_json(*again.result).dump() == serve::result_to_json(serve::run(s)).dump());
  set_field(s, "serve.max_num_seqs", 8);  // the server: a new model
  CHECK_FALSE(runner.run(s).reused_model);
  set_field(s, "serve.input_tokens.mean", 3000);  // the mean lengths set the model's reference
  CHECK_FALSE(runner.run(s).reused_model);
}

TEST_CASE("serving view: the page has no file system", "[ui]") {
  ServingRunner runner;
  Scenario s = small();
  set_field(s, "serve.arrivals", "trace");
  set_field(s, "serve.trace.file", "trace.csv");
  CHECK(test_support::contains(runner.run(s).error, "serve.trace.file"));
}

TEST_CASE("serving view: goodput versus rate is the rate search", "[ui]") {
  ServingRunner runner;
  const ServingRun& c = runner.goodput_curve(small());
  REQUIRE(c.error.empty());
  REQUIRE(c.result->searched);
  CHECK(c.result->max_rate > 0);
  REQUIRE(c.result->probes.size() >= 3);
  for (std::size_t i = 1; i < c.result->probes.size(); ++i) CHECK(c.result->probes[i - 1].rate <= c.result->probes[i].rate);
  const auto rows = serve::latency_rows(*runner.run(small()).result);
  REQUIRE(rows.size() == 4);
  for (const auto& r : rows) CHECK(r.cells.size() == 5);
  CHECK_FALSE(serve::headline_figures(*runner.run(small()).result).empty());
}

}  // namespace unit_ui_serving
