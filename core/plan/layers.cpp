// Operators of one transformer layer, the first and last pipeline stage and the stage
// boundary for one pass; layer layout and placement (plan.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "model/mixer_cost.h"
#include "plan/plan.h"

namespace trnsim::plan {

using model::AttentionKind;
using model::LayerSpec;
using model::Mixer;
using model::MlpKind;
using model::ModelConfig;

namespace {

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

}  // namespace

const char* scope_name(Scope s) {
  switch (s) {
    case Scope::layer: return "layer";
    case Scope::first_stage: return "first_stage";
    case Scope::last_stage: return "last_stage";
    case Scope::boundary: return "boundary";
    case Scope::step: return "step";
  }
  return "layer";
}

double causal_pairs(double S, double W) {
  if (W <= 0 || S <= W) return S * (S + 1) / 2;
  return W * (W + 1) / 2 + (S - W) * W;
}

double mean_context(double a, double n, double W) {
  if (n <= 0) return 0;
  if (W <= 0) return a + (n + 1) / 2;
  double k = std::min(n, std::max(0.0, W - a));  // steps still below the window
  return (k * a + k * (k + 1) / 2 + (n - k) * W) / n;
}

namespace {

const char* mixer_short_name(Mixer mixer) {
  switch (mixer) {
    case Mixer::full_attention: return "full";
    case Mixer::sliding_attention: return "sliding";
    case Mixer::chunked_attention: return "chunked";
    case Mixer::linear_attention: return "linear";
  }
  return "full";
}

// A layer type's mixer in its name: Mamba2 layers are "mamba", Gated DeltaNet ones "linear".
std::string mixer_type_name(const ModelConfig& m, Mixer mixer) {
  return mixer == Mixer::linear_attention && m.linear.mamba2() ? "mamba" : mixer_short_name(mixer);
}

// Layers of one type share MLP kind, dense width, token mixer and attention shape; the key
// orders the types.
using TypeKey = std::tuple<int, int, int, int, int, int, int, int>;  // (moe, mixer, dense width, attention shape)
TypeKey type_key(const LayerSpec& l) {
  const model::AttentionShape& a = l.attn;
  return {l.mlp == MlpKind::moe ? 1 : 0, static_cast<int>(l.mixer), l.dense_intermediate, a.kv_heads, a.head_dim,
          a.v_head_dim, a.k_eq_v ? 1 : 0, a.sinks ? 1 : 0};
}

}  // namespace

Layout make_layout(const ModelConfig& m, int pp) {
  Layout L;
  std::map<TypeKey, int> index;  // type key -> type index, in key order
  std::map<TypeKey, LayerSpec> specs;
  std::set<int> dense_widths;
  std::map<std::tuple<int, int, int>, int> shapes_of;  // (moe, mixer, width) -> attention shapes seen
  for (const auto& l : m.layer_specs) {
    const TypeKey key = type_key(l);
    if (!index.count(key)) shapes_of[{std::get<0>(key), std::get<1>(key), std::get<2>(key)}]++;
    index[key] = 0;
    specs[key] = l;
    if (l.mlp == MlpKind::dense) dense_widths.insert(l.dense_intermediate);
  }
  for (auto& [key, idx] : index) {
    idx = static_cast<int>(L.type_names.size());
    LayerSpec spec = specs[key];
    spec.rope = true;  // RoPE is elementwise: NoPE layers share their type
    std::string mlp = spec.mlp == MlpKind::moe ? "moe" : "dense";
    if (spec.mlp == MlpKind::dense && dense_widths.size() > 1) mlp += ":" + std::to_string(spec.dense_intermediate);
    std::string name = mlp + "/" + mixer_type_name(m, spec.mixer);
    // Layers of one mixer with unlike attention shapes are told apart by their KV heads and dims.
    if (shapes_of[{std::get<0>(key), std::get<1>(key), std::get<2>(key)}] > 1)
      name += ":kv" + std::to_string(spec.attn.kv_heads) + "x" + std::to_string(spec.attn.head_dim);
    L.type_names.push_back(name);
    L.type_spec.push_back(spec);
    L.type_moe.push_back(spec.mlp == MlpKind::moe);
    L.type_sliding.push_back(spec.mixer == Mixer::sliding_attention);
  }
  L.type_counts.assign(L.type_names.size(), 0);
  L.stage_type_counts.assign(pp, std::vector<int>(L.type_names.size(), 0));
  for (int i = 0; i < m.layers; ++i) {
    int t = index[type_key(m.layer_specs[i])];
    int stage = static_cast<int>((static_cast<long long>(i) * pp) / m.layers);
    L.layer_type.push_back(t);
    L.layer_stage.push_back(stage);
    L.type_counts[t]++;
    L.stage_type_counts[stage][t]++;
  }
  return L;
}

Placement make_placement(const ModelConfig& m, int tp, int pp, int dp, int ep, int ranks_per_chip) {
  Placement p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.ep = ep;
  p.etp = ep <= tp ? tp / ep : 1;
  p.ranks_per_chip = ranks_per_chip;
  // Neuron shards heads over the TP ranks (logical NeuronCores); a chip holds its ranks'.
  p.heads = model::shard_heads(m, p.tp_ranks());
  p.heads_chip = p.heads.q_heads_per_rank() * ranks_per_chip;
  p.kvh_chip = m.attention == AttentionKind::gqa ? p.heads.kv_heads_per_rank() * ranks_per_chip : 1;
  p.kv_cache_elems_chip = m.attention == AttentionKind::mla
                              ? double(m.kv_lora_rank) + m.qk_rope_head_dim
                              : double(p.kvh_chip) * model::default_attention_shape(m).kv_elements() / m.kv_heads;
  p.linear_heads = model::shard_linear_heads(m, tp);
  const model::LinearAttentionDims& g = m.linear;
  const double vh = p.linear_heads.q_heads_per_rank(), kh = p.linear_heads.kv_heads_per_rank();
  p.linear_state_elems_chip = vh * g.key_head_dim * g.value_head_dim +
                              (2 * kh * g.key_head_dim + vh * g.value_head_dim) * std::max(0, g.conv_kernel - 1);
  return p;
}

AttentionChip attention_chip(const ModelConfig& m, const Placement& pl, const LayerSpec& layer) {
  AttentionChip a;
  if (m.attention == AttentionKind::mla) {
    a.q_heads = pl.heads_chip;
    a.kv_heads = 1;
    a.qk_dim = model::qk_head_dim(m);
    a.v_dim = m.v_head_dim;
    a.kv_cache_elems = pl.kv_cache_elems_chip;
    return a;
  }
  const model::AttentionShape& s = layer.attn;
  const model::HeadSharding h = model::shard_heads(m.heads, s.kv_heads, pl.tp_ranks());
  a.q_heads = double(h.q_heads_per_rank()) * pl.ranks_per_chip;
  a.kv_heads = double(h.kv_heads_per_rank()) * pl.ranks_per_chip;
  a.qk_dim = s.head_dim;
  a.v_dim = s.v_head_dim;
  a.k_eq_v = s.k_eq_v;
  a.kv_cache_elems = a.kv_heads * (a.qk_dim + (a.k_eq_v ? 0 : a.v_dim));
  return a;
}

Operator matmul_op(const Context& c, const std::string& name, double tokens, double in_dim, double out_dim,
                   double weight_elems, double weight_bytes_per_elem, const std::string& dtype) {
  Operator o;
  o.kind = OpKind::matmul;
  o.name = name;
  o.dtype = dtype;
  o.flops = 2.0 * tokens * weight_elems;
  o.hbm_bytes = weight_elems * weight_bytes_per_elem + tokens * (in_dim + out_dim) * c.dt.ab;
  o.m = tokens;
  o.k = in_dim;
  o.n = out_dim;
  return o;
}

Operator memory_op(const std::string& name, double bytes, double kernels) {
  Operator o;
  o.kind = OpKind::memory;
  o.name = name;
  o.hbm_bytes = bytes;
  o.kernels = kernels;
  return o;
}

Operator collective_op(const std::string& name, const std::string& op, double bytes, int ranks, int stride,
                       int ranks_per_chip) {
  Operator o;
  o.kind = OpKind::collective;
  o.name = name;
  o.collective.op = op;
  o.collective.bytes = bytes;
  o.collective.ranks = ranks;
  o.collective.stride = stride;
  o.collective.ranks_per_chip = ranks_per_chip;
  o.kernels = 0;
  return o;
}

Operator tp_collective_op(const Context& c, const std::string& name, const std::string& op, double bytes) {
  return collective_op(name, op, bytes, c.pl.tp_ranks(), 1, c.pl.ranks_per_chip);
}

bool MoeExecution::blockwise_kernel_accepts(double hidden, double intermediate_per_rank) const {
  auto multiple = [](double v, double step) { return std::fmod(v, step) == 0; };
  return kernel != MoeKernel::none && hidden >= kernel_min_hidden && hidden <= kernel_max_hidden && multiple(hidden, kernel_hidden_multiple) &&
         multiple(intermediate_per_rank, kernel_intermediate_multiple);
}

const std::vector<std::string>& moe_strategy_names() {
  static const std::vector<std::string> names = {"uniform", "neuron"};
  return names;
}

const std::vector<std::string>& moe_kernel_names() {
  static const std::vector<std::string> names = {"none", "shard-on-hidden", "shard-on-block"};
  return names;
}

const std::vector<std::string>& moe_decode_kernel_names() {
  static const std::vector<std::string> names = {"none", "fused-tkg"};
  return names;
}

const std::vector<std::string>& moe_dispatch_names() {
  static const std::vector<std::string> names = {"all-to-all", "allgather-reducescatter"};
  return names;
}

double moe_blocks(const MoeExecution& x, double local, double k, double E, double tokens) {
  const double B = x.block_size, assignments = tokens * k;
  const double worst = std::min(std::ceil((assignments - (local - 1)) / B) + local - 1, assignments);
  if (x.kernel != MoeKernel::shard_on_block) return worst;
  // Expected occupied blocks of one expert: it holds a token with probability 1 - (1 - k/E)^T;
  // its n tokens (mean T k / E) fill ceil(n / B) blocks, about mean / B + 1/2 once the mean
  // passes half a block.
  const double hit = 1.0 - ipow(1.0 - k / E, tokens);
  const double occupied = local * (hit + std::max(0.0, assignments / E / B - 0.5));
  const double static_blocks = std::ceil(assignments * (local / E) / B);
  return std::min(worst, std::max(static_blocks, std::ceil(occupied)));
}

double LayerWeights::bytes(const Dtypes& d) const {
  return attn * d.awb + (dense + experts + shared) * d.wb + router * d.awb + norms * 2.0;
}

double linear_state_bytes_per_element(const Context& c) {
  const std::string& t = c.m.linear_state_dtype;
  if (t == "float32") return 4;
  if (t == "bfloat16" || t == "float16") return 2;
  return c.dt.kvb;
}

namespace {

// One chip's share of a Gated DeltaNet or Mamba2 layer: its value heads, the q/k heads (Mamba2:
// the B/C groups) they read.
struct LinearShare {
  model::LinearAttentionDims g;             // the chip's heads
  double kw = 0, vw = 0, vh = 0, conv = 0;  // q (= k) width, v (= z = out) width, value heads, conv channels
  explicit LinearShare(const Context& c) : g(c.m.linear) {
    g.value_heads = c.pl.linear_heads.q_heads_per_rank();
    g.key_heads = c.pl.linear_heads.kv_heads_per_rank();
    vh = g.value_heads;
    kw = g.key_width();
    vw = g.value_width();
    conv = g.conv_channels();
  }
  double in_width() const { return g.in_proj_width(); }  // q, k, v, z, b, a | z, x, B, C, dt
};

double linear_attention_weights(const Context& c) { return model::linear_attention_params(LinearShare(c).g, c.m.hidden); }

double softmax_attention_weights(const Context& c, const LayerSpec& layer, LayerWeights& w) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  const double d = m.hidden;
  double a = 0;
  if (m.attention == AttentionKind::mla) {
    const double qk = model::qk_head_dim(m);
    a += m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * pl.heads_chip * qk : d * pl.heads_chip * qk;
    a += d * (m.kv_lora_rank + m.qk_rope_head_dim);
    a += double(m.kv_lora_rank) * pl.heads_chip * (m.qk_nope_head_dim + m.v_head_dim);
    a += double(pl.heads_chip) * m.v_head_dim * d;
    w.norms += m.q_lora_rank + m.kv_lora_rank;
    if (m.attention_output_gate) a += d * pl.heads_chip * model::v_head_dim_of(m);
    if (m.attention_sinks) a += pl.heads_chip;
  } else {
    const AttentionChip s = attention_chip(m, pl, layer);
    const double q = s.q_heads * s.qk_dim, k = s.kv_heads * s.qk_dim, v = s.k_eq_v ? 0 : s.kv_heads * s.v_dim;
    const double o = s.q_heads * s.v_dim;
    a += d * (q + k + v) + o * d;
    if (m.attention_bias) a += q + k + v;
    if (m.attention_output_bias) a += d;
    if (m.attention_output_gate) a += d * o;
    if (layer.attn.sinks) a += s.q_heads;
  }
  if (m.qk_norm && m.qk_norm_full_width) w.norms += double(m.heads + layer.attn.kv_heads) * layer.attn.head_dim;
  else if (m.qk_norm) w.norms += 2.0 * (m.attention == AttentionKind::gqa ? layer.attn.head_dim : m.head_dim);
  return a;
}

}  // namespace

