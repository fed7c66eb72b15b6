// Every number a scenario carries is bounded in the one field table, and an error past a bound
// states the bound and why it is there. Driven by the table, so a field added later is covered:
//  - every end of every numeric field (numbers, optional numbers, integers, integer lists'
//    entries) is declared, either physical (the quantity's own: an efficiency is at most 1)
//    or one of trnsim's limits on a side where the quantity has none, each with its reason;
//  - on the default scenario, set_field refuses the value just past each end (the next double
//    beyond it, an integer one beyond, an open end's own value), naming the field (a list's
//    entry by its index), the bound and the reason, and accepts a closed end's value; an open
//    end's control stop (the page's slider) lies inside the range;
//  - the bounds follow from what the fields mean, read from the table's own help and units:
//    an efficiency ("Achievable fraction of ...") is in (0, 1]; a time, a power, a price and a
//    count are never negative, and a count's lower end is physical; shares, probabilities and
//    percentages stay within the whole; a PUE is at least 1;
//  - an efficiency so small that a kernel's time overflows is refused by the pricer (not
//    priced at inf seconds, which would stop the serving clock);
//  - serving-stack files (core/data/serving/*.json): every numeric value refuses -1 and the
//    collectives' overlap share refuses more than 1, naming the file and the key.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include "embedded.h"
#include "price/stack.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_strict_bounds {

using trnsim::Bound;
using trnsim::Field;
using trnsim::FieldType;
using trnsim::json;

