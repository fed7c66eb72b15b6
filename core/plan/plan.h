// The plan: what one chip does to run a workload, before any hardware prices it. Built
// from the model (core/model/), the precisions the chip runs and the placement; it knows
// FLOPs, bytes moved, bytes held and the collective each exchange needs, never a time.
// The pricer (core/price/) turns its operators into times; the schedule (core/schedule/)
// turns priced passes into TTFT, TPOT, step time and a timeline; memory accounting reads
// the same operator shapes (bytes held per chip).
//
// Placement conventions (all per chip):
//  - chip index = tp_rank + tp * (dp_rank + dp * pp_rank) (Megatron's tp-dp-pp order): TP groups
//    are contiguous (stride 1), data-parallel peers tp apart, pipeline neighbours tp*dp apart.
//  - Attention: heads split over the TP ranks (tp chips x ranks_per_chip logical NeuronCores),
//    padded with zero heads to a multiple of them as Neuron does (model/heads.h); KV heads
//    split, replicated to one per rank when the ranks are a multiple of them (NxDI's default
//    REPLICATE_TO_TP_DEGREE, N8: at TP64 ranks a chip of 4 ranks holds 4 of 8 KV heads' copies),
//    else one per padded query head; MLA's latent cache and its down-projections are
//    replicated on every TP rank. Padded heads cost weights, FLOPs and KV cache like real ones.
//  - Layers by token mixer (model::Mixer): full, sliding (the window) and chunked (pairs within
//    aligned chunks; plain full attention below the chunk) softmax attention; Gated DeltaNet
//    linear attention (projections, causal conv, the delta-rule state update -- its recurrent
//    state read and written once per decode step and held per sequence instead of a KV cache;
//    value heads split over tp like query heads, their shared q/k heads like K/V heads); Mamba2
//    layers alike (in_proj to z, x, B, C, dt; the conv; the recurrent state update at decode,
//    the chunked SSD scan at prefill; its heads split like value heads, its B/C groups like K/V
//    heads: one group replicated to every rank, as vLLM's MambaMixer2 does).
//    A sigmoid-gated attention output adds its gate projection; each layer's dense MLP has
//    its own width.
//  - MoE: experts split over ep ranks. ep <= tp: expert parallelism inside a replica, each expert
//    further split over etp = tp/ep ranks. ep > tp: EP spans ep/tp replicas (DP attention + EP
//    MoE, DeepSeek's serving layout; TensorRT-LLM's DEP n is tp 1, dp n, ep n), etp = 1: every
//    replica of the EP group is taken to run a batch of the same size in the same step (each
//    GPU's own sequences and their KV cache; the experts see the group's tokens). Tokens are
//    dispatched and combined as the stack says (MoeExecution::dispatch): two all-to-alls over
//    the ep ranks, then re-replicated over tp with an all-gather; or an all-gather of the
//    group's tokens and a reduce-scatter of the expert outputs. Without EP the experts are
//    TP-sharded and the layer ends with a TP all-reduce like a dense MLP.
//  - Logical NeuronCores: each chip runs ranks_per_chip TP ranks (cores / LNC; 4 on Trn2/Trn3
//    at LNC=2, N5), so a TP group of tp chips has tp * ranks_per_chip ranks: the TP
//    collectives run among those ranks (intra-chip stages included, even at tp = 1) and the
//    heads shard over them (above). Gated DeltaNet heads shard over the chips (an extension).
//  - Redundant experts (Placement::expert_slots > experts): E + R slots split over ep ranks, each
//    chip holding (E + R) / ep experts' weights; the routed tokens spread evenly over the slots
//    (an expert load balancer at perfect balance: EPLB), so a chip computes T k / ep assignments.
//    An EP group may span scale-up domains (wide EP over a cluster): its all-to-alls then cross
//    the scale-out network, priced by the collective model like any other group.
//  - Expert execution (MoeExecution, the serving stack's choice): "uniform" -- a chip holding
//    E/ep experts reads the expected number of distinct experts hit by the group's tokens,
//    (E/ep) * (1 - (1 - k/E)^tokens), and computes the routed tokens only; "neuron" -- NxD's
//    ExpertMLPsV2 (N1): with T*k/E below the selective-loading threshold every token loads its
//    own k experts (T*k weight reads, nothing shared, a kernel pair per token); above it (and
//    always with EP in token generation) every local expert's weights are read and every token
//    is computed by every local expert; context encoding with T*k at least a block runs the
//    blockwise kernel: ceil((T*k - (E_local - 1)) / block) + E_local - 1 blocks of `block`
//    tokens, each reading its expert's weights. Where the NKI kernel rejects the shapes (hidden
//    size outside the stack's kernel range or not a multiple of its step, intermediate per rank
//    not a multiple of its step), NxD runs the PyTorch fallback (N1
//    torch_blockwise_matmul_inference): the same blocks, each its own sequence of kernels.
//    Which NKI kernel runs is the stack's (MoeExecution::kernel): NxD's block count is capped
//    at T*k, and the shard-on-block kernel's dynamic loop runs only the blocks holding tokens.
//    A uniform stack may also run the grouped GEMMs between passes of their own over the routed
//    rows (MoeExecution::separate_passes: TensorRT-LLM's CUTLASS MoE, G23): the permute, the
//    gated activation on the first GEMM's 16-bit output and the finalize, memory operators
//    that the GEMMs do not hide (none on a weight-only path, whose kernels fuse them).
// Sources: model shapes from the configs; Neuron dequantizes MXFP4 experts to BF16 on
// Trainium2 (PERF #5) -- the precision fallback happens before planning (workload layer).
// NOT modeled: chunked prefill, router load imbalance, prefix caching (the serving layer adds
// what it models; speculative decoding is core/serve/speculative), numerics, optimizer
// arithmetic beyond its HBM traffic, capacity-factor token dropping (serving runs dropless).
#pragma once
#include <string>
#include <vector>