LayerWeights layer_weights(const Context& c, const LayerSpec& layer) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  LayerWeights w;
  const double d = m.hidden;
  if (layer.mixer == Mixer::linear_attention) {
    w.attn = linear_attention_weights(c);
    w.norms += LinearShare(c).g.gated_norm_width();  // the gated RMSNorm
  } else {
    w.attn = softmax_attention_weights(c, layer, w);
  }
  w.norms += double(m.norms_per_layer) * d;
  if (layer.mlp == MlpKind::moe) {
    const int slots = pl.expert_slots > 0 ? pl.expert_slots : m.experts;
    w.experts = double(slots / pl.ep) * model::routed_expert_params(m) / pl.etp;
    w.shared = model::shared_expert_params_per_layer(m) / pl.tp;
    w.router = model::router_params_per_layer(m);
  } else {
    w.dense = model::dense_mlp_params(m, layer.dense_intermediate) / pl.tp;
  }
  return w;
}

namespace {

Operator attention_core(const std::string& dtype) {
  Operator core;
  core.kind = OpKind::attention;
  core.name = "attn.core";
  core.dtype = dtype;
  return core;
}

void mla_attention(const Context& c, const Pass& p, double pairs, double ctx, std::vector<Operator>& ops) {
  const ModelConfig& m = c.m;
  const double T = p.tokens(), d = m.hidden, hc = c.pl.heads_chip;
  const double qk = model::qk_head_dim(m), v = m.v_head_dim, lat = m.kv_lora_rank, rope = m.qk_rope_head_dim;
  const std::string& dt = c.dt.matmul;
  const bool decode = ctx > 0;
  double q_w = m.q_lora_rank > 0 ? d * m.q_lora_rank + double(m.q_lora_rank) * hc * qk : d * hc * qk;
  ops.push_back(matmul_op(c, "attn.q_proj", T, d, hc * qk, q_w, c.dt.awb, dt));
  ops.push_back(matmul_op(c, "attn.kv_a_proj", T, d, lat + rope, d * (lat + rope), c.dt.awb, dt));
  // Prefill expands the latent to per-head K/V; decode absorbs the same weights into the
  // query and output (same FLOPs per new token, weights read once).
  ops.push_back(matmul_op(c, "attn.kv_b_proj", T, lat, hc * (m.qk_nope_head_dim + v),
                          lat * hc * (m.qk_nope_head_dim + v), c.dt.awb, dt));
  Operator core = attention_core(dt);
  if (decode) {
    core.flops = 2.0 * p.seqs * p.new_tokens * ctx * hc * ((lat + rope) + lat);
    core.hbm_bytes = p.seqs * ctx * (lat + rope) * c.dt.kvb + T * hc * (lat + rope + lat) * c.dt.ab;
  } else {
    core.flops = 2.0 * p.seqs * pairs * hc * (qk + v);
    core.hbm_bytes = T * hc * (2 * qk + 2 * v) * c.dt.ab;
  }
  if (p.write_kv) core.hbm_bytes += T * (lat + rope) * c.dt.kvb;
  core.seq_q = p.new_tokens;
  core.seq_kv = decode ? ctx : p.new_tokens;
  core.head_dim = decode ? lat + rope : qk;
  core.value_dim = decode ? lat : v;  // absorbed decode: P times the latent; prefill: per-head V
  core.heads = p.seqs * hc;
  core.kv_heads = decode ? p.seqs : core.heads;  // absorbed decode: every head reads the sequence's one latent
  core.causal = !decode;
  // A port's unfused decode: its operators beyond the four projections all priced as the core's
  // launches (its traffic and FLOPs are the core's, whichever operators carry them).
  // Each of the port's operators (the projections included) also takes a fixed time beyond its
  // launch, carried by the core.
  if (decode && c.mla_decode_kernels > 5) {
    core.kernels = c.mla_decode_kernels - 4;
    core.fixed_s = c.mla_decode_kernels * c.mla_decode_op_s;
  }
  ops.push_back(core);
  ops.push_back(matmul_op(c, "attn.o_proj", T, hc * v, d, hc * v * d, c.dt.awb, dt));
}

void gqa_attention(const Context& c, const Pass& p, const LayerSpec& layer, double pairs, double ctx,
                   std::vector<Operator>& ops) {
  const ModelConfig& m = c.m;
  const Mixer mixer = layer.mixer;
  const AttentionChip s = attention_chip(m, c.pl, layer);
  const double T = p.tokens(), d = m.hidden, hc = s.q_heads;
  // Query and key widths; the value width (none projected when K = V) and the output's.
  const double q = hc * s.qk_dim, k = s.kv_heads * s.qk_dim, v = s.k_eq_v ? 0 : s.kv_heads * s.v_dim;
  const double o = hc * s.v_dim;
  const std::string& dt = c.dt.matmul;
  const bool decode = ctx > 0;
  double w = d * (q + k + v) + (m.attention_bias ? q + k + v : 0);
  ops.push_back(matmul_op(c, "attn.qkv_proj", T, d, q + k + v, w, c.dt.awb, dt));
  // The output gate's projection (sigmoid(W_g x) scales the attention output).
  if (m.attention_output_gate) ops.push_back(matmul_op(c, "attn.output_gate", T, d, o, d * o, c.dt.awb, dt));
  Operator core = attention_core(dt);
  // Scores over the Q/K head dim, the weighted sum over V's.
  core.flops = 2.0 * p.seqs * (decode ? p.new_tokens * ctx : pairs) * hc * (s.qk_dim + s.v_dim);
  core.hbm_bytes = T * (q + k + v + o) * c.dt.ab;
  // The cache holds k + v elements per token on this chip (one tensor when K = V).
  if (decode) core.hbm_bytes += p.seqs * ctx * (k + v) * c.dt.kvb;
  if (p.write_kv) core.hbm_bytes += T * (k + v) * c.dt.kvb;
  // The engine-level shape: a chunked prefill is one causal attention per chunk.
  const double span = mixer == Mixer::chunked_attention && !decode ? std::min(p.new_tokens, double(m.attention_chunk))
                                                                   : p.new_tokens;
  core.seq_q = decode ? p.new_tokens : span;
  core.seq_kv = decode ? ctx : span;
  core.head_dim = s.qk_dim;
  if (s.v_dim != s.qk_dim) core.value_dim = s.v_dim;
  core.heads = p.seqs * hc * (decode ? 1 : p.new_tokens / span);
  core.kv_heads = core.heads * s.kv_heads / hc;  // per chip, after Neuron's KV replication over the ranks
  core.causal = !decode;
  ops.push_back(core);
  ops.push_back(matmul_op(c, "attn.o_proj", T, o, d, o * d + (m.attention_output_bias ? d : 0), c.dt.awb, dt));
}

// Gated DeltaNet or Mamba2: input projections, the causal conv and the state update (one
// kernel: at decode it reads and writes the recurrent state of every sequence, at prefill it
// runs the chunk-parallel form -- Mamba2's chunked SSD scan -- and writes the final state),
// the output projection.
void linear_attention(const Context& c, const Pass& p, std::vector<Operator>& ops) {
  const ModelConfig& m = c.m;
  const LinearShare s(c);
  const double T = p.tokens(), d = m.hidden;
  const std::string& dt = c.dt.matmul;
  const std::string prefix = m.linear.mamba2() ? "mamba." : "linear_attn.";
  const double bias = m.linear.proj_bias ? 1 : 0;
  ops.push_back(matmul_op(c, prefix + "in_proj", T, d, s.in_width(), (d + bias) * s.in_width(), c.dt.awb, dt));
  Operator core = attention_core(dt);
  core.name = prefix + "core";
  core.flops = T * (p.decode ? model::linear_attention_core_flops_per_token(s.g)
                             : model::linear_attention_prefill_flops_per_token(s.g));
  core.hbm_bytes = T * (s.in_width() + s.vw) * c.dt.ab;  // the in_proj's outputs in; the output out
  const double state = p.seqs * c.pl.linear_state_elems_chip * linear_state_bytes_per_element(c);
  if (p.decode) core.hbm_bytes += 2 * state;  // read and write the recurrent state
  else if (p.write_kv) core.hbm_bytes += state;
  ops.push_back(core);  // no attention shape: priced on its FLOPs and bytes
  ops.push_back(matmul_op(c, prefix + "out_proj", T, s.vw, d, s.vw * d + bias * d, c.dt.awb, dt));
}

// The routed experts' work on one chip: weight slices read, token-expert products
// computed, kernel launches (plan.h: MoeExecution).
struct ExpertWork {
  double weight_reads = 0;  // expert weight slices read from HBM
  double products = 0;      // token x expert MLP evaluations computed
  double kernels = 2;       // gate/up and down
  double gemms = 1, m = 1;  // engine pricer: independent GEMMs of m tokens
  double fixed_s = 0;       // the blockwise kernel's fixed time per block, all blocks
  double output_passes = 0; // passes over the layer's whole [T, H] output, all blocks (PyTorch loop)
};

ExpertWork uniform_experts(double local, double k, double E, double tokens) {
  ExpertWork w;
  const double assignments = tokens * k * local / E;  // token-expert pairs landing on this chip's experts
  w.weight_reads = local * (1.0 - ipow(1.0 - k / E, tokens));
  w.products = assignments;
  w.gemms = std::max(1.0, w.weight_reads);
  w.m = assignments / w.gemms;
  return w;
}

// NxD's ExpertMLPsV2 dispatch (N1): selective loading, all experts, or blockwise (the NKI
// kernel, or when it rejects the shapes the PyTorch loop: a kernel sequence per block).
ExpertWork neuron_experts(const MoeExecution& x, double local, double k, double E, double tokens, bool decode, int ep,
                          bool kernel_accepts) {
  ExpertWork w;
  const bool selective = tokens * k / E < x.selective_threshold && !(decode && ep > 1);
  if (decode && x.decode_kernel == MoeDecodeKernel::fused_tkg) {
    // MoEFusedTKG: all-expert mode once T k / E_local reaches the threshold, else selective; its
    // passes run one after another, each one expert's weight slice through a GEMV (m = its tokens).
    const bool all_experts = tokens * k / local >= x.selective_threshold;
    const double passes = all_experts ? local : tokens * k;
    w.weight_reads = w.gemms = passes;
    w.products = all_experts ? tokens * local : tokens * k;
    w.m = all_experts ? tokens : 1;
    w.kernels = 1;
    w.fixed_s = passes * x.decode_pass_s;
  } else if (selective) {  // every token loads its own k experts
    w.weight_reads = w.products = w.gemms = tokens * k * local / E;
    w.kernels = 2 * tokens;
    w.m = 1;
  } else if (decode || tokens * k < x.block_size) {  // every token through every local expert
    w.weight_reads = w.gemms = local;
    w.products = tokens * local;
    w.m = tokens;
  } else {  // blockwise: each expert's tokens padded to whole blocks (moe_blocks)
    const double blocks = moe_blocks(x, local, k, E, tokens);
    w.weight_reads = w.gemms = blocks;
    w.products = blocks * x.block_size;
    w.m = x.block_size;
    if (!kernel_accepts) {
      w.kernels = blocks * x.fallback_kernels_per_block;
      w.fixed_s = blocks * x.fallback_block_s;
      w.output_passes = blocks * x.fallback_output_passes;
    } else {
      w.fixed_s = blocks * x.kernel_block_s;
      w.output_passes = blocks * x.kernel_output_passes;
    }
  }
  return w;
}

void moe_mlp(const Context& c, const Pass& p, std::vector<Operator>& ops) {
  const ModelConfig& m = c.m;
  const Placement& pl = c.pl;
  const double T = p.tokens(), d = m.hidden;
  const double k = m.experts_per_token, fe = m.moe_intermediate;
  // Expert slots (the model's experts plus redundant copies): tokens spread evenly over them.
  const double E = pl.expert_slots > 0 ? pl.expert_slots : m.experts;
  const std::string& dt = c.dt.matmul;
  const int rpc = pl.ranks_per_chip;
  ops.push_back(matmul_op(c, "moe.router", T, d, m.experts, model::router_params_per_layer(m), c.dt.awb, dt));
  // The tokens the EP group's experts see: the replica's, times the replicas of an EP group that
  // spans several (attention data parallelism, each replica a batch of the same size).
  const double group_tokens = T * std::max(1.0, double(pl.ep) / pl.tp);
  const bool gather = c.moe.dispatch == MoeDispatch::allgather_reducescatter;
  if (pl.ep > 1 && !gather)
    ops.push_back(collective_op("moe.dispatch", "all-to-all", (T / pl.tp) * k * d * c.dt.ab / rpc, pl.ep * rpc, 1, rpc));
  if (pl.ep > pl.tp && gather)  // every rank gathers the group's tokens (nccl-tests size: the gathered buffer)
    ops.push_back(collective_op("moe.dispatch", "all-gather", group_tokens * d * c.dt.ab, pl.ep * rpc, 1, rpc));
  {
    const double local = E / pl.ep, expert = model::routed_expert_params(m) / pl.etp;
    const bool kernel_accepts = c.moe.blockwise_kernel_accepts(d, fe / (pl.etp * rpc));
    const ExpertWork w = c.moe.strategy == MoeStrategy::neuron
                             ? neuron_experts(c.moe, local, k, E, group_tokens, p.new_tokens == 1, pl.ep, kernel_accepts)
                             : uniform_experts(local, k, E, group_tokens);
    Operator x;
    x.kind = OpKind::matmul;
    x.name = "moe.experts";
    x.dtype = dt;
    x.kernels = w.kernels;
    x.fixed_s = w.fixed_s;
    x.rate_scale = c.dt.weight_only_rate;
    x.flops = 2.0 * w.products * expert;
    x.hbm_bytes = w.weight_reads * expert * c.dt.wb + w.products * (2 * d + 2 * fe / pl.etp) * c.dt.ab;
    x.gemms = w.gemms;
    x.m = w.m;
    x.k = d;
    x.n = 3 * fe / pl.etp;
    ops.push_back(x);
    // Each block's passes over the layer's whole [T, H] output (the PyTorch loop's scatter-add,
    // the shard-on-block kernel's per-block output work), on every rank of the chip (the output
    // is whole on each rank until the all-reduce).
    if (w.output_passes > 0)
      ops.push_back(memory_op("moe.block_scatter", w.output_passes * group_tokens * d * c.dt.ab * rpc, 0));
    // The grouped GEMM's own passes over the routed rows (plan.h: MoeExecution::separate_passes),
    // each a memory-bound kernel of its own that the GEMMs do not hide; their launches are not
    // priced apart (the chip's per-kernel cost is per operator trnsim prices).
    if (c.moe.separate_passes && c.moe.strategy == MoeStrategy::uniform && !c.dt.weight_only) {
      const double rows = w.products, f = fe / pl.etp;
      ops.push_back(memory_op("moe.permute", 2 * rows * d * c.dt.ab, 0));
      ops.push_back(memory_op("moe.activation", rows * (2 * f * kHiddenBytes + f * c.dt.ab), 0));
      ops.push_back(memory_op("moe.finalize", (rows + group_tokens) * d * kHiddenBytes, 0));
    }
  }
  if (model::shared_expert_params_per_layer(m) > 0) {
    double sw = model::shared_expert_params_per_layer(m) / pl.tp;
    double sf = sw / (3 * d);
    ops.push_back(matmul_op(c, "moe.shared_experts", T, d, 3 * sf, sw, c.dt.wb, dt));
    ops.back().rate_scale = c.dt.weight_only_rate;
  }
  if (pl.ep > pl.tp && gather) {  // each rank's tokens back, summed over the ranks whose experts ran them
    ops.push_back(collective_op("moe.combine", "reduce-scatter", group_tokens * d * kHiddenBytes, pl.ep * rpc, 1, rpc));
  } else if (pl.ep > 1 && !gather) {
    ops.push_back(collective_op("moe.combine", "all-to-all", (T / pl.tp) * k * d * kHiddenBytes / rpc, pl.ep * rpc, 1, rpc));
    if (pl.tp_ranks() > 1) ops.push_back(tp_collective_op(c, "moe.all_gather", "all-gather", T * d * kHiddenBytes));
  } else if (pl.tp_ranks() > 1) {
    ops.push_back(tp_collective_op(c, "moe.all_reduce", "all-reduce", T * d * kHiddenBytes));
  }
}

}  // namespace

