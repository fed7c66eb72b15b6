// The scenario field table (schema.h) and the generic operations on it.
#include "scenario/schema.h"

#include <algorithm>
#include <map>

#include "common/limits.h"
#include "hw/system.h"
#include "price/pricer.h"
#include "price/stack.h"
#include "scenario/scenario.h"
#include "serve/requests.h"
#include "serve/sessions.h"
#include "serve/policy/batch_policy.h"
#include "serve/policy/router.h"
#include "serve/stack/step_model.h"
#include "serve/traces.h"

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
  Meta(std::string u = "", std::string l = "", std::string h = "", std::string s = "", std::string w = "",
       bool log = false)
      : unit(std::move(u)), label(std::move(l)), help(std::move(h)), section(std::move(s)), shown_when(std::move(w)),
        log_scale(log) {}
};

Field make(const std::string& path, FieldType type, json def, Bound lo, Bound hi, const Meta& m) {
  Field f;
  f.path = path;
  f.type = type;
  f.default_value = std::move(def);
  f.lo = std::move(lo);
  f.hi = std::move(hi);
  f.unit = m.unit;
  f.label = m.label;
  f.help = m.help;
  f.section = m.section;
  f.shown_when = m.shown_when;
  f.log_scale = m.log_scale;
  return f;
}

// A text field's length: no physical bound, a cap on what a scenario carries.
Bound text_limit(std::size_t max_chars) {
  return limit(static_cast<double>(max_chars), "trnsim's limit on this text's length");
}

Field integer(const std::string& path, Ref<int> ref, int def, const Bound& lo, const Bound& hi, const Meta& m) {
  return bound(make(path, FieldType::integer, def, lo, hi, m), ref);
}
Field number(const std::string& path, Ref<double> ref, double def, const Bound& lo, const Bound& hi, const Meta& m) {
  return bound(make(path, FieldType::number, def, lo, hi, m), ref);
}
Field integer_list(const std::string& path, Ref<std::vector<int>> ref, const Bound& lo, const Bound& hi,
                   std::size_t max_items, const Meta& m) {
  Field f = bound(make(path, FieldType::integer_list, json::array(), lo, hi, m), ref);
  f.max_items = max_items;
  return f;
}
Field choice(const std::string& path, Ref<std::string> ref, const std::string& def,
             std::function<std::vector<std::string>()> choices, const Meta& m) {
  Field f = bound(make(path, FieldType::choice, def, {}, {}, m), ref);
  f.choices = std::move(choices);
  return f;
}
Field optional_number(const std::string& path, Ref<std::optional<double>> ref, const Bound& lo, const Bound& hi,
                      const Meta& m) {
  return bound_optional(make(path, FieldType::optional_number, nullptr, lo, hi, m), ref);
}
std::function<std::vector<std::string>()> fixed(std::vector<std::string> v) {
  return [v] { return v; };
}
Field boolean(const std::string& path, Ref<bool> ref, bool def, const Meta& m) {
  return bound(make(path, FieldType::boolean, def, {}, {}, m), ref);
}
Field text(const std::string& path, Ref<std::string> ref, std::size_t max_chars, const Meta& m) {
  return bound(make(path, FieldType::string, "", {}, text_limit(max_chars), m), ref);
}

constexpr int kMaxTokens = 1 << 24;  // 16M tokens of context is already absurd

// Ends shared by rows of one meaning (each row's own ends are written in the row). A limit's
// reason says why trnsim caps a quantity that has no bound of its own on that side. Functions,
// not constants: the table may be built during another file's static initialisation.
Bound tokens_cap() { return limit(kMaxTokens, "trnsim's limit: 2^24 tokens, beyond every model's context"); }
Bound chips_cap() { return limit(1 << 16, "trnsim's limit: 2^16 chips, beyond every system it models"); }
Bound efficiency_lo() { return above(0, "an efficiency is a share of the peak: more than none", 0.01); }
Bound efficiency_hi() { return at_most(1, "an efficiency is a share of the peak: nothing runs faster than it"); }
Bound none_or_more() { return at_least(0, "a count or a length is not negative; 0 turns it off"); }
Bound time_lo() { return at_least(0, "a time is not negative"); }
Bound time_cap() { return limit(1e6, "trnsim's limit: a million seconds, about 12 days"); }
Bound length_lo() { return at_least(1, "every request has at least one token"); }
Bound share_lo() { return at_least(0, "a share is not negative"); }
Bound share_hi() { return at_most(1, "a share is at most the whole"); }
Bound count_cap() { return limit(1 << 20, "trnsim's limit: 2^20"); }
const char* kSystem = "System";
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
const char* kServeArrivals = "Serving: requests";
const char* kServeServer = "Serving: server";
const char* kServeTargets = "Serving: targets";
const char* kServeTrace = "Serving: trace";
const char* kServeSessions = "Serving: agentic sessions";


