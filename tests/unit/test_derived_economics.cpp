// Derived checks, token economics (core/workload/economics.cpp), by hand from the inputs:
//  - dollars per million tokens = price per chip-hour x the chips the job holds x 1e6 /
//    (the tokens those chips produce a second x 3600 s an hour): the price from the chip's
//    data file (or the scenario's), the chips tp x pp x dp from the scenario, the tokens a
//    second from the report's own figures for one replica (inference: output tokens of a
//    replica x dp replicas) or from the step (training: global batch x sequence length
//    tokens per step time);
//  - tokens per second per megawatt = those tokens / (chips x the chip's power x (1 + host
//    power fraction) x PUE) x 1e6, the power from the chip file (or the scenario's), the
//    fractions the scenario's or the field table's defaults;
//  - both on the primary system and on the comparison system, whose ratios are primary /
//    comparison.
// Scenarios: the examples of inference on a Trn3 Gen2 and on a Trn2 UltraServer, training
// across UltraClusters, and Llama-3.1-8B with pipeline and data parallelism on trn2.48xlarge
// with the price, power, host fraction and PUE set by the scenario.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_economics {

using derived::exact;
using trnsim::json;

namespace {

// A value the scenario sets (null when it sets none).
json set_in(const json& scenario, const std::string& path) {
  std::string pointer = "/" + path;
  std::replace(pointer.begin(), pointer.end(), '.', '/');
  const json::json_pointer at(pointer);
  return scenario.contains(at) ? scenario.at(at) : json();
}

// The scenario's value, else the field table's default.
double setting(const json& scenario, const std::string& path) {
  const json v = set_in(scenario, path);
  return v.is_null() ? derived::field_default(path) : v.get<double>();
}

// A chip file quantity in the unit the derivation uses (USD/h, W).
double chip_value(const json& chip, const char* key, const char* unit) {
  const json& q = chip.at(key);
  REQUIRE(q.at("unit") == unit);
  return q.at("value").get<double>();
}

struct Derived {
  double usd_per_million_tokens = 0, tokens_per_s_per_megawatt = 0;
};

// One side of a report (primary or comparison) on `system`, for the scenario as written.
Derived check_side(const json& result, const std::string& system, const json& scenario) {
  INFO(system << ": " << scenario.value("name", std::string("scenario")));
  const json chip = derived::chip_data(system);
  const json& par = scenario.at("workload").at("parallelism");
  const double chips = par.value("tp", 1.0) * par.value("pp", 1.0) * par.value("dp", 1.0);
  CHECK(result.at("placement").at("chips_used").get<double>() == chips);
  double tokens_per_s = 0;
  if (result.at("kind") == "training") {
    const json& t = scenario.at("workload").at("training");
    const json& r = result.at("training");
    tokens_per_s = t.at("global_batch").get<double>() * t.at("sequence_length").get<double>() / r.at("step_time_s").get<double>();
  } else {
    tokens_per_s = result.at("inference").at("output_tokens_per_s").at("per_replica").get<double>() * par.value("dp", 1.0);
  }
  REQUIRE(tokens_per_s > 0);
  // The price and the power default to the chip file's guesses (the field table's null).
  const json set_price = set_in(scenario, "workload.economics.price_per_chip_hour_usd");
  const json set_power = set_in(scenario, "workload.economics.chip_power_watts");
  const double price = set_price.is_null() ? chip_value(chip, "price_per_chip_hour", "USD/h") : set_price.get<double>();
  const double power = set_power.is_null() ? chip_value(chip, "power", "W") : set_power.get<double>();
  const double all_in = power * (1 + setting(scenario, "workload.economics.host_power_fraction")) *
                        setting(scenario, "workload.economics.pue");
  Derived d;
  d.usd_per_million_tokens = price * chips / (tokens_per_s * 3600) * 1e6;
  d.tokens_per_s_per_megawatt = tokens_per_s / (chips * all_in) * 1e6;
  const json& e = result.at("economics");
  CHECK(e.at("price_per_chip_hour_usd").get<double>() == price);
  CHECK(e.at("chip_power_watts").get<double>() == power);
  CHECK(e.at("all_in_power_per_chip_watts").get<double>() == exact(all_in));
  CHECK(e.at("usd_per_million_tokens").get<double>() == exact(d.usd_per_million_tokens));
  CHECK(e.at("tokens_per_s_per_megawatt").get<double>() == exact(d.tokens_per_s_per_megawatt));
  return d;
}

// Evaluates the scenario and checks both systems and their ratios.
void check_scenario(const json& scenario) {
  const json report = trnsim::report_to_json(trnsim::evaluate(trnsim::scenario_from_json(scenario)));
  const Derived p = check_side(report.at("primary").at("result"), scenario.at("system"), scenario);
  REQUIRE(report.contains("compare"));
  const Derived c = check_side(report.at("compare").at("result"), scenario.at("compare_system"), scenario);
  const json& ratio = report.at("ratios").at("workload");
  CHECK(ratio.at("usd_per_million_tokens").get<double>() == exact(p.usd_per_million_tokens / c.usd_per_million_tokens));
  CHECK(ratio.at("tokens_per_s_per_megawatt").get<double>() == exact(p.tokens_per_s_per_megawatt / c.tokens_per_s_per_megawatt));
}

}  // namespace

TEST_CASE("dollars per million tokens and tokens per megawatt: inference examples, both systems", "[derived]") {
  // gpt-oss-120b on a Trn3 Gen2 UltraServer against a Trn2 UltraServer (the playground's
  // default) and Llama-3.1-405B on a Trn2 UltraServer against a Trn3 Gen2 one: each chip's
  // price and power guess from its own file.
  for (const char* example : {"examples/default.json", "examples/llama-3.1-405b-trn2-ultraserver.json"}) {
    INFO(example);
    check_scenario(derived::data_file(example));
  }
}

TEST_CASE("dollars per million tokens and tokens per megawatt: training across UltraClusters", "[derived]") {
  // Llama-3.1-70B on 2,304 Trainium3 chips against 2,304 Trainium2 chips: tokens per step
  // (global batch x sequence length) over the step time.
  check_scenario(derived::data_file("examples/llama-3.1-70b-training-ultracluster.json"));
}

TEST_CASE("dollars per million tokens and tokens per megawatt: the scenario's price and power, pp and dp", "[derived]") {
  // Eight chips as two replicas of a tp 2 x pp 2 pipeline: the job holds tp x pp x dp chips,
  // not a replica's, nor a server's 16; the scenario's price, power, host fraction and PUE
  // replace the chip data's guesses on both systems.
  const json scenario = {
      {"version", 1},
      {"name", "Llama-3.1-8B, tp 2, pp 2, dp 2"},
      {"system", "trn2-48xlarge"},
      {"compare_system", "trn3-gen1-ultraserver"},
      {"workload",
       {{"kind", "inference"},
        {"model", "Llama-3.1-8B"},
        {"parallelism", {{"tp", 2}, {"pp", 2}, {"dp", 2}}},
        {"inference", {{"batch", 8}, {"input_tokens", 1000}, {"output_tokens", 200}}},
        {"economics", {{"price_per_chip_hour_usd", 1.75}, {"chip_power_watts", 640}, {"host_power_fraction", 0.2}, {"pue", 1.4}}}}}};
  check_scenario(scenario);
  // And with the chip data's guesses: Trainium2's on the primary, Trainium3's on the comparison.
  json guesses = scenario;
  guesses["workload"].erase("economics");
  check_scenario(guesses);
}

}  // namespace unit_derived_economics
