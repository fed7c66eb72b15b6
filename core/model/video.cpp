// Video model bundles: key accounting, the denoiser, the VAE decoder's layer list and the text
// encoders (video.h). Structure after diffusers' model classes (sources in video.h).
#include "model/video.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/format.h"
#include "embedded.h"
#include "model/hf_reader.h"
#include "model/llm.h"

namespace trnsim::model {

namespace {

// ---- reading one published config with every key accounted for ---------------------------

bool empty_value(const json& v) {
  return v.is_null() || (v.is_boolean() && !v.get<bool>()) || (v.is_array() && v.empty()) ||
         (v.is_object() && v.empty());
}

// Reads one config object: typed reads name the field; keys read, ignored, unmodeled (warned
// when set) and refused (an error when set) are all accounted for, and finish() warns about
// every other key by name.
class ConfigReader {
 public:
  ConfigReader(const json& j, std::string path, std::string role, VideoModelConfig& out)
      : j_(j), path_(std::move(path)), role_(std::move(role)), out_(out) {
    if (!j_.is_object()) throw InputError(path_, std::string("expected a config object, got ") + j_.type_name());
  }
  std::string at(const std::string& key) const { return field_path(path_, key); }
  bool has(const std::string& key) {
    used_.insert(key);
    auto it = j_.find(key);
    return it != j_.end() && !it->is_null();
  }
  const json& raw(const std::string& key) {
    used_.insert(key);
    return j_.at(key);
  }
  // A whole number in [lo, hi]; `def` when absent (required when def < 0).
  int whole(const std::string& key, int def, int lo = 1, int hi = 1 << 24) {
    if (!has(key)) {
      if (def < 0) throw InputError(at(key), "missing (required)");
      return def;
    }
    return static_cast<int>(checked_integer(raw(key), at(key), lo, hi));
  }
  double number(const std::string& key, double def, double lo, double hi) {
    return has(key) ? checked_number(raw(key), at(key), lo, hi) : def;
  }
  bool flag(const std::string& key, bool def) { return has(key) ? checked_boolean(raw(key), at(key)) : def; }
  std::string text(const std::string& key, const std::string& def) {
    return has(key) ? checked_string(raw(key), at(key)) : def;
  }
  std::vector<int> whole_list(const std::string& key, int lo, int hi) {
    std::vector<int> out;
    if (!has(key)) return out;
    const json& v = raw(key);
    if (!v.is_array()) throw InputError(at(key), "expected a list of whole numbers, got " + v.dump());
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(static_cast<int>(checked_integer(v[i], index_path(at(key), i), lo, hi)));
    return out;
  }
  std::vector<bool> flag_list(const std::string& key) {
    std::vector<bool> out;
    if (!has(key)) return out;
    const json& v = raw(key);
    if (!v.is_array()) throw InputError(at(key), "expected a list of true/false, got " + v.dump());
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(checked_boolean(v[i], index_path(at(key), i)));
    return out;
  }
  // Keys whose values cannot change the cost.
  void ignore(std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
      used_.insert(k);
      if (j_.contains(k)) out_.ignored_fields.push_back(role_ + "." + k);
    }
  }
  // Behaviour not simulated: a warning when the key is set, ignored when empty.
  void unmodeled(const char* key, const std::string& why) {
    used_.insert(key);
    auto it = j_.find(key);
    if (it == j_.end()) return;
    if (empty_value(*it)) out_.ignored_fields.push_back(role_ + "." + key);
    else out_.warnings.push_back(role_ + "." + key + ": " + why);
  }
  // An architecture this model cannot represent: an error naming the field when set.
  void refuse(const char* key, const std::string& why) {
    used_.insert(key);
    auto it = j_.find(key);
    if (it != j_.end() && !empty_value(*it)) throw InputError(at(key), "unsupported: " + why);
  }
  void warn(const std::string& line) { out_.warnings.push_back(role_ + "." + line); }
  void finish() {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!used_.count(it.key()))
        out_.warnings.push_back(role_ + "." + it.key() + ": unknown field, not used by the model (value " +
                                short_dump(it.value()) + ")");
  }

 private:
  const json& j_;
  std::string path_, role_;
  VideoModelConfig& out_;
  std::set<std::string> used_;
};

