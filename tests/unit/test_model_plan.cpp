// The new layer kinds as the plan prices them (issue 15, phase 2): chunked attention as
// pairs within chunks, Gated DeltaNet as linear attention with a recurrent state instead of a
// KV cache, the gated attention output, per-layer dense widths, sandwich norms, and head
// padding to the tensor-parallel degree as Neuron does it. Every bundled model of the issue
// runs end to end on a Trn2 and a Trn3 system.
#include <catch2/catch.hpp>

#include "hw/system.h"
#include "model/mixer_cost.h"
#include "plan/plan.h"
#include "scenario/scenario.h"
#include "test_model_support.h"
#include "test_support.h"
#include "workload/workload.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_model_plan {

using namespace trnsim;
using namespace trnsim::model;
using test_model::bundled;
using test_support::contains;

namespace {

plan::Context context(const ModelConfig& m, int tp) {
  plan::Dtypes d;
  d.matmul = d.weights = d.attention_weights = d.kv_cache = "bf16";
  return plan::Context{m, d, plan::make_placement(m, tp, 1, 1, 1)};
}

const plan::Operator& op_named(const std::vector<plan::Operator>& ops, const std::string& name) {
  for (const auto& o : ops)
    if (o.name == name) return o;
  FAIL("no operator " << name);
  return ops.front();
}

bool has_op(const std::vector<plan::Operator>& ops, const std::string& name) {
  return std::any_of(ops.begin(), ops.end(), [&](const plan::Operator& o) { return o.name == name; });
}

int type_index(const plan::Layout& L, const std::string& name) {
  for (std::size_t i = 0; i < L.type_names.size(); ++i)
    if (L.type_names[i] == name) return static_cast<int>(i);
  FAIL("no layer type " << name);
  return -1;
}

double memory_item(const std::vector<plan::MemoryItem>& items, const std::string& name) {
  for (const auto& x : items)
    if (x.name == name) return x.bytes;
  return -1;
}

}  // namespace

TEST_CASE("plan: chunked layers score pairs within chunks, full attention below the chunk", "[model]") {
  const ModelConfig m = bundled("Llama-4-Scout-17B-16E-Instruct");
  const plan::Context c = context(m, 8);
  const plan::Layout L = plan::make_layout(m, 1);
  CHECK(L.type_names == std::vector<std::string>{"moe/full", "moe/chunked"});
  const int full = type_index(L, "moe/full"), chunked = type_index(L, "moe/chunked");
  const double hc = 5, hd = 128;  // 40 heads over 8 chips
  for (double S : {4000.0, 20000.0}) {
    INFO(S);
    plan::InferencePlan P = plan::plan_inference(c, L, 1, static_cast<int>(S), 64);
    const auto& f = op_named(P.prefill.per_type[full], "attn.core");
    const auto& k = op_named(P.prefill.per_type[chunked], "attn.core");
    CHECK(f.flops == 2.0 * (S * (S + 1) / 2) * hc * 2 * hd);
    CHECK(k.flops == 2.0 * attention_pairs(m, Mixer::chunked_attention, S) * hc * 2 * hd);
    if (S < 8192) CHECK(k.flops == f.flops);
    else CHECK(k.flops < f.flops);
    // Decode: a chunked layer reads at most its chunk of the KV cache.
    const auto& fd = op_named(P.decode.per_type[full], "attn.core");
    const auto& kd = op_named(P.decode.per_type[chunked], "attn.core");
    CHECK(P.decode_pass.ctx_chunked == mean_attention_keys(m, Mixer::chunked_attention, S, 63));
    if (S < 8192) CHECK(kd.hbm_bytes == fd.hbm_bytes);
    else CHECK(kd.hbm_bytes < fd.hbm_bytes);
  }
  // The engine-level shape of a chunked prefill: one causal attention per chunk.
  plan::InferencePlan P = plan::plan_inference(c, L, 1, 16384, 2);
  const auto& k = op_named(P.prefill.per_type[chunked], "attn.core");
  CHECK(k.seq_q == 8192);
  CHECK(k.heads == 2 * hc);
  // KV held at the end of the request (16386 tokens): the chunked layers at most one chunk.
  const double per_token = 2.0 * 1 * 128 * 2;  // 8 KV heads over 8 chips, K and V, BF16
  CHECK(memory_item(P.memory, "kv_cache") == (12 * 16386.0 + 36 * 8192.0) * per_token);
}