// The scenario fields.
void add_scenario_fields(std::vector<Field>& t) {
  {
    const std::string reads = "this trnsim reads scenario version " + std::to_string(kScenarioVersion);
    Field f = make("version", FieldType::integer, kScenarioVersion, limit(kScenarioVersion, reads),
                   limit(kScenarioVersion, reads),
                   {"", "version", "The scenario format version (this trnsim reads version 1)."});
    f.get = [](const Scenario&) { return json(kScenarioVersion); };
    f.put = [](Scenario&, const json&) {};  // the range admits this trnsim's version only
    t.push_back(f);
  }
  t.push_back(bound<std::string>(make("name", FieldType::string, "", {}, text_limit(200),
                                      {"", "name", "A title for the scenario."}),
                                 [](Scenario& s) -> std::string& { return s.name; }));
  {
    Field f = bound<std::string>(
        make("system", FieldType::system, "trn3-gen2-ultraserver", {}, {},
             {"", "system", "The system the workload runs on. Built-in data files cite their sources (About page).",
              kSystem}),
        [](Scenario& s) -> std::string& { return s.system; });
    t.push_back(f);
  }
  {
    Field f = bound<std::string>(
        make("compare_system", FieldType::system, "trn2-ultraserver", {}, {},
             {"", "compare with",
              "The same workload on a second system, shown beside the first with ratios. Empty: no comparison.", kSystem}),
        [](Scenario& s) -> std::string& { return s.compare_system; });
    f.allow_empty = true;
    t.push_back(f);
  }
}

