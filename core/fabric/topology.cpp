#include "fabric/topology.h"

#include <algorithm>

namespace trnsim::fabric {

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::chip: return "chip";
    case NodeKind::l1_switch: return "l1_switch";
    case NodeKind::l2_switch: return "l2_switch";
    case NodeKind::efa: return "efa";
  }
  return "?";
}

const char* link_kind_name(LinkKind k) {
  switch (k) {
    case LinkKind::torus: return "torus";
    case LinkKind::chip_port: return "chip_port";
    case LinkKind::lanes: return "lanes";
    case LinkKind::uplink: return "uplink";
    case LinkKind::efa: return "efa";
  }
  return "?";
}

Topology::Topology(const hw::System& system) : spec_(system.fabric_spec) {
  chips_ = system.chips;
  per_domain_ = system.chips_per_domain;
  // Chips under one first-level switch group: a server, or a whole rack whose chips all
  // reach the same switches (FabricSpec::chips_per_l1_switch).
  per_server_ = spec_.kind == "switch" && spec_.chips_per_l1_switch > 0 ? spec_.chips_per_l1_switch : system.chips_per_server;
  if (static_cast<int>(spec_.torus.size()) > kMaxTorusDims)
    throw InputError("fabric.torus", "at most " + std::to_string(kMaxTorusDims) + " dimensions");
  ports_ = kTorus + 2 * kMaxTorusDims + 2 * (spec_.l2_switches > 0 ? spec_.l2_switches : 0);
  int stride = 1;
  for (const auto& d : spec_.torus) {
    dim_stride_.push_back(stride);
    stride *= d.size;
  }
  kind_ = spec_.kind == "torus" ? Kind::torus : spec_.kind == "switch" ? Kind::sw : Kind::none;
  l2_share_ = spec_.l2_switches > 0 ? 1.0 / spec_.l2_switches : 1.0;
  port_bandwidth_.assign(static_cast<std::size_t>(ports_), 0.0);
  port_bandwidth_[kEfaOut] = port_bandwidth_[kEfaIn] = spec_.efa_bandwidth_bytes_per_s_per_chip;
  port_bandwidth_[kSwitchOut] = port_bandwidth_[kSwitchIn] = spec_.intra_server_bandwidth_bytes_per_s;
  port_bandwidth_[kUpOut] = port_bandwidth_[kUpIn] = spec_.inter_server_bandwidth_bytes_per_s;
  for (std::size_t d = 0; d < spec_.torus.size(); ++d)
    port_bandwidth_[kTorus + 2 * d] = port_bandwidth_[kTorus + 2 * d + 1] = spec_.torus[d].link_bandwidth_bytes_per_s;
  for (int k = 0; k < spec_.l2_switches; ++k)
    port_bandwidth_[static_cast<std::size_t>(uplink_port(k, false))] = port_bandwidth_[static_cast<std::size_t>(uplink_port(k, true))] =
        per_server_ * spec_.inter_server_bandwidth_bytes_per_s / spec_.l2_switches;
}

