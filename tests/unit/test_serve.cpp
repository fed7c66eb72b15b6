// The serving simulator's behaviour: at zero load it reproduces `trnsim
// run`; longer context never makes a step faster; a prefix hit removes exactly the shared
// part's prefill; Little's law holds on the simulated system and its queue; tokens are
// conserved under preemption; bad inputs name their field or line; runs are deterministic.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "report/metrics.h"
#include "report/report.h"
#include "report/serving.h"
#include "scenario/scenario.h"
#include "serve/requests.h"
#include "serve/sessions.h"
#include "serve/sim/prefix_cache.h"
#include "serve/sim/simulator.h"
#include "serve/stack/step_model.h"
#include "serve/stack/step_pricer.h"
#include "serve/stats.h"
#include "serve/traces.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_serve {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

// A small, fast serving scenario: Llama-3.1-8B on one Trainium2 chip.
Scenario llama8b(const json& serve = json::object(), int tp = 1) {
  json j = {{"system", "trn2-48xlarge"},
            {"compare_system", ""},
            {"workload",
             {{"model", "Llama-3.1-8B"},
              {"parallelism", {{"tp", tp}}},
              {"inference", {{"batch", 1}, {"input_tokens", 1500}, {"output_tokens", 250}}},
              {"stack", "plain"}}},  // exact shapes (the Neuron stacks: test_neuron_serve.cpp)
            {"serve", serve}};
  return scenario_from_json(j);
}

serve::Result served(const Scenario& s) { return serve::run(s); }

double rel(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

}  // namespace

TEST_CASE("serve: at zero load one request reproduces trnsim run's TTFT and TPOT", "[serve]") {
  struct Case {
    const char* system;
    const char* model;
    int tp, pp, input, output;
    const char* kv;
  };
  const Case cases[] = {
      {"trn2-48xlarge", "Llama-3.1-8B", 1, 1, 1500, 250, "bf16"},
      {"trn2-48xlarge", "Llama-3.1-8B", 4, 2, 700, 90, "fp8"},
      {"trn3-gen2-ultraserver", "gpt-oss-120b", 8, 1, 10000, 300, "bf16"},  // MoE, sliding window, sinks
      {"trn3-gen2-ultraserver", "Llama-3.1-70B", 8, 1, 128, 2000, "mxfp8"},
      {"trn3-gen2-ultraserver", "Llama-4-Scout-17B-16E-Instruct", 8, 1, 12000, 200, "bf16"},  // chunked attention
      {"trn3-gen2-ultraserver", "Qwen3-Next-80B-A3B-Instruct", 8, 1, 3000, 150, "bf16"},      // Gated DeltaNet
      {"trn3-gen2-ultraserver", "DeepSeek-V3", 16, 1, 1000, 64, "bf16"},                        // MLA
  };
  for (const auto& c : cases) {
    INFO(c.model << " tp " << c.tp << " pp " << c.pp);
    json j = {{"system", c.system},
              {"compare_system", ""},
              {"workload",
               {{"model", c.model},
                {"precision", {{"kv_cache", c.kv}}},
                {"parallelism", {{"tp", c.tp}, {"pp", c.pp}}},
                {"inference", {{"batch", 1}, {"input_tokens", c.input}, {"output_tokens", c.output}}},
                {"stack", "plain"}}},
              // one request at a time, whole prompts (no chunking), as `trnsim run` prefills it
              {"serve", {{"arrivals", "closed"}, {"concurrency", 1}, {"requests", 3}, {"max_batched_tokens", 0}}}};
    const Scenario s = scenario_from_json(j);
    const Report rep = evaluate(s);
    const serve::Result r = served(s);
    REQUIRE(r.requests == 3);
    CHECK(rel(r.ttft.p50, rep.primary.result->inference().ttft_s) < 1e-9);
    CHECK(rel(r.tpot.p50, rep.primary.result->inference().tpot_s) < 1e-9);
    CHECK(rel(r.zero_load_ttft_s, r.run_ttft_s) < 1e-9);
    CHECK(rel(r.zero_load_tpot_s, r.run_tpot_s) < 1e-9);
    // Every request alone: e2e = TTFT + (output - 1) x TPOT.
    CHECK(rel(r.e2e.mean, r.ttft.mean + (c.output - 1) * r.tpot.mean) < 1e-9);
  }
}

