// The workload layer: a scenario's workload evaluated on one system, LLM inference or
// training, as plan -> price -> schedule:
//   plan (core/plan/):      the model, the precisions the chip runs and the placement become
//                           per-chip operators (FLOPs, bytes moved, bytes held, collectives);
//   price (core/price/):    a pricer (roofline or the engine-level NeuronCore model) times each
//                           operator on the system; collectives go to core/collective/;
//   schedule (core/schedule/): priced passes become TTFT, TPOT, the 1F1B step and a timeline.
// This file's evaluate() does the system-dependent steps around them: precision fallback on
// chips that lack a format, placement checks against the system, the HBM fit, the time
// shares and the economics (power and price from the chip data, tokens per MW, cost).
//
// What it models
//  - Inference: prefill (time to first token) and decode (time per output token) of `batch`
//    concurrent sequences with given input and output lengths, served with continuous batching
//    (each request is prefilled on its own and stalls the others' decode once); the KV cache
//    (GQA, MLA, sliding-window layers); precisions for MLP/expert weights, attention weights,
//    activations (the tensor-engine input type) and the KV cache (bf16, fp8, mxfp8, mxfp4);
//    placement onto chips with tensor (tp), pipeline (pp), data (dp) and expert (ep)
//    parallelism. Reports TTFT, TPOT, throughput per chip / server / system, HBM use and fit,
//    the share of time in compute / HBM / fabric / kernel overhead, output tokens per
//    megawatt and cost per million output tokens.
//  - Training: step time of a global batch with DP/TP/PP/EP, 1F1B pipeline bubbles, ZeRO stages
//    0-3, activation recompute (none / selective / full), overlap of data-parallel communication
//    with compute, MFU and HFU, memory per chip, and weak scaling across the UltraServers of an
//    UltraCluster system ("trn3-gen2-ultracluster:N"), whose EFA part collective::run prices.
//  - Every figure decomposes into operators; the result carries them per phase, and the
//    schedule's timeline.
//
// Sources: model shapes from the configs (core/model/); hardware numbers only through
// hw/system.h (source keys in the data files); Neuron dequantizes MXFP4 experts to BF16 on
// Trainium2 (PERF #5). Efficiencies, kernel overhead, host power, PUE and prices are explicit
// assumptions in the scenario or the chip data, shown in every report.
//
// NOT modeled: speculative decoding; chunked prefill and prefill/decode disaggregation; queueing;
// router load imbalance (uniform routing); prefix caching (the serving layer's business);
// numerics; optimizer arithmetic beyond its HBM traffic; failures and checkpointing.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "common/fields.h"
#include "hw/system.h"
#include "collective/collective.h"
#include "model/llm.h"
#include "price/pricer.h"
#include "price/stack.h"
#include "schedule/schedule.h"
#include "workload/spec.h"
#include "workload/video.h"

namespace trnsim::workload {

using model::AttentionKind;
using model::ModelConfig;
using model::ParamCounts;

// ---- result -----------------------------------------------------------------------
// A Result is what every kind reports (the system, the precisions run, warnings, memory per
// chip, phases and their time split, power and price, assumptions) plus the figures of its
// kind in one alternative of a variant: InferenceResult, TrainingResult or VideoResult. A
// header with a per-kind payload rather than three unrelated types because the writers, the
// metric table and every face lay out the common part the same way for all kinds, and a
// variant rather than optional members because a kind's figures then cannot appear on
// another kind's result (a training result has no TTFT to read by mistake). Callers dispatch
// on the alternative (std::visit, std::get_if) or on kind(), never on a string.

// One priced operator, per chip, per occurrence (core/price/pricer.h).
using OpRecord = price::PricedOp;
using price::TimeSplit;

struct Phase {
  std::string name;  // prefill | decode | forward | backward | pipeline | data-parallel | optimizer
  std::string unit;  // what one pass of the phase is ("one decode step, all stages")
  double time_s = 0; // sum of the ops' totals
  // Collective time run under compute (context-encoding overlap, the stack's): the pass takes
  // time_s - hidden_s, which is what TTFT counts.
  double hidden_s = 0;
  std::string hidden_by;  // the stack whose overlap hides it
  TimeSplit split;        // where time_s goes: the ops' splits summed
  std::vector<OpRecord> ops;
};

using MemoryItem = plan::MemoryItem;

struct Assumption {
  std::string name;
  double value = 0;
  std::string unit;
  std::string source;  // FACTS key, hw data source text, or "guess: ..."
};

struct ScalingPoint {
  int ultraservers = 0;   // scale-up domains
  int chips = 0;
  double step_time_s = 0;
  double tokens_per_s = 0;
  double scaling_efficiency = 0;  // tokens/s per chip relative to one UltraServer
};

// What the language-model kinds (inference and training) share: the model, its layers'
// layout, and the economics per token.
struct LanguageModelResult {
  ModelConfig model;
  ParamCounts params;
  double kv_bytes_per_token = 0;  // whole model, per token of context, at the KV precision
  std::vector<int> layer_types;   // per layer: index into Result::layer_type_names
  std::vector<int> layer_stages;  // per layer: pipeline stage
  double tokens_per_s_per_megawatt = 0;  // output (inference) or training tokens, per MW all-in
  double usd_per_million_tokens = 0;     // output tokens (inference) or training tokens
};

struct InferenceResult : LanguageModelResult {
  double ttft_s = 0, tpot_s = 0;
  double request_latency_s = 0;  // batch * ttft + (output - 1) * tpot: own prefill, decode, others' prefills
  double decode_tokens_per_s_per_replica = 0;
  // A disaggregated deployment's pools: prompt tokens per second of back-to-back prefill passes
  // (prefill_batch prompts each) and output tokens per second of back-to-back decode steps,
  // per server (chips_per_server chips of such replicas).
  double prefill_tokens_per_s_per_replica = 0;
  double prefill_tokens_per_s_per_server = 0;
  double decode_tokens_per_s_per_server = 0;
  double output_tokens_per_s_per_replica = 0;  // batch * output / request latency (prefills included)
  double output_tokens_per_s_per_chip = 0;
  double output_tokens_per_s_per_server = 0;
  double output_tokens_per_s_per_system = 0;
  int replicas = 0;  // dp
};

struct TrainingResult : LanguageModelResult {
  double step_time_s = 0;
  double tokens_per_step = 0;
  double tokens_per_s = 0;
  double tokens_per_s_per_chip = 0;
  double model_flops_per_step = 0, hardware_flops_per_step = 0;
  double mfu = 0, hfu = 0;
  int micro_batches = 0;
  double pipeline_bubble_fraction = 0;
  std::vector<ScalingPoint> scaling;  // weak scaling across scale-up domains
};

// VideoResult: core/workload/video.h.
using KindResult = std::variant<InferenceResult, TrainingResult, VideoResult>;
static_assert(std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Kind::inference), KindResult>, InferenceResult> &&
                  std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Kind::training), KindResult>, TrainingResult> &&
                  std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Kind::video), KindResult>, VideoResult>,
              "the variant's alternatives follow the Kind enum");

