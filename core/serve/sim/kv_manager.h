// The KV manager of the serving simulator: every sequence's KV cache in blocks of
// kv_block_tokens within its replica's KV budget (the StepModel's), and the prefix cache
// (prefix_cache.h) that keeps computed blocks others may share -- a system prompt, a
// session's context, trace hash ids -- where later prompts starting with them find them (a
// request's own blocks only when it is preempted). An allocation that does not fit first
// evicts unreferenced cached blocks, least recently used first; what the simulator does when
// that is not enough (preempt) is its own (simulator.cpp).
// NOT modeled: KV offload to host memory, KV transfer between replicas.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "serve/sim/state.h"

namespace trnsim::serve {

class KvManager {
 public:
  KvManager(const StepModel& model, double budget_bytes, int block_tokens, bool prefix_cache)
      : model_(model), budget_(budget_bytes), block_(block_tokens), prefix_cache_(prefix_cache) {}

  double budget() const { return budget_; }  // per replica, per chip
  // The most KV one replica has had allocated (sequences' blocks and cached ones, per chip):
  // the budget bounds it (the invariant tests read it through SimResult).
  double peak_used() const { return peak_used_; }
  // The step model's KV bytes of `tokens`; whole blocks (what allocations are made of) are
  // remembered: the same values, without a call through the model each block a sequence grows.
  double kv(int tokens) const {
    if (tokens % block_ != 0) return model_.kv_bytes(tokens);
    const std::size_t i = static_cast<std::size_t>(tokens / block_);
    if (i >= block_bytes_.size()) {
      if (i >= kMaxRememberedBlocks) return model_.kv_bytes(tokens);
      block_bytes_.resize(std::max(i + 1, 2 * block_bytes_.size()), -1);
    }
    double& b = block_bytes_[i];
    if (b < 0) b = model_.kv_bytes(tokens);
    return b;
  }
  int round_up(int tokens) const { return (tokens + block_ - 1) / block_ * block_; }

  // Allocates KV for `n` more tokens of `s`, evicting unreferenced cached blocks if needed.
  bool reserve(Replica& r, Seq& s, int n) { return reserve(r, s.computed, s.alloc, n); }
  // The same for a sequence's computed and allocated tokens held elsewhere (a lazy one's).
  bool reserve(Replica& r, int computed, int& alloc, int n) {
    if (computed + n <= alloc) return true;
    const int want = round_up(computed + n);
    if (want <= alloc) return true;
    const double need = kv(want) - kv(alloc);
    double free = budget_ - r.used();
    if (free < need) {
      r.cache.evict(need - free);
      free = budget_ - r.used();
    }
    if (free < need - 1e-9 * budget_) return false;
    r.private_bytes += need;
    if (r.used() > peak_used_) peak_used_ = r.used();
    alloc = want;
    return true;
  }

  // Takes the cached blocks that start s's prompt (at least its last token is computed).
  void lookup_prefix(Replica& r, Seq& s) {
    if (!prefix_cache_ || s.computed > 0) return;
    const int cb = cache_block(s);
    std::uint64_t key;
    bool shared;
    for (int i = 0; (i + 1) * cb <= s.prompt_len - 1 && key_of(s, i, key, shared) && r.cache.contains(key); ++i) {
      r.cache.acquire(key);
      s.refs.push_back(key);
      s.shared += cb;
    }
    s.computed = s.alloc = s.shared;
  }

  // Frees everything s holds: its own blocks, and its references to cached ones (tail first).
  void release_all(Replica& r, Seq& s) {
    for (auto it = s.refs.rbegin(); it != s.refs.rend(); ++it) r.cache.release(*it);
    r.private_bytes -= kv(s.alloc) - kv(s.shared);
    s.refs.clear();
    s.shared = s.alloc = s.computed = 0;
  }

  // Moves s's newly computed full blocks into the prefix cache (or onto an equal cached block):
  // the shareable ones, or every one (`all`: before a preemption, for the recompute).
  void insert_blocks(Replica& r, Seq& s, bool all = false) {
    if (!prefix_cache_) return;
    const int cb = cache_block(s);
    std::uint64_t key;
    bool shared;
    for (int i = s.shared / cb; (i + 1) * cb <= s.computed && key_of(s, i, key, shared) && (shared || all); ++i) {
      const double bytes = kv((i + 1) * cb) - kv(i * cb);
      if (r.cache.contains(key)) r.cache.acquire(key);
      else if (!r.cache.insert(key, cb, bytes)) break;
      r.private_bytes -= bytes;
      s.refs.push_back(key);
      s.shared += cb;
    }
  }

 private:
  int cache_block(const Seq& s) const { return s.c->hash_block_tokens > 0 ? s.c->hash_block_tokens : block_; }

  // The prefix-cache key of block i of s's tokens (prompt, then output), if it has one;
  // `shared`: whether other requests may reuse the block.
  bool key_of(const Seq& s, int i, std::uint64_t& key, bool& shared) const {
    const Call& c = *s.c;
    shared = true;
    if (c.hash_block_tokens > 0) {
      if (static_cast<std::size_t>(i) >= c.block_hashes.size()) return false;
      key = c.block_hashes[static_cast<std::size_t>(i)];
      return true;
    }
    const long long last = static_cast<long long>(i + 1) * block_ - 1;
    if (last < c.input_tokens) {
      for (const auto& seg : c.segments)
        if (last < seg.end) {
          key = block_key(seg.ns, static_cast<std::uint64_t>(i));
          shared = seg.shared;
          return true;
        }
      return false;
    }
    if (c.output_ns == 0) return false;
    key = block_key(c.output_ns, static_cast<std::uint64_t>(i));
    return true;
  }

  static constexpr std::size_t kMaxRememberedBlocks = std::size_t(1) << 20;
  const StepModel& model_;
  mutable std::vector<double> block_bytes_;  // kv() of i whole blocks (-1: not yet asked)
  double budget_ = 0;
  int block_ = 16;
  bool prefix_cache_ = true;
  double peak_used_ = 0;
};

}  // namespace trnsim::serve