TEST_CASE("serve: a longer context never makes a step faster", "[serve]") {
  // Chunked attention (Llama 4) attends only within aligned chunks: its steps grow within a
  // chunk and drop where a new chunk starts, so there the check runs within each chunk.
  for (const char* model : {"Llama-3.1-8B", "gpt-oss-120b", "Qwen3-Next-80B-A3B-Instruct", "Llama-4-Scout-17B-16E-Instruct"}) {
    INFO(model);
    Scenario s = llama8b();
    set_field(s, "workload.model", model);
    set_field(s, "workload.parallelism.tp", 8);
    set_field(s, "system", "trn3-gen2-ultraserver");
    const hw::System sys = hw::load_system(s.system);
    const auto m = serve::make_step_model(sys, s.workload, s.serve);
    const int chunk = s.workload.imported->attention_chunk;  // 0: no chunked layers
    for (int b : {1, 3, 32, 200}) {
      double last = 0;
      for (int c = 1; c < 40000; c += 97) {
        serve::Batch batch;
        batch.decode_contexts.assign(static_cast<std::size_t>(b), c);
        const double t = m->step(batch).time_s;
        const bool new_chunk = chunk > 0 && (c - 1) / chunk != (c - 98) / chunk;
        if (!new_chunk) REQUIRE(t >= last);
        last = t;
      }
    }
    // A prefill chunk after more cached tokens costs at least as much.
    double last = 0;
    for (int cached = 0; cached < 30000; cached += 333) {
      serve::Batch batch;
      batch.prefills.push_back({512, cached, true});
      const double t = m->step(batch).time_s;
      const bool new_chunk = chunk > 0 && (cached - 333) / chunk != (cached + 512) / chunk;
      if (!new_chunk) REQUIRE(t >= last);
      last = t;
    }
  }
}

TEST_CASE("serve: a step's time splits into compute, HBM, fabric and overhead", "[serve]") {
  Scenario s = llama8b(json::object(), 4);
  const auto m = serve::make_step_model(hw::load_system(s.system), s.workload, s.serve);
  serve::Batch b;
  b.decode_contexts = {100, 2000, 5000};
  b.prefills = {{300, 1024, true}, {700, 0, false}};
  const serve::StepTime t = m->step(b);
  CHECK(t.time_s > 0);
  CHECK(rel(t.split.total(), t.time_s) < 1e-12);
  CHECK(t.split.fabric_s > 0);  // tp 4: all-reduces
  CHECK(t.padded_batch == 5);
  CHECK(t.padded_tokens == 3 + 300 + 700);
}

TEST_CASE("serve: a 100% prefix hit removes the shared part's prefill", "[serve]") {
  // Two requests far apart sharing a 1024-token prefix: the second computes only its own part.
  const int S = 1500, P = 1024;
  json v = {{"arrivals", "constant"}, {"rate", 0.01}, {"requests", 2}, {"shared_prefix_tokens", P},
            {"max_batched_tokens", 0}, {"output_tokens", {{"mean", 2}}}};
  const Scenario s = llama8b(v);
  const serve::Result with = served(s);
  REQUIRE(with.requests == 2);
  CHECK(with.cached_prompt_tokens == P);
  CHECK(with.computed_prefill_tokens == S + (S - P));
  const auto m = serve::make_step_model(hw::load_system(s.system), s.workload, s.serve);
  serve::Batch cold, warm;
  cold.prefills.push_back({S, 0, true});
  warm.prefills.push_back({S - P, P, true});
  // TTFTs: the first request cold, the second only its unshared part after the cached prefix.
  CHECK(rel(with.ttft.max, m->step(cold).time_s) < 1e-12);
  CHECK(rel(with.ttft.p50 * 2 - with.ttft.max, m->step(warm).time_s) < 1e-9);
  CHECK(m->step(warm).time_s < m->step(cold).time_s);
  Scenario off = s;
  set_field(off, "serve.prefix_cache.enabled", false);
  const serve::Result without = served(off);
  CHECK(without.cached_prompt_tokens == 0);
  CHECK(rel(without.ttft.p50, m->step(cold).time_s) < 1e-12);
}