TEST_CASE("plan: Gated DeltaNet layers keep a recurrent state, not a KV cache", "[model]") {
  const ModelConfig m = bundled("Qwen3-Next-80B-A3B-Instruct");
  const plan::Context c = context(m, 4);
  const plan::Layout L = plan::make_layout(m, 1);
  CHECK(L.type_names == std::vector<std::string>{"moe/full", "moe/linear"});
  const int lin = type_index(L, "moe/linear"), full = type_index(L, "moe/full");
  // 32 value heads and 16 q/k heads over 4 chips: 8 and 4 per chip.
  CHECK(c.pl.linear_heads.q_heads_per_rank() == 8);
  CHECK(c.pl.linear_heads.kv_heads_per_rank() == 4);
  const double state_chip = 8.0 * 128 * 128 + (2 * 4 * 128 + 8 * 128) * 3.0;
  CHECK(c.pl.linear_state_elems_chip == state_chip);
  const int B = 16, S = 30000, O = 1000;
  plan::InferencePlan P = plan::plan_inference(c, L, B, S, O);
  // No KV-cache traffic in a linear layer; its decode reads and writes the state once.
  const auto& core = op_named(P.decode.per_type[lin], "linear_attn.core");
  const double T = P.decode_pass.tokens();
  const double in_w = 2 * 512.0 + 2 * 1024.0 + 2 * 8;  // q, k (4 heads x 128), v, z (8 x 128), b, a
  CHECK(core.hbm_bytes == T * (in_w + 1024) * 2 + 2 * P.decode_pass.seqs * state_chip * 2);
  CHECK(core.flops == T * (7.0 * 8 * 128 * 128 + 2.0 * (2 * 512 + 1024) * 4));
  CHECK(core.seq_q == 0);  // priced on FLOPs and bytes, not as a flash-attention kernel
  CHECK(!has_op(P.decode.per_type[lin], "attn.core"));
  CHECK(op_named(P.decode.per_type[lin], "linear_attn.in_proj").flops == 2.0 * T * 2048 * in_w);
  // The full-attention layers keep their KV cache: 12 layers, 2 KV heads replicated to... 4 chips: 1 each.
  CHECK(c.pl.kvh_chip == 1);
  CHECK(memory_item(P.memory, "kv_cache") == B * 12 * double(S + O) * 2 * 256 * 2);
  // The state does not grow with the context: 36 layers x 16 streams, BF16 (no mamba_ssm_dtype).
  CHECK(memory_item(P.memory, "recurrent_state") == B * 36 * state_chip * 2);
  // Gated attention output on the full layers.
  const auto& gate = op_named(P.decode.per_type[full], "attn.output_gate");
  CHECK(gate.flops == 2.0 * T * 2048 * (4 * 256));
  // Qwen3.5 keeps its state in float32 (mamba_ssm_dtype).
  const ModelConfig q = bundled("Qwen3.5-397B-A17B");
  const plan::Context cq = context(q, 16);
  CHECK(plan::linear_state_bytes_per_element(cq) == 4);
  plan::InferencePlan Q = plan::plan_inference(cq, plan::make_layout(q, 1), 1, 1000, 10);
  CHECK(memory_item(Q.memory, "recurrent_state") == 45 * cq.pl.linear_state_elems_chip * 4);
}

