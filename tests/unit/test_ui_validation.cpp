// The Validation panel's data (ui/view/validation_view.h): the rows of `trnsim validate`
// with its texts, filtered and sorted.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>

#include "ui/view/validation_view.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_validation {

using namespace trnsim;
using namespace trnsim::ui;

// Under AddressSanitizer the panel runs its first rows only: the whole run is minutes there
// and checks no code that asan.cli.test_validate (every row of `trnsim validate --json` under
// the sanitizers) and this file's native and WebAssembly runs (the panel to its end, against
// validate::rows()) do not already check.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNIT_UI_VALIDATION_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNIT_UI_VALIDATION_ASAN 1
#endif
constexpr std::size_t kEveryRow = static_cast<std::size_t>(-1);
#ifdef UNIT_UI_VALIDATION_ASAN
constexpr std::size_t kPanelRows = 48;  // the first data files' rows, one per call: seconds
#else
constexpr std::size_t kPanelRows = kEveryRow;
#endif

// The panel's own run, a few rows per call as frames give it time (to its end, or its first
// kPanelRows under the sanitizers): once for the file, as every row is a whole scenario (the
// H100 rows simulate thousands of requests), seconds natively.
ValidationProgress& finished_panel() {
  static ValidationProgress p = [] {
    ValidationProgress q;
    q.start("");
    const double budget_s = kPanelRows == kEveryRow ? 0.05 : 0;  // 0: one row a call
    while (!q.done() && q.evaluated() < kPanelRows) q.advance(budget_s);
    return q;
  }();
  return p;
}
// validate::rows(), once for the file: natively and under WebAssembly the whole run, which the
// panel's must equal; under AddressSanitizer the same first rows from validate::Run.
const std::vector<validate::Row>& all_rows() {
#ifdef UNIT_UI_VALIDATION_ASAN
  static const std::vector<validate::Row> rows = [] {
    validate::Run run;
    while (!run.done() && run.evaluated() < kPanelRows) run.step();
    return run.rows();
  }();
#else
  static const std::vector<validate::Row> rows = validate::rows();
#endif
  return rows;
}

TEST_CASE("the Validation table is validate::rows with its texts, filtered and sorted") {
  const ValidationTable& t = finished_panel().table();
  REQUIRE(t.error.empty());
  const auto& rows = all_rows();
  REQUIRE(t.rows.size() == rows.size());
  REQUIRE(!rows.empty());
  const std::string printed = validate::to_text(rows);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(cell_text(t.rows[i], ValidationColumn::error) == validate::error_text(rows[i]));
    CHECK(cell_text(t.rows[i], ValidationColumn::published) == validate::value_text(rows[i].published, rows[i].unit));
    // Every text the panel shows is in what `trnsim validate` prints.
    CHECK(printed.find(cell_text(t.rows[i], ValidationColumn::figure)) != std::string::npos);
  }
  CHECK(t.summary.modeled == validate::summarize(rows).modeled);

  ValidationFilter all;
  CHECK(validation_order(t.rows, all, ValidationColumn::id, true).size() == rows.size());
  ValidationFilter cal;
  cal.calibration_only = true;
  const auto c = validation_order(t.rows, cal, ValidationColumn::id, true);
  CHECK(!c.empty());
  for (auto i : c) CHECK(t.rows[i].calibration);
  ValidationFilter text;
  text.text = "tpot";
  const auto found = validation_order(t.rows, text, ValidationColumn::id, true);
  CHECK(!found.empty());
  CHECK(found.size() < rows.size());
  for (auto i : found) {
    std::string all_text = t.rows[i].id + t.rows[i].figure + t.rows[i].source + t.rows[i].note;
    for (auto& ch : all_text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    CHECK(all_text.find("tpot") != std::string::npos);
  }

  const auto by_error = validation_order(t.rows, all, ValidationColumn::error, true);
  bool unmodeled = false;
  double last = 0;
  for (auto i : by_error) {
    if (!t.rows[i].modeled) {
      unmodeled = true;
      continue;
    }
    CHECK_FALSE(unmodeled);  // rows without a model value come last
    CHECK(std::fabs(t.rows[i].error()) >= last);
    last = std::fabs(t.rows[i].error());
  }
  const auto desc = validation_order(t.rows, all, ValidationColumn::error, false);
  CHECK(std::fabs(t.rows[desc.front()].error()) >= std::fabs(t.rows[by_error.front()].error()));
}

