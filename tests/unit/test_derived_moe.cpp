// Derived checks, mixture-of-experts models with MX weights: gpt-oss-120b (128 experts,
// top-4, MXFP4 experts, biases, attention sinks) and Qwen3-235B-A22B (128 experts, top-8,
// QK-norm, MXFP8). Parameter counts from the config equal the publishers' totals; every
// operator of prefill and decode equals the derivation in test_derived_reference.h, with the
// experts a batch reaches under uniform routing, E (1 - (1 - k/E)^T), and the expert-parallel
// all-to-alls; on Trainium2 the MX formats fall back as the chip data says.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "test_derived_reference.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_moe {

using namespace derived;
using trnsim::json;

namespace {

Placement mx(double tp, double ep, const std::string& weights, const std::string& act) {
  Placement p;
  p.tp = tp;
  p.ep = ep;
  p.weights = weights;
  p.act = act;
  return p;
}

double reported(const json& result, const char* key) { return result.at("model").at("params").at(key).get<double>(); }

}  // namespace

TEST_CASE("MoE parameters derived from the config equal the publishers' totals", "[derived]") {
  // OpenAI, gpt-oss-120b & gpt-oss-20b model card (arXiv:2508.10925), Table 1: 116.83B total,
  // 5.13B active per token (the unembedding counted, the embedding not).
  Arch g = arch_of("gpt-oss-120b");
  Params pg = params_of(g);
  CHECK(std::round(pg.total / 1e7) == 11683);
  CHECK(std::round(pg.active / 1e7) == 513);
  // The same card's split: MLP 114.71B (experts and routers), attention 0.96B, embedding +
  // unembedding 1.16B.
  CHECK(std::round(g.layers * (g.E * expert_params(g)) / 1e7) == 11470);
  CHECK(std::round(g.layers * attention_params(g) / 1e7) == 96);
  CHECK(std::round(2 * g.vocab * g.d / 1e7) == 116);
  // Qwen, Qwen3-235B-A22B model card: 235B total, 22B activated, 234B without embeddings.
  Arch q = arch_of("Qwen3-235B-A22B");
  Params pq = params_of(q);
  CHECK(std::round(pq.total / 1e9) == 235);
  CHECK(std::round(pq.active / 1e9) == 22);
  CHECK(std::round((pq.total - 2 * q.vocab * q.d) / 1e9) == 234);
  for (const Arch* a : {&g, &q}) {
    Run r = evaluate({{"model", a->name}, {"parallelism", {{"tp", 8}}}, {"precision", {{"weights", "mxfp4"}}},
                      {"inference", {{"batch", 1}, {"input_tokens", 16}, {"output_tokens", 2}}}},
                     "trn3-gen2-ultraserver");
    Params want = params_of(*a);
    CHECK(reported(r.result, "total") == want.total);
    CHECK(reported(r.result, "active") == want.active);
    CHECK(reported(r.result, "routed_experts") == a->layers * a->E * expert_params(*a));
    CHECK(reported(r.result, "router") == a->layers * router_params(*a));
  }
  // KV bytes per token: 8 KV heads x 64 dims (gpt-oss), 4 x 128 (Qwen3), K and V, every layer.
  CHECK(kv_bytes_per_token(g, 2) == 36 * 2 * 8 * 64 * 2);
  CHECK(kv_bytes_per_token(q, 2) == 94 * 2 * 4 * 128 * 2);
}

TEST_CASE("gpt-oss-120b MXFP4 experts, MXFP8 matmuls, TP8: every operator derived", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  check_inference(a, mx(8, 1, "mxfp4", "mxfp8"), {16, 10000, 3000}, "trn3-gen2-ultraserver");
  check_inference(a, mx(4, 1, "mxfp4", "mxfp8"), {3, 700, 41}, "trn3-gen1-ultraserver");
  // MXFP4 has no Trainium2 rate: Neuron runs gpt-oss's experts in BF16 there (PERF #5); MXFP8
  // matmuls become FP8.
  Placement on_trn2 = mx(8, 1, "bf16", "fp8");
  check_inference(a, mx(8, 1, "mxfp4", "mxfp8"), {16, 10000, 3000}, "trn2-ultraserver", &on_trn2);
}

TEST_CASE("Qwen3-235B-A22B MXFP8 TP8: every operator derived", "[derived]") {
  Arch a = arch_of("Qwen3-235B-A22B");
  Placement p = mx(8, 1, "mxfp8", "mxfp8");
  p.attn_weights = "mxfp8";
  check_inference(a, p, {8, 3000, 200}, "trn3-gen2-ultraserver");
}

