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
#include "workload/spec.h"

namespace trnsim::workload {

using model::AttentionKind;
using model::ModelConfig;
using model::ParamCounts;

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


}  // namespace trnsim::workload
