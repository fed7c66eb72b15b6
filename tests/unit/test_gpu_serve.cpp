// GPU serving: the chip's execution block (achieved rates -> the roofline's efficiencies on
// that chip, an explicit scenario value winning) and the TensorRT-LLM stack's server (in-flight
// batching, the engine trtllm-bench builds, GUARANTEED_NO_EVICT admission), each derived here
// from the data files read key by key.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "hw/system.h"
#include "price/stack.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/serve.h"
#include "serve/stack/step_model.h"
#include "serve/stack/step_pricer.h"
#include "test_support.h"
#include "workload/workload.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_gpu_serve {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

json data_file(const std::string& rel) {
  std::ifstream in(std::string(TRNSIM_SOURCE_DIR) + "/core/data/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

double tera(const json& q) { return q.at("value").get<double>() * 1e12; }

Scenario gpu_scenario(const std::string& system, json efficiency = json::object(), json serve = json::object(),
                      int tp = 1, int in = 1000, int out = 1000) {
  json w = {{"model", "Llama-3.1-8B"},
            {"parallelism", {{"tp", tp}}},
            {"precision", {{"weights", "fp8"}, {"attention_weights", "fp8"}, {"activations", "fp8"}, {"kv_cache", "fp8"}}},
            {"inference", {{"batch", 1}, {"input_tokens", in}, {"output_tokens", out}}},
            {"stack", "trtllm"}};
  if (!efficiency.empty()) w["efficiency"] = efficiency;
  if (!serve.contains("arrivals")) serve["arrivals"] = "burst";
  return scenario_from_json({{"system", system}, {"compare_system", ""}, {"workload", w}, {"serve", serve}});
}

const workload::Assumption& assumption(const workload::Result& r, const std::string& name) {
  for (const auto& a : r.assumptions)
    if (a.name == name) return a;
  FAIL("no assumption " << name);
  return r.assumptions.front();
}

}  // namespace

TEST_CASE("an H100 run prices with the H100's achieved rates, not the Trainium2 fit", "[gpu]") {
  const json chip = data_file("chips/h100-sxm.json");
  const json& x = chip.at("execution");
  const double fp8 = tera(x.at("achieved_flops").at("fp8")) / tera(chip.at("peak_flops").at("fp8"));
  const double hbm = tera(x.at("achieved_hbm_bandwidth")) / tera(chip.at("hbm").at("bandwidth"));
  const double overhead = x.at("kernel_overhead").at("value").get<double>() * 1e-6;
  const hw::System sys = hw::load_system("dgx-h100");
  const Scenario s = gpu_scenario("dgx-h100");
  const workload::Result r = workload::evaluate(s.workload, sys);
  CHECK(assumption(r, "efficiency.compute").value == Approx(fp8));
  CHECK(assumption(r, "efficiency.hbm").value == Approx(hbm));
  CHECK(assumption(r, "efficiency.kernel_overhead_s").value == Approx(overhead));
  CHECK(contains(assumption(r, "efficiency.compute").source, "G1"));
  CHECK(contains(assumption(r, "efficiency.kernel_overhead_s").source, "calibrated"));
  // A BF16 run takes the BF16 fraction.
  Scenario b = gpu_scenario("dgx-h100");
  b.workload.precision = {"bf16", "bf16", "bf16", "bf16"};
  const workload::Result rb = workload::evaluate(b.workload, sys);
  CHECK(assumption(rb, "efficiency.compute").value ==
        Approx(tera(x.at("achieved_flops").at("bf16")) / tera(chip.at("peak_flops").at("bf16"))));
}

TEST_CASE("an explicit scenario efficiency wins over the chip's; Trainium keeps the field defaults", "[gpu]") {
  const hw::System sys = hw::load_system("dgx-h100");
  const Scenario s = gpu_scenario("dgx-h100", {{"compute", 0.5}, {"kernel_overhead_s", 5e-6}});
  const workload::Result r = workload::evaluate(s.workload, sys);
  CHECK(assumption(r, "efficiency.compute").value == 0.5);
  CHECK(assumption(r, "efficiency.compute").source == "scenario");
  CHECK(assumption(r, "efficiency.kernel_overhead_s").value == 5e-6);
  CHECK(assumption(r, "efficiency.hbm").source != "scenario");  // still the chip's
  // Slower matmuls cost time: the run follows the value it reports.
  const workload::Result slow = workload::evaluate(gpu_scenario("dgx-h100", {{"compute", 0.5}}).workload, sys);
  const workload::Result chip = workload::evaluate(gpu_scenario("dgx-h100").workload, sys);
  CHECK(slow.inference().ttft_s > chip.inference().ttft_s);
  // Trainium2 has no execution block: the field defaults (its own fit) apply unchanged.
  Scenario t = gpu_scenario("dgx-h100");
  t.workload.stack = "plain";
  t.workload.precision = {"bf16", "bf16", "bf16", "bf16"};
  const workload::Result rt = workload::evaluate(t.workload, hw::load_system("trn2-48xlarge"));
  CHECK(contains(assumption(rt, "efficiency.compute").source, "Trainium2"));
}

TEST_CASE("the trtllm stack: in-flight batching under the engine trtllm-bench builds", "[gpu]") {
  const hw::System sys = hw::load_system("dgx-h100");
  const price::Stack& st = price::load_stack("trtllm");
  REQUIRE(st.server);
  CHECK(st.server->max_batch_size == price::ServerLimits::kTuned);
  CHECK(st.server->capacity_policy == "guaranteed_no_evict");
  CHECK_FALSE(st.prefill_alone);
  CHECK_FALSE(st.buckets.enabled);
  const int in = 1000, out = 1000;
  const Scenario s = gpu_scenario("dgx-h100", {}, {}, 1, in, out);
  const auto m = serve::make_step_model(sys, s.workload, s.serve);
  // GUARANTEED_NO_EVICT: the batch is the requests whose whole length the KV budget holds.
  const double fit = std::floor(m->memory().kv_budget_bytes / m->kv_bytes(in + out));
  REQUIRE(fit > 64);
  CHECK(m->limits().max_batch <= fit);
  CHECK(m->limits().max_batch >= fit - 1);  // the budget at the tuned token limit's working set
  CHECK(m->limits().batch_policy == "chunked");
  // trtllm-bench's max_num_tokens: batch x (1 + ISL / OSL), rounded up to 256 / 512 / 1024.
  const int tokens = m->limits().max_batched_tokens;
  CHECK(tokens >= 2048);
  CHECK(tokens <= 32768);
  CHECK(tokens % 256 == 0);
  // No compiled batch: one sequence costs less than many (exact shapes).
  serve::Batch one, many;
  one.decode_contexts = {in + 1};
  many.decode_contexts.assign(64, in + 1);
  CHECK(m->step(one).time_s < m->step(many).time_s);
  // The scenario's own limits win.
  const Scenario own = gpu_scenario("dgx-h100", {}, {{"max_num_seqs", 16}, {"max_batched_tokens", 4096}}, 1, in, out);
  const auto mo = serve::make_step_model(sys, own.workload, own.serve);
  CHECK(mo->limits().max_batch == 16);
  CHECK(mo->limits().max_batched_tokens == 4096);
}

TEST_CASE("a GPU decode step: the chip's cost per kernel plus the stack's per sequence and layer", "[gpu]") {
  // Llama-3.1-8B: 32 layers (its config); the stack file's decode_sequence_layer in ns.
  const json file = data_file("serving/trtllm.json");
  const json& c = file.at("server").at("decode_sequence_layer");
  REQUIRE(c.at("unit") == "ns");
  const double per_seq_layer = c.at("value").get<double>() * 1e-9;
  REQUIRE(per_seq_layer > 0);
  CHECK(c.at("source").get<std::string>().rfind("calibrated", 0) == 0);
  const hw::System sys = hw::load_system("dgx-h100");
  const Scenario s = gpu_scenario("dgx-h100");
  const auto m = serve::make_step_model(sys, s.workload, s.serve);
  const serve::StepPricer bare(s.workload, sys, 1000, 1000);
  for (int b : {1, 7, 64}) {
    serve::Batch batch;
    batch.decode_contexts.assign(b, 1001);
    const double extra = m->step(batch).time_s - bare.price(batch).time_s;
    CHECK(extra == Approx(b * 32 * per_seq_layer).epsilon(1e-9));
  }
  // A prefill chunk alone pays nothing per sequence: the cost is the decode step's.
  serve::Batch chunk;
  chunk.prefills.push_back({});
  chunk.prefills.back().new_tokens = 512;
  chunk.prefills.back().last = true;
  CHECK(m->step(chunk).time_s == Approx(bare.price(chunk).time_s).epsilon(1e-12));
}

// A GPU server stack's step model on one DGX H100 takes its batch and token limits from the
// stack file's server block; returns the model's limits.
serve::Limits check_server_limits(const std::string& stack) {
  const json file = data_file("serving/" + stack + ".json");
  const hw::System sys = hw::load_system("dgx-h100");
  Scenario s = gpu_scenario("dgx-h100");
  s.workload.stack = stack;
  const serve::Limits limits = serve::make_step_model(sys, s.workload, s.serve)->limits();
  CHECK(limits.max_batch == file.at("server").at("max_batch_size").at("value").get<int>());
  CHECK(limits.max_batched_tokens == file.at("server").at("max_num_tokens").at("value").get<int>());
  return limits;
}

TEST_CASE("pipeline micro-batches as lanes sharing the KV cache, and the capacity policy a scenario picks", "[gpu]") {
  const hw::System sys = hw::load_system("dgx-h100");
  const int in = 128, out = 32;
  auto pp2 = [&](json serve) {
    json w = {{"model", "Llama-3.1-8B"},
              {"parallelism", {{"tp", 1}, {"pp", 2}}},
              {"precision", {{"weights", "fp8"}, {"attention_weights", "fp8"}, {"activations", "fp8"}, {"kv_cache", "fp8"}}},
              {"inference", {{"batch", 1}, {"input_tokens", in}, {"output_tokens", out}}},
              {"stack", "trtllm"}};
    if (!serve.contains("arrivals")) serve["arrivals"] = "burst";
    serve["max_num_seqs"] = 60000;
    serve["max_batched_tokens"] = 4096;
    serve["input_tokens"] = {{"distribution", "fixed"}, {"mean", in}};
    serve["output_tokens"] = {{"distribution", "fixed"}, {"mean", out}};
    return scenario_from_json({{"system", "dgx-h100"}, {"compare_system", ""}, {"workload", w}, {"serve", serve}});
  };
  const Scenario one = pp2({});
  const auto m1 = serve::make_step_model(sys, one.workload, one.serve);
  const double budget = m1->memory().kv_budget_bytes, full = m1->kv_bytes(in + out);
  REQUIRE(budget > 0);
  // GUARANTEED_NO_EVICT (the stack's): the batch is what the replica's KV budget holds at full length.
  CHECK(m1->limits().max_batch == static_cast<int>(std::floor(budget / full)));
  // Two micro-batches in flight: each lane holds half of every chip's KV cache, and its batch what that half holds.
  const Scenario two = pp2({{"micro_batches", 2}});
  const auto m2 = serve::make_step_model(sys, two.workload, two.serve);
  CHECK(m2->memory().kv_budget_bytes == Approx(budget / 2).epsilon(1e-12));
  CHECK(m2->limits().max_batch == static_cast<int>(std::floor(budget / 2 / full)));
  // MAX_UTILIZATION from the scenario: admitted while the running contexts fit, so the slots are the scenario's.
  const Scenario mu = pp2({{"micro_batches", 2}, {"capacity_policy", "max_utilization"}});
  CHECK(serve::make_step_model(sys, mu.workload, mu.serve)->limits().max_batch == 60000);
  // The lanes step side by side: 2k requests at once over two lanes (round robin, k each) end
  // when k requests alone end on one lane of the same budget.
  const int k = 24;
  const Scenario lanes = pp2({{"micro_batches", 2}, {"requests", 2 * k}, {"router", "round_robin"}});
  const serve::Result both = serve::run(sys, lanes.workload, lanes.serve);
  const Scenario single = pp2({{"requests", k}});
  const serve::Result alone = serve::run(sys, single.workload, single.serve);
  REQUIRE(alone.duration_s > 0);
  CHECK(both.duration_s == Approx(alone.duration_s).epsilon(1e-12));
  CHECK(both.replicas == 1);  // one replica (of two chips), two lanes
  // Bad input names the field.
  CHECK(contains(error_of([&] {
                   const Scenario bad = pp2({{"micro_batches", 3}});
                   serve::make_step_model(sys, bad.workload, bad.serve);
                 }),
                 "serve.micro_batches"));
  CHECK(contains(error_of([&] { pp2({{"capacity_policy", "evict_all"}}); }), "serve.capacity_policy"));
  Scenario neuron = pp2({{"micro_batches", 2}});
  neuron.workload.stack = "nxdi";
  CHECK(contains(error_of([&] { serve::run(sys, neuron.workload, neuron.serve); }), "serve.micro_batches"));
}

TEST_CASE("the vllm stack: the V1 OpenAI server's limits, admitting while the KV cache has room", "[gpu]") {
  CHECK(check_server_limits("vllm").batch_policy == "chunked");
  CHECK(price::load_stack("vllm").server->capacity_policy == "max_utilization");  // not capped by the KV budget
}

TEST_CASE("the sglang stack: the large-EP deployment's limits and two-batch overlap in both phases", "[gpu]") {
  const json file = data_file("serving/sglang.json");
  check_server_limits("sglang");
  const price::Stack& st = price::load_stack("sglang");
  CHECK(st.context_encoding_overlap == file.at("batching").at("context_encoding_collective_overlap").at("value").get<double>());
  CHECK(st.decode_overlap == file.at("batching").at("decode_collective_overlap").at("value").get<double>());
  CHECK(contains(st.sources.at("batching.decode_collective_overlap"), "G11"));
  CHECK(st.calibrated.empty());  // every value sourced or an assumption
  // A stack file without the optional key overlaps nothing in decode.
  CHECK(price::load_stack("vllm").decode_overlap == 0);
}

TEST_CASE("the trtllm-triton stack: trtllm-build's default engine, the same at any request lengths", "[gpu]") {
  const json file = data_file("serving/trtllm-triton.json");
  const int engine_batch = file.at("server").at("max_batch_size").at("value").get<int>();
  const int engine_tokens = file.at("server").at("max_num_tokens").at("value").get<int>();
  const hw::System sys = hw::load_system("dgx-h100");
  CHECK(price::load_stack("trtllm-triton").server->capacity_policy == "guaranteed_no_evict");
  // A short request: the KV cache holds more requests than the engine's batch, so the engine caps it.
  // A long one: GUARANTEED_NO_EVICT caps it at what the KV budget holds. max_num_tokens never moves,
  // where trtllm-bench's engine (the trtllm stack) follows the lengths.
  for (auto [in, out] : {std::pair{128, 128}, std::pair{467, 256}, std::pair{5000, 500}}) {
    Scenario s = gpu_scenario("dgx-h100", {}, {}, 1, in, out);
    s.workload.stack = "trtllm-triton";
    const auto m = serve::make_step_model(sys, s.workload, s.serve);
    const int fit = static_cast<int>(std::floor(m->memory().kv_budget_bytes / m->kv_bytes(in + out)));
    CHECK(m->limits().max_batch == std::min(engine_batch, fit));
    CHECK(m->limits().max_batched_tokens == engine_tokens);
    s.workload.stack = "trtllm";
    const auto bench = serve::make_step_model(sys, s.workload, s.serve);
    if (in == 5000) CHECK(bench->limits().max_batched_tokens != engine_tokens);
  }
}
TEST_CASE("H1's 202/214 rows: outputs cut short at EOS spread a burst's finishes, as the table's own figures do", "[gpu]") {
  // The row as validate runs it (8B TP1, every request at t = 0), read from the data file.
  const json rows = data_file("validation/63-gpu-trtllm-online.json").at("rows");
  json row;
  for (const auto& r : rows)
    if (contains(r.at("figure").get<std::string>(), "8B BF16, H100 TP1, 202/214, QPS INF, mean ITL")) row = r;
  REQUIRE(row.is_object());
  const json& out = row.at("compute").at("serve").at("serve").at("output_tokens");
  const double served = out.at("eos_mean").get<double>(), drawn = out.at("mean").get<double>();
  REQUIRE(served < drawn);
  Scenario s = scenario_from_json(row.at("compute").at("serve"));
  REQUIRE(s.workload.stack == "trtllm-triton");
  const serve::Result eos = serve::run(s);
  // Outputs served: the tokens over the run per request average the row's served length, within
  // three standard errors of a mean of memoryless stops (standard deviation at most the mean).
  const double per_request = eos.output_tokens_per_s * eos.duration_s / static_cast<double>(eos.requests);
  CHECK(std::abs(per_request - served) < 3 * served / std::sqrt(static_cast<double>(eos.requests)));
  // The same burst at fixed lengths: every request runs to its length, all finish together.
  s.serve.output.eos_mean.reset();
  s.serve.output.mean = served;
  const serve::Result fixed = serve::run(s);
  CHECK(fixed.e2e.mean / fixed.duration_s > 0.9);
  // The published figures' own arithmetic: mean end to end = TTFT + (outputs - 1) gaps, the run's
  // length = the tokens over the output rate; about one half at 202/214 (every 467-token row: ~1).
  const double ttft = 1.657, itl = 0.021, tok_s = 8291, requests = 500;
  const double published = (ttft + (served - 1) * itl) / (requests * served / tok_s);
  CHECK(published < 0.55);
  CHECK(eos.e2e.mean / eos.duration_s < 0.65);
  CHECK(std::abs(eos.e2e.mean / eos.duration_s - published) < 0.15);
  // Fewer sequences run at once: shorter gaps, fewer tokens per second than at fixed lengths.
  CHECK(eos.mean_batch < fixed.mean_batch);
  CHECK(eos.itl.mean < fixed.itl.mean);
  CHECK(eos.output_tokens_per_s < fixed.output_tokens_per_s);
}

TEST_CASE("execution.assumed_from: H200 and Blackwell carry the H100's measured fractions", "[gpu]") {
  const json h100 = data_file("chips/h100-sxm.json");
  const json& hx = h100.at("execution");
  auto fraction = [&](const std::string& dt) { return tera(hx.at("achieved_flops").at(dt)) / tera(h100.at("peak_flops").at(dt)); };
  const double hbm_fraction = tera(hx.at("achieved_hbm_bandwidth")) / tera(h100.at("hbm").at("bandwidth"));
  const double overhead = hx.at("kernel_overhead").at("value").get<double>() * 1e-6;
  for (const std::string name : {"h200-sxm", "b200", "gb200", "gb300"}) {
    const json file = data_file("chips/" + name + ".json");
    const json& from = file.at("execution").at("assumed_from");
    CHECK(from.at("chip") == "h100-sxm");
    const hw::System sys = hw::load_system(name);
    REQUIRE(sys.chip.execution);
    const hw::ExecutionBlock& x = *sys.chip.execution;
    CHECK(x.achieved_flops.size() == from.at("matmul").size());
    for (auto it = from.at("matmul").begin(); it != from.at("matmul").end(); ++it) {
      const double peak = tera(file.at("peak_flops").at(it.key()));
      CHECK(x.achieved_flops.at(it.key()) == Approx(fraction(it.value().get<std::string>()) * peak).epsilon(1e-12));
      CHECK(sys.sources.at("chip.execution.achieved_flops." + it.key()).rfind("assumption", 0) == 0);
    }
    CHECK(x.achieved_hbm_bytes_per_s == Approx(hbm_fraction * tera(file.at("hbm").at("bandwidth"))).epsilon(1e-12));
    REQUIRE(x.kernel_overhead_s);
    CHECK(*x.kernel_overhead_s == Approx(overhead).epsilon(1e-12));
    // Not fitted on this chip: its sources say assumption (the H100's calibration named inside).
    CHECK(sys.sources.at("chip.execution.kernel_overhead").rfind("assumption", 0) == 0);
    CHECK(contains(sys.sources.at("chip.execution.kernel_overhead"), "calibrated"));
  }
  // A run on the H200 prices at the H100's fractions and names the assumption in its report.
  const Scenario s = gpu_scenario("dgx-h200");
  const workload::Result r = workload::evaluate(s.workload, hw::load_system("dgx-h200"));
  CHECK(assumption(r, "efficiency.compute").value == Approx(fraction("fp8")).epsilon(1e-12));
  CHECK(assumption(r, "efficiency.hbm").value == Approx(hbm_fraction).epsilon(1e-12));
  CHECK(contains(assumption(r, "efficiency.compute").source, "same GH100"));
}

TEST_CASE("bad execution.assumed_from names the field", "[gpu]") {
  const std::string path = (std::filesystem::temp_directory_path() / "trnsim-gpu-serve-assumed.json").string();
  auto error_with = [&](const std::function<void(json&)>& edit) {
    json chip = data_file("chips/b200.json");
    edit(chip);
    std::ofstream(path) << chip.dump();
    return error_of([&] { hw::load_chip(path); });
  };
  CHECK(contains(error_with([](json& c) { c["execution"]["kernel_overhead"] = {{"value", 5}, {"unit", "us"}, {"source", "assumption: x"}}; }),
                 "execution.kernel_overhead"));
  CHECK(contains(error_with([](json& c) { c["execution"]["assumed_from"]["chip"] = "h200-sxm"; }),
                 "execution.assumed_from.chip"));  // a chain of assumptions
  CHECK(contains(error_with([](json& c) { c["execution"]["assumed_from"]["chip"] = "trainium2"; }),
                 "execution.assumed_from.chip"));  // no execution data there
  CHECK(contains(error_with([](json& c) { c["execution"]["assumed_from"]["matmul"]["fp4"] = "fp8"; }),
                 "execution.assumed_from.matmul.fp4"));  // no fp4 peak on this chip
  CHECK(contains(error_with([](json& c) { c["execution"]["assumed_from"]["matmul"]["fp32"] = "fp32"; }),
                 "execution.assumed_from.matmul.fp32"));  // the H100 measured no FP32 matmul
  CHECK(contains(error_with([](json& c) { c["execution"]["assumed_from"]["source"] = "because"; }),
                 "execution.assumed_from.source"));
}

TEST_CASE("serve's economics: per scale-up domain, per MW all-in and per dollar, from the chip data", "[gpu]") {
  // Host share and PUE at the field defaults (workload.economics), power and price from the chip file.
  const json chip = data_file("chips/gb200.json");
  const double watts = chip.at("power").at("value").get<double>();
  const double price = chip.at("price_per_chip_hour").at("value").get<double>();
  Scenario s = gpu_scenario("gb200-nvl72", {}, {{"arrivals", "poisson"}, {"rate", 20}, {"requests", 200}}, 4, 500, 200);
  s.workload.parallelism.dp = 2;
  const serve::Result r = serve::run(s);
  REQUIRE(r.output_tokens_per_s_per_chip > 0);
  CHECK(r.output_tokens_per_s_per_chip == Approx(r.output_tokens_per_s / 8));
  const int domain = hw::load_system("gb200-nvl72").chips_per_domain;
  CHECK(domain == 72);
  CHECK(r.output_tokens_per_s_per_domain == Approx(r.output_tokens_per_s_per_chip * domain));
  const double all_in = watts * (1 + s.workload.economics.host_power_fraction) * s.workload.economics.pue;
  CHECK(r.tokens_per_s_per_megawatt == Approx(r.output_tokens_per_s_per_chip / all_in * 1e6));
  CHECK(r.usd_per_million_tokens == Approx(price / (r.output_tokens_per_s_per_chip * 3600) * 1e6));
  // A scenario's own price wins, as in `trnsim run`.
  s.workload.economics.price_per_chip_hour_usd = 2 * price;
  CHECK(serve::run(s).usd_per_million_tokens == Approx(2 * r.usd_per_million_tokens));
  // At the rate search's answer (the H200 comparison example): Little's law in steady state.
  std::ifstream in(std::string(TRNSIM_SOURCE_DIR) + "/examples/serve-compare-llama-70b-h200.json");
  std::stringstream text;
  text << in.rdbuf();
  const serve::Result h = serve::run(parse_scenario(text.str(), "serve-compare-llama-70b-h200.json"));
  REQUIRE(h.searched);
  const double per_request = h.output_tokens_per_s / h.request_rate;
  const double per_chip = h.max_rate * per_request / (h.replicas * h.chips_per_replica);
  CHECK(h.max_rate_tokens_per_s_per_chip == Approx(per_chip));
  CHECK(h.max_rate_tokens_per_s_per_domain == Approx(per_chip * 8));
  CHECK(h.max_rate_tokens_per_s_per_megawatt == Approx(per_chip / h.power_per_chip_all_in_watts * 1e6));
  CHECK(h.max_rate_usd_per_million_tokens == Approx(h.price_per_chip_hour_usd / (per_chip * 3600) * 1e6));
}

TEST_CASE("bad GPU execution and server data name the field", "[gpu]") {
  json chip = data_file("chips/h100-sxm.json");
  chip["execution"]["achieved_flops"]["fp8"]["value"] = 5000;  // above the 1979 TFLOPS peak
  const std::string path = (std::filesystem::temp_directory_path() / "trnsim-gpu-serve-bad-chip.json").string();
  std::ofstream(path) << chip.dump();
  CHECK(contains(error_of([&] { hw::load_chip(path); }), "execution.achieved_flops.fp8"));
  json stack = data_file("serving/trtllm.json");
  stack["server"]["max_num_tokens"]["value"] = "auto";
  const std::string spath = (std::filesystem::temp_directory_path() / "trnsim-gpu-serve-bad-stack.json").string();
  std::ofstream(spath) << stack.dump();
  CHECK(contains(error_of([&] { price::load_stack(spath); }), "server.max_num_tokens.value"));
}

}  // namespace unit_gpu_serve