// The model fields.
void add_model_fields(std::vector<Field>& t) {
  {
    Field f = make("workload.kind", FieldType::choice, "inference", {}, {},
                   {"", "kind",
                    "Inference (serving requests), training (optimizer steps) or video (generating one clip with "
                    "a diffusion-transformer video model: docs/video.md).",
                    kModel});
    f.choices = [] { return workload::kind_names(); };
    f.get = [](const Scenario& s) { return json(workload::kind_name(s.workload.kind)); };
    f.put = [](Scenario& s, const json& v) { s.workload.kind = workload::parse_kind(v.get<std::string>()); };
    t.push_back(f);
  }
  {
    Field f = make("workload.model", FieldType::model, nullptr, {}, {},
                   {"", "model",
                    "A bundled Hugging Face config (examples/models/, sources beside each), your own config.json "
                    "object inline, or a path to one (relative to the scenario file; the CLI and Python); for kind video a bundled video model (examples/models/video/) or an inline "
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
  t.push_back(integer("workload.parallelism.tp", [](Scenario& s) -> int& { return s.workload.parallelism.tp; }, 1,
                      at_least(1, "a tensor-parallel group has at least one chip"), chips_cap(),
                      {"chips", "tp (tensor)",
                       "Tensor parallelism: chips sharing every layer (all-reduce after attention and MLP). Must divide "
                       "the scale-up domain; heads that tp does not divide are padded (see pad heads).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.pp", [](Scenario& s) -> int& { return s.workload.parallelism.pp; }, 1,
                      at_least(1, "a pipeline has at least one stage"), chips_cap(),
                      {"stages", "pp (pipeline)",
                       "Pipeline stages: layers split into consecutive groups (activations sent between stages).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.dp", [](Scenario& s) -> int& { return s.workload.parallelism.dp; }, 1,
                      at_least(1, "there is at least one replica"),
                      limit(1 << 20, "trnsim's limit: 2^20 replicas, beyond every system it models"),
                      {"replicas", "dp (data)",
                       "Replicas: independent copies (inference) or data-parallel ranks with gradient exchange "
                       "(training).",
                       kPlacement, "", true}));
  t.push_back(integer("workload.parallelism.ep", [](Scenario& s) -> int& { return s.workload.parallelism.ep; }, 1,
                      at_least(1, "an expert-parallel group has at least one chip"), chips_cap(),
                      {"chips", "ep (expert)",
                       "Expert parallelism for MoE layers: experts spread over ep chips (all-to-all dispatch and "
                       "combine).",
                       kPlacement, "", true}));
  {
    Field f = make("workload.parallelism.pad_heads", FieldType::boolean, true, {}, {},
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
  t.push_back(integer("workload.inference.batch", [](Scenario& s) -> int& { return s.workload.inference.batch; }, 1,
                      at_least(1, "a batch holds at least one sequence"),
                      limit(1 << 20, "trnsim's limit: 2^20 sequences"),
                      {"sequences", "batch", "Concurrent sequences per replica (continuous batching).", kInference,
                       kWhenInference, true}));
  t.push_back(integer("workload.inference.input_tokens",
                      [](Scenario& s) -> int& { return s.workload.inference.input_tokens; }, 1024,
                      at_least(1, "a prompt has at least one token"), tokens_cap(),
                      {"tokens", "input tokens", "Prompt length per request.", kInference, kWhenInference, true}));
  t.push_back(integer("workload.inference.output_tokens",
                      [](Scenario& s) -> int& { return s.workload.inference.output_tokens; }, 256,
                      at_least(1, "a request generates at least one token"), tokens_cap(),
                      {"tokens", "output tokens", "Generated tokens per request.", kInference, kWhenInference, true}));
}

// The training fields.
void add_training_fields(std::vector<Field>& t) {
  t.push_back(integer("workload.training.sequence_length",
                      [](Scenario& s) -> int& { return s.workload.training.sequence_length; }, 8192,
                      at_least(1, "a sequence has at least one token"), tokens_cap(),
                      {"tokens", "sequence length", "Tokens per sequence.", kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.global_batch",
                      [](Scenario& s) -> int& { return s.workload.training.global_batch; }, 1024,
                      at_least(1, "a step trains on at least one sequence"),
                      limit(1 << 26, "trnsim's limit: 2^26 sequences"),
                      {"sequences", "global batch", "Sequences per optimizer step.", kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.micro_batch",
                      [](Scenario& s) -> int& { return s.workload.training.micro_batch; }, 1,
                      at_least(1, "a micro-batch holds at least one sequence"),
                      limit(1 << 20, "trnsim's limit: 2^20 sequences"),
                      {"sequences", "micro batch",
                       "Sequences per micro-batch (global batch / (dp x micro batch) micro-batches per step).",
                       kTraining, kWhenTraining, true}));
  t.push_back(integer("workload.training.zero_stage", [](Scenario& s) -> int& { return s.workload.training.zero_stage; },
                      1, at_least(0, "ZeRO's stages are 0 to 3"), at_most(3, "ZeRO's stages are 0 to 3"),
                      {"", "ZeRO stage",
                       "0: replicated optimizer state; 1: sharded optimizer; 2: + gradients; 3: + parameters.",
                       kTraining, kWhenTraining}));
  t.push_back(choice("workload.training.recompute", [](Scenario& s) -> std::string& { return s.workload.training.recompute; },
                     "selective", fixed({"none", "selective", "full"}),
                     {"", "recompute", "Activation recomputation in backward: trades FLOPs for activation memory.",
                      kTraining, kWhenTraining}));
  t.push_back(number("workload.training.overlap", [](Scenario& s) -> double& { return s.workload.training.overlap; }, 0.8,
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
        "Wan2.1's 5 seconds at 16 fps.",
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
       "assumed the same on Trainium3"},
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
    Field f = number("workload.efficiency.compute", [](Scenario& s) -> double& { return s.workload.efficiency.compute; },
                     0.516, efficiency_lo(), efficiency_hi(),
                     {"", "matmul efficiency", "Achievable fraction of the tensor-engine peak for matmuls.",
                      kAssumptions});
    f.calibrated = "calibrated on Trainium2 prompt processing through the serving simulator (PERF rows 1, 3, 6, 7 and 15 "
                   "TTFT, with the kernel overhead, HBM efficiency and stack costs: docs/neuron-execution.md); same on "
                   "Trainium3";
    t.push_back(f);
  }
  t.push_back(number("workload.efficiency.attention",
                     [](Scenario& s) -> double& { return s.workload.efficiency.attention; }, 0.5, efficiency_lo(),
                     efficiency_hi(),
                     {"", "attention efficiency", "Achievable fraction of peak for the attention kernels (an assumption).",
                      kAssumptions}));
  {
    Field f = number("workload.efficiency.hbm", [](Scenario& s) -> double& { return s.workload.efficiency.hbm; }, 0.879,
                     efficiency_lo(), efficiency_hi(),
                     {"", "HBM efficiency", "Achievable fraction of the HBM bandwidth.", kAssumptions});
    f.calibrated = "calibrated on Trainium2 decode through the serving simulator (PERF rows 1, 3, 5, 6, 7, 8 and 15 "
                   "TPOT/ITL); same on Trainium3";
    t.push_back(f);
  }
  {
    Field f = number("workload.efficiency.kernel_overhead_s",
                     [](Scenario& s) -> double& { return s.workload.efficiency.kernel_overhead_s; }, 17.4e-6,
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
  t.push_back(number("workload.efficiency.hbm_reserve_fraction",
                     [](Scenario& s) -> double& { return s.workload.efficiency.hbm_reserve_fraction; }, 0.05,
                     at_least(0, "a reserve is not negative"),
                     below(1, "a reserve is a share of the HBM: less than all of it", 0.9),
                     {"", "HBM reserve", "HBM kept for the runtime and fragmentation (an assumption).", kAssumptions}));
  t.push_back(optional_number("workload.economics.chip_power_watts",
                              [](Scenario& s) -> std::optional<double>& { return s.workload.economics.chip_power_watts; },
                              above(0, "a working chip draws power", 1),
                              limit(1e5, "trnsim's limit: 100 kW a chip"),
                              {"W", "chip power",
                               "Power per chip. null: the system data's assumption (AWS publishes no chip power).",
                               kAssumptions, "", true}));
  t.push_back(number("workload.economics.host_power_fraction",
                     [](Scenario& s) -> double& { return s.workload.economics.host_power_fraction; }, 0.3,
                     at_least(0, "hosts and network draw no negative power"),
                     limit(10, "trnsim's limit: hosts drawing 10 times the chips' power"),
                     {"", "host power", "Hosts, NICs, switches and fans on top of the chips, as a fraction of chip power "
                                        "(a guess).",
                      kAssumptions}));
  t.push_back(number("workload.economics.pue", [](Scenario& s) -> double& { return s.workload.economics.pue; }, 1.1,
                     at_least(1, "a PUE is at least 1: the facility draws the IT power and more"),
                     limit(5, "trnsim's limit: 5, above any data centre's"),
                     {"", "PUE", "Facility power usage effectiveness (a guess).", kAssumptions}));
  t.push_back(optional_number(
      "workload.economics.price_per_chip_hour_usd",
      [](Scenario& s) -> std::optional<double>& { return s.workload.economics.price_per_chip_hour_usd; },
      at_least(0, "a price is not negative"), limit(1e4, "trnsim's limit: 10000 USD a chip-hour"),
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

Bound bucket_lo() { return at_least(1, "a compiled bucket holds at least one token"); }

// The Neuron execution model: the serving stack and what it compiles.
void add_execution_fields(std::vector<Field>& t) {
  {
    Field f = bound<std::string>(
        make("workload.stack", FieldType::string, "vllm-neuron", {}, text_limit(1000),
             {"", "serving stack",
              "The Neuron software stack whose execution is modelled: a built-in name (plain, nxdi, vllm-neuron, "
              "optimum-neuron: core/data/serving/, every value sourced or marked calibrated) or a path to your own "
              "stack file. It sets logical NeuronCores per chip as collective ranks, the MoE expert-execution strategy "
              "and, when serving, buckets, prefill/decode scheduling and runtime/host costs. plain: exact shapes, ranks "
              "are chips, uniform routing, no runtime costs.",
              kExecution}),
        [](Scenario& s) -> std::string& { return s.workload.stack; });
    auto store = f.put;
    f.put = [store](Scenario& s, const json& v) {
      try {
        price::load_stack(v.get<std::string>());  // an unknown name or a bad file: the error names this field
      } catch (const InputError& e) {
        throw InputError("workload.stack", e.what());
      }
      store(s, v);
    };
    t.push_back(f);
  }
  t.push_back(integer("workload.compiled.sequence_length",
                      [](Scenario& s) -> int& { return s.workload.compiled.sequence_length; }, 0,
                      at_least(0, "a length is not negative; 0 takes the model's"), tokens_cap(),
                      {"tokens", "sequence length",
                       "Longest sequence the stack compiles for (NxDI seq_len, vLLM max-model-len): the largest "
                       "token-generation bucket; optimum-neuron pads every prompt's decode attention to it. 0: the model's "
                       "max_position_embeddings (vLLM's default max-model-len).",
                       kExecution, kWhenInference, true}));
  t.push_back(integer("workload.compiled.max_context_length",
                      [](Scenario& s) -> int& { return s.workload.compiled.max_context_length; }, 0,
                      at_least(0, "a length is not negative; 0 takes the sequence length"), tokens_cap(),
                      {"tokens", "max context length",
                       "Longest prompt the context-encoding graph takes (NxDI max_context_length): its largest bucket; "
                       "optimum-neuron pads every prompt to it. 0: the sequence length.",
                       kExecution, kWhenInference, true}));
  t.push_back(integer_list("workload.compiled.context_encoding_buckets",
                           [](Scenario& s) -> std::vector<int>& { return s.workload.compiled.context_encoding_buckets; },
                           bucket_lo(), tokens_cap(), 64,
                           {"tokens", "context-encoding buckets",
                            "Prompt lengths compiled (NxDI context_encoding_buckets); a prompt runs padded to the smallest "
                            "that holds it. []: the stack's automatic powers of two up to the max context length.",
                            kExecution, kWhenInference}));
  t.push_back(integer_list("workload.compiled.token_generation_buckets",
                           [](Scenario& s) -> std::vector<int>& { return s.workload.compiled.token_generation_buckets; },
                           bucket_lo(), tokens_cap(), 64,
                           {"tokens", "token-generation buckets",
                            "KV lengths compiled for decode (NxDI token_generation_buckets); a step attends over the smallest "
                            "that holds its longest context. []: the stack's automatic powers of two up to the sequence "
                            "length.",
                            kExecution, kWhenInference}));
  {
    Field f = bound<std::string>(
        make("workload.speculation.draft_model", FieldType::string, "", {}, text_limit(200),
             {"", "draft model",
              "Fused speculative decoding: the bundled draft model (e.g. Llama-3.2-1B) run k times per step before "
              "the target verifies; empty: no speculation.",
              kExecution, kWhenInference}),
        [](Scenario& s) -> std::string& { return s.workload.speculation.draft_model; });
    auto store = f.put;
    f.put = [store](Scenario& s, const json& v) {
      const std::string name = v.get<std::string>();
      if (!name.empty()) model::bundled_model_json(name, "workload.speculation.draft_model");  // unknown: error with hint
      store(s, v);
    };
    t.push_back(f);
  }
  t.push_back(integer("workload.speculation.length", [](Scenario& s) -> int& { return s.workload.speculation.length; }, 0,
                      at_least(0, "a count of drafted tokens is not negative; 0: no speculation"),
                      limit(64, "trnsim's limit: 64 drafted tokens a step"),
                      {"tokens", "speculation length",
                       "NxDI speculation_length k: k draft passes, then one target pass over k tokens, accepting up to "
                       "k per step (the stack's convention; the plain stack verifies k + 1). 0: no speculation.",
                       kExecution, kWhenInference}));
  {
    Field f = number("workload.speculation.acceptance",
                     [](Scenario& s) -> double& { return s.workload.speculation.acceptance; }, kDraftAcceptance,
                     at_least(0, "a probability is at least 0"), at_most(1, "a probability is at most 1"),
                     {"", "acceptance rate",
                      "Probability that the target accepts a drafted token, at every position alike (the first "
                      "rejection ends the step's run of accepted tokens). The default is an assumption; the validation "
                      "rows of PERF.md 2 and 4 use the value fitted to row 2.",
                      kExecution, kWhenInference});
    t.push_back(f);
  }
  t.push_back(integer_list("workload.speculation.acceptance_by_position_percent",
                           [](Scenario& s) -> std::vector<int>& {
                             return s.workload.speculation.acceptance_by_position_percent;
                           },
                           at_least(0, "a probability is at least 0%"), at_most(100, "a probability is at most 100%"),
                           64,
                           {"%", "acceptance by position",
                            "Acceptance of the 1st, 2nd, ... drafted token given the earlier ones were accepted, in percent "
                            "(overrides the acceptance rate; the last value repeats). []: the acceptance rate everywhere.",
                            kExecution, kWhenInference}));
}

// The serving simulator's fields (core/serve/spec.h, `trnsim serve`). A length distribution
// (prompts or outputs), bound through the Lengths member L of serve::Spec.
template <serve::Lengths serve::Spec::*L>
void serve_length_fields(std::vector<Field>& t, const std::string& part, const std::string& what,
                         const std::string& workload_field) {
  const std::string p = "serve." + part + ".";
  t.push_back(choice(p + "distribution", [](Scenario& s) -> std::string& { return (s.serve.*L).distribution; }, "fixed",
                     [] { return serve::distribution_names(); },
                     {"", what + " distribution",
                      "How " + what + " lengths vary: fixed (the mean), uniform (mean +- spread), normal (standard "
                      "deviation spread; guidellm 0.1's emulated data draws normal(base, sqrt(variance)) clamped to "
                      "[1, base + 5 variance]), lognormal (mean and standard deviation), exponential.",
                      kServeArrivals}));
  t.push_back(optional_number(p + "mean", [](Scenario& s) -> std::optional<double>& { return (s.serve.*L).mean; },
                              length_lo(), tokens_cap(),
                              {"tokens", what + " mean", "Mean " + what + " length. null: " + workload_field + ".",
                               kServeArrivals, "", true}));
  t.push_back(number(p + "spread", [](Scenario& s) -> double& { return (s.serve.*L).spread; }, 0,
                     at_least(0, "a half-width or a standard deviation is not negative"), tokens_cap(),
                     {"tokens", what + " spread", "Half-width (uniform) or standard deviation (normal, lognormal).",
                      kServeArrivals}));
  t.push_back(integer(p + "min", [](Scenario& s) -> int& { return (s.serve.*L).min; }, 1, length_lo(), tokens_cap(),
                      {"tokens", what + " min", "Shortest " + what + " drawn (draws are clamped).", kServeArrivals}));
  t.push_back(integer(p + "max", [](Scenario& s) -> int& { return (s.serve.*L).max; }, kMaxTokens, length_lo(),
                      tokens_cap(),
                      {"tokens", what + " max", "Longest " + what + " drawn (draws are clamped).", kServeArrivals}));
  if (part != "output_tokens") return;
  t.push_back(optional_number(
      p + "eos_mean", [](Scenario& s) -> std::optional<double>& { return (s.serve.*L).eos_mean; }, length_lo(),
      tokens_cap(),
      {"tokens", "output mean as served (EOS)",
       "Mean output length as served when the model stops at its end-of-sequence token before the drawn length "
       "(guidellm and vLLM bench send the draw as max_tokens; vLLM stops at EOS unless ignore_eos). Each request "
       "stops at min(its draw, a geometric stop at a constant per-token rate), the rate solved so the outputs "
       "average this (assumption: a memoryless stop, the shape the mean alone gives). At most the drawn mean; "
       "generated arrivals only. null: every request runs to its draw.",
       kServeArrivals, "", true}));
}

Bound requests_cap() {
  return limit(static_cast<double>(limits::kMaxTraceRequests), "trnsim's limit: ten million requests");
}
Bound target_lo() { return above(0, "a latency target is positive", 1e-6); }

void add_serve_fields(std::vector<Field>& t) {
  t.push_back(choice("serve.arrivals", [](Scenario& s) -> std::string& { return s.serve.arrivals; }, "poisson",
                     [] { return serve::arrival_names(); },
                     {"", "arrivals",
                      "poisson, gamma (bursty: serve.burstiness), constant, burst (every request at t = 0, vLLM bench "
                      "--request-rate inf), closed (serve.concurrency clients, each sending its next request when one "
                      "finishes: guidellm synchronous = 1, LLMPerf at a concurrency), trace (serve.trace), sessions "
                      "(agentic, serve.sessions).",
                      kServeArrivals}));
  t.push_back(number("serve.rate", [](Scenario& s) -> double& { return s.serve.rate; }, 1.0,
                     limit(1e-6, "a rate is positive, and trnsim's floor is one arrival in a million seconds: "
                                 "slower, the simulated clock's doubles lose a step's milliseconds"),
                     limit(1e6, "trnsim's limit: a million a second"),
                     {"1/s", "request rate",
                      "Mean arrivals per second (sessions per second for arrivals = sessions). Must be > 0.",
                      kServeArrivals, "", true}));
  t.push_back(number("serve.burstiness", [](Scenario& s) -> double& { return s.serve.burstiness; }, 1.0,
                     above(0, "a gamma distribution's shape is positive", 0.01),
                     limit(100, "trnsim's limit: 100, arrivals already near constant"),
                     {"", "burstiness",
                      "Gamma arrivals' shape: 1 is Poisson, below 1 burstier, above 1 more regular (vLLM bench's "
                      "--burstiness).",
                      kServeArrivals, "serve.arrivals=gamma", true}));
  t.push_back(integer("serve.concurrency", [](Scenario& s) -> int& { return s.serve.concurrency; }, 1,
                      at_least(1, "a closed loop has at least one client"), count_cap(),
                      {"requests", "concurrency", "Closed-loop clients: requests in flight.", kServeArrivals,
                       "serve.arrivals=closed", true}));
  t.push_back(integer("serve.requests", [](Scenario& s) -> int& { return s.serve.requests; }, 1000,
                      at_least(1, "a run sends at least one request"), requests_cap(),
                      {"requests", "requests", "How many requests to send (generated arrivals).", kServeArrivals, "",
                       true}));
  t.push_back(integer("serve.warmup_requests", [](Scenario& s) -> int& { return s.serve.warmup_requests; }, 0,
                      at_least(0, "a count of requests is not negative"), requests_cap(),
                      {"requests", "warm-up requests",
                       "The first requests (by arrival) are served but left out of the statistics.", kServeArrivals}));
  t.push_back(integer("serve.max_concurrency", [](Scenario& s) -> int& { return s.serve.max_concurrency; }, 0,
                      none_or_more(), count_cap(),
                      {"requests", "max concurrency",
                       "0: no cap. Otherwise open-loop arrivals keep at most this many requests in flight: one "
                       "arriving beyond it waits at the client and is sent, its TTFT counted from then, when one "
                       "finishes (vllm bench's --max-concurrency; guidellm 0.1 keeps GUIDELLM__MAX_CONCURRENCY - 1).",
                       kServeArrivals}));
  t.push_back(number("serve.duration", [](Scenario& s) -> double& { return s.serve.duration_s; }, 0.0,
                     at_least(0, "a run length is not negative; 0 serves every request"),
                     limit(1e7, "trnsim's limit: ten million seconds, about 4 months"),
                     {"s", "run length",
                      "0: the run lasts until every request is served. Otherwise it ends this long after the first "
                      "arrival: no request is sent from then on, and requests not finished by then are left out of the "
                      "statistics (guidellm 0.1's --max-seconds, default 120 s, drops them as timed out); "
                      "serve.requests still caps the count.",
                      kServeArrivals}));
  t.push_back(integer("serve.seed", [](Scenario& s) -> int& { return s.serve.seed; }, 1,
                      limit(0, "a seed has no physical range: any of 0 to 2^31 - 1"),
                      limit(2147483647, "a seed has no physical range: any of 0 to 2^31 - 1"),
                      {"", "seed", "Seeds arrivals, lengths and sessions: the same seed gives the same requests.",
                       kServeArrivals}));
  serve_length_fields<&serve::Spec::input>(t, "input_tokens", "prompt", "workload.inference.input_tokens");
  serve_length_fields<&serve::Spec::output>(t, "output_tokens", "output", "workload.inference.output_tokens");
  t.push_back(integer("serve.shared_prefix_tokens", [](Scenario& s) -> int& { return s.serve.shared_prefix_tokens; }, 0,
                      at_least(0, "a prefix is not negative; 0: none shared"), tokens_cap(),
                      {"tokens", "shared prefix",
                       "Generated requests: the first tokens of every prompt are the same (a system prompt), so the "
                       "prefix cache can reuse them.",
                       kServeArrivals, "", true}));
  t.push_back(integer("serve.max_num_seqs", [](Scenario& s) -> int& { return s.serve.max_num_seqs; }, 256,
                      at_least(1, "a replica runs at least one sequence"), limit(1 << 16, "trnsim's limit: 2^16 slots"),
                      {"sequences", "max-num-seqs",
                       "Batch slots of a replica: sequences running at once (vLLM's --max-num-seqs, default 256).",
                       kServeServer, "", true}));
  t.push_back(integer("serve.max_batched_tokens", [](Scenario& s) -> int& { return s.serve.max_batched_tokens; }, 8192,
                      none_or_more(), tokens_cap(),
                      {"tokens", "max batched tokens",
                       "Tokens one step may compute, decodes and prefill chunks together (vLLM's "
                       "--max-num-batched-tokens; 8192 an assumption). 0: no limit (whole prompts).",
                       kServeServer, "", true}));
  t.push_back(integer("serve.max_prefill_seqs", [](Scenario& s) -> int& { return s.serve.max_prefill_seqs; }, 0,
                      none_or_more(), limit(1 << 16, "trnsim's limit: 2^16 prompts"),
                      {"sequences", "prefills per step", "Prompts started or continued per step. 0: no limit.",
                       kServeServer}));
  t.push_back(choice("serve.scheduler", [](Scenario& s) -> std::string& { return s.serve.scheduler; }, "chunked",
                     [] { return serve::batch_policy_names(); },
                     {"", "scheduler",
                      "chunked: steps mix decodes with prefill chunks (vLLM V1). prefill_first: a step is prefills or "
                      "decodes, waiting prefills first (vLLM V0 without chunked prefill).",
                      kServeServer}));
  t.push_back(integer("serve.kv_block_tokens", [](Scenario& s) -> int& { return s.serve.kv_block_tokens; }, 16,
                      at_least(1, "a block holds at least one token"), limit(4096, "trnsim's limit: 4096 tokens"),
                      {"tokens", "KV block", "KV cache allocation and prefix-hash block (vLLM's default 16).",
                       kServeServer}));
  t.push_back(boolean("serve.prefix_cache.enabled", [](Scenario& s) -> bool& { return s.serve.prefix_cache.enabled; },
                      true,
                      {"", "prefix cache",
                       "Automatic prefix caching: prompts starting with cached blocks reuse their KV (vLLM V1's "
                       "default).",
                       kServeServer}));
  t.push_back(optional_number("serve.prefix_cache.max_tokens",
                              [](Scenario& s) -> std::optional<double>& { return s.serve.prefix_cache.max_tokens; },
                              limit(1, "at least one token: to keep none, set serve.prefix_cache.enabled false"),
                              limit(1e12, "trnsim's limit: 10^12 tokens"),
                              {"tokens", "prefix cache size",
                               "Most tokens the cache keeps. null: whatever the KV budget holds.", kServeServer, "",
                               true}));
  t.push_back(choice("serve.router", [](Scenario& s) -> std::string& { return s.serve.router; }, "round_robin",
                     [] { return serve::router_names(); },
                     {"", "router",
                      "How requests are spread over the dp replicas: round robin, the least loaded (requests "
                      "waiting, running or on their way there), or every call of a session to the same replica.",
                      kServeServer}));
  t.push_back(choice("serve.harness", [](Scenario& s) -> std::string& { return s.serve.harness; }, "vllm-bench",
                     fixed({"vllm-bench", "guidellm", "llmperf"}),
                     {"", "harness",
                      "Whose definition of inter-token latency the report uses: vllm-bench (every gap, pooled), "
                      "guidellm ((last - first token) / (output - 1) per request), llmperf (end to end / output per "
                      "request).",
                      kServeTargets}));
  t.push_back(optional_number("serve.targets.ttft_s",
                              [](Scenario& s) -> std::optional<double>& { return s.serve.targets.ttft_s; }, target_lo(),
                              time_cap(),
                              {"s", "TTFT target", "Goodput: time to first token a request must meet. null: none.",
                               kServeTargets, "", true}));
  t.push_back(optional_number("serve.targets.tpot_s",
                              [](Scenario& s) -> std::optional<double>& { return s.serve.targets.tpot_s; }, target_lo(),
                              time_cap(),
                              {"s", "TPOT target", "Goodput: time per output token a request must meet. null: none.",
                               kServeTargets, "", true}));
  t.push_back(number("serve.targets.fraction", [](Scenario& s) -> double& { return s.serve.targets.fraction; }, 0.9,
                     above(0, "a share of the requests: more than none", 0.01), share_hi(),
                     {"", "attainment", "Share of requests that must meet both targets (DistServe: 90%).",
                      kServeTargets}));
  t.push_back(boolean("serve.find_rate", [](Scenario& s) -> bool& { return s.serve.find_rate; }, false,
                      {"", "find the rate",
                       "Also search the highest request rate whose attainment meets serve.targets.fraction "
                       "(`trnsim serve --find-rate`).",
                       kServeTargets}));
  t.push_back(choice("serve.trace.format", [](Scenario& s) -> std::string& { return s.serve.trace.format; }, "auto",
                     [] { return serve::trace_format_names(); },
                     {"", "trace format", "vidur, splitwise (CSV), mooncake, sessions (JSONL), or auto.", kServeTrace,
                      "serve.arrivals=trace"}));
  t.push_back(text("serve.trace.file", [](Scenario& s) -> std::string& { return s.serve.trace.file; }, 4096,
                   {"", "trace file", "A trace file, relative to the scenario file (the command line only).",
                    kServeTrace, "serve.arrivals=trace"}));
  t.push_back(text("serve.trace.text", [](Scenario& s) -> std::string& { return s.serve.trace.text; }, 4000000,
                   {"", "trace", "The trace itself (what a link or the page can carry).", kServeTrace,
                    "serve.arrivals=trace"}));
  t.push_back(number("serve.trace.time_scale", [](Scenario& s) -> double& { return s.serve.trace.time_scale; }, 1.0,
                     above(0, "a factor on times is positive", 1e-6), limit(1e6, "trnsim's limit: a million"),
                     {"", "time scale", "Multiplies the trace's arrival times and pauses (0.5: twice the rate).",
                      kServeTrace, "serve.arrivals=trace", true}));
  t.push_back(integer("serve.trace.max_requests", [](Scenario& s) -> int& { return s.serve.trace.max_requests; }, 1000000,
                      at_least(1, "a trace has at least one request"), requests_cap(),
                      {"requests", "trace limit", "A longer trace is refused (every request's figures are kept).",
                       kServeTrace, "serve.arrivals=trace", true}));
  namespace pub = serve::published;
  const char* kWhenSessions = "serve.arrivals=sessions";
  t.push_back(integer("serve.sessions.count", [](Scenario& s) -> int& { return s.serve.sessions.count; }, 200,
                      at_least(1, "a run sends at least one session"), limit(1000000, "trnsim's limit: a million"),
                      {"sessions", "sessions", "Agentic sessions to send.", kServeSessions, kWhenSessions, true}));
  t.push_back(number("serve.sessions.turns", [](Scenario& s) -> double& { return s.serve.sessions.turns; },
                     pub::kCopilotTurnsPerSession, at_least(1, "a session has at least one turn"),
                     limit(1000, "trnsim's limit: 1000"),
                     {"turns", "turns per session", "Mean user turns (geometric). Default: the Copilot coding-agent "
                                                    "dataset (PERF.md).",
                      kServeSessions, kWhenSessions}));
  t.push_back(number("serve.sessions.calls_per_turn", [](Scenario& s) -> double& { return s.serve.sessions.calls_per_turn; },
                     pub::kCopilotCallsPerTurn, at_least(1, "a turn makes at least one call"),
                     limit(1000, "trnsim's limit: 1000"),
                     {"calls", "calls per turn", "Mean LLM calls per turn (geometric). Default: Copilot dataset.",
                      kServeSessions, kWhenSessions}));
  t.push_back(number("serve.sessions.prompt_tokens", [](Scenario& s) -> double& { return s.serve.sessions.prompt_tokens; },
                     pub::kMooncakeToolAgentInputTokens, length_lo(), tokens_cap(),
                     {"tokens", "prompt per call", "Mean prompt of a call. Default: Mooncake's tool-agent trace.",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(number("serve.sessions.output_tokens", [](Scenario& s) -> double& { return s.serve.sessions.output_tokens; },
                     pub::kMooncakeToolAgentOutputTokens, length_lo(), tokens_cap(),
                     {"tokens", "output per call", "Mean output of a call (exponential). Default: Mooncake tool-agent.",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(number("serve.sessions.cached_fraction",
                     [](Scenario& s) -> double& { return s.serve.sessions.cached_fraction; },
                     pub::copilot_cached_fraction(), share_lo(),
                     below(1, "every call brings new tokens (its message or a tool's result): less than all cached",
                           0.999),
                     {"", "cached share",
                      "Share of prompt tokens an unbounded prefix cache would reuse. Default: Copilot dataset, 540.95B "
                      "of 631.4B.",
                      kServeSessions, kWhenSessions}));
  t.push_back(number("serve.sessions.tool_pause_s", [](Scenario& s) -> double& { return s.serve.sessions.tool_pause_s; },
                     1.0, time_lo(), time_cap(),
                     {"s", "tool time", "Mean tool execution between the calls of a turn (exponential; an assumption).",
                      kServeSessions, kWhenSessions, true}));
  t.push_back(number("serve.sessions.think_time_s", [](Scenario& s) -> double& { return s.serve.sessions.think_time_s; },
                     10.0, time_lo(), time_cap(),
                     {"s", "think time", "Mean user time between turns (exponential; an assumption).", kServeSessions,
                      kWhenSessions, true}));
}

// The capacity planner's search space (core/capacity/spec.h).
void add_capacity_fields(std::vector<Field>& t) {
  const char* section = "Capacity plan: search space";
  using Names = std::string& (*)(Scenario&);
  const auto names = [&](const char* path, Names ref, const char* label, const char* help) {
    t.push_back(text(path, ref, 4000, {"", label, help, section}));
  };
  names("capacity.systems", [](Scenario& s) -> std::string& { return s.capacity.systems; }, "systems",
        "Systems to search, separated by commas (names or data-file paths). Empty: every built-in system that is one "
        "scale-up domain (UltraServers, servers).");
  const auto placement = [&](const char* path, Ref<std::vector<int>> ref, const char* label, const char* help) {
    t.push_back(integer_list(path, ref, at_least(1, "a parallel group has at least one chip"), chips_cap(), 16,
                             {"chips", label, help, section}));
  };
  placement("capacity.tp", [](Scenario& s) -> std::vector<int>& { return s.capacity.tp; }, "tp choices",
            "Tensor-parallel sizes to search. Empty: every power of two dividing the system's scale-up domain.");
  placement("capacity.ep", [](Scenario& s) -> std::vector<int>& { return s.capacity.ep; }, "ep choices",
            "Expert-parallel sizes to search (MoE models). Empty: 1.");
  placement("capacity.pp", [](Scenario& s) -> std::vector<int>& { return s.capacity.pp; }, "pp choices",
            "Pipeline stages to search. Empty: 1.");
  names("capacity.weights", [](Scenario& s) -> std::string& { return s.capacity.weights; }, "weights choices",
        "Precisions of MLP and expert weights to search, separated by commas. Empty: workload.precision.weights.");
  names("capacity.kv_cache", [](Scenario& s) -> std::string& { return s.capacity.kv_cache; }, "KV cache choices",
        "KV cache precisions to search, separated by commas. Empty: workload.precision.kv_cache.");
  t.push_back(integer_list("capacity.batch_slots", [](Scenario& s) -> std::vector<int>& { return s.capacity.batch_slots; },
                           at_least(1, "a replica holds at least one sequence"), limit(1 << 16, "trnsim's limit: 2^16 slots"),
                           16, {"sequences", "batch slots choices",
                                "serve.max_num_seqs values to search. Empty: serve.max_num_seqs.", section}));
  names("capacity.stacks", [](Scenario& s) -> std::string& { return s.capacity.stacks; }, "stacks",
        "Serving stacks to search, separated by commas (plain, vllm-neuron, nxdi, optimum-neuron). Empty: "
        "workload.stack.");
  names("capacity.schedulers", [](Scenario& s) -> std::string& { return s.capacity.schedulers; }, "batch policies",
        "Batch policies of the plain stack to search, separated by commas (chunked, prefill_first). Empty: "
        "serve.scheduler.");
  t.push_back(integer("capacity.max_chips", [](Scenario& s) -> int& { return s.capacity.max_chips; }, 1024,
                      at_least(1, "a deployment has at least one chip"), chips_cap(),
                      {"chips", "max chips",
                       "The most chips a deployment may take (replicas x tp x pp); the replica search stops there.",
                       section, "", true}));
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
  add_execution_fields(t);
  add_serve_fields(t);
  add_capacity_fields(t);
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
      return checked_integer(v, p, f.lo, f.hi);
    case FieldType::number:
      return checked_number(v, p, f.lo, f.hi);
    case FieldType::boolean:
      return checked_boolean(v, p);
    case FieldType::string: {
      std::string s = checked_string(v, p);
      if (s.size() > static_cast<std::size_t>(f.hi.value))
        throw InputError(p, "longer than " + std::to_string(static_cast<long long>(f.hi.value)) + " characters");
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
        out.push_back(checked_integer(v[i], index_path(p, i), f.lo, f.hi));
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