TEST_CASE("expert parallelism inside a replica and across replicas: all-to-alls derived", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  // ep = tp: each chip holds 128/8 whole experts; dispatch and combine over the 8 ranks, then
  // the tokens are gathered back over tp.
  Run in = check_inference(a, mx(8, 8, "mxfp4", "mxfp8"), {32, 2000, 65}, "trn3-gen2-ultraserver");
  CHECK(has_op(phase(in.result, "decode"), "moe.all_gather"));
  CHECK_FALSE(has_op(phase(in.result, "decode"), "moe.all_reduce"));
  // ep = 4 < tp = 8: experts split over 4 ranks, each further over tp/ep = 2.
  check_inference(a, mx(8, 4, "mxfp4", "mxfp8"), {8, 1000, 17}, "trn3-gen2-ultraserver");
  // ep = 16 > tp = 2: the experts span 8 replicas (data-parallel attention); each chip's
  // experts see the tokens of ep/tp replicas.
  Placement across = mx(2, 16, "mxfp4", "mxfp8");
  across.dp = 8;
  check_inference(a, across, {4, 500, 9}, "trn3-gen2-ultraserver");
}

// The plain stack with TensorRT-LLM's MoE traffic and a weight-only MXFP4 path, as a stack file.
std::string gather_stack_file(double rate) {
  json st = data_file("data/serving/plain.json");
  st["name"] = "plain-gather";
  st["moe"]["dispatch"] = {{"value", "allgather-reducescatter"}, {"source", "assumption: a test stack"}};
  st["weight_only"] = {{"dtypes", {{"value", {"mxfp4"}}, {"source", "assumption: a test stack"}}},
                       {"matmul_rate", {{"value", rate}, {"source", "assumption: a test stack"}}}};
  const std::string path = (std::filesystem::temp_directory_path() / "trnsim-test-plain-gather.json").string();
  std::ofstream(path) << st.dump(1);
  return path;
}

TEST_CASE("attention data parallelism with gathered experts (DEP) and weight-only MXFP4: derived", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  const double rate = 0.25;
  const std::string stack = gather_stack_file(rate);
  // DEP4 = tp 1, dp 4, ep 4: every chip its own 16 sequences (their KV cache only) and the
  // attention weights whole, a quarter of the experts; each MoE layer gathers the 4 chips'
  // tokens and reduce-scatters the experts' outputs. Trainium2 has no MXFP4 peak: the stack
  // keeps the experts as MXFP4 and computes them at BF16 at `rate` of its matmul rate.
  Placement dep = mx(1, 4, "mxfp4", "bf16");
  dep.dp = 4;
  dep.dispatch = "allgather-reducescatter";
  dep.weight_only_rate = rate;
  const Inference in{16, 1000, 33};
  Run r = check_inference(a, dep, in, "trn2-ultraserver", &dep, stack);
  const json& dec = phase(r.result, "decode");
  for (const auto& type : {"moe/full", "moe/sliding"}) {
    const json& g = op(dec, "moe.dispatch", type);
    CHECK(detail_op(g) == "all-gather");
    CHECK(g.at("fabric_bytes").get<double>() == exact(4 * in.batch * a.d * 2));  // 4 chips' tokens, BF16
    CHECK(detail_op(op(dec, "moe.combine", type)) == "reduce-scatter");
    CHECK(op(dec, "moe.experts", type).at("flops").get<double>() == exact(2 * (4 * in.batch * a.k / 4) * expert_params(a)));
  }
  CHECK_FALSE(has_op(dec, "moe.all_gather"));
  CHECK_FALSE(has_op(dec, "moe.all_reduce"));
  // Without the weight-only block (the plain stack) the experts fall back to BF16 storage: a
  // quarter of the experts of every layer at 2 bytes instead of MXFP4's 4.25 bits.
  Placement bf16 = dep;
  bf16.weights = "bf16";
  bf16.dispatch = "all-to-all";
  bf16.weight_only_rate = 1;
  Run plain = check_inference(a, dep, in, "trn2-ultraserver", &bf16, "plain");
  CHECK(memory_item(plain.result, "weights") - memory_item(r.result, "weights") ==
        Approx(a.layers * a.E / 4 * expert_params(a) * (2 - (0.5 + 1.0 / 32))).epsilon(1e-12));
  // Gathering with attention at tp 2 is not what the stack runs: refused naming the field.
  Placement tp2 = dep;
  tp2.tp = 2;
  tp2.ep = 4;
  tp2.dp = 2;
  json w = inference_workload(a.name, tp2, in);
  w["stack"] = stack;
  const std::string err = test_support::error_of([&] { evaluate(w, "trn2-ultraserver"); });
  CHECK(err.find("workload.parallelism.tp") != std::string::npos);
  CHECK(err.find("attention data parallelism") != std::string::npos);
}

