// collective::link_traffic: see collective/collective.h. Only the subgroups with a member
// in the chosen domain are routed: a link of a domain is used only by flows that start or
// end there (routes stay inside their domains; EFA links belong to the sending or the
// receiving chip).
#include <algorithm>
#include <set>

#include "collective/algorithms.h"
#include "collective/schedule.h"

namespace trnsim::collective {

namespace {

// The subgroup of `step` that holds rank r (schedule.h: rank(g, m) = (g / ms) (S ms) + g % ms + m ms).
long group_of(const Step& step, long ranks, long r) {
  const long S = step.group_size > 0 ? step.group_size : ranks;
  const long ms = step.member_stride, block = S * ms;
  return (r / block) * ms + (r % block) % ms;
}

// The ranks whose chips lie in the domain [lo, hi) (rank r is on chip first_chip + (r / L) x stride).
std::pair<long, long> ranks_in(long lo, long hi, const Traffic& t, long L) {
  const long first = std::max(0L, (lo - t.first_chip + t.stride - 1) / t.stride) * L;
  const long last = std::min(t.ranks - 1, ((hi - 1 - t.first_chip) / t.stride) * L + L - 1);
  return {first, last};
}

}  // namespace

Traffic link_traffic(const hw::System& system, const Request& req, const TrafficOptions& opt) {
  Traffic t;
  t.result = run(system, req);
  const Planned plan = plan_request(system, req);
  const fabric::Topology topo(system);
  if (opt.domain < 0 || opt.domain >= topo.domains())
    throw InputError("domain", "must be 0 to " + std::to_string(topo.domains() - 1) + ", got " + std::to_string(opt.domain));
  const long per = system.chips_per_domain;
  t.ranks = plan.ranks;
  t.stride = plan.stride;
  const long L = plan.ranks_per_chip;
  t.first_chip = (t.ranks / L - 1) * t.stride < per ? static_cast<long>(opt.domain) * per : 0;
  if (t.ranks < 2) return t;
  const long lo = static_cast<long>(opt.domain) * per, hi = lo + per;
  const auto [r0, r1] = ranks_in(lo, hi, t, L);

  // The subgroups to route, per step, and how many flows that is.
  std::vector<std::set<long>> groups(plan.schedule.steps.size());
  double total = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const Step& st = plan.schedule.steps[i];
    for (long r = r0; r <= r1; ++r) groups[i].insert(group_of(st, t.ranks, r));
    total += flows_in_group(st, t.ranks) * static_cast<double>(groups[i].size());
  }
  if (total > opt.max_flows)
    throw InputError("ranks", "this collective routes " + std::to_string(static_cast<long long>(total)) +
                                  " flows through the domain; more than the limit of " +
                                  std::to_string(static_cast<long long>(opt.max_flows)));

  std::vector<fabric::Hop> route;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const Step& st = plan.schedule.steps[i];
    const double bytes = st.bytes * static_cast<double>(st.repeat);
    for (long g : groups[i])
      for_each_flow_in_group(st, t.ranks, g, [&](long s, long d) {
        const long cs = t.first_chip + s / L * t.stride, cd = t.first_chip + d / L * t.stride;
        if (cs == cd) return;  // between ranks of one chip: no link
        const bool from_here = cs >= lo && cs < hi, to_here = cd >= lo && cd < hi;
        if (!from_here && !to_here) return;  // a member elsewhere talking to another one elsewhere
        route.clear();
        topo.route(cs, cd, route);
        t.flows += 1;
        if (from_here && !to_here) t.efa_bytes_out += bytes;
        for (const fabric::Hop& h : route)  // a sprayed flow: its share on each switch's links
          if (topo.domain_of_link(h.link) == opt.domain) t.bytes[h.link] += bytes * h.share;
      });
  }
  return t;
}

}  // namespace trnsim::collective
