// Derived checks, multi-head latent attention: DeepSeek-V3 (MLA with a 1536-rank query and a
// 512-rank KV latent plus a 64-dim shared RoPE key, 3 dense layers, 256 routed experts top-8
// and one shared expert). Parameter counts from the config equal DeepSeek's totals; the KV
// cache is the latent; prefill expands it per head, decode absorbs kv_b into the query and
// output; every operator equals the derivation in test_derived_reference.h, in the
// data-parallel-attention + 64-way expert-parallel layout of the example and with TP only.
#include <catch2/catch.hpp>

#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_mla {

using namespace derived;
using trnsim::json;

namespace {

Placement mxfp8(double tp, double dp, double ep) {
  Placement p;
  p.tp = tp;
  p.dp = dp;
  p.ep = ep;
  p.weights = p.attn_weights = p.act = "mxfp8";
  return p;
}

}  // namespace

TEST_CASE("DeepSeek-V3: parameters from the config equal DeepSeek's totals; the latent is the KV cache", "[derived]") {
  // DeepSeek-V3 Technical Report (arXiv:2412.19437): 671B total parameters, 37B activated per
  // token. The Hugging Face repository's 685B adds the 14B multi-token-prediction module,
  // which the model reports and does not count.
  Arch a = arch_of("DeepSeek-V3");
  Params want = params_of(a);
  CHECK(std::round(want.total / 1e9) == 671);
  CHECK(std::round(want.active / 1e9) == 37);
  Run r = evaluate({{"model", a.name}, {"parallelism", {{"tp", 8}}}, {"precision", {{"weights", "mxfp4"}}},
                    {"inference", {{"batch", 1}, {"input_tokens", 16}, {"output_tokens", 2}}}},
                   "trn3-gen2-ultraserver");
  const json& params = r.result.at("model").at("params");
  CHECK(params.at("total").get<double>() == want.total);
  CHECK(params.at("active").get<double>() == want.active);
  CHECK(r.result.at("model").at("moe_layers") == 58);  // first_k_dense_replace = 3 of 61
  // Per token and layer: the 512-element latent and the 64-element RoPE key, BF16.
  CHECK(kv_bytes_per_token(a, 2) == 61 * (512 + 64) * 2);
  CHECK(r.result.at("model").at("kv_bytes_per_token").get<double>() == kv_bytes_per_token(a, 2));
}

TEST_CASE("DeepSeek-V3 data-parallel MLA (8 x TP8) with 64-way EP: every operator derived", "[derived]") {
  Arch a = arch_of("DeepSeek-V3");
  Run r = check_inference(a, mxfp8(8, 8, 64), {64, 2000, 1000}, "trn3-gen2-ultraserver");
  // Each chip holds 256 / 64 = 4 whole experts and sees the tokens of ep / tp = 8 replicas.
  const json& x = op(phase(r.result, "decode"), "moe.experts", "moe/full");
  const double group = 64 * 8.0, reached = 4 * (1 - std::pow(1 - 8.0 / 256, group));
  CHECK(x.at("flops").get<double>() == exact(2 * group * 8 / 64 * expert_params(a)));
  CHECK(x.at("hbm_bytes").get<double>() ==
        exact(reached * expert_params(a) * bytes_of("mxfp8") + group * 8 / 64 * (2 * a.d + 2 * a.fe) * bytes_of("mxfp8")));
}

TEST_CASE("DeepSeek-V3 TP8 (experts sharded over TP) and EP8 inside the replica: every operator derived", "[derived]") {
  Arch a = arch_of("DeepSeek-V3");
  check_inference(a, mxfp8(8, 1, 1), {4, 1500, 33}, "trn3-gen2-ultraserver");
  check_inference(a, mxfp8(8, 1, 8), {4, 1500, 33}, "trn3-gen2-ultraserver");
}

TEST_CASE("MLA decode reads the latent once per sequence, not per head", "[derived]") {
  // Absorbed decode: the cache read is sequences x context x (latent + RoPE key) x KV bytes,
  // independent of the heads a chip holds; doubling tp halves the heads (and the FLOPs) of a
  // chip but not its cache read.
  Arch a = arch_of("DeepSeek-V3");
  auto core = [&](double tp) {
    Run r = evaluate(inference_workload(a.name, mxfp8(tp, 1, 1), {2, 4000, 2}), "trn3-gen2-ultraserver");
    return op(phase(r.result, "decode"), "attn.core", "moe/full");
  };
  const json c8 = core(8), c16 = core(16);
  const double ctx = 4001, T = 2;
  const double cache = T * ctx * (a.kv_lora + a.rope) * 2;
  const double write = T * (a.kv_lora + a.rope) * 2;
  const double per_head = T * ((a.kv_lora + a.rope) + a.kv_lora) * bytes_of("mxfp8");
  CHECK(c8.at("hbm_bytes").get<double>() == exact(cache + 16 * per_head + write));
  CHECK(c16.at("hbm_bytes").get<double>() == exact(cache + 8 * per_head + write));
  CHECK(c8.at("flops").get<double>() == exact(2 * c16.at("flops").get<double>()));
}

}  // namespace unit_derived_mla
