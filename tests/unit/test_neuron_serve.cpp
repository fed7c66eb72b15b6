// The Neuron step model behind the serving simulator: static compiled batch, bucket padding
// of prompts and decode contexts, prefill/decode scheduling per stack, runtime and host
// costs, fused speculation's tokens per step, and the KV allocation of compiled slots.
#include <catch2/catch.hpp>

#include "report/report.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/stack/neuron.h"
#include "test_support.h"
#include "workload/speculative.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_neuron_serve {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

Scenario scenario(const std::string& stack, json compiled = json::object(), json serve = json::object(),
                  json speculation = json::object()) {
  json w = {{"model", "Llama-3.1-8B"},
            {"parallelism", {{"tp", 1}}},
            {"inference", {{"batch", 8}, {"input_tokens", 1000}, {"output_tokens", 100}}},
            {"stack", stack},
            {"compiled", compiled}};
  if (!speculation.empty()) w["speculation"] = speculation;
  if (!serve.contains("max_num_seqs")) serve["max_num_seqs"] = 8;
  if (!serve.contains("prefix_cache")) serve["prefix_cache"] = {{"enabled", false}};  // 1D buckets from 128
  return scenario_from_json({{"system", "trn2-48xlarge"}, {"compare_system", ""}, {"workload", w}, {"serve", serve}});
}

serve::NeuronStepModel neuron_model(const Scenario& s) {
  static const hw::System sys = hw::load_system("trn2-48xlarge");
  return serve::NeuronStepModel(sys, s.workload, s.serve);
}

double decode_time(const serve::StepModel& m, std::vector<int> contexts) {
  serve::Batch b;
  b.decode_contexts = std::move(contexts);
  return m.step(b).time_s;
}

double prefill_time(const serve::StepModel& m, int tokens, int cached = 0) {
  serve::Batch b;
  b.prefills.push_back({tokens, cached, true});
  return m.step(b).time_s;
}

}  // namespace

TEST_CASE("neuron: decode runs the compiled batch in the smallest bucket holding the longest context", "[serve]") {
  const Scenario s = scenario("vllm-neuron", {{"sequence_length", 4096}});
  const auto m = neuron_model(s);
  CHECK(m.shapes().token_generation == std::vector<int>{128, 256, 512, 1024, 2048, 4096});
  CHECK(m.limits().max_batch == 8);
  CHECK(m.limits().batch_policy == "prefill_first");  // vllm-neuron: a step is prompts or decodes
  // One sequence in flight costs what eight do (static shapes; padding rows are computed).
  CHECK(decode_time(m, {1500}) == Approx(decode_time(m, std::vector<int>(8, 1500))));
  // Contexts inside one bucket cost the same; the next bucket costs more.
  CHECK(decode_time(m, {1100}) == Approx(decode_time(m, {2048})));
  CHECK(decode_time(m, {2049}) > decode_time(m, {2048}));
  CHECK(m.padded_context(2049) == 4096);
  serve::Batch b;
  b.decode_contexts = {700};
  const serve::StepTime t = m.step(b);
  CHECK(t.padded_batch == 8);
  CHECK(t.tokens_per_sequence == 1);
  // The stack's per-step costs are in the step (vllm-neuron: graph launch + host step).
  const price::Stack& st = price::load_stack("vllm-neuron");
  CHECK(t.split.overhead_s >= st.runtime.graph_launch_s + st.runtime.step_host_s);
  CHECK(m.request_overhead_s() == st.runtime.request_host_s);
  CHECK(contains(error_of([&] { decode_time(m, {5000}); }), "exceed the largest compiled bucket (4096)"));
}

TEST_CASE("neuron: prompts run padded to their context-encoding bucket", "[serve]") {
  const auto m = neuron_model(scenario("vllm-neuron", {{"sequence_length", 4096}, {"context_encoding_buckets", {512, 2048, 4096}}}));
  CHECK(m.padded_prefill({1000, 0, true}).new_tokens == 2048);
  CHECK(prefill_time(m, 1000) == Approx(prefill_time(m, 2048)));
  CHECK(prefill_time(m, 400) < prefill_time(m, 1000));
  // optimum-neuron pads every prompt to max_context_length and decodes over the whole
  // sequence length; its October 2025 runner gives prompts steps of their own (vLLM V0). A
  // stack that mixes (prefill_alone false: the plugin's later runner) prices a step of both
  // as the decodes, then the prompt.
  const auto o = neuron_model(scenario("optimum-neuron", {{"sequence_length", 4096}}));
  CHECK(o.padded_prefill({100, 0, true}).new_tokens == 4096);
  CHECK(o.padded_context(300) == 4096);
  CHECK(o.limits().batch_policy == "prefill_first");
  CHECK(o.limits().max_prefill_seqs == 1);
  CHECK(!o.limits().prefix_caching);
  serve::Batch both;
  both.decode_contexts = {2000};
  both.prefills.push_back({1500, 0, true});
  CHECK(o.step(both).time_s > decode_time(o, {2000}));
  CHECK(o.step(both).time_s > prefill_time(o, 1500));
  // With prefix caching the cached part is bucketed too (NxDI's 2D buckets from 512).
  const auto p = neuron_model(scenario("vllm-neuron", {{"sequence_length", 4096}}, {{"prefix_cache", {{"enabled", true}}}}));
  CHECK(p.shapes().prefix_caching);
  CHECK(p.padded_prefill({300, 700, true}).cached_tokens == 1024);
  CHECK(p.padded_prefill({300, 700, true}).new_tokens == 512);
}

