// Derived checks, sliding-window attention: gpt-oss-120b alternates 128-token sliding-window
// layers with full-attention layers (config.json layer_types). A sliding layer's prefill
// attends to min(i, W) keys for query i, its decode step to min(S + i, W) cached tokens, and
// its KV cache stops at the window; full layers see everything. Checked operator by operator
// against test_derived_reference.h for prompts shorter and longer than the window, and for a
// generation that crosses it.
#include <catch2/catch.hpp>

#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_sliding {

using namespace derived;
using trnsim::json;

namespace {

Placement gpt_oss_tp(double tp) {
  Placement p;
  p.tp = tp;
  p.weights = "mxfp4";
  p.act = "mxfp8";
  return p;
}

}  // namespace

TEST_CASE("gpt-oss-120b: half the layers slide over a 128-token window", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  REQUIRE(a.window == 128);
  CHECK(std::count(a.sliding.begin(), a.sliding.end(), true) == 18);
  Run r = evaluate(inference_workload(a.name, gpt_oss_tp(8), {1, 64, 2}), "trn3-gen2-ultraserver");
  CHECK(r.result.at("model").at("sliding_window") == 128);
  CHECK(r.result.at("model").at("sliding_layers") == 18);
  CHECK(r.result.at("model").at("layer_types") == json({"moe/full", "moe/sliding"}));
  // Causal pairs with a window: the first W queries see 1..W keys, the rest W each.
  CHECK(causal_pairs(10000, 128) == 128.0 * 129 / 2 + (10000 - 128) * 128.0);
  CHECK(causal_pairs(100, 128) == 100.0 * 101 / 2);
}

TEST_CASE("sliding and full layers, prompts inside and beyond the window: every operator derived", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  // Prompt and generation inside the window, a generation that crosses it (100 + 1..59), and
  // a long prompt (every decode step of a sliding layer sees exactly W tokens).
  for (const Inference& in : {Inference{2, 60, 20}, Inference{4, 100, 60}, Inference{16, 10000, 3000}})
    check_inference(a, gpt_oss_tp(8), in, "trn3-gen2-ultraserver");
}

TEST_CASE("a sliding layer's decode attention is bounded by the window", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  Run r = evaluate(inference_workload(a.name, gpt_oss_tp(8), {1, 5000, 11}), "trn3-gen2-ultraserver");
  const json& dec = phase(r.result, "decode");
  const json& full = op(dec, "attn.core", "moe/full");
  const json& sliding = op(dec, "attn.core", "moe/sliding");
  const double hc = 64 / 8.0, kv = 1 * 64.0;  // 8 heads and 1 KV head of 64 dims per chip
  // Full layer: the mean context of the ten decode steps, 5000 + 5.5; sliding: the window.
  CHECK(full.at("flops").get<double>() == exact(2 * (5000 + 5.5) * hc * 2 * 64));
  CHECK(sliding.at("flops").get<double>() == exact(2 * 128.0 * hc * 2 * 64));
  const double own = (hc * 64 + 2 * kv + hc * 64) * bytes_of("mxfp8") + 2 * kv * 2;  // q, k, v, o; append K, V
  CHECK(full.at("hbm_bytes").get<double>() == exact(5005.5 * 2 * kv * 2 + own));
  CHECK(sliding.at("hbm_bytes").get<double>() == exact(128 * 2 * kv * 2 + own));
  // KV cache per chip: 18 full layers at 5011 tokens, 18 sliding layers at 128.
  CHECK(memory_item(r.result, "kv_cache") == exact((18 * 5011.0 + 18 * 128.0) * 2 * kv * 2));
}

}  // namespace unit_derived_sliding
