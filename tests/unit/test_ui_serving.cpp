// The Serving panel's data (ui/view/serving_view.h): the page's run is `trnsim serve`'s report,
// a reused step model changes nothing but the time, a trace file is the core's error, and the
// goodput curve is the rate search's probes.
#include <catch2/catch.hpp>

#include "common/format.h"
#include "embedded.h"
#include "report/metrics.h"
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

TEST_CASE("serving tables: the latency, KV precision, context and turn rows hold the run's own figures", "[ui]") {
  Scenario s = example("examples/serve-agentic-trn3-gen2.json");
  set_field(s, "serve.sessions.count", 20);  // a few sessions: turns, KV precisions and contexts all present
  const serve::Result r = serve::run(s);
  const auto& kinds = serve::latency_kinds();
  const auto& stats = serve::latency_stats();
  const auto rows = serve::latency_rows(r);
  REQUIRE(rows.size() == kinds.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO(kinds[i].key);
    CHECK(rows[i].name == kinds[i].label);
    REQUIRE(rows[i].cells.size() == stats.size() + 1);
    const serve::Summary& sum = r.*kinds[i].summary;
    CHECK(sum.n > 0);
    for (std::size_t j = 0; j < stats.size(); ++j) {
      // The metric table's latency metrics are the same kinds and statistics.
      const Metric& m = find_metric(std::string("serve_") + kinds[i].key + "_" + stats[j].name + "_s");
      CHECK(m.label == std::string(kinds[i].label) + " " + stats[j].name);
      CHECK(rows[i].cells[j] == format_metric(m, sum.*stats[j].value));
    }
    CHECK(rows[i].cells.back() == fmt::time(sum.max));
  }
  const auto kv = serve::kv_precision_rows(r);
  REQUIRE(kv.size() == r.kv_precisions.size());
  REQUIRE_FALSE(kv.empty());
  for (std::size_t i = 0; i < kv.size(); ++i) {
    const auto& k = r.kv_precisions[i];
    CHECK(kv[i] == std::vector<std::string>{k.dtype, fmt::bytes(k.bytes_per_token), fmt::fixed(k.fit_sequences, 1),
                                            std::to_string(k.batch), k.batch ? fmt::time(k.step_s) : "-",
                                            k.batch ? fmt::number(k.tokens_per_s_per_chip) : "-"});
  }
  const auto ctx = serve::context_rows(r);
  REQUIRE(ctx.size() == r.contexts.size());
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    CHECK(ctx[i].front() == fmt::count(r.contexts[i].context));
    CHECK(ctx[i][2] == std::to_string(r.contexts[i].batch));
  }
  const auto turns = serve::turn_rows(r);
  REQUIRE(turns.size() == r.turns.size());
  REQUIRE_FALSE(turns.empty());
  for (std::size_t i = 0; i < turns.size(); ++i) {
    CHECK(turns[i].front() == std::to_string(r.turns[i].turn));
    CHECK(turns[i][2] == fmt::time(r.turns[i].ttft_p50_s));
    CHECK(turns[i][3] == (r.has_no_reuse ? fmt::time(r.turns[i].ttft_p50_no_reuse_s) : "-"));
  }
  // The text report lays out the same cells.
  const std::string text = serve::result_to_text(r);
  CHECK(test_support::contains(text, kv.front()[1]));
  CHECK(test_support::contains(text, rows.front().cells.front()));
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