TEST_CASE("serve: Little's law holds on the simulated system and its queue", "[serve]") {
  std::vector<json> loads = {
      {{"arrivals", "poisson"}, {"rate", 30}, {"requests", 400}},
      {{"arrivals", "gamma"}, {"rate", 20}, {"burstiness", 0.3}, {"requests", 300}, {"scheduler", "prefill_first"}},
      {{"arrivals", "burst"}, {"requests", 300}, {"max_num_seqs", 16}},
      {{"arrivals", "sessions"}, {"rate", 2}, {"sessions", {{"count", 20}, {"tool_pause_s", 0.2}, {"think_time_s", 1}}}},
  };
  for (const auto& v : loads) {
    INFO(v.dump());
    const serve::Result r = served(llama8b(v));
    REQUIRE(r.little_l > 0);
    CHECK(rel(r.little_l, r.little_lambda_w) < 1e-9);
    CHECK(std::fabs(r.little_lq - r.little_lambda_wq) <= 1e-9 * std::max(1.0, r.little_lq));
  }
}

TEST_CASE("serve: under memory pressure sequences are preempted and every token is still served", "[serve]") {
  // 32k-token contexts on one chip: a few hundred thousand tokens of KV at most.
  json v = {{"arrivals", "burst"}, {"requests", 60}, {"input_tokens", {{"mean", 20000}}},
            {"output_tokens", {{"mean", 12000}}}};
  const serve::Result r = served(llama8b(v));
  CHECK(r.preemptions > 0);
  CHECK(r.requests == 60);
  CHECK(r.rejected == 0);
  CHECK(r.output_tokens_per_s * r.duration_s == Approx(60.0 * 12000).epsilon(1e-9));
  CHECK(r.peak_kv_fraction <= 1.0 + 1e-9);
  CHECK(rel(r.little_l, r.little_lambda_w) < 1e-9);
}

TEST_CASE("serve: closed-loop clients keep that many requests in flight", "[serve]") {
  const serve::Result r = served(llama8b({{"arrivals", "closed"}, {"concurrency", 8}, {"requests", 64}}));
  CHECK(r.max_batch == 8);
  CHECK(r.requests == 64);
  // Little: 8 requests in the system until the last ones drain (they leave and re-enter at once).
  CHECK(r.little_l <= 8);
  CHECK(r.little_l > 7.5);
}

TEST_CASE("serve: a client's max concurrency holds arrivals back until a request finishes", "[serve]") {
  // Poisson arrivals far above what one chip serves: uncapped, the queue grows; capped at 4
  // (vllm bench's --max-concurrency), at most 4 are in the system, each sent when one finishes,
  // so a request waits at the server a step at most and Little's law holds on what was sent.
  const json load = {{"arrivals", "poisson"}, {"rate", 50}, {"requests", 200}};
  json capped = load;
  capped["max_concurrency"] = 4;
  const serve::Result free_run = served(llama8b(load)), held = served(llama8b(capped));
  CHECK(free_run.max_batch > 4);
  CHECK(held.max_batch <= 4);
  CHECK(held.requests == 200);
  CHECK(held.little_l <= 4);
  CHECK(rel(held.little_l, held.little_lambda_w) < 1e-9);
  CHECK(held.queue.mean < 0.1 * free_run.queue.mean);  // little waits at the server (a step at most)
  CHECK(held.ttft.mean < 0.5 * free_run.ttft.mean);  // the wait moved to the client, which TTFT does not count
  json wide = load;
  wide["max_concurrency"] = 1000;  // a cap never reached changes nothing
  CHECK(serve::result_to_text(served(llama8b(wide))) == serve::result_to_text(free_run));
  CHECK(contains(error_of([] { served(llama8b({{"arrivals", "closed"}, {"max_concurrency", 2}})); }),
                 "serve.max_concurrency"));
}