std::string class_name(ConfigReader& r, const std::vector<std::string>& supported) {
  const std::string c = r.text("_class_name", "");
  if (c.empty()) throw InputError(r.at("_class_name"), "missing (required: which diffusers class this config is)");
  if (std::find(supported.begin(), supported.end(), c) == supported.end()) {
    std::string hint = closest_name(c, supported);
    throw InputError(r.at("_class_name"), "unsupported class '" + c + "'" +
                                              (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                              "; modeled: " + fmt::join(supported));
  }
  return c;
}

// ---- the denoiser --------------------------------------------------------------------------

void read_wan_transformer(ConfigReader& r, DitConfig& t) {
  t.family = DitFamily::wan;
  const std::vector<int> p = r.whole_list("patch_size", 1, 64);
  if (p.size() != 3) throw InputError(r.at("patch_size"), "expected [t, h, w], three whole numbers");
  t.patch_t = p[0], t.patch_h = p[1], t.patch_w = p[2];
  t.heads = r.whole("num_attention_heads", -1);
  t.head_dim = r.whole("attention_head_dim", -1);
  t.in_channels = r.whole("in_channels", -1);
  t.out_channels = r.whole("out_channels", t.in_channels);
  t.text_dim = r.whole("text_dim", -1);
  t.freq_dim = r.whole("freq_dim", 256);
  t.ffn = r.whole("ffn_dim", -1);
  t.cross_blocks = r.whole("num_layers", -1);
  t.cross_attn_norm = r.flag("cross_attn_norm", false);
  const std::string qk = r.text("qk_norm", "rms_norm_across_heads");
  if (qk != "rms_norm_across_heads")
    throw InputError(r.at("qk_norm"), "unsupported value '" + qk + "' (modeled: rms_norm_across_heads)");
  r.ignore({"_diffusers_version", "eps", "rope_max_seq_len"});
  r.unmodeled("image_dim", "the CLIP image tokens' cross-attention (image-to-video) is not priced");
  r.unmodeled("added_kv_proj_dim", "the image key/value projections (image-to-video) are not priced");
  r.unmodeled("pos_embed_seq_len", "the image position embedding (first-last-frame) is not priced");
  r.refuse("vace_layers", "VACE control blocks are not modeled");
  r.refuse("vace_in_channels", "VACE control blocks are not modeled");
}

void read_hunyuan_transformer(ConfigReader& r, DitConfig& t) {
  t.family = DitFamily::hunyuan_video;
  t.heads = r.whole("num_attention_heads", -1);
  t.head_dim = r.whole("attention_head_dim", -1);
  t.in_channels = r.whole("in_channels", -1);
  t.out_channels = r.whole("out_channels", t.in_channels);
  t.dual_blocks = r.whole("num_layers", -1, 0);
  t.single_blocks = r.whole("num_single_layers", -1, 0);
  t.refiner_blocks = r.whole("num_refiner_layers", 2, 0);
  const double ratio = r.number("mlp_ratio", 4.0, 0.25, 64);
  t.patch_h = t.patch_w = r.whole("patch_size", -1, 1, 64);
  t.patch_t = r.whole("patch_size_t", 1, 1, 64);
  t.guidance_embeds = r.flag("guidance_embeds", true);
  t.text_dim = r.whole("text_embed_dim", -1);
  t.pooled_dim = r.whole("pooled_projection_dim", -1);
  const std::string qk = r.text("qk_norm", "rms_norm");
  if (qk != "rms_norm") throw InputError(r.at("qk_norm"), "unsupported value '" + qk + "' (modeled: rms_norm)");
  t.ffn = static_cast<int>(t.heads * t.head_dim * ratio);  // diffusers: int(hidden_size * mlp_ratio)
  r.ignore({"_diffusers_version", "rope_theta", "rope_axes_dim"});
  r.unmodeled("image_condition_type", "image conditioning (image-to-video) is not priced");
}

// The image MMDiTs' shared keys. Their pipelines pack 2x2 latent pixels into one 64-channel
// token: patch 2 x 2 over in_channels / 4 latent channels (FLUX writes patch_size 1 and
// in_channels 64; Qwen-Image patch_size 2 and in_channels 64).
void read_image_mmdit(ConfigReader& r, DitConfig& t, int patch_size) {
  t.heads = r.whole("num_attention_heads", 24);
  t.head_dim = r.whole("attention_head_dim", 128);
  t.ffn = 4 * t.heads * t.head_dim;  // FeedForward(dim, mult 4), proj_mlp(dim, dim * mlp_ratio 4.0)
  t.text_dim = r.whole("joint_attention_dim", -1);
  const int packed = r.whole("in_channels", 64);
  if (packed % 4 != 0)
    throw InputError(r.at("in_channels"), "must be 4 x the latent channels (the pipeline packs 2x2 latent pixels), got " +
                                              std::to_string(packed));
  t.in_channels = packed / 4;
  t.patch_t = 1;
  t.patch_h = t.patch_w = 2;
  const int got = r.whole("patch_size", patch_size, 1, 64);
  if (got != patch_size)
    throw InputError(r.at("patch_size"), "unsupported value " + std::to_string(got) + " (the pipeline packs 2x2 latent pixels; "
                                             "modeled: " + std::to_string(patch_size) + ")");
  t.dual_blocks = r.whole("num_layers", -1, 0);
  r.ignore({"_diffusers_version", "axes_dims_rope"});
}

void read_flux_transformer(ConfigReader& r, DitConfig& t) {
  t.family = DitFamily::flux;
  read_image_mmdit(r, t, 1);
  // FLUX's out_channels counts packed channels like in_channels (proj_out: dim -> patch^2 x out).
  const int out = r.whole("out_channels", t.in_channels * 4);
  if (out != t.in_channels * 4)
    throw InputError(r.at("out_channels"), "must equal in_channels (" + std::to_string(t.in_channels * 4) + ")");
  t.out_channels = t.in_channels;
  t.single_blocks = r.whole("num_single_layers", -1, 0);
  t.guidance_embeds = r.flag("guidance_embeds", false);
  t.pooled_dim = r.whole("pooled_projection_dim", 768);
}

void read_qwen_image_transformer(ConfigReader& r, DitConfig& t) {
  t.family = DitFamily::qwen_image;
  read_image_mmdit(r, t, 2);
  t.out_channels = r.whole("out_channels", 16);
  if (t.out_channels != t.in_channels)
    throw InputError(r.at("out_channels"), "must equal the latent channels (in_channels / 4 = " +
                                               std::to_string(t.in_channels) + ")");
  r.refuse("guidance_embeds", "a guidance embedding in Qwen-Image is not modeled (diffusers marks it for removal)");
  r.refuse("zero_cond_t", "image editing's zero-timestep reference latents (Qwen-Image-Edit) are not modeled");
  r.refuse("use_additional_t_cond", "the additional timestep condition (Qwen-Image-Layered) is not modeled");
  r.refuse("use_layer3d_rope", "the layered 3-D RoPE (Qwen-Image-Layered) is not modeled");
}

DitConfig read_transformer(const json& j, const std::string& path, VideoModelConfig& out) {
  ConfigReader r(j, path, "transformer", out);
  DitConfig t;
  t.class_name = class_name(r, {"WanTransformer3DModel", "HunyuanVideoTransformer3DModel", "FluxTransformer2DModel",
                                "QwenImageTransformer2DModel"});
  if (t.class_name == "WanTransformer3DModel") read_wan_transformer(r, t);
  else if (t.class_name == "HunyuanVideoTransformer3DModel") read_hunyuan_transformer(r, t);
  else if (t.class_name == "FluxTransformer2DModel") read_flux_transformer(r, t);
  else read_qwen_image_transformer(r, t);
  t.hidden = t.heads * t.head_dim;
  if (t.blocks() == 0) throw InputError(r.at("num_layers"), "the transformer has no blocks");
  r.finish();
  return t;
}

// ---- the VAE decoder -----------------------------------------------------------------------

// Builds the decoder's layer list at the current spatial / temporal level.
class DecoderBuilder {
 public:
  explicit DecoderBuilder(std::vector<VaeLayer>& out) : out_(out) {}
  int spatial = 0, temporal = 0;
  void conv(const std::string& name, int cin, int cout, int kt, int kh, int kw, bool skip_first = false) {
    VaeLayer l = at_level(name, VaeOp::conv);
    l.c_in = cin, l.c_out = cout, l.kt = kt, l.kh = kh, l.kw = kw;
    l.skips_first_frame = skip_first;
    out_.push_back(l);
  }
  void elementwise(const std::string& name, int channels, double passes) {
    VaeLayer l = at_level(name, VaeOp::elementwise);
    l.c_in = l.c_out = channels;
    l.passes = passes;
    out_.push_back(l);
  }
  void attention(const std::string& name, int channels, bool frame_causal) {
    VaeLayer l = at_level(name, VaeOp::attention);
    l.c_in = l.c_out = channels;
    l.frame_causal_attention = frame_causal;
    out_.push_back(l);
  }

 private:
  VaeLayer at_level(const std::string& name, VaeOp op) const {
    VaeLayer l;
    l.name = name;
    l.op = op;
    l.spatial_level = spatial;
    l.temporal_level = temporal;
    return l;
  }
  std::vector<VaeLayer>& out_;
};

// A residual block: norm + SiLU, conv, norm + SiLU, conv, shortcut, add (every family; the
// norms are RMS (Wan) or group norms (Hunyuan, FLUX): two passes each, stats and apply). `kt`:
// the convolutions' temporal kernel (3 for the video decoders, 1 for the 2-D image decoder).
void resnet(DecoderBuilder& b, const std::string& name, int cin, int cout, int kt = 3) {
  b.elementwise(name + ".norm1_silu", cin, 2);
  b.conv(name + ".conv1", cin, cout, kt, 3, 3);
  b.elementwise(name + ".norm2_silu", cout, 2);
  b.conv(name + ".conv2", cout, cout, kt, 3, 3);
  if (cin != cout) b.conv(name + ".conv_shortcut", cin, cout, 1, 1, 1);
  b.elementwise(name + ".residual_add", cout, 1.5);
}

// AutoencoderKLWan's decoder (WanDecoder3d): conv_in, mid block (resnet, per-frame attention,
// resnet), up blocks of num_res_blocks + 1 resnets with 2-D or 3-D (temporal conv + 2-D)
// upsamplers, norm and conv_out; Wan 2.2's residual variant keeps the channels in the
// upsampler and adds a DupUp3D shortcut, Wan 2.1's halves them.
void build_wan_decoder(ConfigReader& r, VaeConfig& v) {
  const int base = r.whole("base_dim", 96);
  const int dim = r.whole("decoder_base_dim", base);
  const int z = v.latent_channels = r.whole("z_dim", 16);
  std::vector<int> mult = r.whole_list("dim_mult", 1, 64);
  if (!r.has("dim_mult")) mult = {1, 2, 4, 4};
  if (mult.size() < 2) throw InputError(r.at("dim_mult"), "expected at least two multipliers");
  const int res_blocks = r.whole("num_res_blocks", 2, 0, 64);
  std::vector<bool> down = r.flag_list("temperal_downsample");
  if (!r.has("temperal_downsample")) down = {false, true, true};
  if (down.size() != mult.size() - 1)
    throw InputError(r.at("temperal_downsample"), "expected " + std::to_string(mult.size() - 1) + " entries (one per downsampling)");
  const bool residual = r.flag("is_residual", false);
  // AutoencoderKLQwenImage names the image channels input_channels (its conv_out's width).
  const int out_channels = r.whole("out_channels", r.whole("input_channels", 3));
  const int patch = r.has("patch_size") ? r.whole("patch_size", 1, 1, 16) : 1;
  v.output_patch = patch;
  const int ups = static_cast<int>(std::count(down.begin(), down.end(), true));
  v.temporal_compression = r.whole("scale_factor_temporal", 1 << ups);
  v.spatial_compression = r.whole("scale_factor_spatial", (1 << (mult.size() - 1)) * patch);
  if (v.temporal_compression != (1 << ups))
    throw InputError(r.at("scale_factor_temporal"), "disagrees with temperal_downsample (" + std::to_string(1 << ups) + "x)");
  if (v.spatial_compression != (1 << (mult.size() - 1)) * patch)
    throw InputError(r.at("scale_factor_spatial"),
                     "disagrees with dim_mult and patch_size (" + std::to_string((1 << (mult.size() - 1)) * patch) + "x)");
  if (!r.whole_list("attn_scales", 0, 1 << 20).empty())
    r.warn("attn_scales: diffusers' Wan decoder builds no attention at these scales; not priced");
  r.ignore({"_diffusers_version", "dropout", "latents_mean", "latents_std", "clip_output", "in_channels"});

  std::vector<int> dims = {dim * mult.back()};
  for (auto it = mult.rbegin(); it != mult.rend(); ++it) dims.push_back(dim * *it);
  const std::vector<bool> up(down.rbegin(), down.rend());
  DecoderBuilder b(v.decoder);
  b.conv("post_quant_conv", z, z, 1, 1, 1);
  b.conv("decoder.conv_in", z, dims[0], 3, 3, 3);
  resnet(b, "decoder.mid_block.resnets.0", dims[0], dims[0]);
  b.elementwise("decoder.mid_block.attentions.0.norm", dims[0], 2);
  b.conv("decoder.mid_block.attentions.0.to_qkv", dims[0], 3 * dims[0], 1, 1, 1);
  b.attention("decoder.mid_block.attentions.0.attention", dims[0], false);
  b.conv("decoder.mid_block.attentions.0.proj", dims[0], dims[0], 1, 1, 1);
  resnet(b, "decoder.mid_block.resnets.1", dims[0], dims[0]);
  for (std::size_t i = 0; i + 1 < dims.size(); ++i) {
    const std::string blk = "decoder.up_blocks." + std::to_string(i);
    int cin = (i > 0 && !residual) ? dims[i] / 2 : dims[i];
    const int cout = dims[i + 1];
    for (int k = 0; k <= res_blocks; ++k, cin = cout) resnet(b, blk + ".resnets." + std::to_string(k), cin, cout);
    if (i == mult.size() - 1) continue;  // the last block does not upsample
    const std::string ups_name = blk + (residual ? ".upsampler" : ".upsamplers.0");
    if (up[i]) {
      b.conv(ups_name + ".time_conv", cout, 2 * cout, 3, 1, 1, true);
      b.temporal++;
    }
    b.spatial++;
    b.elementwise(ups_name + ".upsample_nearest", cout, 1);
    b.conv(ups_name + ".resample", cout, residual ? cout : cout / 2, 1, 3, 3);
    if (residual) b.elementwise(blk + ".avg_shortcut", cout, 1.5);
  }
  b.elementwise("decoder.norm_out_silu", dims.back(), 2);
  b.conv("decoder.conv_out", dims.back(), out_channels, 3, 3, 3);
  if (patch > 1) b.elementwise("unpatchify", out_channels, 1);
}

// AutoencoderKLHunyuanVideo's decoder (HunyuanVideoDecoder3D): conv_in, mid block (resnet,
// frame-causal attention over every pixel of the decoded frames, resnet), up blocks of
// layers_per_block + 1 resnets, spatial upsampling in the first log2(spatial) blocks and
// temporal upsampling in the log2(temporal) blocks before the last; group norm and conv_out.
// Decoded in temporal tiles (diffusers' default framewise decoding, see VaeConfig).
void build_hunyuan_decoder(ConfigReader& r, VaeConfig& v) {
  const int z = v.latent_channels = r.whole("latent_channels", 16);
  std::vector<int> ch = r.whole_list("block_out_channels", 1, 1 << 16);
  if (!r.has("block_out_channels")) ch = {128, 256, 512, 512};
  if (ch.empty()) throw InputError(r.at("block_out_channels"), "expected at least one block");
  const int per_block = r.whole("layers_per_block", 2, 0, 64);
  v.spatial_compression = r.whole("spatial_compression_ratio", 8);
  v.temporal_compression = r.whole("temporal_compression_ratio", 4);
  if (v.temporal_compression != 4)
    throw InputError(r.at("temporal_compression_ratio"), "diffusers' HunyuanVideo decoder supports 4 only, got " +
                                                             std::to_string(v.temporal_compression));
  const int spatial_ups = static_cast<int>(std::lround(std::log2(v.spatial_compression)));
  if ((1 << spatial_ups) != v.spatial_compression || spatial_ups > static_cast<int>(ch.size()))
    throw InputError(r.at("spatial_compression_ratio"), "expected a power of two up to 2^" + std::to_string(ch.size()));
  const bool mid_attention = r.flag("mid_block_add_attention", true);
  const int out_channels = r.whole("out_channels", 3);
  if (r.has("up_block_types"))
    for (const auto& t : r.raw("up_block_types"))
      if (!t.is_string() || t.get<std::string>() != "HunyuanVideoUpBlock3D")
        throw InputError(r.at("up_block_types"), "unsupported block type " + t.dump() + " (modeled: HunyuanVideoUpBlock3D)");
  const std::string act = r.text("act_fn", "silu");
  if (act != "silu") r.warn("act_fn: '" + act + "' priced like SiLU (elementwise)");
  r.ignore({"_diffusers_version", "scaling_factor", "norm_num_groups", "down_block_types", "in_channels"});

  const int n = static_cast<int>(ch.size());
  DecoderBuilder b(v.decoder);
  b.conv("post_quant_conv", z, z, 1, 1, 1);
  b.conv("decoder.conv_in", z, ch.back(), 3, 3, 3);
  resnet(b, "decoder.mid_block.resnets.0", ch.back(), ch.back());
  if (mid_attention) {
    b.elementwise("decoder.mid_block.attentions.0.group_norm", ch.back(), 2);
    b.conv("decoder.mid_block.attentions.0.to_qkv", ch.back(), 3 * ch.back(), 1, 1, 1);
    b.attention("decoder.mid_block.attentions.0.attention", ch.back(), true);
    b.conv("decoder.mid_block.attentions.0.to_out", ch.back(), ch.back(), 1, 1, 1);
  }
  resnet(b, "decoder.mid_block.resnets.1", ch.back(), ch.back());
  int cin = ch.back();
  for (int i = 0; i < n; ++i) {
    const std::string blk = "decoder.up_blocks." + std::to_string(i);
    const int cout = ch[n - 1 - i];
    for (int k = 0; k <= per_block; ++k, cin = cout) resnet(b, blk + ".resnets." + std::to_string(k), cin, cout);
    const bool up_s = i < spatial_ups, up_t = i >= n - 1 - 2 && i != n - 1;  // log2(4) = 2 temporal upsamples
    if (!up_s && !up_t) continue;
    if (up_s) b.spatial++;
    if (up_t) b.temporal++;
    b.elementwise(blk + ".upsamplers.0.interpolate", cout, 1);
    b.conv(blk + ".upsamplers.0.conv", cout, cout, 3, 3, 3);
  }
  b.elementwise("decoder.conv_norm_out_silu", ch.front(), 2);
  b.conv("decoder.conv_out", ch.front(), out_channels, 3, 3, 3);
  // diffusers' framewise decoding: tiles of tile_sample_min_num_frames = 16 frames (4 latent
  // frames + the causal first) every tile_sample_stride_num_frames = 12 (3 latent frames).
  v.temporal_tile = 4;
  v.temporal_stride = 3;
}

// AutoencoderKL's 2-D decoder (diffusers' vae.py Decoder, FLUX's VAE): post_quant_conv (when
// used), conv_in, the mid block (resnet, attention over every pixel, resnet), up blocks of
// layers_per_block + 1 resnets (UpDecoderBlock2D) with nearest x2 + 3x3 conv upsamplers in all
// but the last, group norm, SiLU and conv_out. Every layer runs per image (kernel depth 1).
void build_image_decoder(ConfigReader& r, VaeConfig& v) {
  const int z = v.latent_channels = r.whole("latent_channels", 4);
  std::vector<int> ch = r.whole_list("block_out_channels", 1, 1 << 16);
  if (!r.has("block_out_channels")) ch = {64};
  if (ch.empty()) throw InputError(r.at("block_out_channels"), "expected at least one block");
  const int per_block = r.whole("layers_per_block", 1, 0, 64);
  const int n = static_cast<int>(ch.size());
  v.spatial_compression = 1 << (n - 1);
  v.temporal_compression = 1;
  const bool mid_attention = r.flag("mid_block_add_attention", true);
  const bool post_quant = r.flag("use_post_quant_conv", true);
  const int out_channels = r.whole("out_channels", 3);
  if (r.has("up_block_types")) {
    const json& types = r.raw("up_block_types");
    if (!types.is_array() || static_cast<int>(types.size()) != n)
      throw InputError(r.at("up_block_types"), "expected one block type per block_out_channels entry (" + std::to_string(n) + ")");
    for (const auto& t : types)
      if (!t.is_string() || t.get<std::string>() != "UpDecoderBlock2D")
        throw InputError(r.at("up_block_types"), "unsupported block type " + t.dump() + " (modeled: UpDecoderBlock2D)");
  }
  const std::string act = r.text("act_fn", "silu");
  if (act != "silu") r.warn("act_fn: '" + act + "' priced like SiLU (elementwise)");
  r.ignore({"_diffusers_version", "scaling_factor", "shift_factor", "latents_mean", "latents_std", "norm_num_groups",
            "down_block_types", "in_channels", "sample_size", "force_upcast", "use_quant_conv"});

  DecoderBuilder b(v.decoder);
  auto resnet2d = [&](const std::string& name, int cin, int cout) { resnet(b, name, cin, cout, 1); };
  if (post_quant) b.conv("post_quant_conv", z, z, 1, 1, 1);
  b.conv("decoder.conv_in", z, ch.back(), 1, 3, 3);
  resnet2d("decoder.mid_block.resnets.0", ch.back(), ch.back());
  if (mid_attention) {
    b.elementwise("decoder.mid_block.attentions.0.group_norm", ch.back(), 2);
    b.conv("decoder.mid_block.attentions.0.to_qkv", ch.back(), 3 * ch.back(), 1, 1, 1);
    b.attention("decoder.mid_block.attentions.0.attention", ch.back(), false);
    b.conv("decoder.mid_block.attentions.0.to_out", ch.back(), ch.back(), 1, 1, 1);
  }
  resnet2d("decoder.mid_block.resnets.1", ch.back(), ch.back());
  int cin = ch.back();
  for (int i = 0; i < n; ++i) {
    const std::string blk = "decoder.up_blocks." + std::to_string(i);
    const int cout = ch[n - 1 - i];
    for (int k = 0; k <= per_block; ++k, cin = cout) resnet2d(blk + ".resnets." + std::to_string(k), cin, cout);
    if (i == n - 1) continue;  // the final block does not upsample
    b.spatial++;
    b.elementwise(blk + ".upsamplers.0.interpolate", cout, 1);
    b.conv(blk + ".upsamplers.0.conv", cout, cout, 1, 3, 3);
  }
  b.elementwise("decoder.conv_norm_out_silu", ch.front(), 2);
  b.conv("decoder.conv_out", ch.front(), out_channels, 1, 3, 3);
}

double layer_params(const VaeLayer& l, bool group_norm) {
  if (l.op == VaeOp::conv) return double(l.c_in) * l.c_out * l.kt * l.kh * l.kw + l.c_out;
  if (l.op == VaeOp::elementwise && l.name.find("norm") != std::string::npos) return group_norm ? 2.0 * l.c_in : l.c_in;
  return 0;
}

VaeConfig read_vae(const json& j, const std::string& path, VideoModelConfig& out) {
  ConfigReader r(j, path, "vae", out);
  VaeConfig v;
  v.class_name = class_name(r, {"AutoencoderKLWan", "AutoencoderKLHunyuanVideo", "AutoencoderKL", "AutoencoderKLQwenImage"});
  // AutoencoderKLQwenImage is Wan 2.1's decoder (QwenImageDecoder3d), RMS norms included.
  const bool wan = v.class_name == "AutoencoderKLWan" || v.class_name == "AutoencoderKLQwenImage";
  if (wan) build_wan_decoder(r, v);
  else if (v.class_name == "AutoencoderKL") build_image_decoder(r, v);
  else build_hunyuan_decoder(r, v);
  for (const auto& l : v.decoder) v.decoder_params += layer_params(l, !wan);
  r.finish();
  return v;
}

// ---- text encoders -------------------------------------------------------------------------

void read_t5_encoder(ConfigReader& r, TextEncoderConfig& e) {
  e.hidden = r.whole("d_model", -1);
  e.ffn = r.whole("d_ff", -1);
  e.head_dim = r.whole("d_kv", 64);
  e.heads = e.kv_heads = r.whole("num_heads", -1);
  e.layers = r.whole("num_layers", -1);
  e.vocab = r.whole("vocab_size", -1);
  const std::string ff = r.text("feed_forward_proj", "relu");
  e.gated = ff.rfind("gated-", 0) == 0;
  if (r.has("is_gated_act") && r.flag("is_gated_act", e.gated) != e.gated)
    throw InputError(r.at("is_gated_act"), "disagrees with feed_forward_proj '" + ff + "'");
  const int buckets = r.whole("relative_attention_num_buckets", 32);
  // T5 keeps one relative position bias table (layer 0), UMT5 one per layer.
  const double bias_tables = e.model_type == "umt5" ? e.layers : 1;
  const double d = e.hidden;
  e.params = double(e.vocab) * d + e.layers * text_encoder_layer_params(e) + bias_tables * buckets * e.heads + d;
  if (r.has("architectures")) {
    for (const auto& a : r.raw("architectures"))
      if (!a.is_string() || a.get<std::string>().find("EncoderModel") == std::string::npos)
        r.warn("architectures: '" + (a.is_string() ? a.get<std::string>() : a.dump()) +
               "' is not an encoder-only class; only the encoder runs in the pipeline and is priced");
  }
  r.ignore({"_name_or_path", "classifier_dropout", "decoder_start_token_id", "dense_act_fn", "dropout_rate", "eos_token_id",
            "initializer_factor", "is_encoder_decoder", "layer_norm_epsilon", "num_decoder_layers", "output_past",
            "pad_token_id", "relative_attention_max_distance", "scalable_attention", "tie_word_embeddings",
            "tokenizer_class", "torch_dtype", "transformers_version", "use_cache"});
}

void read_clip_text(ConfigReader& r, TextEncoderConfig& e) {
  e.hidden = r.whole("hidden_size", -1);
  e.ffn = r.whole("intermediate_size", -1);
  e.heads = e.kv_heads = r.whole("num_attention_heads", -1);
  if (e.hidden % e.heads != 0)
    throw InputError(r.at("num_attention_heads"), "must divide hidden_size (" + std::to_string(e.hidden) + ")");
  e.head_dim = e.hidden / e.heads;
  e.layers = r.whole("num_hidden_layers", -1);
  e.vocab = r.whole("vocab_size", -1);
  e.max_tokens = r.whole("max_position_embeddings", 77);
  e.causal = true;  // CLIP's text transformer uses a causal mask
  const double d = e.hidden;
  e.params = double(e.vocab) * d + double(e.max_tokens) * d + e.layers * text_encoder_layer_params(e) + 2 * d;
  bool projection = false;
  if (r.has("architectures"))
    for (const auto& a : r.raw("architectures")) projection = projection || (a.is_string() && a.get<std::string>().find("WithProjection") != std::string::npos);
  const int proj = r.whole("projection_dim", e.hidden);
  if (projection) e.params += d * proj;
  r.ignore({"_name_or_path", "attention_dropout", "bos_token_id", "dropout", "eos_token_id", "hidden_act",
            "initializer_factor", "initializer_range", "layer_norm_eps", "pad_token_id", "torch_dtype",
            "transformers_version"});
}

// A Llama or Qwen2 model used as a text encoder: the LLM importer reads it; its decoder layers run
// once over the prompt (causal), the LM head does not (LlamaModel has none).
void read_llm_encoder(const json& j, const std::string& path, TextEncoderConfig& e, VideoModelConfig& out) {
  // Its class (LlamaModel: the decoder without the LM head) is the text encoder's; the LLM
  // importer would warn that it is not a causal-LM class.
  json config = j;
  if (config.erase("architectures")) out.ignored_fields.push_back(e.role + ".architectures");
  const ModelConfig m = import_hf_config(config, path, e.role);
  if (m.is_moe()) throw InputError(field_path(path, "model_type"), "mixture-of-experts text encoders are not modeled");
  e.layers = m.layers, e.hidden = m.hidden, e.heads = m.heads, e.kv_heads = m.kv_heads, e.head_dim = m.head_dim;
  e.ffn = m.intermediate, e.vocab = m.vocab, e.gated = true, e.causal = true;
  const ParamCounts c = count_parameters(m);
  e.params = c.total - c.lm_head;
  for (const auto& w : m.warnings) out.warnings.push_back(e.role + "." + w);
  for (const auto& f : m.ignored_fields) out.ignored_fields.push_back(e.role + "." + f);
}

TextEncoderConfig read_text_encoder(const json& j, const std::string& path, const std::string& role,
                                    VideoModelConfig& out) {
  TextEncoderConfig e;
  e.role = role;
  if (!j.is_object()) throw InputError(path, std::string("expected a config object, got ") + j.type_name());
  auto mt = j.find("model_type");
  if (mt == j.end() || !mt->is_string()) throw InputError(field_path(path, "model_type"), "missing (required)");
  e.model_type = mt->get<std::string>();
  if (e.model_type == "llama" || e.model_type == "qwen2") {
    read_llm_encoder(j, path, e, out);
    return e;
  }
  if (e.model_type == "qwen2_5_vl")
    throw InputError(field_path(path, "model_type"),
                     "unsupported: give Qwen2.5-VL's language model as a qwen2 config (Qwen2Model: its text_config "
                     "keys); text-to-image runs no vision tower");
  const std::vector<std::string> types = {"clip_text_model", "llama", "qwen2", "t5", "umt5"};
  if (std::find(types.begin(), types.end(), e.model_type) == types.end()) {
    std::string hint = closest_name(e.model_type, types);
    throw InputError(field_path(path, "model_type"), "unsupported text encoder '" + e.model_type + "'" +
                                                         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                                         "; modeled: " + fmt::join(types));
  }
  ConfigReader r(j, path, role, out);
  r.text("model_type", "");
  if (e.model_type == "clip_text_model") read_clip_text(r, e);
  else read_t5_encoder(r, e);
  r.finish();
  return e;
}

// ---- model_index.json ----------------------------------------------------------------------

void read_model_index(const json& j, const std::string& path, VideoModelConfig& out) {
  ConfigReader r(j, path, "model_index", out);
  out.pipeline_class = r.text("_class_name", "");
  out.transformer.per_token_timesteps = r.flag("expand_timesteps", false);
  r.refuse("boundary_ratio", "the two-expert (high/low noise) denoiser switch of Wan2.2 A14B is not modeled");
  if (r.has("transformer_2")) {
    const json& t2 = r.raw("transformer_2");
    if (t2.is_array() && !t2.empty() && !t2[0].is_null())
      throw InputError(r.at("transformer_2"), "unsupported: a second (low-noise) transformer is not modeled");
  }
  // Component class names: checked against the configs they describe.
  for (const char* role : {"transformer", "vae"}) {
    if (!r.has(role)) continue;
    const json& v = r.raw(role);
    const std::string want = role == std::string("vae") ? out.vae.class_name : out.transformer.class_name;
    if (v.is_array() && v.size() == 2 && v[1].is_string() && v[1].get<std::string>() != want)
      r.warn(std::string(role) + ": names '" + v[1].get<std::string>() + "' but the " + role + " config is '" + want + "'");
  }
  r.ignore({"_diffusers_version", "scheduler", "tokenizer", "tokenizer_2", "text_encoder", "text_encoder_2"});
  r.unmodeled("image_encoder", "the CLIP image encoder (image-to-video) is not priced");
  r.unmodeled("image_processor", "image preprocessing is not priced");
  r.finish();
}

}  // namespace

