// What the Fabric panel draws, from the core's fabric and collective seams (no GL, no
// ImGui; tests/unit/test_ui_view.cpp): one scale-up domain of a system laid out in the
// plane with exactly the links its routes use (fabric::Topology::domain_links, endpoints
// from Topology::ends, names from Topology::link_name), and the bytes each link carries
// in one collective (collective::link_traffic: the schedule the backends time, routed by
// the router). Utilization = busy time (bytes / bandwidth) / the collective's time.
//
// Layouts: a torus of up to three dimensions as stacked, sheared planes (dimension 0
// across, 1 diagonally down, 2 as planes one below the other; wrap-around links as stubs
// leaving one edge and entering the opposite one); a NeuronSwitch domain as a wheel --
// servers around a circle, each with its first-level switch inside its chips, and the
// second-level switches the routes use at the hub. In a cluster each chip's EFA share
// (out and in) is a short stub leaving the chip.
// Does NOT draw: the EFA network beyond the NICs (assumed non-blocking by the model).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "collective/collective.h"
#include "fabric/topology.h"
#include "hw/system.h"
#include "workload/workload.h"

namespace trnsim::ui {

struct FabricPoint {
  float x = 0, y = 0;
};

struct FabricNode {
  fabric::Node node;  // chip, first- or second-level switch
  FabricPoint p;
  std::string label;
};

struct FabricLink {
  fabric::LinkId id = 0;
  fabric::LinkEnds ends;
  std::vector<std::pair<FabricPoint, FabricPoint>> segments;  // layout units
  float lane = 0;  // extra sideways offset (in link widths) for parallel lanes
  double bandwidth_bytes_per_s = 0;
  std::string name;  // Topology::link_name
};

struct FabricLayout {
  std::string kind;   // "torus", "switch", "none"
  std::string error;  // why nothing can be drawn
  int domain = 0, domains = 1;
  long first_chip = 0;  // the domain's chips are first_chip .. first_chip + chips_per_domain - 1
  std::vector<FabricNode> nodes;
  std::vector<FabricLink> links;
  FabricPoint lo, hi;    // bounding box (layout units)
  float chip_size = 10;  // glyph size in layout units
  std::string caption;   // "4 x 4 x 4 torus, 64 chips; ..."
};
FabricLayout layout_fabric(const hw::System& system, int domain = 0);

struct FabricLoads {
  std::string error;             // the core's error (the request does not fit, too many flows)
  collective::Request request;
  collective::Traffic traffic;   // bytes per link of the domain, the collective's time
  std::vector<long> members;     // chips of the domain in the group
  double max_utilization = 0;
  double utilization(const FabricLink& link) const;  // -1 when the link carries nothing
  double busy_s(const FabricLink& link) const;       // its bytes at its bandwidth; -1 when it carries nothing
};
FabricLoads fabric_loads(const hw::System& system, const collective::Request& request, int domain = 0);

// ---- which collective ---------------------------------------------------------------------
// A collective of the workload, as the workload priced it.
struct WorkloadCollective {
  std::string label;  // "decode: attn.all_reduce"
  collective::Request request;
  double time_s = 0, total_s = 0;  // one occurrence, count x time in its phase
};
// The fabric operators of a result with at least two ranks, costliest first.
std::vector<WorkloadCollective> workload_collectives(const workload::Result& result);
// The one to show first: the costliest whose group fits in one scale-up domain (something
// to see on the drawing), else the costliest; null when there is none.
const WorkloadCollective* default_collective(const std::vector<WorkloadCollective>& list, int chips_per_domain);
// The request trimmed to fit the system (fewer ranks); `note` says so when it had to.
collective::Request fit_request(collective::Request request, const hw::System& system, std::string& note);

}  // namespace trnsim::ui