TEST_CASE("neuron: fused speculation gains the expected tokens per step", "[serve]") {
  json spec = {{"draft_model", "Llama-3.2-1B"}, {"length", 4}, {"acceptance", 0.8}};
  const Scenario s = scenario("vllm-neuron", {{"sequence_length", 4096}}, json::object(), spec);
  const auto m = neuron_model(s);
  serve::Batch b;
  b.decode_contexts = {900};
  const serve::StepTime t = m.step(b);
  CHECK(t.tokens_per_sequence == Approx(workload::speculative_tokens_per_step(s.workload.speculation, false)));
  CHECK(t.tokens_per_sequence == Approx(1 + 0.8 + 0.64 + 0.512));
  // A speculative step costs more than a plain one, per token less at this acceptance.
  const auto plain = neuron_model(scenario("vllm-neuron", {{"sequence_length", 4096}}));
  CHECK(t.time_s > decode_time(plain, {900}));
  CHECK(t.time_s / t.tokens_per_sequence < decode_time(plain, {900}));
}

TEST_CASE("neuron: compiled slots hold their KV cache; serving at zero load adds the runtime", "[serve]") {
  // optimum-neuron keeps one KV slot per compiled sequence at the full length.
  CHECK(contains(error_of([] { neuron_model(scenario("optimum-neuron", {{"sequence_length", 131072}}, {{"max_num_seqs", 64}})); }),
                 "serve.max_num_seqs: the optimum-neuron server allocates the KV cache of every compiled slot"));
  // One request alone: TTFT and TPOT at least what `trnsim run` prices (padding and host costs added).
  Scenario s = scenario("vllm-neuron", {{"sequence_length", 2048}},
                        {{"arrivals", "closed"}, {"concurrency", 1}, {"requests", 3}, {"max_num_seqs", 1}});
  s.workload.inference.batch = 1;
  const serve::Result r = serve::run(s);
  const Report rep = evaluate(s);
  CHECK(r.ttft.p50 > rep.primary.result->inference().ttft_s + price::load_stack("vllm-neuron").runtime.request_host_s);
  CHECK(r.tpot.p50 > rep.primary.result->inference().tpot_s);
  CHECK(r.stack == "vllm-neuron");
}

TEST_CASE("neuron: the plain serving stack refuses speculation rather than ignoring it", "[serve]") {
  Scenario s = scenario("plain", json::object(), {{"requests", 3}},
                        {{"draft_model", "Llama-3.2-1B"}, {"length", 3}, {"acceptance", 0.8}});
  CHECK(contains(error_of([&] { serve::run(s); }), "workload.speculation.length: the plain serving stack does not run"));
}

TEST_CASE("neuron: a prompt over the largest context-encoding bucket is rejected, and so is a recompute", "[serve]") {
  // max_context_length 2048 of a 32768-token sequence: a 3000-token prompt has no graph; the
  // run goes on and counts it.
  const char* trace = "arrived_at,num_prefill_tokens,num_decode_tokens\n0,1000,100\n0.1,3000,100\n";
  const serve::Result r = serve::run(scenario("vllm-neuron", {{"sequence_length", 32768}, {"max_context_length", 2048}},
                                              {{"arrivals", "trace"}, {"trace", {{"text", trace}}}}));
  CHECK(r.requests == 1);
  CHECK(r.rejected == 1);
  CHECK(contains(r.rejected_reason, "a prompt of 3000 tokens exceeds the largest compiled context-encoding bucket (2048)"));
  // 64 answers of 20,000 tokens outgrow one chip's KV budget (the block layout, prefix caching
  // on): the preempted ones would recompute 2000 + what they streamed, over 2048 -- they end
  // there, counted, and the books still balance.
  json load = {{"arrivals", "burst"}, {"requests", 64}, {"max_num_seqs", 64}, {"prefix_cache", {{"enabled", true}}},
               {"input_tokens", {{"mean", 2000}}}, {"output_tokens", {{"mean", 20000}}}};
  const serve::Result p =
      serve::run(scenario("vllm-neuron", {{"sequence_length", 32768}, {"max_context_length", 2048}}, load));
  CHECK(p.preemptions > 0);
  CHECK(p.rejected == p.preemptions);
  CHECK(p.requests + p.rejected == 64);
  CHECK(contains(p.rejected_reason, "a preempted request's recompute of"));
  CHECK(p.little_l == Approx(p.little_lambda_w).epsilon(1e-9));
  // With the client holding calls back, each request that ends that way frees its place.
  load["requests"] = 96;
  load["max_concurrency"] = 64;
  const serve::Result h =
      serve::run(scenario("vllm-neuron", {{"sequence_length", 32768}, {"max_context_length", 2048}}, load));
  CHECK(h.rejected > 0);
  CHECK(h.requests + h.rejected == 96);
}

TEST_CASE("neuron: the least-loaded router counts the calls still on their way to a replica", "[serve]") {
  // A burst over two replicas: every call spends the stack's host overhead before it reaches
  // its replica's queue. Counted there, the calls alternate as round robin sends them; not
  // counted, they would all go to the first replica.
  auto at = [](const char* router) {
    json j = scenario_to_json(scenario("vllm-neuron", {{"sequence_length", 4096}},
                                       {{"arrivals", "burst"}, {"requests", 32}, {"router", router}}));
    j["workload"]["parallelism"]["dp"] = 2;
    return serve::run(scenario_from_json(j));
  };
  const serve::Result rr = at("round_robin"), ll = at("least_loaded");
  CHECK(ll.request_rate == Approx(rr.request_rate).epsilon(1e-12));
  CHECK(ll.ttft.mean == Approx(rr.ttft.mean).epsilon(1e-12));
}

}  // namespace unit_neuron_serve
