// Analytic backend: alpha-beta per step with link sharing counted (see backend.h).
//   step time = max over flows (path latency) + max over links (bytes on link / bandwidth)
// where a link's bytes add each flow's bytes x the share of them it carries (1, or
// 1 / l2_switches on a second-level switch's links: fabric::Topology sprays flows there).
#include <algorithm>
#include <unordered_map>

#include "collective/backend.h"

namespace trnsim::collective {

namespace {

class AnalyticBackend : public Backend {
 public:
  std::string name() const override { return "analytic"; }
  StepTime time_step(const Step& step, const RankMap& map) const override {
    const fabric::Topology& topo = *map.topology;
    Selection sel = select_flows(step, map, true);
    StepTime t;
    t.symmetry = symmetry_name(sel.mode);
    if (sel.mode == Symmetry::one_group) {
      // Members all in different UltraServers: every flow runs NIC to NIC through the
      // non-blocking EFA network, so the busiest NIC carries (most flows per rank) x
      // bytes. One flow gives the path; no need to route the others.
      bool found = false;
      long src = 0, dst = 0;
      for_each_flow_in_group(step, map.ranks, 0, [&](long s, long d) {
        if (!found) found = true, src = s, dst = d;
      });
      if (!found) return t;
      std::vector<fabric::Hop> path;
      t.latency_s = topo.route(map.chip(src), map.chip(dst), path);
      // The subgroups timed together share each chip's NIC share.
      double degree = static_cast<double>(max_flows_per_rank(step, map.ranks)) * static_cast<double>(sel.group_end);
      for (const fabric::Hop& h : path)
        t.transfer_s = std::max(t.transfer_s, degree * step.bytes * h.share / topo.bandwidth(h.link));
      t.time_s = t.latency_s + t.transfer_s;
      t.flows = 1;
      return t;
    }
    bool fold = sel.mode == Symmetry::translation;
    // Loads per link, accumulated in flow order (deterministic). Links are numbered
    // chip x ports + port, so a dense array serves every case but huge exact ones.
    long max_chip = fold ? topo.chips_per_domain() - 1 : map.chip(map.ranks - 1);
    fabric::LinkId bound = topo.link_id_bound(max_chip);
    const bool dense = bound <= (fabric::LinkId(1) << 22);
    std::vector<double> dense_load(dense ? static_cast<std::size_t>(bound) : 0, 0.0);
    std::unordered_map<fabric::LinkId, double> sparse_load;  // looked up only, never iterated
    std::vector<fabric::Hop> links;
    double max_latency = 0;
    double max_time = 0;
    for_each_selected_flow(step, map, sel, [&](long src, long dst, double count) {
      if (map.same_chip(src, dst)) return;  // on-chip: DMA engines only, no link
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
    t.latency_s = max_latency;
    t.transfer_s = max_time;
    t.time_s = max_latency + max_time;
    t.flows = sel.flows;
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_analytic_backend() { return std::make_unique<AnalyticBackend>(); }

}  // namespace trnsim::collective
