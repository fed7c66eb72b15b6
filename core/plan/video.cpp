// The video plan (video.h): the clip's shape, the denoiser's operators per block kind, the
// text encoders, the VAE decode and the bytes each chip holds.
#include "plan/video.h"

#include <algorithm>
#include <cmath>

namespace trnsim::plan {

using model::DitConfig;
using model::DitFamily;
using model::VaeConfig;
using model::VaeLayer;
using model::VaeOp;
using model::VideoModelConfig;

namespace {

constexpr double kLatentBytes = 4.0;  // diffusers keeps the latent and the scheduler's state in fp32

// matmul_op only reads the activation size from its context; the video planner has no LLM.
const model::ModelConfig& no_llm() {
  static const model::ModelConfig m;
  return m;
}

Operator scoped(Operator o, Scope scope, int kind, double count) {
  o.scope = scope;
  o.layer_type = kind;
  o.count = count;
  return o;
}

// ---- the denoiser ---------------------------------------------------------------------------

// Indices into video_block_kinds().
constexpr int kCross = 0, kDual = 1, kSingle = 2, kRefiner = 3;

// Per-chip sizes of one transformer pass.
struct DitPass {
  double b = 1;        // sequences per chip (CFG batch)
  double S = 0;        // video tokens of the whole clip
  double Sc = 0;       // video tokens this chip holds (S / sp)
  double St = 0;       // text tokens (every chip holds them)
  double d = 0, dtp = 0, ftp = 0, hd = 0, heads_chip = 0;
  int tp = 1, u = 1, r = 1;
  bool per_token_modulation = false;  // Wan2.2 TI2V: each token's own 6 x d shift/scale/gate
  double samples = 1;  // images generated together (their latents updated by the sampler)
};

class BlockOps {
 public:
  BlockOps(const Context& c, const DitPass& p, int kind, double count) : c_(c), p_(p), kind_(kind), count_(count) {}
  std::vector<Operator> ops;

  void linear(const std::string& name, double tokens, double in, double out, double weight_bytes) {
    add(matmul_op(c_, name, tokens, in, out, in * out, weight_bytes, c_.dt.matmul));
  }
  void memory(const std::string& name, double bytes, double kernels) { add(memory_op(name, bytes, kernels)); }
  void collective(const std::string& name, const std::string& op, double bytes, int ranks, int stride,
                  double per_block = 1) {
    if (ranks <= 1) return;
    Operator o = collective_op(name, op, bytes, ranks, stride);
    o.count = per_block;
    add(o);
  }
  // Softmax attention of q_tokens queries against kv_tokens keys per sequence, for `heads`
  // heads on this chip (flash attention: q, k, v read once, the output written once).
  void attention(const std::string& name, double q_tokens, double kv_tokens, double heads, double pairs) {
    Operator o;
    o.kind = OpKind::attention;
    o.name = name;
    o.dtype = c_.dt.matmul;
    o.flops = 4.0 * p_.b * pairs * heads * p_.hd;
    o.hbm_bytes = p_.b * (2 * q_tokens + 2 * kv_tokens) * heads * p_.hd * c_.dt.ab;
    o.seq_q = q_tokens;
    o.seq_kv = kv_tokens;
    o.head_dim = p_.hd;
    o.heads = p_.b * heads;
    // torch-neuronx's F.scaled_dot_product_attention hands the call to its NKI flash kernel
    // only when both lengths are multiples of 512; other lengths take the decomposed path
    // (scores through HBM). The Diffusers ports call attention through SDPA.
    const auto whole512 = [](double n) { return std::fmod(n, 512.0) == 0; };
    if (!whole512(q_tokens) || !whole512(kv_tokens)) o.attention_path = "decomposed";
    add(o);
  }
  // Self-attention over the video tokens (and, joint, the text tokens) with sequence
  // parallelism: Ulysses all-to-alls around it, ring passes of the key/value blocks.
  void sequence_parallel_attention(const std::string& prefix, double text_joint) {
    const double width = p_.dtp;  // q/k/v width on this TP rank
    collective(prefix + ".ulysses_qkv", "all-to-all", 3 * p_.b * p_.Sc * width * c_.dt.ab, p_.u, p_.tp);
    const double q = p_.S / p_.r + text_joint, kv = p_.S + text_joint;
    attention(prefix + ".core", q, kv, p_.heads_chip / p_.u, q * kv);
    if (p_.r > 1) {
      // Each of the r - 1 rounds passes this chip's key/value block to its ring neighbour.
      const double block = 2 * p_.b * (p_.S / p_.r) * (width / p_.u) * c_.dt.ab;
      collective(prefix + ".ring_kv", "permute", block, p_.r, p_.tp * p_.u, p_.r - 1);
    }
    collective(prefix + ".ulysses_out", "all-to-all", p_.b * p_.Sc * width * c_.dt.ab, p_.u, p_.tp);
  }
  void tp_all_reduce(const std::string& name, double tokens) {
    collective(name, "all-reduce", p_.b * tokens * p_.d * kHiddenBytes, p_.tp, 1);
  }

