// Derived checks, serving (the queueing and the Neuron step costs the serving simulator adds
// to `trnsim run`'s pricing):
//  - Little's law from two observables the simulator keeps apart: the time integral of the
//    requests in the system (its occupancy series) equals the sum of every request's time in
//    the system (mean end-to-end latency x requests), and so for the waiting ones and the
//    mean queueing time; the reported L and lambda W are those two over the duration;
//  - zero load under vllm-neuron, derived from the stack file and `trnsim run`: a prompt runs
//    padded to the smallest power-of-two context-encoding bucket from the stack's minimum, a
//    decode step at the compiled batch in the smallest token-generation bucket holding its
//    context, each step pays the graph launches, host step and sampling, each request its
//    host cost; TTFT = request host + the step that prefills, and every later token one decode
//    step.
//  - a step's runtime costs: each compiled graph it runs (decode, each prompt) one launch, the
//    host step and sampling once (optimum-neuron runs the decodes and a prompt in one step);
//  - fused speculative decoding in `trnsim run` (plain stack: k drafts verified with a bonus
//    token): tokens a step = 1 + a + a^2 + ... + a^k, every operator of the draft's prefill and
//    decode and of the target's verify pass (k + 1 positions a sequence against the decode
//    context, logits at every position) derived, TPOT = (k draft steps + verify) / tokens.
// The plain stack's zero-load equality with `trnsim run` is test_serve.cpp's; video's time
// linear in steps is test_video.cpp's.
#include <catch2/catch.hpp>

#include <cmath>

#include "embedded.h"
#include "report/report.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/stack/neuron.h"
#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_serving {

using trnsim::json;

