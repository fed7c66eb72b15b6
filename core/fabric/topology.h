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
//    bandwidth / l2_switches. A flow between servers is sprayed evenly over every
//    second-level switch: each switch's uplink and downlink carry 1 / l2_switches of its
//    bytes (packet spraying / ECMP over the switch plane). This is the modelled rule, an
//    assumption: the real assignment of flows or packets to NeuronSwitch ports is not
//    published. It keeps the second level non-blocking, as the data's uplinks are sized
//    to be, for any chips per server and any subset of a server's chips (a single switch
//    per flow cannot: three chips' flows over two switches put two on one). Switches
//    themselves are non-blocking (assumption).
//    Without a shared chip port (the PCIe view of S2) traffic between servers uses its
//    own chip links.
//  - EFA between domains: each chip owns an egress and an ingress share of the NIC
//    (per-chip bandwidth), and the network beyond the NICs is non-blocking (assumption:
//    the UltraCluster topology is not published).
// Does NOT model: packets (a sprayed flow is split exactly, with no reordering cost),
// credit flow control, adaptive routing, link failures, the direct links between racks of
// S2's PCIe view, congestion inside the EFA network.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/system.h"

namespace trnsim::fabric {

using LinkId = std::uint64_t;

// The fabric as a graph, for views and tests: every directed link joins two nodes.
enum class NodeKind {
  chip,       // index: the chip
  l1_switch,  // index: the server whose first-level switch (or PCIe switch) it is
  l2_switch,  // index: the second-level switch of its domain, 0 .. l2_switches - 1
  efa,        // the EFA network beyond the NICs (one node, non-blocking; domain -1)
};
struct Node {
  NodeKind kind = NodeKind::chip;
  long index = 0;
  int domain = 0;  // the scale-up domain it belongs to (-1 for efa)
  bool operator==(const Node& o) const { return kind == o.kind && index == o.index && domain == o.domain; }
  bool operator!=(const Node& o) const { return !(*this == o); }
};
enum class LinkKind {
  torus,      // chip -> neighbouring chip
  chip_port,  // chip <-> its server's first-level switch (all traffic when the chip port is shared)
  lanes,      // chip <-> its server's switch, separate lanes toward the second level (PCIe view)
  uplink,     // first-level switch <-> second-level switch (a server's uplink share)
  efa,        // chip <-> the EFA network (the chip's NIC share)
};
struct LinkEnds {
  Node from, to;
  LinkKind kind = LinkKind::torus;
  int torus_dim = -1;  // torus: the dimension
  bool plus = true;    // torus: the + direction
};
const char* node_kind_name(NodeKind kind);  // "chip", "l1_switch", "l2_switch", "efa"
const char* link_kind_name(LinkKind kind);  // "torus", "chip_port", "lanes", "uplink", "efa"

// One link of a route and the share of the flow's bytes it carries: 1, or 1 / l2_switches
// on each second-level switch's uplink and downlink of a sprayed flow between servers. A
// link's share is the same on every route that crosses it (the event backend relies on it).
struct Hop {
  LinkId link = 0;
  double share = 1;
};

class Topology {
 public:
  explicit Topology(const hw::System& system);

  long chips() const { return chips_; }
  int chips_per_domain() const { return per_domain_; }
  int chips_per_server() const { return per_server_; }
  int domain_of(long chip) const { return static_cast<int>(chip / per_domain_); }
  int server_of(long chip) const { return static_cast<int>(chip / per_server_); }

  // Appends the hops of the route src -> dst (src != dst) and returns the path latency.
  // Hops are in path order; the sprayed stretch between servers lists, for each
  // second-level switch k in turn, the uplink to k then k's downlink (each 1 / l2_switches).
  // Every node a route enters it leaves with the same share (tests check this).
  double route(long src, long dst, std::vector<Hop>& hops) const;
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

  // ---- the links as a graph (what the Fabric view draws; tests check it against route) ----
  int domains() const { return static_cast<int>(chips_ / per_domain_); }
  // The endpoints of a link: consecutive links of a route join (the first leaves the
  // source chip, the last enters the destination chip).
  LinkEnds ends(LinkId link) const;
  int domain_of_link(LinkId link) const { return domain_of(static_cast<long>(link / static_cast<LinkId>(ports_))); }
  // Exactly the links routes can use that belong to domain d: its chips' torus links or
  // switch ports, its servers' uplinks, and (more than one domain) its chips' EFA shares.
  // Sorted. Links no route takes (the + and - link of a two-chip ring the tie rule leaves
  // unused) are not listed.
  std::vector<LinkId> domain_links(int domain) const;
  // Torus: the chip's coordinates in its domain, dimension 0 first; empty otherwise.
  std::vector<int> torus_coordinates(long chip) const;

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
  void torus_links(long chip, std::vector<LinkId>& out) const;
  void switch_links(long chip, std::vector<LinkId>& out) const;
  double route_in_domain(long src, long dst, std::vector<Hop>& hops) const;

  hw::FabricSpec spec_;
  enum class Kind { none, torus, sw } kind_ = Kind::none;
  std::vector<double> port_bandwidth_;  // bytes/s by port
  long chips_ = 0;
  int per_domain_ = 1, per_server_ = 1;
  int ports_ = 0;
  std::vector<int> dim_stride_;  // torus: chip-index stride of each dimension
  double l2_share_ = 1;          // switch: a sprayed flow's share on each second-level switch
};

}  // namespace trnsim::fabric