namespace {

bool numeric(const Field& f) {
  return f.type == FieldType::number || f.type == FieldType::optional_number || f.type == FieldType::integer ||
         f.type == FieldType::integer_list;
}
bool whole(const Field& f) { return f.type == FieldType::integer || f.type == FieldType::integer_list; }

// What set_field on the default scenario says about `value` for `f`: {field, message} of its
// InputError, {"(no error)", ""} when it accepts it. A list field gets a one-entry list.
std::pair<std::string, std::string> set_error(const Field& f, double value) {
  trnsim::Scenario s = trnsim::default_scenario();
  const json v = f.type == FieldType::integer_list ? json::array({static_cast<std::int64_t>(value)})
                 : whole(f)                        ? json(static_cast<std::int64_t>(value))
                                                   : json(value);
  try {
    trnsim::set_field(s, f.path, v);
  } catch (const trnsim::InputError& e) {
    return {e.field(), e.problem()};
  }
  return {"(no error)", ""};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The value just beyond an end, on the side away from the range.
double past(const Field& f, const Bound& b, bool lower) {
  if (b.open) return b.value;
  if (whole(f)) return lower ? b.value - 1 : b.value + 1;
  return std::nextafter(b.value, lower ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
}

// A bound as the error prints it: whole numbers whole.
std::string printed(double v) {
  return v == std::floor(v) && std::fabs(v) < 1e15 ? std::to_string(static_cast<long long>(v)) : json(v).dump();
}

}  // namespace

TEST_CASE("every numeric field declares both ends, each with its reason", "[strict]") {
  int fields = 0;
  for (const auto& f : trnsim::scenario_fields()) {
    if (!numeric(f)) continue;
    ++fields;
    INFO(f.path);
    for (const Bound* b : {&f.lo, &f.hi}) {
      CHECK(b->kind != Bound::Kind::undeclared);
      CHECK(!b->why.empty());
    }
    CHECK(f.lo.value <= f.hi.value);
    if (f.lo.value == f.hi.value) CHECK((!f.lo.open && !f.hi.open));  // a one-value range (version) is closed
    // Defaults sit inside the range (null: the built-in assumption).
    if (f.default_value.is_number()) CHECK(trnsim::bound_violation(f.default_value.get<double>(), f.lo, f.hi).empty());
    for (const auto& entry : f.default_value.is_array() ? f.default_value : json::array())
      CHECK(trnsim::bound_violation(entry.get<double>(), f.lo, f.hi).empty());
  }
  CHECK(fields > 70);  // the table's numeric fields were walked, not an empty list
}

TEST_CASE("past either end a field is refused with the bound and its reason; a closed end is accepted",
          "[strict]") {
  for (const auto& f : trnsim::scenario_fields()) {
    if (!numeric(f)) continue;
    INFO(f.path);
    const std::string named = f.type == FieldType::integer_list ? f.path + "[0]" : f.path;
    for (const bool lower : {true, false}) {
      const Bound& b = lower ? f.lo : f.hi;
      const double v = past(f, b, lower);
      INFO((lower ? "lower end " : "upper end ") << printed(b.value) << (b.open ? " (open)" : " (closed)") << ", tried "
                                                  << printed(v));
      const auto [field, message] = set_error(f, v);
      CHECK(field == named);
      CHECK(contains(message, printed(v) + " is "));
      const std::string relation = v == b.value ? (lower ? "not above " : "not below ") : (lower ? "below " : "above ");
      CHECK(contains(message, relation + printed(b.value) + " (" + b.why + ")"));
      if (!b.open) CHECK(set_error(f, b.value).first == "(no error)");
      // The page's control stops inside the range, also short of an open end.
      if (!whole(f)) CHECK(set_error(f, b.control_end()).first == "(no error)");
    }
  }
}

TEST_CASE("an open end refuses its own value and accepts the next one inside", "[strict]") {
  int open_ends = 0;
  for (const auto& f : trnsim::scenario_fields()) {
    if (!numeric(f) || whole(f)) continue;
    INFO(f.path);
    for (const bool lower : {true, false}) {
      const Bound& b = lower ? f.lo : f.hi;
      if (!b.open) continue;
      ++open_ends;
      CHECK(set_error(f, b.value).first == f.path);
      const double inside = std::nextafter(b.value, lower ? f.hi.value : f.lo.value);
      CHECK(set_error(f, inside).first == "(no error)");
    }
  }
  CHECK(open_ends >= 5);  // efficiencies at 0 at least
}

TEST_CASE("bounds follow from what each field means", "[strict]") {
  for (const auto& f : trnsim::scenario_fields()) {
    if (!numeric(f)) continue;
    INFO(f.path << ": " << f.help);
    const bool physical_lo = f.lo.kind == Bound::Kind::physical, physical_hi = f.hi.kind == Bound::Kind::physical;
    // An efficiency is a share of a peak: in (0, 1], both ends physical.
    if (f.help.rfind("Achievable fraction", 0) == 0) {
      CHECK((f.lo.value == 0 && f.lo.open && physical_lo));
      CHECK((f.hi.value == 1 && !f.hi.open && physical_hi));
    }
    // Times, powers, prices and counts are never negative (a seed has no physical range:
    // its ends are limits).
    CHECK(f.lo.value >= 0);
    if (f.unit == "s" || f.unit == "W" || f.unit == "USD") CHECK((physical_lo && f.lo.value >= 0));
    // A count of things (it has a unit) is bounded below by its meaning, not by a limit.
    if (whole(f) && !f.unit.empty()) CHECK(physical_lo);
    // Shares, probabilities and percentages stay within the whole.
    const bool share = f.unit.empty() && (f.help.rfind("Share", 0) == 0 || f.help.rfind("Fraction", 0) == 0 ||
                                          f.help.rfind("Probability", 0) == 0 || f.help.rfind("Achievable", 0) == 0);
    if (share) CHECK((physical_lo && physical_hi && f.lo.value >= 0 && f.hi.value <= 1));
    if (f.unit == "%") CHECK((physical_lo && physical_hi && f.lo.value >= 0 && f.hi.value <= 100));
    // A facility draws its IT power and more.
    if (f.label == "PUE") CHECK((physical_lo && f.lo.value == 1 && !f.lo.open));
  }
}

TEST_CASE("the messages users see for impossible values", "[strict]") {
  auto problem = [](const std::string& path, const json& v) {
    trnsim::Scenario s = trnsim::default_scenario();
    try {
      trnsim::set_field(s, path, v);
    } catch (const trnsim::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(problem("workload.economics.pue", 0.8) ==
        "workload.economics.pue: 0.8 is below 1 (a PUE is at least 1: the facility draws the IT power and more)");
  CHECK(problem("workload.efficiency.hbm", 1.2) == "workload.efficiency.hbm: 1.2 is above 1 (an efficiency is a share "
                                                   "of the peak: nothing runs faster than it)");
  CHECK(problem("workload.efficiency.compute", 0) ==
        "workload.efficiency.compute: 0 is not above 0 (an efficiency is a share of the peak: more than none)");
  CHECK(problem("workload.efficiency.kernel_overhead_s", -1e-6) ==
        "workload.efficiency.kernel_overhead_s: -1e-06 is below 0 (an overhead is not negative)");
  CHECK(problem("workload.speculation.acceptance", 1.5) ==
        "workload.speculation.acceptance: 1.5 is above 1 (a probability is at most 1)");
  CHECK(problem("serve.sessions.cached_fraction", 1) ==
        "serve.sessions.cached_fraction: 1 is not below 1 (every call brings new tokens (its message or a tool's "
        "result): less than all cached)");
  CHECK(problem("workload.inference.batch", 0) ==
        "workload.inference.batch: 0 is below 1 (a batch holds at least one sequence)");
  // The same through a scenario file's reader (the CLI, Python and the page read this way).
  try {
    trnsim::parse_scenario(R"({"workload": {"model": "Llama-3.1-8B", "economics": {"pue": 0.8}}})", "s.json");
    FAIL("a PUE of 0.8 was accepted");
  } catch (const trnsim::InputError& e) {
    CHECK(e.field() == "workload.economics.pue");
    CHECK(contains(e.what(), "0.8 is below 1 (a PUE is at least 1"));
  }
}

TEST_CASE("an efficiency near the smallest double is refused when it times a kernel past a double", "[strict]") {
  // (0, 1] admits 5e-324; its kernel times overflow to inf, which the serving clock cannot
  // advance past: the pricer refuses it, naming the efficiencies.
  for (const char* path : {"workload.efficiency.compute", "workload.efficiency.hbm"}) {
    INFO(path);
    trnsim::Scenario s = trnsim::default_scenario();
    trnsim::set_field(s, path, std::numeric_limits<double>::denorm_min());
    try {
      trnsim::evaluate(s);
      FAIL("an efficiency of 5e-324 was priced");
    } catch (const trnsim::InputError& e) {
      CHECK(e.field() == "workload.efficiency");
      CHECK(contains(e.problem(), "more seconds than a double holds"));
    }
  }
}

// Every numeric "value" of a stack file, by its path ("batching.context_encoding_batch").
void numeric_values(const json& j, const std::string& path, std::vector<std::string>& out) {
  if (!j.is_object()) return;
  if (j.contains("value") && j["value"].is_number()) out.push_back(path);
  for (auto it = j.begin(); it != j.end(); ++it) numeric_values(it.value(), trnsim::field_path(path, it.key()), out);
}

TEST_CASE("serving-stack files refuse impossible values, naming the file and the key", "[strict]") {
  const auto file = std::filesystem::temp_directory_path() / ("trnsim-bounds-" + std::to_string(::getpid()) + ".json");
  auto error_with = [&](json stack, const std::string& path, double value) {
    json* node = &stack;
    for (std::size_t pos = 0;;) {
      const auto dot = path.find('.', pos);
      node = &(*node)[path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos)];
      if (dot == std::string::npos) break;
      pos = dot + 1;
    }
    (*node)["value"] = value;
    std::ofstream(file) << stack.dump(1);
    try {
      trnsim::price::load_stack(file.string());
    } catch (const trnsim::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  int values = 0;
  for (const auto& name : trnsim::price::stack_names()) {
    const json stack = json::parse(*trnsim::find_embedded("data/serving/" + name + ".json"));
    std::vector<std::string> paths;
    numeric_values(stack, "", paths);
    for (const auto& p : paths) {
      INFO(name << ": " << p);
      ++values;
      const std::string e = error_with(stack, p, -1);
      CHECK(contains(e, file.string() + ": " + p + ".value: -1 is below "));
    }
    INFO(name);
    const std::string overlap = "batching.context_encoding_collective_overlap";
    CHECK(contains(error_with(stack, overlap, 1.5), file.string() + ": " + overlap + ".value: 1.5 is above 1 ("));
    CHECK(error_with(stack, overlap, 1) == "(no error)");
  }
  CHECK(values > 40);
  std::filesystem::remove(file);
}

}  // namespace unit_strict_bounds
