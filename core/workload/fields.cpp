// The workload's rows of the scenario field table (the "workload" object): model and
// precision, placement, inference / training / video sizes, the assumptions with their
// calibration notes, and the Neuron execution settings. Declared here, by the layer that reads
// them; core/scenario/schema.cpp mounts them into the one table (core/common/field_table.h).
#include "workload/fields.h"

#include <stdexcept>

#include "model/video.h"
#include "price/pricer.h"
#include "price/stack.h"

namespace trnsim::workload {

namespace {

using Rows = FieldRows<Spec>;
using Field = Rows::Field;
using namespace field_ends;

const char* kModel = "Model and precision";
const char* kPlacement = "Parallelism";
const char* kInference = "Inference sizes";
const char* kTraining = "Training sizes";
const char* kAssumptions = "Assumptions: efficiency, power, price";
const char* kExecution = "Neuron execution: stack, compiled shapes, speculation";
// The draft acceptance rate's default: an assumption (PERF rows 2 and 4 set their fitted value).
constexpr double kDraftAcceptance = 0.8;
const char* kWhenInference = "workload.kind=inference";
const char* kWhenTraining = "workload.kind=training";

// The model fields.
void add_model_fields(std::vector<Field>& t) {
  {
    Field f = Rows::make("workload.kind", FieldType::choice, "inference", {}, {},
                   {"", "kind",
                    "Inference (serving requests), training (optimizer steps) or video (generating one clip with "
                    "a diffusion-transformer video model: docs/video.md).",
                    kModel});
    f.choices = [] { return workload::kind_names(); };
    f.get = [](const Spec& s) { return json(workload::kind_name(s.kind)); };
    f.put = [](Spec& s, const json& v) { s.kind = workload::parse_kind(v.get<std::string>()); };
    t.push_back(f);
  }
  {
    Field f = Rows::make("workload.model", FieldType::model, nullptr, {}, {},
                   {"", "model",
                    "A bundled Hugging Face config (examples/models/, sources beside each), your own config.json "
                    "object inline, or a path to one (relative to the scenario file; the CLI and Python); for kind video a bundled video model (examples/models/video/) or an inline "
                    "object of its diffusers configs (transformer, vae, text_encoder).",
                    kModel});
    f.get = [](const Spec& s) {
      return s.model_name.empty() ? s.model_config : json(s.model_name);
    };
    f.put = [](Spec& s, const json& v) {
      Spec& w = s;
      w.model_name = v.is_string() ? v.get<std::string>() : std::string();
      w.model_config = v.is_string() ? json(nullptr) : v;
      w.imported.reset();
      w.imported_video.reset();
      // Config errors name the field now; a video model is imported by the video importer.
      if (workload::names_video_model(w)) w.imported_video = workload::spec_video_model(w, "workload.model");
      else w.imported = workload::spec_model(w, "workload.model");
    };
    t.push_back(f);
  }
  const auto precisions = [] { return workload::precision_names(); };
  t.push_back(Rows::choice("workload.precision.weights", [](Spec& s) -> std::string& { return s.precision.weights; },
                     "bf16", precisions,
                     {"", "weights",
                      "Storage of MLP and expert weights: bytes moved from HBM per token (bf16 2, fp8 1, mxfp8 1+1/32, "
                      "mxfp4 0.5+1/32 bytes per element).",
                      kModel}));
  t.push_back(Rows::choice("workload.precision.attention_weights",
                     [](Spec& s) -> std::string& { return s.precision.attention_weights; }, "bf16",
                     precisions, {"", "attention weights", "Storage of the attention projections.", kModel}));
  t.push_back(Rows::choice("workload.precision.activations",
                     [](Spec& s) -> std::string& { return s.precision.activations; }, "bf16", precisions,
                     {"", "activations", "The tensor engine's input type: sets the peak FLOP/s of every matmul.", kModel}));
  t.push_back(Rows::choice("workload.precision.kv_cache", [](Spec& s) -> std::string& { return s.precision.kv_cache; },
                     "bf16", precisions, {"", "KV cache", "Storage of the KV cache: bytes read per decode step.", kModel}));
}

// The placement fields.
void add_placement_fields(std::vector<Field>& t) {
  t.push_back(Rows::integer("workload.parallelism.tp", [](Spec& s) -> int& { return s.parallelism.tp; }, 1,
                      at_least(1, "a tensor-parallel group has at least one chip"), chips_cap(),
                      {"chips", "tp (tensor)",
                       "Tensor parallelism: chips sharing every layer (all-reduce after attention and MLP). Must divide "
                       "the scale-up domain; heads that tp does not divide are padded (see pad heads).",
                       kPlacement, "", true}));
  t.push_back(Rows::integer("workload.parallelism.pp", [](Spec& s) -> int& { return s.parallelism.pp; }, 1,
                      at_least(1, "a pipeline has at least one stage"), chips_cap(),
                      {"stages", "pp (pipeline)",
                       "Pipeline stages: layers split into consecutive groups (activations sent between stages).",
                       kPlacement, "", true}));
  t.push_back(Rows::integer("workload.parallelism.dp", [](Spec& s) -> int& { return s.parallelism.dp; }, 1,
                      at_least(1, "there is at least one replica"),
                      limit(1 << 20, "trnsim's limit: 2^20 replicas, beyond every system it models"),
                      {"replicas", "dp (data)",
                       "Replicas: independent copies (inference) or data-parallel ranks with gradient exchange "
                       "(training).",
                       kPlacement, "", true}));
  t.push_back(Rows::integer("workload.parallelism.ep", [](Spec& s) -> int& { return s.parallelism.ep; }, 1,
                      at_least(1, "an expert-parallel group has at least one chip"), chips_cap(),
                      {"chips", "ep (expert)",
                       "Expert parallelism for MoE layers: experts spread over ep chips (all-to-all dispatch and "
                       "combine).",
                       kPlacement, "", true}));
  t.push_back(Rows::integer("workload.parallelism.redundant_experts",
                      [](Spec& s) -> int& { return s.parallelism.redundant_experts; }, 0,
                      at_least(0, "no redundant experts: each expert held once"),
                      limit(1 << 16, "trnsim's limit: 65536 extra expert slots, beyond every MoE model it imports"),
                      {"experts", "redundant experts",
                       "Extra routed-expert slots an expert load balancer fills with copies of the busiest experts "
                       "(EPLB; SGLang's --ep-num-redundant-experts): experts + redundant slots are split over ep, and the "
                       "routed tokens are assumed spread evenly over them (perfect balance). Inference with ep > 1 only.",
                       kPlacement, "", true}));
  {
    Field f = Rows::make("workload.parallelism.pad_heads", FieldType::boolean, true, {}, {},
                   {"", "pad heads",
                    "When tp does not divide the query or KV heads, pad them with zero heads as Neuron does "
                    "(NxD Inference's shardable head counts) and report the padding's cost; off: such a tp is an "
                    "error.",
                    kPlacement});
    t.push_back(Rows::bound<bool>(f, [](Spec& s) -> bool& { return s.parallelism.pad_heads; }));
  }
}

// The inference fields.
void add_inference_fields(std::vector<Field>& t) {
  t.push_back(Rows::integer("workload.inference.batch", [](Spec& s) -> int& { return s.inference.batch; }, 1,
                      at_least(1, "a batch holds at least one sequence"),
                      limit(1 << 20, "trnsim's limit: 2^20 sequences"),
                      {"sequences", "batch", "Concurrent sequences per replica (continuous batching).", kInference,
                       kWhenInference, true}));
  t.push_back(Rows::integer("workload.inference.input_tokens",
                      [](Spec& s) -> int& { return s.inference.input_tokens; }, 1024,
                      at_least(1, "a prompt has at least one token"), tokens_cap(),
                      {"tokens", "input tokens", "Prompt length per request.", kInference, kWhenInference, true}));
  t.push_back(Rows::integer("workload.inference.output_tokens",
                      [](Spec& s) -> int& { return s.inference.output_tokens; }, 256,
                      at_least(1, "a request generates at least one token"), tokens_cap(),
                      {"tokens", "output tokens", "Generated tokens per request.", kInference, kWhenInference, true}));
  t.push_back(Rows::integer("workload.inference.prefill_batch",
                      [](Spec& s) -> int& { return s.inference.prefill_batch; }, 1,
                      at_least(1, "a prefill pass holds at least one prompt"),
                      limit(1 << 20, "trnsim's limit: 2^20 sequences"),
                      {"sequences", "prefill batch",
                       "Prompts prefilled together in one pass (their time to first token); 1: each request alone. "
                       "A prefill server of a disaggregated deployment batches many (SGLang's large-EP prefill: "
                       "16,384 tokens per GPU). At most the batch.",
                       kInference, kWhenInference, true}));
}

// The training fields.
void add_training_fields(std::vector<Field>& t) {
  t.push_back(Rows::integer("workload.training.sequence_length",
                      [](Spec& s) -> int& { return s.training.sequence_length; }, 8192,
                      at_least(1, "a sequence has at least one token"), tokens_cap(),
                      {"tokens", "sequence length", "Tokens per sequence.", kTraining, kWhenTraining, true}));
  t.push_back(Rows::integer("workload.training.global_batch",
                      [](Spec& s) -> int& { return s.training.global_batch; }, 1024,
                      at_least(1, "a step trains on at least one sequence"),
                      limit(1 << 26, "trnsim's limit: 2^26 sequences"),
                      {"sequences", "global batch", "Sequences per optimizer step.", kTraining, kWhenTraining, true}));
  t.push_back(Rows::integer("workload.training.micro_batch",
                      [](Spec& s) -> int& { return s.training.micro_batch; }, 1,
                      at_least(1, "a micro-batch holds at least one sequence"),
                      limit(1 << 20, "trnsim's limit: 2^20 sequences"),
                      {"sequences", "micro batch",
                       "Sequences per micro-batch (global batch / (dp x micro batch) micro-batches per step).",
                       kTraining, kWhenTraining, true}));
  t.push_back(Rows::integer("workload.training.zero_stage", [](Spec& s) -> int& { return s.training.zero_stage; },
                      1, at_least(0, "ZeRO's stages are 0 to 3"), at_most(3, "ZeRO's stages are 0 to 3"),
                      {"", "ZeRO stage",
                       "0: replicated optimizer state; 1: sharded optimizer; 2: + gradients; 3: + parameters.",
                       kTraining, kWhenTraining}));
  t.push_back(Rows::choice("workload.training.recompute", [](Spec& s) -> std::string& { return s.training.recompute; },
                     "selective", fixed_choices({"none", "selective", "full"}),
                     {"", "recompute", "Activation recomputation in backward: trades FLOPs for activation memory.",
                      kTraining, kWhenTraining}));
  t.push_back(Rows::number("workload.training.overlap", [](Spec& s) -> double& { return s.training.overlap; }, 0.8,
                     at_least(0, "a share of the exchange: not negative"),
                     at_most(1, "a share of the exchange: at most all of it"),
                     {"", "DP overlap",
                      "Fraction of the data-parallel exchange hidden behind backward (an assumption).", kTraining,
                      kWhenTraining}));
}

// The video fields (kind video: core/workload/video.h, docs/video.md).
const char* kVideo = "Video: clip and denoising";
// Fitted to the PERF.md video rows (the fields' calibration notes; tests/unit/test_video.cpp
// checks the fit reproduces them).
constexpr double kDenoiserEfficiency = 0.26;
constexpr double kDecoderEfficiency = 0.0932;
const char* kWhenVideo = "workload.kind=video";

// The video fields as data, one row each in table order, bound to their member of
// workload::VideoParams (one binding per type keeps the table small in the page's module).
struct VideoRow {
  const char* key;
  FieldType type;
  double def;
  Bound lo, hi;
  FieldText meta;
  int workload::VideoParams::*i = nullptr;
  double workload::VideoParams::*d = nullptr;
  bool workload::VideoParams::*b = nullptr;
  std::string workload::VideoParams::*s = nullptr;
  const char* calibrated = "";
};

template <class T>
void bind_video(Field& f, T workload::VideoParams::*member) {
  f.get = [member](const Spec& sc) { return json(sc.video.*member); };
  f.put = [member](Spec& sc, const json& v) { sc.video.*member = v.get<T>(); };
}

Field video_field(const VideoRow& r) {
  json def = r.type == FieldType::integer ? json(static_cast<int>(r.def))
             : r.type == FieldType::boolean ? json(r.def != 0)
             : r.type == FieldType::choice  ? json("cfg")
                                            : json(r.def);
  FieldText m = r.meta;
  m.shown_when = kWhenVideo;
  Field f = Rows::make(std::string("workload.video.") + r.key, r.type, def, r.lo, r.hi, m);
  if (r.i) bind_video(f, r.i);
  if (r.d) bind_video(f, r.d);
  if (r.b) bind_video(f, r.b);
  if (r.s) bind_video(f, r.s), f.choices = fixed_choices({"cfg", "none"});
  f.calibrated = r.calibrated;
  return f;
}

Bound frame_lo() {
  return at_least(16, "a frame spans at least one latent patch: 16 pixels at the smallest VAE compression (8) x "
                      "patch (2)");
}
Bound frame_cap() { return limit(16384, "trnsim's limit: 16384 pixels"); }
Bound video_chips_cap() { return limit(4096, "trnsim's limit: 4096 chips"); }

void add_video_fields(std::vector<Field>& t) {
  using V = workload::VideoParams;
  using T = FieldType;
  const std::vector<VideoRow> rows = {
      {"width", T::integer, 1280, frame_lo(), frame_cap(),
       {"px", "width",
        "Frame width. Must be a multiple of the VAE's spatial compression x the patch size (Wan2.1: 8 x 2 = 16; "
        "Wan2.2-TI2V-5B: 16 x 2 = 32).",
        kVideo},
       &V::width},
      {"height", T::integer, 720, frame_lo(), frame_cap(),
       {"px", "height", "Frame height, with the same divisibility as the width.", kVideo}, &V::height},
      {"frames", T::integer, 81, at_least(1, "a clip has at least one frame"),
       limit(100000, "trnsim's limit: 100000 frames, over an hour at 24 fps"),
       {"frames", "frames",
        "Frames of the clip: 1 + a multiple of the VAE's temporal compression (4: 81, 121, 129 ...). Default 81, "
        "Wan2.1's 5 seconds at 16 fps. Image models (FLUX, Qwen-Image): 1.",
        kVideo, "", true},
       &V::frames},
      {"fps", T::number, 16, above(0, "a clip plays at a positive rate", 1),
       limit(240, "trnsim's limit: 240 frames a second"),
       {"frames/s", "fps",
        "Playback rate: the clip lasts frames / fps seconds; real time means generating a second of video per "
        "second.",
        kVideo},
       nullptr, &V::fps},
      {"steps", T::integer, 50, at_least(1, "a sampler takes at least one step"),
       limit(10000, "trnsim's limit: 10000 steps"),
       {"steps", "denoising steps", "Sampler steps: one transformer pass (per guidance branch) each.", kVideo, "", true},
       &V::steps},
      {"guidance", T::choice, 0, {}, {},
       {"", "guidance",
        "cfg: classifier-free guidance, a conditional and an unconditional pass per step (batched on the same "
        "chips, or on two chip groups with cfg_parallel); none: one pass (guidance-distilled models such as "
        "HunyuanVideo, or distilled few-step models).",
        kVideo},
       nullptr, nullptr, nullptr, &V::guidance},
      {"batch", T::integer, 1, at_least(1, "a pass generates at least one image"),
       limit(1024, "trnsim's limit: 1024 images a pass"),
       {"images", "batch",
        "Images generated together in one transformer pass on each replica (image models: FLUX, Qwen-Image; "
        "a video model takes 1). Time per image and images per chip-hour divide by it.",
        kVideo},
       &V::batch},
      {"prompt_tokens", T::integer, 512, at_least(1, "the text encoder reads at least one token"),
       limit(65536, "trnsim's limit: 65536 tokens"),
       {"tokens", "prompt tokens",
        "Text-encoder length, also the cross-attention context. Default 512: Wan's text_len (the prompt padded to "
        "512 UMT5 tokens).",
        kVideo, "", true},
       &V::prompt_tokens},
      {"step_cache_interval", T::integer, 1, at_least(1, "one step in N runs whole: N is at least 1 (1: every step)"),
       limit(1000, "trnsim's limit: 1000 steps"),
       {"steps", "step cache interval",
        "1: off. N: one step in N runs the whole transformer; the others run the embeddings, the first block and "
        "the output projection and reuse the rest's cached residual (First-Block Cache / TeaCache style). Output "
        "quality is not modeled.",
        kVideo},
       &V::step_cache_interval},
      {"vae_tile", T::integer, 0, at_least(0, "a tile size is not negative; 0 decodes whole frames"), frame_cap(),
       {"px", "VAE tile",
        "0: decode whole frames. Else spatial tiles of this size every 3/4 tile (diffusers' default 256 / 192 "
        "overlap): less activation memory, overlap decoded twice.",
        kVideo},
       &V::vae_tile},
      {"vae_parallel", T::boolean, 0, {}, {},
       {"", "VAE tiles in parallel",
        "Spread the decode tiles over the replica's chips (needs vae_tile); off: one chip decodes, as Wan's and "
        "diffusers' pipelines do.",
        kVideo},
       nullptr, nullptr, &V::vae_parallel},
      {"ulysses", T::integer, 1, at_least(1, "a sequence-parallel group has at least one chip"), video_chips_cap(),
       {"chips", "sp Ulysses",
        "Sequence parallelism, DeepSpeed-Ulysses: the video tokens split over this many chips, an all-to-all to "
        "heads before each self-attention and back after. Must divide the heads per tensor-parallel rank.",
        kPlacement, "", true},
       &V::ulysses},
      {"ring", T::integer, 1, at_least(1, "a ring has at least one chip"), video_chips_cap(),
       {"chips", "sp ring",
        "Sequence parallelism, ring attention: key/value blocks passed around this many chips, overlapped with "
        "the attention blocks. Combines with Ulysses (xDiT's USP).",
        kPlacement, "", true},
       &V::ring},
      {"cfg_parallel", T::boolean, 0, {}, {},
       {"", "cfg parallel",
        "Run the conditional and unconditional branches on two chip groups (doubles the chips per replica) and "
        "exchange the noise predictions each step; off: both in one batch.",
        kPlacement},
       nullptr, nullptr, &V::cfg_parallel},
      {"denoiser_efficiency", T::number, kDenoiserEfficiency, efficiency_lo(), efficiency_hi(),
       {"", "denoiser efficiency",
        "Achievable fraction of the tensor-engine peak for the denoiser's matmuls and attention (replaces "
        "efficiency.compute and .attention there; the text encoders keep those).",
        kAssumptions},
       nullptr, &V::denoiser_efficiency, nullptr, nullptr,
       "calibrated on Trainium2 Wan2.2-TI2V-5B (PERF video: 0.27 s per step at 512x384, CFG parallel on 2 chips); "
       "one value for every chip, so the roofline prices a BF16 step alike on Trainium3, which PERF row 17 measures "
       "1.25x faster (the engine pricer, workload.pricer engine, prices each chip's engines: 1.11x)"},
      {"decoder_efficiency", T::number, kDecoderEfficiency, efficiency_lo(), efficiency_hi(),
       {"", "VAE decoder efficiency",
        "Achievable fraction of the tensor-engine peak for the VAE decoder's 3-D convolutions and attention.",
        kAssumptions},
       nullptr, &V::decoder_efficiency, nullptr, nullptr,
       "calibrated on Trainium2 Wan2.2-TI2V-5B (PERF video: 18.32 s end to end at 512x384, less 50 steps of "
       "0.27 s); the port decodes on one of each chip's four logical cores; assumed the same on Trainium3"},
  };
  for (const auto& r : rows) t.push_back(video_field(r));
}

// The assumptions fields.
void add_assumptions_fields(std::vector<Field>& t) {
  {
    Field f = Rows::number("workload.efficiency.compute", [](Spec& s) -> double& { return s.efficiency.compute; },
                     0.516, efficiency_lo(), efficiency_hi(),
                     {"", "matmul efficiency", "Achievable fraction of the tensor-engine peak for matmuls.",
                      kAssumptions});
    f.calibrated = "calibrated on Trainium2 prompt processing through the serving simulator (PERF rows 1, 3, 6, 7 and 15 "
                   "TTFT, with the kernel overhead, HBM efficiency and stack costs: docs/neuron-execution.md); same on "
                   "Trainium3";
    t.push_back(f);
  }
  t.push_back(Rows::number("workload.efficiency.attention",
                     [](Spec& s) -> double& { return s.efficiency.attention; }, 0.5, efficiency_lo(),
                     efficiency_hi(),
                     {"", "attention efficiency", "Achievable fraction of peak for the attention kernels (an assumption).",
                      kAssumptions}));
  {
    Field f = Rows::number("workload.efficiency.hbm", [](Spec& s) -> double& { return s.efficiency.hbm; }, 0.879,
                     efficiency_lo(), efficiency_hi(),
                     {"", "HBM efficiency", "Achievable fraction of the HBM bandwidth.", kAssumptions});
    f.calibrated = "calibrated on Trainium2 decode through the serving simulator (PERF rows 1, 3, 5, 6, 7, 8 and 15 "
                   "TPOT/ITL); same on Trainium3";
    t.push_back(f);
  }
  {
    Field f = Rows::number("workload.efficiency.kernel_overhead_s",
                     [](Spec& s) -> double& { return s.efficiency.kernel_overhead_s; }, 17.4e-6,
                     at_least(0, "an overhead is not negative"),
                     limit(0.01, "trnsim's limit: 10 ms a kernel, hundreds of times any launch cost"),
                     {"s", "kernel overhead", "Fixed cost per kernel: launch, synchronisation, DMA set-up.",
                      kAssumptions});
    f.calibrated =
        "calibrated on Trainium2 decode through the serving simulator (PERF rows 1, 2, 3, 5, 6, 7, 8 and 15, with the "
        "HBM efficiency); assumed unchanged on Trainium3 (software)";
    f.display_scale = 1e6;
    f.display_unit = "us";
    t.push_back(f);
  }
  t.push_back(Rows::number("workload.efficiency.hbm_reserve_fraction",
                     [](Spec& s) -> double& { return s.efficiency.hbm_reserve_fraction; }, 0.05,
                     at_least(0, "a reserve is not negative"),
                     below(1, "a reserve is a share of the HBM: less than all of it", 0.9),
                     {"", "HBM reserve", "HBM kept for the runtime and fragmentation (an assumption).", kAssumptions}));
  t.push_back(Rows::optional_number("workload.economics.chip_power_watts",
                              [](Spec& s) -> std::optional<double>& { return s.economics.chip_power_watts; },
                              above(0, "a working chip draws power", 1),
                              limit(1e5, "trnsim's limit: 100 kW a chip"),
                              {"W", "chip power",
                               "Power per chip. null: the system data's assumption (AWS publishes no chip power).",
                               kAssumptions, "", true}));
  t.push_back(Rows::number("workload.economics.host_power_fraction",
                     [](Spec& s) -> double& { return s.economics.host_power_fraction; }, 0.3,
                     at_least(0, "hosts and network draw no negative power"),
                     limit(10, "trnsim's limit: hosts drawing 10 times the chips' power"),
                     {"", "host power", "Hosts, NICs, switches and fans on top of the chips, as a fraction of chip power "
                                        "(a guess).",
                      kAssumptions}));
  t.push_back(Rows::number("workload.economics.pue", [](Spec& s) -> double& { return s.economics.pue; }, 1.1,
                     at_least(1, "a PUE is at least 1: the facility draws the IT power and more"),
                     limit(5, "trnsim's limit: 5, above any data centre's"),
                     {"", "PUE", "Facility power usage effectiveness (a guess).", kAssumptions}));
  t.push_back(Rows::optional_number(
      "workload.economics.price_per_chip_hour_usd",
      [](Spec& s) -> std::optional<double>& { return s.economics.price_per_chip_hour_usd; },
      at_least(0, "a price is not negative"), limit(1e4, "trnsim's limit: 10000 USD a chip-hour"),
      {"USD", "price per chip-hour", "Price per chip-hour. null: the chip data's guess (no Trainium3 price is published).",
       kAssumptions, "", true}));
  t.push_back(Rows::choice("workload.pricer", [](Spec& s) -> std::string& { return s.pricer; }, "roofline",
                     [] { return price::pricer_names(); },
                     {"", "pricer",
                      "How operators are timed: the roofline (peak x efficiency, HBM bandwidth x efficiency, plus "
                      "kernel overhead) or the engine-level NeuronCore model (tiled GEMMs and flash attention on "
                      "the tensor, vector and scalar engines and DMA queues; the efficiencies do not apply).",
                      kAssumptions}));
}

Bound bucket_lo() { return at_least(1, "a compiled bucket holds at least one token"); }

// The Neuron execution model: the serving stack and what it compiles.
void add_execution_fields(std::vector<Field>& t) {
  {
    Field f = Rows::bound<std::string>(
        Rows::make("workload.stack", FieldType::string, "vllm-neuron", {}, text_limit(1000),
             {"", "serving stack",
              "The Neuron software stack whose execution is modelled: a built-in name (plain, nxdi, vllm-neuron, "
              "optimum-neuron: core/data/serving/, every value sourced or marked calibrated) or a path to your own "
              "stack file. It sets logical NeuronCores per chip as collective ranks, the MoE expert-execution strategy "
              "and, when serving, buckets, prefill/decode scheduling and runtime/host costs. plain: exact shapes, ranks "
              "are chips, uniform routing, no runtime costs.",
              kExecution}),
        [](Spec& s) -> std::string& { return s.stack; });
    auto store = f.put;
    f.put = [store](Spec& s, const json& v) {
      try {
        price::load_stack(v.get<std::string>());  // an unknown name or a bad file: the error names this field
      } catch (const InputError& e) {
        throw InputError("workload.stack", e.what());
      }
      store(s, v);
    };
    t.push_back(f);
  }
  t.push_back(Rows::integer("workload.compiled.sequence_length",
                      [](Spec& s) -> int& { return s.compiled.sequence_length; }, 0,
                      at_least(0, "a length is not negative; 0 takes the model's"), tokens_cap(),
                      {"tokens", "sequence length",
                       "Longest sequence the stack compiles for (NxDI seq_len, vLLM max-model-len): the largest "
                       "token-generation bucket; optimum-neuron pads every prompt's decode attention to it. 0: the model's "
                       "max_position_embeddings (vLLM's default max-model-len).",
                       kExecution, kWhenInference, true}));
  t.push_back(Rows::integer("workload.compiled.max_context_length",
                      [](Spec& s) -> int& { return s.compiled.max_context_length; }, 0,
                      at_least(0, "a length is not negative; 0 takes the sequence length"), tokens_cap(),
                      {"tokens", "max context length",
                       "Longest prompt the context-encoding graph takes (NxDI max_context_length): its largest bucket; "
                       "optimum-neuron pads every prompt to it. 0: the sequence length.",
                       kExecution, kWhenInference, true}));
  t.push_back(Rows::integer_list("workload.compiled.context_encoding_buckets",
                           [](Spec& s) -> std::vector<int>& { return s.compiled.context_encoding_buckets; },
                           bucket_lo(), tokens_cap(), 64,
                           {"tokens", "context-encoding buckets",
                            "Prompt lengths compiled (NxDI context_encoding_buckets); a prompt runs padded to the smallest "
                            "that holds it. []: the stack's automatic powers of two up to the max context length.",
                            kExecution, kWhenInference}));
  t.push_back(Rows::integer_list("workload.compiled.token_generation_buckets",
                           [](Spec& s) -> std::vector<int>& { return s.compiled.token_generation_buckets; },
                           bucket_lo(), tokens_cap(), 64,
                           {"tokens", "token-generation buckets",
                            "KV lengths compiled for decode (NxDI token_generation_buckets); a step attends over the smallest "
                            "that holds its longest context. []: the stack's automatic powers of two up to the sequence "
                            "length.",
                            kExecution, kWhenInference}));
  {
    Field f = Rows::bound<std::string>(
        Rows::make("workload.speculation.draft_model", FieldType::string, "", {}, text_limit(200),
             {"", "draft model",
              "Fused speculative decoding: the bundled draft model (e.g. Llama-3.2-1B) run k times per step before "
              "the target verifies; empty: no speculation.",
              kExecution, kWhenInference}),
        [](Spec& s) -> std::string& { return s.speculation.draft_model; });
    auto store = f.put;
    f.put = [store](Spec& s, const json& v) {
      const std::string name = v.get<std::string>();
      if (!name.empty()) model::bundled_model_json(name, "workload.speculation.draft_model");  // unknown: error with hint
      store(s, v);
    };
    t.push_back(f);
  }
  t.push_back(Rows::integer("workload.speculation.length", [](Spec& s) -> int& { return s.speculation.length; }, 0,
                      at_least(0, "a count of drafted tokens is not negative; 0: no speculation"),
                      limit(64, "trnsim's limit: 64 drafted tokens a step"),
                      {"tokens", "speculation length",
                       "NxDI speculation_length k: k draft passes, then one target pass over k tokens, accepting up to "
                       "k per step (the stack's convention; the plain stack verifies k + 1). 0: no speculation.",
                       kExecution, kWhenInference}));
  {
    Field f = Rows::number("workload.speculation.acceptance",
                     [](Spec& s) -> double& { return s.speculation.acceptance; }, kDraftAcceptance,
                     at_least(0, "a probability is at least 0"), at_most(1, "a probability is at most 1"),
                     {"", "acceptance rate",
                      "Probability that the target accepts a drafted token, at every position alike (the first "
                      "rejection ends the step's run of accepted tokens). The default is an assumption; the validation "
                      "rows of PERF.md 2 and 4 use the value fitted to row 2.",
                      kExecution, kWhenInference});
    t.push_back(f);
  }
  t.push_back(Rows::integer_list("workload.speculation.acceptance_by_position_percent",
                           [](Spec& s) -> std::vector<int>& {
                             return s.speculation.acceptance_by_position_percent;
                           },
                           at_least(0, "a probability is at least 0%"), at_most(100, "a probability is at most 100%"),
                           64,
                           {"%", "acceptance by position",
                            "Acceptance of the 1st, 2nd, ... drafted token given the earlier ones were accepted, in percent "
                            "(overrides the acceptance rate; the last value repeats). []: the acceptance rate everywhere.",
                            kExecution, kWhenInference}));
}


std::vector<Field> build_fields() {
  std::vector<Field> t;
  add_model_fields(t);
  add_placement_fields(t);
  add_inference_fields(t);
  add_training_fields(t);
  add_video_fields(t);
  add_assumptions_fields(t);
  add_execution_fields(t);
  return t;
}

}  // namespace

const std::vector<FieldOf<Spec>>& fields() {
  static const std::vector<FieldOf<Spec>> table = build_fields();
  return table;
}

const FieldMeta& field(const std::string& path) {
  for (const auto& f : fields())
    if (f.path == path) return f;
  throw std::logic_error("workload::field: no row " + path);
}

}  // namespace trnsim::workload