std::vector<Operator> layer_ops(const Context& c, const Pass& p, const LayerSpec& layer) {
  const ModelConfig& m = c.m;
  std::vector<Operator> ops;
  const double T = p.tokens(), d = m.hidden;
  const Mixer mixer = layer.mixer;
  const double pairs = mixer == Mixer::sliding_attention   ? p.pairs_sliding
                       : mixer == Mixer::chunked_attention ? p.pairs_chunked
                                                           : p.pairs_full;
  const double ctx = mixer == Mixer::sliding_attention   ? p.ctx_sliding
                     : mixer == Mixer::chunked_attention ? p.ctx_chunked
                                                         : p.ctx_full;
  const int tp = c.pl.tp;

  // One RMSNorm (+ residual add) kernel per norm of the layer, each reading and writing the
  // hidden state.
  ops.push_back(memory_op("layer.norms_residual", 2.0 * m.norms_per_layer * T * d * kHiddenBytes, m.norms_per_layer));
  if (mixer == Mixer::linear_attention) linear_attention(c, p, ops);
  else if (m.attention == AttentionKind::mla) mla_attention(c, p, pairs, ctx, ops);
  else gqa_attention(c, p, layer, pairs, ctx, ops);
  if (c.pl.tp_ranks() > 1) ops.push_back(tp_collective_op(c, "attn.all_reduce", "all-reduce", T * d * kHiddenBytes));

  if (layer.mlp == MlpKind::moe) {
    moe_mlp(c, p, ops);
    return ops;
  }
  const double f = double(layer.dense_intermediate) / tp;
  ops.push_back(matmul_op(c, "mlp.gate_up_proj", T, d, 2 * f, d * 2 * f, c.dt.wb, c.dt.matmul));
  ops.back().rate_scale = c.dt.weight_only_rate;
  ops.push_back(matmul_op(c, "mlp.down_proj", T, f, d, f * d, c.dt.wb, c.dt.matmul));
  ops.back().rate_scale = c.dt.weight_only_rate;
  if (c.pl.tp_ranks() > 1) ops.push_back(tp_collective_op(c, "mlp.all_reduce", "all-reduce", T * d * kHiddenBytes));
  return ops;
}

