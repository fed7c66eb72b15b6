// Derived checks, dense models (Llama 3.1 8B and 70B, grouped-query attention): parameter
// counts from the config equal Meta's published totals, KV bytes per token, and every
// operator of prefill and decode -- FLOPs, HBM bytes, kernels, the TP all-reduce of the BF16
// residual stream -- equals the derivation in test_derived_reference.h; the headline
// figures and the bytes held per chip are composed from them as the model documents.
#include <catch2/catch.hpp>

#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_dense {

using namespace derived;
using trnsim::json;

TEST_CASE("Llama 3.1: parameters derived from the config equal Meta's totals", "[derived]") {
  // Meta / Hugging Face safetensors totals: Llama-3.1-8B 8,030,261,248 and Llama-3.1-70B
  // 70,553,706,496 parameters (model cards: 8.03B, 70.6B).
  struct Pin {
    const char* name;
    double total;
  };
  for (const Pin& pin : {Pin{"Llama-3.1-8B", 8030261248.0}, Pin{"Llama-3.1-70B", 70553706496.0}}) {
    Arch a = arch_of(pin.name);
    Params want = params_of(a);
    CHECK(want.total == pin.total);
    Run r = evaluate({{"model", pin.name}, {"inference", {{"batch", 1}, {"input_tokens", 16}, {"output_tokens", 2}}},
                      {"parallelism", {{"tp", 8}}}},
                     "trn3-gen2-ultraserver");
    const json& params = r.result.at("model").at("params");
    CHECK(params.at("total").get<double>() == want.total);
    CHECK(params.at("active").get<double>() == want.active);  // dense: everything but the input lookup
    CHECK(want.active == want.total - a.vocab * a.d);
    // K and V of 8 KV heads of 128 dims in every layer, BF16: 128 KiB (8B), 320 KiB (70B).
    CHECK(r.result.at("model").at("kv_bytes_per_token").get<double>() == kv_bytes_per_token(a, 2));
    CHECK(kv_bytes_per_token(a, 2) == a.layers * 2 * 8 * 128 * 2);
  }
}

TEST_CASE("Llama-3.1-8B prefill and decode, every operator derived (TP1 and TP2)", "[derived]") {
  Arch a = arch_of("Llama-3.1-8B");
  for (double tp : {1.0, 2.0}) {
    Placement p;
    p.tp = tp;
    check_inference(a, p, {4, 1000, 25}, "trn3-gen2-ultraserver");
  }
}

TEST_CASE("Llama-3.1-70B TP8 at FP8 weights and an FP8 KV cache, on Trainium3 and Trainium2", "[derived]") {
  Arch a = arch_of("Llama-3.1-70B");
  Placement p;
  p.tp = 8;
  p.weights = p.attn_weights = "fp8";
  p.kv = "fp8";
  check_inference(a, p, {16, 2048, 129}, "trn3-gen2-ultraserver");
  check_inference(a, p, {16, 2048, 129}, "trn2-ultraserver");
  // MXFP8 everywhere on Trainium3; Trainium2 has no MX tensor-engine rate (S5), so the model
  // runs FP8 there, which the derivation gets by asking the chip data which peaks exist.
  Placement mx = p;
  mx.weights = mx.attn_weights = mx.act = "mxfp8";
  check_inference(a, mx, {8, 4096, 33}, "trn3-gen2-ultraserver");
  trnsim::hw::System t2 = trnsim::hw::load_system("trn2-ultraserver");
  REQUIRE(t2.chip.peak("mxfp8") == 0);
  REQUIRE(t2.chip.peak("fp8") > 0);
  Placement fallback = p;  // mxfp8 -> fp8 for weights and matmuls; the KV cache is storage only
  fallback.act = "fp8";
  check_inference(a, mx, {8, 4096, 33}, "trn2-ultraserver", &fallback);
}

TEST_CASE("TP all-reduces move the BF16 residual stream whatever the activation dtype", "[derived]") {
  // Two all-reduces per layer (after attention and after the MLP), of tokens x hidden x 2 bytes.
  Arch a = arch_of("Llama-3.1-8B");
  Placement p;
  p.tp = 4;
  p.act = "mxfp8";
  Run r = evaluate(inference_workload(a.name, p, {2, 512, 9}), "trn3-gen2-ultraserver");
  for (const char* name : {"attn.all_reduce", "mlp.all_reduce"}) {
    const json& pre = op(phase(r.result, "prefill"), name);
    CHECK(pre.at("fabric_bytes").get<double>() == 512 * a.d * 2);
    CHECK(pre.at("count").get<double>() == a.layers);
    const json& dec = op(phase(r.result, "decode"), name);
    CHECK(dec.at("fabric_bytes").get<double>() == 2 * a.d * 2);
    CHECK(detail_ranks(dec) == 4);
  }
}

TEST_CASE("weights held per chip include the final norm", "[derived]") {
  // The bytes held per chip: every layer's norms, the embedding / LM head and the final
  // RMSNorm's `hidden` BF16 weights (8 KiB for Llama-3.1-8B; once missing, core/plan/inference.cpp).
  Arch a = arch_of("Llama-3.1-8B");
  Placement p;
  Run r = evaluate(inference_workload(a.name, p, {1, 128, 2}), "trn3-gen2-ultraserver");
  // Spelled out for the 8B (untied): embedding + LM head, 32 layers of attention, MLP and two
  // norms, and the final norm.
  const double layer = 4096.0 * (4096 + 2 * 1024) + 4096.0 * 4096 + 3 * 4096.0 * 14336 + 2 * 4096.0;
  CHECK(memory_item(r.result, "weights") == 2 * 128256.0 * 4096 * 2 + 32 * layer * 2 + 4096.0 * 2);
  CHECK(memory_item(r.result, "weights") == held_weight_bytes(a, p));
}

}  // namespace unit_derived_dense
