// What the Fabric panel draws, computed from the core's public fabric and collective
// APIs (no GL, no ImGui): the scale-up domain of a system laid out in the plane, every
// directed link of it (identified by routing through fabric::Topology, named by
// Topology::link_name), and the bytes each link carries during one collective -- the
// collective's schedule (collective::build_schedule), every flow of every step
// (for_each_flow_in_group), routed hop by hop (Topology::route), summed over steps.
// Utilization = the link's busy time (bytes / bandwidth) / the collective's time
// (hw::collective, the same number the workload prices).
//
// Layouts: a torus of up to three dimensions as stacked, sheared planes (dimension 0
// across, 1 diagonally down, 2 as planes one below the other; wrap-around links as
// stubs leaving one edge and entering the opposite one); NeuronSwitch as a wheel --
// servers around a circle, each with its first-level switch inside its chips, and the
// second-level switches at the hub.
// Clusters: each chip's EFA share (out and in) is a short stub leaving the chip.
// Does NOT draw: domains other than the first (identical by symmetry), the EFA network
// beyond the NICs (assumed non-blocking by the model).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "hw/system.h"
#include "collective/collective.h"

namespace trnsim::ui {

struct FabricPoint {
  float x = 0, y = 0;
};

struct FabricNode {
  enum Kind { chip = 0, l1_switch = 1, l2_switch = 2 };
  Kind kind = chip;
  FabricPoint p;
  long chip_index = -1;  // chips only
  int server = -1;       // chips and first-level switches
  int switch_index = -1; // second-level switches
  std::string label;
};

struct FabricLink {
  fabric::LinkId id = 0;
  std::vector<std::pair<FabricPoint, FabricPoint>> segments;  // layout units
  float lane = 0;               // extra sideways offset (in link widths) for parallel lanes
  double bandwidth_bytes_per_s = 0;
  std::string name;             // Topology::link_name
};

struct FabricLayout {
  std::string kind;   // "torus", "switch", "none"
  std::string error;  // why nothing can be drawn
  std::vector<FabricNode> nodes;
  std::vector<FabricLink> links;
  FabricPoint lo, hi;  // bounding box of the layout (units)
  float chip_size = 10;  // glyph size in layout units
  std::string caption;   // "4 x 4 x 4 torus (NeuronLink-v3)", ...
};

FabricLayout layout_fabric(const hw::System& system);

struct LinkLoads {
  std::string error;
  collective::Request request;
  collective::Result result;
  long ranks = 0;
  std::map<fabric::LinkId, double> bytes;  // first domain's links, whole collective
  std::vector<long> member_chips;          // chips of the drawn group
  double flows = 0;                        // flows enumerated
  double efa_bytes = 0;                    // bytes that left the first domain over EFA (all chips)
  double max_utilization = 0;
};

// Per-link bytes of one group of `request` on `system` (ranks = chips 0, stride, 2*stride...).
// Refuses (error set) beyond ~2 million flows to keep the page responsive.
LinkLoads link_loads(const hw::System& system, const collective::Request& request);

}  // namespace trnsim::ui