TEST_CASE("wide expert parallelism across nodes: redundant expert slots, prefill batches, two-batch overlap", "[derived]") {
  // SGLang's large-EP layout on a cluster of 8-GPU nodes: DP attention (tp 1), the routed
  // experts over 32 GPUs of 4 nodes with 32 redundant slots (288 / 32 = 9 per GPU), the
  // all-to-alls crossing InfiniBand (check_op times them with the collective model on the
  // cluster), a prefill pass of 4 prompts, and the sglang stack's overlaps from its data.
  Arch a = arch_of("DeepSeek-V3");
  Placement p = mx(1, 32, "fp8", "fp8");
  p.attn_weights = "fp8";
  p.dp = 32;
  p.redundant = 32;
  const json stack = data_file("data/serving/sglang.json");
  const double f_prefill = stack.at("batching").at("context_encoding_collective_overlap").at("value").get<double>();
  const double f_decode = stack.at("batching").at("decode_collective_overlap").at("value").get<double>();
  // The H100 runs at its achieved FP8 matmul and HBM rates and its per-kernel cost (chip data).
  const json chip = data_file("data/chips/h100-sxm.json");
  const json& x = chip.at("execution");
  Efficiency eff;
  eff.compute = x.at("achieved_flops").at("fp8").at("value").get<double>() / chip.at("peak_flops").at("fp8").at("value").get<double>();
  eff.hbm = x.at("achieved_hbm_bandwidth").at("value").get<double>() / chip.at("hbm").at("bandwidth").at("value").get<double>();
  eff.kernel_overhead_s = x.at("kernel_overhead").at("value").get<double>() * 1e-6;
  Run r = check_inference(a, p, {8, 256, 3, 4}, "dgx-h100-cluster:4", nullptr, "sglang", f_prefill, f_decode, eff);
  const json& dispatch = op(phase(r.result, "decode"), "moe.dispatch", "moe/full");
  CHECK(detail_ranks(dispatch) == 32);
  // Without overlap the same placement prices every all-to-all in full: slower in both phases.
  Run plain = check_inference(a, p, {8, 256, 3, 4}, "dgx-h100-cluster:4", nullptr, "plain", 0, 0, eff);
  CHECK(plain.result.at("inference").at("ttft_s").get<double>() > r.result.at("inference").at("ttft_s").get<double>());
  CHECK(plain.result.at("inference").at("tpot_s").get<double>() > r.result.at("inference").at("tpot_s").get<double>());
}