double Topology::route_in_domain(long src, long dst, std::vector<Hop>& hops) const {
  double latency = 0;
  if (kind_ == Kind::torus) {
    long base = src - src % per_domain_;
    long cur = src;
    for (std::size_t d = 0; d < spec_.torus.size(); ++d) {
      const hw::TorusDim& dim = spec_.torus[d];
      int n = dim.size, st = dim_stride_[d];
      int a = static_cast<int>(((cur - base) / st) % n);
      int b = static_cast<int>(((dst - base) / st) % n);
      if (a == b) continue;
      int fwd = (b - a + n) % n, back = n - fwd;
      bool plus = fwd < back || (fwd == back && a % 2 == 0);
      int hops_in_dim = plus ? fwd : back;
      for (int h = 0; h < hops_in_dim; ++h) {
        hops.push_back({id(cur, kTorus + 2 * static_cast<int>(d) + (plus ? 0 : 1)), 1.0});
        latency += dim.link_latency_s;
        int next = plus ? (a + 1) % n : (a - 1 + n) % n;
        cur += static_cast<long>(next - a) * st;
        a = next;
      }
    }
    return latency;
  }
  if (kind_ == Kind::sw) {
    long s_server = src / per_server_, d_server = dst / per_server_;
    if (s_server == d_server) {
      hops.push_back({id(src, kSwitchOut), 1.0});
      hops.push_back({id(dst, kSwitchIn), 1.0});
      return spec_.l1_latency_s;
    }
    // Sprayed over every second-level switch (the modelled rule, see the header).
    // Switch k's uplink and downlink ports are 2k after switch 0's.
    const bool shared = spec_.shared_chip_port;
    const LinkId up = id(s_server * per_server_, uplink_port(0, false));
    const LinkId down = id(d_server * per_server_, uplink_port(0, true));
    const std::size_t at = hops.size();
    hops.resize(at + 2 + 2 * static_cast<std::size_t>(spec_.l2_switches));
    Hop* h = hops.data() + at;
    *h++ = {id(src, shared ? kSwitchOut : kUpOut), 1.0};
    for (LinkId k = 0; k < static_cast<LinkId>(spec_.l2_switches); ++k) {
      *h++ = {up + 2 * k, l2_share_};
      *h++ = {down + 2 * k, l2_share_};
    }
    *h = {id(dst, shared ? kSwitchIn : kUpIn), 1.0};
    return 2 * spec_.l1_latency_s + spec_.l2_latency_s;
  }
  throw InputError("fabric", "a single chip has no chip-to-chip fabric");
}

double Topology::route(long src, long dst, std::vector<Hop>& hops) const {
  if (domain_of(src) == domain_of(dst)) return route_in_domain(src, dst, hops);
  hops.push_back({id(src, kEfaOut), 1.0});
  hops.push_back({id(dst, kEfaIn), 1.0});
  return spec_.efa_latency_s;
}

double Topology::bandwidth(LinkId link) const {
  return port_bandwidth_[static_cast<std::size_t>(link % static_cast<LinkId>(ports_))];
}

LinkId Topology::to_domain0(LinkId link) const {
  LinkId chip = link / static_cast<LinkId>(ports_);
  LinkId port = link % static_cast<LinkId>(ports_);
  return (chip % static_cast<LinkId>(per_domain_)) * static_cast<LinkId>(ports_) + port;
}

std::string Topology::link_name(LinkId link) const {
  long chip = static_cast<long>(link / static_cast<LinkId>(ports_));
  int port = static_cast<int>(link % static_cast<LinkId>(ports_));
  std::string c = "chip " + std::to_string(chip);
  switch (port) {
    case kEfaOut: return c + " EFA out";
    case kEfaIn: return c + " EFA in";
    case kSwitchOut: return c + " -> L1 switch";
    case kSwitchIn: return "L1 switch -> " + c;
    case kUpOut: return c + " -> L2 lanes";
    case kUpIn: return "L2 lanes -> " + c;
    default: break;
  }
  if (port < kTorus + 2 * kMaxTorusDims) {
    int d = (port - kTorus) / 2;
    return c + " torus dim " + std::to_string(d) + ((port - kTorus) % 2 ? " -" : " +");
  }
  int k = (port - kTorus - 2 * kMaxTorusDims) / 2;
  bool down = (port - kTorus - 2 * kMaxTorusDims) % 2;
  std::string server = "server " + std::to_string(chip / per_server_);
  return down ? "L2 switch " + std::to_string(k) + " -> " + server : server + " -> L2 switch " + std::to_string(k);
}

}  // namespace trnsim::fabric

