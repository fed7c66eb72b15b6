// An independent derivation of what a transformer costs, written from the architecture,
// for the derived tests (tests/unit/test_derived_*.cpp): the numbers of a Hugging Face
// config.json (hidden, heads, KV heads, head dim, intermediate, experts, top-k, window,
// MLA ranks...) become parameter counts, KV-cache bytes and, for one layer and one pass,
// every operator's FLOPs, HBM bytes, kernel count and collective request. The tests compare
// these with what `trnsim::evaluate(Scenario)` reports (phases[].ops[] of report_to_json):
// a model that drifts from the architecture -- a KV cache read at half its bytes, tokens
// routed to k+1 experts, a TP all-reduce at the wrong dtype -- fails them.
//
// The derivation reads config.json keys itself (it does not use core/model's importer) and
// states every convention it shares with the model in a comment:
//  - a matmul reads its weights once and its input, writes its output (activation dtype);
//  - kernels per operator: one per matmul and attention core; two fused RMSNorm+residual
//    kernels per layer; two per expert matmul group (gate/up with SwiGLU, then down);
//  - embeddings, the LM head and the residual stream (what TP/PP collectives move) are BF16;
//  - MX formats carry one 8-bit E8M0 scale per 32 elements (OCP MX v1.0);
//  - routing is uniform: T tokens each choosing k of E experts reach E (1 - (1 - k/E)^T)
//    distinct experts in expectation (a given expert escapes one token with probability
//    C(E-1, k) / C(E, k) = 1 - k/E).
// Under a Neuron serving stack (Placement::ranks_per_chip > 1, moe "neuron"; the defaults
// are the plain stack's: ranks are chips, uniform routing) the derivation follows what the
// stack's sources describe instead:
//  - each chip runs ranks_per_chip logical NeuronCores as TP ranks (cores / LNC, N5): heads
//    shard over tp x ranks_per_chip ranks, query heads padded with zero heads to a multiple
//    of them; K/V heads split when the ranks divide them, replicated to one per rank when
//    the ranks are a multiple of them (REPLICATE_TO_TP_DEGREE, N8), else one per padded query
//    head; TP collectives run among all those ranks (also at tp = 1, inside one chip);
//  - NxD's ExpertMLPsV2 (N1): selective loading while T k / E is below the threshold (each
//    token reads its own k experts, a kernel pair per token), except in token generation
//    with EP; otherwise every local expert's weights once and every token through every
//    local expert -- or, in context encoding with T k of at least a block, the blockwise
//    kernel over ceil((T k - (E_local - 1)) / block) + E_local - 1 blocks of `block` tokens;
//    where the NKI kernel refuses the shapes (hidden size outside the stack's range or off its
//    multiple, the intermediate per rank off its multiple: N1 can_use_blockwise_matmul_nki)
//    the PyTorch loop runs the same blocks, fallback_kernels_per_block kernels each, and
//    where it takes them each block adds the stack's kernel_block_time to the kernel's time;
//  - context encoding runs each collective under the layer's work since its previous one
//    (the CC cores are asynchronous, N4): a collective of d after work w costs d - min(f d, w),
//    f the stack's context_encoding_collective_overlap (layer order: norms, attention, its
//    all-reduce, MLP or MoE, its collective).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "collective/collective.h"
#include "embedded.h"
#include "hw/system.h"
#include "model/llm.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"

