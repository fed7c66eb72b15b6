// Token-mixing arithmetic per layer (see mixer_cost.h for the rules and their sources).
#include "model/mixer_cost.h"

#include <algorithm>
#include <cmath>

namespace trnsim::model {

namespace {

// 1 + 2 + ... + n.
double triangle(double n) { return n * (n + 1) / 2; }

}  // namespace

double attention_pairs(const ModelConfig& m, Mixer mixer, double tokens) {
  if (tokens <= 0) return 0;
  switch (mixer) {
    case Mixer::full_attention: return triangle(tokens);
    case Mixer::sliding_attention: {
      const double w = m.sliding_window;
      return tokens <= w ? triangle(tokens) : triangle(w) + (tokens - w) * w;
    }
    case Mixer::chunked_attention: {
      const double c = m.attention_chunk, full_chunks = std::floor(tokens / c);
      return full_chunks * triangle(c) + triangle(tokens - full_chunks * c);
    }
    case Mixer::linear_attention: return 0;
  }
  return 0;
}

double attention_keys_at(const ModelConfig& m, Mixer mixer, double position) {
  switch (mixer) {
    case Mixer::full_attention: return position + 1;
    case Mixer::sliding_attention: return std::min(position + 1, double(m.sliding_window));
    case Mixer::chunked_attention: return std::fmod(position, double(m.attention_chunk)) + 1;
    case Mixer::linear_attention: return 0;
  }
  return 0;
}

double mean_attention_keys(const ModelConfig& m, Mixer mixer, double start, double steps) {
  if (steps <= 0) return 0;
  // The keys seen by positions start .. start+steps-1 are a difference of prefix sums of
  // attention_keys_at, which attention_pairs gives in closed form.
  return (attention_pairs(m, mixer, start + steps) - attention_pairs(m, mixer, start)) / steps;
}

double linear_attention_core_flops_per_token(const LinearAttentionDims& g) {
  const double state = double(g.value_heads) * g.key_head_dim * g.value_head_dim;
  return (g.mamba2() ? 5.0 : 7.0) * state + 2.0 * g.conv_channels() * g.conv_kernel;
}

double linear_attention_prefill_flops_per_token(const LinearAttentionDims& g) {
  if (!g.mamba2())
    return linear_attention_core_flops_per_token(g) +
           2.0 * kLinearAttentionChunk * g.value_heads * (g.key_head_dim + g.value_head_dim);
  const double Q = g.chunk, state = double(g.value_heads) * g.key_head_dim * g.value_head_dim;
  const double intra = 2.0 * Q * (double(g.key_width()) + g.value_width());  // C B^T per group, times x per head
  const double states = 2.0 * state + 2.0 * state / Q + 2.0 * state;        // B^T x, passing, C h
  return intra + states + 2.0 * g.conv_channels() * g.conv_kernel;
}

double linear_attention_core_flops_per_token(const ModelConfig& m) { return linear_attention_core_flops_per_token(m.linear); }

double linear_attention_prefill_flops_per_token(const ModelConfig& m) {
  return linear_attention_prefill_flops_per_token(m.linear);
}

double linear_attention_state_elements_touched_per_token(const ModelConfig& m) {
  const LinearAttentionDims& g = m.linear;
  return 2.0 * g.value_heads * g.key_head_dim * g.value_head_dim;
}

}  // namespace trnsim::model
