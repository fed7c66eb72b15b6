#include "ui/view/fabric_view.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace trnsim::ui {

namespace {

constexpr double kTwoPi = 6.283185307179586;
using fabric::LinkKind;
using fabric::NodeKind;

using NodeKey = std::tuple<int, long, int>;
NodeKey key(const fabric::Node& n) { return {static_cast<int>(n.kind), n.index, n.domain}; }

struct Builder {
  const hw::System& sys;
  const fabric::Topology& topo;
  FabricLayout& L;
  std::map<NodeKey, std::size_t> node_at;

  void add_node(const fabric::Node& n, FabricPoint p, std::string label) {
    node_at[key(n)] = L.nodes.size();
    L.nodes.push_back(FabricNode{n, p, std::move(label)});
  }
  FabricPoint at(const fabric::Node& n) const {
    auto it = node_at.find(key(n));
    return it == node_at.end() ? FabricPoint{} : L.nodes[it->second].p;
  }
  void add_link(fabric::LinkId id, const fabric::LinkEnds& e, std::vector<std::pair<FabricPoint, FabricPoint>> segs,
                float lane = 0) {
    FabricLink l;
    l.id = id;
    l.ends = e;
    l.segments = std::move(segs);
    l.lane = lane;
    l.bandwidth_bytes_per_s = topo.bandwidth(id);
    l.name = topo.link_name(id);
    L.links.push_back(std::move(l));
  }
  // A chip's EFA share: a stub from the chip toward `dir` (out) and back (in).
  template <class Dir>
  void add_efa(fabric::LinkId id, const fabric::LinkEnds& e, Dir dir) {
    const bool out = e.from.kind == NodeKind::chip;
    const FabricPoint p = at(out ? e.from : e.to), d = dir(p), tip{p.x + d.x, p.y + d.y};
    add_link(id, e, {out ? std::make_pair(p, tip) : std::make_pair(tip, p)});
  }
};

void bounds(FabricLayout& L) {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  auto add = [&](FabricPoint p) {
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  };
  for (const auto& n : L.nodes) add(n.p);
  for (const auto& l : L.links)
    for (const auto& s : l.segments) add(s.first), add(s.second);
  const float m = L.chip_size * 1.5f;
  L.lo = {x0 - m, y0 - m};
  L.hi = {x1 + m, y1 + m};
}

void layout_torus(Builder& b, const std::vector<fabric::LinkId>& links) {
  FabricLayout& L = b.L;
  const auto& dims = b.sys.fabric_spec.torus;
  if (dims.empty() || dims.size() > 3) {
    L.error = "a torus of " + std::to_string(dims.size()) + " dimensions is not drawn (1 to 3 are)";
    return;
  }
  int n[3] = {1, 1, 1};
  for (std::size_t d = 0; d < dims.size(); ++d) n[d] = std::max(1, dims[d].size);
  const bool planes = n[2] > 1;
  const float ax = planes ? 100 : 64, by = planes ? 32 : 64, bx = planes ? ax / (n[1] + 0.7f) : 0, H = n[1] * by + 52;
  const FabricPoint v[3] = {{ax, 0}, {bx, by}, {0, H}};
  L.chip_size = std::min(ax, by) * 0.46f;
  const long per = b.sys.chips_per_domain;
  for (long c = L.first_chip; c < L.first_chip + per; ++c) {
    std::vector<int> xyz = b.topo.torus_coordinates(c);
    xyz.resize(3, 0);
    std::string where = std::to_string(xyz[0]) + (dims.size() > 1 ? ", " + std::to_string(xyz[1]) : "") +
                        (dims.size() > 2 ? ", " + std::to_string(xyz[2]) : "");
    b.add_node(fabric::Node{NodeKind::chip, c, L.domain}, FabricPoint{xyz[0] * ax + xyz[1] * bx, xyz[1] * by + xyz[2] * H},
               "chip " + std::to_string(c) + " at (" + where + ")");
  }
  const float efa_len = L.chip_size * 1.1f;
  for (fabric::LinkId id : links) {
    const fabric::LinkEnds e = b.topo.ends(id);
    if (e.kind == LinkKind::efa) {
      b.add_efa(id, e, [efa_len](FabricPoint) { return FabricPoint{efa_len * 0.45f, -efa_len}; });
      continue;
    }
    const int d = e.torus_dim;
    const int a = b.topo.torus_coordinates(e.from.index)[d], z = b.topo.torus_coordinates(e.to.index)[d];
    const FabricPoint pc = b.at(e.from), pn = b.at(e.to);
    if (std::abs(a - z) == 1) {
      b.add_link(id, e, {{pc, pn}});
    } else {  // wrap-around: leaves one edge, re-enters the other
      const float k = 0.42f * (e.plus ? 1 : -1);
      b.add_link(id, e, {{pc, {pc.x + v[d].x * k, pc.y + v[d].y * k}}, {{pn.x - v[d].x * k, pn.y - v[d].y * k}, pn}});
    }
  }
  std::string shape;
  for (std::size_t d = 0; d < dims.size(); ++d) shape += (d ? " x " : "") + std::to_string(n[d]);
  L.caption = shape + " torus, " + std::to_string(per) + " chips; wrap-around links leave one edge and re-enter the other";
}

void switch_nodes(Builder& b, int P, int S, int K, float R2) {
  FabricLayout& L = b.L;
  const float R1 = R2 * 0.70f, sector = static_cast<float>(kTwoPi / S);
  const int first_server = b.topo.server_of(L.first_chip);
  for (int s = 0; s < S; ++s) {
    const double th = sector * (s + 0.5) - kTwoPi / 4;
    const int server = first_server + s;
    for (int i = 0; i < P; ++i) {
      const double t = th + sector * 0.8 * ((i + 0.5) / P - 0.5);
      const long c = L.first_chip + static_cast<long>(s) * P + i;
      b.add_node(fabric::Node{NodeKind::chip, c, L.domain},
                 FabricPoint{static_cast<float>(R2 * std::cos(t)), static_cast<float>(R2 * std::sin(t))},
                 "chip " + std::to_string(c) + " (server " + std::to_string(server) + ", position " + std::to_string(i) + ")");
    }
    b.add_node(fabric::Node{NodeKind::l1_switch, server, L.domain},
               FabricPoint{static_cast<float>(R1 * std::cos(th)), static_cast<float>(R1 * std::sin(th))},
               "server " + std::to_string(server) + ": first-level switch");
  }
  for (int k = 0; k < K; ++k) {
    const double th = kTwoPi * k / K;
    const float r = K > 1 ? R2 * 0.13f : 0;
    b.add_node(fabric::Node{NodeKind::l2_switch, k, L.domain},
               FabricPoint{static_cast<float>(r * std::cos(th)), static_cast<float>(r * std::sin(th))},
               "second-level switch " + std::to_string(k));
  }
}

void layout_switch(Builder& b, const std::vector<fabric::LinkId>& links) {
  FabricLayout& L = b.L;
  const hw::FabricSpec& f = b.sys.fabric_spec;
  const int P = std::max(1, b.sys.chips_per_server);
  const int S = std::max(1, b.sys.chips_per_domain / P);
  const int K = S > 1 ? std::max(0, f.l2_switches) : 0;
  const float R2 = std::max(230.0f, static_cast<float>(S * P * 24 / kTwoPi));
  L.chip_size = std::min(14.0f, static_cast<float>(R2 * kTwoPi / S * 0.8 / P * 0.8));
  switch_nodes(b, P, S, K, R2);
  const float efa_len = L.chip_size * 2.2f;
  auto radial = [efa_len](FabricPoint p) {
    const float r = std::sqrt(p.x * p.x + p.y * p.y);
    return r > 0 ? FabricPoint{p.x / r * efa_len, p.y / r * efa_len} : FabricPoint{0, -efa_len};
  };
  for (fabric::LinkId id : links) {
    const fabric::LinkEnds e = b.topo.ends(id);
    if (e.kind == LinkKind::efa) b.add_efa(id, e, radial);
    else b.add_link(id, e, {{b.at(e.from), b.at(e.to)}}, e.kind == LinkKind::lanes ? 2.0f : 0.0f);
  }
  int used_l2 = 0;
  for (int k = 0; k < K; ++k)
    for (const auto& l : L.links)
      if (l.ends.to.kind == NodeKind::l2_switch && l.ends.to.index == k) {
        ++used_l2;
        break;
      }
  L.caption = std::to_string(S) + " servers x " + std::to_string(P) + " chips, first-level switch per server, " +
              std::to_string(K) + " second-level switches" + (used_l2 < K ? " (" + std::to_string(used_l2) + " used by routes)" : "") +
              (f.shared_chip_port ? " (shared chip port)" : " (separate lanes)");
}

}  // namespace

