// Attention heads under tensor parallelism, sharded as Neuron shards them (NxD Inference
// modules/attention/gqa.py, get_shardable_head_counts; optimum-neuron carries the same
// code): query heads are padded up to a multiple of tp with zero heads; K/V heads are split
// when tp divides them, replicated to one per rank when tp is a multiple of their count
// (REPLICATE_TO_TP_DEGREE), and otherwise the layer becomes multi-head attention with one
// K/V head per padded query head (CONVERT_TO_MHA). Multi-head attention (as many K/V heads as
// query heads) pads both alike. The pricing layer reads the padded counts: padded heads cost
// their projection weights, attention FLOPs and KV cache like real ones.
//
// Layers with their own K/V-head count (Gemma 4's global layers, MiMo-V2-Flash's sliding
// layers) shard by the same rule at their own count (plan::attention_chip): at TP8 Gemma 4
// 31B's 16 sliding K/V heads split, its 4 global ones are replicated to one per rank.
// MLA's latent cache is replicated per rank whatever tp is (only its query heads pad). Gated
// DeltaNet heads follow the same rule with value heads as queries (shard_linear_heads): an
// extension of Neuron's rule to linear attention, not taken from a Neuron source.
#pragma once
#include "model/llm.h"

namespace trnsim::model {

enum class KvSharding {
  split,            // tp divides the K/V heads: each rank holds kv_heads / tp
  replicate_to_tp,  // tp is a multiple of them: each rank holds one (REPLICATE_TO_TP_DEGREE)
  convert_to_mha,   // neither: one K/V head per padded query head (CONVERT_TO_MHA)
};
const char* kv_sharding_name(KvSharding s);

struct HeadSharding {
  int tp = 1;
  int q_heads = 0;   // query heads after padding, all ranks together
  int kv_heads = 0;  // K/V heads after replication or conversion, all ranks together
  int model_q_heads = 0, model_kv_heads = 0;
  KvSharding kv = KvSharding::split;
  int q_heads_per_rank() const { return q_heads / tp; }
  int kv_heads_per_rank() const { return kv_heads / tp; }
  int padded_q_heads() const { return q_heads - model_q_heads; }  // zero heads added
  bool padded() const { return padded_q_heads() > 0 || kv == KvSharding::convert_to_mha; }
};

// Neuron's layout of `q_heads` query heads sharing `kv_heads` K/V heads at degree tp (>= 1).
HeadSharding shard_heads(int q_heads, int kv_heads, int tp);
// m's softmax attention.
HeadSharding shard_heads(const ModelConfig& m, int tp);
// m's Gated DeltaNet heads, sharded alike: the value heads (one recurrent state each) play the
// query heads' part, the q/k heads they share the K/V heads' (split, replicated or one per
// padded value head).
HeadSharding shard_linear_heads(const ModelConfig& m, int tp);

}  // namespace trnsim::model
