// Workload evaluation: a scenario's model, precisions and placement become per-chip operators,
// each priced by the hardware model; the operators add up to TTFT, TPOT, step time, memory,
// and the shares of time in compute, HBM, fabric and kernel overhead. See workload.h for what
// is and is not modeled.
//
// Placement conventions (all per chip):
//  - chip index = tp_rank + tp * (dp_rank + dp * pp_rank) (Megatron's tp-dp-pp order): TP groups
//    are contiguous (stride 1), data-parallel peers tp apart, pipeline neighbours tp*dp apart.
//    A placement larger than one scale-up domain spans UltraServers of a cluster system
//    ("trn3-gen2-ultracluster:16"); hw::collective prices the EFA part of such groups.
//  - Attention: heads split over tp; KV heads too, replicated when tp > kv heads; MLA's latent
//    cache and its down-projections are replicated on every TP rank.
//  - MoE: experts split over ep ranks. ep <= tp: expert parallelism inside a replica, each expert
//    further split over etp = tp/ep ranks. ep > tp: EP spans ep/tp replicas (DP attention + EP
//    MoE, DeepSeek's serving layout), etp = 1. Tokens are dispatched and combined with two
//    all-to-alls over the ep ranks, then re-replicated over tp with an all-gather; without EP
//    the experts are TP-sharded and the layer ends with a TP all-reduce like a dense MLP.
//  - Routing is uniform: a chip holding E/ep experts reads the expected number of distinct
//    experts hit by the group's tokens, (E/ep) * (1 - (1 - k/E)^tokens).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "hw/roofline.h"
#include "scenario/schema.h"
#include "workload/workload.h"

