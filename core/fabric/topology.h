// The scale-up fabric of a system and EFA between its domains, as directed links with
// bandwidths and latencies (from the system's FabricSpec, core/data/systems/*.json).
//
// Models:
//  - torus (trn2.48xlarge 4x4, Trn2 UltraServer 4x4x4, S6/S12): one directed link per
//    neighbour and direction; dimension-order shortest-path routing (ties: + for even
//    coordinates, - for odd, so both directions are used).
//  - switch (Trn3 NeuronSwitch-v1, S2): every chip has a port to its server's first-level
//    switch (one link each way); servers reach each other through l2_switches second-
//    level switches over per-server uplinks sized chips_per_server x inter-server
//    bandwidth / l2_switches; a flow between servers uses second-level switch
//    (src + dst) mod l2_switches. Switches themselves are non-blocking (assumption).
//    Without a shared chip port (the PCIe view of S2) traffic between servers uses its
//    own chip links.
//  - EFA between domains: each chip owns an egress and an ingress share of the NIC
//    (per-chip bandwidth), and the network beyond the NICs is non-blocking (assumption:
//    the UltraCluster topology is not published).
// Does NOT model: packets, credit flow control, adaptive routing, link failures, the
// direct links between racks of S2's PCIe view, congestion inside the EFA network.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/system.h"

namespace trnsim::fabric {

using LinkId = std::uint64_t;

class Topology {
 public:
  explicit Topology(const hw::System& system);

  long chips() const { return chips_; }
  int chips_per_domain() const { return per_domain_; }
  int chips_per_server() const { return per_server_; }
  int domain_of(long chip) const { return static_cast<int>(chip / per_domain_); }
  int server_of(long chip) const { return static_cast<int>(chip / per_server_); }

  // Appends the links of the route src -> dst (src != dst) and returns the path latency.
  double route(long src, long dst, std::vector<LinkId>& links) const;
  double bandwidth(LinkId link) const;  // bytes/s, one direction
  std::string link_name(LinkId link) const;
  // Every link a route between chips <= max_chip can use has an id below this bound (for
  // dense arrays): routes stay inside their domains, so the bound is the end of max_chip's.
  LinkId link_id_bound(long max_chip) const {
    long end = std::min(chips_, (max_chip / per_domain_ + 1) * static_cast<long>(per_domain_));
    return static_cast<LinkId>(end) * static_cast<LinkId>(ports_);
  }
  // The same link in domain 0 (domains are identical; used to fold huge clusters).
  LinkId to_domain0(LinkId link) const;

 private:
  enum Port : int {
    kEfaOut = 0, kEfaIn = 1,
    kSwitchOut = 2, kSwitchIn = 3,     // chip <-> first-level switch (all traffic, or intra-server)
    kUpOut = 4, kUpIn = 5,             // chip <-> second level (separate lanes, PCIe view)
    kTorus = 6,                        // + 2*dim + (0: + direction, 1: - direction)
  };
  // Server uplinks to second-level switch k: kTorus + 12 + 2k (up), + 1 (down), on the
  // server's first chip.
  static constexpr int kMaxTorusDims = 6;
  int uplink_port(int k, bool down) const { return kTorus + 2 * kMaxTorusDims + 2 * k + (down ? 1 : 0); }
  LinkId id(long chip, int port) const { return static_cast<LinkId>(chip) * ports_ + static_cast<LinkId>(port); }
  double route_in_domain(long src, long dst, std::vector<LinkId>& links) const;

  hw::FabricSpec spec_;
  enum class Kind { none, torus, sw } kind_ = Kind::none;
  std::vector<double> port_bandwidth_;  // bytes/s by port
  long chips_ = 0;
  int per_domain_ = 1, per_server_ = 1;
  int ports_ = 0;
  std::vector<int> dim_stride_;  // torus: chip-index stride of each dimension
};

}  // namespace trnsim::fabric