// ---- parameter counts ----------------------------------------------------------------------

double cross_block_params(const DitConfig& t) {
  const double d = t.hidden, f = t.ffn;
  const double attention = 4 * (d * d + d) + 2 * d;  // q, k, v, out with biases; q/k RMS norms across heads
  return 2 * attention + (t.cross_attn_norm ? 2 * d : 0) + (2 * d * f + f + d) + 6 * d;  // + FFN + modulation table
}

double dual_block_params(const DitConfig& t) {
  const double d = t.hidden, m = t.ffn, hd = t.head_dim;
  const double modulation = 2 * (6 * d * d + 6 * d);          // norm1, norm1_context (AdaLayerNormZero)
  const double attention = 8 * (d * d + d) + 4 * hd;          // q,k,v,out + added q,k,v,out; 4 per-head RMS norms
  const double ffn = 2 * (2 * d * m + m + d);                 // ff, ff_context
  return modulation + attention + ffn;
}

double single_block_params(const DitConfig& t) {
  const double d = t.hidden, m = t.ffn, hd = t.head_dim;
  return (3 * d * d + 3 * d) + 2 * hd + (3 * d * d + 3 * d) + (d * m + m) + ((d + m) * d + d);
}

double refiner_block_params(const DitConfig& t) {
  const double d = t.hidden, m = t.ffn;  // the refiner uses the same mlp ratio
  return 2 * d + 4 * (d * d + d) + 2 * d + (d * m + m + m * d + d) + (2 * d * d + 2 * d);
}