namespace trnsim::workload {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kEmbeddingBytes = 2.0;  // embeddings and LM head stay in BF16 (common practice)
constexpr double kGradBytes = 2.0;       // BF16 gradients
constexpr double kHiddenBytes = 2.0;     // residual stream and the TP/PP exchanges of it stay BF16
constexpr double kOptimizerBytesPerParam = 12.0;  // FP32 master weights + Adam moments

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// base^n for a whole n >= 0, by squaring: no libm, identical everywhere.
double ipow(double base, double n) {
  double result = 1.0;
  long long k = static_cast<long long>(n);
  while (k > 0) {
    if (k & 1) result *= base;
    base *= base;
    k >>= 1;
  }
  return result;
}

// (query, key) pairs of causal attention over S tokens; window W (0 = full).
double causal_pairs(double S, double W) {
  if (W <= 0 || S <= W) return S * (S + 1) / 2;
  return W * (W + 1) / 2 + (S - W) * W;
}

// Mean over i = 1..n of min(a + i, W) (W = 0: no cap): KV tokens seen by decode step i.
double mean_context(double a, double n, double W) {
  if (n <= 0) return 0;
  if (W <= 0) return a + (n + 1) / 2;
  double k = std::min(n, std::max(0.0, W - a));  // steps still below the window
  return (k * a + k * (k + 1) / 2 + (n - k) * W) / n;
}

bool chip_supports(const hw::Chip& chip, const std::string& dtype) {
  auto it = chip.peak_flops.find(dtype);
  return it != chip.peak_flops.end() && it->second > 0;
}

// The precision actually run on this chip: unsupported formats fall back, with a warning.
std::string resolve_dtype(const hw::Chip& chip, const std::string& want, const std::string& what,
                          std::vector<std::string>& warnings) {
  if (chip_supports(chip, want)) return want;
  std::vector<std::string> chain;
  if (want == "mxfp8") chain = {"fp8", "bf16"};
  else if (want == "fp8") chain = {"mxfp8", "bf16"};
  else chain = {"bf16"};
  for (const auto& c : chain) {
    if (!chip_supports(chip, c)) continue;
    std::string why = want == "mxfp4" ? " (as Neuron does for gpt-oss's MXFP4 experts on Trainium2, PERF #5)" : "";
    warnings.push_back(what + ": " + want + " is not supported by " + chip.display_name + "; modeled as " + c + why);
    return c;
  }
  throw std::runtime_error("chip " + chip.name + " has no bf16 peak in its data");
}

// ---- operators ----------------------------------------------------------------------

enum class OpKind { matmul, attention, memory, collective };

struct OpSpec {
  OpKind kind = OpKind::matmul;
  std::string name;
  std::string scope = "layer";
  int layer_type = -1;
  double count = 1;
  std::string dtype = "bf16";
  double flops = 0;
  double hbm_bytes = 0;
  double kernels = 1;
  // collectives
  std::string coll_op;
  double coll_bytes = 0;
  int ranks = 1;
  int stride = 1;
};

struct Env {
  Env(const hw::System& sys_, const ModelConfig& m_, const Spec& s_) : sys(sys_), chip(sys_.chip), m(m_), s(s_) {}
  const hw::System& sys;
  const hw::Chip& chip;
  const ModelConfig& m;
  const Spec& s;
  std::string mm_dtype;   // matmul (tensor-engine input) dtype
  double wb = 2, awb = 2, ab = 2, kvb = 2;  // bytes/element: MLP weights, attention weights, activations, KV
  hw::RooflineEfficiency eff_mm, eff_attn;
  int tp = 1, pp = 1, dp = 1, ep = 1, etp = 1;
  int heads_chip = 1, kvh_chip = 1;
  double kv_cache_elems_chip = 0;  // cached elements per token per layer on one chip
  double overhead_s = 0;
  // Identical collective requests recur (attention and MLP all-reduces, forward and backward):
  // priced once per evaluation. Exact: the same request gives the same answer.
  mutable std::map<std::tuple<std::string, double, int, int>, collective::Result> collectives;
  collective::Result collective(const std::string& op, double bytes, int ranks, int stride) const {
    auto key = std::make_tuple(op, bytes, ranks, stride);
    auto it = collectives.find(key);
    if (it != collectives.end()) return it->second;
    collective::Request req;
    req.op = op;
    req.bytes = bytes;
    req.ranks = ranks;
    req.stride = stride;
    return collectives.emplace(key, collective::run(sys, req)).first->second;
  }
};

OpRecord price(const Env& e, const OpSpec& o) {
  OpRecord r;
  r.name = o.name;
  r.scope = o.scope;
  r.layer_type = o.layer_type;
  r.count = o.count;
  r.flops = o.flops;
  r.hbm_bytes = o.hbm_bytes;
  if (o.kind == OpKind::collective) {
    collective::Result c = e.collective(o.coll_op, o.coll_bytes, o.ranks, o.stride);
    r.collective.op = o.coll_op;
    r.collective.bytes = o.coll_bytes;
    r.collective.ranks = o.ranks;
    r.collective.stride = o.stride;
    r.category = "fabric";
    r.fabric_bytes = o.coll_bytes;
    r.fabric_s = c.time_s;
    r.time_s = c.time_s;
    r.detail = o.coll_op + ", " + std::to_string(o.ranks) + " chips" + (c.algorithm.empty() ? "" : " (" + c.algorithm + ")");
    return r;
  }
  hw::OperatorCost cost;
  cost.dtype = o.dtype;
  cost.flops = o.flops;
  cost.hbm_bytes = o.hbm_bytes;
  cost.fixed_overhead_s = 0;
  const hw::RooflineEfficiency& eff = o.kind == OpKind::attention ? e.eff_attn : e.eff_mm;
  hw::RooflineTime t = hw::roofline(e.chip, cost, eff);
  r.compute_s = t.compute_s;
  r.memory_s = t.memory_s;
  r.overhead_s = o.kernels * e.overhead_s;
  r.time_s = std::max(t.compute_s, t.memory_s) + r.overhead_s;
  r.category = (o.flops > 0 && t.compute_s >= t.memory_s) ? "compute" : "hbm";
  if (o.kind == OpKind::matmul) r.detail = o.dtype + " matmul";
  else if (o.kind == OpKind::attention) r.detail = o.dtype + " attention";
  else r.detail = "memory-bound";
  return r;
}

OpSpec matmul(const Env& e, const std::string& name, double tokens, double in_dim, double out_dim,
              double weight_elems, double weight_bytes_per_elem, const std::string& dtype) {
  OpSpec o;
  o.kind = OpKind::matmul;
  o.name = name;
  o.dtype = dtype;
  o.flops = 2.0 * tokens * weight_elems;
  o.hbm_bytes = weight_elems * weight_bytes_per_elem + tokens * (in_dim + out_dim) * e.ab;
  return o;
}

OpSpec memory_op(const std::string& name, double bytes, double kernels = 1) {
  OpSpec o;
  o.kind = OpKind::memory;
  o.name = name;
  o.hbm_bytes = bytes;
  o.kernels = kernels;
  return o;
}

OpSpec collective(const std::string& name, const std::string& op, double bytes, int ranks, int stride) {
  OpSpec o;
  o.kind = OpKind::collective;
  o.name = name;
  o.coll_op = op;
  o.coll_bytes = bytes;
  o.ranks = ranks;
  o.stride = stride;
  o.kernels = 0;
  return o;
}

// One forward pass of a micro-batch through one layer, on one replica.
struct Pass {
  double seqs = 1;        // sequences in the micro-batch
  double new_tokens = 1;  // new tokens per sequence
  double pairs_full = 0, pairs_sliding = 0;  // attention pairs per sequence
  double ctx_full = 0, ctx_sliding = 0;      // cached KV tokens read per sequence (decode)
  bool write_kv = true;
  bool logits_all_tokens = false;
  double tokens() const { return seqs * new_tokens; }
};

// Per-chip weight elements of one layer.
struct LayerWeights {
  double attn = 0, dense = 0, experts = 0, shared = 0, router = 0, norms = 0;
  double bytes(const Env& e) const {
    return attn * e.awb + (dense + experts + shared) * e.wb + router * e.awb + norms * 2.0;
  }
  double elems() const { return attn + dense + experts + shared + router + norms; }
};

LayerWeights layer_weights(const Env& e, bool moe) {
  const ModelConfig& m = e.m;
  LayerWeights w;
  const double d = m.hidden;
  if (m.attention == AttentionKind::mla) {
    const double qk = qk_head_dim(m);
    w.attn += m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * e.heads_chip * qk : d * e.heads_chip * qk;
    w.attn += d * (m.kv_lora_rank + m.qk_rope_head_dim);
    w.attn += double(m.kv_lora_rank) * e.heads_chip * (m.qk_nope_head_dim + m.v_head_dim);
    w.attn += double(e.heads_chip) * m.v_head_dim * d;
    w.norms += m.q_lora_rank + m.kv_lora_rank;
  } else {
    const double q = double(e.heads_chip) * m.head_dim, kv = double(e.kvh_chip) * m.head_dim;
    w.attn += d * (q + 2 * kv) + q * d;
    if (m.attention_bias) w.attn += q + 2 * kv + d;
  }
  if (m.attention_sinks) w.attn += e.heads_chip;
  w.norms += 2.0 * d + (m.qk_norm ? 2.0 * m.head_dim : 0);
  if (moe) {
    w.experts = double(m.experts / e.ep) * routed_expert_params(m) / e.etp;
    w.shared = shared_expert_params_per_layer(m) / e.tp;
    w.router = router_params_per_layer(m);
  } else {
    w.dense = dense_mlp_params_per_layer(m) / e.tp;
  }
  return w;
}

// Operators of one layer for one pass, in execution order.
std::vector<OpSpec> layer_ops(const Env& e, const Pass& p, bool moe, bool sliding) {
  const ModelConfig& m = e.m;
  std::vector<OpSpec> ops;
  const double T = p.tokens();
  const double d = m.hidden;
  const double hc = e.heads_chip;
  const double pairs = sliding ? p.pairs_sliding : p.pairs_full;
  const double ctx = sliding ? p.ctx_sliding : p.ctx_full;
  const bool decode = ctx > 0;
  const std::string& dt = e.mm_dtype;

  // Two RMSNorm + residual-add kernels, each reading and writing the hidden state.
  ops.push_back(memory_op("layer.norms_residual", 4.0 * T * d * kHiddenBytes, 2));

  // Attention.
  if (m.attention == AttentionKind::mla) {
    const double qk = qk_head_dim(m), v = m.v_head_dim, lat = m.kv_lora_rank, rope = m.qk_rope_head_dim;
    double q_w = m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * hc * qk : d * hc * qk;
    ops.push_back(matmul(e, "attn.q_proj", T, d, hc * qk, q_w, e.awb, dt));
    ops.push_back(matmul(e, "attn.kv_a_proj", T, d, lat + rope, d * (lat + rope), e.awb, dt));
    // Prefill expands the latent to per-head K/V; decode absorbs the same weights into the
    // query and output (same FLOPs per new token, weights read once).
    ops.push_back(matmul(e, "attn.kv_b_proj", T, lat, hc * (m.qk_nope_head_dim + v),
                         lat * hc * (m.qk_nope_head_dim + v), e.awb, dt));
    OpSpec core;
    core.kind = OpKind::attention;
    core.name = "attn.core";
    core.dtype = dt;
    if (decode) {
      core.flops = 2.0 * p.seqs * p.new_tokens * ctx * hc * ((lat + rope) + lat);
      core.hbm_bytes = p.seqs * ctx * (lat + rope) * e.kvb + T * hc * (lat + rope + lat) * e.ab;
    } else {
      core.flops = 2.0 * p.seqs * pairs * hc * (qk + v);
      core.hbm_bytes = T * hc * (2 * qk + 2 * v) * e.ab;
    }
    if (p.write_kv) core.hbm_bytes += T * (lat + rope) * e.kvb;
    ops.push_back(core);
    ops.push_back(matmul(e, "attn.o_proj", T, hc * v, d, hc * v * d, e.awb, dt));
  } else {
    const double hd = m.head_dim, q = hc * hd, kv = double(e.kvh_chip) * hd;
    double w = d * (q + 2 * kv) + (m.attention_bias ? q + 2 * kv : 0);
    ops.push_back(matmul(e, "attn.qkv_proj", T, d, q + 2 * kv, w, e.awb, dt));
    OpSpec core;
    core.kind = OpKind::attention;
    core.name = "attn.core";
    core.dtype = dt;
    core.flops = 2.0 * p.seqs * (decode ? p.new_tokens * ctx : pairs) * hc * (2 * hd);
    core.hbm_bytes = T * (q + 2 * kv + q) * e.ab;
    if (decode) core.hbm_bytes += p.seqs * ctx * 2 * kv * e.kvb;
    if (p.write_kv) core.hbm_bytes += T * 2 * kv * e.kvb;
    ops.push_back(core);
    ops.push_back(matmul(e, "attn.o_proj", T, q, d, q * d + (m.attention_bias ? d : 0), e.awb, dt));
  }
  if (e.tp > 1) ops.push_back(collective("attn.all_reduce", "all-reduce", T * d * kHiddenBytes, e.tp, 1));

  // MLP.
  if (!moe) {
    const double f = double(m.intermediate) / e.tp;
    ops.push_back(matmul(e, "mlp.gate_up_proj", T, d, 2 * f, d * 2 * f, e.wb, dt));
    ops.push_back(matmul(e, "mlp.down_proj", T, f, d, f * d, e.wb, dt));
    if (e.tp > 1) ops.push_back(collective("mlp.all_reduce", "all-reduce", T * d * kHiddenBytes, e.tp, 1));
    return ops;
  }
  const double E = m.experts, k = m.experts_per_token, fe = m.moe_intermediate;
  ops.push_back(matmul(e, "moe.router", T, d, E, router_params_per_layer(m), e.awb, dt));
  const double group_tokens = T * std::max(1.0, double(e.ep) / e.tp);
  if (e.ep > 1) ops.push_back(collective("moe.dispatch", "all-to-all", (T / e.tp) * k * d * e.ab, e.ep, 1));
  {
    OpSpec x;
    x.kind = OpKind::matmul;
    x.name = "moe.experts";
    x.dtype = dt;
    x.kernels = 2;
    const double local = E / e.ep;
    const double assignments = group_tokens * k / e.ep;  // token-expert pairs landing on this chip's experts
    const double active = local * (1.0 - ipow(1.0 - k / E, group_tokens));
    x.flops = 2.0 * assignments * routed_expert_params(m) / e.etp;
    x.hbm_bytes = active * routed_expert_params(m) / e.etp * e.wb + assignments * (2 * d + 2 * fe / e.etp) * e.ab;
    ops.push_back(x);
  }
  if (shared_expert_params_per_layer(m) > 0) {
    double sw = shared_expert_params_per_layer(m) / e.tp;
    double sf = sw / (3 * d);
    ops.push_back(matmul(e, "moe.shared_experts", T, d, 3 * sf, sw, e.wb, dt));
  }
  if (e.ep > 1) {
    ops.push_back(collective("moe.combine", "all-to-all", (T / e.tp) * k * d * kHiddenBytes, e.ep, 1));
    if (e.tp > 1) ops.push_back(collective("moe.all_gather", "all-gather", T * d * kHiddenBytes, e.tp, 1));
  } else if (e.tp > 1) {
    ops.push_back(collective("moe.all_reduce", "all-reduce", T * d * kHiddenBytes, e.tp, 1));
  }
  return ops;
}

std::vector<OpSpec> first_stage_ops(const Env& e, const Pass& p) {
  return {memory_op("embedding", p.tokens() * e.m.hidden * (kEmbeddingBytes + kHiddenBytes))};
}

std::vector<OpSpec> last_stage_ops(const Env& e, const Pass& p) {
  const ModelConfig& m = e.m;
  double tokens = p.logits_all_tokens ? p.tokens() : p.seqs;
  double w = double(m.vocab) * m.hidden / e.tp;
  std::vector<OpSpec> ops;
  ops.push_back(memory_op("final_norm", 2.0 * tokens * m.hidden * kHiddenBytes));
  ops.push_back(matmul(e, "lm_head", tokens, m.hidden, double(m.vocab) / e.tp, w, kEmbeddingBytes, "bf16"));
  return ops;
}

// ---- layer layout ------------------------------------------------------------------

struct Layout {
  std::vector<std::string> type_names;  // present types
  std::vector<bool> type_moe, type_sliding;
  std::vector<int> layer_type;          // per layer
  std::vector<int> layer_stage;         // per layer
  std::vector<std::vector<int>> stage_type_counts;  // [stage][type]
  std::vector<int> type_counts;
};

Layout make_layout(const ModelConfig& m, int pp) {
  Layout L;
  std::map<int, int> index;  // key (moe*2 + sliding) -> type index, in key order
  for (int i = 0; i < m.layers; ++i) index[(m.layer_moe[i] ? 2 : 0) + (m.layer_sliding[i] ? 1 : 0)] = 0;
  for (auto& [key, idx] : index) {
    idx = static_cast<int>(L.type_names.size());
    bool moe = key >= 2, sl = key % 2 == 1;
    L.type_names.push_back(std::string(moe ? "moe" : "dense") + "/" + (sl ? "sliding" : "full"));
    L.type_moe.push_back(moe);
    L.type_sliding.push_back(sl);
  }
  L.type_counts.assign(L.type_names.size(), 0);
  L.stage_type_counts.assign(pp, std::vector<int>(L.type_names.size(), 0));
  for (int i = 0; i < m.layers; ++i) {
    int t = index[(m.layer_moe[i] ? 2 : 0) + (m.layer_sliding[i] ? 1 : 0)];
    int stage = static_cast<int>((static_cast<long long>(i) * pp) / m.layers);
    L.layer_type.push_back(t);
    L.layer_stage.push_back(stage);
    L.type_counts[t]++;
    L.stage_type_counts[stage][t]++;
  }
  return L;
}

// Priced operators of one pass: per layer type, first-stage, last-stage, boundary.
struct PassCost {
  std::vector<std::vector<OpRecord>> per_type;
  std::vector<double> type_time;  // one layer of each type
  std::vector<OpRecord> first, last, boundary;
  double first_time = 0, last_time = 0, boundary_time = 0;
  std::vector<double> stage_time;  // per stage, without boundary transfers
};

double sum_time(const std::vector<OpRecord>& ops) {
  double t = 0;
  for (const auto& o : ops) t += o.time_s;
  return t;
}

std::vector<OpRecord> price_all(const Env& e, const std::vector<OpSpec>& specs, const std::string& scope, int type) {
  std::vector<OpRecord> out;
  for (OpSpec o : specs) {
    if (o.kind == OpKind::collective && o.ranks <= 1) continue;
    o.scope = scope;
    o.layer_type = type;
    out.push_back(price(e, o));
  }
  return out;
}

PassCost price_pass(const Env& e, const Layout& L, const Pass& p) {
  PassCost c;
  for (std::size_t t = 0; t < L.type_names.size(); ++t) {
    c.per_type.push_back(price_all(e, layer_ops(e, p, L.type_moe[t], L.type_sliding[t]), "layer", static_cast<int>(t)));
    c.type_time.push_back(sum_time(c.per_type.back()));
  }
  c.first = price_all(e, first_stage_ops(e, p), "first_stage", -1);
  c.last = price_all(e, last_stage_ops(e, p), "last_stage", -1);
  c.first_time = sum_time(c.first);
  c.last_time = sum_time(c.last);
  if (e.pp > 1) {
    c.boundary = price_all(e, {collective("pp.send_activations", "permute", p.tokens() * e.m.hidden * kHiddenBytes, e.pp, e.tp * e.dp)},
                           "boundary", -1);
    c.boundary_time = sum_time(c.boundary);
  }
  for (int s = 0; s < e.pp; ++s) {
    double t = 0;
    for (std::size_t ty = 0; ty < L.type_names.size(); ++ty) t += L.stage_type_counts[s][ty] * c.type_time[ty];
    if (s == 0) t += c.first_time;
    if (s == e.pp - 1) t += c.last_time;
    c.stage_time.push_back(t);
  }
  return c;
}

Phase make_phase(const std::string& name, const std::string& unit, std::vector<OpRecord> ops) {
  Phase ph;
  ph.name = name;
  ph.unit = unit;
  for (const auto& o : ops) {
    double total = o.total_s();
    ph.time_s += total;
    double busy = o.count * (o.time_s - o.overhead_s);
    ph.overhead_s += o.count * o.overhead_s;
    if (o.category == "fabric") ph.fabric_s += busy;
    else if (o.category == "compute") ph.compute_s += busy;
    else ph.hbm_s += busy;
  }
  ph.ops = std::move(ops);
  return ph;
}

// All operators of a pass through every stage, counts summed over stages.
std::vector<OpRecord> pass_records(const Layout& L, const PassCost& c, int pp) {
  std::vector<OpRecord> ops;
  for (auto o : c.first) ops.push_back(o);
  for (std::size_t t = 0; t < c.per_type.size(); ++t)
    for (auto o : c.per_type[t]) {
      o.count *= L.type_counts[t];
      ops.push_back(o);
    }
  for (auto o : c.last) ops.push_back(o);
  for (auto o : c.boundary) {
    o.count *= pp - 1;
    ops.push_back(o);
  }
  return ops;
}

// ---- placement checks -----------------------------------------------------------------

void check_placement(const Env& e, const Spec& s, bool training) {
  const ModelConfig& m = e.m;
  const hw::System& sys = e.sys;
  const int tp = e.tp, pp = e.pp, dp = e.dp, ep = e.ep;
  const std::string P = "workload.parallelism.";
  if (m.heads % tp != 0)
    throw InputError(P + "tp", "must divide the model's " + std::to_string(m.heads) + " attention heads, got " + std::to_string(tp));
  if (m.attention == AttentionKind::gqa && m.kv_heads % tp != 0 && tp % m.kv_heads != 0)
    throw InputError(P + "tp", "must divide the model's " + std::to_string(m.kv_heads) +
                                   " KV heads or be a multiple of them, got " + std::to_string(tp));
  const int domain = sys.chips_per_domain > 0 ? sys.chips_per_domain : sys.chips;
  if (tp > domain || domain % tp != 0)
    throw InputError(P + "tp", "a tensor-parallel group must fit in (and divide) one scale-up domain of " +
                                   std::to_string(domain) + " chips on " + sys.display_name + ", got " + std::to_string(tp));
  if (pp > m.layers)
    throw InputError(P + "pp", "cannot exceed the model's " + std::to_string(m.layers) + " layers, got " + std::to_string(pp));
  if (!m.is_moe() && ep != 1) throw InputError(P + "ep", "must be 1 for a dense model, got " + std::to_string(ep));
  if (m.is_moe()) {
    if (m.experts % ep != 0)
      throw InputError(P + "ep", "must divide the model's " + std::to_string(m.experts) + " experts, got " + std::to_string(ep));
    if (ep <= tp ? tp % ep != 0 : (ep % tp != 0 || (tp * dp) % ep != 0))
      throw InputError(P + "ep", "must divide tp (" + std::to_string(tp) +
                                     "), or be a multiple of tp that divides tp*dp (" + std::to_string(tp * dp) +
                                     "), got " + std::to_string(ep));
    if (ep > domain)
      throw InputError(P + "ep", "an expert-parallel group must fit in one scale-up domain of " + std::to_string(domain) +
                                     " chips, got " + std::to_string(ep));
  }
  const long long used_chips = static_cast<long long>(tp) * pp * dp;
  if (ep > tp && used_chips > domain && domain % ep != 0)
    throw InputError(P + "ep", "an expert-parallel group spanning replicas must divide the scale-up domain of " +
                                   std::to_string(domain) + " chips, got " + std::to_string(ep));
  const long long used = static_cast<long long>(tp) * pp * dp;
  if (used > sys.chips)
    throw InputError(P + "dp", "tp*pp*dp = " + std::to_string(used) + " chips, but " + sys.display_name + " has " +
                                   std::to_string(sys.chips) +
                                   (training ? " (for more, name a cluster such as trn3-gen2-ultracluster:N)" : ""));
  if (training) {
    const auto& t = s.training;
    if (t.global_batch % (static_cast<long long>(dp) * t.micro_batch) != 0)
      throw InputError("workload.training.global_batch", "must be a multiple of dp * micro_batch (" +
                                                             std::to_string(static_cast<long long>(dp) * t.micro_batch) +
                                                             "), got " + std::to_string(t.global_batch));
  }
  (void)s;
}

void check_fit(const Result& R, const hw::Chip& chip) {
  double cap = chip.hbm_capacity_bytes;
  if (R.hbm_used_bytes <= cap) return;
  std::string parts;
  for (const auto& m : R.memory) parts += (parts.empty() ? "" : ", ") + m.name + " " + fmt(m.bytes / kGiB, 1);
  throw InputError("workload.parallelism",
                   "does not fit in HBM: needs " + fmt(R.hbm_used_bytes / kGiB, 1) + " GiB per chip (" + parts +
                       "), " + chip.display_name + " has " + fmt(cap / kGiB, 1) + " GiB: over by " +
                       fmt((R.hbm_used_bytes - cap) / kGiB, 1) +
                       " GiB; use more tp/pp/ep, a smaller batch or a lower precision");
}

// ---- economics ------------------------------------------------------------------------

struct PriceGuess {
  double usd;
  const char* source;
};

PriceGuess default_price(const hw::Chip& chip) {
  if (chip.name == "trainium2")
    return {2.9, "guess: roughly a trn2.48xlarge on-demand hourly price / 16 chips; not checked against current AWS pricing"};
  if (chip.name == "trainium3")
    return {4.4, "guess: no Trn3 price is published; the Trainium2 guess x1.5"};
  return {3.0, "guess: no price known for this chip"};
}

void fill_economics(const Env& e, Result& R, double tokens_per_s_per_chip) {
  const Economics& ec = e.s.economics;
  std::string power_source;
  if (ec.chip_power_watts) {
    R.chip_power_watts = *ec.chip_power_watts;
    power_source = "scenario";
  } else {
    R.chip_power_watts = e.chip.power_watts;
    auto it = e.sys.sources.find("power_watts");
    if (it == e.sys.sources.end()) it = e.sys.sources.find("chip.power_watts");
    power_source = it != e.sys.sources.end() ? it->second : "system data (an assumption: chip power is not published)";
    if (R.chip_power_watts <= 0) {
      R.chip_power_watts = e.chip.name == "trainium2" ? 500 : 1000;
      power_source = "guess: press estimates (~500 W Trainium2; Trainium3 'above 1,000 W' liquid cooled)";
    }
  }
  R.power_per_chip_all_in_watts = R.chip_power_watts * (1.0 + ec.host_power_fraction) * ec.pue;
  R.tokens_per_s_per_megawatt = tokens_per_s_per_chip / R.power_per_chip_all_in_watts * 1e6;
  PriceGuess g = default_price(e.chip);
  R.price_per_chip_hour_usd = ec.price_per_chip_hour_usd ? *ec.price_per_chip_hour_usd : g.usd;
  R.usd_per_million_tokens = tokens_per_s_per_chip > 0 ? R.price_per_chip_hour_usd / (tokens_per_s_per_chip * 3600.0) * 1e6 : 0;

  const Efficiency& ef = e.s.efficiency;
  // The source of an assumption: the field table's calibration note when the value is its
  // (fitted) default, the given text for other defaults, "scenario" when the user set it.
  auto source = [](const char* field, double value, const char* text) {
    const Field& f = find_field(std::string("workload.") + field);
    if (json(value) != f.default_value) return std::string("scenario");
    return f.calibrated.empty() ? std::string(text) : "assumption, " + f.calibrated;
  };
  R.assumptions.push_back({"efficiency.compute", ef.compute, "of peak", source("efficiency.compute", ef.compute, "")});
  R.assumptions.push_back({"efficiency.attention", ef.attention, "of peak",
                           source("efficiency.attention", ef.attention, "assumption: attention kernels")});
  R.assumptions.push_back({"efficiency.hbm", ef.hbm, "of bandwidth",
                           source("efficiency.hbm", ef.hbm, "assumption: achievable HBM bandwidth")});
  R.assumptions.push_back({"efficiency.kernel_overhead_s", ef.kernel_overhead_s, "s per kernel",
                           source("efficiency.kernel_overhead_s", ef.kernel_overhead_s, "")});
  R.assumptions.push_back({"efficiency.hbm_reserve_fraction", ef.hbm_reserve_fraction, "of HBM", "assumption"});
  R.assumptions.push_back({"economics.chip_power_watts", R.chip_power_watts, "W", power_source});
  R.assumptions.push_back({"economics.host_power_fraction", ec.host_power_fraction, "of chip power",
                           "guess: hosts, NICs, switches and fans"});
  R.assumptions.push_back({"economics.pue", ec.pue, "", "guess: facility power usage effectiveness"});
  R.assumptions.push_back({"economics.price_per_chip_hour_usd", R.price_per_chip_hour_usd, "USD",
                           ec.price_per_chip_hour_usd ? "scenario" : g.source});
}

void finish_shares(Result& R, const std::vector<std::pair<const Phase*, double>>& weighted) {
  double total = 0, c = 0, h = 0, f = 0, o = 0;
  for (const auto& [ph, w] : weighted) {
    total += w * ph->time_s;
    c += w * ph->compute_s;
    h += w * ph->hbm_s;
    f += w * ph->fabric_s;
    o += w * ph->overhead_s;
  }
  if (total > 0) {
    R.compute_share = c / total;
    R.hbm_share = h / total;
    R.fabric_share = f / total;
    R.overhead_share = o / total;
  }
}

// ---- inference --------------------------------------------------------------------------

void evaluate_inference(const Env& e, const Layout& L, Result& R) {
  const ModelConfig& m = e.m;
  const InferenceParams& in = e.s.inference;
  const double B = in.batch, S = in.input_tokens, O = in.output_tokens;
  const double W = m.sliding_window;
  const int pp = e.pp;

  // Serving with B concurrent streams (continuous batching): each request is prefilled on
  // its own -- its time to first token -- and its prefill stalls the other streams' decode
  // once. Decode runs min(B, pp) micro-batches through the pipeline.
  const double n_micro = std::min<double>(B, pp);
  const double b = B / n_micro;
  if (B < pp) R.warnings.push_back("batch " + fmt(B, 0) + " < pp " + std::to_string(pp) + ": the pipeline is under-filled in decode");

  Pass pre;
  pre.seqs = 1;
  pre.new_tokens = S;
  pre.pairs_full = causal_pairs(S, 0);
  pre.pairs_sliding = causal_pairs(S, W);
  PassCost pc = price_pass(e, L, pre);
  double prefill_time = pc.boundary_time * (pp - 1);
  for (double t : pc.stage_time) prefill_time += t;
  R.ttft_s = prefill_time;
  R.phases.push_back(make_phase("prefill", "prefill of one request (" + fmt(S, 0) + " tokens), all stages",
                                pass_records(L, pc, pp)));

  const double steps = O - 1;
  double cycle = 0;
  if (steps > 0) {
    Pass dec;
    dec.seqs = b;
    dec.new_tokens = 1;
    dec.ctx_full = mean_context(S, steps, 0);
    dec.ctx_sliding = mean_context(S, steps, W);
    dec.pairs_full = dec.ctx_full;
    dec.pairs_sliding = dec.ctx_sliding;
    PassCost dc = price_pass(e, L, dec);
    double through = dc.boundary_time * (pp - 1);
    double slowest = 0;
    for (double t : dc.stage_time) {
      through += t;
      slowest = std::max(slowest, t);
    }
    cycle = std::max(through, n_micro * slowest);
    R.phases.push_back(make_phase("decode", "one decode step of a micro-batch of " + fmt(b, b == std::floor(b) ? 0 : 2) +
                                                " sequences at mean context " + fmt(dec.ctx_full, 0) + ", all stages",
                                  pass_records(L, dc, pp)));
  }
  R.tpot_s = cycle;
  R.request_latency_s = B * R.ttft_s + steps * cycle;
  R.decode_tokens_per_s_per_replica = cycle > 0 ? B / cycle : 0;
  R.output_tokens_per_s_per_replica = B * O / R.request_latency_s;
  R.replicas = e.dp;
  const double per_chip = R.output_tokens_per_s_per_replica / (double(e.tp) * pp);
  R.output_tokens_per_s_per_chip = per_chip;
  R.output_tokens_per_s_per_server = per_chip * e.sys.chips_per_server;
  R.output_tokens_per_s_per_system = per_chip * e.sys.chips;

  std::vector<std::pair<const Phase*, double>> w = {{&R.phases[0], B}};
  if (R.phases.size() > 1) w.push_back({&R.phases[1], steps});
  finish_shares(R, w);

  // Memory per chip, heaviest pipeline stage.
  double weights = 0, kv = 0;
  const double ctx_end = S + O;
  for (int s = 0; s < pp; ++s) {
    double ws = 0, ks = 0;
    for (int i = 0; i < m.layers; ++i) {
      if (L.layer_stage[i] != s) continue;
      ws += layer_weights(e, m.layer_moe[i]).bytes(e);
      double tokens = m.layer_sliding[i] ? std::min(ctx_end, W) : ctx_end;
      ks += B * tokens * e.kv_cache_elems_chip * e.kvb;
    }
    if (s == 0) ws += double(m.vocab) * m.hidden / e.tp * kEmbeddingBytes;
    if (s == pp - 1 && (!m.tie_embeddings || pp > 1)) ws += double(m.vocab) * m.hidden / e.tp * kEmbeddingBytes;
    if (ws + ks > weights + kv) weights = ws, kv = ks;
  }
  // Working set of the widest layer while prefilling one request (no chunked prefill).
  const double T = S, d = m.hidden;
  double attn_w = m.attention == AttentionKind::mla
                      ? double(e.heads_chip) * (2.0 * qk_head_dim(m) + 2.0 * m.v_head_dim)
                      : double(e.heads_chip) * m.head_dim * 2 + 2.0 * e.kvh_chip * m.head_dim;
  double mlp_w = 0;
  for (int i = 0; i < m.layers; ++i) {
    double x = m.layer_moe[i] ? 3.0 * m.experts_per_token * m.moe_intermediate / e.tp : 3.0 * m.intermediate / e.tp;
    mlp_w = std::max(mlp_w, x);
  }
  double act = T * (2 * d + std::max(attn_w, mlp_w)) * e.ab;
  double reserve = e.s.efficiency.hbm_reserve_fraction * e.chip.hbm_capacity_bytes;
  R.memory = {{"weights", weights}, {"kv_cache", kv}, {"activations", act}, {"reserve", reserve}};
  R.hbm_used_bytes = weights + kv + act + reserve;
  R.hbm_capacity_bytes = e.chip.hbm_capacity_bytes;
  check_fit(R, e.chip);

  fill_economics(e, R, per_chip);
}

// ---- training -----------------------------------------------------------------------------

struct DpComm {
  double time_s = 0;
  std::vector<OpRecord> ops;
};

// Backward of a forward operator: dgrad + wgrad matmuls, flash-attention backward (~2.5x
// forward FLOPs), mirrored collectives.
OpSpec backward_of(const Env& e, const OpSpec& f) {
  OpSpec b = f;
  b.name = f.name + ".bwd";
  if (f.kind == OpKind::matmul) {
    b.flops = 2 * f.flops;
    b.hbm_bytes = 2 * f.hbm_bytes;
    b.kernels = 2 * f.kernels;
  } else if (f.kind == OpKind::attention) {
    b.flops = 2.5 * f.flops;
    b.hbm_bytes = 2 * f.hbm_bytes;
  } else if (f.kind == OpKind::memory) {
    b.hbm_bytes = 2 * f.hbm_bytes;
  } else if (f.coll_op == "all-gather") {
    b.coll_op = "reduce-scatter";
  } else if (f.coll_op == "reduce-scatter") {
    b.coll_op = "all-gather";
  }
  (void)e;
  return b;
}

void evaluate_training(const Env& e, const Layout& L, Result& R) {
  const ModelConfig& m = e.m;
  const TrainingParams& t = e.s.training;
  const int tp = e.tp, pp = e.pp, dp = e.dp;
  const double S = t.sequence_length, W = m.sliding_window;
  const int micro = static_cast<int>(t.global_batch / (static_cast<long long>(dp) * t.micro_batch));
  R.micro_batches = micro;
  const int domains = R.domains_used;

  Pass p;
  p.seqs = t.micro_batch;
  p.new_tokens = S;
  p.pairs_full = causal_pairs(S, 0);
  p.pairs_sliding = causal_pairs(S, W);
  p.write_kv = false;
  p.logits_all_tokens = true;

  // Forward, backward and recompute operators per layer type, priced.
  std::vector<std::vector<OpRecord>> fwd_t, bwd_t;
  std::vector<double> fwd_time, bwd_time;
  for (std::size_t ty = 0; ty < L.type_names.size(); ++ty) {
    auto specs = layer_ops(e, p, L.type_moe[ty], L.type_sliding[ty]);
    std::vector<OpSpec> back;
    for (const auto& f : specs) back.push_back(backward_of(e, f));
    for (const auto& f : specs) {
      bool again = t.recompute == "full" || (t.recompute == "selective" && f.kind == OpKind::attention);
      if (!again) continue;
      OpSpec r = f;
      r.name = f.name + ".recompute";
      back.push_back(r);
    }
    fwd_t.push_back(price_all(e, specs, "layer", static_cast<int>(ty)));
    bwd_t.push_back(price_all(e, back, "layer", static_cast<int>(ty)));
    fwd_time.push_back(sum_time(fwd_t.back()));
    bwd_time.push_back(sum_time(bwd_t.back()));
  }
  auto first_f = price_all(e, first_stage_ops(e, p), "first_stage", -1);
  auto last_f = price_all(e, last_stage_ops(e, p), "last_stage", -1);
  std::vector<OpSpec> last_b_specs;
  for (const auto& f : last_stage_ops(e, p)) last_b_specs.push_back(backward_of(e, f));
  auto last_b = price_all(e, last_b_specs, "last_stage", -1);
  std::vector<OpSpec> first_b_specs;
  for (const auto& f : first_stage_ops(e, p)) first_b_specs.push_back(backward_of(e, f));
  auto first_b = price_all(e, first_b_specs, "first_stage", -1);
  std::vector<OpRecord> boundary;
  if (pp > 1)
    boundary = price_all(e, {collective("pp.send_activations", "permute", p.tokens() * m.hidden * kHiddenBytes, pp, tp * dp),
                             collective("pp.send_gradients", "permute", p.tokens() * m.hidden * kHiddenBytes, pp, tp * dp)},
                         "boundary", -1);
  const double boundary_time = sum_time(boundary);

  double slowest = 0, slowest_bwd = 0;
  for (int s = 0; s < pp; ++s) {
    double tf = 0, tb = 0;
    for (std::size_t ty = 0; ty < L.type_names.size(); ++ty) {
      tf += L.stage_type_counts[s][ty] * fwd_time[ty];
      tb += L.stage_type_counts[s][ty] * bwd_time[ty];
    }
    if (s == 0) tf += sum_time(first_f), tb += sum_time(first_b);
    if (s == pp - 1) tf += sum_time(last_f), tb += sum_time(last_b);
    if (tf + tb + boundary_time > slowest) slowest = tf + tb + boundary_time, slowest_bwd = tb;
  }
  const double pipeline_time = (micro + pp - 1) * slowest;
  R.pipeline_bubble_fraction = double(pp - 1) / (micro + pp - 1);

  // Parameters per chip (heaviest stage), split into replicated-per-DP and expert parts.
  double dense_elems = 0, expert_elems = 0, weight_bytes = 0;
  for (int s = 0; s < pp; ++s) {
    double de = 0, ee = 0, wbts = 0;
    for (int i = 0; i < m.layers; ++i) {
      if (L.layer_stage[i] != s) continue;
      LayerWeights lw = layer_weights(e, m.layer_moe[i]);
      de += lw.elems() - lw.experts;
      ee += lw.experts;
      wbts += lw.bytes(e);
    }
    double emb = double(m.vocab) * m.hidden / tp;
    if (s == 0) de += emb, wbts += emb * kEmbeddingBytes;
    if (s == pp - 1 && (!m.tie_embeddings || pp > 1)) de += emb, wbts += emb * kEmbeddingBytes;
    if (de + ee > dense_elems + expert_elems) dense_elems = de, expert_elems = ee, weight_bytes = wbts;
  }
  // Data-parallel groups: dense weights are replicated dp times, tp chips apart; an expert
  // shard exists once per replica when ep <= tp, once per block of ep chips otherwise.
  const int dense_group = dp;
  const int expert_group = e.ep > tp ? dp * tp / e.ep : dp;
  const int dense_stride = tp;
  const int expert_stride = e.ep > tp ? e.ep : tp;
  const int z = t.zero_stage;

  auto dp_ops = [&](int dgroup, int egroup) {
    DpComm c;
    auto add = [&](const std::string& name, const std::string& op, double bytes, int group, int stride, double count) {
      if (group <= 1 || bytes <= 0) return;
      OpRecord r = price(e, collective(name, op, bytes, group, stride));
      r.scope = "step";
      r.count = count;
      c.time_s += r.total_s();
      c.ops.push_back(r);
    };
    const double dg = dense_elems * kGradBytes, eg = expert_elems * kGradBytes;
    if (z == 0) {
      add("dp.grad_all_reduce", "all-reduce", dg, dgroup, dense_stride, 1);
      add("dp.expert_grad_all_reduce", "all-reduce", eg, egroup, expert_stride, 1);
    } else {
      add("dp.grad_reduce_scatter", "reduce-scatter", dg, dgroup, dense_stride, 1);
      add("dp.expert_grad_reduce_scatter", "reduce-scatter", eg, egroup, expert_stride, 1);
      if (z < 3) {
        add("dp.param_all_gather", "all-gather", dense_elems * e.wb, dgroup, dense_stride, 1);
        add("dp.expert_param_all_gather", "all-gather", expert_elems * e.wb, egroup, expert_stride, 1);
      } else {  // ZeRO-3: gather every layer's weights for forward and again for backward
        add("dp.param_all_gather", "all-gather", dense_elems * e.wb, dgroup, dense_stride, 2.0 * micro);
        add("dp.expert_param_all_gather", "all-gather", expert_elems * e.wb, egroup, expert_stride, 2.0 * micro);
      }
    }
    return c;
  };
  auto optimizer_op = [&](int dgroup, int egroup) {
    double shard = z >= 1 ? dense_elems / dgroup + expert_elems / egroup : dense_elems + expert_elems;
    OpSpec o = memory_op("optimizer.adam_step", shard * (2 * kOptimizerBytesPerParam + kGradBytes + e.wb));
    o.scope = "step";
    return price(e, o);
  };
  auto exposed = [&](double comm) {
    return std::max((1.0 - t.overlap) * comm, comm - micro * slowest_bwd);
  };

  DpComm comm = dp_ops(dense_group, expert_group);
  OpRecord opt = optimizer_op(dense_group, expert_group);
  const double dp_exposed = exposed(comm.time_s);
  R.step_time_s = pipeline_time + dp_exposed + opt.time_s;
  R.tokens_per_step = double(t.global_batch) * S;
  R.training_tokens_per_s = R.tokens_per_step / R.step_time_s;
  R.training_tokens_per_s_per_chip = R.training_tokens_per_s / R.chips_used;

  // Phases: one micro-batch's forward and backward through every stage, the pipeline
  // schedule, data-parallel synchronisation and the optimizer, per step.
  auto gather = [&](const std::vector<std::vector<OpRecord>>& per_type, const std::vector<OpRecord>& first,
                    const std::vector<OpRecord>& last) {
    std::vector<OpRecord> ops(first.begin(), first.end());
    for (std::size_t ty = 0; ty < per_type.size(); ++ty)
      for (auto o : per_type[ty]) {
        o.count *= L.type_counts[ty];
        ops.push_back(o);
      }
    ops.insert(ops.end(), last.begin(), last.end());
    return ops;
  };
  R.phases.push_back(make_phase("forward", "forward of one micro-batch (" + std::to_string(t.micro_batch) + " x " +
                                               fmt(S, 0) + " tokens), all stages",
                                gather(fwd_t, first_f, last_f)));
  R.phases.push_back(make_phase("backward", "backward (with " + t.recompute + " recompute) of one micro-batch, all stages",
                                gather(bwd_t, first_b, last_b)));
  {
    std::vector<OpRecord> b = boundary;
    for (auto& o : b) o.count = double(pp - 1);
    R.phases.push_back(make_phase("pipeline", "activation/gradient transfers of one micro-batch", b));
  }
  {
    std::vector<OpRecord> ops = comm.ops;
    R.phases.push_back(make_phase("data-parallel", "gradient/parameter synchronisation per step (before overlap)", ops));
  }
  R.phases.push_back(make_phase("optimizer", "optimizer step", {opt}));

  // Shares of the step: stage-critical work scaled by micro-batches, exposed DP, optimizer.
  {
    const double scale = pipeline_time / std::max(1e-30, R.phases[0].time_s + R.phases[1].time_s + R.phases[2].time_s);
    const double dps = comm.time_s > 0 ? dp_exposed / comm.time_s : 0;
    finish_shares(R, {{&R.phases[0], scale}, {&R.phases[1], scale}, {&R.phases[2], scale}, {&R.phases[3], dps},
                      {&R.phases[4], 1.0}});
  }

  // FLOPs: model FLOPs per token = 2 * active params + attention; x3 for forward + backward.
  double attn_per_token = 0;
  for (int i = 0; i < m.layers; ++i) {
    double pairs = m.layer_sliding[i] ? p.pairs_sliding : p.pairs_full;
    attn_per_token += 2.0 * m.heads * (qk_head_dim(m) + v_head_dim_of(m)) * pairs / S;
  }
  const double fwd_per_token = 2.0 * R.params.active + attn_per_token;
  R.model_flops_per_step = 3.0 * fwd_per_token * R.tokens_per_step;
  double recompute_per_token = t.recompute == "full" ? fwd_per_token : t.recompute == "selective" ? attn_per_token : 0;
  R.hardware_flops_per_step = R.model_flops_per_step + recompute_per_token * R.tokens_per_step;
  auto pk = e.chip.peak_flops.find(e.mm_dtype);
  const double peak = pk != e.chip.peak_flops.end() ? pk->second : 0;
  if (peak > 0) {
    R.mfu = R.model_flops_per_step / (R.step_time_s * R.chips_used * peak);
    R.hfu = R.hardware_flops_per_step / (R.step_time_s * R.chips_used * peak);
  }

  // Memory per chip.
  const double opt_shard = z >= 1 ? dense_elems / dense_group + expert_elems / expert_group : dense_elems + expert_elems;
  const double grad_elems = z >= 2 ? dense_elems / dense_group + expert_elems / expert_group : dense_elems + expert_elems;
  const double wts = z >= 3 ? weight_bytes / dense_group : weight_bytes;
  double act_per_token_layer = 0;  // elements stored per token per layer (bf16), widest layer
  const double d = m.hidden;
  for (int i = 0; i < m.layers; ++i) {
    double attn = m.attention == AttentionKind::mla
                      ? double(e.heads_chip) * (qk_head_dim(m) * 2 + m.v_head_dim * 2)
                      : double(e.heads_chip) * m.head_dim * 2 + 2.0 * e.kvh_chip * m.head_dim;
    double ff = m.layer_moe[i] ? double(m.experts_per_token) * m.moe_intermediate / tp +
                                     shared_expert_params_per_layer(m) / (3 * d) / tp
                               : double(m.intermediate) / tp;
    double x;
    if (t.recompute == "full") x = d / tp;
    else if (t.recompute == "selective") x = 4 * d / tp + attn + 2 * ff;
    else x = 4 * d / tp + attn + 3 * ff;
    act_per_token_layer = std::max(act_per_token_layer, x);
  }
  int layers_stage0 = 0;
  for (int c : L.stage_type_counts[0]) layers_stage0 += c;
  const double in_flight = std::min(pp, micro);
  double acts = in_flight * layers_stage0 * p.tokens() * act_per_token_layer * 2.0;
  // Plus one layer's full working set (what recompute rebuilds) and the logits.
  acts += p.tokens() * (4 * d / tp + 3.0 * std::max<double>(m.intermediate, double(m.experts_per_token) * m.moe_intermediate) / tp) * 2.0;
  acts += p.tokens() * double(m.vocab) / tp * 4.0;
  const double reserve = e.s.efficiency.hbm_reserve_fraction * e.chip.hbm_capacity_bytes;
  R.memory = {{"weights", wts},
              {"gradients", grad_elems * kGradBytes},
              {"optimizer_states", opt_shard * kOptimizerBytesPerParam},
              {"activations", acts},
              {"reserve", reserve}};
  R.hbm_used_bytes = 0;
  for (const auto& x : R.memory) R.hbm_used_bytes += x.bytes;
  R.hbm_capacity_bytes = e.chip.hbm_capacity_bytes;
  check_fit(R, e.chip);

  // Weak scaling across the UltraServers of the placement: the same per-replica work with
  // 1, 2, 4, ... UltraServers' worth of replicas; only the data-parallel exchange changes.
  const int chips_per_domain = e.sys.chips_per_domain > 0 ? e.sys.chips_per_domain : e.sys.chips;
  if (domains > 1 && R.chips_used % chips_per_domain == 0 && dp % domains == 0) {
    std::vector<int> points;
    for (int n = 1; n < domains; n *= 2) points.push_back(n);
    points.push_back(domains);
    double base_per_chip = 0;
    for (int n : points) {
      const int dp_n = dp / domains * n;
      const int dg = dp_n, eg = e.ep > tp ? dp_n * tp / e.ep : dp_n;
      DpComm c = dp_ops(dg, eg);
      OpRecord o = optimizer_op(dg, eg);
      double step = pipeline_time + exposed(c.time_s) + o.time_s;
      ScalingPoint sp;
      sp.ultraservers = n;
      sp.chips = tp * pp * dp_n;
      sp.step_time_s = step;
      sp.tokens_per_s = R.tokens_per_step / domains * n / step;
      double per_chip = sp.tokens_per_s / sp.chips;
      if (n == 1) base_per_chip = per_chip;
      sp.scaling_efficiency = base_per_chip > 0 ? per_chip / base_per_chip : 0;
      R.scaling.push_back(sp);
    }
  } else {
    R.scaling.push_back({domains, R.chips_used, R.step_time_s, R.training_tokens_per_s, 1.0});
  }
  if (R.micro_batches < pp)
    R.warnings.push_back("only " + std::to_string(R.micro_batches) + " micro-batches for " + std::to_string(pp) +
                         " pipeline stages: most of the step is pipeline bubble");

  fill_economics(e, R, R.training_tokens_per_s_per_chip);
  R.assumptions.push_back({"training.overlap", t.overlap, "of DP communication", "assumption: hidden behind backward"});
}

}  // namespace

