// The scenario field table (schema.h) and the generic operations on it.
#include "scenario/schema.h"

#include <algorithm>
#include <map>

#include "hw/system.h"
#include "price/pricer.h"
#include "scenario/scenario.h"

namespace trnsim {

namespace {

using workload::Spec;

template <class T>
using Ref = T& (*)(Scenario&);

// Typed storage of a field: get/put through a reference into the Scenario.
template <class T>
Field bound(Field f, Ref<T> ref) {
  f.get = [ref](const Scenario& s) { return json(ref(const_cast<Scenario&>(s))); };
  f.put = [ref](Scenario& s, const json& v) { ref(s) = v.get<T>(); };
  return f;
}

Field bound_optional(Field f, Ref<std::optional<double>> ref) {
  f.get = [ref](const Scenario& s) {
    const auto& v = ref(const_cast<Scenario&>(s));
    return v ? json(*v) : json(nullptr);
  };
  f.put = [ref](Scenario& s, const json& v) {
    ref(s) = v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
  };
  return f;
}

struct Meta {
  std::string unit, label, help, section, shown_when;
  bool log_scale = false;
};

Field make(const std::string& path, FieldType type, json def, double lo, double hi, const Meta& m) {
  Field f;
  f.path = path;
  f.type = type;
  f.default_value = std::move(def);
  f.lo = lo;
  f.hi = hi;
  f.unit = m.unit;
  f.label = m.label;
  f.help = m.help;
  f.section = m.section;
  f.shown_when = m.shown_when;
  f.log_scale = m.log_scale;
  return f;
}

Field integer(const std::string& path, Ref<int> ref, int def, int lo, int hi, const Meta& m) {
  return bound(make(path, FieldType::integer, def, lo, hi, m), ref);
}
Field number(const std::string& path, Ref<double> ref, double def, double lo, double hi, const Meta& m) {
  return bound(make(path, FieldType::number, def, lo, hi, m), ref);
}
Field choice(const std::string& path, Ref<std::string> ref, const std::string& def,
             std::function<std::vector<std::string>()> choices, const Meta& m) {
  Field f = bound(make(path, FieldType::choice, def, 0, 0, m), ref);
  f.choices = std::move(choices);
  return f;
}
Field optional_number(const std::string& path, Ref<std::optional<double>> ref, double lo, double hi, const Meta& m) {
  return bound_optional(make(path, FieldType::optional_number, nullptr, lo, hi, m), ref);
}
std::function<std::vector<std::string>()> fixed(std::vector<std::string> v) {
  return [v] { return v; };
}

constexpr int kMaxTokens = 1 << 24;  // 16M tokens of context is already absurd
const char* kSystem = "System";
const char* kModel = "Model and precision";
const char* kPlacement = "Parallelism";
const char* kInference = "Inference sizes";
const char* kTraining = "Training sizes";
const char* kAssumptions = "Assumptions: efficiency, power, price";
const char* kWhenInference = "workload.kind=inference";
const char* kWhenTraining = "workload.kind=training";

// The scenario fields.
void add_scenario_fields(std::vector<Field>& t) {
  {
    Field f = make("version", FieldType::integer, kScenarioVersion, 1, 1000000,
                   {"", "version", "The scenario format version (this trnsim reads version 1)."});
    f.get = [](const Scenario&) { return json(kScenarioVersion); };
    f.put = [](Scenario&, const json& v) {
      if (v.get<std::int64_t>() != kScenarioVersion)
        throw InputError("version", "unsupported scenario version " + std::to_string(v.get<std::int64_t>()) +
                                        " (this trnsim reads version " + std::to_string(kScenarioVersion) + ")");
    };
    t.push_back(f);
  }
  t.push_back(bound<std::string>(make("name", FieldType::string, "", 0, 200, {"", "name", "A title for the scenario."}),
                                 [](Scenario& s) -> std::string& { return s.name; }));
  {
    Field f = bound<std::string>(
        make("system", FieldType::system, "trn3-gen2-ultraserver", 0, 0,
             {"", "system", "The system the workload runs on. Built-in data files cite their sources (About page).",
              kSystem}),
        [](Scenario& s) -> std::string& { return s.system; });
    t.push_back(f);
  }
  {
    Field f = bound<std::string>(
        make("compare_system", FieldType::system, "trn2-ultraserver", 0, 0,
             {"", "compare with",
              "The same workload on a second system, shown beside the first with ratios. Empty: no comparison.", kSystem}),
        [](Scenario& s) -> std::string& { return s.compare_system; });
    f.allow_empty = true;
    t.push_back(f);
  }
}

// The model fields.
void add_model_fields(std::vector<Field>& t) {
  t.push_back(choice("workload.kind", [](Scenario& s) -> std::string& { return s.workload.kind; }, "inference",
                     fixed({"inference", "training", "video"}),
                     {"", "kind",
                      "Inference (serving requests), training (optimizer steps) or video (generating one clip with "
                      "a diffusion-transformer video model: docs/video.md).",
                      kModel}));
  {
    Field f = make("workload.model", FieldType::model, nullptr, 0, 0,
                   {"", "model",
                    "A bundled Hugging Face config (examples/models/, sources beside each) or your own config.json "
                    "object inline; for kind video a bundled video model (examples/models/video/) or an inline "
                    "object of its diffusers configs (transformer, vae, text_encoder).",
                    kModel});
    f.get = [](const Scenario& s) {
      return s.workload.model_name.empty() ? s.workload.model_config : json(s.workload.model_name);
    };
    f.put = [](Scenario& s, const json& v) {
      Spec& w = s.workload;
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
  t.push_back(choice("workload.precision.weights", [](Scenario& s) -> std::string& { return s.workload.precision.weights; },
                     "bf16", precisions,
                     {"", "weights",
                      "Storage of MLP and expert weights: bytes moved from HBM per token (bf16 2, fp8 1, mxfp8 1+1/32, "
                      "mxfp4 0.5+1/32 bytes per element).",
                      kModel}));
  t.push_back(choice("workload.precision.attention_weights",
                     [](Scenario& s) -> std::string& { return s.workload.precision.attention_weights; }, "bf16",
                     precisions, {"", "attention weights", "Storage of the attention projections.", kModel}));
  t.push_back(choice("workload.precision.activations",
                     [](Scenario& s) -> std::string& { return s.workload.precision.activations; }, "bf16", precisions,
                     {"", "activations", "The tensor engine's input type: sets the peak FLOP/s of every matmul.", kModel}));
  t.push_back(choice("workload.precision.kv_cache", [](Scenario& s) -> std::string& { return s.workload.precision.kv_cache; },
                     "bf16", precisions, {"", "KV cache", "Storage of the KV cache: bytes read per decode step.", kModel}));
}

// The placement fields.
void add_placement_fields(std::vector<Field>& t) {
  t.push_back(integer("workload.parallelism.tp", [](Scenario& s) -> int& { return s.workload.parallelism.tp; }, 1, 1,
                      1 << 16,
                      {"chips", "tp (tensor)",
                       "Tensor parallelism: chips sharing every layer (all-reduce after attention and MLP). Must divide "
                       "the scale-up domain; heads that tp does not divide are padded (see pad heads).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.pp", [](Scenario& s) -> int& { return s.workload.parallelism.pp; }, 1, 1,
                      1 << 16,
                      {"stages", "pp (pipeline)",
                       "Pipeline stages: layers split into consecutive groups (activations sent between stages).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.dp", [](Scenario& s) -> int& { return s.workload.parallelism.dp; }, 1, 1,
                      1 << 20,
                      {"replicas", "dp (data)",
                       "Replicas: independent copies (inference) or data-parallel ranks with gradient exchange "
                       "(training).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.ep", [](Scenario& s) -> int& { return s.workload.parallelism.ep; }, 1, 1,
                      1 << 16,
                      {"chips", "ep (expert)",
                       "Expert parallelism for MoE layers: experts spread over ep chips (all-to-all dispatch and "
                       "combine).",
                       kPlacement, "", true}));
  {
    Field f = make("workload.parallelism.pad_heads", FieldType::boolean, true, 0, 0,
                   {"", "pad heads",
                    "When tp does not divide the query or KV heads, pad them with zero heads as Neuron does "
                    "(NxD Inference's shardable head counts) and report the padding's cost; off: such a tp is an "
                    "error.",
                    kPlacement});
    t.push_back(bound<bool>(f, [](Scenario& s) -> bool& { return s.workload.parallelism.pad_heads; }));
  }
}

// The inference fields.
void add_inference_fields(std::vector<Field>& t) {
  t.push_back(integer("workload.inference.batch", [](Scenario& s) -> int& { return s.workload.inference.batch; }, 1, 1,
                      1 << 20,
                      {"sequences", "batch", "Concurrent sequences per replica (continuous batching).", kInference,
                       kWhenInference, true}));
  t.push_back(integer("workload.inference.input_tokens",
                      [](Scenario& s) -> int& { return s.workload.inference.input_tokens; }, 1024, 1, kMaxTokens,
                      {"tokens", "input tokens", "Prompt length per request.", kInference, kWhenInference, true}));
  t.push_back(integer("workload.inference.output_tokens",
                      [](Scenario& s) -> int& { return s.workload.inference.output_tokens; }, 256, 1, kMaxTokens,
                      {"tokens", "output tokens", "Generated tokens per request.", kInference, kWhenInference, true}));
}

// The training fields.
void add_training_fields(std::vector<Field>& t) {
  t.push_back(integer("workload.training.sequence_length",
                      [](Scenario& s) -> int& { return s.workload.training.sequence_length; }, 8192, 1, kMaxTokens,
                      {"tokens", "sequence length", "Tokens per sequence.", kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.global_batch",
                      [](Scenario& s) -> int& { return s.workload.training.global_batch; }, 1024, 1, 1 << 26,
                      {"sequences", "global batch", "Sequences per optimizer step.", kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.micro_batch",
                      [](Scenario& s) -> int& { return s.workload.training.micro_batch; }, 1, 1, 1 << 20,
                      {"sequences", "micro batch",
                       "Sequences per micro-batch (global batch / (dp x micro batch) micro-batches per step).",
                       kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.zero_stage", [](Scenario& s) -> int& { return s.workload.training.zero_stage; },
                      1, 0, 3,
                      {"", "ZeRO stage",
                       "0: replicated optimizer state; 1: sharded optimizer; 2: + gradients; 3: + parameters.",
                       kTraining, kWhenTraining}));
  t.push_back(choice("workload.training.recompute", [](Scenario& s) -> std::string& { return s.workload.training.recompute; },
                     "selective", fixed({"none", "selective", "full"}),
                     {"", "recompute", "Activation recomputation in backward: trades FLOPs for activation memory.",
                      kTraining, kWhenTraining}));
  t.push_back(number("workload.training.overlap", [](Scenario& s) -> double& { return s.workload.training.overlap; }, 0.8,
                     0.0, 1.0,
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
  double def, lo, hi;
  Meta meta;
  int workload::VideoParams::*i = nullptr;
  double workload::VideoParams::*d = nullptr;
  bool workload::VideoParams::*b = nullptr;
  std::string workload::VideoParams::*s = nullptr;
  const char* calibrated = "";
};

template <class T>
void bind_video(Field& f, T workload::VideoParams::*member) {
  f.get = [member](const Scenario& sc) { return json(sc.workload.video.*member); };
  f.put = [member](Scenario& sc, const json& v) { sc.workload.video.*member = v.get<T>(); };
}

Field video_field(const VideoRow& r) {
  json def = r.type == FieldType::integer ? json(static_cast<int>(r.def))
             : r.type == FieldType::boolean ? json(r.def != 0)
             : r.type == FieldType::choice  ? json("cfg")
                                            : json(r.def);
  Meta m = r.meta;
  m.shown_when = kWhenVideo;
  Field f = make(std::string("workload.video.") + r.key, r.type, def, r.lo, r.hi, m);
  if (r.i) bind_video(f, r.i);
  if (r.d) bind_video(f, r.d);
  if (r.b) bind_video(f, r.b);
  if (r.s) bind_video(f, r.s), f.choices = fixed({"cfg", "none"});
  f.calibrated = r.calibrated;
  return f;
}

void add_video_fields(std::vector<Field>& t) {
  using V = workload::VideoParams;
  using T = FieldType;
  const std::vector<VideoRow> rows = {
      {"width", T::integer, 1280, 16, 16384,
       {"px", "width",
        "Frame width. Must be a multiple of the VAE's spatial compression x the patch size (Wan2.1: 8 x 2 = 16; "
        "Wan2.2-TI2V-5B: 16 x 2 = 32).",
        kVideo},
       &V::width},
      {"height", T::integer, 720, 16, 16384,
       {"px", "height", "Frame height, with the same divisibility as the width.", kVideo}, &V::height},
      {"frames", T::integer, 81, 1, 100000,
       {"frames", "frames",
        "Frames of the clip: 1 + a multiple of the VAE's temporal compression (4: 81, 121, 129 ...). Default 81, "
        "Wan2.1's 5 seconds at 16 fps.",
        kVideo, "", true},
       &V::frames},
      {"fps", T::number, 16, 1, 240,
       {"frames/s", "fps",
        "Playback rate: the clip lasts frames / fps seconds; real time means generating a second of video per "
        "second.",
        kVideo},
       nullptr, &V::fps},
      {"steps", T::integer, 50, 1, 10000,
       {"steps", "denoising steps", "Sampler steps: one transformer pass (per guidance branch) each.", kVideo, "", true},
       &V::steps},
      {"guidance", T::choice, 0, 0, 0,
       {"", "guidance",
        "cfg: classifier-free guidance, a conditional and an unconditional pass per step (batched on the same "
        "chips, or on two chip groups with cfg_parallel); none: one pass (guidance-distilled models such as "
        "HunyuanVideo, or distilled few-step models).",
        kVideo},
       nullptr, nullptr, nullptr, &V::guidance},
      {"prompt_tokens", T::integer, 512, 1, 65536,
       {"tokens", "prompt tokens",
        "Text-encoder length, also the cross-attention context. Default 512: Wan's text_len (the prompt padded to "
        "512 UMT5 tokens).",
        kVideo, "", true},
       &V::prompt_tokens},
      {"step_cache_interval", T::integer, 1, 1, 1000,
       {"steps", "step cache interval",
        "1: off. N: one step in N runs the whole transformer; the others run the embeddings, the first block and "
        "the output projection and reuse the rest's cached residual (First-Block Cache / TeaCache style). Output "
        "quality is not modeled.",
        kVideo},
       &V::step_cache_interval},
      {"vae_tile", T::integer, 0, 0, 16384,
       {"px", "VAE tile",
        "0: decode whole frames. Else spatial tiles of this size every 3/4 tile (diffusers' default 256 / 192 "
        "overlap): less activation memory, overlap decoded twice.",
        kVideo},
       &V::vae_tile},
      {"vae_parallel", T::boolean, 0, 0, 0,
       {"", "VAE tiles in parallel",
        "Spread the decode tiles over the replica's chips (needs vae_tile); off: one chip decodes, as Wan's and "
        "diffusers' pipelines do.",
        kVideo},
       nullptr, nullptr, &V::vae_parallel},
      {"ulysses", T::integer, 1, 1, 4096,
       {"chips", "sp Ulysses",
        "Sequence parallelism, DeepSpeed-Ulysses: the video tokens split over this many chips, an all-to-all to "
        "heads before each self-attention and back after. Must divide the heads per tensor-parallel rank.",
        kPlacement, "", true},
       &V::ulysses},
      {"ring", T::integer, 1, 1, 4096,
       {"chips", "sp ring",
        "Sequence parallelism, ring attention: key/value blocks passed around this many chips, overlapped with "
        "the attention blocks. Combines with Ulysses (xDiT's USP).",
        kPlacement, "", true},
       &V::ring},
      {"cfg_parallel", T::boolean, 0, 0, 0,
       {"", "cfg parallel",
        "Run the conditional and unconditional branches on two chip groups (doubles the chips per replica) and "
        "exchange the noise predictions each step; off: both in one batch.",
        kPlacement},
       nullptr, nullptr, &V::cfg_parallel},
      {"denoiser_efficiency", T::number, kDenoiserEfficiency, 0.01, 1.0,
       {"", "denoiser efficiency",
        "Achievable fraction of the tensor-engine peak for the denoiser's matmuls and attention (replaces "
        "efficiency.compute and .attention there; the text encoders keep those).",
        kAssumptions},
       nullptr, &V::denoiser_efficiency, nullptr, nullptr,
       "calibrated on Trainium2 Wan2.2-TI2V-5B (PERF video: 0.27 s per step at 512x384, CFG parallel on 2 chips); "
       "assumed the same on Trainium3"},
      {"decoder_efficiency", T::number, kDecoderEfficiency, 0.01, 1.0,
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
    Field f = number("workload.efficiency.compute", [](Scenario& s) -> double& { return s.workload.efficiency.compute; },
                     0.5, 0.01, 1.0,
                     {"", "matmul efficiency", "Achievable fraction of the tensor-engine peak for matmuls.",
                      kAssumptions});
    f.calibrated = "calibrated on Trainium2 prefill (PERF rows 1, 3); same on Trainium3";
    t.push_back(f);
  }
  t.push_back(number("workload.efficiency.attention",
                     [](Scenario& s) -> double& { return s.workload.efficiency.attention; }, 0.5, 0.01, 1.0,
                     {"", "attention efficiency", "Achievable fraction of peak for the attention kernels (an assumption).",
                      kAssumptions}));
  t.push_back(number("workload.efficiency.hbm", [](Scenario& s) -> double& { return s.workload.efficiency.hbm; }, 0.8,
                     0.01, 1.0,
                     {"", "HBM efficiency", "Achievable fraction of the HBM bandwidth (an assumption).", kAssumptions}));
  {
    Field f = number("workload.efficiency.kernel_overhead_s",
                     [](Scenario& s) -> double& { return s.workload.efficiency.kernel_overhead_s; }, 20e-6, 0.0, 0.01,
                     {"s", "kernel overhead", "Fixed cost per kernel: launch, synchronisation, DMA set-up.",
                      kAssumptions});
    f.calibrated =
        "calibrated on Trainium2 decode (PERF rows 1, 3, 5, 6, 7: within -19%..+15%); assumed unchanged on Trainium3 "
        "(software)";
    f.display_scale = 1e6;
    f.display_unit = "us";
    t.push_back(f);
  }
  t.push_back(number("workload.efficiency.hbm_reserve_fraction",
                     [](Scenario& s) -> double& { return s.workload.efficiency.hbm_reserve_fraction; }, 0.05, 0.0, 0.9,
                     {"", "HBM reserve", "HBM kept for the runtime and fragmentation (an assumption).", kAssumptions}));
  t.push_back(optional_number("workload.economics.chip_power_watts",
                              [](Scenario& s) -> std::optional<double>& { return s.workload.economics.chip_power_watts; },
                              1.0, 1e5,
                              {"W", "chip power",
                               "Power per chip. null: the system data's assumption (AWS publishes no chip power).",
                               kAssumptions, "", true}));
  t.push_back(number("workload.economics.host_power_fraction",
                     [](Scenario& s) -> double& { return s.workload.economics.host_power_fraction; }, 0.3, 0.0, 10.0,
                     {"", "host power", "Hosts, NICs, switches and fans on top of the chips, as a fraction of chip power "
                                        "(a guess).",
                      kAssumptions}));
  t.push_back(number("workload.economics.pue", [](Scenario& s) -> double& { return s.workload.economics.pue; }, 1.1, 1.0,
                     5.0, {"", "PUE", "Facility power usage effectiveness (a guess).", kAssumptions}));
  t.push_back(optional_number(
      "workload.economics.price_per_chip_hour_usd",
      [](Scenario& s) -> std::optional<double>& { return s.workload.economics.price_per_chip_hour_usd; }, 0.0, 1e4,
      {"USD", "price per chip-hour", "Price per chip-hour. null: the chip data's guess (no Trainium3 price is published).",
       kAssumptions, "", true}));
  t.push_back(choice("workload.pricer", [](Scenario& s) -> std::string& { return s.workload.pricer; }, "roofline",
                     [] { return price::pricer_names(); },
                     {"", "pricer",
                      "How operators are timed: the roofline (peak x efficiency, HBM bandwidth x efficiency, plus "
                      "kernel overhead) or the engine-level NeuronCore model (tiled GEMMs and flash attention on "
                      "the tensor, vector and scalar engines and DMA queues; the efficiencies do not apply).",
                      kAssumptions}));
}

std::vector<Field> build_table() {
  std::vector<Field> t;
  add_scenario_fields(t);
  add_model_fields(t);
  add_placement_fields(t);
  add_inference_fields(t);
  add_training_fields(t);
  add_video_fields(t);
  add_assumptions_fields(t);
  return t;
}

const std::map<std::string, std::size_t>& field_index() {
  static const std::map<std::string, std::size_t> index = [] {
    std::map<std::string, std::size_t> m;
    const auto& t = scenario_fields();
    for (std::size_t i = 0; i < t.size(); ++i) m[t[i].path] = i;
    return m;
  }();
  return index;
}

std::vector<std::string> field_paths() {
  std::vector<std::string> out;
  for (const auto& f : scenario_fields()) out.push_back(f.path);
  return out;
}

std::string checked_system_name(const std::string& name, const std::string& path, bool allow_empty) {
  if (name.empty()) {
    if (allow_empty) return name;
    throw InputError(path, "must name a system");
  }
  try {
    hw::load_system(name);  // validates now, so the error points at this field
  } catch (const InputError& e) {
    // load_system names its argument "system": name this field instead, once. An error
    // inside a user's file keeps the file and the field in it ("my.json: hbm.bandwidth.unit").
    throw InputError(path, e.field() == "system" ? e.problem() : e.what());
  }
  return name;
}

}  // namespace

std::string Field::key() const {
  auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string Field::parent() const {
  auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

const std::vector<Field>& scenario_fields() {
  static const std::vector<Field> table = build_table();
  return table;
}

const Field* find_field_or_null(const std::string& path) {
  const auto& idx = field_index();
  auto it = idx.find(path);
  return it == idx.end() ? nullptr : &scenario_fields()[it->second];
}

const Field& find_field(const std::string& path) {
  if (const Field* f = find_field_or_null(path)) return *f;
  std::string hint = closest_name(path, field_paths());
  throw InputError(path, "not a scenario field" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
}

json validate_field(const Field& f, const json& v, const std::string& path_in) {
  const std::string& p = path_in.empty() ? f.path : path_in;
  switch (f.type) {
    case FieldType::integer:
      return checked_integer(v, p, static_cast<std::int64_t>(f.lo), static_cast<std::int64_t>(f.hi));
    case FieldType::number:
      return checked_number(v, p, f.lo, f.hi);
    case FieldType::boolean:
      return checked_boolean(v, p);
    case FieldType::string: {
      std::string s = checked_string(v, p);
      if (s.size() > static_cast<std::size_t>(f.hi))
        throw InputError(p, "longer than " + std::to_string(static_cast<long long>(f.hi)) + " characters");
      return s;
    }
    case FieldType::choice:
      return checked_choice(checked_string(v, p), p, f.choices());
    case FieldType::optional_number:
      if (v.is_null()) return nullptr;
      if (!v.is_number()) throw InputError(p, std::string("expected a number or null, got ") + v.type_name());
      return checked_number(v, p, f.lo, f.hi);
    case FieldType::system:
      return checked_system_name(checked_string(v, p), p, f.allow_empty);
    case FieldType::model:
      if (v.is_string()) {
        if (v.get<std::string>().empty()) throw InputError(p, "empty model name");
        model::check_bundled_model_name(v.get<std::string>(), p);  // unknown name: error with hint
        return v;
      }
      if (v.is_object()) return v;
      throw InputError(p, std::string("expected a bundled model name or a Hugging Face config.json object, got ") +
                              v.type_name());
    case FieldType::integer_list: {
      if (!v.is_array()) throw InputError(p, std::string("expected an array of whole numbers, got ") + v.type_name());
      if (f.max_items && v.size() > f.max_items)
        throw InputError(p, "at most " + std::to_string(f.max_items) + " entries, got " + std::to_string(v.size()));
      json out = json::array();
      for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(checked_integer(v[i], index_path(p, i), static_cast<std::int64_t>(f.lo),
                                      static_cast<std::int64_t>(f.hi)));
      return out;
    }
  }
  return v;
}

void set_field(Scenario& s, const std::string& path, const json& value) {
  const Field& f = find_field(path);
  try {
    f.put(s, validate_field(f, value));
  } catch (const InputError& e) {
    if (e.field().rfind(path, 0) == 0) throw;  // already names this field (or a part of it)
    throw InputError(path, e.what());
  }
}

json get_field(const Scenario& s, const std::string& path) { return find_field(path).get(s); }

bool is_default(const Scenario& s, const std::string& path) {
  const Field& f = find_field(path);
  return f.get(s) == f.default_value;
}

Scenario scenario_defaults() {
  Scenario s;
  for (const auto& f : scenario_fields())
    if (f.type != FieldType::model) f.put(s, f.default_value);
  return s;
}

bool operator==(const Scenario& a, const Scenario& b) {
  for (const auto& f : scenario_fields())
    if (f.get(a) != f.get(b)) return false;
  return true;
}

}  // namespace trnsim