TEST_CASE("serve: a run's duration sends nothing after it and leaves out what it cuts", "[serve]") {
  // guidellm 0.1's --max-seconds: a closed loop of 8 clients for 20 s. What happened before the
  // end is exactly what an unbounded run does then; the calls still running are cut.
  Scenario s = llama8b({{"arrivals", "closed"}, {"concurrency", 8}, {"requests", 100000}});
  const hw::System sys = hw::load_system(s.system);
  const auto m = serve::make_step_model(sys, s.workload, s.serve);
  auto run = [&](double duration, int requests) {
    serve::Spec v = s.serve;
    v.requests = requests;
    auto src = serve::generated_source(v, v.rate, 1500, 250);
    serve::SimConfig c;
    c.closed_loop = true;
    c.concurrency = 8;
    c.duration_s = duration;
    return serve::simulate(*m, *src, c);
  };
  const double D = 20;
  const serve::SimResult cut = run(D, 100000), all = run(0, 400);
  REQUIRE(!cut.calls.empty());
  CHECK(cut.end_s == D);
  CHECK(cut.cut == 8);  // the closed loop keeps 8 in the system, so 8 are running at the end
  CHECK(cut.calls_all == std::int64_t(cut.calls.size()) + cut.cut);
  std::size_t before = 0;
  for (const auto& r : all.calls) before += r.finish_s < D;
  REQUIRE(before == cut.calls.size());
  for (std::size_t i = 0; i < before; ++i) {
    CHECK(cut.calls[i].finish_s == all.calls[i].finish_s);
    CHECK(cut.calls[i].first_token_s == all.calls[i].first_token_s);
    CHECK(cut.calls[i].arrival_s < D);
  }
  // Through the scenario: the report counts the cut requests and measures the others.
  Scenario timed = llama8b({{"arrivals", "closed"}, {"concurrency", 8}, {"requests", 100000}, {"duration", D}});
  const serve::Result r = served(timed);
  CHECK(r.requests == cut.calls.size());
  CHECK(r.cut == 8);
  CHECK(r.duration_s == D);
  CHECK(contains(serve::result_to_text(r), "8 cut by the run's end (serve.duration)"));
  CHECK(contains(error_of([] { llama8b({{"duration", -1}}); }), "serve.duration"));
}

TEST_CASE("serve: the same scenario gives the same bytes; a different seed gives other requests", "[serve]") {
  const Scenario s = llama8b({{"arrivals", "poisson"}, {"rate", 8}, {"requests", 200},
                              {"input_tokens", {{"distribution", "normal"}, {"spread", 150}}},
                              {"output_tokens", {{"distribution", "uniform"}, {"spread", 20}}}});
  const std::string a = serve::result_to_json(served(s)).dump(), b = serve::result_to_json(served(s)).dump();
  CHECK(a == b);
  Scenario other = s;
  set_field(other, "serve.seed", 2);
  CHECK(serve::result_to_json(served(other)).dump() != a);
}

TEST_CASE("serve: lengths follow their distributions", "[serve]") {
  serve::Sampler rng(7);
  serve::Lengths l;
  l.min = 1;
  l.max = 1 << 24;
  for (const char* d : {"fixed", "uniform", "normal", "lognormal", "exponential"}) {
    INFO(d);
    l.distribution = d;
    l.spread = 150;
    double sum = 0, sq = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      const double x = rng.length(l, 1500);
      sum += x;
      sq += x * x;
    }
    const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
    CHECK(mean == Approx(1500).epsilon(0.02));
    const double want_sd = std::string(d) == "fixed" ? 0 : std::string(d) == "uniform" ? 150 / std::sqrt(3.0)
                           : std::string(d) == "exponential"                           ? 1500
                                                                                       : 150;
    CHECK(sd == Approx(want_sd).epsilon(0.05).margin(0.6));
  }
}

