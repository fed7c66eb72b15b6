#include "ui/fabric_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "collective/algorithms.h"
#include "collective/schedule.h"
#include "common/error.h"

namespace trnsim::ui {

namespace {

constexpr double kTwoPi = 6.283185307179586;

void bounds(FabricLayout& L) {
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  auto add = [&](FabricPoint p) {
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  };
  for (const auto& n : L.nodes) add(n.p);
  for (const auto& l : L.links)
    for (const auto& s : l.segments) add(s.first), add(s.second);
  float m = L.chip_size * 1.5f;
  L.lo = {x0 - m, y0 - m};
  L.hi = {x1 + m, y1 + m};
}

void add_link(FabricLayout& L, std::set<fabric::LinkId>& seen, const fabric::Topology& topo, fabric::LinkId id,
              std::vector<std::pair<FabricPoint, FabricPoint>> segments, float lane = 0) {
  if (!seen.insert(id).second) return;
  FabricLink l;
  l.id = id;
  l.segments = std::move(segments);
  l.lane = lane;
  l.bandwidth_bytes_per_s = topo.bandwidth(id);
  l.name = topo.link_name(id);
  L.links.push_back(std::move(l));
}

void layout_torus(const hw::System& sys, const fabric::Topology& topo, FabricLayout& L) {
  const auto& dims = sys.fabric_spec.torus;
  if (dims.empty() || dims.size() > 3) {
    L.error = "a torus of " + std::to_string(dims.size()) + " dimensions is not drawn (1 to 3 are)";
    return;
  }
  int n[3] = {1, 1, 1};
  for (std::size_t d = 0; d < dims.size(); ++d) n[d] = std::max(1, dims[d].size);
  long per = sys.chips_per_domain;
  const bool planes = n[2] > 1;
  const float ax = planes ? 100 : 64, by = planes ? 32 : 64, bx = planes ? ax / (n[1] + 0.7f) : 0, H = n[1] * by + 52;
  const FabricPoint v[3] = {{ax, 0}, {bx, by}, {0, H}};
  auto pos = [&](long c) {
    long x = c % n[0], y = (c / n[0]) % n[1], z = c / (n[0] * n[1]);
    return FabricPoint{x * ax + y * bx, y * by + z * H};
  };
  L.chip_size = std::min(ax, by) * 0.46f;
  for (long c = 0; c < per; ++c) {
    FabricNode node;
    node.kind = FabricNode::chip;
    node.p = pos(c);
    node.chip_index = c;
    node.server = static_cast<int>(c / std::max(1, sys.chips_per_server));
    long x = c % n[0], y = (c / n[0]) % n[1], z = c / (n[0] * n[1]);
    node.label = "chip " + std::to_string(c) + " at (" + std::to_string(x) + ", " + std::to_string(y) +
                 (dims.size() > 2 ? ", " + std::to_string(z) : std::string()) + ")";
    L.nodes.push_back(node);
  }
  std::set<fabric::LinkId> seen;
  std::vector<fabric::LinkId> route;
  long stride[3] = {1, n[0], static_cast<long>(n[0]) * n[1]};
  for (long c = 0; c < per; ++c) {
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (n[d] < 2) continue;
      long a = (c / stride[d]) % n[d];
      for (int sgn : {+1, -1}) {
        long b = ((a + sgn) % n[d] + n[d]) % n[d];
        long nb = c + (b - a) * stride[d];
        route.clear();
        topo.route(c, nb, route);
        if (route.size() != 1) continue;
        bool wrap = (sgn > 0 && a == n[d] - 1) || (sgn < 0 && a == 0);
        FabricPoint pc = pos(c), pn = pos(nb);
        if (!wrap || n[d] == 2) {
          add_link(L, seen, topo, route[0], {{pc, pn}});
        } else {
          const float k = 0.42f * sgn;
          FabricPoint out{pc.x + v[d].x * k, pc.y + v[d].y * k}, in{pn.x - v[d].x * k, pn.y - v[d].y * k};
          add_link(L, seen, topo, route[0], {{pc, out}, {in, pn}});
        }
      }
    }
  }
  std::string shape;
  for (std::size_t d = 0; d < dims.size(); ++d) shape += (d ? " x " : "") + std::to_string(n[d]);
  L.caption = shape + " torus, " + std::to_string(per) + " chips; wrap-around links leave one edge and re-enter the other";
}

void layout_switch(const hw::System& sys, const fabric::Topology& topo, FabricLayout& L) {
  const hw::FabricSpec& f = sys.fabric_spec;
  const int P = std::max(1, sys.chips_per_server);
  const int S = std::max(1, sys.chips_per_domain / P);
  const int K = std::max(0, f.l2_switches);
  const float pitch = 24;
  const float R2 = std::max(230.0f, static_cast<float>(S * P * pitch / kTwoPi));
  const float R1 = R2 * 0.70f;
  const float sector = static_cast<float>(kTwoPi / S);
  float spacing = R2 * sector * 0.8f / P;
  L.chip_size = std::min(14.0f, spacing * 0.8f);
  std::vector<int> l1(S), l2(K);
  for (int s = 0; s < S; ++s) {
    double th = sector * (s + 0.5) - kTwoPi / 4;
    for (int i = 0; i < P; ++i) {
      double t = th + sector * 0.8 * ((i + 0.5) / P - 0.5);
      FabricNode node;
      node.kind = FabricNode::chip;
      node.p = {static_cast<float>(R2 * std::cos(t)), static_cast<float>(R2 * std::sin(t))};
      node.chip_index = static_cast<long>(s) * P + i;
      node.server = s;
      node.label = "chip " + std::to_string(node.chip_index) + " (server " + std::to_string(s) + ")";
      L.nodes.push_back(node);
    }
  }
  for (int s = 0; s < S; ++s) {
    double th = sector * (s + 0.5) - kTwoPi / 4;
    FabricNode node;
    node.kind = FabricNode::l1_switch;
    node.p = {static_cast<float>(R1 * std::cos(th)), static_cast<float>(R1 * std::sin(th))};
    node.server = s;
    node.label = "server " + std::to_string(s) + ": first-level switch";
    l1[s] = static_cast<int>(L.nodes.size());
    L.nodes.push_back(node);
  }
  for (int k = 0; k < K; ++k) {
    double th = kTwoPi * k / K;
    float r = K > 1 ? R2 * 0.13f : 0;
    FabricNode node;
    node.kind = FabricNode::l2_switch;
    node.p = {static_cast<float>(r * std::cos(th)), static_cast<float>(r * std::sin(th))};
    node.switch_index = k;
    node.label = "second-level switch " + std::to_string(k);
    l2[k] = static_cast<int>(L.nodes.size());
    L.nodes.push_back(node);
  }
  std::set<fabric::LinkId> seen;
  std::vector<fabric::LinkId> r;
  const long per = static_cast<long>(S) * P;
  for (long c = 0; c < per; ++c) {
    int s = static_cast<int>(c / P);
    FabricPoint pc = L.nodes[c].p, ps = L.nodes[l1[s]].p;
    if (per < 2) break;
    long other = P > 1 ? (c % P == 0 ? c + 1 : c - 1) : (c + P) % per;
    r.clear();
    topo.route(c, other, r);
    if (!r.empty()) add_link(L, seen, topo, r.front(), {{pc, ps}});
    r.clear();
    topo.route(other, c, r);
    if (!r.empty()) add_link(L, seen, topo, r.back(), {{ps, pc}});
    if (!f.shared_chip_port && S > 1) {  // separate lanes toward the second level (PCIe view)
      long far = (c + P) % per;
      r.clear();
      topo.route(c, far, r);
      if (!r.empty()) add_link(L, seen, topo, r.front(), {{pc, ps}}, 2);
      r.clear();
      topo.route(far, c, r);
      if (!r.empty()) add_link(L, seen, topo, r.back(), {{ps, pc}}, 2);
    }
  }
  if (S > 1 && K > 0) {
    for (int s = 0; s < S; ++s) {
      int t = (s + 1) % S;
      for (int i = 0; i < P; ++i)
        for (int j = 0; j < P; ++j) {
          long src = static_cast<long>(s) * P + i, dst = static_cast<long>(t) * P + j;
          r.clear();
          topo.route(src, dst, r);
          if (r.size() != 4) continue;
          int k = static_cast<int>((src + dst) % K);
          add_link(L, seen, topo, r[1], {{L.nodes[l1[s]].p, L.nodes[l2[k]].p}});
          add_link(L, seen, topo, r[2], {{L.nodes[l2[k]].p, L.nodes[l1[t]].p}});
        }
    }
  }
  L.caption = std::to_string(S) + " servers x " + std::to_string(P) + " chips, first-level switch per server, " +
              std::to_string(K) + " second-level switches" + (f.shared_chip_port ? " (shared chip port)" : " (separate lanes)");
}

// EFA of a cluster: per chip of the first domain, its NIC share out and in, drawn as a
// short stub leaving the chip in direction `dir(chip position)`.
template <class Dir>
void add_efa(const hw::System& sys, const fabric::Topology& topo, FabricLayout& L, Dir dir) {
  if (sys.domains < 2) return;
  std::set<fabric::LinkId> seen;
  for (const auto& l : L.links) seen.insert(l.id);
  std::vector<fabric::LinkId> r;
  const long per = sys.chips_per_domain;
  for (const auto& n : L.nodes) {
    if (n.kind != FabricNode::chip) continue;
    long c = n.chip_index, far = c + per;
    FabricPoint d = dir(n.p), tip{n.p.x + d.x, n.p.y + d.y};
    r.clear();
    topo.route(c, far, r);
    if (!r.empty()) add_link(L, seen, topo, r.front(), {{n.p, tip}});
    r.clear();
    topo.route(far, c, r);
    if (!r.empty()) add_link(L, seen, topo, r.back(), {{tip, n.p}});
  }
  L.caption += "; stubs: each chip's EFA share toward the other " + std::to_string(sys.domains - 1) + " UltraServers";
}

}  // namespace