double text_encoder_layer_params(const TextEncoderConfig& e) {
  const double d = e.hidden, q = double(e.heads) * e.head_dim, kv = double(e.kv_heads) * e.head_dim;
  const bool clip = e.model_type == "clip_text_model";
  double attention = 2 * d * q + 2 * d * kv + (clip ? 2 * q + 2 * kv : 0);  // biases: CLIP only
  double ffn = (e.gated ? 3 : 2) * d * e.ffn + (clip ? e.ffn + d : 0);
  double norms = clip ? 4 * d : 2 * d;
  return attention + ffn + norms;
}

namespace {

double embedding_params(const DitConfig& t) {
  const double d = t.hidden;
  const double patch = double(t.in_channels) * t.patch_t * t.patch_h * t.patch_w * d + d;
  const double timestep = 256.0 * d + d + d * d + d;  // TimestepEmbedding(freq -> d -> d)
  if (t.family == DitFamily::wan) {
    const double time = double(t.freq_dim) * d + d + d * d + d;
    const double time_proj = 6 * d * d + 6 * d;
    const double text = double(t.text_dim) * d + d + d * d + d;  // PixArtAlphaTextProjection
    return patch + time + time_proj + text;
  }
  const double context = double(t.text_dim) * d + d;  // context_embedder / txt_in
  if (t.family == DitFamily::flux) {  // x_embedder, CombinedTimestep(Guidance)TextProjEmbeddings
    const double pooled = double(t.pooled_dim) * d + d + d * d + d;  // PixArtAlphaTextProjection
    return patch + context + timestep + (t.guidance_embeds ? timestep : 0) + pooled;
  }
  if (t.family == DitFamily::qwen_image) return patch + context + t.text_dim + timestep;  // + txt_norm (RMSNorm)
  const double refiner_in = timestep + (double(t.text_dim) * d + d + d * d + d) + (double(t.text_dim) * d + d);
  const double pooled = double(t.pooled_dim) * d + d + d * d + d;
  return patch + refiner_in + timestep + pooled + (t.guidance_embeds ? timestep : 0);
}

double head_params(const DitConfig& t) {
  const double d = t.hidden;
  const double proj = d * (double(t.out_channels) * t.patch_t * t.patch_h * t.patch_w) +
                      double(t.out_channels) * t.patch_t * t.patch_h * t.patch_w;
  if (t.family == DitFamily::wan) return proj + 2 * d;  // + scale_shift_table
  return proj + 2 * d * d + 2 * d;                     // + AdaLayerNormContinuous linear
}

}  // namespace