TEST_CASE("serve: percentiles are numpy's linear ones, weighted values as if repeated", "[serve]") {
  std::vector<double> v = {4, 1, 3, 2};
  const serve::Summary s = serve::summarize(v);
  CHECK(s.p50 == 2.5);
  CHECK(s.p90 == Approx(3.7));
  CHECK(s.mean == 2.5);
  CHECK(s.max == 4);
  std::vector<std::pair<double, std::uint32_t>> w = {{5, 3}, {1, 2}, {2, 1}};
  std::vector<double> expanded = {5, 5, 5, 1, 1, 2};
  const serve::Summary a = serve::summarize_weighted(w), b = serve::summarize(expanded);
  CHECK(a.p50 == b.p50);
  CHECK(a.p90 == b.p90);
  CHECK(a.p99 == b.p99);
  CHECK(a.mean == b.mean);
  CHECK(a.n == 6);
}

TEST_CASE("serve: latency histograms hold every request on log-spaced bins", "[serve]") {
  std::vector<double> v;
  for (int i = 1; i <= 1000; ++i) v.push_back(0.001 * i * i);
  const serve::Histogram h = serve::log_histogram(v, 24);
  REQUIRE(h.edges.size() == 25);
  CHECK(h.edges.front() == v.front());
  CHECK(h.edges.back() == v.back());
  std::uint64_t n = 0;
  for (auto c : h.counts) n += c;
  CHECK(n == v.size());
  for (std::size_t i = 1; i + 1 < h.edges.size(); ++i)  // equal ratios
    CHECK(h.edges[i + 1] / h.edges[i] == Approx(h.edges[1] / h.edges[0]).epsilon(1e-9));
  CHECK(serve::log_histogram({}, 24).counts.empty());
}

TEST_CASE("serve: adaptive bins keep every integral while they widen", "[serve]") {
  serve::AdaptiveBins bins(8, 1.0, 1);
  double total = 0;
  for (int i = 0; i < 500; ++i) {
    const double one = 1;
    bins.add_interval(i * 0.7, i * 0.7 + 0.5, &one);
    total += 0.5;
  }
  double sum = 0;
  for (std::size_t b = 0; b < bins.used_bins(); ++b) sum += bins.sum(b, 0);
  CHECK(sum == Approx(total).epsilon(1e-12));
  CHECK(bins.width() * 8 > 499 * 0.7);
}

TEST_CASE("serve: the prefix cache evicts the least recently used unreferenced block", "[serve]") {
  serve::PrefixCache c(3 * 16);
  CHECK(c.insert(1, 16, 100));
  CHECK(c.insert(2, 16, 100));
  CHECK(c.insert(3, 16, 100));
  CHECK_FALSE(c.insert(4, 16, 100));  // all referenced: nothing to evict
  c.release(2);
  c.release(1);  // 1 is now the most recently released
  CHECK(c.evictable_bytes() == 200);
  CHECK(c.insert(4, 16, 100));  // evicts 2
  CHECK_FALSE(c.contains(2));
  CHECK(c.contains(1));
  c.acquire(1);
  CHECK(c.evictable_bytes() == 0);
  CHECK(c.evict(1e9) == 0);
}

TEST_CASE("serve: agentic sessions follow the published statistics they are generated from", "[serve]") {
  Scenario s = llama8b({{"arrivals", "sessions"}, {"sessions", {{"count", 3000}}}});
  const serve::SessionShape shape = serve::session_shape(s.serve.sessions);
  CHECK(shape.system_prompt_tokens > 0);
  auto src = serve::session_source(s.serve, 1.0);
  serve::Chain c;
  double sessions = 0, turns = 0, calls = 0, prompt = 0, output = 0, uncached = 0;
  while (src->next(c)) {
    ++sessions;
    int last_turn = 0;
    for (const auto& call : c.calls) {
      ++calls;
      prompt += call.input_tokens;
      output += call.output_tokens;
      // With an unbounded cache: the call's own segment, and the turn's growth on its first call.
      uncached += call.input_tokens - call.segments[call.segments.size() - 2].end;
      if (call.turn != last_turn) uncached += shape.turn_growth_tokens, ++turns, last_turn = call.turn;
    }
  }
  namespace pub = serve::published;
  CHECK(turns / sessions == Approx(pub::kCopilotTurnsPerSession).epsilon(0.05));
  CHECK(calls / turns == Approx(pub::kCopilotCallsPerTurn).epsilon(0.05));
  CHECK(prompt / calls == Approx(pub::kMooncakeToolAgentInputTokens).epsilon(0.05));
  CHECK(output / calls == Approx(pub::kMooncakeToolAgentOutputTokens).epsilon(0.05));
  CHECK(1 - uncached / prompt == Approx(pub::copilot_cached_fraction()).epsilon(0.02));
  // Statistics that admit no structure are an error naming the object.
  Scenario bad = s;
  set_field(bad, "serve.sessions.cached_fraction", 0.1);
  CHECK(contains(error_of([&] { serve::session_shape(bad.serve.sessions); }), "serve.sessions"));
}

