// The Neuron execution model below the serving simulator: serving-stack data files (every
// value sourced, fitted ones listed as calibrated), NxD Inference's automatic buckets, the
// MoE expert-execution strategies of NxD (selective loading, all experts, blockwise, and the
// PyTorch blockwise fallback where the NKI kernel rejects the shapes), and
// logical NeuronCores as TP ranks (intra-chip collectives at tp = 1, KV-head replication).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "embedded.h"
#include "hw/system.h"
#include "plan/plan.h"
#include "price/stack.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "workload/speculative.h"
#include "workload/workload.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_stack {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

const hw::System& trn2() {
  static const hw::System s = hw::load_system("trn2-48xlarge");
  return s;
}

workload::Spec spec_of(json j) { return trnsim::parse_workload(j); }

const plan::Operator& op_named(const std::vector<plan::Operator>& ops, const std::string& name) {
  for (const auto& o : ops)
    if (o.name == name) return o;
  throw std::logic_error("no operator " + name);
}

// The routed-expert operator of one MoE layer for `tokens` tokens (decode: one per sequence).
plan::Operator experts(const plan::MoeExecution& x, const std::string& model, int tp, double tokens, bool decode,
                       int ranks_per_chip = 1) {
  static std::map<std::string, std::shared_ptr<const model::ModelConfig>> models;
  auto& m = models[model];
  if (!m) m = workload::spec_model(spec_of({{"model", model}}));
  plan::Context c{*m, plan::Dtypes{"bf16", "bf16", "bf16", "bf16"}, plan::make_placement(*m, tp, 1, 1, 1, ranks_per_chip), x};
  plan::Pass p;
  p.seqs = decode ? tokens : 1;
  p.new_tokens = decode ? 1 : tokens;
  p.ctx_full = p.pairs_full = decode ? 256 : 0;
  model::LayerSpec moe;
  moe.mlp = model::MlpKind::moe;
  return op_named(plan::layer_ops(c, p, moe), "moe.experts");
}
plan::Operator experts(plan::MoeStrategy strategy, const std::string& model, int tp, double tokens, bool decode) {
  plan::MoeExecution x;
  x.strategy = strategy;
  return experts(x, model, tp, tokens, decode);
}


// The error from loading built-in stack `stack` with its first `from` replaced by `to`, renamed
// `name` and saved as a temporary file.
std::string error_loading_edited(const std::string& stack, const std::string& from, const std::string& to,
                                 const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() / ("trnsim-stack-" + name + "-" + std::to_string(::getpid()) + ".json");
  std::string t = *find_embedded("data/serving/" + stack + ".json");
  const auto at = t.find(from);
  REQUIRE(at != std::string::npos);
  t.replace(at, from.size(), to);
  const std::string key = "\"name\": \"" + stack + "\"";
  REQUIRE(t.find(key) != std::string::npos);
  t.replace(t.find(key), key.size(), "\"name\": \"" + name + "\"");
  std::ofstream(path) << t;
  const std::string err = error_of([&] { price::load_stack(path.string()); });
  std::filesystem::remove(path);
  return err;
}

}  // namespace

