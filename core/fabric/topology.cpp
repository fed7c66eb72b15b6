#include "fabric/topology.h"

namespace trnsim::fabric {

Topology::Topology(const hw::System& system) : spec_(system.fabric_spec) {
  chips_ = system.chips;
  per_domain_ = system.chips_per_domain;
  per_server_ = system.chips_per_server;
  if (static_cast<int>(spec_.torus.size()) > kMaxTorusDims)
    throw InputError("fabric.torus", "at most " + std::to_string(kMaxTorusDims) + " dimensions");
  ports_ = kTorus + 2 * kMaxTorusDims + 2 * (spec_.l2_switches > 0 ? spec_.l2_switches : 0);
  int stride = 1;
  for (const auto& d : spec_.torus) {
    dim_stride_.push_back(stride);
    stride *= d.size;
  }
  kind_ = spec_.kind == "torus" ? Kind::torus : spec_.kind == "switch" ? Kind::sw : Kind::none;
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

double Topology::route_in_domain(long src, long dst, std::vector<LinkId>& links) const {
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
      int hops = plus ? fwd : back;
      for (int h = 0; h < hops; ++h) {
        links.push_back(id(cur, kTorus + 2 * static_cast<int>(d) + (plus ? 0 : 1)));
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
      links.push_back(id(src, kSwitchOut));
      links.push_back(id(dst, kSwitchIn));
      return spec_.l1_latency_s;
    }
    // Second-level switch by the source chip's position in its server (an assumption: the
    // real port assignment is not published). Spreads both directions of a ring crossing a
    // server boundary, and every chip's all-to-all traffic, evenly over the switches;
    // (src + dst) % n sent every ring crossing through the same switch.
    int k = static_cast<int>((src % per_server_) % spec_.l2_switches);
    bool shared = spec_.shared_chip_port;
    links.push_back(id(src, shared ? kSwitchOut : kUpOut));
    links.push_back(id(s_server * per_server_, uplink_port(k, false)));
    links.push_back(id(d_server * per_server_, uplink_port(k, true)));
    links.push_back(id(dst, shared ? kSwitchIn : kUpIn));
    return 2 * spec_.l1_latency_s + spec_.l2_latency_s;
  }
  throw InputError("fabric", "a single chip has no chip-to-chip fabric");
}

double Topology::route(long src, long dst, std::vector<LinkId>& links) const {
  if (domain_of(src) == domain_of(dst)) return route_in_domain(src, dst, links);
  links.push_back(id(src, kEfaOut));
  links.push_back(id(dst, kEfaIn));
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