 private:
  void add(Operator o) {
    const double per_block = o.count;
    o = scoped(o, Scope::layer, kind_, count_ * per_block);
    ops.push_back(o);
  }
  const Context& c_;
  const DitPass& p_;
  int kind_;
  double count_;
};

// Wan's block: norm + modulation, self-attention, cross-attention to the text, GELU FFN.
std::vector<Operator> wan_block(const Context& c, const DitPass& p, int kind, double count) {
  BlockOps b(c, p, kind, count);
  const double T = p.b * p.Sc, d = p.d, awb = c.dt.awb, wb = c.dt.wb;
  // 3 layer norms with adaLN shift/scale and 3 gated residual adds over the hidden state,
  // plus each token's own modulation when the timesteps are per token.
  b.memory("block.norms_modulation", (15.0 + (p.per_token_modulation ? 6.0 : 0.0)) * T * d * kHiddenBytes, 6);
  b.linear("self_attn.qkv_proj", T, d, 3 * p.dtp, awb);
  b.memory("self_attn.qk_norm_rope", 8.0 * T * p.dtp * c.dt.ab, 2);  // q and k: norm and RoPE, read + write
  b.sequence_parallel_attention("self_attn", 0);
  b.linear("self_attn.o_proj", T, p.dtp, d, awb);
  b.tp_all_reduce("self_attn.all_reduce", p.Sc);
  b.linear("cross_attn.q_proj", T, d, p.dtp, awb);
  b.linear("cross_attn.kv_proj", p.b * p.St, d, 2 * p.dtp, awb);
  b.memory("cross_attn.qk_norm", 4.0 * (T + p.b * p.St) * p.dtp * c.dt.ab, 2);
  b.attention("cross_attn.core", p.Sc, p.St, p.heads_chip, p.Sc * p.St);
  b.linear("cross_attn.o_proj", T, p.dtp, d, awb);
  b.tp_all_reduce("cross_attn.all_reduce", p.Sc);
  b.linear("ffn.up_proj", T, d, p.ftp, wb);
  b.linear("ffn.down_proj", T, p.ftp, d, wb);
  b.tp_all_reduce("ffn.all_reduce", p.Sc);
  return b.ops;
}

// HunyuanVideo's dual-stream block: separate weights for the video and text streams, one
// joint attention over both.
std::vector<Operator> dual_block(const Context& c, const DitPass& p, int kind, double count) {
  BlockOps b(c, p, kind, count);
  const double T = p.b * p.Sc, X = p.b * p.St, d = p.d, awb = c.dt.awb, wb = c.dt.wb;
  b.memory("block.norms_modulation", 10.0 * (T + X) * d * kHiddenBytes, 8);
  b.linear("block.adaln_linears", p.b, d, 12 * d, kEmbeddingBytes);  // AdaLayerNormZero for both streams
  b.linear("video.qkv_proj", T, d, 3 * p.dtp, awb);
  b.linear("text.qkv_proj", X, d, 3 * p.dtp, awb);
  b.memory("joint.qk_norm_rope", 8.0 * (T + X) * p.dtp * c.dt.ab, 2);
  b.sequence_parallel_attention("joint_attn", p.St);
  b.linear("video.o_proj", T, p.dtp, d, awb);
  b.linear("text.o_proj", X, p.dtp, d, awb);
  b.tp_all_reduce("attn.all_reduce", p.Sc + p.St);
  b.linear("video.ffn_up", T, d, p.ftp, wb);
  b.linear("video.ffn_down", T, p.ftp, d, wb);
  b.linear("text.ffn_up", X, d, p.ftp, wb);
  b.linear("text.ffn_down", X, p.ftp, d, wb);
  b.tp_all_reduce("ffn.all_reduce", p.Sc + p.St);
  return b.ops;
}

// HunyuanVideo's single-stream block: the concatenated sequence through one projection to
// q, k, v and the MLP input, joint attention, one output projection of [attention, MLP].
std::vector<Operator> single_block(const Context& c, const DitPass& p, int kind, double count) {
  BlockOps b(c, p, kind, count);
  const double T = p.b * (p.Sc + p.St), d = p.d, wb = c.dt.wb;
  b.memory("block.norm_modulation", 5.0 * T * d * kHiddenBytes, 3);
  b.linear("block.adaln_linear", p.b, d, 3 * d, kEmbeddingBytes);  // AdaLayerNormZeroSingle
  b.linear("single.qkv_mlp_proj", T, d, 3 * p.dtp + p.ftp, wb);
  b.memory("single.qk_norm_rope", 8.0 * T * p.dtp * c.dt.ab, 2);
  b.sequence_parallel_attention("joint_attn", p.St);
  b.linear("single.out_proj", T, p.dtp + p.ftp, d, wb);
  b.tp_all_reduce("single.all_reduce", p.Sc + p.St);
  return b.ops;
}

// HunyuanVideo's token refiner over the text tokens (attention, SiLU MLP, gates).
std::vector<Operator> refiner_block(const Context& c, const DitPass& p, int kind, double count) {
  BlockOps b(c, p, kind, count);
  const double X = p.b * p.St, d = p.d, awb = c.dt.awb, wb = c.dt.wb;
  b.memory("refiner.norms", 6.0 * X * d * kHiddenBytes, 4);
  b.linear("refiner.ada_norm", p.b, d, 2 * d, kEmbeddingBytes);
  b.linear("refiner.qkv_proj", X, d, 3 * p.dtp, awb);
  b.attention("refiner.core", p.St, p.St, p.heads_chip, p.St * p.St);
  b.linear("refiner.o_proj", X, p.dtp, d, awb);
  b.tp_all_reduce("refiner.attn_all_reduce", p.St);
  b.linear("refiner.ffn_up", X, d, p.ftp, wb);
  b.linear("refiner.ffn_down", X, p.ftp, d, wb);
  b.tp_all_reduce("refiner.ffn_all_reduce", p.St);
  return b.ops;
}

std::vector<Operator> blocks_of(const Context& c, const DitPass& p, int kind, double count) {
  if (count <= 0) return {};
  switch (kind) {
    case kCross: return wan_block(c, p, kind, count);
    case kDual: return dual_block(c, p, kind, count);
    case kSingle: return single_block(c, p, kind, count);
    default: return refiner_block(c, p, kind, count);
  }
}

// Before the blocks: the patch embedding, the timestep MLP and adaLN projection (once per
// sequence, or per token for Wan2.2 TI2V), the text (and pooled CLIP) projections.
std::vector<Operator> embeddings(const Context& c, const DitConfig& t, const DitPass& p) {
  std::vector<Operator> ops;
  auto step = [&](Operator o) { ops.push_back(scoped(std::move(o), Scope::step, -1, 1)); };
  const double d = p.d, T = p.b * p.Sc;
  const double patch = double(t.patch_t) * t.patch_h * t.patch_w;
  step(matmul_op(c, "patch_embed", T, t.in_channels * patch, d, t.in_channels * patch * d, kEmbeddingBytes, c.dt.matmul));
  const double time_tokens = t.per_token_timesteps ? T : p.b;
  if (t.image()) {
    // FLUX: timestep (+ guidance) MLPs and the pooled CLIP projection, context_embedder over
    // the T5 states. Qwen-Image: the timestep MLP, txt_norm (RMS) and txt_in.
    const double guidance = t.guidance_embeds ? 2 : 1;
    step(matmul_op(c, "time_embed", p.b, 256, d, guidance * (256.0 * d + d * d), kEmbeddingBytes, c.dt.matmul));
    if (t.family == DitFamily::qwen_image)
      step(memory_op("text_norm", 2.0 * p.b * p.St * t.text_dim * kHiddenBytes));
    step(matmul_op(c, "text_embed", p.b * p.St, t.text_dim, d, double(t.text_dim) * d, kEmbeddingBytes, c.dt.matmul));
    if (t.pooled_dim > 0)
      step(matmul_op(c, "pooled_embed", p.b, t.pooled_dim, d, double(t.pooled_dim) * d + d * d, kEmbeddingBytes,
                     c.dt.matmul));
    return ops;
  }
  const bool wan = t.family == DitFamily::wan;
  const double time_w = wan ? double(t.freq_dim) * d + d * d + 6 * d * d : (t.guidance_embeds ? 2 : 1) * (256.0 * d + d * d);
  step(matmul_op(c, "time_embed", time_tokens, t.freq_dim, wan ? 6 * d : d, time_w, kEmbeddingBytes, c.dt.matmul));
  const double text_w = wan ? double(t.text_dim) * d + d * d : 2 * double(t.text_dim) * d + d * d;
  step(matmul_op(c, "text_embed", p.b * p.St, t.text_dim, d, text_w, kEmbeddingBytes, c.dt.matmul));
  if (!wan)
    step(matmul_op(c, "pooled_embed", p.b, t.pooled_dim, d, double(t.pooled_dim) * d + d * d, kEmbeddingBytes,
                   c.dt.matmul));
  return ops;
}

// After the blocks: the output norm and projection, the sequence-parallel gather of the
// output latent, the CFG exchange, and the guidance combination and sampler update over the
// fp32 latent.
std::vector<Operator> output(const Context& c, const DitConfig& t, const DitPass& p, const VideoPlacement& pl,
                             bool guidance) {
  std::vector<Operator> ops;
  auto step = [&](Operator o) {
    if (o.kind != OpKind::collective || o.collective.ranks > 1) ops.push_back(scoped(std::move(o), Scope::step, -1, 1));
  };
  const double d = p.d, T = p.b * p.Sc;
  const double out = double(t.out_channels) * t.patch_t * t.patch_h * t.patch_w;
  if (t.family != DitFamily::wan)
    step(matmul_op(c, "norm_out_modulation", p.b, d, 2 * d, 2 * d * d, kEmbeddingBytes, c.dt.matmul));
  step(memory_op("norm_out", 3.0 * T * d * kHiddenBytes));
  step(matmul_op(c, "proj_out", T, d, out, d * out, kEmbeddingBytes, c.dt.matmul));
  step(collective_op("sp.gather_output", "all-gather", p.b * p.S * out * kHiddenBytes, pl.sp(), pl.tp));
  step(collective_op("cfg.exchange_noise", "all-gather", 2 * p.samples * p.S * out * kHiddenBytes, pl.cfg, pl.tp * pl.sp()));
  step(memory_op("sampler_step", (guidance ? 5.0 : 3.0) * p.samples * p.S * out * kLatentBytes, guidance ? 2 : 1));
  return ops;
}

// One denoising step in execution order: embeddings, (Hunyuan) the token refiner, the blocks
// (FLUX and Qwen-Image's double-stream blocks are the dual kind, FLUX's single-stream blocks
// the single kind: the same structure as HunyuanVideo's),
// the output. A cached step runs only the first denoiser block and adds back the cached
// residual of the others.
std::vector<Operator> denoise_step(const Context& c, const VideoModelConfig& m, const DitPass& p,
                                   const VideoPlacement& pl, bool guidance, bool cached) {
  const DitConfig& t = m.transformer;
  std::vector<Operator> ops = embeddings(c, t, p);
  auto append = [&](std::vector<Operator> v) { ops.insert(ops.end(), v.begin(), v.end()); };
  append(blocks_of(c, p, kRefiner, t.refiner_blocks));
  double left = cached ? 1 : t.blocks();  // denoiser blocks still to run
  for (auto [kind, n] : {std::pair<int, double>{kCross, t.cross_blocks}, {kDual, t.dual_blocks}, {kSingle, t.single_blocks}}) {
    const double run = std::min(n, left);
    left -= run;
    append(blocks_of(c, p, kind, run));
  }
  if (cached)
    ops.push_back(scoped(memory_op("step_cache.apply_residual", 3.0 * p.b * p.Sc * p.d * kHiddenBytes), Scope::step, -1, 1));
  append(output(c, t, p, pl, guidance));
  return ops;
}

// ---- text encoders ----------------------------------------------------------------------------

std::vector<Operator> text_encoding(const Context& c, const VideoModelConfig& m, double prompts, int prompt_tokens) {
  std::vector<Operator> ops;
  for (const auto& e : m.text_encoders) {
    const double L = e.max_tokens > 0 ? std::min<double>(prompt_tokens, e.max_tokens) : prompt_tokens;
    const double T = prompts * L, d = e.hidden, q = double(e.heads) * e.head_dim, kv = double(e.kv_heads) * e.head_dim;
    const double n = e.layers;
    const std::string p = e.role + ".";
    auto layer = [&](Operator o) { ops.push_back(scoped(std::move(o), Scope::step, -1, n)); };
    ops.push_back(scoped(memory_op(p + "embedding", T * d * 2 * kEmbeddingBytes), Scope::step, -1, 1));
    layer(memory_op(p + "norms_residual", 4.0 * T * d * kHiddenBytes, 2));
    layer(matmul_op(c, p + "qkv_proj", T, d, q + 2 * kv, d * (q + 2 * kv), kEmbeddingBytes, "bf16"));
    Operator a;
    a.kind = OpKind::attention;
    a.name = p + "attention";
    a.dtype = "bf16";
    const double pairs = e.causal ? L * (L + 1) / 2 : L * L;
    a.flops = 4.0 * prompts * pairs * q;
    a.hbm_bytes = T * (2 * q + 2 * kv) * kHiddenBytes;
    a.seq_q = a.seq_kv = L;
    a.head_dim = e.head_dim;
    a.heads = prompts * e.heads;
    a.causal = e.causal;
    layer(a);
    layer(matmul_op(c, p + "o_proj", T, q, d, q * d, kEmbeddingBytes, "bf16"));
    const double up = (e.gated ? 2.0 : 1.0) * e.ffn;
    layer(matmul_op(c, p + "ffn_up", T, d, up, d * up, kEmbeddingBytes, "bf16"));
    layer(matmul_op(c, p + "ffn_down", T, e.ffn, d, double(e.ffn) * d, kEmbeddingBytes, "bf16"));
  }
  return ops;
}

// ---- the VAE decode ---------------------------------------------------------------------------

double frames_at(double latent_frames, int temporal_level) {
  return latent_frames <= 0 ? 0 : 1 + std::ldexp(1.0, temporal_level) * (latent_frames - 1);
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}
double sum_sq(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return s;
}

std::vector<double> extents(double length, double tile, double stride) {
  if (tile <= 0 || length <= tile) return {length};
  std::vector<double> e;
  for (double i = 0; i < length; i += stride) e.push_back(std::min(tile, length - i));
  return e;
}

// One decoder layer over every tile and temporal piece, on one chip.
Operator vae_op(const VaeLayer& l, const VaeTiling& g) {
  const double s = std::ldexp(1.0, l.spatial_level);
  const double area = sum(g.rows) * sum(g.cols) * s * s;  // pixels at this level, all tiles
  double frames = 0;
  for (double n : g.pieces) frames += frames_at(n, l.temporal_level) - (l.skips_first_frame ? 1 : 0);
  const double voxels = frames * area;
  Operator o;
  o.name = "vae." + l.name;
  o.dtype = "bf16";
  if (l.op == VaeOp::conv) {
    o.kind = OpKind::conv;
    const double k = double(l.kt) * l.kh * l.kw;
    o.flops = 2.0 * voxels * l.c_in * l.c_out * k;
    o.hbm_bytes = voxels * (l.c_in + l.c_out) * kHiddenBytes + l.c_in * l.c_out * k * kHiddenBytes;
    o.m = voxels;  // the implicit GEMM: output voxels x (c_in x kernel) -> c_out
    o.k = l.c_in * k;
    o.n = l.c_out;
  } else if (l.op == VaeOp::attention) {
    o.kind = OpKind::attention;
    // Pairs: per frame over its pixels (Wan), or frame-causal over a piece's pixels (Hunyuan).
    const double tile_pairs = sum_sq(g.rows) * sum_sq(g.cols) * s * s * s * s;
    double pair_frames = 0;
    for (double n : g.pieces) pair_frames += l.frame_causal_attention ? n * (n + 1) / 2 : frames_at(n, l.temporal_level);
    o.flops = 4.0 * l.c_in * tile_pairs * pair_frames;
    o.hbm_bytes = 4.0 * voxels * l.c_in * kHiddenBytes;
  } else {
    o.kind = OpKind::memory;
    o.hbm_bytes = 2.0 * l.passes * voxels * l.c_in * kHiddenBytes;  // each pass reads and writes
    o.kernels = std::ceil(l.passes);
  }
  o.kernels *= g.tiles() * g.pieces.size();
  return scoped(o, Scope::step, -1, 1);
}

// Peak activation bytes of the decode on one chip: the widest layer's input and output over
// one call (Wan: one latent frame with its causal feature cache of 2 frames per 3-D conv;
// Hunyuan: one temporal piece) of the largest tile.
double vae_activation_bytes(const VaeConfig& v, const VaeTiling& g) {
  const double tile_area = *std::max_element(g.rows.begin(), g.rows.end()) * *std::max_element(g.cols.begin(), g.cols.end());
  const double piece = v.temporal_tile > 0 ? *std::max_element(g.pieces.begin(), g.pieces.end()) : 2;
  double peak = 0, cache = 0;
  for (const auto& l : v.decoder) {
    const double s = std::ldexp(1.0, l.spatial_level), area = tile_area * s * s;
    const double frames = v.temporal_tile > 0 ? frames_at(piece, l.temporal_level) : std::ldexp(1.0, l.temporal_level);
    peak = std::max(peak, frames * area * (l.c_in + l.c_out) * kHiddenBytes);
    if (v.temporal_tile == 0 && l.op == VaeOp::conv && l.kt > 1) cache += 2 * area * l.c_in * kHiddenBytes;
  }
  return peak + cache;
}

// ---- memory -------------------------------------------------------------------------------

double transformer_weight_bytes(const VideoModelConfig& m, const Dtypes& dt, int tp) {
  const DitConfig& t = m.transformer;
  const double d = t.hidden, f = t.ffn;
  // Per block: the attention projections at the attention-weight precision, the FFN at the
  // weight precision; embeddings, norms and modulation in BF16, replicated.
  const double attn = t.cross_blocks * 8 * d * d + t.dual_blocks * 8 * d * d + t.refiner_blocks * 4 * d * d +
                      t.single_blocks * 3 * d * d;
  const double mlp = t.cross_blocks * 2 * d * f + t.dual_blocks * 4 * d * f + t.refiner_blocks * 2 * d * f +
                     t.single_blocks * (d * f + (d + f) * d);
  const double all = model::count_video_parameters(m).transformer;
  return (attn * dt.awb + mlp * dt.wb) / tp + (all - attn - mlp) * kEmbeddingBytes;
}

double denoise_activation_bytes(const DitConfig& t, const DitPass& p, bool cached) {
  const double T = p.b * (p.Sc + p.St);
  const double widest = std::max(3 * p.dtp + (t.single_blocks ? p.ftp : 0), p.ftp + p.d);
  const double ulysses = p.u > 1 ? 3 * p.b * (p.S / p.r) * (p.dtp / p.u) : 0;  // the gathered q, k, v
  return (T * (2 * p.d + widest) + ulysses) * kHiddenBytes + (cached ? p.b * p.Sc * p.d * kHiddenBytes : 0);
}

}  // namespace

const std::vector<std::string>& video_block_kinds() {
  static const std::vector<std::string> k = {"cross", "dual", "single", "refiner"};
  return k;
}

VideoShape video_shape(const VideoModelConfig& m, const VideoSizes& s) {
  const VaeConfig& v = m.vae;
  const DitConfig& t = m.transformer;
  VideoShape sh;
  const int tc = v.temporal_compression, grid = v.spatial_compression * t.patch_h;
  if (t.image() && s.frames != 1)
    throw InputError("workload.video.frames", "must be 1: " + t.class_name + " is an image model (one frame per image), got " +
                                                  std::to_string(s.frames));
  if ((s.frames - 1) % tc != 0)
    throw InputError("workload.video.frames",
                     "must be 1 + a multiple of the VAE's temporal compression " + std::to_string(tc) + " (e.g. " +
                         std::to_string(s.frames - (s.frames - 1) % tc) + " or " +
                         std::to_string(s.frames - (s.frames - 1) % tc + tc) + "), got " + std::to_string(s.frames));
  sh.latent_frames = (s.frames - 1) / tc + 1;
  if (sh.latent_frames % t.patch_t != 0)
    throw InputError("workload.video.frames", "gives " + std::to_string(sh.latent_frames) +
                                                  " latent frames, not a multiple of the temporal patch " +
                                                  std::to_string(t.patch_t));
  for (auto [name, px] : {std::pair<const char*, int>{"width", s.width}, {"height", s.height}})
    if (px % grid != 0)
      throw InputError(std::string("workload.video.") + name,
                       "must be a multiple of " + std::to_string(grid) + " (VAE " + std::to_string(v.spatial_compression) +
                           " x patch " + std::to_string(t.patch_h) + "), got " + std::to_string(px) + " (nearest: " +
                           std::to_string(px / grid * grid) + " or " + std::to_string(px / grid * grid + grid) + ")");
  sh.latent_h = s.height / v.spatial_compression;
  sh.latent_w = s.width / v.spatial_compression;
  sh.video_tokens = double(sh.latent_frames / t.patch_t) * (sh.latent_h / t.patch_h) * (sh.latent_w / t.patch_w);
  sh.text_tokens = s.prompt_tokens;
  sh.duration_s = s.frames / s.fps;
  return sh;
}

VaeTiling vae_tiling(const VaeConfig& v, const VideoShape& sh, int tile_px) {
  VaeTiling g;
  const double tile = double(tile_px) / v.spatial_compression, stride = 0.75 * tile;
  g.rows = extents(sh.latent_h, tile, stride);
  g.cols = extents(sh.latent_w, tile, stride);
  if (v.temporal_tile > 0 && sh.latent_frames > v.temporal_tile) {
    for (int i = 0; i < sh.latent_frames; i += v.temporal_stride)
      g.pieces.push_back(std::min(v.temporal_tile + 1, sh.latent_frames - i));
  } else {
    g.pieces = {double(sh.latent_frames)};
  }
  return g;
}

VideoPlan plan_video(const VideoModelConfig& m, const Dtypes& dt, const VideoPlacement& pl, const VideoSizes& s) {
  const DitConfig& t = m.transformer;
  VideoPlan P;
  P.shape = video_shape(m, s);
  P.placement = pl;
  P.tiling = vae_tiling(m.vae, P.shape, s.vae_tile);
  P.branches = s.guidance ? 2 : 1;
  if (s.batch > 1 && !t.image())
    throw InputError("workload.video.batch", "must be 1 for a video model (" + t.class_name +
                                                 "): batching is modeled for image models; use dp for more clips");
  P.samples = s.batch;
  P.batch = P.branches / pl.cfg * s.batch;
  P.cache_interval = s.cache_interval;
  P.full_steps = (s.steps + s.cache_interval - 1) / s.cache_interval;
  P.cached_steps = s.steps - P.full_steps;

  const Context c{no_llm(), dt, Placement{}};
  DitPass p;
  p.b = P.batch;
  p.S = P.shape.video_tokens;
  p.Sc = p.S / pl.sp();
  p.St = P.shape.text_tokens;
  p.d = t.hidden;
  p.dtp = double(t.hidden) / pl.tp;
  p.ftp = double(t.ffn) / pl.tp;
  p.hd = t.head_dim;
  p.heads_chip = double(t.heads) / pl.tp;
  p.tp = pl.tp, p.u = pl.ulysses, p.r = pl.ring;
  p.per_token_modulation = t.per_token_timesteps;
  p.samples = s.batch;

  P.block_counts = {double(t.cross_blocks), double(t.dual_blocks), double(t.single_blocks), double(t.refiner_blocks)};
  P.text = text_encoding(c, m, P.batch, s.prompt_tokens);
  P.step = denoise_step(c, m, p, pl, s.guidance, false);
  if (P.cached_steps > 0) P.cached_step = denoise_step(c, m, p, pl, s.guidance, true);
  for (const auto& o : P.step) {
    P.step_flops += o.count * o.flops;
    if (o.kind == OpKind::attention) P.step_attention_flops += o.count * o.flops;
  }

  // The decode: on one chip, or its tiles spread over the replica's chips.
  const int tiles = P.tiling.tiles();
  P.vae_chips = s.vae_parallel ? std::min(tiles, pl.chips_per_replica()) : 1;
  P.vae_share = double((tiles + P.vae_chips - 1) / P.vae_chips) / tiles;
  for (const auto& l : m.vae.decoder) {
    Operator o = vae_op(l, P.tiling);
    o.count = P.vae_share * s.batch;  // each image decoded in turn
    P.vae.push_back(o);
  }
  if (P.vae_chips > 1) {  // the decoded frames (3 channels, BF16) gathered from the chips' tiles
    const double pixels = double(s.frames) * s.width * s.height * s.batch;
    P.vae.push_back(scoped(collective_op("vae.gather_frames", "all-gather", pixels * 3 * kHiddenBytes, P.vae_chips, 1),
                           Scope::step, -1, 1));
  }

  double text_w = 0;
  for (const auto& e : m.text_encoders) text_w += e.params;
  P.memory.push_back({"transformer_weights", transformer_weight_bytes(m, dt, pl.tp)});
  P.memory.push_back({"text_encoder_weights", text_w * kEmbeddingBytes});
  P.memory.push_back({"vae_weights", m.vae.decoder_params * kHiddenBytes});
  const double latents = 3 * s.batch * P.shape.video_tokens * t.out_channels * t.patch_t * t.patch_h * t.patch_w * kLatentBytes;
  const double act = std::max(denoise_activation_bytes(t, p, P.cached_steps > 0), vae_activation_bytes(m.vae, P.tiling));
  P.memory.push_back({"latents", latents});
  P.memory.push_back({"activations", act});
  return P;
}

}  // namespace trnsim::plan