FabricLayout layout_fabric(const hw::System& sys) {
  FabricLayout L;
  L.kind = sys.fabric_spec.kind;
  if (L.kind == "none" || sys.chips_per_domain < 2) {
    L.error = sys.display_name + " is a single chip: it has no chip-to-chip fabric";
    return L;
  }
  try {
    fabric::Topology topo(sys);
    if (L.kind == "torus") {
      layout_torus(sys, topo, L);
      const float len = L.chip_size * 1.1f;
      add_efa(sys, topo, L, [len](FabricPoint) { return FabricPoint{len * 0.45f, -len}; });
    } else if (L.kind == "switch") {
      layout_switch(sys, topo, L);
      add_efa(sys, topo, L, [&L](FabricPoint p) {
        float r = std::sqrt(p.x * p.x + p.y * p.y), len = L.chip_size * 2.2f;
        return r > 0 ? FabricPoint{p.x / r * len, p.y / r * len} : FabricPoint{0, -len};
      });
    } else {
      L.error = "fabric kind '" + L.kind + "' is not drawn";
    }
  } catch (const InputError& e) {
    L.error = e.what();
  }
  if (L.error.empty()) bounds(L);
  return L;
}

LinkLoads link_loads(const hw::System& sys, const collective::Request& req) {
  LinkLoads out;
  out.request = req;
  try {
    out.result = collective::run(sys, req);
    fabric::Topology topo(sys);
    long stride = std::max(1, req.stride);
    long ranks = req.ranks == 0 ? (static_cast<long>(sys.chips) + stride - 1) / stride : req.ranks;
    out.ranks = ranks;
    for (long r = 0; r < ranks; ++r)
      if (r * stride < sys.chips_per_domain) out.member_chips.push_back(r * stride);
    if (ranks < 2) return out;
    auto per = [&](long block) -> long {
      if (block % stride == 0) return block / stride;
      if (stride % block == 0) return 1;
      return 0;
    };
    collective::Layout layout;
    layout.ranks = ranks;
    layout.ranks_per_domain = per(sys.chips_per_domain);
    layout.ranks_per_server = per(sys.chips_per_server);
    collective::Schedule sched = collective::build_schedule(req.op, req.algo, req.bytes, layout);
    double total = 0;
    for (const auto& st : sched.steps) total += collective::flows_in_step(st, ranks);
    if (total > 2e6) {
      out.error = "this collective has " + std::to_string(static_cast<long long>(total)) +
                  " flows; more than the page draws flow by flow (2 million)";
      return out;
    }
    std::vector<fabric::LinkId> route;
    for (const auto& st : sched.steps) {
      const double b = st.bytes * static_cast<double>(st.repeat);
      const long groups = collective::subgroups(st, ranks);
      for (long g = 0; g < groups; ++g) {
        collective::for_each_flow_in_group(st, ranks, g, [&](long s, long d) {
          long cs = s * stride, cd = d * stride;
          if (cs == cd) return;
          route.clear();
          topo.route(cs, cd, route);
          out.flows += 1;
          if (topo.domain_of(cs) != topo.domain_of(cd)) out.efa_bytes += b;
          for (auto id : route)
            if (topo.to_domain0(id) == id) out.bytes[id] += b;
        });
      }
    }
    if (out.result.time_s > 0)
      for (const auto& kv : out.bytes) {
        double bw = topo.bandwidth(kv.first);
        if (bw > 0) out.max_utilization = std::max(out.max_utilization, kv.second / bw / out.result.time_s);
      }
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace trnsim::ui
