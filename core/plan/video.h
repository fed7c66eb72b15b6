// The video plan: what one chip does to generate one clip with a diffusion-transformer video
// model (core/model/video.h) -- the text encoding, one denoising step (and one cached step),
// the VAE decode -- as operators with FLOPs, bytes moved, bytes held and the collectives each
// exchange needs; no hardware and no times (the pricer and core/schedule/video.h do those).
//
// The clip: frames F, height H, width W become a latent grid of F' = (F - 1) / t + 1 frames
// and H / s x W / s pixels (VAE temporal compression t, spatial s), patched into
// S = (F' / pt) (H' / ph) (W' / pw) video tokens: the sequence every self-attention runs over,
// so its cost grows as S^2 while the linear layers grow as S.
//
// Placement (chip index = tp rank + tp x (ulysses rank + u x (ring rank + r x (cfg rank + c x
// replica)))): tensor parallelism splits heads and FFN columns over tp chips (Megatron: an
// all-reduce after each attention output and FFN); sequence parallelism splits the video tokens
// over u x r chips -- Ulysses (DeepSpeed-Ulysses, xDiT's USP) turns the token shards into head
// shards with an all-to-all before each self-attention and back after, ring attention passes
// key/value blocks around r chips (overlapped with the attention: core/schedule/video.h);
// cross-attention and the text stream need no exchange (every chip holds the text tokens).
// With classifier-free guidance the conditional and unconditional passes are one batch of two
// on the same chips, or (cfg parallel) one each on two chip groups that exchange the noise
// prediction every step; replicas generate other clips. The output latent is all-gathered over
// the sequence-parallel chips at the end of each step (the scheduler updates the whole latent).
// The text encoders run once per clip, replicated on every chip; the VAE decodes on one chip,
// or its spatial tiles spread over the replica's chips (vae_parallel).
//
// An image (FLUX, Qwen-Image) is a clip of one frame: the same loop, no temporal axis.
//
// Attention path: the Diffusers ports call F.scaled_dot_product_attention, which torch-neuronx
// hands to its NKI flash kernel only when both sequence lengths are multiples of 512; every
// other attention is marked attention_path "decomposed" (scores through HBM), which the engine
// pricer prices as separate QK^T, softmax and PV kernels (core/engine); the roofline keeps
// the flash kernel's traffic for both.
//
// Sources: the operator structure of diffusers' WanTransformer3DModel, HunyuanVideoTransformer3DModel,
// FluxTransformer2DModel, QwenImageTransformer2DModel and autoencoders (model/video.h); Ulysses (Jacobs et al. 2023, DeepSpeed-Ulysses), ring
// attention (Liu et al. 2023), USP / xDiT (Fang et al. 2024) for the placements; diffusers'
// tiled decode (256-pixel tiles every 192) for the tile layout.
// NOT modeled: patch (PipeFusion) parallelism, the all-gather K/V variant of context
// parallelism (priced as ring), QK-norm statistics across TP ranks, attention masks of padded
// text, numerics and output quality (step caching's error), the VAE encoder (image-to-video),
// temporal tiling beyond diffusers' defaults, kernel fusion beyond what is stated per operator.
#pragma once
#include <string>
#include <vector>

#include "model/video.h"
#include "plan/plan.h"

namespace trnsim::plan {

// The clip and loop as the scenario asks (workload.video).
struct VideoSizes {
  int width = 0, height = 0, frames = 0;
  double fps = 0;
  int steps = 0;
  bool guidance = true;   // classifier-free guidance: two branches per step
  int prompt_tokens = 0;
  int cache_interval = 1;
  int vae_tile = 0;       // px, 0 = whole frames
  bool vae_parallel = false;
  int batch = 1;          // images per pass (image models)
};

struct VideoPlacement {
  int tp = 1, ulysses = 1, ring = 1, cfg = 1, dp = 1;
  int sp() const { return ulysses * ring; }
  int chips_per_replica() const { return tp * sp() * cfg; }
  int chips() const { return chips_per_replica() * dp; }
};

// The latent grid and token counts. InputError naming workload.video.frames / width / height
// when the clip does not fit the VAE's strides and the patch.
struct VideoShape {
  int latent_frames = 0, latent_h = 0, latent_w = 0;
  double video_tokens = 0;  // S
  double text_tokens = 0;   // per prompt
  double duration_s = 0;    // frames / fps
};
VideoShape video_shape(const model::VideoModelConfig& m, const VideoSizes& s);

// The decode's tiles: latent rows / columns of each tile row / column, and temporal pieces.
struct VaeTiling {
  std::vector<double> rows, cols;  // latent extents (one entry each when untiled)
  std::vector<double> pieces;      // latent frames per temporal piece
  int tiles() const { return static_cast<int>(rows.size() * cols.size()); }
};
VaeTiling vae_tiling(const model::VaeConfig& v, const VideoShape& shape, int tile_px);

// Block kinds of the denoiser ("layer types" of the plan): Wan's cross-attention blocks,
// HunyuanVideo's dual-stream, single-stream and token-refiner blocks.
const std::vector<std::string>& video_block_kinds();  // "cross", "dual", "single", "refiner"

struct VideoPlan {
  VideoShape shape;
  VideoPlacement placement;
  VaeTiling tiling;
  double batch = 1;         // sequences per chip in one transformer pass (2: CFG batched; x images)
  double samples = 1;       // images (or clips) generated together: the batch field
  double branches = 1;      // passes per step over the whole replica (2 with guidance)
  int full_steps = 0, cached_steps = 0;
  int cache_interval = 1;  // step i runs fully when i % cache_interval == 0
  std::vector<double> block_counts;  // blocks of each kind in a full step (video_block_kinds order)
  int vae_chips = 1;        // chips sharing the decode
  double vae_share = 1;     // fraction of the decode the busiest of them does
  // Scope layer (layer_type = the block kind, count = blocks of that kind) or step.
  std::vector<Operator> text;         // once per clip
  std::vector<Operator> step;         // one full denoising step
  std::vector<Operator> cached_step;  // one cached step (empty when caching is off)
  std::vector<Operator> vae;          // the decode on the busiest decoding chip
  std::vector<MemoryItem> memory;     // bytes held per chip (the runtime reserve is added later)
  double step_flops = 0, step_attention_flops = 0;  // per chip, one full step
};
VideoPlan plan_video(const model::VideoModelConfig& m, const Dtypes& dt, const VideoPlacement& pl,
                     const VideoSizes& s);

}  // namespace trnsim::plan