namespace {

std::vector<Operator> first_stage_ops(const Context& c, const Pass& p) {
  return {memory_op("embedding", p.tokens() * c.m.hidden * (kEmbeddingBytes + kHiddenBytes))};
}

std::vector<Operator> last_stage_ops(const Context& c, const Pass& p) {
  const ModelConfig& m = c.m;
  double tokens = p.logits_all_tokens ? p.tokens() : p.seqs;
  double w = double(m.vocab) * m.hidden / c.pl.tp;
  std::vector<Operator> ops;
  ops.push_back(memory_op("final_norm", 2.0 * tokens * m.hidden * kHiddenBytes));
  ops.push_back(matmul_op(c, "lm_head", tokens, m.hidden, double(m.vocab) / c.pl.tp, w, kEmbeddingBytes, "bf16"));
  return ops;
}

// Drops collectives over one rank and sets the scope and layer type.
std::vector<Operator> scoped(std::vector<Operator> ops, Scope scope, int type) {
  std::vector<Operator> out;
  for (auto& o : ops) {
    if (o.kind == OpKind::collective && o.collective.ranks <= 1) continue;
    o.scope = scope;
    o.layer_type = type;
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

PassOps pass_ops(const Context& c, const Layout& L, const Pass& p) {
  PassOps ops;
  for (std::size_t t = 0; t < L.type_names.size(); ++t)
    ops.per_type.push_back(scoped(layer_ops(c, p, L.type_spec[t]), Scope::layer, static_cast<int>(t)));
  ops.first = scoped(first_stage_ops(c, p), Scope::first_stage, -1);
  ops.last = scoped(last_stage_ops(c, p), Scope::last_stage, -1);
  if (c.pl.pp > 1)
    ops.boundary = scoped({collective_op("pp.send_activations", "permute", p.tokens() * c.m.hidden * kHiddenBytes, c.pl.pp,
                                         c.pl.tp * c.pl.dp)},
                          Scope::boundary, -1);
  return ops;
}

Operator backward_of(const Operator& f) {
  Operator b = f;
  b.name = f.name + ".bwd";
  if (f.kind == OpKind::matmul) {
    b.flops = 2 * f.flops;
    b.hbm_bytes = 2 * f.hbm_bytes;
    b.kernels = 2 * f.kernels;
    b.gemms = 2 * f.gemms;
  } else if (f.kind == OpKind::attention) {
    b.flops = 2.5 * f.flops;
    b.hbm_bytes = 2 * f.hbm_bytes;
  } else if (f.kind == OpKind::memory) {
    b.hbm_bytes = 2 * f.hbm_bytes;
  } else if (f.collective.op == "all-gather") {
    b.collective.op = "reduce-scatter";
  } else if (f.collective.op == "reduce-scatter") {
    b.collective.op = "all-gather";
  }
  return b;
}

}  // namespace trnsim::plan
