// Diffusion-transformer video models, imported from their published diffusers configs.
//
// A bundled video model (examples/models/video/<name>.json) is one JSON object holding the
// configs of a diffusers pipeline as its publisher wrote them, each under its subfolder's name:
//   "model_index"     the pipeline's model_index.json (optional: which classes, expand_timesteps)
//   "transformer"     the denoiser's transformer/config.json (required)
//   "vae"             the autoencoder's vae/config.json (required)
//   "text_encoder"    text_encoder/config.json, a transformers config (required)
//   "text_encoder_2"  a second text encoder (optional: HunyuanVideo's CLIP-L)
// A scenario may give the same object inline instead of a bundled name.
//
// What it models
//  - The denoiser, per transformer block: Wan's blocks (WanTransformer3DModel: self-attention
//    over the video tokens, cross-attention to the text tokens, a GELU FFN, adaLN modulation)
//    and HunyuanVideo's (HunyuanVideoTransformer3DModel: 2 token-refiner blocks over the text,
//    dual-stream blocks with separate weights for video and text tokens and one joint
//    attention, single-stream blocks with the attention and MLP in parallel), their patch
//    embedding, condition embeddings and output projection; exact parameter counts.
//  - Image MMDiTs, one frame each: FLUX.1 (FluxTransformer2DModel: double-stream blocks with
//    separate image / text weights and one joint attention, single-stream blocks with the
//    attention and MLP in parallel, timestep + guidance + pooled CLIP embeddings; guidance-
//    distilled checkpoints run one pass per step) and Qwen-Image (QwenImageTransformer2DModel:
//    double-stream blocks only, timestep embedding, RMS-normed text input). Their pipelines pack
//    2x2 latent pixels into one token (64 = 16 latent channels x 4).
//  - Image VAE decoders: AutoencoderKL (2-D: FLUX) and AutoencoderKLQwenImage (Wan 2.1's
//    causal 3-D decoder, run on one frame).
//  - The VAE decoder as the list of its layers (3-D causal convolutions, 2-D convolutions
//    applied per frame, the mid-block attention, norms and resampling), each with its channels,
//    kernel and the spatial and temporal scale it runs at, walked the way diffusers builds
//    AutoencoderKLWan (Wan 2.1 and Wan 2.2's residual variant) and AutoencoderKLHunyuanVideo.
//  - Text encoders: T5 / UMT5 encoders (gated or not), Llama and Qwen2 models (through the LLM
//    importer, core/model/llm.h; Qwen-Image's Qwen2.5-VL is given as its language model) and
//    CLIP text models: layers, widths, heads, parameters.
// Every key of every config is accounted for, as for LLM configs: read, ignored because it
// cannot change cost (ids, initialisation, normalisation constants, library versions), a
// warning for behaviour not simulated (RoPE settings, image conditioning), a warning naming an
// unknown key, or an error naming the field for what cannot be represented (an unsupported
// class, VACE control layers, a second MoE transformer).
//
// Sources: diffusers (huggingface/diffusers) src/diffusers/models/transformers/transformer_wan.py,
// transformer_hunyuan_video.py, transformer_flux.py, transformer_qwenimage.py,
// autoencoders/autoencoder_kl_wan.py, autoencoder_kl_hunyuan_video.py, autoencoder_kl.py and vae.py
// (Decoder), autoencoder_kl_qwenimage.py (the layer structure); the bundled configs and their
// .source.md notes (the numbers).
//
// NOT modeled: numerics; Wan2.2's A14B two-expert switch (transformer_2); image-to-video
// conditioning (CLIP image tokens, image latents); VACE; the VAE encoder (text-to-video
// decodes only); CogVideoX and other families (an error names the class); image editing
// (Qwen-Image-Edit's reference latents, zero_cond_t / additional timestep conditions), FLUX
// ControlNets, IP-Adapters and FLUX.2 (Flux2Transformer2DModel).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::model {

// Which denoiser architecture the transformer config describes.
// flux and qwen_image are image models (one frame; the pipeline packs 2x2 latent pixels into a
// token, so patch_h = patch_w = 2 and in_channels counts latent channels per pixel).
enum class DitFamily { wan, hunyuan_video, flux, qwen_image };

struct DitConfig {
  std::string class_name;  // "WanTransformer3DModel"
  DitFamily family = DitFamily::wan;
  int heads = 0, head_dim = 0, hidden = 0;  // hidden = heads x head_dim
  int ffn = 0;                 // FFN / MLP width
  int in_channels = 0, out_channels = 0;
  int patch_t = 1, patch_h = 1, patch_w = 1;
  int text_dim = 0;            // width of the text encoder's hidden states it projects
  int freq_dim = 256;          // sinusoidal timestep width
  // Wan: cross-attention blocks. HunyuanVideo: dual-stream, single-stream, refiner blocks.
  int cross_blocks = 0, dual_blocks = 0, single_blocks = 0, refiner_blocks = 0;
  int pooled_dim = 0;          // HunyuanVideo, FLUX: CLIP pooled projection width (0: none)
  bool guidance_embeds = false;   // guidance-distilled: the scale is an input, one pass per step
  bool per_token_timesteps = false;  // model_index expand_timesteps (Wan2.2 TI2V): time MLP per token
  bool cross_attn_norm = true;
  int blocks() const { return cross_blocks + dual_blocks + single_blocks; }
  // An image model (FluxTransformer2DModel, QwenImageTransformer2DModel): one frame per sample.
  bool image() const { return family == DitFamily::flux || family == DitFamily::qwen_image; }
};