struct Result {
  Spec spec;
  // system
  std::string system_name, system_display_name;
  int system_chips = 0, chips_per_server = 0, chips_per_domain = 0;
  int chips_used = 0;      // chips the placement occupies
  int domains_used = 1;    // scale-up domains (UltraServers) the placement spans
  // effective precisions after falling back to what the chip supports
  std::string matmul_dtype, weights_dtype, attention_weights_dtype, kv_dtype;
  std::vector<std::string> warnings;

  // memory per chip
  std::vector<MemoryItem> memory;
  double hbm_used_bytes = 0, hbm_capacity_bytes = 0;

  // time breakdown
  std::vector<Phase> phases;
  std::vector<std::string> layer_type_names;  // what an operator's layer_type indexes: "dense/full", "moe/sliding", ...
  TimeSplit::Shares time_shares;              // of the headline time: phases weighted by how often they run

  // economics (the per-token or per-clip figures are the kind's)
  double chip_power_watts = 0, power_per_chip_all_in_watts = 0;
  double price_per_chip_hour_usd = 0;
  std::vector<Assumption> assumptions;

  // the kind's own figures
  KindResult figures;

  Kind kind() const { return static_cast<Kind>(figures.index()); }
  const std::string& model_name() const;
  // The kind's figures; std::bad_variant_access for another kind (check kind() or use
  // std::get_if on `figures` where the kind may differ).
  const InferenceResult& inference() const { return std::get<InferenceResult>(figures); }
  const TrainingResult& training() const { return std::get<TrainingResult>(figures); }
  const VideoResult& video() const { return std::get<VideoResult>(figures); }
  InferenceResult& inference() { return std::get<InferenceResult>(figures); }
  TrainingResult& training() { return std::get<TrainingResult>(figures); }
  VideoResult& video() { return std::get<VideoResult>(figures); }
  // The language model's figures (inference or training), or nullptr for video.
  const LanguageModelResult* language_model() const;
  LanguageModelResult* language_model();

  // The schedule as a timeline (what the trace writer and the Timeline panel draw), built
  // on request from the priced passes the evaluation kept: most callers never draw it.
  std::function<schedule::Timeline()> make_timeline;
  schedule::Timeline timeline() const { return make_timeline ? make_timeline() : schedule::Timeline{}; }
};

// Pure. Throws InputError for impossible placements (tp not dividing heads or the scale-up
// domain, too many chips, not fitting HBM "by X GiB", zero sizes), naming the field.
Result evaluate(const Spec& spec, const hw::System& system);
struct Pricing;
// The same, handing back in `pricing` what it priced with (make_pricing(spec, system)): the
// serving step model prices its steps with the pricing of its reference evaluation.
Result evaluate(const Spec& spec, const hw::System& system, std::unique_ptr<Pricing>& pricing);

// What pricing a scenario's passes on a system needs, checked and built once: the model, the
// precisions the chip runs (with fallback warnings), the placement (with the serving stack's
// logical NeuronCores per chip), the stack's MoE execution, the layer layout and a pricer.
// evaluate() uses it; so does the serving simulator's step model (core/serve/).
struct Pricing {
  std::shared_ptr<const ModelConfig> model;
  plan::Context ctx;
  plan::Layout layout;
  std::unique_ptr<price::Pricer> pricer;
  const price::Stack* stack = nullptr;
  std::vector<std::string> warnings;
};
// InputError naming the field for a placement the model or system cannot take.
std::unique_ptr<Pricing> make_pricing(const Spec& spec, const hw::System& system);

json result_to_json(const Result& result);       // deterministic
// Time shares as the reports write them: {"compute", "hbm", "fabric", "overhead"}.
json shares_json(const TimeSplit::Shares& shares);
std::string result_to_text(const Result& result);  // the human report section
// A phase's time as its heading shows it (what the pass takes: its operators less the
// collectives run under compute) and, when some are hidden, how: the report and the page
// print the same words.
std::string phase_time_text(const Phase& phase);
std::string phase_overlap_text(const Phase& phase);  // "" when nothing is hidden
json chrome_trace(const Result& result);         // Chrome trace / Perfetto JSON of result.timeline()


}  // namespace trnsim::workload