TEST_CASE("wide expert parallelism: what the placement refuses, naming the field", "[derived]") {
  auto error = [](const json& parallelism, const std::string& system, json inference = {{"batch", 4}}) {
    json w = {{"model", "DeepSeek-V3"}, {"parallelism", parallelism}, {"inference", inference}, {"stack", "sglang"}};
    try {
      evaluate(w, system);
    } catch (const trnsim::InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  // 256 experts do not split over 72 GPUs; 256 + 32 redundant do (4 each).
  CHECK(error({{"tp", 1}, {"dp", 72}, {"ep", 72}}, "dgx-h100-cluster:9") == "workload.parallelism.ep");
  CHECK(error({{"tp", 1}, {"dp", 72}, {"ep", 72}, {"redundant_experts", 31}}, "dgx-h100-cluster:9") ==
        "workload.parallelism.redundant_experts");
  // Redundant slots need expert parallelism; a group of 16 needs two whole nodes of a cluster.
  CHECK(error({{"tp", 8}, {"redundant_experts", 32}}, "dgx-h100") == "workload.parallelism.redundant_experts");
  CHECK(error({{"tp", 1}, {"dp", 16}, {"ep", 16}}, "dgx-h100") == "workload.parallelism.ep");
  CHECK(error({{"tp", 1}, {"dp", 12}, {"ep", 12}, {"redundant_experts", 32}}, "dgx-h100-cluster:2") ==
        "workload.parallelism.ep");
  CHECK(error({{"tp", 1}, {"dp", 32}, {"ep", 32}}, "dgx-h100-cluster:4", {{"batch", 2}, {"prefill_batch", 4}}) ==
        "workload.inference.prefill_batch");
}

TEST_CASE("uniform routing: a token reaches k experts, a batch E (1 - (1 - k/E)^T)", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  const double wb = bytes_of("mxfp4");
  for (double batch : {1.0, 2.0, 16.0, 64.0, 256.0}) {
    Run r = evaluate(inference_workload(a.name, mx(1, 1, "mxfp4", "mxfp8"), {batch, 64, 3}), "trn3-gen2-ultraserver");
    const json& x = op(phase(r.result, "decode"), "moe.experts", "moe/full");
    const double reached = a.E * (1 - std::pow(1 - a.k / a.E, batch));
    const double activations = batch * a.k * (2 * a.d + 2 * a.fe) * bytes_of("mxfp8");
    CHECK(x.at("hbm_bytes").get<double>() == exact(reached * expert_params(a) * wb + activations));
    CHECK(x.at("flops").get<double>() == exact(2 * batch * a.k * expert_params(a)));
    if (batch == 1) CHECK(reached == Approx(a.k).epsilon(1e-12));  // one token: exactly its k experts
  }
}

}  // namespace unit_derived_moe

namespace unit_derived_moe {

// A stack whose uniform experts run TensorRT-LLM's CUTLASS sequence (moe.separate_passes),
// optionally with a weight-only MXFP4 path, as a stack file.
std::string passes_stack_file(bool weight_only) {
  json st = data_file("data/serving/plain.json");
  st["name"] = weight_only ? "plain-passes-wo" : "plain-passes";
  st["moe"]["separate_passes"] = {{"value", true}, {"source", "assumption: a test stack"}};
  if (weight_only)
    st["weight_only"] = {{"dtypes", {{"value", {"mxfp4"}}, {"source", "assumption: a test stack"}}},
                         {"matmul_rate", {{"value", 0.25}, {"source", "assumption: a test stack"}}}};
  const std::string path =
      (std::filesystem::temp_directory_path() / (st["name"].get<std::string>() + ".json")).string();
  std::ofstream(path) << st.dump(1);
  return path;
}

TEST_CASE("separate MoE passes: permute, gated activation and finalize over the routed rows, derived", "[derived]") {
  Arch a = arch_of("gpt-oss-120b");
  // TP8 without EP: every rank routes the batch's B tokens to all E experts (T k rows), each
  // expert's intermediate split over the 8 ranks; BF16 throughout.
  const Inference in{24, 512, 9};
  json w = inference_workload(a.name, mx(8, 1, "bf16", "bf16"), in);
  w["stack"] = passes_stack_file(false);
  Run r = evaluate(w, "trn2-ultraserver");
  const double ab = bytes_of("bf16"), out16 = 2, f = a.fe / 8;
  for (const char* ph : {"decode", "prefill"}) {
    const double T = std::string(ph) == "decode" ? in.batch : in.input;  // one prompt a prefill pass
    const double rows = T * a.k;
    const json& p = phase(r.result, ph);
    for (const auto& type : {"moe/full", "moe/sliding"}) {
      INFO(ph << " " << type);
      // the permute reads each routed row's token and writes it to its expert's rows
      CHECK(op(p, "moe.permute", type).at("hbm_bytes").get<double>() == Approx(2 * rows * a.d * ab).epsilon(1e-12));
      // the activation reads GEMM1's gate and up halves (16-bit) and writes GEMM2's input
      CHECK(op(p, "moe.activation", type).at("hbm_bytes").get<double>() ==
            Approx(rows * (2 * f * out16 + f * ab)).epsilon(1e-12));
      // the finalize reads GEMM2's 16-bit rows and writes each token's sum
      CHECK(op(p, "moe.finalize", type).at("hbm_bytes").get<double>() ==
            Approx((rows + T) * a.d * out16).epsilon(1e-12));
    }
  }
  // The same model on the plain stack (no separate passes) has none of them.
  Run plain = evaluate(inference_workload(a.name, mx(8, 1, "bf16", "bf16"), in), "trn2-ultraserver");
  CHECK_FALSE(has_op(phase(plain.result, "decode"), "moe.permute"));
  CHECK_FALSE(has_op(phase(plain.result, "decode"), "moe.finalize"));
  // A weight-only MXFP4 path (Triton's fused gather, activation and scatter) runs none of them.
  Placement wo = mx(8, 1, "mxfp4", "bf16");
  json ww = inference_workload(a.name, wo, in);
  ww["stack"] = passes_stack_file(true);
  Run fused = evaluate(ww, "trn2-ultraserver");
  CHECK_FALSE(has_op(phase(fused.result, "decode"), "moe.permute"));
  CHECK_FALSE(has_op(phase(fused.result, "prefill"), "moe.activation"));
}

}  // namespace unit_derived_moe