TEST_CASE("serve: sessions reuse their prefix: later turns start faster than without reuse", "[serve]") {
  const serve::Result r = served(llama8b(
      {{"arrivals", "sessions"}, {"rate", 0.5}, {"sessions", {{"count", 30}, {"think_time_s", 2}, {"tool_pause_s", 0.1}}}}));
  REQUIRE(r.sessions == 30);
  REQUIRE(r.has_no_reuse);
  REQUIRE(r.turns.size() >= 2);
  CHECK(r.cached_prompt_tokens / r.prompt_tokens > 0.7);
  CHECK(r.ttft.p50 < r.ttft_p50_no_reuse_s);
  for (const auto& t : r.turns)
    if (t.calls >= 5) CHECK(t.ttft_p50_s < t.ttft_p50_no_reuse_s);
  CHECK(r.session_kv_bytes_mean > 0);
}

TEST_CASE("serve: traces in every public format", "[serve]") {
  struct Case {
    const char* format;
    const char* text;
    std::size_t calls;
    double prompt;
  };
  const Case cases[] = {
      {"vidur", "arrived_at,num_prefill_tokens,num_decode_tokens,pd_ratio\n0.0,591,140,4\n0.125,547,248,2\n", 2, 1138},
      {"splitwise",
       "request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,token_size\n"
       "0,2,0,0.0,1,1020,30\n1,2,0,0.5,1,300,10\n",
       2, 1320},
      {"mooncake",
       "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 20, \"hash_ids\": [7, 8, 9]}\n"
       "{\"timestamp\": 3000, \"input_length\": 1200, \"output_length\": 10, \"hash_ids\": [7, 8, 10]}\n",
       2, 2300},
      {"sessions",
       "{\"input_toks\": 400, \"output_toks\": 20, \"arrival_time_ns\": 0}\n"
       "{\"session_id\": \"a\", \"arrival_time_ns\": 1000000, \"sub_requests\": [{\"input_toks\": 1472, \"output_toks\": "
       "133, \"tool_duration_ns\": 127348767}, {\"input_toks\": 1582, \"output_toks\": 125, \"tool_duration_ns\": 0}]}\n",
       3, 3454},
  };
  for (const auto& c : cases) {
    for (const char* format : {c.format, "auto"}) {
      INFO(c.format << " as " << format);
      const serve::Result r =
          served(llama8b({{"arrivals", "trace"}, {"trace", {{"format", format}, {"text", c.text}}}}));
      CHECK(r.requests == c.calls);
      CHECK(r.prompt_tokens == c.prompt);
    }
  }
  // Mooncake: the two requests share two 512-token blocks.
  const serve::Result m = served(llama8b({{"arrivals", "trace"}, {"trace", {{"text", cases[2].text}}}}));
  CHECK(m.cached_prompt_tokens == 1024);
  // The session's second call re-sends the first call's prompt and output.
  const serve::Result s = served(llama8b({{"arrivals", "trace"}, {"trace", {{"text", cases[3].text}}}}));
  // (its last token is always computed: 98 whole blocks of its 1582-token prompt)
  CHECK(s.cached_prompt_tokens == (1582 - 1) / 16 * 16);
  CHECK(s.sessions == 1);
  const serve::Result v = served(llama8b({{"arrivals", "trace"}, {"trace", {{"text", cases[0].text}}}}));
  REQUIRE(v.notes.size() == 1);
  CHECK(contains(v.notes[0], "pd_ratio"));
}

