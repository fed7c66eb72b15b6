// The seam between collective algorithms and the fabric: a backend times one step of
// a schedule on a topology. Two backends (astra-sim's layering):
//  - analytic: alpha-beta with link sharing counted -- a step takes the longest path
//    latency plus the most loaded link's bytes / bandwidth. Fast; exact when every flow
//    crosses the most loaded link of its path or nothing is shared.
//  - event: flow-level, event-driven -- every flow gets a max-min fair share of every
//    link it crosses (progressive filling), rates are recomputed whenever a flow
//    finishes; a flow ends after its bytes are through plus its path latency. A chip
//    drives at most max_flows_per_chip flows at once (one per collective-communication
//    core, an assumption), in the order the algorithm lists them; the next starts when
//    one ends. Where a chip has more peers than that and routes share links (mesh on a
//    torus), this is where the event backend departs from the analytic one.
// Both use exact symmetries to avoid enumerating huge clusters: identical UltraServers
// running identical subgroups (time one), subgroups whose members are all in different
// UltraServers (time one: they only meet at their own EFA NIC shares). The analytic
// backend also folds a single group spanning many UltraServers onto UltraServer 0
// (translation symmetry of shift / xor / all-pairs patterns).
// Does NOT model: packet-level effects, head-of-line blocking, congestion control,
// per-flow start skew inside a step.
#pragma once
#include <memory>
#include <string>

#include "collective/collective.h"
#include "collective/schedule.h"
#include "fabric/topology.h"

namespace trnsim::collective {

struct RankMap {
  const fabric::Topology* topology = nullptr;
  long ranks = 0;
  long stride = 1;              // rank r is chip r * stride
  long ranks_per_domain = 0;    // 0: ranks do not fall into domains regularly
  int max_flows_per_chip = 0;   // event backend: concurrent outgoing flows per chip (0 = all)
  long ranks_per_chip = 1;      // consecutive ranks share a chip (logical NeuronCores)
  long chip(long rank) const { return rank / ranks_per_chip * stride; }
  // A flow between two ranks of one chip moves through the chip's DMA engines, no link.
  bool same_chip(long a, long b) const { return a / ranks_per_chip == b / ranks_per_chip; }
};

struct StepTime {
  double time_s = 0;       // one instance of the step (latency + transfer)
  double latency_s = 0;    // longest path latency
  double transfer_s = 0;   // time the bytes take
  double flows = 0;        // flows timed (after symmetry reduction)
  std::string symmetry;    // "exact", "per-domain", "one-group", "translation"
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual StepTime time_step(const Step& step, const RankMap& map) const = 0;
};

std::unique_ptr<Backend> make_backend(const std::string& name);

// ---- shared by the backends: which flows to enumerate ----
enum class Symmetry { exact, per_domain, one_group, translation };
struct Selection {
  Symmetry mode = Symmetry::exact;
  long group_begin = 0, group_end = 0;  // subgroups to enumerate (not translation)
  double flows = 0;                     // flows that will be enumerated
};
Selection select_flows(const Step& step, const RankMap& map, bool allow_translation);
const char* symmetry_name(Symmetry s);

// Calls f(src_rank, dst_rank, count) for the selected flows (count > 1 only for
// translation-mode all-pairs bundles toward other UltraServers).
template <class F>
void for_each_selected_flow(const Step& step, const RankMap& map, const Selection& sel, F&& f) {
  if (sel.mode != Symmetry::translation) {
    for (long g = sel.group_begin; g < sel.group_end; ++g)
      for_each_flow_in_group(step, map.ranks, g, [&](long s, long d) { f(s, d, 1.0); });
    return;
  }
  long n = map.ranks, R = map.ranks_per_domain;
  for (long m = 0; m < R; ++m) {
    switch (step.pattern) {
      case Pattern::shift: {
        long p = (m + step.param) % n;
        if (p != m) f(m, p, 1.0);
        break;
      }
      case Pattern::shift_both: {
        long p = (m + step.param) % n, q = ((m - step.param) % n + n) % n;
        if (p != m) f(m, p, 1.0);
        if (q != m) f(m, q, 1.0);
        break;
      }
      case Pattern::xor_: {
        long p = m ^ step.param;
        if (p != m && p < n) f(m, p, 1.0);
        break;
      }
      case Pattern::all_pairs: {
        for (long d = 0; d < R; ++d)
          if (d != m) f(m, d, 1.0);
        f(m, m + R, static_cast<double>(n - R));  // every rank outside, through the NIC
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace trnsim::collective
