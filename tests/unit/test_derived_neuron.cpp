// Derived checks, the Neuron execution model (the default serving stack, vllm-neuron): every
// operator of prefill and decode against the reference derivation (test_derived_reference.h)
// with the stack's execution -- TP ranks are logical NeuronCores, heads padded and KV heads
// replicated over them (N8), the TP collectives among tp x ranks_per_chip ranks (also at
// tp = 1), NxD's expert strategy (N1: selective loading, all experts, blockwise) and
// context-encoding collectives run under the layer's work (N4). The stack's numbers (LNC,
// selective-loading threshold, block size, overlap) are read from its data file here, the
// ranks per chip from the chip file's NeuronCores; the formulas are the sources' (the
// reference's header), not the model's code.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "embedded.h"
#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_neuron {

using namespace derived;
using trnsim::json;

namespace {

json data_file(const std::string& key) { return json::parse(*trnsim::find_embedded(key)); }
double value(const json& file, const std::string& a, const std::string& b = "") {
  const json& q = b.empty() ? file.at(a) : file.at(a).at(b);
  return q.at("value").get<double>();
}

// What a stack file says about execution, on a chip of `chip` (data/chips/NAME.json).
struct StackNumbers {
  double ranks_per_chip, threshold, block, overlap;
  double kernel_min_hidden, kernel_max_hidden, kernel_hidden_multiple, kernel_intermediate_multiple, fallback_kernels;
  double kernel_block_s;
};
StackNumbers stack_numbers(const json& stack, const std::string& chip) {
  const double lnc = value(stack, "logical_nc_config");
  const double cores = value(data_file("data/chips/" + chip + ".json"), "neuroncore", "cores");
  REQUIRE(stack.at("moe").at("strategy").at("value") == "neuron");
  // The reference mirrors ExpertMLPsV2's token generation, not the fused token-generation kernel.
  REQUIRE(stack.at("moe").at("decode_kernel").at("value") == "none");
  return {lnc > 0 ? cores / lnc : 1,
          value(stack, "moe", "selective_loading_threshold"),
          value(stack, "moe", "block_size"),
          value(stack, "batching", "context_encoding_collective_overlap"),
          value(stack, "moe", "kernel_min_hidden"),
          value(stack, "moe", "kernel_max_hidden"),
          value(stack, "moe", "kernel_hidden_multiple"),
          value(stack, "moe", "kernel_intermediate_multiple"),
          value(stack, "moe", "fallback_kernels_per_block"),
          value(stack, "moe", "kernel_block_time") * 1e-6};
}

Placement neuron(Placement p, const StackNumbers& n) {
  p.ranks_per_chip = n.ranks_per_chip;
  p.moe = "neuron";
  p.selective_threshold = n.threshold;
  p.block = n.block;
  p.kernel_min_hidden = n.kernel_min_hidden, p.kernel_max_hidden = n.kernel_max_hidden;
  p.kernel_hidden_multiple = n.kernel_hidden_multiple, p.kernel_intermediate_multiple = n.kernel_intermediate_multiple;
  p.fallback_kernels_per_block = n.fallback_kernels;
  p.kernel_block_s = n.kernel_block_s;
  return p;
}

const json& vllm_neuron() {
  static const json j = data_file("data/serving/vllm-neuron.json");
  return j;
}

// A scenario's workload without a stack takes the field table's default.
TEST_CASE("the default stack is vllm-neuron: 4 TP ranks per Trainium chip", "[derived]") {
  CHECK(trnsim::find_field("workload.stack").default_value == "vllm-neuron");
  for (const char* chip : {"trainium2", "trainium3"}) {
    INFO(chip);
    // LNC = 2 physical cores per logical core (N5) on 8 NeuronCores.
    CHECK(stack_numbers(vllm_neuron(), chip).ranks_per_chip == 4);
  }
}

}  // namespace

