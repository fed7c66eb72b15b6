// What a scenario asks the workload layer to evaluate: the model, its precisions and
// placement, the sizes of the inference or training run, and the explicit assumptions
// (efficiencies, power, price). Plain typed storage only: every field's default, range,
// unit, label and help live in the one field table (core/scenario/schema.cpp), which
// parses, writes, compares and sets these structs. Nothing here has a default of its own.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/fields.h"
#include "model/llm.h"
#include "model/video.h"

namespace trnsim::workload {

// What a workload evaluates: serving requests, optimizer steps or one generated clip. Parsed
// once from the scenario's workload.kind; every later choice switches on it (or on the
// result's alternative, workload.h).
enum class Kind { inference, training, video };
const char* kind_name(Kind kind);                // "inference" | "training" | "video"
const std::vector<std::string>& kind_names();    // in enum order: the field's choices
Kind parse_kind(const std::string& name);        // InputError naming workload.kind

struct Precision {
  std::string weights;            // MLP and expert weights
  std::string attention_weights;  // attention projections
  std::string activations;        // tensor-engine input type
  std::string kv_cache;
};

struct Parallelism {
  int tp = 0, pp = 0, dp = 0, ep = 0;
  int redundant_experts = 0;  // extra routed-expert slots for a load balancer's replicas (EPLB)
  bool pad_heads = true;  // pad attention heads to a multiple of tp with zero heads, as Neuron does
};

struct InferenceParams {
  int batch = 0;  // concurrent sequences per replica
  int input_tokens = 0;
  int output_tokens = 0;
  int prefill_batch = 0;  // sequences prefilled together in one pass (their TTFT)
};

struct TrainingParams {
  int sequence_length = 0;
  int global_batch = 0;  // sequences per optimizer step
  int micro_batch = 0;   // sequences per micro-batch
  int zero_stage = 0;    // 0..3
  std::string recompute; // none | selective | full
  double overlap = 0;    // fraction of data-parallel communication hidden behind backward
};

// Achievable fractions of peak and fixed costs: explicit assumptions, not measurements.
// Which defaults are calibrated (and on which PERF.md rows) is stated in the field table.
struct Efficiency {
  double compute = 0;               // matmuls, fraction of the tensor-engine peak
  double attention = 0;             // attention score/value kernels, fraction of peak
  double hbm = 0;                   // fraction of HBM bandwidth
  double kernel_overhead_s = 0;     // fixed cost per kernel (launch, sync, DMA setup)
  double hbm_reserve_fraction = 0;  // HBM kept for the runtime, fragmentation
};

struct Economics {
  std::optional<double> chip_power_watts;         // null: the system's assumption (hw data)
  double host_power_fraction = 0;                 // hosts, NICs, switches, fans on top of chips
  double pue = 0;                                 // facility overhead
  std::optional<double> price_per_chip_hour_usd;  // null: the chip data's guess
};

// Video generation (kind "video"; core/workload/video.h): the clip, the denoising loop and
// the video-specific placement.
struct VideoParams {
  int width = 0, height = 0, frames = 0;  // pixels, frames of the clip
  double fps = 0;                         // playback rate: the clip lasts frames / fps seconds
  int steps = 0;                          // denoising steps
  std::string guidance;                   // cfg (two branches per step) | none
  int prompt_tokens = 0;                  // text-encoder and cross-attention length
  int step_cache_interval = 0;            // 1 = off; N: one full step in N, the others cached
  int vae_tile = 0;                       // spatial decode tile in pixels, 0 = untiled
  bool vae_parallel = false;              // decode tiles spread over the replica's chips
  int ulysses = 0, ring = 0;              // sequence parallelism: all-to-all and ring degrees
  bool cfg_parallel = false;              // the two guidance branches on two chip groups
  int batch = 1;                          // images generated together (image models)
  // Achievable fractions of the tensor-engine peak (calibrated defaults: the field table).
  double denoiser_efficiency = 0;         // the denoiser's matmuls and attention
  double decoder_efficiency = 0;          // the VAE decoder's convolutions and attention
};

// The shapes a Neuron stack compiles (NxD Inference's neuron_config names); 0 / empty: derived.
struct Compiled {
  int sequence_length = 0;     // seq_len / max-model-len; 0: input + output tokens
  int max_context_length = 0;  // longest prompt the context-encoding graph takes; 0: sequence_length
  std::vector<int> context_encoding_buckets;  // empty: the stack's automatic buckets
  std::vector<int> token_generation_buckets;
};

// Fused speculative decoding with a draft model (NxDI's enable_fused_speculation).
struct Speculation {
  std::string draft_model;  // bundled model name; empty: no speculation
  int length = 0;           // speculation_length k (0: off)
  double acceptance = 0;    // probability a drafted token is accepted, each position alike
  std::vector<int> acceptance_by_position_percent;  // per drafted position (overrides acceptance)
  bool enabled() const { return length > 0 && !draft_model.empty(); }
};

struct Spec {
  Kind kind = Kind::inference;
  std::string model_name;  // bundled model name; empty when model_config is inline
  json model_config;       // inline Hugging Face config (null when bundled)
  // The model as imported when the spec was read (shared, immutable): evaluation does not
  // import it again. Not part of the scenario's value (equality ignores it).
  std::shared_ptr<const model::ModelConfig> imported;
  std::shared_ptr<const model::VideoModelConfig> imported_video;  // kind video: the same for a video model
  Precision precision;
  Parallelism parallelism;
  InferenceParams inference;
  TrainingParams training;
  VideoParams video;
  Efficiency efficiency;
  Economics economics;
  std::string pricer;  // roofline | engine (core/price/pricer.h)
  std::string stack;   // serving stack (core/price/stack.h, core/data/serving/*.json)
  Compiled compiled;
  Speculation speculation;
};

// The model the spec names (bundled or inline): the copy imported when the spec was read,
// else imported now. Errors name `path`.
std::shared_ptr<const model::ModelConfig> spec_model(const Spec& spec, const std::string& path = "workload.model");

// What reports call an inline language-model config: its "_name_or_path" (transformers' metadata
// key; a config read from a file gets its path there), else "inline".
std::string inline_model_name(const json& config);

// True when the spec's model is a video model (a bundled video name or an inline bundle).
bool names_video_model(const Spec& spec);
// The video model the spec names: the copy imported when the spec was read, else imported
// now. InputError naming `path` (also when the model is a language model).
std::shared_ptr<const model::VideoModelConfig> spec_video_model(const Spec& spec,
                                                                const std::string& path = "workload.model");

// The bundled models a workload of `kind` takes: video models for video, language models
// otherwise (the Scenario panel's model choices).
std::vector<std::string> model_choices(Kind kind);
// A bundled model's JSON, language or video (InputError naming `field` when unknown).
json bundled_model_config(const std::string& name, const std::string& field);

// The dtype table's workload precisions, in order, and bytes per element (errors name
// "precision"): common/dtype.h.
const std::vector<std::string>& precision_names();
double bytes_per_element(const std::string& dtype);

}  // namespace trnsim::workload