TEST_CASE("plan: Mamba2 layers keep a recurrent state, scan in chunks at prefill", "[model]") {
  const ModelConfig m = bundled("granite-4.0-h-tiny");
  const plan::Context c = context(m, 4);
  const plan::Layout L = plan::make_layout(m, 1);
  CHECK(L.type_names == std::vector<std::string>{"moe/full", "moe/mamba"});
  const int mamba = type_index(L, "moe/mamba");
  // 48 heads of 64 over 4 chips: 12 per chip; the one B/C group (state 128) on every chip.
  const double H = 12, P = 64, N = 128, G = 1, K = 4, Q = 256, d = 1536;
  CHECK(c.pl.linear_heads.q_heads_per_rank() == H);
  CHECK(c.pl.linear_heads.kv_heads_per_rank() == G);
  const double conv = H * P + 2 * G * N;  // x, B, C
  const double state_chip = H * P * N + conv * (K - 1);
  CHECK(c.pl.linear_state_elems_chip == state_chip);
  const int B = 8, S = 4096, O = 256;
  plan::InferencePlan Pl = plan::plan_inference(c, L, B, S, O);
  const double in_w = 2 * H * P + 2 * G * N + H;  // z, x, B, C, dt
  // Decode: the recurrent update (decay and outer product, then the readout) and the conv; the
  // state read and written once per step.
  const auto& dec = op_named(Pl.decode.per_type[mamba], "mamba.core");
  const double T = Pl.decode_pass.tokens();
  CHECK(dec.flops == T * (5 * H * P * N + 2 * conv * K));
  CHECK(dec.hbm_bytes == T * (in_w + H * P) * 2 + 2 * Pl.decode_pass.seqs * state_chip * 2);
  CHECK(op_named(Pl.decode.per_type[mamba], "mamba.in_proj").flops == 2.0 * T * d * in_w);
  CHECK(op_named(Pl.decode.per_type[mamba], "mamba.out_proj").flops == 2.0 * T * H * P * d);
  // Prefill: the chunked scan -- C B^T within each 256-token chunk, the chunk states, their
  // passing and the output from them -- and the final state written.
  const auto& pre = op_named(Pl.prefill.per_type[mamba], "mamba.core");
  const double Tp = Pl.prefill_pass.tokens();
  const double scan = 2 * Q * (G * N + H * P) + 2 * H * P * N + 2 * H * P * N / Q + 2 * H * P * N;
  CHECK(pre.flops == Approx(Tp * (scan + 2 * conv * K)).epsilon(1e-12));
  // No KV cache in the 36 Mamba2 layers; the 4 attention layers keep theirs (4 KV heads, 1 per chip).
  CHECK(memory_item(Pl.memory, "kv_cache") == B * 4 * double(S + O) * 2 * 128 * 2);
  CHECK(memory_item(Pl.memory, "recurrent_state") == B * 36 * state_chip * 2);
}

TEST_CASE("plan: the weights per chip add up to the model's parameter count", "[model]") {
  // Summed over layers and ranks, the plan's per-chip weights are the model's parameters
  // (when nothing is padded or replicated): the plan prices every weight the count has.
  for (const std::string name : {"Llama-4-Maverick-17B-128E-Instruct", "Qwen3-Next-80B-A3B-Instruct", "GLM-4.5-Air",
                                 "Trinity-Mini", "Qwen3.5-27B", "gpt-oss-120b", "DeepSeek-V3", "Solar-Open-100B",
                                 "MiniMax-M2.5", "gemma4", "mimo_v2_flash", "granite-4.0-h-tiny"}) {
    INFO(name);
    const ModelConfig m = name == "gemma4"          ? import_hf_config(test_model::gemma4_31b(), "m", name)
                          : name == "mimo_v2_flash" ? import_hf_config(test_model::mimo_v2_flash(), "m", name)
                                                    : bundled(name);
    const int tp = name == "Qwen3-Next-80B-A3B-Instruct" ? 2 : name == "granite-4.0-h-tiny" ? 4 : 1;
    const plan::Context c = context(m, tp);
    double sum = 0;
    for (const auto& l : m.layer_specs) {
      const plan::LayerWeights w = plan::layer_weights(c, l);
      // Norms, the router and MLA's down-projections are replicated on every rank.
      sum += (w.attn + w.dense + w.experts + w.shared) * tp + w.router + w.norms;
      // Granite's Mamba2 layers: the gated norm splits with the heads (tp shares, not one
      // replica); the one B/C group is replicated on every rank (its in_proj columns, conv
      // taps and conv bias), which the model counts once.
      if (l.mixer == Mixer::linear_attention && m.linear.mamba2()) {
        const double bc = 2.0 * m.linear.key_width();
        sum += (tp - 1) * (m.linear.gated_norm_width() / double(tp) - (m.hidden * bc + bc * (m.linear.conv_kernel + 1)));
      }
    }
    const ParamCounts p = count_parameters(m);
    CHECK(sum + p.embedding + p.lm_head + m.hidden == Approx(p.total).epsilon(1e-12));
  }
}