namespace derived {

using trnsim::json;

// The derivation and the model may add in a different order: equal to 1e-12 relative.
inline Approx exact(double v) { return Approx(v).epsilon(1e-12).margin(1e-300); }

// ---- the architecture, from config.json ------------------------------------------------

struct Arch {
  std::string name, type;
  double d = 0, layers = 0, heads = 0, kv_heads = 0, head_dim = 0, f = 0, vocab = 0;
  bool tied = false, attn_bias = false, qk_norm = false, sinks = false;
  bool mla = false;
  double q_lora = 0, kv_lora = 0, nope = 0, rope = 0, vdim = 0;
  double E = 0, k = 0, fe = 0, shared_f = 0;  // shared_f: total width of the shared experts
  bool expert_bias = false, router_bias = false;
  double window = 0;
  std::vector<bool> moe, sliding;  // per layer
  double qk() const { return mla ? nope + rope : head_dim; }
  double v() const { return mla ? vdim : head_dim; }
};

inline double num(const json& c, const char* key, double def = 0) {
  auto it = c.find(key);
  return it == c.end() || it->is_null() ? def : it->get<double>();
}

inline Arch arch_of(const std::string& bundled) {
  const json c = trnsim::model::bundled_model_json(bundled, "test");
  Arch a;
  a.name = bundled;
  a.type = c.at("model_type").get<std::string>();
  a.d = num(c, "hidden_size");
  a.layers = num(c, "num_hidden_layers");
  a.heads = num(c, "num_attention_heads");
  a.kv_heads = num(c, "num_key_value_heads", a.heads);
  a.head_dim = num(c, "head_dim", a.d / a.heads);
  a.f = num(c, "intermediate_size");
  a.vocab = num(c, "vocab_size");
  a.tied = c.value("tie_word_embeddings", false);
  a.attn_bias = c.value("attention_bias", false);
  a.qk_norm = a.type == "qwen3" || a.type == "qwen3_moe";  // Qwen3: RMSNorm on q and k per head
  a.sinks = a.type == "gpt_oss";                          // one learned sink logit per head
  const int L = static_cast<int>(a.layers);
  a.moe.assign(L, false);
  a.sliding.assign(L, false);
  if (a.type == "deepseek_v3") {
    a.mla = true;
    a.q_lora = num(c, "q_lora_rank");
    a.kv_lora = num(c, "kv_lora_rank");
    a.nope = num(c, "qk_nope_head_dim");
    a.rope = num(c, "qk_rope_head_dim");
    a.vdim = num(c, "v_head_dim");
    a.E = num(c, "n_routed_experts");
    a.k = num(c, "num_experts_per_tok");
    a.fe = num(c, "moe_intermediate_size");
    a.shared_f = num(c, "n_shared_experts") * a.fe;
    a.router_bias = c.value("topk_method", "") == "noaux_tc";  // e_score_correction_bias
    const int first_dense = static_cast<int>(num(c, "first_k_dense_replace"));
    for (int i = 0; i < L; ++i) a.moe[i] = i >= first_dense;
  } else if (a.type == "gpt_oss") {
    a.E = num(c, "num_local_experts");
    a.k = num(c, "experts_per_token");
    a.fe = a.f;  // every layer is MoE; intermediate_size is one expert's width
    a.expert_bias = a.router_bias = true;
    a.window = num(c, "sliding_window");
    for (int i = 0; i < L; ++i) {
      a.moe[i] = true;
      a.sliding[i] = c.at("layer_types").at(i).get<std::string>() == "sliding_attention";
    }
  } else if (a.type == "qwen3_moe") {
    a.E = num(c, "num_experts");
    a.k = num(c, "num_experts_per_tok");
    a.fe = num(c, "moe_intermediate_size");
    for (int i = 0; i < L; ++i) a.moe[i] = true;  // decoder_sparse_step 1, no mlp_only_layers
  }
  return a;
}

// ---- parameters (elements) -------------------------------------------------------------

inline double attention_params(const Arch& a) {
  if (a.mla) {
    return a.d * a.q_lora + a.q_lora * a.heads * a.qk()    // q_a, q_b (low-rank query)
           + a.d * (a.kv_lora + a.rope)                     // kv_a: latent + decoupled RoPE key
           + a.kv_lora * a.heads * (a.nope + a.vdim)        // kv_b: latent -> per-head K (nope), V
           + a.heads * a.vdim * a.d;                        // o
  }
  const double q = a.heads * a.head_dim, kv = a.kv_heads * a.head_dim;
  double p = a.d * q + 2 * a.d * kv + q * a.d;
  if (a.attn_bias) p += q + 2 * kv + a.d;
  if (a.sinks) p += a.heads;
  return p;
}
inline double norm_params(const Arch& a) {
  return 2 * a.d + (a.qk_norm ? 2 * a.head_dim : 0) + (a.mla ? a.q_lora + a.kv_lora : 0);
}
inline double expert_params(const Arch& a) { return 3 * a.d * a.fe + (a.expert_bias ? 2 * a.fe + a.d : 0); }
inline double router_params(const Arch& a) { return a.E * a.d + (a.router_bias ? a.E : 0); }
inline double shared_params(const Arch& a) { return 3 * a.d * a.shared_f; }
inline double dense_mlp_params(const Arch& a) { return 3 * a.d * a.f; }

struct Params {
  double total = 0, active = 0;
};
inline Params params_of(const Arch& a) {
  Params p;
  const double embed = a.vocab * a.d;
  p.total = embed * (a.tied ? 1 : 2) + a.d;  // embedding, LM head, final norm
  p.active = embed + a.d;                    // the LM head multiplies every token; the lookup does not
  for (int i = 0; i < a.layers; ++i) {
    const double base = attention_params(a) + norm_params(a);
    if (a.moe[i]) {
      p.total += base + a.E * expert_params(a) + shared_params(a) + router_params(a);
      p.active += base + a.k * expert_params(a) + shared_params(a) + router_params(a);
    } else {
      p.total += base + dense_mlp_params(a);
      p.active += base + dense_mlp_params(a);
    }
  }
  return p;
}

// Elements of KV cache per token and layer: K and V of every KV head (GQA), or the
// compressed latent plus the shared RoPE key (MLA).
inline double kv_elems(const Arch& a) { return a.mla ? a.kv_lora + a.rope : 2 * a.kv_heads * a.head_dim; }
inline double kv_bytes_per_token(const Arch& a, double kv_bytes, double context = 1) {
  double t = 0;
  for (int i = 0; i < a.layers; ++i) t += (a.sliding[i] ? std::min(context, a.window) : context) * kv_elems(a) * kv_bytes;
  return t / context;
}

// Bytes per element of a precision: OCP MX v1.0 adds one 8-bit scale per 32 elements.
inline double bytes_of(const std::string& dt) {
  if (dt == "bf16") return 2;
  if (dt == "fp8") return 1;
  if (dt == "mxfp8") return 1 + 1.0 / 32;
  if (dt == "mxfp4") return 0.5 + 1.0 / 32;
  FAIL("unknown dtype " << dt);
  return 0;
}

// ---- one layer's operators for one pass -------------------------------------------------

struct Placement {
  double tp = 1, pp = 1, dp = 1, ep = 1;
  double redundant = 0;  // extra routed-expert slots (EPLB's copies): E + redundant split over ep
  std::string weights = "bf16", attn_weights = "bf16", act = "bf16", kv = "bf16";  // as resolved on the chip
  // The serving stack's execution (header): TP ranks per chip, expert strategy and its numbers.
  double ranks_per_chip = 1;
  std::string moe = "uniform";
  double selective_threshold = 1, block = 512;
  double kernel_min_hidden = 0, kernel_max_hidden = 1e30, kernel_hidden_multiple = 1, kernel_intermediate_multiple = 1;
  double fallback_kernels_per_block = 6;
  double kernel_block_s = 0;  // the NKI kernel's fixed time per block
  // How tokens reach other ranks' experts: "all-to-all", or "allgather-reducescatter" (TensorRT-LLM's
  // attention data parallelism: gather the EP group's tokens, reduce-scatter the outputs back).
  std::string dispatch = "all-to-all";
  double weight_only_rate = 1;  // a weight-only stack's share of the matmul rate for the MLP weights' matmuls
  double tp_ranks() const { return tp * ranks_per_chip; }
};

// Query heads on one chip: padded to a multiple of the TP ranks, each chip holding its ranks'.
inline double q_heads_chip(const Arch& a, const Placement& p) {
  const double ranks = p.tp_ranks();
  return std::ceil(a.heads / ranks) * ranks / p.tp;
}
// K/V heads on one chip (GQA): split, replicated to one per rank, or one per padded query head.
inline double kv_heads_chip(const Arch& a, const Placement& p) {
  const double ranks = p.tp_ranks(), kv = a.kv_heads;
  if (kv == a.heads) return q_heads_chip(a, p);                  // MHA pads with the queries
  if (std::fmod(kv, ranks) == 0) return kv / p.tp;               // split
  if (std::fmod(ranks, kv) == 0) return p.ranks_per_chip;        // one copy per rank
  return q_heads_chip(a, p);                                     // converted to MHA
}

struct Pass {
  double seqs = 1, new_tokens = 1;   // sequences, new tokens per sequence
  double pairs_full = 0, pairs_sliding = 0;  // attention (query, key) pairs per sequence
  double ctx_full = 0, ctx_sliding = 0;      // cached tokens read per sequence (decode)
  bool write_kv = true;
  double T() const { return seqs * new_tokens; }
};

// Causal (query, key) pairs of S tokens, with a window W (0: none).
inline double causal_pairs(double S, double W) {
  double pairs = 0;
  for (double i = 1; i <= S; ++i) pairs += (W > 0 ? std::min(i, W) : i);
  return pairs;
}
// Mean KV tokens a decode step sees over the n steps after a prompt of S: step i attends
// to S + i tokens (capped at the window).
inline double mean_decode_context(double S, double n, double W) {
  double t = 0;
  for (double i = 1; i <= n; ++i) t += W > 0 ? std::min(S + i, W) : S + i;
  return t / n;
}

struct Op {
  std::string name;
  std::string dtype;       // tensor-engine dtype ("" for memory kernels and collectives)
  double flops = 0, hbm = 0, kernels = 0;
  double fixed_s = 0;      // fixed time beyond the kernels' overhead (the MoE kernel's blocks)
  std::string coll;        // collective op ("" for kernels)
  double coll_bytes = 0, ranks = 0, stride = 1, ranks_per_chip = 1;
  // The shape an engine-level pricer times: gemms GEMMs of m x k -> n; attention of seq_q
  // queries over seq_kv keys of head_dim (values of value_dim, 0: head_dim), `heads` times,
  // causal or not.
  double m = 0, k = 0, n = 0, gemms = 1;
  double seq_q = 0, seq_kv = 0, head_dim = 0, heads = 0, value_dim = 0;
  bool causal = false;
  double rate = 1;  // share of the dtype's matmul rate (a weight-only kernel's)
};

inline Op matmul(const std::string& name, const Placement& p, double T, double in, double out, double w,
                 double w_bytes, const std::string& dtype) {
  Op o{name, dtype, 2 * T * w, w * w_bytes + T * (in + out) * bytes_of(p.act), 1, 0, "", 0, 0, 1};
  o.m = T, o.k = in, o.n = out;
  return o;
}
inline Op kernel(const std::string& name, double bytes, double kernels) { return {name, "", 0, bytes, kernels, 0, "", 0, 0, 1}; }
inline Op coll(const std::string& name, const std::string& op, double bytes, double ranks, double stride,
               double ranks_per_chip = 1) {
  return {name, "", 0, 0, 0, 0, op, bytes, ranks, stride, ranks_per_chip};
}

constexpr double kResidualBytes = 2;  // BF16 residual stream

inline std::vector<Op> layer_ops(const Arch& a, const Placement& p, const Pass& s, bool moe, bool sliding) {
  std::vector<Op> ops;
  const double T = s.T(), d = a.d, ab = bytes_of(p.act), awb = bytes_of(p.attn_weights), wb = bytes_of(p.weights);
  const double kvb = bytes_of(p.kv), hc = q_heads_chip(a, p), R = p.ranks_per_chip, ranks = p.tp_ranks();
  const double pairs = sliding ? s.pairs_sliding : s.pairs_full, ctx = sliding ? s.ctx_sliding : s.ctx_full;
  const bool decode = ctx > 0;
  const std::string& dt = p.act;
  // Pre-attention and pre-MLP RMSNorm, each fused with its residual add: read and write the hidden state.
  ops.push_back(kernel("layer.norms_residual", 2 * 2 * T * d * kResidualBytes, 2));
  if (a.mla) {
    const double lat = a.kv_lora, rope = a.rope, qk = a.qk(), v = a.v();
    ops.push_back(matmul("attn.q_proj", p, T, d, hc * qk, d * a.q_lora + a.q_lora * hc * qk, awb, dt));
    ops.push_back(matmul("attn.kv_a_proj", p, T, d, lat + rope, d * (lat + rope), awb, dt));  // replicated
    ops.push_back(matmul("attn.kv_b_proj", p, T, lat, hc * (a.nope + v), lat * hc * (a.nope + v), awb, dt));
    Op core{"attn.core", dt, 0, 0, 1, 0, "", 0, 0, 1};
    if (decode) {  // absorbed: scores over latent + RoPE key, values over the latent; cache read once
      core.flops = 2 * s.seqs * s.new_tokens * ctx * hc * ((lat + rope) + lat);
      core.hbm = s.seqs * ctx * (lat + rope) * kvb + T * hc * ((lat + rope) + lat) * ab;
    } else {       // expanded: q.k over qk dims, p.v over v dims; read q, k, v, write o
      core.flops = 2 * s.seqs * pairs * hc * (qk + v);
      core.hbm = T * hc * (2 * qk + 2 * v) * ab;
    }
    if (s.write_kv) core.hbm += T * (lat + rope) * kvb;
    core.seq_q = s.new_tokens, core.seq_kv = decode ? ctx : s.new_tokens, core.heads = s.seqs * hc, core.causal = !decode;
    core.head_dim = decode ? lat + rope : qk;
    core.value_dim = decode ? lat : v;  // scores over latent + RoPE key, values over the latent (or per-head V)
    ops.push_back(core);
    ops.push_back(matmul("attn.o_proj", p, T, hc * v, d, hc * v * d, awb, dt));
  } else {
    const double hd = a.head_dim, q = hc * hd, kv = kv_heads_chip(a, p) * hd;
    ops.push_back(matmul("attn.qkv_proj", p, T, d, q + 2 * kv, d * (q + 2 * kv) + (a.attn_bias ? q + 2 * kv : 0), awb, dt));
    Op core{"attn.core", dt, 0, 0, 1, 0, "", 0, 0, 1};
    // q.k and p.v, 2 FLOPs per multiply-add, head_dim each, for every (query, key) pair.
    core.flops = 2 * s.seqs * (decode ? s.new_tokens * ctx : pairs) * hc * 2 * hd;
    core.hbm = T * (q + 2 * kv + q) * ab;                      // read q, k, v of the new tokens, write o
    if (decode) core.hbm += s.seqs * ctx * 2 * kv * kvb;      // read the cached K and V
    if (s.write_kv) core.hbm += T * 2 * kv * kvb;             // append the new K and V
    core.seq_q = s.new_tokens, core.seq_kv = decode ? ctx : s.new_tokens, core.heads = s.seqs * hc, core.causal = !decode;
    core.head_dim = hd;
    ops.push_back(core);
    ops.push_back(matmul("attn.o_proj", p, T, q, d, q * d + (a.attn_bias ? d : 0), awb, dt));
  }
  // Each TP rank all-reduces the whole BF16 residual stream of the pass's tokens.
  if (ranks > 1) ops.push_back(coll("attn.all_reduce", "all-reduce", T * d * kResidualBytes, ranks, 1, R));
  if (!moe) {
    const double fc = a.f / p.tp;
    ops.push_back(matmul("mlp.gate_up_proj", p, T, d, 2 * fc, d * 2 * fc, wb, dt));
    ops.back().rate = p.weight_only_rate;
    ops.push_back(matmul("mlp.down_proj", p, T, fc, d, fc * d, wb, dt));
    ops.back().rate = p.weight_only_rate;
    if (ranks > 1) ops.push_back(coll("mlp.all_reduce", "all-reduce", T * d * kResidualBytes, ranks, 1, R));
    return ops;
  }
  // The tokens spread evenly over E + redundant expert slots (a balancer's copies).
  const double E = a.E + p.redundant, k = a.k, etp = p.ep <= p.tp ? p.tp / p.ep : 1;
  ops.push_back(matmul("moe.router", p, T, d, a.E, router_params(a), awb, dt));  // replicated, attention precision
  // The ep ranks' tokens meet in the experts: a replica's T when ep <= tp, ep/tp replicas' otherwise.
  const double group = T * std::max(1.0, p.ep / p.tp);
  const bool gather = p.dispatch == "allgather-reducescatter";
  // The all-to-alls run among the ep chips' ranks, each rank sending its share of the chip's.
  if (p.ep > 1 && !gather) ops.push_back(coll("moe.dispatch", "all-to-all", T / p.tp * k * d * ab / R, p.ep * R, 1, R));
  // Gathering: every rank receives the whole group's tokens (nccl-tests counts the gathered buffer).
  if (p.ep > p.tp && gather) ops.push_back(coll("moe.dispatch", "all-gather", group * d * ab, p.ep * R, 1, R));
  {
    const double local = E / p.ep;
    // Expert weight slices read, token x expert products computed, GEMMs and tokens per GEMM.
    double reads, products, gemms, m, kernels = 2, fixed = 0;
    if (p.moe == "uniform") {
      products = group * k / p.ep;                      // token-expert pairs on this chip
      reads = local * (1 - std::pow(1 - k / E, group));  // distinct local experts hit
      gemms = std::max(1.0, reads), m = products / gemms;
    } else if (group * k / E < p.selective_threshold && !(s.new_tokens == 1 && p.ep > 1)) {
      reads = products = gemms = group * k * local / E;  // each token its own k experts
      m = 1, kernels = 2 * group;
    } else if (s.new_tokens == 1 || group * k < p.block) {
      reads = gemms = local, products = group * local, m = group;  // every token, every local expert
    } else {
      const double blocks = std::ceil((group * k - (local - 1)) / p.block) + local - 1;
      reads = gemms = blocks, products = blocks * p.block, m = p.block;  // whole blocks, one expert each
      const double per_rank = a.fe / (etp * R);  // one rank's share of an expert's intermediate
      const bool nki = d >= p.kernel_min_hidden && d <= p.kernel_max_hidden && std::fmod(d, p.kernel_hidden_multiple) == 0 &&
                       std::fmod(per_rank, p.kernel_intermediate_multiple) == 0;
      if (!nki) kernels = blocks * p.fallback_kernels_per_block;
      else fixed = blocks * p.kernel_block_s;
    }
    Op x{"moe.experts", dt, 2 * products * expert_params(a) / etp, 0, kernels, fixed, "", 0, 0, 1};
    x.rate = p.weight_only_rate;
    // Weights of each slice read once; per product read x (d), write h (fe), read h, write y (d).
    x.hbm = reads * expert_params(a) / etp * wb + products * (2 * d + 2 * a.fe / etp) * ab;
    x.gemms = gemms, x.m = m, x.k = d, x.n = 3 * a.fe / etp;
    ops.push_back(x);
  }
  if (a.shared_f > 0) {
    const double sf = a.shared_f / p.tp;  // one fused kernel over the shared experts' three projections
    ops.push_back(matmul("moe.shared_experts", p, T, d, 3 * sf, 3 * d * sf, wb, dt));
    ops.back().rate = p.weight_only_rate;
  }
  if (p.ep > p.tp && gather) {  // the group's BF16 outputs summed back to the ranks whose tokens they are
    ops.push_back(coll("moe.combine", "reduce-scatter", group * d * kResidualBytes, p.ep * R, 1, R));
  } else if (p.ep > 1 && !gather) {
    ops.push_back(coll("moe.combine", "all-to-all", T / p.tp * k * d * kResidualBytes / R, p.ep * R, 1, R));
    if (ranks > 1) ops.push_back(coll("moe.all_gather", "all-gather", T * d * kResidualBytes, ranks, 1, R));
  } else if (ranks > 1) {
    ops.push_back(coll("moe.all_reduce", "all-reduce", T * d * kResidualBytes, ranks, 1, R));
  }
  return ops;
}

// First and last pipeline stage: the embedding lookup (read the BF16 row, write the hidden
// state), the final norm and the BF16 LM head of the tokens whose logits are needed.
inline std::vector<Op> first_stage_ops(const Arch& a, const Pass& s) {
  return {kernel("embedding", s.T() * a.d * (2 + kResidualBytes), 1)};
}
inline std::vector<Op> last_stage_ops(const Arch& a, const Placement& p, double logit_tokens) {
  const double w = a.vocab * a.d / p.tp;
  return {kernel("final_norm", 2 * logit_tokens * a.d * kResidualBytes, 1),
          matmul("lm_head", p, logit_tokens, a.d, a.vocab / p.tp, w, 2, "bf16")};
}

// ---- the built-in data files, read as JSON (not through core/hw's loader) -----------------

inline json data_file(const std::string& key) { return json::parse(*trnsim::find_embedded(key)); }

// The system file of a built-in system name ("trn2-ultraserver", "trn2-ultracluster:4+alt":
// a cluster's is its UltraServer's); a chip alone (null) has none.
inline json system_data(const std::string& system_name) {
  std::string base = trnsim::hw::parse_system_name(system_name).base;
  if (trnsim::find_embedded("data/clusters/" + base + ".json"))
    base = data_file("data/clusters/" + base + ".json").at("ultraserver").get<std::string>();
  return trnsim::find_embedded("data/systems/" + base + ".json") ? data_file("data/systems/" + base + ".json") : json();
}

// The chip file of a built-in system name.
inline json chip_data(const std::string& system_name) {
  const json sys = system_data(system_name);
  const std::string chip = sys.is_null() ? trnsim::hw::parse_system_name(system_name).base : sys.at("chip").get<std::string>();
  return data_file("data/chips/" + chip + ".json");
}

// ---- evaluating a scenario and reading the report ----------------------------------------

struct Run {
  json result;          // report_to_json(...)["primary"]["result"]
  trnsim::hw::System system;
  json scenario;        // canonical scenario JSON
};

inline Run evaluate(const json& workload, const std::string& system) {
  json s = {{"version", 1}, {"system", system}, {"compare_system", ""}, {"workload", workload}};
  trnsim::Report rep = trnsim::evaluate(trnsim::scenario_from_json(s));
  json j = trnsim::report_to_json(rep);
  return {j.at("primary").at("result"), rep.primary.system, j.at("scenario")};
}

inline const json& phase(const json& result, const std::string& name) {
  for (const auto& p : result.at("phases"))
    if (p.at("name") == name) return p;
  FAIL("no phase " << name);
  return result;
}

// The operator `name` of a phase (of one layer type when given); exactly one must match.
inline const json& op(const json& ph, const std::string& name, const std::string& layer_type = "") {
  const json* found = nullptr;
  int n = 0;
  for (const auto& o : ph.at("ops")) {
    if (o.at("name") != name) continue;
    if (!layer_type.empty() && (o.at("layer_type").is_null() || o.at("layer_type") != layer_type)) continue;
    found = &o;
    ++n;
  }
  if (n != 1) FAIL(n << " operators named " << name << " (" << layer_type << ") in phase " << ph.at("name"));
  return *found;
}
inline bool has_op(const json& ph, const std::string& name) {
  for (const auto& o : ph.at("ops"))
    if (o.at("name") == name) return true;
  return false;
}

// The efficiencies a scenario gets when it names none: the field table's defaults (some are
// calibrated on PERF.md rows and move when the calibration does; the tests follow the table,
// never a typed copy of it).
inline double field_default(const std::string& path) { return trnsim::find_field(path).default_value.get<double>(); }
struct Efficiency {
  double compute = field_default("workload.efficiency.compute");
  double attention = field_default("workload.efficiency.attention");
  double hbm = field_default("workload.efficiency.hbm");
  double kernel_overhead_s = field_default("workload.efficiency.kernel_overhead_s");
};

// The collective request in a report's detail text: "all-reduce, 8 chips (rdh)".
inline std::string detail_op(const json& o) {
  std::string d = o.at("detail");
  return d.substr(0, d.find(','));
}
inline double detail_ranks(const json& o) {
  std::string d = o.at("detail");
  auto c = d.find(", ");
  return std::stod(d.substr(c + 2));
}

// The tensor engine's current ramp (S15, the chip file): a kernel starts cold at a fraction
// f0 of the full rate, rising linearly to full over R seconds; work done by time tau, in
// full-rate seconds, is the integral of the rate: f0 tau + (1 - f0) tau^2 / (2 R) until R,
// then R (1 + f0) / 2 + (tau - R). Inverting it gives the time of `full_s` of work.
inline double warmed(const trnsim::hw::TensorEngineSpec& te, double full_s) {
  const double f0 = te.warmup_start_fraction, R = te.warmup_ramp_s;
  if (full_s <= 0 || R <= 0 || f0 >= 1) return full_s;
  const double during_ramp = R * (1 + f0) / 2;
  if (full_s >= during_ramp) return R + (full_s - during_ramp);
  // (1 - f0)/(2R) tau^2 + f0 tau - full_s = 0, the positive root.
  const double a = (1 - f0) / (2 * R);
  return (-f0 + std::sqrt(f0 * f0 + 4 * a * full_s)) / (2 * a);
}

// Full-rate seconds of work a cold kernel does in tau seconds (the integral above).
inline double work_in(const trnsim::hw::TensorEngineSpec& te, double tau) {
  const double f0 = te.warmup_start_fraction, R = te.warmup_ramp_s;
  if (tau <= 0 || R <= 0 || f0 >= 1) return tau;
  if (tau >= R) return R * (1 + f0) / 2 + (tau - R);
  return f0 * tau + (1 - f0) * tau * tau / (2 * R);
}
// The compute time of `kernels` kernels whose warmed compute time is compute_s, when the
// full-rate work is scaled by `factor` (an efficiency divided by it).
inline double rescaled_compute(const trnsim::hw::TensorEngineSpec& te, double compute_s, double kernels, double factor) {
  if (compute_s <= 0) return 0;
  const double k = std::max(1.0, kernels);
  return k * warmed(te, factor * work_in(te, compute_s / k));
}

// Checks a reported operator against the derivation: FLOPs, HBM bytes, kernels, collective
// request, and its time from the roofline / the collective model with those numbers.
inline void check_op(const json& o, const Op& want, const trnsim::hw::System& sys, const Efficiency& eff = {}) {
  INFO("operator " << want.name << " (" << o.at("layer_type").dump() << ")");
  if (!want.coll.empty()) {
    CHECK(o.at("category") == "fabric");
    CHECK(detail_op(o) == want.coll);
    CHECK(detail_ranks(o) == want.ranks);
    CHECK(o.at("fabric_bytes").get<double>() == exact(want.coll_bytes));
    CHECK(o.at("flops").get<double>() == 0);
    CHECK(o.at("hbm_bytes").get<double>() == 0);
    trnsim::collective::Request r;
    r.op = want.coll;
    r.bytes = want.coll_bytes;
    r.ranks = static_cast<int>(want.ranks);
    r.stride = static_cast<int>(want.stride);
    r.ranks_per_chip = static_cast<int>(want.ranks_per_chip);
    CHECK(o.at("time_s").get<double>() == exact(trnsim::collective::run(sys, r).time_s));
    CHECK(o.at("overhead_s").get<double>() == 0);
    return;
  }
  CHECK(o.at("flops").get<double>() == exact(want.flops));
  CHECK(o.at("hbm_bytes").get<double>() == exact(want.hbm));
  CHECK(o.at("fabric_bytes").get<double>() == 0);
  CHECK((o.at("overhead_s").get<double>() - want.fixed_s) / eff.kernel_overhead_s == exact(want.kernels));
  const double bw = sys.chip.hbm_bandwidth_bytes_per_s * eff.hbm;
  CHECK(o.at("memory_s").get<double>() == exact(want.hbm / bw));
  double compute = 0;
  if (want.flops > 0) {
    CHECK(o.at("detail").get<std::string>().rfind(want.dtype + " ", 0) == 0);
    const bool attention = want.name == "attn.core" || want.name.rfind("attn.core.", 0) == 0;
    const double full = want.flops / (sys.chip.peak(want.dtype) * (attention ? eff.attention : eff.compute) * want.rate);
    const double kernels = std::max(1.0, want.kernels);
    // The tensor engine's warm-up ramp is NeuronCore data; a chip without the block (a GPU) runs at
    // its rate from the first cycle.
    compute = kernels * (sys.chip.neuroncore ? warmed(sys.chip.neuroncore->core.tensor, full / kernels) : full / kernels);
  }
  CHECK(o.at("compute_s").get<double>() == exact(compute));
  CHECK(o.at("time_s").get<double>() ==
        exact(std::max(compute, want.hbm / bw) + want.kernels * eff.kernel_overhead_s + want.fixed_s));
}

// Layer types ("dense/full", "moe/sliding", ...) with their layer counts.
inline std::map<std::string, double> layer_types(const Arch& a) {
  std::map<std::string, double> t;
  for (int i = 0; i < a.layers; ++i) t[std::string(a.moe[i] ? "moe" : "dense") + "/" + (a.sliding[i] ? "sliding" : "full")] += 1;
  return t;
}

// Collective time a layer's operators (in order) hide under their work when each collective
// of d after work w since the layer's previous collective costs d - min(f d, w).
inline double hidden_in_layer(const std::vector<std::pair<bool, double>>& collective_and_time, double f) {
  double hidden = 0, work = 0;
  for (auto [is_coll, t] : collective_and_time) {
    if (is_coll) hidden += std::min(f * t, work), work = 0;
    else work += t;
  }
  return hidden;
}

// Every operator of a phase of one pass (pp = 1: one stage) against the derivation, and
// nothing else in the phase; returns the derived pass time: the operators' sum (the
// phase's time) less the collective time hidden under compute at overlap f.
inline double check_pass(const json& ph, const Arch& a, const Placement& p, const Pass& s, double logit_tokens,
                         const trnsim::hw::System& sys, const Efficiency& eff = {}, double f = 0) {
  double total = 0, hidden = 0;
  std::size_t matched = 0;
  auto one = [&](const Op& want, const std::string& type, double count) {
    const json& o = op(ph, want.name, type);
    CHECK(o.at("count").get<double>() == count);
    check_op(o, want, sys, eff);
    total += count * o.at("time_s").get<double>();
    ++matched;
    return o.at("time_s").get<double>();
  };
  for (const auto& w : first_stage_ops(a, s)) one(w, "", 1);
  for (const auto& [type, count] : layer_types(a)) {
    std::vector<std::pair<bool, double>> layer;
    for (const auto& w : layer_ops(a, p, s, type.rfind("moe", 0) == 0, type.find("sliding") != std::string::npos))
      layer.push_back({!w.coll.empty(), one(w, type, count)});
    hidden += count * hidden_in_layer(layer, f);
  }
  for (const auto& w : last_stage_ops(a, p, logit_tokens)) one(w, "", 1);
  CHECK(ph.at("ops").size() == matched);
  CHECK(ph.at("time_s").get<double>() == exact(total));
  return total - hidden;
}

inline double memory_item(const json& result, const std::string& name) {
  return result.at("memory_per_chip").at("items").at(name).get<double>();
}

// ---- inference: a whole scenario (pp = 1) -------------------------------------------------

struct Inference {
  double batch, input, output;
  double prefill_batch = 1;  // prompts per prefill pass
};

// The derivation above is the architecture's plain formulas: ranks are chips, heads shard
// over tp, routing is uniform, nothing overlaps. That is the "plain" serving stack, set
// explicitly (the default stack, vllm-neuron, runs 4 logical NeuronCores per chip as TP
// ranks, NxD's expert strategy and overlapped context-encoding collectives: checked against
// their own derivation in test_derived_neuron.cpp).
inline json inference_workload(const std::string& model, const Placement& p, const Inference& in) {
  json w = {{"model", model},
          {"stack", "plain"},
          {"precision", {{"weights", p.weights}, {"attention_weights", p.attn_weights}, {"activations", p.act}, {"kv_cache", p.kv}}},
          {"parallelism", {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"ep", p.ep}}},
          {"inference", {{"batch", in.batch}, {"input_tokens", in.input}, {"output_tokens", in.output}}}};
  if (p.redundant > 0) w["parallelism"]["redundant_experts"] = p.redundant;
  if (in.prefill_batch != 1) w["inference"]["prefill_batch"] = in.prefill_batch;
  return w;
}