FabricLayout layout_fabric(const hw::System& sys, int domain) {
  FabricLayout L;
  L.kind = sys.fabric_spec.kind;
  L.domain = domain;
  L.domains = std::max(1, sys.domains);
  if (L.kind == "none" || sys.chips_per_domain < 2) {
    L.error = sys.display_name + " is a single chip: it has no chip-to-chip fabric";
    return L;
  }
  try {
    const fabric::Topology topo(sys);
    const std::vector<fabric::LinkId> links = topo.domain_links(domain);
    L.domains = topo.domains();
    L.first_chip = static_cast<long>(domain) * sys.chips_per_domain;
    Builder b{sys, topo, L, {}};
    if (L.kind == "torus") layout_torus(b, links);
    else if (L.kind == "switch") layout_switch(b, links);
    else L.error = "fabric kind '" + L.kind + "' is not drawn";
    if (L.domains > 1)
      L.caption += "; domain " + std::to_string(domain) + " of " + std::to_string(L.domains) +
                   ", stubs: each chip's EFA share toward the other " + std::to_string(L.domains - 1) + " UltraServers";
  } catch (const InputError& e) {
    L.error = e.what();
  }
  if (L.error.empty()) bounds(L);
  return L;
}

double FabricLoads::busy_s(const FabricLink& l) const {
  auto it = traffic.bytes.find(l.id);
  return it == traffic.bytes.end() ? -1 : it->second / l.bandwidth_bytes_per_s;
}