TEST_CASE("plan: per-layer dense widths and sandwich norms", "[model]") {
  const ModelConfig m = bundled("Llama-4-Maverick-17B-128E-Instruct");
  const plan::Context c = context(m, 8);
  const plan::Layout L = plan::make_layout(m, 1);
  // The dense layers are the even ones, all RoPE (chunked); the NoPE layers (3, 7, ...) are MoE.
  CHECK(L.type_names == std::vector<std::string>{"dense/chunked", "moe/full", "moe/chunked"});
  plan::InferencePlan P = plan::plan_inference(c, L, 1, 1000, 2);
  const auto& up = op_named(P.prefill.per_type[type_index(L, "dense/chunked")], "mlp.gate_up_proj");
  CHECK(up.flops == 2.0 * 1000 * 5120 * 2 * (16384 / 8));
  // A model with two dense widths names them in its layer types.
  ModelConfig two = m;
  two.layer_specs[0].dense_intermediate = 8192;
  const plan::Layout L2 = plan::make_layout(two, 1);
  CHECK(std::find(L2.type_names.begin(), L2.type_names.end(), "dense:8192/chunked") != L2.type_names.end());
  // Trinity: four RMSNorms per layer, gated attention output.
  const ModelConfig t = bundled("Trinity-Mini");
  const plan::Context ct = context(t, 4);
  plan::InferencePlan Pt = plan::plan_inference(ct, plan::make_layout(t, 1), 1, 100, 2);
  const auto& norms = op_named(Pt.prefill.per_type[0], "layer.norms_residual");
  CHECK(norms.kernels == 4);
  CHECK(norms.hbm_bytes == 2.0 * 4 * 100 * 2048 * 2);
  CHECK(has_op(Pt.prefill.per_type[0], "attn.output_gate"));
}

TEST_CASE("plan: heads are padded to tp as Neuron does, and the report says what it costs", "[model]") {
  const ModelConfig m = bundled("Llama-4-Scout-17B-16E-Instruct");
  const plan::Context c = context(m, 16);
  CHECK(c.pl.heads_chip == 3);  // 40 -> 48 heads
  CHECK(c.pl.kvh_chip == 1);    // 8 -> 16 K/V heads, replicated
  const plan::Layout L = plan::make_layout(m, 1);
  plan::InferencePlan P = plan::plan_inference(c, L, 1, 1000, 2);
  const auto& qkv = op_named(P.prefill.per_type[0], "attn.qkv_proj");
  CHECK(qkv.n == 3 * 128 + 2 * 128);
  const auto& core = op_named(P.prefill.per_type[0], "attn.core");
  CHECK(core.flops == 2.0 * (1000.0 * 1001 / 2) * 3 * 2 * 128);
  // The engine-level shape knows which query heads share a K/V head: 3 per replicated one.
  CHECK(core.kv_heads == core.heads / 3);
  const auto& dec = op_named(P.decode.per_type[0], "attn.core");
  CHECK(dec.heads == P.decode_pass.seqs * 3);
  CHECK(dec.kv_heads == P.decode_pass.seqs);
  // End to end: TP16 on a Trn3 UltraServer runs (issue 15: it used to be refused) and warns.
  // (Ranks are chips under the plain stack; the Neuron stacks shard over 4 ranks per chip.)
  json w = {{"kind", "inference"}, {"model", "Llama-4-Scout-17B-16E-Instruct"}, {"parallelism", {{"tp", 16}}},
            {"inference", {{"batch", 4}, {"input_tokens", 2048}, {"output_tokens", 128}}}, {"stack", "plain"}};
  const workload::Result R = workload::evaluate(trnsim::parse_workload(w), hw::load_system("trn3-gen2-ultraserver"));
  bool warned = false;
  for (const auto& x : R.warnings)
    warned = warned || contains(x, "workload.parallelism.tp: 16 TP ranks do not divide the 40 attention heads; padded to 48 "
                                   "as Neuron does (3 per TP rank, 8 zero heads: +20% of their projection weights, FLOPs "
                                   "and attention work); its 8 shared heads are replicated to 16 (1 per TP rank)");
  CHECK(warned);
  CHECK(R.inference().tpot_s > 0);
}