VideoParamCounts count_video_parameters(const VideoModelConfig& m) {
  const DitConfig& t = m.transformer;
  VideoParamCounts c;
  c.per_block_cross = t.cross_blocks ? cross_block_params(t) : 0;
  c.per_block_dual = t.dual_blocks ? dual_block_params(t) : 0;
  c.per_block_single = t.single_blocks ? single_block_params(t) : 0;
  c.per_block_refiner = t.refiner_blocks ? refiner_block_params(t) : 0;
  c.blocks = t.cross_blocks * c.per_block_cross + t.dual_blocks * c.per_block_dual +
             t.single_blocks * c.per_block_single + t.refiner_blocks * c.per_block_refiner;
  c.embeddings = embedding_params(t);
  c.head = head_params(t);
  c.transformer = c.blocks + c.embeddings + c.head;
  c.vae_decoder = m.vae.decoder_params;
  for (const auto& e : m.text_encoders) c.text_encoders += e.params;
  return c;
}

// ---- the bundle ----------------------------------------------------------------------------

bool is_video_bundle(const json& config) { return config.is_object() && config.contains("transformer"); }

VideoModelConfig import_video_config(const json& bundle, const std::string& path, const std::string& name) {
  if (!bundle.is_object())
    throw InputError(path, std::string("expected a video model object (transformer, vae, text_encoder configs), got ") +
                               bundle.type_name());
  VideoModelConfig m;
  m.name = name;
  ObjectReader top(bundle, path);
  m.transformer = read_transformer(top.raw("transformer"), top.path("transformer"), m);
  m.vae = read_vae(top.raw("vae"), top.path("vae"), m);
  m.text_encoders.push_back(read_text_encoder(top.raw("text_encoder"), top.path("text_encoder"), "text_encoder", m));
  if (const json* t2 = top.optional_raw("text_encoder_2"))
    m.text_encoders.push_back(read_text_encoder(*t2, top.path("text_encoder_2"), "text_encoder_2", m));
  if (const json* mi = top.optional_raw("model_index")) read_model_index(*mi, top.path("model_index"), m);
  top.finish();
  if (m.transformer.in_channels < m.vae.latent_channels)
    throw InputError(field_path(path, "transformer.in_channels"),
                     "smaller than the VAE's " + std::to_string(m.vae.latent_channels) + " latent channels");
  if (m.transformer.in_channels > m.vae.latent_channels)
    m.warnings.push_back("transformer.in_channels: " + std::to_string(m.transformer.in_channels) + " > the VAE's " +
                         std::to_string(m.vae.latent_channels) +
                         " latent channels (image conditioning concatenated to the latent): priced as given");
  // The encoder whose states the transformer attends to: the first (Wan, HunyuanVideo, Qwen-Image)
  // or, for FLUX, T5 in text_encoder_2 (text_encoder is CLIP, whose pooled output is projected).
  const bool flux = m.transformer.family == DitFamily::flux;
  const std::size_t states = flux ? 1 : 0;
  const char* text_key = m.transformer.image() ? "transformer.joint_attention_dim" : "transformer.text_dim";
  if (states >= m.text_encoders.size())
    throw InputError(field_path(path, "text_encoder_2"), "missing (required: FLUX's T5 encoder; text_encoder is CLIP)");
  if (m.text_encoders[states].hidden != m.transformer.text_dim)
    throw InputError(field_path(path, text_key),
                     "the transformer projects " + std::to_string(m.transformer.text_dim) + "-wide text states, " +
                         m.text_encoders[states].role + " makes " + std::to_string(m.text_encoders[states].hidden));
  if (flux && m.text_encoders[0].hidden != m.transformer.pooled_dim)
    throw InputError(field_path(path, "transformer.pooled_projection_dim"),
                     "the transformer projects a " + std::to_string(m.transformer.pooled_dim) +
                         "-wide pooled text embedding, text_encoder makes " + std::to_string(m.text_encoders[0].hidden));
  std::sort(m.ignored_fields.begin(), m.ignored_fields.end());
  return m;
}