TEST_CASE("neuron stack, dense: heads over tp x 4 ranks, KV heads split or replicated, TP all-reduce among the ranks",
          "[derived]") {
  const StackNumbers n = stack_numbers(vllm_neuron(), "trainium3");
  Arch a = arch_of("Llama-3.1-8B");
  // tp = 1: 32 heads and 8 KV heads over 4 ranks (split, 2 a rank) -- and two all-reduces a
  // layer inside the chip, which the plain stack does not have.
  Placement p1 = neuron(Placement{}, n);
  REQUIRE(kv_heads_chip(a, p1) == 8);
  Run r1 = check_inference(a, p1, {4, 3000, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  CHECK(op(phase(r1.result, "decode"), "attn.all_reduce").at("detail").get<std::string>().rfind("all-reduce, 4 ranks on 1 chip", 0) == 0);
  // tp = 4: 16 ranks, KV heads 8 -> replicated to one per rank (REPLICATE_TO_TP_DEGREE): 4 per
  // chip where an exact split over 4 chips would give 2.
  Placement p4 = p1;
  p4.tp = 4;
  REQUIRE(kv_heads_chip(a, p4) == 4);
  check_inference(a, p4, {8, 2000, 17}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  // 70B at tp = 16 (64 ranks): 64 query heads, one a rank; 8 KV heads replicated to 64
  // copies, 4 on each chip (N8's example).
  Arch b = arch_of("Llama-3.1-70B");
  Placement p16 = p1;
  p16.tp = 16;
  p16.weights = p16.attn_weights = "fp8";
  REQUIRE(q_heads_chip(b, p16) == 4);
  REQUIRE(kv_heads_chip(b, p16) == 4);
  check_inference(b, p16, {8, 10000, 33}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
}

TEST_CASE("neuron stack, MoE: selective loading, all experts and blockwise, from the stack file's threshold and block",
          "[derived]") {
  const StackNumbers n = stack_numbers(vllm_neuron(), "trainium3");
  Arch a = arch_of("gpt-oss-120b");  // E = 128, k = 4; 64 heads, 8 KV heads
  Placement mx;
  mx.tp = 8, mx.weights = "mxfp4", mx.act = "mxfp8";
  Placement p = neuron(mx, n);
  // Decode of 8 sequences: 8 x 4 / 128 = 0.25 < threshold -> selective loading (32 expert
  // reads, 16 kernels). Prefill of 2000 tokens: 8000 assignments >= a block -> blockwise.
  REQUIRE(8 * a.k / a.E < n.threshold);
  REQUIRE(2000 * a.k >= n.block);
  Run r = check_inference(a, p, {8, 2000, 65}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  const json& dec = op(phase(r.result, "decode"), "moe.experts", "moe/full");
  CHECK(dec.at("overhead_s").get<double>() == exact(2 * 8 * Efficiency{}.kernel_overhead_s));
  // Decode of 64: 2 >= threshold -> every one of the 128 local experts, every token through each.
  REQUIRE(64 * a.k / a.E >= n.threshold);
  check_inference(a, p, {64, 500, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  // A 100-token prompt: 400 assignments, at least E / k tokens but under a block -> all experts.
  REQUIRE(100 * a.k / a.E >= n.threshold);
  REQUIRE(100 * a.k < n.block);
  check_inference(a, p, {2, 100, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  // Expert parallelism: decode with EP always reads all local experts (even below the
  // threshold), prefill stays blockwise over the 32 local experts; the all-to-alls among
  // ep x 4 ranks.
  Placement ep = p;
  ep.ep = 4;
  check_inference(a, ep, {8, 2000, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  // Qwen3-235B-A22B (E = 128, k = 8; 64 heads, 4 KV heads replicated to 32 ranks).
  Arch q = arch_of("Qwen3-235B-A22B");
  Placement qp;
  qp.tp = 8, qp.weights = qp.attn_weights = qp.act = "mxfp8";
  check_inference(q, neuron(qp, n), {16, 1500, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
}

TEST_CASE("neuron stack, MoE: where the blockwise NKI kernel refuses the shapes, a kernel sequence per block",
          "[derived]") {
  // optimum-neuron's kernel range (its file): gpt-oss-120b's hidden 2880 is outside it -- its
  // context encoding runs the PyTorch loop, fallback_kernels_per_block kernels a block;
  // Qwen3-235B-A22B's 4096 is inside -- the kernel's two.
  const json optimum = data_file("data/serving/optimum-neuron.json");
  const StackNumbers n = stack_numbers(optimum, "trainium3");
  Arch g = arch_of("gpt-oss-120b"), q = arch_of("Qwen3-235B-A22B");
  REQUIRE((g.d < n.kernel_min_hidden || g.d > n.kernel_max_hidden || std::fmod(g.d, n.kernel_hidden_multiple) != 0));
  REQUIRE((q.d >= n.kernel_min_hidden && q.d <= n.kernel_max_hidden && std::fmod(q.d, n.kernel_hidden_multiple) == 0));
  Placement p;
  p.tp = 8, p.weights = "mxfp4", p.act = "mxfp8";
  Run r = check_inference(g, neuron(p, n), {4, 2000, 9}, "trn3-gen2-ultraserver", nullptr, "optimum-neuron", n.overlap);
  const double blocks = std::ceil((2000 * g.k - (g.E - 1)) / n.block) + g.E - 1;
  CHECK(op(phase(r.result, "prefill"), "moe.experts", "moe/full").at("overhead_s").get<double>() ==
        exact(blocks * n.fallback_kernels * Efficiency{}.kernel_overhead_s));
  Placement qp;
  qp.tp = 8, qp.weights = qp.attn_weights = qp.act = "mxfp8";
  check_inference(q, neuron(qp, n), {4, 2000, 9}, "trn3-gen2-ultraserver", nullptr, "optimum-neuron", n.overlap);
}

TEST_CASE("neuron stack: MLA's latent replicated on every rank, its heads over the ranks", "[derived]") {
  const StackNumbers n = stack_numbers(vllm_neuron(), "trainium3");
  Arch a = arch_of("DeepSeek-V3");
  Placement p;
  p.tp = 16, p.weights = p.attn_weights = p.act = "mxfp8", p.kv = "fp8";
  check_inference(a, neuron(p, n), {8, 1000, 9}, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
}

TEST_CASE("context-encoding overlap: a collective of d after work w costs d - min(f d, w)", "[derived]") {
  // The stack's own overlap (1: each collective hidden up to the work before it) and a user
  // stack at f = 0.5 and f = 0: the prefill phase's operators are the same (the phase time
  // is their sum), TTFT moves by exactly the hidden time; decode is not context encoding.
  Arch a = arch_of("Llama-3.1-70B");
  Placement base;
  base.tp = 16;
  const Inference in{4, 4000, 5};
  const StackNumbers n = stack_numbers(vllm_neuron(), "trainium3");
  REQUIRE(n.overlap == 1);
  Run full = check_inference(a, neuron(base, n), in, "trn3-gen2-ultraserver", nullptr, "vllm-neuron", n.overlap);
  const double ttft_full = full.result.at("inference").at("ttft_s").get<double>();
  REQUIRE(ttft_full < phase(full.result, "prefill").at("time_s").get<double>());  // something is hidden
  double previous = ttft_full;
  for (double f : {0.5, 0.0}) {
    json stack = vllm_neuron();
    stack["name"] = "test-overlap";
    stack["batching"]["context_encoding_collective_overlap"] = {{"value", f}, {"source", "assumption: a test"}};
#ifdef __EMSCRIPTEN__
    const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/test_derived_neuron_wasm_stack_" + std::to_string(f) + ".json";
#else
    const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/test_derived_neuron_native_stack_" + std::to_string(f) + ".json";
#endif  // one file per f: stack files are loaded once per path
    std::ofstream(path) << stack.dump();
    INFO("overlap " << f);
    Run r = check_inference(a, neuron(base, n), in, "trn3-gen2-ultraserver", nullptr, path, f);
    std::remove(path.c_str());
    CHECK(phase(r.result, "prefill").at("time_s").get<double>() == exact(phase(full.result, "prefill").at("time_s").get<double>()));
    CHECK(r.result.at("inference").at("tpot_s").get<double>() == exact(full.result.at("inference").at("tpot_s").get<double>()));
    const double ttft = r.result.at("inference").at("ttft_s").get<double>();
    CHECK(ttft > previous);  // less overlap, longer TTFT
    previous = ttft;
    if (f == 0)
      CHECK(r.result.at("inference").at("ttft_s").get<double>() == exact(phase(r.result, "prefill").at("time_s").get<double>()));
  }
  // The rule itself on two layers' worth of numbers: work longer, then shorter, than f d.
  CHECK(hidden_in_layer({{false, 3}, {true, 2}, {false, 1}, {true, 4}}, 1) == 2 + 1);
  CHECK(hidden_in_layer({{false, 3}, {true, 2}, {false, 1}, {true, 4}}, 0.5) == 1 + 1);
  CHECK(hidden_in_layer({{true, 2}, {false, 5}}, 1) == 0);  // nothing before the first collective
}

}  // namespace unit_derived_neuron