TEST_CASE("every model of issue 15 runs on a Trn2 and a Trn3 UltraServer", "[model]") {
  struct Case {
    const char* model;
    int tp;
  };
  // tp 16 divides both scale-up domains (64 and 144 chips).
  const Case cases[] = {{"Llama-4-Scout-17B-16E-Instruct", 16},  {"Llama-4-Maverick-17B-128E-Instruct", 16},
                        {"Qwen3-Next-80B-A3B-Instruct", 4},      {"Qwen3.5-397B-A17B", 16},
                        {"Qwen3.5-27B", 4},                      {"GLM-4.5", 16},
                        {"GLM-4.5-Air", 8},                      {"Trinity-Mini", 4},
                        {"Trinity-Nano-Preview", 2},             {"granite-4.0-h-tiny", 4}};
  for (const char* system : {"trn2-ultraserver", "trn3-gen2-ultraserver"}) {
    const hw::System sys = hw::load_system(system);
    for (const auto& k : cases) {
      INFO(system << " " << k.model);
      json w = {{"kind", "inference"}, {"model", k.model}, {"parallelism", {{"tp", k.tp}}},
                {"inference", {{"batch", 8}, {"input_tokens", 8192}, {"output_tokens", 512}}}};
      const workload::Result R = workload::evaluate(trnsim::parse_workload(w), sys);
      CHECK(R.inference().ttft_s > 0);
      CHECK(R.inference().tpot_s > 0);
      CHECK(R.hbm_used_bytes <= R.hbm_capacity_bytes);
      for (const auto& x : R.warnings) CHECK(!contains(x, "unknown field"));
    }
  }
}

TEST_CASE("plan: each attention layer is priced at its own KV heads and head dims", "[model]") {
  // Gemma 4 31B at TP8: sliding layers (16 K/V heads of 256, split 2 per chip) and global
  // layers (4 K = V heads of 512, replicated to 1 per chip, one cached tensor).
  const ModelConfig m = import_hf_config(test_model::gemma4_31b(), "m", "gemma4");
  const plan::Context c = context(m, 8);
  const double d = 5376, kvb = 2;
  plan::Pass dec;
  dec.seqs = 4;
  dec.new_tokens = 1;
  dec.decode = true;
  dec.ctx_full = dec.pairs_full = 3000;
  dec.ctx_sliding = dec.pairs_sliding = 1024;
  const auto swa = plan::layer_ops(c, dec, m.layer_specs[0]);
  const auto global = plan::layer_ops(c, dec, m.layer_specs[5]);
  // Projections: q of 4 heads, then k and v of the chip's K/V heads (no v when K = V).
  CHECK(op_named(swa, "attn.qkv_proj").flops == 2 * 4 * d * (4 * 256 + 2 * 256 + 2 * 256));
  CHECK(op_named(global, "attn.qkv_proj").flops == 2 * 4 * d * (4 * 512 + 1 * 512));
  CHECK(op_named(global, "attn.o_proj").flops == 2 * 4 * (4 * 512 * d));
  // Decode reads the cache: every sequence's keys, K and V (sliding) or the one K = V tensor.
  const plan::Operator& cs = op_named(swa, "attn.core");
  const plan::Operator& cg = op_named(global, "attn.core");
  CHECK(cs.flops == 2 * 4 * 1024 * 4 * (256 + 256));
  CHECK(cg.flops == 2 * 4 * 3000 * 4 * (512 + 512));
  const double act_s = 4 * (4 * 256 + 2 * 256 + 2 * 256 + 4 * 256) * 2.0, act_g = 4 * (4 * 512 + 512 + 4 * 512) * 2.0;
  CHECK(cs.hbm_bytes == act_s + 4 * 1024 * (2 * 2 * 256) * kvb + 4 * (2 * 2 * 256) * kvb);
  CHECK(cg.hbm_bytes == act_g + 4 * 3000 * 512 * kvb + 4 * 512 * kvb);
  CHECK((cg.head_dim == 512 && cg.kv_heads == 4 * 1));
  // MiMo-V2-Flash: scores over the 192-wide Q/K heads, the sum over 128-wide V heads.
  const ModelConfig mm = import_hf_config(test_model::mimo_v2_flash(), "m", "mimo");
  const plan::Context cm = context(mm, 8);
  plan::Pass pre;
  pre.seqs = 1;
  pre.new_tokens = 100;
  pre.pairs_full = pre.pairs_sliding = 100 * 101 / 2.0;
  const auto mimo_ops = plan::layer_ops(cm, pre, mm.layer_specs[1]);
  const plan::Operator& core = op_named(mimo_ops, "attn.core");
  CHECK(core.flops == 2 * pre.pairs_sliding * 8 * (192 + 128));
  CHECK((core.head_dim == 192 && core.value_dim == 128));
  // Memory: each layer holds its own cache (bf16, batch 2 at 4096 + 64 tokens).
  const plan::Layout L = plan::make_layout(m, 1);
  const plan::InferencePlan P = plan::plan_inference(c, L, 2, 4096, 64);
  CHECK(memory_item(P.memory, "kv_cache") == 2 * (50 * 1024 * (2 * 2 * 256) + 10 * 4160 * 512) * kvb);
}

}  // namespace unit_model_plan