TEST_CASE("serve: bad inputs name the field or the line", "[serve]") {
  auto err = [](const json& v) { return error_of([&] { served(llama8b(v)); }); };
  CHECK(contains(error_of([] { llama8b({{"rate", 0}}); }), "serve.rate"));
  CHECK(contains(error_of([] { llama8b({{"rate", -1}}); }), "serve.rate"));
  CHECK(contains(error_of([] { llama8b({{"arivals", "poisson"}}); }), "did you mean 'arrivals'"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"text", "arrived_at,num_prefill_tokens,num_decode_tokens\n0,12,3\n1,abc,3\n"}}}}),
                 "serve.trace.text line 3, num_prefill_tokens: expected a number, got 'abc'"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"text", "arrived_at,num_prefill_tokens,num_decode_tokens\n5,12,3\n1,12,3\n"}}}}),
                 "line 3, arrived_at"));
  CHECK(contains(err({{"arrivals", "trace"},
                      {"trace", {{"text", "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2, \"hash_id\": []}\n"}}}}),
                 "line 1"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"text", "{\"input_toks\": 3, \"output_toks\": 0, \"arrival_time_ns\": 0}\n"}}}}),
                 "line 1.output_toks"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"text", "hello,world\n"}}}}), "line 1"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"max_requests", 1}, {"text", "arrived_at,num_prefill_tokens,num_decode_tokens\n0,12,3\n1,12,3\n"}}}}),
                 "serve.trace.max_requests"));
  CHECK(contains(err({{"arrivals", "trace"}}), "serve.trace.file"));
  CHECK(contains(err({{"arrivals", "trace"}, {"trace", {{"file", "x.csv"}}}}), "command line"));
  // An impossible target: no rate meets it, and the error says which and why.
  CHECK(contains(err({{"find_rate", true}, {"requests", 50}, {"targets", {{"ttft_s", 0.001}}}}), "serve.targets.ttft_s"));
  CHECK(contains(err({{"find_rate", true}, {"requests", 50}, {"targets", {{"tpot_s", 0.0001}}}}), "serve.targets.tpot_s"));
  CHECK(contains(err({{"find_rate", true}}), "serve.targets"));
  CHECK(contains(err({{"find_rate", true}, {"arrivals", "closed"}, {"targets", {{"ttft_s", 1}}}}), "serve.arrivals"));
  // Too few requests to find a limit: all at once still meet the targets.
  CHECK(contains(err({{"find_rate", true}, {"requests", 5}, {"targets", {{"ttft_s", 10}}}}), "serve.requests: all 5 arriving at once"));
  CHECK(contains(err({{"input_tokens", {{"min", 10}, {"max", 5}}}}), "serve.input_tokens.min"));
  CHECK(contains(err({{"requests", 5}, {"warmup_requests", 5}}), "serve.warmup_requests"));
  CHECK(contains(error_of([] { llama8b({{"max_num_seqs", 0}}); }), "serve.max_num_seqs"));
  // A request that can never fit the KV budget is rejected and reported, not a hang.
  const serve::Result r = served(llama8b({{"requests", 40}, {"seed", 3},
                                          {"input_tokens", {{"distribution", "uniform"}, {"mean", 400000}, {"spread", 390000}}}}));
  CHECK(r.rejected > 0);
  CHECK(r.requests + r.rejected == 40);
  CHECK(contains(r.rejected_reason, "more KV cache than a replica has"));
}

TEST_CASE("serve: the rate search finds the highest rate meeting the targets", "[serve]") {
  Scenario s = llama8b({{"requests", 300}, {"rate", 5}, {"find_rate", true},
                        {"targets", {{"ttft_s", 0.5}, {"tpot_s", 0.03}, {"fraction", 0.9}}}});
  const serve::Result r = served(s);
  REQUIRE(r.searched);
  REQUIRE(r.max_rate > 0);
  // Just below it the targets hold; well above they do not.
  Scenario below = s, above = s;
  set_field(below, "serve.find_rate", false);
  set_field(below, "serve.rate", r.max_rate);
  set_field(above, "serve.find_rate", false);
  set_field(above, "serve.rate", r.max_rate * 1.5);
  CHECK(served(below).attainment >= 0.9);
  CHECK(served(above).attainment < 0.9);
}