inline Pass prefill_pass(const Arch& a, double S, double seqs = 1) {
  Pass s;
  s.seqs = seqs;
  s.new_tokens = S;
  s.pairs_full = causal_pairs(S, 0);
  s.pairs_sliding = causal_pairs(S, a.window);
  return s;
}

inline Pass decode_pass(const Arch& a, const Inference& in, double seqs) {
  Pass s;
  s.seqs = seqs;
  s.new_tokens = 1;
  s.ctx_full = s.pairs_full = mean_decode_context(in.input, in.output - 1, 0);
  s.ctx_sliding = s.pairs_sliding = mean_decode_context(in.input, in.output - 1, a.window);
  return s;
}

// Attention weights on one chip: heads (and KV heads, replicated when tp exceeds them) split
// over tp; MLA's down-projections (q_a, kv_a) replicated on every TP rank.
inline double attention_params_chip(const Arch& a, const Placement& p) {
  const double hc = q_heads_chip(a, p);
  if (a.mla)
    return a.d * a.q_lora + a.q_lora * hc * a.qk() + a.d * (a.kv_lora + a.rope) + a.kv_lora * hc * (a.nope + a.vdim) +
           hc * a.vdim * a.d;
  const double q = hc * a.head_dim, kv = kv_heads_chip(a, p) * a.head_dim;
  return a.d * (q + 2 * kv) + q * a.d + (a.attn_bias ? q + 2 * kv + a.d : 0) + (a.sinks ? hc : 0);
}

