// Token-mixing arithmetic of one layer, per sequence, independent of hardware: how many
// (query, key) pairs a causal softmax-attention layer scores, how many keys one new token
// attends to, and what a Gated DeltaNet or Mamba2 layer computes and keeps per token. The plan layer
// turns these into operators (FLOPs, bytes moved, bytes held).
//
// Chunked attention (Llama 4): token p attends to the tokens of its own aligned chunk,
// positions [C*floor(p/C), p]; so a context shorter than the chunk is plain full attention.
// Gated DeltaNet (Yang, Kautz, Hatamizadeh, "Gated Delta Networks", ICLR 2025; the recurrent
// form transformers' Qwen3-Next runs at decode): per value head and token, the state
// S (key_dim x value_dim) is decayed (S *= alpha), read at k (u = S k), corrected by the delta
// rule (S += beta (v - u) k^T) and read at q (o = S q): 7 key_dim x value_dim FLOPs, counting
// a multiply-add as two; plus the causal depthwise conv over q, k, v (2 x kernel per channel).
//
// Prefill runs the chunk-parallel (WY) form (flash-linear-attention's chunk_gated_delta_rule,
// 64-token chunks): besides the state updates, each chunk scores its tokens against each other
// over the key dimension and mixes the values, about 2 x chunk x (key_dim + value_dim) more
// FLOPs per head and token (linear_attention_prefill_flops_per_token).
//
// Mamba2 (Dao & Gu, "Transformers are SSMs", ICML 2024, arXiv 2405.21060; transformers'
// BambaMixer / GraniteMoeHybridMambaLayer, mamba_ssm's mamba_chunk_scan_combined), per head of
// d_head P and state N, heads H sharing G groups of B and C:
//  - decode, the recurrent form: h = exp(dt A) h + dt x B^T (decay and outer product, 3 P N),
//    y = h C (2 P N): 5 H P N FLOPs; the conv as above; the state read and written once.
//  - prefill, the chunked SSD scan of chunk Q (mamba_chunk_size): within a chunk the quadratic
//    (attention-like) form, C B^T per group (2 Q N G per token) weighting x per head (2 Q P H);
//    across chunks the states: each chunk's state B^T x (2 H P N per token), its passing from
//    chunk to chunk (2 H P N per chunk: 2 H P N / Q per token), the output from the incoming
//    state C h (2 H P N per token). The kernels compute the whole Q x Q block (the causal mask
//    is applied, not skipped), so the intra-chunk term counts all Q keys.
// NOT modeled: elementwise gates, norms, activations, the dt softplus and the D skip.
#pragma once
#include "model/llm.h"

namespace trnsim::model {

// (query, key) pairs of a causal pass over `tokens` new tokens from an empty context, for a
// layer whose token mixer is `mixer` (the window and chunk come from m).
double attention_pairs(const ModelConfig& m, Mixer mixer, double tokens);
// Keys the token at 0-based position `position` attends to (0 for linear attention).
double attention_keys_at(const ModelConfig& m, Mixer mixer, double position);
// Mean keys per token over decode steps at positions start, start+1, ..., start+steps-1.
double mean_attention_keys(const ModelConfig& m, Mixer mixer, double start, double steps);

// The chunk size of the chunk-parallel Gated DeltaNet kernels (flash-linear-attention).
constexpr double kLinearAttentionChunk = 64;

// Gated DeltaNet or Mamba2 per token and layer, excluding the projections (those are
// weights): the recurrent update and readout of every value head, and the causal conv. The
// LinearAttentionDims forms take any heads (a chip's share).
double linear_attention_core_flops_per_token(const ModelConfig& m);
double linear_attention_core_flops_per_token(const LinearAttentionDims& g);
// The same for a prefill, run in the chunk-parallel form: Gated DeltaNet, the recurrent terms
// plus the intra-chunk ones; Mamba2, the chunked SSD scan (intra-chunk and state terms).
double linear_attention_prefill_flops_per_token(const ModelConfig& m);
double linear_attention_prefill_flops_per_token(const LinearAttentionDims& g);
// Recurrent-state elements read and written per token at decode (the whole state, once each
// way); the conv's short window is in linear_state_elements_per_layer.
double linear_attention_state_elements_touched_per_token(const ModelConfig& m);

}  // namespace trnsim::model