TEST_CASE("serving stacks load from data with a source on every value", "[stack]") {
  const auto names = price::stack_names();
  for (const char* n : {"plain", "nxdi", "vllm-neuron", "optimum-neuron", "sglang"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  for (const auto& n : names) {
    const price::Stack& s = price::load_stack(n);
    INFO(n);
    CHECK(s.name == n);
    // every value of the format carries its source (a GPU server's "server" block adds five, the
    // optional moe.dispatch and moe.separate_passes one each, the optional weight_only block two, an
    // "attention" block its count and its operators' time, the optional
    // batching.decode_collective_overlap one)
    CHECK(s.sources.size() == (s.server ? 38u : 33u) + s.sources.count("moe.dispatch") +
                                  s.sources.count("moe.separate_passes") + (s.weight_only_dtypes.empty() ? 0u : 2u) +
                                  (s.mla_decode_kernels > 0 ? 2u : 0u) +
                                  s.sources.count("batching.decode_collective_overlap"));
    CHECK(!s.sdk_release.empty());
    for (const auto& [path, source] : s.sources) CHECK(!source.empty());
  }
  const price::Stack& v = price::load_stack("vllm-neuron");
  CHECK(v.logical_nc_config == 2);
  CHECK(v.moe.strategy == plan::MoeStrategy::neuron);
  CHECK(v.moe.selective_threshold == 1.0);
  CHECK(v.moe.block_size == 512);
  CHECK(v.prefill_alone);
  CHECK(v.buckets.enabled);
  CHECK(v.buckets.min_context_encoding == 128);
  // Fitted values are named, so the report can list them.
  CHECK(std::find(v.calibrated.begin(), v.calibrated.end(), "runtime.step_host") != v.calibrated.end());
  const price::Stack& x = price::load_stack("nxdi");
  CHECK(x.moe.kernel_block_s == Approx(99.4e-6));
  CHECK(std::find(x.calibrated.begin(), x.calibrated.end(), "moe.kernel_block_time") != x.calibrated.end());
  const price::Stack& o = price::load_stack("optimum-neuron");
  CHECK(o.pad_prefill_to_max);
  CHECK(o.decode_reads_max);
  CHECK(o.prefill_alone);  // the October 2025 runner: a step of prompts or of decodes (N10)
  CHECK(!o.prefix_caching);
  const price::Stack& p = price::load_stack("plain");
  CHECK(p.logical_nc_config == 0);
  CHECK(p.runtime.step_host_s == 0);
  CHECK(price::ranks_per_chip(v, trn2().chip) == 4);  // 8 NeuronCores at LNC=2
  CHECK(price::ranks_per_chip(p, trn2().chip) == 1);
  CHECK(contains(error_of([] { price::load_stack("vllm-nueron"); }), "did you mean 'vllm-neuron'"));
  CHECK(contains(error_of([] { price::load_stack("/nonexistent/stack.json"); }), "cannot open"));
}

TEST_CASE("NxD Inference's automatic buckets and bucket selection", "[stack]") {
  // generate_buckets(128, max): powers of two below round(log2(max)), then the maximum.
  CHECK(price::automatic_buckets(128, 12800) == std::vector<int>{128, 256, 512, 1024, 2048, 4096, 8192, 12800});
  CHECK(price::automatic_buckets(128, 4096) == std::vector<int>{128, 256, 512, 1024, 2048, 4096});
  CHECK(price::automatic_buckets(128, 2500) == std::vector<int>{128, 256, 512, 1024, 2500});  // log2 2500 rounds to 11
  CHECK(price::automatic_buckets(512, 512) == std::vector<int>{512});
  const std::vector<int> b = {2048, 4096, 8192, 12288};
  CHECK(price::bucket_for(b, 10000, "x") == 12288);
  CHECK(price::bucket_for(b, 2048, "x") == 2048);
  CHECK(price::bucket_for(b, 1, "x") == 2048);
  CHECK(contains(error_of([&] { price::bucket_for(b, 12289, "workload.compiled"); }),
                 "workload.compiled: 12289 tokens exceed the largest compiled bucket (12288)"));
}

TEST_CASE("NxD's MoE expert execution: selective loading, all experts, blockwise", "[stack]") {
  // DeepSeek-V3: 256 experts, top-8, TP16 chips. Token generation below T*k/E = 1 loads each
  // token's own 8 experts: the reads grow with the batch, with no sharing between tokens.
  const double expert_bytes = 3.0 * 7168 * 2048 * 2 / 16;  // one expert's slice per chip, BF16
  auto b1 = experts(plan::MoeStrategy::neuron, "DeepSeek-V3", 16, 1, true), b8 = experts(plan::MoeStrategy::neuron, "DeepSeek-V3", 16, 8, true);
  CHECK(b1.kernels == 2);
  CHECK(b8.kernels == 16);  // a gate/up and down kernel pair per token
  CHECK(b8.hbm_bytes > 64 * expert_bytes);
  CHECK(b8.hbm_bytes < 65 * expert_bytes);
  // Uniform routing shares experts between the batch's tokens: fewer reads.
  auto u8 = experts(plan::MoeStrategy::uniform, "DeepSeek-V3", 16, 8, true);
  CHECK(u8.hbm_bytes < b8.hbm_bytes);
  CHECK(u8.flops == Approx(b8.flops));  // the same routed products
  // From T*k/E = 1 (32 tokens) every local expert is read and computes every token.
  auto all = experts(plan::MoeStrategy::neuron, "DeepSeek-V3", 16, 32, true);
  CHECK(all.hbm_bytes > 256 * expert_bytes);
  CHECK(all.flops == Approx(b8.flops / (8 * 8) * 32 * 256).epsilon(1e-9));
  // Context encoding of 2048 tokens (T*k >= 512): blockwise, ceil((T*k - 255) / 512) + 255 blocks.
  auto pre = experts(plan::MoeStrategy::neuron, "DeepSeek-V3", 16, 2048, false);
  const double blocks = std::ceil((2048.0 * 8 - 255) / 512) + 255;
  CHECK(pre.gemms == blocks);
  CHECK(pre.flops == Approx(b1.flops / 8 * blocks * 512).epsilon(1e-9));
  // A short prompt with T*k below a block: all experts.
  CHECK(experts(plan::MoeStrategy::neuron, "DeepSeek-V3", 16, 40, false).gemms == 256);
}

TEST_CASE("the fused token-generation MoE kernel runs its expert passes one after another", "[stack]") {
  // GLM-4.7-Flash on one chip (64 experts, top-4, all local): MoEFusedTKG's selective mode below
  // T k / E_local = 1 runs T x k passes, each one expert's slice; from 16 tokens its all-expert
  // mode runs one pass per local expert over every token. One kernel, a fixed time per pass.
  const plan::MoeExecution x = price::load_stack("nxdi-sdk2.29.1-shard-on-block").moe;
  REQUIRE(x.decode_kernel == plan::MoeDecodeKernel::fused_tkg);
  REQUIRE(x.decode_pass_s > 0);
  const double slice = 3.0 * 2048 * 1536 * 2;  // one expert's weights, BF16 (the helper's dtypes)
  for (double T : {1.0, 4.0, 8.0, 15.0}) {
    INFO(T);
    const auto o = experts(x, "GLM-4.7-Flash", 1, T, true, 4);
    CHECK(o.kernels == 1);
    CHECK(o.gemms == T * 4);
    CHECK(o.fixed_s == Approx(T * 4 * x.decode_pass_s));
    CHECK(o.hbm_bytes > T * 4 * slice);
    CHECK(o.hbm_bytes < (T * 4 + 1) * slice);
  }
  const auto all = experts(x, "GLM-4.7-Flash", 1, 16, true, 4);
  CHECK(all.gemms == 64);
  CHECK(all.m == 16);
  CHECK(all.fixed_s == Approx(64 * x.decode_pass_s));
  // Context encoding keeps the blockwise kernel's blocks.
  CHECK(experts(x, "GLM-4.7-Flash", 1, 4096, false, 4).fixed_s ==
        Approx(plan::moe_blocks(x, 64, 4, 64, 4096) * x.kernel_block_s));
  // A stack without it: ExpertMLPsV2's gate/up and down kernels per token, no pass time.
  const auto v2 = experts(price::load_stack("nxdi").moe, "GLM-4.7-Flash", 1, 4, true, 4);
  CHECK(v2.kernels == 8);
  CHECK(v2.fixed_s == 0);
}

TEST_CASE("NxD's PyTorch blockwise fallback where the NKI kernel rejects the shapes", "[stack]") {
  // optimum-neuron (SDK 2.26): the kernel takes 4096 <= hidden <= 8192, a multiple of 512 (N9).
  const plan::MoeExecution& o = price::load_stack("optimum-neuron").moe;
  CHECK(o.blockwise_kernel_accepts(4096, 24));
  CHECK(o.blockwise_kernel_accepts(8192, 1));
  CHECK_FALSE(o.blockwise_kernel_accepts(2048, 192));
  CHECK_FALSE(o.blockwise_kernel_accepts(8704, 128));
  CHECK_FALSE(o.blockwise_kernel_accepts(4608 + 128, 128));
  // The NxD Inference stacks leave the limits open (their ports pad to the kernel's shapes).
  CHECK(price::load_stack("vllm-neuron").moe.blockwise_kernel_accepts(2880, 180));
  plan::MoeExecution step16 = o;  // an intermediate-per-rank rule (NxD 2.27+: divisible by 16)
  step16.kernel_intermediate_multiple = 16;
  CHECK_FALSE(step16.blockwise_kernel_accepts(4096, 24));

  // gpt-oss-120b (hidden 2880): every block of a 512-token prompt runs its own kernel sequence;
  // the blocks, their weight reads and products are those of the kernel.
  plan::MoeExecution kernel = o;
  kernel.kernel_min_hidden = 0;
  kernel.kernel_hidden_multiple = 1;
  const auto fb = experts(o, "gpt-oss-120b", 4, 512, false), nki = experts(kernel, "gpt-oss-120b", 4, 512, false);
  const double blocks = std::ceil((512.0 * 4 - 127) / 512) + 127;
  CHECK(nki.gemms == blocks);
  CHECK(nki.kernels == 2);
  CHECK(fb.gemms == blocks);
  CHECK(fb.kernels == blocks * o.fallback_kernels_per_block);
  // The kernel's fixed time per block goes with the kernel; the PyTorch loop pays its kernels'.
  kernel.kernel_block_s = 99.4e-6;
  CHECK(experts(kernel, "gpt-oss-120b", 4, 512, false).fixed_s == blocks * 99.4e-6);
  plan::MoeExecution fallback_timed = o;
  fallback_timed.kernel_block_s = 99.4e-6;
  fallback_timed.fallback_block_s = 150e-6;
  CHECK(experts(fallback_timed, "gpt-oss-120b", 4, 512, false).fixed_s == Approx(blocks * 150e-6));
  CHECK(experts(kernel, "gpt-oss-120b", 4, 32, true).fixed_s == 0);  // token generation: no blocks
  CHECK(fb.flops == nki.flops);
  CHECK(fb.hbm_bytes == nki.hbm_bytes);
  // Token generation never runs blockwise: the fallback does not touch it.
  CHECK(experts(o, "gpt-oss-120b", 4, 32, true).kernels == experts(kernel, "gpt-oss-120b", 4, 32, true).kernels);
  // DeepSeek-V3 (7168 = 14 x 512) keeps the kernel; the rule reads the intermediate per rank
  // (2048 / (16 chips x 4 ranks) = 32).
  CHECK(experts(o, "DeepSeek-V3", 16, 2048, false).kernels == 2);
  plan::MoeExecution step64 = o;
  step64.kernel_intermediate_multiple = 64;
  CHECK(experts(step64, "DeepSeek-V3", 16, 2048, false, 1).kernels == 2);   // 128 per chip-rank
  CHECK(experts(step64, "DeepSeek-V3", 16, 2048, false, 4).kernels > 2);    // 32 per logical core
}

TEST_CASE("the context-encoding kernel path is stack data: blocks by path", "[stack]") {
  // NxD's static worst case (N1 forward_blockwise): ceil((T k - (E - 1)) / B) + E - 1 blocks,
  // at most T k. The shard-on-block kernel's dynamic loop runs the occupied blocks only: under
  // uniform routing an expert holds a token with probability 1 - (1 - k/E)^T.
  const plan::MoeExecution hidden = price::load_stack("nxdi").moe;
  const plan::MoeExecution block = price::load_stack("nxdi-sdk2.29.1-shard-on-block").moe;
  CHECK(hidden.kernel == plan::MoeKernel::shard_on_hidden);
  CHECK(block.kernel == plan::MoeKernel::shard_on_block);
  CHECK(price::load_stack("nxdi-sdk2.28-torch-blockwise").moe.kernel == plan::MoeKernel::none);
  // The Mixtral ports' vLLM server on SDK 2.29 (use_torch_block_wise): the same PyTorch loop,
  // its per-block time and output passes taken as row 20's.
  const plan::MoeExecution loop29 = price::load_stack("vllm-neuron-sdk2.29-torch-blockwise").moe;
  CHECK(loop29.kernel == plan::MoeKernel::none);
  CHECK(!loop29.blockwise_kernel_accepts(4096, 1792));
  CHECK(loop29.fallback_block_s == price::load_stack("nxdi-sdk2.28-torch-blockwise").moe.fallback_block_s);
  CHECK(loop29.fallback_output_passes == 2);
  CHECK(price::load_stack("nxdi-sdk2.29.1-shard-on-block").sdk_release == "2.29.1");
  // 64 experts, top-4 (GLM-4.7-Flash): 128 tokens fill one block's worth of assignments.
  CHECK(plan::moe_blocks(hidden, 64, 4, 64, 128) == std::ceil((512.0 - 63) / 512) + 63);
  const double hit128 = 1 - std::pow(1 - 4.0 / 64, 128);  // every expert is hit almost surely
  CHECK(plan::moe_blocks(block, 64, 4, 64, 128) == std::ceil(64 * hit128));
  // A 16-token prompt: 64 assignments reach at most 64 experts, most of them once.
  const double hit16 = 1 - std::pow(1 - 4.0 / 64, 16);
  CHECK(plan::moe_blocks(block, 64, 4, 64, 16) == std::ceil(64 * hit16));
  CHECK(plan::moe_blocks(block, 64, 4, 64, 16) < plan::moe_blocks(hidden, 64, 4, 64, 16));
  // DeepSeek-V3's 64-token prompt: 512 pairs over 256 experts leave some empty.
  CHECK(plan::moe_blocks(block, 256, 8, 256, 64) == std::ceil(256 * (1 - std::pow(1 - 8.0 / 256, 64))));
  CHECK(plan::moe_blocks(hidden, 256, 8, 256, 64) == 256);
  // 8192 tokens: 512 an expert on average, one block and a half each; never past N.
  CHECK(plan::moe_blocks(block, 64, 4, 64, 8192) == std::ceil(64 * (1 + 1.0 - 0.5)));
  CHECK(plan::moe_blocks(block, 64, 4, 64, 8192) <= plan::moe_blocks(hidden, 64, 4, 64, 8192));
  // The static loop's ceil(T k / B) blocks always run.
  plan::MoeExecution one = block;
  CHECK(plan::moe_blocks(one, 1, 1, 1, 4096) == 8);
  // "none": every shape falls back to the PyTorch loop (six kernels a block).
  plan::MoeExecution none = hidden;
  none.kernel = plan::MoeKernel::none;
  CHECK(!none.blockwise_kernel_accepts(4096, 128));
  CHECK(hidden.blockwise_kernel_accepts(4096, 128));
}

TEST_CASE("a port's unfused MLA decode runs its operators as kernels, each with its launch", "[stack]") {
  // GLM-4.7-Flash's port runs token generation's absorbed attention as XLA operators (its NKI MLA
  // kernel off): stack data counts them a layer; the attention core carries those beyond the four
  // projections. Prefill and the stacks without the count keep the model's five kernels.
  const price::Stack& glm = price::load_stack("nxdi-sdk2.29.1-shard-on-block");
  REQUIRE(glm.mla_decode_kernels >= 5);
  CHECK(price::load_stack("nxdi").mla_decode_kernels == 0);
  const auto m = workload::spec_model(spec_of({{"model", "GLM-4.7-Flash"}}));
  auto core = [&](double kernels, bool decode) {
    plan::Context c{*m, plan::Dtypes{"bf16", "bf16", "bf16", "bf16"}, plan::make_placement(*m, 1, 1, 1, 1, 4), glm.moe,
                    kernels, glm.mla_decode_op_s};
    plan::Pass p;
    p.seqs = decode ? 4 : 1;
    p.new_tokens = decode ? 1 : 128;
    p.ctx_full = decode ? 4096 : 0;
    p.pairs_full = decode ? 4096 : 128 * 129 / 2.0;
    p.decode = decode;
    model::LayerSpec layer;
    const auto ops = plan::layer_ops(c, p, layer);
    double launches = 0;
    for (const char* n : {"attn.q_proj", "attn.kv_a_proj", "attn.kv_b_proj", "attn.core", "attn.o_proj"})
      launches += op_named(ops, n).kernels;
    return std::pair{op_named(ops, "attn.core"), launches};
  };
  const auto [fused, fused_launches] = core(0, true);
  const auto [unfused, unfused_launches] = core(glm.mla_decode_kernels, true);
  CHECK(fused_launches == 5);
  CHECK(unfused_launches == glm.mla_decode_kernels);
  CHECK(unfused.hbm_bytes == fused.hbm_bytes);  // the same traffic, more launches
  CHECK(unfused.flops == fused.flops);
  // Each of the port's operators, projections included, adds its fixed time beyond the launch
  // (carried by the core); the fused path and prefill add none.
  REQUIRE(glm.mla_decode_op_s > 0);
  CHECK(unfused.fixed_s == Approx(glm.mla_decode_kernels * glm.mla_decode_op_s));
  CHECK(fused.fixed_s == 0);
  CHECK(core(glm.mla_decode_kernels, false).first.fixed_s == 0);
  CHECK(core(glm.mla_decode_kernels, false).second == 5);  // prefill: the model's five
  // Bad data names the field.
  const std::string from = "\"value\": " + std::to_string(static_cast<int>(glm.mla_decode_kernels));
  CHECK(contains(error_loading_edited("nxdi-sdk2.29.1-shard-on-block", from, "\"value\": 3", "mla-bad"),
                 "attention.mla_decode_kernels.value"));
  CHECK(contains(error_loading_edited("nxdi-sdk2.29.1-shard-on-block", "\"value\": 20.8", "\"value\": -1", "mla-op-bad"),
                 "attention.mla_decode_op_time.value"));
}

TEST_CASE("a stack file names its kernel path and SDK release", "[stack]") {
  auto load_with = [](const std::string& from, const std::string& to, const std::string& name) {
    return error_loading_edited("nxdi", from, to, name);
  };
  CHECK(contains(load_with("\"value\": \"shard-on-hidden\"", "\"value\": \"shard-on-everything\"", "k1"),
                 "moe.kernel.value"));
  CHECK(contains(load_with("\"sdk_release\"", "\"sdk_version\"", "k2"), "sdk_release"));
  CHECK(contains(load_with("\"value\": \"2.28\"", "\"value\": \"\"", "k3"), "sdk_release.value"));
}

TEST_CASE("a stack's MoE dispatch and weight-only formats: TensorRT-LLM's, and bad ones named", "[stack]") {
  const price::Stack& t = price::load_stack("trtllm");
  CHECK(t.moe.dispatch == plan::MoeDispatch::allgather_reducescatter);
  CHECK(t.weight_only_dtypes == std::vector<std::string>{"mxfp4"});
  CHECK(t.weight_only_rate > 0);
  CHECK(t.weight_only_rate < 1);
  CHECK(std::find(t.calibrated.begin(), t.calibrated.end(), "weight_only.matmul_rate") != t.calibrated.end());
  const price::Stack& n = price::load_stack("nxdi");  // no key: the all-to-alls, no weight-only path
  CHECK(n.moe.dispatch == plan::MoeDispatch::all_to_all);
  CHECK(n.weight_only_dtypes.empty());
  auto load_with = [](const std::string& from, const std::string& to, const std::string& name) {
    return error_loading_edited("trtllm", from, to, name);
  };
  CHECK(contains(load_with("\"value\": \"allgather-reducescatter\"", "\"value\": \"broadcast\"", "w1"), "moe.dispatch.value"));
  CHECK(contains(load_with("\"value\": [\"mxfp4\"]", "\"value\": [\"mxfp3\"]", "w2"), "weight_only.dtypes.value[0]"));
  CHECK(contains(load_with("\"value\": [\"mxfp4\"]", "\"value\": []", "w3"), "weight_only.dtypes.value"));
  CHECK(contains(load_with("\"value\": 0.2,", "\"value\": 1.5,", "w4"), "weight_only.matmul_rate.value"));
  // The CUTLASS MoE's separate passes: on in trtllm (G23), off without the key; a value that is
  // not a boolean is named.
  CHECK(t.moe.separate_passes);
  CHECK_FALSE(n.moe.separate_passes);
  CHECK_FALSE(price::load_stack("sglang").moe.separate_passes);
  CHECK(contains(load_with("\"value\": true,\"source\": \"G23", "\"value\": \"yes\",\"source\": \"G23", "w5"),
                 "moe.separate_passes.value"));
}

TEST_CASE("NxD's PyTorch loop scatters each block into the layer's whole output", "[stack]") {
  // Every block's scatter-add reads and writes the [T, H] output (N1): passes x T x H x 2 bytes
  // a block, on each of the chip's ranks -- work that grows as blocks x T, so a long prompt's
  // context encoding grows faster than its tokens. The kernel path has no such operator.
  plan::MoeExecution x = price::load_stack("nxdi-sdk2.28-torch-blockwise").moe;
  REQUIRE(x.fallback_output_passes == 2);
  auto scatter = [&](const plan::MoeExecution& e, double tokens, int rpc) -> double {
    static std::shared_ptr<const model::ModelConfig> m = workload::spec_model(spec_of({{"model", "Qwen3-235B-A22B"}}));
    plan::Context c{*m, plan::Dtypes{"bf16", "bf16", "bf16", "bf16"}, plan::make_placement(*m, 16, 1, 1, 1, rpc), e};
    plan::Pass p;
    p.new_tokens = tokens;
    model::LayerSpec moe;
    moe.mlp = model::MlpKind::moe;
    for (const auto& o : plan::layer_ops(c, p, moe))
      if (o.name == "moe.block_scatter") return o.hbm_bytes;
    return 0;
  };
  for (double T : {1024.0, 8192.0, 32768.0}) {
    const double blocks = std::ceil((T * 8 - 127) / 512) + 127;  // 128 experts, top-8, all local
    CHECK(scatter(x, T, 4) == Approx(blocks * 2 * T * 4096 * 2 * 4));
  }
  CHECK(scatter(x, 32768, 4) / scatter(x, 1024, 4) > 32 * 4);  // superlinear in the prompt
  CHECK(scatter(price::load_stack("nxdi").moe, 8192, 4) == 0);  // the NKI kernel's path
}

TEST_CASE("logical NeuronCores: TP collectives among ranks, KV heads replicated to them", "[stack]") {
  // Llama-3.1-8B on one Trainium2 chip (TP4 at LNC=2): the plain stack sees one chip and no
  // collective; vllm-neuron runs 4 ranks with two intra-chip all-reduces per layer.
  json w = {{"model", "Llama-3.1-8B"}, {"parallelism", {{"tp", 1}}}, {"inference", {{"batch", 8}, {"input_tokens", 1024}, {"output_tokens", 64}}}};
  w["stack"] = "plain";
  workload::Result plain = workload::evaluate(spec_of(w), trn2());
  w["stack"] = "vllm-neuron";
  workload::Result neuron = workload::evaluate(spec_of(w), trn2());
  auto has = [](const workload::Result& r, const std::string& name) {
    for (const auto& ph : r.phases)
      for (const auto& o : ph.ops)
        if (o.name == name) return true;
    return false;
  };
  CHECK(!has(plain, "attn.all_reduce"));
  CHECK(has(neuron, "attn.all_reduce"));
  CHECK(has(neuron, "mlp.all_reduce"));
  CHECK(neuron.inference().tpot_s > plain.inference().tpot_s);
  // 8 KV heads over TP64 ranks on 16 chips: each rank holds one head, so a chip holds 4,
  // where chip-level TP16 holds 1 -- four times the KV cache per chip.
  auto m = workload::spec_model(spec_of({{"model", "Llama-3.1-70B"}}));
  CHECK(plan::make_placement(*m, 16, 1, 1, 1, 4).kvh_chip == 4);
  CHECK(plan::make_placement(*m, 16, 1, 1, 1, 1).kvh_chip == 1);
  CHECK(plan::make_placement(*m, 2, 1, 1, 1, 4).kvh_chip == 4);  // 8 ranks: one distinct head each
  // Heads pad to the ranks, as Neuron pads them (Llama-4-Scout's 40 heads at TP16 chips =
  // 64 ranks: 64 heads, one per rank), or, with padding off, a clear error naming the ranks.
  json q = {{"model", "Llama-4-Scout-17B-16E-Instruct"}, {"parallelism", {{"tp", 16}}},
            {"inference", {{"batch", 1}, {"input_tokens", 128}, {"output_tokens", 8}}}};
  workload::Result padded = workload::evaluate(spec_of(q), hw::load_system("trn3-gen2-ultraserver"));
  bool warned = false;
  for (const auto& w : padded.warnings) warned = warned || contains(w, "64 TP ranks do not divide the 40 attention heads; padded to 64");
  CHECK(warned);
  json e = {{"model", "Llama-3.1-8B"}, {"parallelism", {{"tp", 16}, {"pad_heads", false}}}};
  CHECK(contains(error_of([&] { workload::evaluate(spec_of(e), hw::load_system("trn3-gen2-ultraserver")); }),
                 "workload.parallelism.tp: must divide the model's 32 attention heads when heads are not padded, got 16 "
                 "(64 TP ranks: 4 logical NeuronCores per chip)"));
}

TEST_CASE("fused speculation: expected tokens per step and its price in trnsim run", "[stack]") {
  workload::Speculation s;
  s.draft_model = "Llama-3.2-1B";
  s.length = 4;
  s.acceptance = 1;
  CHECK(workload::speculative_tokens_per_step(s, false) == 4);  // NxDI: k positions verified
  CHECK(workload::speculative_tokens_per_step(s, true) == 5);   // k drafts + a bonus token
  s.acceptance = 0;
  CHECK(workload::speculative_tokens_per_step(s, false) == 1);
  s.acceptance = 0.5;
  CHECK(workload::speculative_tokens_per_step(s, false) == Approx(1 + 0.5 + 0.25 + 0.125));
  s.acceptance_by_position_percent = {100, 50};  // the last value repeats
  CHECK(workload::speculative_tokens_per_step(s, false) == Approx(1 + 1 + 0.5 + 0.25));
  s.length = 0;
  CHECK(workload::speculative_tokens_per_step(s, false) == 1);

  json w = {{"model", "Llama-3.1-70B"}, {"parallelism", {{"tp", 16}}},
            {"inference", {{"batch", 1}, {"input_tokens", 2000}, {"output_tokens", 200}}},
            {"stack", "plain"}};  // no context-encoding overlap: TTFT is the sum of the prefill ops
  const workload::Result base = workload::evaluate(spec_of(w), trn2());
  w["speculation"] = {{"draft_model", "Llama-3.2-1B"}, {"length", 5}, {"acceptance", 1.0}};
  const workload::Result sure = workload::evaluate(spec_of(w), trn2());
  auto phase_time = [](const workload::Result& r, const std::string& name) {
    for (const auto& p : r.phases)
      if (p.name == name) return p.time_s;
    throw std::logic_error("no phase " + name);
  };
  // Every draft accepted: the plain stack's convention (k drafts verified with a bonus token)
  // gives 6 tokens per (5 draft steps + one 6-position verify pass).
  const double cycle = 5 * phase_time(sure, "draft decode") + phase_time(sure, "verify");
  CHECK(sure.inference().tpot_s == Approx(cycle / 6));
  CHECK(sure.inference().tpot_s < base.inference().tpot_s);
  CHECK(phase_time(sure, "verify") > phase_time(sure, "decode"));  // 6 positions cost more than 1
  CHECK(sure.inference().ttft_s == Approx(base.inference().ttft_s + phase_time(sure, "draft prefill")));
  // Nothing accepted: slower than no speculation at all.
  w["speculation"]["acceptance"] = 0.0;
  CHECK(workload::evaluate(spec_of(w), trn2()).inference().tpot_s > base.inference().tpot_s);
  w["speculation"]["draft_model"] = "Llama-3.2-1b";
  CHECK(contains(error_of([&] { spec_of(w); }), "workload.speculation.draft_model"));
}

TEST_CASE("a stack file edited while the process runs is read again", "[stack]") {
  // The Python module and the desktop GUI keep one process: the second load of an edited file
  // sees the edit, and the stack handed out first keeps its values.
  const auto path = std::filesystem::temp_directory_path() / ("trnsim-stack-" + std::to_string(::getpid()) + ".json");
  const std::string text = *find_embedded("data/serving/nxdi.json");
  auto write = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
    std::ofstream(path) << t;
  };
  write("\"name\": \"nxdi\"", "\"name\": \"mine\"");
  const price::Stack& first = price::load_stack(path.string());
  CHECK(first.name == "mine");
  write("\"name\": \"nxdi\"", "\"name\": \"mine-edited\"");
  const price::Stack& second = price::load_stack(path.string());
  CHECK(second.name == "mine-edited");
  CHECK(first.name == "mine");
  CHECK(&price::load_stack(path.string()) == &second);  // unchanged text: the cached stack
  std::filesystem::remove(path);
}

TEST_CASE("runtime.step_extra's old name, sampling, still loads; both at once is an error", "[stack]") {
  // Stack files written before the rename keep working with the same value; giving the old
  // and the new name together names the old one.
  const auto path = std::filesystem::temp_directory_path() / ("trnsim-stack-old-" + std::to_string(::getpid()) + ".json");
  const std::string text = *find_embedded("data/serving/optimum-neuron.json");
  const std::string key = "\"step_extra\": {";
  const auto at = text.find(key);
  REQUIRE(at != std::string::npos);
  std::string old = text;
  old.replace(at, key.size(), "\"sampling\": {");
  old.replace(old.find("\"name\": \"optimum-neuron\""), 24, "\"name\": \"old-optimum\"");
  std::ofstream(path) << old;
  const price::Stack& o = price::load_stack(path.string());
  CHECK(o.runtime.step_extra_s == price::load_stack("optimum-neuron").runtime.step_extra_s);
  CHECK(o.runtime.step_extra_s > 0);
  std::string both = text;
  both.replace(at, key.size(), "\"sampling\": {\"value\": 1, \"unit\": \"ms\", \"source\": \"x\"}, " + key);
  both.replace(both.find("\"name\": \"optimum-neuron\""), 24, "\"name\": \"both-optimum\"");
  std::ofstream(path) << both;
  CHECK(contains(error_of([&] { price::load_stack(path.string()); }), "runtime.sampling: the old name of step_extra"));
  std::filesystem::remove(path);
}

}  // namespace unit_stack
