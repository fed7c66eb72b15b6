// The prefix cache of one replica (vLLM's automatic prefix caching, block hashing): KV blocks
// of computed prompts (and of outputs a later call re-sends) are kept under a key that stands
// for the block and everything before it; a request whose prompt starts with cached blocks
// reuses them instead of computing them. Blocks referenced by running sequences stay; the
// others are evicted least recently used first when the KV budget or the cache's own size
// limit needs room. A sequence releases its blocks tail first, so a prompt's tail is evicted
// before its head (as vLLM's free-block queue does).
// NOT modeled: a second cache tier (host DRAM, disk: LMCache, Mooncake store), hash collisions.
#pragma once
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace trnsim::serve {

class PrefixCache {
 public:
  struct Entry {
    int tokens = 0;
    double bytes = 0;
    int refs = 0;
    Entry* older = nullptr;  // the LRU list of unreferenced entries
    Entry* newer = nullptr;
    std::uint64_t key = 0;
  };

  explicit PrefixCache(double max_tokens = std::numeric_limits<double>::infinity()) : max_tokens_(max_tokens) {}

  bool contains(std::uint64_t key) const { return map_.count(key) > 0; }
  void acquire(std::uint64_t key);  // a sequence uses the block (it must be present)
  void release(std::uint64_t key);  // ... no longer; unreferenced blocks become evictable
  // Adds a block a sequence computed, referenced by it. False when the cache is at its size
  // limit with nothing evictable (the block stays the sequence's own).
  bool insert(std::uint64_t key, int tokens, double bytes);
  // Evicts unreferenced blocks, least recently used first, until `bytes` are freed or none is
  // left; returns the bytes freed.
  double evict(double bytes);

  double bytes() const { return bytes_; }
  double tokens() const { return tokens_; }
  double evictable_bytes() const { return evictable_bytes_; }
  std::size_t blocks() const { return map_.size(); }
  std::uint64_t evictions() const { return evictions_; }

 private:
  void unlink(Entry& e);
  void push_newest(Entry& e);
  void erase_oldest();

  std::unordered_map<std::uint64_t, Entry> map_;
  Entry* oldest_ = nullptr;
  Entry* newest_ = nullptr;
  double max_tokens_;
  double bytes_ = 0, tokens_ = 0, evictable_bytes_ = 0;
  std::uint64_t evictions_ = 0;
};

}  // namespace trnsim::serve
