// What a collective algorithm emits: a sequence of bulk-synchronous steps, each a
// communication pattern applied inside every subgroup of the ranks. The algorithms
// (algorithms.cpp) know nothing of the fabric or of how steps are timed; the backends
// (analytic.cpp, event.cpp) know nothing of the algorithms -- the layering of astra-sim.
//
// A step's subgroups partition the n ranks: subgroup g holds S members, member m being
//   rank(g, m) = (g / ms) * (S * ms) + (g % ms) + m * ms        (ms = member stride)
// so ms = 1 gives consecutive blocks (inside a server / UltraServer) and ms = L gives
// the ranks with the same index in every block (across UltraServers).
// Does NOT model: pipelining across steps (a step starts when the previous one has
// finished everywhere), compute/communication overlap inside a step.
#pragma once
#include <string>
#include <vector>

namespace trnsim::collective {

enum class Pattern {
  shift,      // member m sends to (m + param) mod S
  shift_both, // member m sends to (m + param) and (m - param) mod S (two counter-rotating rings)
  xor_,       // member m < A sends to m xor param if that is < A (A = active or S)
  all_pairs,  // member m sends to every other member
  tree,       // binomial tree: members m < param send to m + param (if < S)
  from_root,  // member 0 sends to every other member
  chain,      // member m < S - 1 sends to m + 1 (a pipeline, no wrap)
  fold_in,    // members m >= param send to m - param   (non-power-of-two RDH)
  fold_out,   // members m < S - param send to m + param
  pair_ring,  // KangaRing's primaries: even members send to m + param, odd to m - param (mod S)
};

struct Step {
  Pattern pattern = Pattern::shift;
  long param = 1;
  long group_size = 0;      // S; 0 = all ranks
  long member_stride = 1;   // ms
  long active = 0;          // xor_: only members below this take part (0 = all)
  double bytes = 0;         // per flow
  long repeat = 1;          // identical consecutive steps
  double reduce_bytes = 0;  // bytes each receiving rank reduces in this step
  std::string label;        // "reduce-scatter ring", for traces
};

struct Schedule {
  std::string algorithm;    // "ring", "hierarchical(rdh+ring)", ...
  std::vector<Step> steps;
  long steps_total() const {
    long n = 0;
    for (const auto& s : steps) n += s.repeat;
    return n;
  }
};

// Number of flows one instance of the step has over all subgroups.
double flows_in_step(const Step& step, long ranks);
// Flows of one subgroup of the step.
double flows_in_group(const Step& step, long ranks);

// Calls f(src_rank, dst_rank) for every flow of subgroup g of the step.
template <class F>
void for_each_flow_in_group(const Step& s, long ranks, long g, F&& f) {
  long S = s.group_size > 0 ? s.group_size : ranks;
  long ms = s.member_stride;
  long base = (g / ms) * (S * ms) + (g % ms);
  auto rank = [&](long m) { return base + m * ms; };
  switch (s.pattern) {
    case Pattern::shift:
      for (long m = 0; m < S; ++m) {
        long p = (m + s.param) % S;
        if (p != m) f(rank(m), rank(p));
      }
      break;
    case Pattern::shift_both:
      for (long m = 0; m < S; ++m) {
        long p = (m + s.param) % S, q = ((m - s.param) % S + S) % S;
        if (p != m) f(rank(m), rank(p));
        if (q != m) f(rank(m), rank(q));
      }
      break;
    case Pattern::xor_: {
      long A = s.active > 0 ? s.active : S;
      for (long m = 0; m < A; ++m) {
        long p = m ^ s.param;
        if (p != m && p < A) f(rank(m), rank(p));
      }
      break;
    }
    case Pattern::all_pairs:
      for (long m = 0; m < S; ++m)
        for (long k = 1; k < S; ++k) f(rank(m), rank((m + k) % S));
      break;
    case Pattern::tree:
      for (long m = 0; m < s.param && m + s.param < S; ++m) f(rank(m), rank(m + s.param));
      break;
    case Pattern::from_root:
      for (long m = 1; m < S; ++m) f(rank(0), rank(m));
      break;
    case Pattern::chain:
      for (long m = 0; m + 1 < S; ++m) f(rank(m), rank(m + 1));
      break;
    case Pattern::fold_in:
      for (long m = s.param; m < S; ++m) f(rank(m), rank(m - s.param));
      break;
    case Pattern::fold_out:
      for (long m = 0; m + s.param < S; ++m) f(rank(m), rank(m + s.param));
      break;
    case Pattern::pair_ring:
      for (long m = 0; m < S; ++m) {
        long p = m % 2 == 0 ? (m + s.param) % S : ((m - s.param) % S + S) % S;
        if (p != m) f(rank(m), rank(p));
      }
      break;
  }
}

// The most flows any one rank sends in the step (all-pairs: S - 1; root: S - 1; else 1 or 2).
long max_flows_per_rank(const Step& step, long ranks);
// Number of subgroups of the step (ranks / S).
long subgroups(const Step& step, long ranks);

// x is a power of two (the recursive-halving/doubling algorithms and XOR patterns need one).
inline bool pow2(long x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace trnsim::collective