namespace {

json data_file(const std::string& key) { return json::parse(*trnsim::find_embedded(key)); }
double value(const json& q) { return q.at("value").get<double>(); }
// A stack's quantity in seconds (its files give us or ms).
double seconds(const json& q) {
  const std::string u = q.at("unit");
  return value(q) * (u == "us" ? 1e-6 : u == "ms" ? 1e-3 : 1.0);
}

trnsim::Scenario scenario(const json& workload, const json& serve, const std::string& system = "trn2-48xlarge") {
  return trnsim::scenario_from_json({{"system", system}, {"compare_system", ""}, {"workload", workload}, {"serve", serve}});
}

double rel(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

}  // namespace

TEST_CASE("serving: Little's law from the occupancy series and the requests' own times", "[derived]") {
  const json w = {{"model", "Llama-3.1-8B"},
                  {"inference", {{"batch", 1}, {"input_tokens", 1500}, {"output_tokens", 250}}},
                  {"stack", "plain"}};
  const std::vector<json> loads = {
      {{"arrivals", "poisson"}, {"rate", 30}, {"requests", 300}},
      {{"arrivals", "gamma"}, {"rate", 20}, {"burstiness", 0.3}, {"requests", 200}, {"scheduler", "prefill_first"}},
      {{"arrivals", "burst"}, {"requests", 200}, {"max_num_seqs", 16}},
  };
  for (const auto& v : loads) {
    INFO(v.dump());
    const trnsim::serve::Result r = trnsim::serve::run(scenario(w, v));
    REQUIRE(r.rejected == 0);
    REQUIRE(r.requests == static_cast<std::size_t>(v.at("requests").get<int>()));
    double in_system = 0, waiting = 0, covered = 0;
    for (const auto& p : r.series) {
      const double width = p.t1_s - p.t0_s;
      in_system += (p.running + p.waiting) * width;
      waiting += p.waiting * width;
      covered += width;
    }
    REQUIRE(covered == Approx(r.duration_s).epsilon(1e-9));  // the series spans the run
    // L T = sum of W over the requests; Lq T = sum of Wq.
    const double n = static_cast<double>(r.requests);
    CHECK(in_system == Approx(r.e2e.mean * n).epsilon(1e-9));
    CHECK(waiting == Approx(r.queue.mean * n).epsilon(1e-9).margin(1e-12));
    CHECK(r.little_l == Approx(in_system / r.duration_s).epsilon(1e-9));
    CHECK(r.little_lambda_w == Approx(r.request_rate * r.e2e.mean).epsilon(1e-9));
    // Some requests queued (the law is not checked on an empty queue only) -- except burst
    // arrivals into 16 slots, where most wait.
    CHECK(r.queue.max > 0);
  }
}

namespace {
void check_zero_load_neuron(const std::string& model, int tp, const std::string& system, int input, int output) {
  INFO(model << " tp " << tp << " on " << system << ", " << input << " + " << output << " tokens");
  const json stack = data_file("data/serving/vllm-neuron.json");
  const json& rt = stack.at("runtime");
  const double launch = seconds(rt.at("graph_launch")), host_step = seconds(rt.at("step_host")),
               sampling = seconds(rt.at("step_extra")), request_host = seconds(rt.at("request_host"));
  REQUIRE(stack.at("batching").at("prefill_alone").at("value") == true);  // a step prefills alone
  const int ce_min = static_cast<int>(value(stack.at("buckets").at("min_context_encoding")));
  const int tg_min = static_cast<int>(value(stack.at("buckets").at("min_token_generation")));
  const int seq_len = 4096, slots = 4;
  // NxDI's automatic buckets: powers of two from the minimum, the smallest holding the length.
  auto bucket = [](int min, int length) {
    int b = min;
    while (b < length) b *= 2;
    return b;
  };
  const int ce = bucket(ce_min, input);
  // Every decode context (input + 1 .. input + output - 1) lies in one token-generation bucket.
  const int tg = bucket(tg_min, input + output - 1);
  REQUIRE(tg == bucket(tg_min, input + 1));
  json w = {{"model", model},
            {"parallelism", {{"tp", tp}}},
            {"inference", {{"batch", 1}, {"input_tokens", input}, {"output_tokens", output}}},
            {"stack", "vllm-neuron"},
            {"compiled", {{"sequence_length", seq_len}}}};
  const json serve = {{"arrivals", "closed"}, {"concurrency", 1}, {"requests", 3}, {"max_num_seqs", slots},
                      {"prefix_cache", {{"enabled", false}}}};  // 1D buckets (the prefix-caching minimums differ)
  const trnsim::serve::Result r = trnsim::serve::run(scenario(w, serve, system));
  REQUIRE(r.requests == 3);
  // `trnsim run` of the padded shapes: the prompt at its bucket; a decode step of `slots`
  // sequences at context tg (input tg - 1, one decode step at context tg).
  json pre = w, dec = w;
  pre["inference"] = {{"batch", 1}, {"input_tokens", ce}, {"output_tokens", 1}};
  dec["inference"] = {{"batch", slots}, {"input_tokens", tg - 1}, {"output_tokens", 2}};
  const trnsim::Report rp = trnsim::evaluate(scenario(pre, serve, system)), rd = trnsim::evaluate(scenario(dec, serve, system));
  const double step_costs = launch + host_step + sampling;  // one graph a step
  const double ttft = request_host + rp.primary.result->inference().ttft_s + step_costs;
  const double tpot = rd.primary.result->inference().tpot_s + step_costs;
  INFO("TTFT served " << r.ttft.p50 << " s, derived " << ttft << " s (run's padded prefill " << rp.primary.result->inference().ttft_s
                      << " s, its operators' sum " << rp.primary.result->phases[0].time_s << " s)");
  CHECK(rel(r.ttft.p50, ttft) < 1e-9);
  CHECK(rel(r.ttft.max, ttft) < 1e-9);
  CHECK(rel(r.tpot.p50, tpot) < 1e-9);
  CHECK(rel(r.e2e.mean, ttft + (output - 1) * tpot) < 1e-9);
  CHECK(rel(r.zero_load_ttft_s, ttft) < 1e-9);
  CHECK(rel(r.zero_load_tpot_s, tpot) < 1e-9);
}
}  // namespace

TEST_CASE("serving at zero load under vllm-neuron: buckets, compiled batch and runtime costs from the stack file",
          "[derived]") {
  check_zero_load_neuron("Llama-3.1-8B", 1, "trn2-48xlarge", 700, 40);  // 4 ranks on one chip
}

TEST_CASE("serving at zero load under vllm-neuron hides a prompt's collectives as trnsim run does", "[derived]") {
  // Where the whole-pass rule and the per-layer one differ: Llama-3.1-70B TP16 (64 ranks), a
  // 128-token bucket, kernel overheads most of each layer's work; gpt-oss-120b TP8, a
  // 4096-token bucket, a layer's all-reduce outlasting the work before it. Serving once hid
  // min(f x the pass's collectives, its compute + HBM) over the whole pass: 46.8 ms against
  // 39.0 ms derived, and 102.3 against 112.0; it now hides layer by layer as trnsim run does.
  check_zero_load_neuron("Llama-3.1-70B", 16, "trn3-gen2-ultraserver", 100, 20);
  check_zero_load_neuron("gpt-oss-120b", 8, "trn3-gen2-ultraserver", 3000, 20);
}

TEST_CASE("speculative decoding in trnsim run: the draft, the verify pass and the tokens a step gains", "[derived]") {
  using namespace derived;
  const Arch target = arch_of("Llama-3.1-8B"), draft = arch_of("Llama-3.2-1B");
  const double k = 4, acc = 0.7;
  const Inference in{4, 1000, 65};
  Placement p;
  json w = inference_workload(target.name, p, in);  // plain stack
  w["speculation"] = {{"draft_model", draft.name}, {"length", k}, {"acceptance", acc}};
  Run r = evaluate(w, "trn2-48xlarge");
  const json& res = r.result;
  // The plain stack verifies the k drafts and a bonus position: k + 1 positions.
  const double positions = k + 1;
  double tokens = 1, run = 1;
  for (int j = 0; j < k; ++j) tokens += (run *= acc);
  const double ttft_target = check_pass(phase(res, "prefill"), target, p, prefill_pass(target, in.input), 1, r.system);
  const double ttft_draft = check_pass(phase(res, "draft prefill"), draft, p, prefill_pass(draft, in.input), 1, r.system);
  const double draft_step = check_pass(phase(res, "draft decode"), draft, p, decode_pass(draft, in, in.batch), in.batch, r.system);
  Pass verify = decode_pass(target, in, in.batch);
  verify.new_tokens = positions;
  const double verify_s = check_pass(phase(res, "verify"), target, p, verify, in.batch * positions, r.system);
  const json& inf = res.at("inference");
  const double cycle = k * draft_step + verify_s;
  CHECK(inf.at("ttft_s").get<double>() == exact(ttft_target + ttft_draft));
  CHECK(inf.at("tpot_s").get<double>() == exact(cycle / tokens));
  CHECK(inf.at("request_latency_s").get<double>() == exact(in.batch * (ttft_target + ttft_draft) + (in.output - 1) / tokens * cycle));
}

TEST_CASE("serving: a step pays one graph launch per graph it runs, the host step and the step extra once", "[derived]") {
  const json stack = data_file("data/serving/optimum-neuron.json");
  // `both` is a step of decodes and a prompt: the optimum-neuron runner of October 2025 never
  // forms one (prefill_alone), its later runner does; a step's price is the same either way.
  const json& rt = stack.at("runtime");
  const double launch = seconds(rt.at("graph_launch")), per_step = seconds(rt.at("step_host")) + seconds(rt.at("step_extra"));
  const json w = {{"model", "Llama-3.1-8B"},
                  {"inference", {{"batch", 4}, {"input_tokens", 1000}, {"output_tokens", 100}}},
                  {"stack", "optimum-neuron"},
                  {"compiled", {{"sequence_length", 4096}}}};
  const trnsim::Scenario s = scenario(w, {{"max_num_seqs", 4}, {"prefix_cache", {{"enabled", false}}}});
  const trnsim::hw::System sys = trnsim::hw::load_system("trn2-48xlarge");
  const trnsim::serve::NeuronStepModel m(sys, s.workload, s.serve);
  trnsim::serve::Batch dec, pre, both, two;
  dec.decode_contexts = {1500, 900};
  pre.prefills.push_back({800, 0, true});
  both.decode_contexts = dec.decode_contexts;
  both.prefills = pre.prefills;
  two.prefills = {{800, 0, true}, {300, 0, true}};
  trnsim::serve::Batch other;
  other.prefills = {{300, 0, true}};
  // One graph alone: its priced time + a launch + the per-step costs.
  const double decode_graph = m.step(dec).time_s - launch - per_step, prefill_graph = m.step(pre).time_s - launch - per_step;
  const double other_graph = m.step(other).time_s - launch - per_step;
  REQUIRE(decode_graph > 0);
  REQUIRE(prefill_graph > 0);
  CHECK(m.step(both).time_s == Approx(decode_graph + prefill_graph + 2 * launch + per_step).epsilon(1e-12));
  CHECK(m.step(two).time_s == Approx(prefill_graph + other_graph + 2 * launch + per_step).epsilon(1e-12));
  CHECK(m.step(both).split.overhead_s >= 2 * launch + per_step);
  CHECK(m.request_overhead_s() == Approx(seconds(rt.at("request_host"))).epsilon(1e-15));
}

}  // namespace unit_derived_serving
