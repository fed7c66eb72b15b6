// Neuron's head padding and K/V replication (see heads.h for the rule and its source).
#include "model/heads.h"

namespace trnsim::model {

const char* kv_sharding_name(KvSharding s) {
  switch (s) {
    case KvSharding::split: return "split";
    case KvSharding::replicate_to_tp: return "replicate-to-tp-degree";
    case KvSharding::convert_to_mha: return "convert-to-mha";
  }
  return "split";
}

HeadSharding shard_heads(int q_heads, int kv_heads, int tp) {
  HeadSharding s;
  s.tp = tp < 1 ? 1 : tp;
  s.model_q_heads = q_heads;
  s.model_kv_heads = kv_heads;
  s.q_heads = (q_heads + s.tp - 1) / s.tp * s.tp;
  const int kv = kv_heads;
  if (kv == q_heads) {  // multi-head attention: K/V heads are padded and split with the queries
    s.kv_heads = s.q_heads;
    s.kv = KvSharding::split;
  } else if (kv % s.tp == 0) {
    s.kv_heads = kv;
    s.kv = KvSharding::split;
  } else if (s.tp % kv == 0) {
    s.kv_heads = s.tp;
    s.kv = KvSharding::replicate_to_tp;
  } else {
    s.kv_heads = s.q_heads;
    s.kv = KvSharding::convert_to_mha;
  }
  return s;
}

HeadSharding shard_heads(const ModelConfig& m, int tp) { return shard_heads(m.heads, m.kv_heads, tp); }

HeadSharding shard_linear_heads(const ModelConfig& m, int tp) {
  return shard_heads(m.linear.value_heads, m.linear.key_heads, tp);
}

}  // namespace trnsim::model