std::vector<std::string> bundled_video_model_names() { return embedded_json_stems("examples/models/video/"); }

std::string bundled_video_model_list() { return fmt::join(bundled_video_model_names()); }

void check_bundled_model_name(const std::string& name, const std::string& field) {
  if (bundled_video_model_text(name)) return;
  const auto llms = bundled_model_names();
  if (std::find(llms.begin(), llms.end(), name) != llms.end()) return;
  std::vector<std::string> all = llms;
  for (const auto& n : bundled_video_model_names()) all.push_back(n);
  const std::string hint = model_name_hint(name, all);
  throw InputError(field, "unknown bundled model '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                              "; language models: " + fmt::join(llms) + "; video models (kind video): " +
                              bundled_video_model_list() + " (or give a config object inline)");
}

const std::string* bundled_video_model_text(const std::string& name) {
  return find_embedded("examples/models/video/" + name + ".json");
}

std::shared_ptr<const VideoModelConfig> bundled_video_model(const std::string& name, const std::string& field) {
  static const auto cache = [] {
    std::map<std::string, std::shared_ptr<const VideoModelConfig>> m;
    for (const auto& n : bundled_video_model_names()) {
      const std::string file = "examples/models/video/" + n + ".json";
      m[n] = std::make_shared<const VideoModelConfig>(
          import_video_config(parse_json_text(*bundled_video_model_text(n), file), file, n));
    }
    return m;
  }();
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const auto names = bundled_video_model_names();
  const std::string hint = model_name_hint(name, names);
  throw InputError(field, "unknown bundled video model '" + name + "'" +
                              (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; bundled: " + fmt::join(names));
}

}  // namespace trnsim::model
