// Event-driven flow-level backend (see backend.h): max-min fair sharing of every link by
// progressive filling, recomputed at every flow completion. A flow sprayed over the
// second-level switches (fabric::Topology) puts share x its rate on each switch's links:
// the filling raises every unfrozen flow's rate together, so a link fills at
// (its unfrozen flows x its share) per unit of rate. A link's share is the same on every
// route through it (1, or 1 / l2_switches on a server's uplinks and downlinks).
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "collective/backend.h"
#include "common/error.h"

namespace trnsim::collective {

namespace {

constexpr double kMaxFlows = 4e6;     // memory bound of one step (~100 bytes a flow)
constexpr double kMaxHops = 6 * kMaxFlows;  // and of the links they cross (sprayed flows cross more)
constexpr double kTie = 1e-9;         // relative tolerance for simultaneous events

class EventBackend : public Backend {
 public:
  std::string name() const override { return "event"; }
  StepTime time_step(const Step& step, const RankMap& map) const override {
    const fabric::Topology& topo = *map.topology;
    Selection sel = select_flows(step, map, false);
    if (sel.flows > kMaxFlows)
      throw InputError("backend", "the event backend would simulate " + std::to_string(static_cast<long long>(sel.flows)) +
                                      " flows in one step (limit 4,000,000); use the analytic backend or fewer ranks");
    // Flows and their links (compressed rows), links densely numbered in order of appearance.
    std::vector<double> remaining, latency;
    std::vector<long> src_chip;
    std::vector<int> offset = {0}, flow_links;
    std::vector<double> capacity, share;  // by dense link
    // Link id -> dense index: an array when the ids are small, else a map (lookup only).
    fabric::LinkId bound = topo.link_id_bound(map.chip(map.ranks - 1));
    const bool small = bound <= (fabric::LinkId(1) << 22);
    std::vector<int> dense_index(small ? static_cast<std::size_t>(bound) : 0, -1);
    std::unordered_map<fabric::LinkId, int> dense;
    std::vector<fabric::Hop> route;
    remaining.reserve(static_cast<std::size_t>(sel.flows));
    for_each_selected_flow(step, map, sel, [&](long src, long dst, double) {
      if (map.same_chip(src, dst)) return;  // on-chip: DMA engines only, no link
      route.clear();
      latency.push_back(topo.route(map.chip(src), map.chip(dst), route));
      src_chip.push_back(map.chip(src));
      remaining.push_back(step.bytes);
      for (const fabric::Hop& h : route) {
        const fabric::LinkId l = h.link;
        int& slot = small ? dense_index[static_cast<std::size_t>(l)] : dense.try_emplace(l, -1).first->second;
        if (slot < 0) {  // first flow on the link
          slot = static_cast<int>(capacity.size());
          capacity.push_back(topo.bandwidth(l));
          share.push_back(h.share);
        }
        flow_links.push_back(slot);
      }
      offset.push_back(static_cast<int>(flow_links.size()));
      if (static_cast<double>(flow_links.size()) > kMaxHops)
        throw InputError("backend", "the event backend would route more than " +
                                        std::to_string(static_cast<long long>(kMaxHops)) +
                                        " link crossings in one step; use the analytic backend or fewer ranks");
    });
    const int F = static_cast<int>(remaining.size());
    const int L = static_cast<int>(capacity.size());
    // Flows on each link (compressed rows).
    std::vector<int> link_off(static_cast<std::size_t>(L) + 1, 0), link_flows(flow_links.size());
    for (int k : flow_links) ++link_off[static_cast<std::size_t>(k) + 1];
    for (int l = 0; l < L; ++l) link_off[l + 1] += link_off[l];
    {
      std::vector<int> fill(link_off.begin(), link_off.end() - 1);
      for (int f = 0; f < F; ++f)
        for (int i = offset[f]; i < offset[f + 1]; ++i) link_flows[fill[flow_links[i]]++] = f;
    }
    std::vector<char> active(F, 0), frozen(F, 0);
    std::vector<double> rate(F, 0), cap_left(L), end(F, 0);
    std::vector<int> count(L);
    // Per source chip, its flows in the order listed (chained by next_of); at most
    // `limit` run at once, and when one ends the chip's next waiting flow starts.
    std::vector<int> chip_of(F), next_of(F, -1), cursor;
    std::vector<int> running;
    {
      std::unordered_map<long, int> dense_chip;  // lookup only
      std::vector<int> last, started;
      const int limit = map.max_flows_per_chip > 0 ? map.max_flows_per_chip : F;
      for (int f = 0; f < F; ++f) {
        auto it = dense_chip.find(src_chip[f]);
        int c;
        if (it == dense_chip.end()) {
          c = static_cast<int>(last.size());
          dense_chip.emplace(src_chip[f], c);
          last.push_back(-1);
          started.push_back(0);
          cursor.push_back(-1);
        } else {
          c = it->second;
        }
        chip_of[f] = c;
        if (last[c] >= 0) next_of[last[c]] = f;
        last[c] = f;
        if (started[c] < limit) {
          ++started[c];
          active[f] = 1;
          running.push_back(f);
        } else if (cursor[c] < 0) {
          cursor[c] = f;
        }
      }
    }
    double now = 0;
    while (!running.empty()) {
      // Progressive filling: raise every unfrozen flow's rate together until a link is
      // full; freeze the flows of the fullest links; repeat.
      std::fill(count.begin(), count.end(), 0);
      for (int l = 0; l < L; ++l) cap_left[l] = capacity[l];
      for (int f : running) {
        frozen[f] = 0;
        for (int i = offset[f]; i < offset[f + 1]; ++i) ++count[flow_links[i]];
      }
      std::size_t unfrozen = running.size();
      while (unfrozen > 0) {
        double best = std::numeric_limits<double>::infinity();
        for (int l = 0; l < L; ++l)
          if (count[l] > 0) best = std::min(best, cap_left[l] / (count[l] * share[l]));
        for (int l = 0; l < L; ++l) {
          if (count[l] == 0 || cap_left[l] / (count[l] * share[l]) > best * (1 + kTie)) continue;
          for (int j = link_off[l]; j < link_off[l + 1]; ++j) {
            int f = link_flows[j];
            if (!active[f] || frozen[f]) continue;
            frozen[f] = 1;
            rate[f] = best;
            --unfrozen;
            for (int i = offset[f]; i < offset[f + 1]; ++i) {
              cap_left[flow_links[i]] -= best * share[flow_links[i]];
              --count[flow_links[i]];
            }
          }
        }
      }
      // Advance to the next completion; flows finishing within the tie tolerance end together.
      double dt = std::numeric_limits<double>::infinity();
      for (int f : running) dt = std::min(dt, remaining[f] / rate[f]);
      now += dt;
      std::size_t keep = 0;
      std::vector<int> finished;
      for (int f : running) {
        double left = remaining[f] / rate[f] - dt;
        if (left <= kTie * now) {
          active[f] = 0;
          end[f] = now;
          finished.push_back(f);
        } else {
          remaining[f] -= rate[f] * dt;
          running[keep++] = f;
        }
      }
      running.resize(keep);
      // Each finished flow frees its chip for the first of its flows not yet started.
      for (int f : finished) {
        int c = chip_of[f];
        int g = cursor[c];
        if (g >= 0) {
          cursor[c] = next_of[g];
          active[g] = 1;
          running.push_back(g);
        }
      }
    }
    StepTime t;
    for (int f = 0; f < F; ++f) {
      t.time_s = std::max(t.time_s, end[f] + latency[f]);
      t.latency_s = std::max(t.latency_s, latency[f]);
      t.transfer_s = std::max(t.transfer_s, end[f]);
    }
    t.flows = F;
    t.symmetry = symmetry_name(sel.mode);
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_event_backend() { return std::make_unique<EventBackend>(); }

}  // namespace trnsim::collective
