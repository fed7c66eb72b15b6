// Image diffusion transformers (FLUX.1-dev, Qwen-Image) in the video pipeline's image mode: the
// bundled diffusers configs import with every key accounted for; parameter counts and the FLOPs
// of a step derived here from the published architecture (diffusers' transformer_flux.py and
// transformer_qwenimage.py) independently of the importer; what is not modelled is refused
// naming the field.
#include <catch2/catch.hpp>

#include <map>

#include "hw/system.h"
#include "model/video.h"
#include "plan/video.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "workload/workload.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_image {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

namespace {

json image_workload(const std::string& model, json video = json::object()) {
  video["frames"] = video.value("frames", 1);
  return {{"kind", "video"}, {"model", model}, {"video", video}};
}

workload::Result run_image(const json& workload_json, const std::string& system = "trainium2") {
  static std::map<std::string, hw::System> systems;
  if (!systems.count(system)) systems.emplace(system, hw::load_system(system));
  return workload::evaluate(parse_workload(workload_json), systems.at(system));
}

json bundle(const std::string& name) { return parse_json_text(*model::bundled_video_model_text(name), name); }

std::string import_error(const json& b) {
  return error_of([&] { model::import_video_config(b, "workload.model", "inline"); });
}

// An MMDiT double-stream block, counted from diffusers' module list: per stream an
// AdaLayerNormZero linear (d -> 6d, bias), q/k/v and output projections (bias), a GELU
// FeedForward (d -> 4d -> d, bias); four per-head RMSNorm weights (q, k, added q, added k).
double double_block(double d, double hd) {
  const double per_stream = (d * 6 * d + 6 * d) + 4 * (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d);
  return 2 * per_stream + 4 * hd;
}

// FLUX's single-stream block: AdaLayerNormZeroSingle (d -> 3d), to_q/k/v (bias), proj_mlp
// (d -> 4d), proj_out ((d + 4d) -> d), two per-head RMSNorm weights.
double single_block(double d, double hd) {
  return (3 * d * d + 3 * d) + 3 * (d * d + d) + (4 * d * d + 4 * d) + (5 * d * d + d) + 2 * hd;
}

double timestep_mlp(double d) { return 256 * d + d + d * d + d; }  // TimestepEmbedding(256 -> d -> d)

}  // namespace

TEST_CASE("image: the bundled image models import with every key accounted for", "[video][image]") {
  for (const char* n : {"FLUX.1-dev", "Qwen-Image"}) {
    INFO(n);
    auto m = model::bundled_video_model(n, "m");
    for (const auto& w : m->warnings) CHECK_FALSE(contains(w, "unknown field"));
    CHECK(m->transformer.image());
    CHECK(m->transformer.patch_h == 2);   // the pipeline packs 2x2 latent pixels
    CHECK(m->transformer.in_channels == 16);
    CHECK(m->vae.latent_channels == 16);
    CHECK(m->vae.spatial_compression == 8);
  }
  // FLUX's decoder is 2-D: every convolution one frame deep.
  for (const auto& l : model::bundled_video_model("FLUX.1-dev", "m")->vae.decoder) CHECK(l.kt == 1);
}

TEST_CASE("image: parameter counts derived from the architecture and against the publishers", "[video][image]") {
  const double d = 3072, hd = 128;
  {
    const auto c = model::count_video_parameters(*model::bundled_video_model("FLUX.1-dev", "m"));
    // x_embedder (64 -> d), context_embedder (T5 4096 -> d), timestep + guidance MLPs, the
    // pooled CLIP projection (768 -> d -> d), norm_out's AdaLayerNormContinuous (d -> 2d) and
    // proj_out (d -> 64).
    const double embed = (64 * d + d) + (4096 * d + d) + 2 * timestep_mlp(d) + (768 * d + d + d * d + d);
    const double head = (2 * d * d + 2 * d) + (64 * d + 64);
    const double expected = 19 * double_block(d, hd) + 38 * single_block(d, hd) + embed + head;
    CHECK(c.transformer == Approx(expected).epsilon(1e-9));
    // Black Forest Labs' model card (black-forest-labs/FLUX.1-dev): "a 12 billion parameter
    // rectified flow transformer"; the derived count is 11.90 B.
    CHECK(c.transformer / 1e9 == Approx(11.9).margin(0.01));
    CHECK(c.transformer / 1e9 == Approx(12.0).epsilon(0.01));
    // T5-v1.1-XXL's encoder: the 32,128 x 4,096 embedding, 24 gated layers, one relative
    // bias table; CLIP ViT-L/14's text model 123.06 M (as HunyuanVideo's).
    const double t5 = 32128.0 * 4096 + 24 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 10240 + 2 * 4096) + 32 * 64 + 4096;
    CHECK(c.text_encoders == Approx(t5 + 123060480.0));
  }
  {
    const auto c = model::count_video_parameters(*model::bundled_video_model("Qwen-Image", "m"));
    // img_in (64 -> d), txt_norm (RMS over 3584) and txt_in (3584 -> d), the timestep MLP,
    // norm_out and proj_out (d -> 2 x 2 x 16).
    const double embed = (64 * d + d) + 3584 + (3584 * d + d) + timestep_mlp(d);
    const double head = (2 * d * d + 2 * d) + (64 * d + 64);
    CHECK(c.transformer == Approx(60 * double_block(d, hd) + embed + head).epsilon(1e-9));
    // The Qwen-Image technical report and model card (Qwen/Qwen-Image): "a 20B MMDiT".
    CHECK(c.transformer / 1e9 == Approx(20.0).epsilon(0.025));
    // Qwen2.5-VL-7B's language model without its LM head: Qwen2.5-7B's layout (7.61 B with
    // the untied 152,064 x 3,584 head).
    CHECK(c.text_encoders / 1e9 == Approx(7.61 - 152064.0 * 3584 / 1e9).epsilon(0.005));
  }
}