namespace trnsim::fabric {

std::vector<int> Topology::torus_coordinates(long chip) const {
  std::vector<int> c;
  if (kind_ != Kind::torus) return c;
  long local = chip % per_domain_;
  for (std::size_t d = 0; d < spec_.torus.size(); ++d)
    c.push_back(static_cast<int>((local / dim_stride_[d]) % spec_.torus[d].size));
  return c;
}

LinkEnds Topology::ends(LinkId link) const {
  const long chip = static_cast<long>(link / static_cast<LinkId>(ports_));
  const int port = static_cast<int>(link % static_cast<LinkId>(ports_));
  const int dom = domain_of(chip);
  const Node c{NodeKind::chip, chip, dom};
  const Node l1{NodeKind::l1_switch, server_of(chip), dom};
  LinkEnds e;
  switch (port) {
    case kEfaOut: return {c, Node{NodeKind::efa, 0, -1}, LinkKind::efa};
    case kEfaIn: return {Node{NodeKind::efa, 0, -1}, c, LinkKind::efa};
    case kSwitchOut: return {c, l1, LinkKind::chip_port};
    case kSwitchIn: return {l1, c, LinkKind::chip_port};
    case kUpOut: return {c, l1, LinkKind::lanes};
    case kUpIn: return {l1, c, LinkKind::lanes};
    default: break;
  }
  if (port < kTorus + 2 * kMaxTorusDims) {
    const int d = (port - kTorus) / 2;
    const bool plus = (port - kTorus) % 2 == 0;
    const int n = spec_.torus[static_cast<std::size_t>(d)].size, st = dim_stride_[static_cast<std::size_t>(d)];
    const int a = static_cast<int>(((chip % per_domain_) / st) % n);
    const int b = plus ? (a + 1) % n : (a - 1 + n) % n;
    e.from = c;
    e.to = Node{NodeKind::chip, chip + static_cast<long>(b - a) * st, dom};
    e.kind = LinkKind::torus;
    e.torus_dim = d;
    e.plus = plus;
    return e;
  }
  const int k = (port - kTorus - 2 * kMaxTorusDims) / 2;
  const bool down = (port - kTorus - 2 * kMaxTorusDims) % 2 != 0;
  const Node l2{NodeKind::l2_switch, k, dom};
  return down ? LinkEnds{l2, l1, LinkKind::uplink} : LinkEnds{l1, l2, LinkKind::uplink};
}

// A torus link is used when some route starts a hop on it: both directions of a ring of
// three or more; on a ring of two only the direction the tie rule picks (+ from even).
void Topology::torus_links(long chip, std::vector<LinkId>& out) const {
  const std::vector<int> coord = torus_coordinates(chip);
  for (std::size_t d = 0; d < spec_.torus.size(); ++d) {
    const int n = spec_.torus[d].size;
    if (n < 2) continue;
    const int port = kTorus + 2 * static_cast<int>(d);
    if (n > 2 || coord[d] % 2 == 0) out.push_back(id(chip, port));
    if (n > 2 || coord[d] % 2 == 1) out.push_back(id(chip, port + 1));
  }
}

// Switch ports: inside the server when it has several chips; toward the second level over
// the shared port or separate lanes when the domain has several servers. Every flow
// between servers is sprayed over all second-level switches, so a server uses all its
// uplinks and downlinks.
void Topology::switch_links(long chip, std::vector<LinkId>& out) const {
  const bool servers = per_domain_ / per_server_ > 1;
  const bool shared = spec_.shared_chip_port;
  if (per_server_ > 1 || (shared && servers)) {
    out.push_back(id(chip, kSwitchOut));
    out.push_back(id(chip, kSwitchIn));
  }
  if (!servers) return;
  if (!shared) {
    out.push_back(id(chip, kUpOut));
    out.push_back(id(chip, kUpIn));
  }
  if (chip % per_server_ != 0) return;
  for (int k = 0; k < spec_.l2_switches; ++k) {
    out.push_back(id(chip, uplink_port(k, false)));
    out.push_back(id(chip, uplink_port(k, true)));
  }
}

std::vector<LinkId> Topology::domain_links(int domain) const {
  if (domain < 0 || domain >= domains())
    throw InputError("domain", "must be 0 to " + std::to_string(domains() - 1) + ", got " + std::to_string(domain));
  std::vector<LinkId> out;
  const long first = static_cast<long>(domain) * per_domain_;
  for (long c = first; c < first + per_domain_; ++c) {
    if (kind_ == Kind::torus) torus_links(c, out);
    if (kind_ == Kind::sw) switch_links(c, out);
    if (domains() > 1) {
      out.push_back(id(c, kEfaOut));
      out.push_back(id(c, kEfaIn));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace trnsim::fabric
