// Analytic backend: alpha-beta per step with link sharing counted (see backend.h).
//   step time = max over flows (path latency) + max over links (bytes on link / bandwidth)
// where a link's bytes add each flow's bytes x the share of them it carries (1, or
// 1 / l2_switches on a second-level switch's links: fabric::Topology sprays flows there).
// Which flows a step has, and the links each crosses, depend on the step's shape (pattern,
// subgroups, ranks, placement) and not on its bytes. One backend instance therefore routes a
// shape once and keeps, per link, the (count, share) of every flow crossing it in flow order;
// timing the shape at another size sums bytes x count x share over each link in that order --
// the additions routing afresh would make -- so the result is the same to the bit (a caller
// pricing one collective at every batch size, the serving step pricer, times thousands of
// sizes of a few shapes). A link's load only grows, so the busiest link is the largest final
// load / bandwidth; links whose lists are equal (symmetric links) are summed once, over the
// slowest of them.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "collective/backend.h"

namespace trnsim::collective {

namespace {

// One step shape on one placement, routed.
struct Routed {
  std::string symmetry;
  double flows = 0;
  bool one_group = false;
  bool empty = false;       // one group without a flow
  bool direct = false;      // too many flows to keep: routed again at every size
  double latency_s = 0;     // one_group: the path's; else the longest path's
  double degree = 0;        // one_group: flows per rank x subgroups timed together
  // one_group: the path's hops (count 1). Else, per class of links with equal lists: the
  // (count, share) of every flow crossing them, in flow order.
  struct Term {
    double count, share;
    bool operator<(const Term& o) const { return count < o.count || (count == o.count && share < o.share); }
    bool operator==(const Term& o) const { return count == o.count && share == o.share; }
  };
  std::vector<Term> terms;
  std::vector<std::size_t> begin;  // links: terms [begin[i], begin[i + 1])
  std::vector<double> bandwidth;   // per link class (the slowest of its links)
};

// The topology is keyed by address: a backend instance must not outlive a topology it timed
// steps on (collective::Runner owns both; a backend made for one call is dropped with it).
using ShapeKey = std::tuple<const fabric::Topology*, int, long, long, long, long, long, long, long, long>;

class AnalyticBackend : public Backend {
 public:
  std::string name() const override { return "analytic"; }
  StepTime time_step(const Step& step, const RankMap& map) const override {
    const ShapeKey key{map.topology, static_cast<int>(step.pattern), step.param, step.group_size, step.member_stride,
                       step.active, map.ranks, map.stride, map.ranks_per_domain, map.ranks_per_chip};
    auto it = routed_.find(key);
    if (it == routed_.end()) it = routed_.emplace(key, route(step, map)).first;
    const Routed& r = it->second;
    if (r.direct) return route_and_time(step, map);
    StepTime t;
    t.symmetry = r.symmetry;
    if (r.one_group) {
      if (r.empty) return t;
      t.latency_s = r.latency_s;
      for (std::size_t i = 0; i < r.terms.size(); ++i)
        t.transfer_s = std::max(t.transfer_s, r.degree * step.bytes * r.terms[i].share / r.bandwidth[i]);
      t.time_s = t.latency_s + t.transfer_s;
      t.flows = 1;
      return t;
    }
    double max_time = 0;
    for (std::size_t l = 0; l + 1 < r.begin.size(); ++l) {
      double v = 0;
      for (std::size_t i = r.begin[l]; i < r.begin[l + 1]; ++i) v += step.bytes * r.terms[i].count * r.terms[i].share;
      max_time = std::max(max_time, v / r.bandwidth[l]);
    }
    t.latency_s = r.latency_s;
    t.transfer_s = max_time;
    t.time_s = r.latency_s + max_time;
    t.flows = r.flows;
    return t;
  }