// Weights one chip holds with pp = 1: every layer's shard (attention over tp, a dense MLP over
// tp, E/ep experts each split over tp/ep ranks when ep <= tp, shared experts over tp, the
// router and norms replicated), the embedding and LM-head shards in BF16. The model leaves
// out the final norm's `hidden` weights (see the [!shouldfail] case in test_derived_dense).
inline double held_weight_bytes(const Arch& a, const Placement& p) {
  const double etp = p.ep <= p.tp ? p.tp / p.ep : 1;
  // Embedding and LM head (one matrix when tied), and the final norm's BF16 weights.
  double bytes = a.vocab * a.d / p.tp * 2 * (a.tied ? 1 : 2) + a.d * 2;
  for (int i = 0; i < a.layers; ++i) {
    bytes += attention_params_chip(a, p) * bytes_of(p.attn_weights) + norm_params(a) * 2;
    if (a.moe[i])
      bytes += ((a.E + p.redundant) / p.ep * expert_params(a) / etp + shared_params(a) / p.tp) * bytes_of(p.weights) +
               router_params(a) * bytes_of(p.attn_weights);
    else
      bytes += dense_mlp_params(a) / p.tp * bytes_of(p.weights);
  }
  return bytes;
}

// KV-cache elements per token and layer on one chip: the chip's KV heads, or MLA's latent
// (replicated on every TP rank).
inline double kv_elems_chip(const Arch& a, const Placement& p) {
  return a.mla ? a.kv_lora + a.rope : 2 * kv_heads_chip(a, p) * a.head_dim;
}

