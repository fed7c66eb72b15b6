// The prefix cache (prefix_cache.h).
#include "serve/sim/prefix_cache.h"

#include <stdexcept>

namespace trnsim::serve {

void PrefixCache::unlink(Entry& e) {
  (e.older ? e.older->newer : oldest_) = e.newer;
  (e.newer ? e.newer->older : newest_) = e.older;
  e.older = e.newer = nullptr;
  evictable_bytes_ -= e.bytes;
}

void PrefixCache::push_newest(Entry& e) {
  e.older = newest_;
  e.newer = nullptr;
  (newest_ ? newest_->newer : oldest_) = &e;
  newest_ = &e;
  evictable_bytes_ += e.bytes;
}

void PrefixCache::erase_oldest() {
  Entry& e = *oldest_;
  unlink(e);
  bytes_ -= e.bytes;
  tokens_ -= e.tokens;
  ++evictions_;
  map_.erase(e.key);
}

void PrefixCache::acquire(std::uint64_t key) {
  Entry& e = map_.at(key);
  if (e.refs++ == 0) unlink(e);
}

void PrefixCache::release(std::uint64_t key) {
  auto it = map_.find(key);
  if (it == map_.end() || it->second.refs <= 0) throw std::logic_error("prefix cache: release of an unheld block");
  if (--it->second.refs == 0) push_newest(it->second);
}

bool PrefixCache::insert(std::uint64_t key, int tokens, double bytes) {
  while (tokens_ + tokens > max_tokens_ && oldest_) erase_oldest();
  if (tokens_ + tokens > max_tokens_) return false;
  Entry& e = map_[key];
  e.key = key;
  e.tokens = tokens;
  e.bytes = bytes;
  e.refs = 1;
  bytes_ += bytes;
  tokens_ += tokens;
  return true;
}

double PrefixCache::evict(double bytes) {
  double freed = 0;
  while (freed < bytes && oldest_) {
    freed += oldest_->bytes;
    erase_oldest();
  }
  return freed;
}

}  // namespace trnsim::serve