Result evaluate(const Spec& spec, const hw::System& system) {
  const ModelConfig m = *spec_model(spec);
  Result R;
  R.spec = spec;
  R.kind = spec.kind;
  R.system_name = system.name;
  R.system_display_name = system.display_name;
  R.system_chips = system.chips;
  R.chips_per_server = system.chips_per_server;
  R.chips_per_domain = system.chips_per_domain;
  R.model = m;
  R.params = count_parameters(m);
  R.warnings = m.warnings;
  if (system.chips <= 0) throw InputError("system", "has no chips");

  Env e(system, m, spec);
  const auto& P = spec.parallelism;
  e.tp = P.tp;
  e.pp = P.pp;
  e.dp = P.dp;
  e.ep = P.ep;
  e.etp = P.ep <= P.tp ? P.tp / P.ep : 1;
  const bool training = spec.kind == "training";
  check_placement(e, spec, training);

  R.matmul_dtype = e.mm_dtype = resolve_dtype(e.chip, spec.precision.activations, "workload.precision.activations", R.warnings);
  R.weights_dtype = resolve_dtype(e.chip, spec.precision.weights, "workload.precision.weights", R.warnings);
  R.attention_weights_dtype =
      resolve_dtype(e.chip, spec.precision.attention_weights, "workload.precision.attention_weights", R.warnings);
  R.kv_dtype = spec.precision.kv_cache;  // storage only: the attention kernel converts on load
  e.wb = bytes_per_element(R.weights_dtype);
  e.awb = bytes_per_element(R.attention_weights_dtype);
  e.ab = bytes_per_element(e.mm_dtype);
  e.kvb = bytes_per_element(R.kv_dtype);
  R.kv_bytes_per_token = kv_bytes_per_sequence(m, 1.0, e.kvb);

  e.eff_mm.compute = spec.efficiency.compute;
  e.eff_mm.hbm = spec.efficiency.hbm;
  e.eff_attn.compute = spec.efficiency.attention;
  e.eff_attn.hbm = spec.efficiency.hbm;
  e.overhead_s = spec.efficiency.kernel_overhead_s;
  e.heads_chip = m.heads / e.tp;
  e.kvh_chip = m.attention == AttentionKind::gqa ? std::max(1, m.kv_heads / e.tp) : 1;
  e.kv_cache_elems_chip = m.attention == AttentionKind::mla ? double(m.kv_lora_rank) + m.qk_rope_head_dim
                                                            : 2.0 * e.kvh_chip * m.head_dim;

  R.chips_used = e.tp * e.pp * e.dp;
  const int per_domain = system.chips_per_domain > 0 ? system.chips_per_domain : system.chips;
  R.domains_used = (R.chips_used + per_domain - 1) / per_domain;

  Layout L = make_layout(m, e.pp);
  R.layer_type_names = L.type_names;
  R.layer_types = L.layer_type;
  R.layer_stages = L.layer_stage;

  if (training) evaluate_training(e, L, R);
  else evaluate_inference(e, L, R);
  return R;
}

}  // namespace trnsim::workload