#include "collective/collective.h"
#include "model/heads.h"
#include "model/llm.h"

namespace trnsim::plan {

// conv: a convolution priced as the implicit GEMM it lowers to (m = output voxels, k = input
// channels x kernel, n = output channels; the video plan's VAE decode).
enum class OpKind { matmul, attention, memory, collective, conv };
// Where an operator sits: inside a layer (once per layer of its type), on the first or
// last pipeline stage, between stages, or once per training step.
enum class Scope { layer, first_stage, last_stage, boundary, step };
const char* scope_name(Scope scope);

struct Operator {
  OpKind kind = OpKind::matmul;
  std::string name;  // "attn.qkv_proj", "moe.dispatch", "dp.grad_sync"
  Scope scope = Scope::layer;
  int layer_type = -1;  // index into Layout::type_names when scope == layer
  double count = 1;     // occurrences per pass of its phase
  std::string dtype = "bf16";  // tensor-engine input type (matmul, attention)
  double flops = 0;      // per occurrence, on one chip
  double hbm_bytes = 0;  // bytes read + written, per occurrence
  double kernels = 1;    // kernel launches per occurrence
  double fixed_s = 0;    // fixed time per occurrence beyond its kernels' (the MoE kernel's per-block time)
  // The share of its dtype's matmul rate the kernel reaches: below 1 for a weight-only quantized
  // matmul that dequantizes its weights in the kernel (Dtypes::weight_only_rate), else 1. The
  // roofline pricer applies it; the engine pricer times the GEMM's tiles as they are.
  double rate_scale = 1;
  collective::Request collective;  // kind == collective: op, per-rank bytes, ranks, stride
  // The GEMM shape behind a matmul (gemms independent GEMMs of m x k -> n) and the
  // attention shape behind an attention kernel, for the engine-level pricer.
  double m = 0, k = 0, n = 0, gemms = 1;
  double seq_q = 0, seq_kv = 0, head_dim = 0, heads = 0;
  double value_dim = 0;  // V's and the output's columns per head (0: head_dim; MLA differs)
  double kv_heads = 0;   // the K/V heads those `heads` read (GQA groups share one; MLA decode one latent per sequence)
  bool causal = false;
  // How the attention reaches the chip: "" the fused flash kernel; "decomposed" S = QK^T,
  // softmax and PV as separate kernels with the scores in HBM (the engine pricer prices it;
  // the roofline keeps the flash kernel's traffic).
  std::string attention_path;
};

// The layers grouped by type ("dense/full", "moe/sliding", "moe/chunked", "dense/linear", ...;
// dense types carry their width when the model has several, "dense:16384/full") and their
// pipeline stages.
struct Layout {
  std::vector<std::string> type_names;  // present types
  std::vector<model::LayerSpec> type_spec;  // token mixer, MLP kind and width of each type
  std::vector<bool> type_moe, type_sliding;  // views of type_spec
  std::vector<int> layer_type;          // per layer
  std::vector<int> layer_stage;         // per layer
  std::vector<std::vector<int>> stage_type_counts;  // [stage][type]
  std::vector<int> type_counts;
};
Layout make_layout(const model::ModelConfig& m, int pp);

// The precisions the chip runs (after falling back from what it lacks) and their sizes.
struct Dtypes {
  std::string matmul, weights, attention_weights, kv_cache;
  double wb = 2, awb = 2, ab = 2, kvb = 2;  // bytes/element: MLP weights, attention weights, activations, KV
  // Weight-only quantization (the stack's weight_only block): the MLP weights are stored as
  // `weights` (a format the chip has no peak for) and computed as `matmul` after the kernel
  // dequantizes them; their matmuls reach weight_only_rate of the matmul dtype's rate.
  bool weight_only = false;
  double weight_only_rate = 1;
};

struct Placement {
  int tp = 1, pp = 1, dp = 1, ep = 1, etp = 1;
  // Routed-expert slots over the ep ranks: the model's experts plus redundant copies (an expert
  // load balancer's replicas, e.g. SGLang's --ep-num-redundant-experts); 0 = the model's experts.
  // Tokens are assumed spread evenly over the slots (the balancer's perfect balance).
  int expert_slots = 0;
  int ranks_per_chip = 1;            // TP ranks (logical NeuronCores) on each chip
  int heads_chip = 1, kvh_chip = 1;  // per chip, after Neuron's padding and replication over the TP ranks
                                     // (the model's own shape; a layer of another shape: attention_chip)
  model::HeadSharding heads;         // the softmax attention's head layout over the tp x ranks_per_chip TP ranks
  model::HeadSharding linear_heads;  // the Gated DeltaNet / Mamba2 heads' (value heads as queries)
  double kv_cache_elems_chip = 0;    // cached elements per token per softmax-attention layer of the model's shape on one chip
  double linear_state_elems_chip = 0;  // recurrent state per sequence per linear-attention layer on one chip
  int tp_ranks() const { return tp * ranks_per_chip; }
};
Placement make_placement(const model::ModelConfig& m, int tp, int pp, int dp, int ep, int ranks_per_chip = 1);

// One softmax-attention layer's heads on one chip (its own KV-head count and head dims when
// the model's layers differ; Neuron's padding and replication as for the model's heads).
struct AttentionChip {
  double q_heads = 0, kv_heads = 0;  // per chip (MLA: the query heads; kv_heads 1, the latent)
  double qk_dim = 0, v_dim = 0;      // per head
  bool k_eq_v = false;               // one K/V tensor (projection and cache) serves as both
  double kv_cache_elems = 0;         // cached elements per token of this layer on one chip
};
AttentionChip attention_chip(const model::ModelConfig& m, const Placement& pl, const model::LayerSpec& layer);
// Activation elements per token of such a layer's q, k, v and output on one chip.
inline double attention_width_chip(const AttentionChip& a) {
  return a.q_heads * (a.qk_dim + a.v_dim) + a.kv_heads * (a.qk_dim + (a.k_eq_v ? 0 : a.v_dim));
}

// How the routed experts execute (plan.h header comment; data in core/data/serving/*.json).
// How a stack runs its experts (moe_strategy_names() spells them in stack data).
enum class MoeStrategy { uniform, neuron };
// The context-encoding kernel path of the neuron strategy (moe_kernel_names() spells them).
enum class MoeKernel { none, shard_on_hidden, shard_on_block };
// The token-generation expert path of the neuron strategy (moe_decode_kernel_names() spells them).
enum class MoeDecodeKernel { none, fused_tkg };
// How tokens reach the experts of other ranks (moe_dispatch_names() spells them): "all-to-all" --
// each rank sends each token to the ranks of its top-k experts and gets them back (dispatch and
// combine all-to-alls, then a TP all-gather); "allgather-reducescatter" -- TensorRT-LLM's
// AllGatherReduceScatter on Hopper: with attention data parallelism (ep > tp, tp 1) every rank
// gathers every rank's tokens, runs its local experts on those routed to them and reduce-scatters
// the partial outputs back; without it (ep <= tp) the tokens are already on every TP rank and the
// layer ends with the TP all-reduce, no dispatch.
enum class MoeDispatch { all_to_all, allgather_reducescatter };

struct MoeExecution {
  MoeStrategy strategy = MoeStrategy::uniform;
  double selective_threshold = 1.0;  // neuron: selective loading while T*k/E is below this (N1)
  double block_size = 512;           // neuron: blockwise matmul tokens per block (N1)
  // neuron: shapes the blockwise NKI kernel accepts (N1 can_use_blockwise_matmul_nki, N9);
  // outside them every block runs fallback_kernels_per_block kernels of its own.
  double kernel_min_hidden = 0, kernel_max_hidden = 1e9;
  double kernel_hidden_multiple = 1, kernel_intermediate_multiple = 1;  // intermediate per rank
  double fallback_kernels_per_block = 6;
  // neuron: the NKI kernel's fixed time per block beyond its roofline (its blocks run one after
  // another, each waiting on its own token-index load, row gathers, cross-core reduction and
  // output read-modify-write: N9); calibrated, stack data.
  double kernel_block_s = 0;
  // neuron, the PyTorch loop (N1 torch_blockwise_matmul_inference): a fixed time per block beyond
  // its kernels' launches (calibrated, stack data), and the passes each block makes over the whole
  // [T, H] output of its layer (its scatter-add reads and writes every row: 2, N1) -- the work that
  // grows with the padded prompt, so a long context encoding grows as blocks x T.
  double fallback_block_s = 0;
  double fallback_output_passes = 0;
  // neuron: the context-encoding kernel path (stack data, by SDK release and model port):
  // "none" -- every shape runs the PyTorch loop; "shard-on-hidden" -- NxD's default NKI kernel
  // (N9 blockwise_mm_baseline_shard_hidden): every one of the N static blocks runs, empty or not;
  // "shard-on-block" -- the SDK 2.29 bwmm_shard_on_block kernel (NxD use_shard_on_block_dynamic_while,
  // N1): a static loop over ceil(T k / B) blocks, then a dynamic loop that stops at the first block
  // holding no token, so the blocks that run are the occupied ones (expected under uniform routing).
  MoeKernel kernel = MoeKernel::shard_on_hidden;
  // neuron, NKI kernel: passes each block makes over the layer's whole [T, H] output (calibrated,
  // stack data; 0 where nothing says a block's work grows with the prompt).
  double kernel_output_passes = 0;
  // neuron, token generation (stack data, by model port): "none" -- ExpertMLPsV2's selective
  // loading or all experts as compiled graph operators (N1); "fused-tkg" -- NxD's MoEFusedTKG
  // (the nkilib moe_tkg kernel), whose expert passes run one after another: in its selective mode
  // (T k / E_local below the threshold) one pass per token and top-k expert, each loading its
  // expert's slice; in its all-expert mode one pass per local expert over every token.
  MoeDecodeKernel decode_kernel = MoeDecodeKernel::none;
  // neuron, fused-tkg: a pass's fixed time beyond its roofline (calibrated, stack data).
  double decode_pass_s = 0;
  MoeDispatch dispatch = MoeDispatch::all_to_all;
  // uniform: the routed experts run as a grouped GEMM between separate kernels that each pass
  // over the routed rows in memory (TensorRT-LLM's CUTLASS MoE on Hopper, CutlassMoeFCRunner::runMoe):
  // the permute copying each token to its k expert rows, the gated activation reading the first
  // GEMM's output at the model's 16-bit dtype and writing the second's input, and the finalize
  // reading the second GEMM's 16-bit rows and writing each token's weighted sum. Not on a
  // weight-only path (its kernels fuse the gather, activation and scatter into the GEMMs).
  bool separate_passes = false;
  bool blockwise_kernel_accepts(double hidden, double intermediate_per_rank) const;
};
const std::vector<std::string>& moe_strategy_names();  // in MoeStrategy's order
const std::vector<std::string>& moe_kernel_names();    // in MoeKernel's order
const std::vector<std::string>& moe_decode_kernel_names();  // in MoeDecodeKernel's order
const std::vector<std::string>& moe_dispatch_names();       // in MoeDispatch's order
// Blocks NxD's blockwise path runs for T tokens x top-k over `local` experts of E: the static
// worst case ceil((T k - (local - 1)) / B) + local - 1, at most T k (N1 forward_blockwise); on the
// shard-on-block kernel the occupied blocks only (at least its static ceil(T k / B), at most N).
double moe_blocks(const MoeExecution& x, double local, double k, double E, double tokens);

// One forward pass of a micro-batch through one layer, on one replica.
struct Pass {
  double seqs = 1;        // sequences in the micro-batch
  double new_tokens = 1;  // new tokens per sequence
  double pairs_full = 0, pairs_sliding = 0, pairs_chunked = 0;  // attention pairs per sequence
  double ctx_full = 0, ctx_sliding = 0, ctx_chunked = 0;        // cached KV tokens read per sequence (decode)
  bool decode = false;    // one new token against a history (linear attention steps its state)
  bool write_kv = true;
  bool logits_all_tokens = false;
  double tokens() const { return seqs * new_tokens; }
};

// The operators of one pass: one layer of each type, the first and last stage's extras,
// and the transfers between stages.
struct PassOps {
  std::vector<std::vector<Operator>> per_type;
  std::vector<Operator> first, last, boundary;
};

// What the planner needs to know besides the model.
struct Context {
  const model::ModelConfig& m;
  Dtypes dt;
  Placement pl;
  MoeExecution moe = {};
  // Kernels one MLA layer's decode attention runs, projections to output projection (the
  // collective apart): 0 -- the model's five (q, kv_a, kv_b, the attention core, o); more where
  // a port runs its absorbed attention as separate XLA operators (stack data), the core's
  // scores, softmax, absorptions and cache writes each a kernel with its launch overhead.
  double mla_decode_kernels = 0;
  // The fixed time each of those operators takes beyond its launch (stack data; 0 with the
  // model's five): carried by the attention core as Operator::fixed_s.
  double mla_decode_op_s = 0;
};

// (query, key) pairs of causal attention over S tokens; window W (0 = full).
double causal_pairs(double S, double W);
// Mean over i = 1..n of min(a + i, W) (W = 0: no cap): KV tokens seen by decode step i.
double mean_context(double a, double n, double W);

// Operators of one layer for one pass, in execution order.
std::vector<Operator> layer_ops(const Context& c, const Pass& p, const model::LayerSpec& layer);
// The whole pass; `boundary_ops` adds the stage-to-stage transfers (given here so training
// can ask for activations and gradients).
PassOps pass_ops(const Context& c, const Layout& L, const Pass& p);
// Backward of a forward operator: dgrad + wgrad matmuls, flash-attention backward (~2.5x
// forward FLOPs), mirrored collectives.
Operator backward_of(const Operator& f);

// Per-chip weight elements of one layer.
struct LayerWeights {
  double attn = 0, dense = 0, experts = 0, shared = 0, router = 0, norms = 0;
  double bytes(const Dtypes& d) const;
  double elems() const { return attn + dense + experts + shared + router + norms; }
};
LayerWeights layer_weights(const Context& c, const model::LayerSpec& layer);
// Bytes per element of the Gated DeltaNet / Mamba2 recurrent state: the config's mamba_ssm_dtype when
// it names one (Qwen3.5: float32), else the KV-cache precision.
double linear_state_bytes_per_element(const Context& c);

// Builders of single operators.
Operator matmul_op(const Context& c, const std::string& name, double tokens, double in_dim, double out_dim,
                   double weight_elems, double weight_bytes_per_elem, const std::string& dtype);
Operator memory_op(const std::string& name, double bytes, double kernels = 1);
Operator collective_op(const std::string& name, const std::string& op, double bytes, int ranks, int stride,
                       int ranks_per_chip = 1);
// A collective among the TP ranks of one replica (tp chips x ranks_per_chip logical cores).
Operator tp_collective_op(const Context& c, const std::string& name, const std::string& op, double bytes);

struct MemoryItem {
  std::string name;
  double bytes = 0;
};

// ---- inference ------------------------------------------------------------------------
// Serving `batch` concurrent streams per replica with continuous batching: each request is
// prefilled on its own (its time to first token; the prefill stalls the other streams'
// decode once) and decode runs min(batch, pp) micro-batches through the pipeline.
struct InferencePlan {
  double batch = 1, input_tokens = 1, output_tokens = 1;
  double prefill_batch = 1;  // prompts per prefill pass
  double micro_batches = 1;  // decode micro-batches in flight
  double micro_batch = 1;    // sequences per decode micro-batch
  double steps = 0;          // decode steps after the first token
  Pass prefill_pass, decode_pass;
  PassOps prefill, decode;   // decode is empty when steps == 0
  // Bytes held per chip on the heaviest stage (the runtime reserve is the pricer's business:
  // it depends on the chip's capacity).
  std::vector<MemoryItem> memory;
};
// prefill_batch: prompts prefilled together in one pass (a prefill server's batch; 1 = alone).
InferencePlan plan_inference(const Context& c, const Layout& L, int batch, int input_tokens, int output_tokens,
                             int prefill_batch = 1);

// ---- training -------------------------------------------------------------------------
struct TrainingSizes {
  int sequence_length = 0, global_batch = 0, micro_batch = 0, zero_stage = 0;
  std::string recompute;  // none | selective | full
};
struct TrainingPlan {
  TrainingSizes sizes;
  int micro_batches = 0;
  Pass pass;
  std::vector<std::vector<Operator>> forward, backward;  // per layer type (backward includes recompute)
  std::vector<Operator> first_forward, first_backward, last_forward, last_backward;
  std::vector<Operator> boundary;  // activations forward, gradients backward (pp > 1)
  // Parameters per chip of the heaviest stage, split into the parts replicated per DP rank
  // and the expert shards.
  double dense_elems = 0, expert_elems = 0, weight_bytes = 0;
  int dense_group = 1, expert_group = 1;    // data-parallel group sizes
  int dense_stride = 1, expert_stride = 1;  // chips between DP peers
  std::vector<MemoryItem> memory;           // weights, gradients, optimizer states, activations
  double model_flops_per_token = 0;         // forward, 2 x active params + attention
  double recompute_flops_per_token = 0;
};
TrainingPlan plan_training(const Context& c, const Layout& L, const TrainingSizes& t);
// The data-parallel exchange of one step for DP groups of the given sizes (ZeRO stage decides
// all-reduce vs reduce-scatter + all-gather; ZeRO-3 gathers weights per micro-batch), scope step.
std::vector<Operator> dp_exchange(const Context& c, const TrainingPlan& tp, int dense_group, int expert_group);
// The optimizer step over this chip's shard (HBM traffic of Adam), scope step.
Operator optimizer_step(const Context& c, const TrainingPlan& tp, int dense_group, int expert_group);

// Sizes that stay in BF16 whatever the precisions: embeddings and the LM head, the residual
// stream and the TP/PP exchanges of it, gradients; FP32 master weights + Adam moments.
constexpr double kEmbeddingBytes = 2.0;
constexpr double kHiddenBytes = 2.0;
constexpr double kGradBytes = 2.0;
constexpr double kOptimizerBytesPerParam = 12.0;

}  // namespace trnsim::plan