// `asked` is the scenario's placement and precisions; `p` what runs on the chip (the same
// unless a precision falls back).
// `stack` (default plain) and `overlap`: its context-encoding collective overlap;
// `decode_overlap` its token-generation one; `eff` the efficiencies the chip runs at (a GPU's
// execution block: its achieved rates over its peaks).
inline Run check_inference(const Arch& a, const Placement& asked, const Inference& in, const std::string& system,
                     const Placement* resolved = nullptr, const std::string& stack = "plain", double overlap = 0,
                     double decode_overlap = 0, const Efficiency& eff = {}) {
  const Placement& p = resolved ? *resolved : asked;
  json w = inference_workload(a.name, asked, in);
  w["stack"] = stack;
  Run r = evaluate(w, system);
  INFO(a.name << " tp" << p.tp << " on " << system);
  const json& res = r.result;
  CHECK(res.at("precision").at("matmul") == p.act);
  CHECK(res.at("precision").at("weights") == p.weights);
  CHECK(res.at("precision").at("attention_weights") == p.attn_weights);
  CHECK(res.at("precision").at("kv_cache") == p.kv);
  const double pb = in.prefill_batch;
  const double ttft = check_pass(phase(res, "prefill"), a, p, prefill_pass(a, in.input, pb), pb, r.system, eff, overlap);
  const double tpot =
      check_pass(phase(res, "decode"), a, p, decode_pass(a, in, in.batch), in.batch, r.system, eff, decode_overlap);
  const json& inf = res.at("inference");
  CHECK(inf.at("ttft_s").get<double>() == exact(ttft));
  CHECK(inf.at("tpot_s").get<double>() == exact(tpot));
  // Continuous batching: a request waits for its own prefill and the other streams' (each
  // stalls decode once), then output - 1 decode steps.
  // A prefill batch of pb prompts: batch / pb prefill passes.
  const double latency = in.batch / pb * ttft + (in.output - 1) * tpot;
  CHECK(inf.at("request_latency_s").get<double>() == exact(latency));
  CHECK(inf.at("decode_tokens_per_s_per_replica").get<double>() == exact(in.batch / tpot));
  const double per_chip = in.batch * in.output / latency / (p.tp * p.pp);
  CHECK(inf.at("output_tokens_per_s").at("per_chip").get<double>() == exact(per_chip));
  CHECK(inf.at("output_tokens_per_s").at("per_server").get<double>() == exact(per_chip * r.system.chips_per_server));
  CHECK(inf.at("output_tokens_per_s").at("per_system").get<double>() == exact(per_chip * r.system.chips));
  // The disaggregated pools: back-to-back prefill passes and decode steps, per server.
  const double per_server = r.system.chips_per_server / (p.tp * p.pp);
  CHECK(inf.at("pools").at("prefill_tokens_per_s_per_server").get<double>() == exact(pb * in.input / ttft * per_server));
  CHECK(inf.at("pools").at("decode_tokens_per_s_per_server").get<double>() == exact(in.batch / tpot * per_server));
  // Bytes held per chip: every stream's KV cache at its full length (a sliding layer keeps
  // its window), the weights, one layer's prefill working set, the runtime reserve.
  double kv_tokens = 0;
  for (int i = 0; i < a.layers; ++i) kv_tokens += a.sliding[i] ? std::min(in.input + in.output, a.window) : in.input + in.output;
  CHECK(memory_item(res, "kv_cache") == exact(in.batch * kv_tokens * kv_elems_chip(a, p) * bytes_of(p.kv)));
  CHECK(memory_item(res, "weights") == exact(held_weight_bytes(a, p)));
  // The working set: the hidden state in and out, and the wider of the attention
  // intermediates (q, o and the chip's k, v; MLA: q, k, v, o per head) and the MLP's
  // (gate, up, down of the dense MLP or of the k experts a token uses).
  const double hc = q_heads_chip(a, p);
  const double attn_w = a.mla ? hc * (2 * a.qk() + 2 * a.vdim) : 2 * hc * a.head_dim + 2 * kv_heads_chip(a, p) * a.head_dim;
  double mlp_w = 0;
  for (int i = 0; i < a.layers; ++i) mlp_w = std::max(mlp_w, a.moe[i] ? 3 * a.k * a.fe / p.tp : 3 * a.f / p.tp);
  CHECK(memory_item(res, "activations") == exact(pb * in.input * (2 * a.d + std::max(attn_w, mlp_w)) * bytes_of(p.act)));
  CHECK(memory_item(res, "reserve") == exact(field_default("workload.efficiency.hbm_reserve_fraction") * r.system.chip.hbm_capacity_bytes));
  return r;
}

}  // namespace derived