double FabricLoads::utilization(const FabricLink& l) const {
  if (!traffic.bytes.count(l.id)) return -1;
  if (!(traffic.result.time_s > 0) || !(l.bandwidth_bytes_per_s > 0)) return 0;
  return busy_s(l) / traffic.result.time_s;
}

FabricLoads fabric_loads(const hw::System& sys, const collective::Request& req, int domain) {
  FabricLoads out;
  out.request = req;
  try {
    collective::TrafficOptions opt;
    opt.domain = domain;
    out.traffic = collective::link_traffic(sys, req, opt);
    const collective::Traffic& t = out.traffic;
    const long lo = static_cast<long>(domain) * sys.chips_per_domain, hi = lo + sys.chips_per_domain;
    for (long r = 0; r < t.ranks; ++r) {
      const long c = t.first_chip + r * t.stride;
      if (c >= lo && c < hi) out.members.push_back(c);
    }
    const fabric::Topology topo(sys);
    if (t.result.time_s > 0)
      for (const auto& [id, bytes] : t.bytes)
        out.max_utilization = std::max(out.max_utilization, bytes / topo.bandwidth(id) / t.result.time_s);
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

// ---- which collective -----------------------------------------------------------------------

std::vector<WorkloadCollective> workload_collectives(const workload::Result& r) {
  std::vector<WorkloadCollective> out;
  for (const auto& ph : r.phases)
    for (const auto& o : ph.ops) {
      if (o.category != price::Category::fabric || o.fabric_bytes <= 0 || o.collective.ranks < 2) continue;
      out.push_back(WorkloadCollective{ph.name + ": " + o.name, o.collective, o.time_s, o.total_s()});
    }
  std::stable_sort(out.begin(), out.end(),
                   [](const WorkloadCollective& a, const WorkloadCollective& b) { return a.total_s > b.total_s; });
  return out;
}

const WorkloadCollective* default_collective(const std::vector<WorkloadCollective>& list, int chips_per_domain) {
  for (const auto& c : list)
    if (static_cast<long>(c.request.ranks - 1) * c.request.stride < chips_per_domain) return &c;
  return list.empty() ? nullptr : &list.front();
}

collective::Request fit_request(collective::Request r, const hw::System& sys, std::string& note) {
  note.clear();
  const long stride = std::max(1, r.stride);
  if (static_cast<long>(r.ranks - 1) * stride + 1 > sys.chips) {
    r.ranks = static_cast<int>(std::max<long>(2, (sys.chips - 1) / stride + 1));
    note = "group trimmed to " + std::to_string(r.ranks) + " ranks to fit this system";
  }
  return r;
}

}  // namespace trnsim::ui
