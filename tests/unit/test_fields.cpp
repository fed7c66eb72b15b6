// Strict reading of user-written JSON: every error names the field and the problem.
#include <catch2/catch.hpp>

#include "common/fields.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_fields {

using test_support::error_of;
using trnsim::InputError;
using trnsim::json;
using trnsim::ObjectReader;

TEST_CASE("edit distance and suggestions") {
  CHECK(trnsim::edit_distance("batch", "bach") == 1);
  CHECK(trnsim::edit_distance("", "abc") == 3);
  CHECK(trnsim::closest_name("bach", {"batch", "system", "model"}) == "batch");
  CHECK(trnsim::closest_name("zzzzzz", {"batch", "system"}).empty());
}

TEST_CASE("ObjectReader reads typed fields with ranges and defaults") {
  json j = json::parse(R"({"batch": 8, "ratio": 0.5, "name": "x", "on": true, "mode": "decode"})");
  ObjectReader r(j, "workload");
  CHECK(r.integer("batch", 1, 1, 100) == 8);
  CHECK(r.number("ratio", 0.0, 1.0) == 0.5);
  CHECK(r.string("name") == "x");
  CHECK(r.boolean("on", false));
  CHECK(r.choice("mode", {"prefill", "decode"}) == "decode");
  CHECK(r.integer("absent", 7, 1, 100) == 7);
  CHECK_NOTHROW(r.finish());
}

TEST_CASE("ObjectReader errors name the field and the problem") {
  json j = json::parse(R"({"batch": -1, "bach": 3, "f": 1.5, "s": 2, "mode": "decod"})");
  CHECK(error_of([&] { ObjectReader(j, "w").integer("batch", 1, 10); }) ==
        "w.batch: must be between 1 and 10, got -1");
  CHECK(error_of([&] { ObjectReader(j, "w").integer("f", 0, 10); }) == "w.f: expected a whole number, got 1.5");
  CHECK(error_of([&] { ObjectReader(j, "w").string("s"); }) == "w.s: expected a string, got number");
  CHECK(error_of([&] { ObjectReader(j, "w").number("missing", 0, 1); }) == "w.missing: missing (required)");
  CHECK(error_of([&] { ObjectReader(j, "w").choice("mode", {"prefill", "decode"}); }) ==
        "w.mode: unknown value 'decod' (did you mean 'decode'?); one of: prefill, decode");
  CHECK(error_of([&] {
          ObjectReader r(j, "w");
          r.integer("batch", -5, 10);
          r.ignore("f");
          r.ignore("s");
          r.ignore("mode");
          r.finish();
        }) == "w.bach: unknown key (did you mean 'batch'?)");
  CHECK(error_of([&] { ObjectReader(json::array(), "w"); }) == "w: expected an object, got array");
}

TEST_CASE("JSON syntax errors give the byte offset") {
  std::string msg = error_of([] { trnsim::parse_json_text("{\"a\": }", "scenario.json"); });
  CHECK(msg.rfind("scenario.json: not valid JSON at byte 7", 0) == 0);
}

}  // namespace unit_fields