TEST_CASE("a validation run's pricer is named at the top of its text and in its JSON") {
  validate::Options engine;
  engine.pricer = "engine";
  const std::string text = validate::to_text({}, engine);
  CHECK(text.rfind("pricer: engine for every row (workload.pricer; the calibrated defaults were fitted on the roofline)\n", 0) == 0);
  CHECK(validate::to_json({}, engine).at("pricer") == "engine");
  CHECK(validate::to_text({}).rfind("trnsim validate:", 0) == 0);
  CHECK(!validate::to_json({}).contains("pricer"));
}

TEST_CASE("the panel evaluates the rows a few at a time, to validate::rows' values, on either pricer") {
  const auto& rows = all_rows();
  ValidationProgress p;
  CHECK(!p.started());
  p.start("");
  REQUIRE(p.table().error.empty());
  CHECK(p.total() == validate::Run().total());
  CHECK(p.evaluated() == 0);
  CHECK(!p.done());
  // A zero budget still evaluates one row per call: a frame always makes progress.
  REQUIRE(p.advance(0));
  CHECK(p.evaluated() == 1);
  CHECK(!p.done());
  const json partial = p.to_json();
  CHECK(partial.at("done") == false);
  CHECK(partial.at("evaluated") == 1);
  CHECK(partial.at("rows").size() == 1);
  // The rest of the run, a few rows per call (the file's one finished run: finished_panel()).
  ValidationProgress& f = finished_panel();
  if (kPanelRows >= f.total()) {
    CHECK(f.done());
    CHECK(!f.advance(0.05));  // nothing left
  } else {
    CHECK(f.evaluated() == kPanelRows);
  }
  REQUIRE(f.table().rows.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(f.table().rows[i].figure == rows[i].figure);
    if (rows[i].modeled) CHECK(f.table().rows[i].model == rows[i].model);
  }
  CHECK(f.table().summary.within_25_percent == validate::summarize(rows).within_25_percent);
  CHECK(f.to_json().at("rows") == validate::to_json(rows).at("rows"));

  // The engine pricer: validate::Run with that option (its first rows: the whole run is
  // test_validate's, and seconds under the sanitizers), and its name in the JSON.
  p.start("engine");
  CHECK(p.evaluated() == 0);
  while (p.evaluated() < 10) p.advance(0);
  validate::Options engine;
  engine.pricer = "engine";
  validate::Run run(engine);
  while (run.evaluated() < 10) run.step();
  const json j = p.to_json();
  CHECK(j.at("pricer") == "engine");
  CHECK(j.at("done") == false);
  CHECK(j.at("rows") == validate::to_json(run.rows(), engine).at("rows"));
  bool differs = false;  // the pricer took effect
  for (std::size_t i = 0; i < 10; ++i) differs = differs || (rows[i].modeled && p.table().rows[i].model != rows[i].model);
  CHECK(differs);
  // A pricer that does not exist is the table's error, and the run is over.
  p.start("fast");
  CHECK(p.table().error.find("unknown pricer 'fast'") != std::string::npos);
  CHECK(p.done());
  CHECK(!p.advance(1));
}

}  // namespace unit_ui_validation

namespace unit_ui_validation {

// A count the source publishes beside a figure (LLMPerf's own token count) is an operand of a
// computation, never a figure: it needs its value and a statement of what it is.
TEST_CASE("a given count is an operand of a validation computation and says what it is") {
  validate::Computer compute;
  const json given = json::parse(R"({"divide": [{"given": {"value": 558, "what": "a harness's count"}},
                                                 {"given": {"value": 6, "what": "seconds, for the test"}}]})");
  CHECK(compute(given, "tok/s", "t").first == Approx(93.0));
  CHECK_THROWS_WITH(compute(json::parse(R"({"given": {"value": 558}})"), "tok/s", "t"), Catch::Contains("t.given.what"));
  CHECK_THROWS_WITH(compute(json::parse(R"({"given": {"value": 0, "what": "x"}})"), "tok/s", "t"),
                    Catch::Contains("t.given.value"));
  CHECK_THROWS_WITH(compute(json::parse(R"({"given": {"value": 1, "what": ""}})"), "tok/s", "t"),
                    Catch::Contains("t.given.what"));
  CHECK_THROWS_WITH(compute(json::parse(R"({"given": {"value": 1, "what": "x", "unit": "s"}})"), "tok/s", "t"),
                    Catch::Contains("unit"));
}

}  // namespace unit_ui_validation