 private:
  static Routed route(const Step& step, const RankMap& map) {
    const fabric::Topology& topo = *map.topology;
    Selection sel = select_flows(step, map, true);
    Routed r;
    r.symmetry = symmetry_name(sel.mode);
    std::vector<fabric::Hop> links;
    if (sel.mode == Symmetry::one_group) {
      // Members all in different UltraServers: every flow runs NIC to NIC through the
      // non-blocking EFA network, so the busiest NIC carries (most flows per rank) x
      // bytes. One flow gives the path; no need to route the others.
      r.one_group = true;
      bool found = false;
      long src = 0, dst = 0;
      for_each_flow_in_group(step, map.ranks, 0, [&](long s, long d) {
        if (!found) found = true, src = s, dst = d;
      });
      if (!found) {
        r.empty = true;
        return r;
      }
      r.latency_s = topo.route(map.chip(src), map.chip(dst), links);
      // The subgroups timed together share each chip's NIC share.
      r.degree = static_cast<double>(max_flows_per_rank(step, map.ranks)) * static_cast<double>(sel.group_end);
      for (const fabric::Hop& h : links) {
        r.terms.push_back({1.0, h.share});
        r.bandwidth.push_back(topo.bandwidth(h.link));
      }
      return r;
    }
    if (sel.flows > kMaxKeptFlows) {
      r.direct = true;
      return r;
    }
    // Loads per link accumulate in flow order (deterministic); a translation-symmetric step
    // folds every link onto UltraServer 0's.
    const bool fold = sel.mode == Symmetry::translation;
    std::unordered_map<fabric::LinkId, std::size_t> index;
    std::vector<std::vector<Routed::Term>> per_link;
    std::vector<double> link_bandwidth;
    for_each_selected_flow(step, map, sel, [&](long src, long dst, double count) {
      if (map.same_chip(src, dst)) return;  // on-chip: DMA engines only, no link
      links.clear();
      r.latency_s = std::max(r.latency_s, topo.route(map.chip(src), map.chip(dst), links));
      for (const fabric::Hop& h : links) {
        const fabric::LinkId key = fold ? topo.to_domain0(h.link) : h.link;
        auto at = index.find(key);
        if (at == index.end()) {
          at = index.emplace(key, per_link.size()).first;
          per_link.emplace_back();
          link_bandwidth.push_back(topo.bandwidth(key));
        }
        per_link[at->second].push_back({count, h.share});
      }
    });
    // Links with equal lists carry equal loads: one class each, timed at its slowest link.
    std::map<std::vector<Routed::Term>, std::size_t> classes;
    std::vector<const std::vector<Routed::Term>*> order;
    for (std::size_t l = 0; l < per_link.size(); ++l) {
      auto [at, added] = classes.emplace(per_link[l], order.size());
      if (added) {
        order.push_back(&at->first);
        r.bandwidth.push_back(link_bandwidth[l]);
      } else {
        r.bandwidth[at->second] = std::min(r.bandwidth[at->second], link_bandwidth[l]);
      }
    }
    for (const auto* list : order) {
      r.begin.push_back(r.terms.size());
      r.terms.insert(r.terms.end(), list->begin(), list->end());
    }
    r.begin.push_back(r.terms.size());
    r.flows = sel.flows;
    return r;
  }

  // The same timing without keeping the hops, for steps with more flows than are worth keeping
  // (exact enumeration of a large cluster). Links are numbered chip x ports + port, so a dense
  // array serves every case but huge exact ones.
  static StepTime route_and_time(const Step& step, const RankMap& map) {
    const fabric::Topology& topo = *map.topology;
    const Selection sel = select_flows(step, map, true);
    const bool fold = sel.mode == Symmetry::translation;
    long max_chip = fold ? topo.chips_per_domain() - 1 : map.chip(map.ranks - 1);
    fabric::LinkId bound = topo.link_id_bound(max_chip);
    const bool dense = bound <= (fabric::LinkId(1) << 22);
    std::vector<double> dense_load(dense ? static_cast<std::size_t>(bound) : 0, 0.0);
    std::unordered_map<fabric::LinkId, double> sparse_load;  // looked up only, never iterated
    std::vector<fabric::Hop> links;
    double max_latency = 0;
    double max_time = 0;
    for_each_selected_flow(step, map, sel, [&](long src, long dst, double count) {
      if (map.same_chip(src, dst)) return;
      links.clear();
      double lat = topo.route(map.chip(src), map.chip(dst), links);
      max_latency = std::max(max_latency, lat);
      for (const fabric::Hop& h : links) {
        fabric::LinkId key = fold ? topo.to_domain0(h.link) : h.link;
        double& v = dense ? dense_load[static_cast<std::size_t>(key)] : sparse_load[key];
        v += step.bytes * count * h.share;
        max_time = std::max(max_time, v / topo.bandwidth(key));
      }
    });
    StepTime t;
    t.symmetry = symmetry_name(sel.mode);
    t.latency_s = max_latency;
    t.transfer_s = max_time;
    t.time_s = max_latency + max_time;
    t.flows = sel.flows;
    return t;
  }

  static constexpr double kMaxKeptFlows = 65536;  // ~4 MB of (count, share) pairs on a switch fabric
  mutable std::map<ShapeKey, Routed> routed_;
};

}  // namespace

std::unique_ptr<Backend> make_analytic_backend() { return std::make_unique<AnalyticBackend>(); }

}  // namespace trnsim::collective