TEST_CASE("serve: the harness picks ITL's definition; TPOT always excludes the first token", "[serve]") {
  json v = {{"arrivals", "poisson"}, {"rate", 20}, {"requests", 200}};
  std::map<std::string, serve::Result> r;
  for (const char* h : {"vllm-bench", "guidellm", "llmperf"}) {
    v["harness"] = h;
    r.emplace(h, served(llama8b(v)));
  }
  CHECK(r.at("guidellm").itl.mean == r.at("guidellm").tpot.mean);
  CHECK(r.at("vllm-bench").tpot.mean == r.at("guidellm").tpot.mean);
  CHECK(r.at("llmperf").itl.mean > r.at("llmperf").tpot.mean);  // TTFT spread over the tokens
  // vLLM bench's pooled ITL has every token gap: its mean weights long responses more, its
  // count is every token after the first.
  CHECK(r.at("vllm-bench").itl.n == 200u * 249u);
}

TEST_CASE("serve: every serving metric is in the JSON report where the metric table says", "[serve]") {
  const serve::Result r = served(llama8b({{"requests", 100}, {"rate", 10}, {"targets", {{"ttft_s", 1}}}}));
  const json j = serve::result_to_json(r)["serve"];
  std::size_t checked = 0;
  for (const Metric* m : serve_metrics()) {
    auto v = m->of_serve(r);
    if (!v) continue;
    const json* node = &j;
    std::stringstream path(m->json_path);
    for (std::string part; std::getline(path, part, '.');) {
      INFO(m->key << " at " << m->json_path);
      REQUIRE(node->contains(part));
      node = &(*node)[part];
    }
    CHECK(node->get<double>() == Approx(*v));
    CHECK(j["metrics"][m->key].get<double>() == *v);
    ++checked;
  }
  CHECK(checked >= 20);
}

TEST_CASE("serve: the run's window opens at the first arrival", "[serve]") {
  // The same three requests, their timestamps 1000 s later: throughput, occupancy and
  // Little's law read the same.
  auto at = [](double t0) {
    std::ostringstream csv;
    csv << "arrived_at,num_prefill_tokens,num_decode_tokens\n";
    for (int i = 0; i < 3; ++i) csv << t0 + 0.5 * i << ",1000,100\n";
    return served(llama8b({{"arrivals", "trace"}, {"trace", {{"text", csv.str()}}}}));
  };
  const serve::Result a = at(0), b = at(1000);
  CHECK(b.duration_s == Approx(a.duration_s).epsilon(1e-9));
  CHECK(b.request_rate == Approx(a.request_rate).epsilon(1e-9));
  CHECK(b.output_tokens_per_s == Approx(a.output_tokens_per_s).epsilon(1e-9));
  CHECK(b.mean_batch == Approx(a.mean_batch).epsilon(1e-9));
  CHECK(b.little_l == Approx(a.little_l).epsilon(1e-9));
  CHECK(b.ttft.mean == Approx(a.ttft.mean).epsilon(1e-9));
}

TEST_CASE("serve: a rejected request frees its place under max concurrency and counts against goodput", "[serve]") {
  // One at a time; the second request (2,000,000 tokens) needs more KV than the chip has. The
  // client sends the third when it is rejected, and the fourth after that.
  const char* trace = "arrived_at,num_prefill_tokens,num_decode_tokens\n0,1000,100\n0.01,2000000,100\n"
                      "0.02,1000,100\n0.03,1000,100\n";
  const serve::Result r = served(llama8b(
      {{"arrivals", "trace"}, {"trace", {{"text", trace}}}, {"max_concurrency", 1}, {"targets", {{"ttft_s", 10}}}}));
  CHECK(r.requests == 3);
  CHECK(r.rejected == 1);
  CHECK(r.attainment == Approx(0.75));  // three of the four sent met the target; the rejected one did not
}

}  // namespace unit_serve
