// A serving stack: how a Neuron software stack executes a model, as data
// (core/data/serving/NAME.json, format "trnsim-serving-stack-1", every value with a source
// or marked calibrated). Two layers read it:
//  - the plan / pricing layer (`trnsim run` too): logical NeuronCores per chip (the ranks of
//    TP collectives, KV-head replication), the MoE expert-execution strategy and dispatch, and
//    the weight formats the stack's kernels dequantize in the kernel (weight-only);
//  - the neuron StepModel (core/serve/stack/neuron.h): compiled batch, context-encoding
//    and token-generation buckets with padding, how prefill and decode share a step, and
//    the per-step and per-request runtime and host costs.
// Stacks: plain (exact shapes, ranks are chips, uniform routing, no runtime costs), nxdi (NxD
// Inference's own benchmark loop), vllm-neuron (vLLM with the Neuron plugin over NxD
// Inference), optimum-neuron (vLLM with Hugging Face's optimum-neuron backend).
// Sources: N1..N7 of core/data/sources.json (NxD, NxD Inference, vllm-neuron, Neuron runtime
// docs, optimum-neuron), S16; fitted values say "calibrated: PERF.md rows ...".
// Does NOT model: the stacks' Python code paths beyond their fixed costs, compilation,
// warm-up, LoRA, multimodal encoders.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hw/system.h"
#include "plan/plan.h"

namespace trnsim::price {

struct Buckets {
  bool enabled = false;          // false: one graph per phase at the maximum length
  int min_context_encoding = 0;  // smallest automatic context-encoding bucket (powers of two up)
  int min_token_generation = 0;  // smallest automatic token-generation bucket
  int min_prefix_context_encoding = 0;  // with prefix caching (kernel minimums, N2)
  int min_prefix_token_generation = 0;
};

struct RuntimeCosts {
  double graph_launch_s = 0;  // per compiled-graph execution (NEFF start and return)
  double step_host_s = 0;     // per engine step on the host: scheduling, inputs, outputs
  double step_extra_s = 0;    // per engine step beyond step_host: host sampling where the graph does
                              // not sample, a serving plugin's own work (stack key step_extra)
  double request_host_s = 0;  // per request: tokenize, admit, detokenize, stream (HTTP)
};

// A GPU server's scheduler ("server" in the stack file; Neuron stacks have none): in-flight
// batching of exact shapes (no compiled batch, no buckets), its limits and how it admits.
struct ServerLimits {
  static constexpr int kTuned = -1;  // the value "trtllm-bench": derived as trtllm-bench builds its engine
  int max_batch_size = 0;            // sequences in flight (or kTuned)
  int max_num_tokens = 0;            // tokens per step, decodes and prefill chunks (or kTuned)
  std::string batch_policy;          // chunked: prefill chunks join the decodes (in-flight batching)
  // guaranteed_no_evict: a request is admitted only when the KV cache holds it at its full
  // length (prompt + output), so nothing is ever preempted; max_utilization: admit while the
  // current contexts fit (preempting when they outgrow it).
  std::string capacity_policy;
  // Per decoding sequence, per layer, per step: the work a GPU's decode step does for each
  // sequence beyond what the roofline prices (the attention kernel's per-sequence blocks and
  // reduction, the per-sequence rows of the step's small kernels). With the chip's per-kernel
  // overhead (the launch under CUDA graphs) it is the fixed cost of a step, split between the
  // part that does not grow with the batch and the part that does.
  double decode_sequence_layer_s = 0;
};

struct Stack {
  std::string name, display_name, note;
  std::string origin;  // built-in key or file path
  std::string sdk_release;  // the Neuron SDK release the stack's kernels and graphs are of ("2.28", "any")
  // ---- plan / pricing ----
  int logical_nc_config = 0;  // physical cores per rank (LNC); 0: ranks are whole chips
  plan::MoeExecution moe;
  // Kernels an MLA layer's token-generation attention runs where the port leaves it to XLA as
  // separate operators (stack "attention.mla_decode_kernels"; 0: the model's own five, plan.h).
  double mla_decode_kernels = 0;
  // Time each of those operators takes beyond its launch overhead (stack
  // "attention.mla_decode_op_time"; read with the count).
  double mla_decode_op_s = 0;
  // Weight-only quantization (the optional "weight_only" block): weight formats the stack's
  // kernels keep in storage and dequantize in the kernel to the activations' dtype when the chip
  // has no peak for them (TensorRT-LLM's Triton W4A16 MXFP4 MoE on Hopper), and the share of the
  // activations' matmul rate those kernels reach. Without the block a format the chip lacks
  // falls back (dtype.h) in storage too, as Neuron dequantizes MXFP4 experts at load.
  std::vector<std::string> weight_only_dtypes;
  double weight_only_rate = 1;
  // ---- serving ----
  int context_encoding_batch = 1;  // sequences per prefill graph
  bool prefill_alone = true;       // a prefill step runs without the decodes (else decode, then prefill)
  bool pad_prefill_to_max = false; // prefill padded to the maximum context length (no buckets)
  bool decode_reads_max = false;   // decode attention over the whole sequence length (no buckets)
  bool prefix_caching = false;     // automatic prefix caching supported
  // Context encoding: the fraction of a prompt's collective time that runs under its compute
  // (the CC cores run collectives asynchronously from the engines, N4; NxDI's sequence-
  // parallel context encoding gives them independent work); at most the compute time.
  double context_encoding_overlap = 0;
  // Token generation: the same rule for a decode step (optional key
  // batching.decode_collective_overlap, 0 when absent). Two-batch overlap (SGLang, DeepSeek's
  // design) splits the batch in two and runs one half's dispatch and combine under the
  // other's attention and experts: 1, each layer's all-to-alls priced as hidden up to the work
  // before them (the layer costs about max(compute, communication), not their sum).
  double decode_overlap = 0;
  Buckets buckets;
  RuntimeCosts runtime;
  // Fused speculation: speculation_length k runs k draft passes and one target pass over k
  // tokens, accepting up to k (NxDI, N7) -- or k + 1 target tokens when bonus_token.
  bool speculation_bonus_token = false;
  std::optional<ServerLimits> server;  // GPU servers only (core/serve/stack/gpu.cpp)
  // Every value's source, keyed by its path in the file ("runtime.step_host").
  std::map<std::string, std::string> sources;
  std::vector<std::string> calibrated;  // paths whose source says "calibrated"
};

// Built-in stack names (core/data/serving/*.json), sorted.
std::vector<std::string> stack_names();
// A built-in stack or a path to a stack file. InputError naming the file and the field.
const Stack& load_stack(const std::string& name_or_path);

// Ranks (logical NeuronCores) per chip under the stack: cores / LNC, 1 when ranks are chips.
int ranks_per_chip(const Stack& stack, const hw::Chip& chip);

// NxD Inference's automatic buckets (N2): powers of two from `min_length` below the
// maximum's rounded log2, then the maximum.
std::vector<int> automatic_buckets(int min_length, int max_length);
// The smallest bucket holding `length` (buckets sorted ascending); InputError naming `field`
// when none does.
int bucket_for(const std::vector<int>& buckets, int length, const std::string& field);

}  // namespace trnsim::price
