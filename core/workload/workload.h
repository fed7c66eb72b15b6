// The workload layer: LLM inference and training on a Trainium system, priced operator by
// operator by the hardware model (core/hw/hw.h: hw::roofline for every matmul, attention and
// memory-bound kernel, hw::collective for every TP/EP/PP/DP exchange).
//
// What it models
//  - Inference: prefill (time to first token) and decode (time per output token) of `batch`
//    concurrent sequences with given input and output lengths, served with continuous batching
//    (each request is prefilled on its own and stalls the others' decode once); the KV cache (GQA, MLA, sliding-window
//    layers); precisions for MLP/expert weights, attention weights, activations (the tensor-engine
//    input type) and the KV cache (bf16, fp8, mxfp8, mxfp4); placement onto chips with tensor (tp),
//    pipeline (pp), data (dp) and expert (ep) parallelism. Reports TTFT, TPOT, throughput per
//    chip / server / system, HBM use and fit, the share of time in compute / HBM / fabric /
//    kernel overhead, output tokens per megawatt and cost per million output tokens.
//  - Training: step time of a global batch with DP/TP/PP/EP, 1F1B pipeline bubbles, ZeRO stages
//    0-3, activation recompute (none / selective / full), overlap of data-parallel communication
//    with compute, MFU and HFU, memory per chip, and weak scaling across the UltraServers of an
//    UltraCluster system ("trn3-gen2-ultracluster:N"), whose EFA part hw::collective prices.
//  - Every figure decomposes into operators; the result carries them per phase.
//
// Sources: model shapes from the configs (core/workload/model.h); hardware numbers only through
// hw.h (FACTS.md keys live in the hardware data files); Neuron dequantizes MXFP4 experts to BF16 on Trainium2 (PERF #5). Efficiencies, kernel overhead,
// host power, PUE and prices are explicit assumptions in the spec, shown in every report.
//
// NOT modeled: speculative decoding; chunked prefill and prefill/decode disaggregation; queueing;
// router load imbalance (uniform routing); prefix caching;
// SBUF-level tiling and engine overlap inside a kernel (that is hw::roofline's business);
// numerics; optimizer arithmetic beyond its HBM traffic; failures and checkpointing.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "common/fields.h"
#include "hw/system.h"
#include "collective/collective.h"
#include "model/llm.h"

namespace trnsim::workload {

using model::AttentionKind;
using model::ModelConfig;
using model::ParamCounts;

struct Precision {
  std::string weights = "bf16";            // MLP and expert weights
  std::string attention_weights = "bf16";  // attention projections
  std::string activations = "bf16";        // tensor-engine input type
  std::string kv_cache = "bf16";
  bool operator==(const Precision& o) const {
    return weights == o.weights && attention_weights == o.attention_weights && activations == o.activations &&
           kv_cache == o.kv_cache;
  }
};

struct Parallelism {
  int tp = 1, pp = 1, dp = 1, ep = 1;
  bool operator==(const Parallelism& o) const { return tp == o.tp && pp == o.pp && dp == o.dp && ep == o.ep; }
};

struct InferenceParams {
  int batch = 1;  // concurrent sequences per replica
  int input_tokens = 1024;
  int output_tokens = 256;
  bool operator==(const InferenceParams& o) const {
    return batch == o.batch && input_tokens == o.input_tokens && output_tokens == o.output_tokens;
  }
};

struct TrainingParams {
  int sequence_length = 8192;
  int global_batch = 1024;  // sequences per optimizer step
  int micro_batch = 1;      // sequences per micro-batch
  int zero_stage = 1;       // 0..3
  std::string recompute = "selective";  // none | selective | full
  double overlap = 0.8;     // fraction of data-parallel communication hidden behind backward
  bool operator==(const TrainingParams& o) const {
    return sequence_length == o.sequence_length && global_batch == o.global_batch &&
           micro_batch == o.micro_batch && zero_stage == o.zero_stage && recompute == o.recompute &&
           overlap == o.overlap;
  }
};

// Achievable fractions of peak and fixed costs: explicit assumptions, not measurements.
// The defaults for compute and kernel_overhead_s are calibrated on measured Trainium2 serving
// (PERF.md rows 1, 3, 5, 6, 7; see `trnsim validate`) and assumed unchanged on Trainium3.
struct Efficiency {
  double compute = 0.5;              // matmuls, fraction of the tensor-engine peak
  double attention = 0.5;            // attention score/value kernels, fraction of peak
  double hbm = 0.8;                  // fraction of HBM bandwidth
  double kernel_overhead_s = 20e-6;  // fixed cost per kernel (launch, sync, DMA setup)
  double hbm_reserve_fraction = 0.05;  // HBM kept for the runtime, fragmentation
  bool operator==(const Efficiency& o) const {
    return compute == o.compute && attention == o.attention && hbm == o.hbm &&
           kernel_overhead_s == o.kernel_overhead_s && hbm_reserve_fraction == o.hbm_reserve_fraction;
  }
};

struct Economics {
  std::optional<double> chip_power_watts;        // null: the system's assumption (hw data)
  double host_power_fraction = 0.3;              // hosts, NICs, switches, fans on top of chips (guess)
  double pue = 1.1;                              // facility overhead (guess)
  std::optional<double> price_per_chip_hour_usd; // null: built-in guess per chip
  bool operator==(const Economics& o) const {
    return chip_power_watts == o.chip_power_watts && host_power_fraction == o.host_power_fraction &&
           pue == o.pue && price_per_chip_hour_usd == o.price_per_chip_hour_usd;
  }
};

struct Spec {
  std::string kind = "inference";  // inference | training
  std::string model_name;          // bundled model name; empty when model_config is inline
  json model_config;               // inline Hugging Face config (null when bundled)
  Precision precision;
  Parallelism parallelism;
  InferenceParams inference;
  TrainingParams training;
  Efficiency efficiency;
  Economics economics;
  bool operator==(const Spec& o) const {
    return kind == o.kind && model_name == o.model_name && model_config == o.model_config &&
           precision == o.precision && parallelism == o.parallelism && inference == o.inference &&
           training == o.training && efficiency == o.efficiency && economics == o.economics;
  }
  bool operator!=(const Spec& o) const { return !(*this == o); }
};

// Strict parse of a scenario's "workload" object; `path` is its field path ("workload").
// Errors: InputError naming the field (unknown keys get the closest valid name).
Spec parse_spec(const json& j, const std::string& path);
// Canonical form: every field, defaults filled; parse_spec(spec_to_json(s), p) == s.
json spec_to_json(const Spec& spec);
// gpt-oss-120b inference, the default scenario's workload.
Spec default_spec();
// The model the spec names (bundled or inline), imported.
ModelConfig spec_model(const Spec& spec, const std::string& path = "workload.model");

// ---- result -----------------------------------------------------------------------

// One operator, per chip, per occurrence; `count` occurrences per phase.
struct OpRecord {
  std::string name;      // "attn.qkv_proj", "moe.dispatch", "dp.grad_sync"
  std::string category;  // compute | hbm | fabric | overhead (where its time goes)
  std::string detail;    // "mxfp8 matmul", "all-reduce 16 chips (ring)"
  std::string scope;     // layer | first_stage | last_stage | boundary | step
  int layer_type = -1;   // index into Result::layer_type_names when scope == "layer"
  double count = 0;
  double flops = 0;
  double hbm_bytes = 0;
  double fabric_bytes = 0;
  double compute_s = 0;   // roofline compute time (0 for collectives)
  double memory_s = 0;    // roofline memory time
  double fabric_s = 0;    // collective time
  double overhead_s = 0;  // fixed kernel overhead
  double time_s = 0;      // per occurrence: max(compute, memory) + overhead, or fabric
  collective::Request collective;  // fabric operators: the request priced (op, bytes, ranks, stride)
  double total_s() const { return count * time_s; }
};

struct Phase {
  std::string name;  // prefill | decode | forward | backward | pipeline | data-parallel | optimizer
  std::string unit;  // what one pass of the phase is ("one decode step, all stages")
  double time_s = 0; // sum of the ops' totals
  double compute_s = 0, hbm_s = 0, fabric_s = 0, overhead_s = 0;  // shares of time_s
  std::vector<OpRecord> ops;
};

struct MemoryItem {
  std::string name;
  double bytes = 0;
};

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

struct Result {
  Spec spec;
  std::string kind;
  // system
  std::string system_name, system_display_name;
  int system_chips = 0, chips_per_server = 0, chips_per_domain = 0;
  int chips_used = 0;      // tp * pp * dp
  int domains_used = 1;    // scale-up domains (UltraServers) the placement spans
  // model
  ModelConfig model;
  ParamCounts params;
  double kv_bytes_per_token = 0;  // whole model, per token of context, at the KV precision
  // effective precisions after falling back to what the chip supports
  std::string matmul_dtype, weights_dtype, attention_weights_dtype, kv_dtype;
  std::vector<std::string> warnings;