TEST_CASE("image: a step's FLOPs follow the joint sequence", "[video][image]") {
  // 1024 x 1024: a 128 x 128 latent packed 2x2 -> 4,096 image tokens, joined by 512 T5 tokens
  // in every attention. Per block and token: double-stream 2 x (3 + 1 + 8) d^2 over both
  // streams, single-stream (3 + 4 + 5) d^2; attention 4 N^2 d per block.
  const double d = 3072, N = 4096 + 512;
  const double block_linear = 2 * 12 * d * d * N, block_attention = 4 * N * N * d;
  const auto r = run_image(image_workload("FLUX.1-dev", {{"width", 1024}, {"height", 1024}, {"guidance", "none"}}));
  const auto& x = r.video();
  CHECK(x.video_tokens == 4096);
  CHECK(x.step_flops_per_chip == Approx(57 * (block_linear + block_attention)).epsilon(0.005));
  CHECK(x.attention_flops_share == Approx(block_attention / (block_linear + block_attention)).epsilon(0.01));
  // Qwen-Image with true CFG: both branches in one batch of two, 60 double-stream blocks.
  const auto q = run_image(image_workload("Qwen-Image", {{"width", 1024}, {"height", 1024}}));
  CHECK(q.video().step_flops_per_chip == Approx(2 * 60 * (block_linear + block_attention)).epsilon(0.005));
}

TEST_CASE("image: what is not modelled is refused naming the field", "[video][image]") {
  CHECK(contains(error_of([] { run_image(image_workload("FLUX.1-dev", {{"frames", 81}})); }),
                 "workload.video.frames: must be 1: FluxTransformer2DModel is an image model"));
  CHECK(contains(error_of([] { run_image(image_workload("FLUX.1-dev", {{"width", 1000}})); }),
                 "workload.video.width: must be a multiple of 16"));
  json edit = bundle("Qwen-Image");
  edit["transformer"]["zero_cond_t"] = true;
  CHECK(contains(import_error(edit), "workload.model.transformer.zero_cond_t: unsupported"));
  json patch = bundle("FLUX.1-dev");
  patch["transformer"]["patch_size"] = 2;
  CHECK(contains(import_error(patch), "workload.model.transformer.patch_size: unsupported value 2"));
  json flux2 = bundle("FLUX.1-dev");
  flux2["transformer"]["_class_name"] = "Flux2Transformer2DModel";
  CHECK(contains(import_error(flux2), "workload.model.transformer._class_name: unsupported class"));
  json vl = bundle("Qwen-Image");
  vl["text_encoder"]["model_type"] = "qwen2_5_vl";
  CHECK(contains(import_error(vl), "workload.model.text_encoder.model_type: unsupported: give Qwen2.5-VL's language model"));
  json wide = bundle("FLUX.1-dev");
  wide["transformer"]["joint_attention_dim"] = 2048;
  CHECK(contains(import_error(wide), "workload.model.transformer.joint_attention_dim"));
  json up = bundle("FLUX.1-dev");
  up["vae"]["up_block_types"][0] = "AttnUpDecoderBlock2D";
  CHECK(contains(import_error(up), "workload.model.vae.up_block_types: unsupported block type"));
}

TEST_CASE("image: time per image, images per chip-hour and the batch", "[video][image]") {
  const json one = image_workload("Qwen-Image", {{"width", 1328}, {"height", 1328}, {"cfg_parallel", true}});
  json four = one;
  four["video"]["batch"] = 4;
  const auto a = run_image(one, "trn2-48xlarge"), b = run_image(four, "trn2-48xlarge");
  const auto &x = a.video(), &y = b.video();
  CHECK(x.image);
  CHECK(x.chips_per_replica == 2);  // the guidance branches on two chips
  // Derived from the pass time and the chips: 3600 s x images / chip-seconds.
  CHECK(x.image_s == Approx(x.video_s));
  CHECK(x.images_per_chip_hour == Approx(3600.0 / (x.video_s * 2)));
  CHECK(x.usd_per_thousand_images == Approx(a.price_per_chip_hour_usd * x.video_s * 2 / 3600 * 1000));
  CHECK(y.image_s == Approx(y.video_s / 4));
  CHECK(y.images_per_chip_hour == Approx(3600.0 * 4 / (y.video_s * 2)));
  // Four images a pass: four times the step's FLOPs; the weights are read once, so never
  // slower per image.
  CHECK(y.step_flops_per_chip == Approx(4 * x.step_flops_per_chip));
  CHECK(y.image_s <= x.image_s * (1 + 1e-9));
  // The clip-only figures are not an image's metrics.
  CHECK(contains(error_of([] {
                   run_image({{"kind", "video"}, {"model", "Wan2.1-T2V-1.3B"}, {"video", {{"batch", 2}}}});
                 }),
                 "workload.video.batch: must be 1 for a video model"));
}

}  // namespace unit_image