// One layer of the VAE decoder, at the scale it runs at: its input is the latent grid
// upsampled 2^spatial_level times in height and width and temporal_level times in time
// (frames = 1 + 2^temporal_level x (latent frames - 1), the causal first frame kept single).
enum class VaeOp { conv, attention, elementwise };
struct VaeLayer {
  std::string name;      // "up_blocks.1.resnets.0.conv1"
  VaeOp op = VaeOp::conv;
  int c_in = 0, c_out = 0;
  int kt = 1, kh = 1, kw = 1;  // kernel; kt == 1 for per-frame 2-D convolutions
  int spatial_level = 0, temporal_level = 0;
  bool skips_first_frame = false;  // Wan's temporal upsample conv: not run on the causal first frame
  bool frame_causal_attention = false;  // attention over every frame's pixels (Hunyuan) vs per frame (Wan)
  double passes = 1;     // elementwise: read + write passes over the activation
};

struct VaeConfig {
  std::string class_name;
  int latent_channels = 0;
  int temporal_compression = 4, spatial_compression = 8;
  int output_patch = 1;        // Wan2.2: the decoder outputs 2x2 pixel patches (unpatchify)
  std::vector<VaeLayer> decoder;  // in execution order, post_quant_conv first
  double decoder_params = 0;
  // Temporal tiling of the decode (diffusers' defaults): 0 = the whole latent in one causal
  // pass (Wan decodes frame by frame with a feature cache: the same work); else tiles of
  // temporal_tile latent frames (+ the causal first) every temporal_stride latent frames.
  int temporal_tile = 0, temporal_stride = 0;
};

struct TextEncoderConfig {
  std::string role;        // "text_encoder", "text_encoder_2"
  std::string model_type;  // "umt5", "t5", "llama", "clip_text_model"
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn = 0;
  bool gated = false;      // gated FFN (T5 v1.1 gated-gelu, SwiGLU): three matrices, else two
  bool causal = false;     // causal self-attention (decoder-only LLMs used as encoders)
  int vocab = 0;
  int max_tokens = 0;      // 0: no limit (relative positions); CLIP: 77
  double params = 0;
};

struct VideoModelConfig {
  std::string name;  // bundled name or "inline"
  std::string pipeline_class;  // model_index _class_name ("" when absent)
  DitConfig transformer;
  VaeConfig vae;
  std::vector<TextEncoderConfig> text_encoders;
  std::vector<std::string> warnings;        // unmodeled or unknown fields, one line each
  std::vector<std::string> ignored_fields;  // cost-irrelevant, "vae.latents_mean" style
};

// Imports a bundle object (see above). `path` names it in errors ("workload.model" or the file).
VideoModelConfig import_video_config(const json& bundle, const std::string& path, const std::string& name);
// True when `config` is shaped like a video bundle (an object with a "transformer" key).
bool is_video_bundle(const json& config);

// Names of the bundled video models (examples/models/video/*.json stems), sorted.
std::vector<std::string> bundled_video_model_names();
// "HunyuanVideo, Wan2.1-T2V-1.3B, ...": the names for messages.
std::string bundled_video_model_list();
// Accepts a bundled language or video model name; else an InputError naming `field` that
// lists both kinds with the closest name.
void check_bundled_model_name(const std::string& name, const std::string& field);
// The bundled bundle's JSON, or nullptr when no video model has that name.
const std::string* bundled_video_model_text(const std::string& name);
// The bundled model imported once (shared); InputError naming `field` when unknown.
std::shared_ptr<const VideoModelConfig> bundled_video_model(const std::string& name, const std::string& field);

// Parameter counts (exact, as doubles).
struct VideoParamCounts {
  double transformer = 0;
  double blocks = 0;        // all transformer blocks
  double per_block_cross = 0, per_block_dual = 0, per_block_single = 0, per_block_refiner = 0;
  double embeddings = 0;    // patch, time, text (and guidance / pooled) embeddings, refiner input
  double head = 0;          // output norm modulation and projection
  double vae_decoder = 0;
  double text_encoders = 0;
  double total() const { return transformer + vae_decoder + text_encoders; }
};
VideoParamCounts count_video_parameters(const VideoModelConfig& m);
// Weight elements of one block of each kind (Wan cross, Hunyuan dual / single / refiner).
double cross_block_params(const DitConfig& t);
double dual_block_params(const DitConfig& t);
double single_block_params(const DitConfig& t);
double refiner_block_params(const DitConfig& t);
double text_encoder_layer_params(const TextEncoderConfig& e);

}  // namespace trnsim::model