  // inference
  double ttft_s = 0, tpot_s = 0;
  double request_latency_s = 0;  // batch * ttft + (output - 1) * tpot: own prefill, decode, others' prefills
  double decode_tokens_per_s_per_replica = 0;
  double output_tokens_per_s_per_replica = 0;  // batch * output / request latency (prefills included)
  double output_tokens_per_s_per_chip = 0;
  double output_tokens_per_s_per_server = 0;
  double output_tokens_per_s_per_system = 0;
  int replicas = 0;  // dp

  // training
  double step_time_s = 0;
  double tokens_per_step = 0;
  double training_tokens_per_s = 0;
  double training_tokens_per_s_per_chip = 0;
  double model_flops_per_step = 0, hardware_flops_per_step = 0;
  double mfu = 0, hfu = 0;
  int micro_batches = 0;
  double pipeline_bubble_fraction = 0;
  std::vector<ScalingPoint> scaling;

  // memory per chip
  std::vector<MemoryItem> memory;
  double hbm_used_bytes = 0, hbm_capacity_bytes = 0;

  // time breakdown
  std::vector<Phase> phases;
  std::vector<std::string> layer_type_names;  // "dense/full", "moe/sliding", ...
  std::vector<int> layer_types;               // per layer
  std::vector<int> layer_stages;              // per layer: pipeline stage
  double compute_share = 0, hbm_share = 0, fabric_share = 0, overhead_share = 0;  // of the headline time

  // economics
  double chip_power_watts = 0, power_per_chip_all_in_watts = 0;
  double tokens_per_s_per_megawatt = 0;   // output (inference) or training tokens, per MW all-in
  double price_per_chip_hour_usd = 0;
  double usd_per_million_tokens = 0;      // output tokens (inference) or training tokens
  std::vector<Assumption> assumptions;
};

// Pure. Throws InputError for impossible placements (tp not dividing heads or the scale-up
// domain, too many chips, not fitting HBM "by X GiB", zero sizes), naming the field.
Result evaluate(const Spec& spec, const hw::System& system);

json result_to_json(const Result& result);       // deterministic
std::string result_to_text(const Result& result);  // the human report section
json chrome_trace(const Result& result);         // Chrome trace / Perfetto JSON

// Supported precision names, in order.
const std::vector<std::string>& precision_names();
double bytes_per_element(const std::string& dtype);

}  // namespace trnsim::workload
