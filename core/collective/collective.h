// Collectives on a system's fabric: the public seam of core/collective/. A request (op,
// per-rank bytes as nccl-tests counts them, ranks, stride, algorithm, backend) becomes a
// schedule of bulk-synchronous steps (algorithms.cpp) timed on the fabric's topology
// (core/fabric/) by the analytic or the event-driven backend (backend.h).
//   time = launch overhead + sum over steps of repeat x (step overhead + backend step
//          time + reduction time)
// Sources: algorithms and sweet spots S12/S13; link data from the system file; software
// overheads are explicit assumptions in the system file (collective_software).
// Does NOT model: overlap of consecutive steps, the runtime's real chunking, stragglers,
// other traffic on the fabric.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "hw/system.h"

namespace trnsim::collective {
// ops: "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute", "broadcast"
// algos: "auto", "ring", "mesh", "rdh", "hierarchical"; backends: "analytic", "event".
struct Request {
  std::string op = "all-reduce";
  double bytes = 0;           // per-rank message size as nccl-tests counts it
  int ranks = 0;              // 0 = every chip of the system
  int stride = 1;             // rank i is chip i*stride (TP groups contiguous, DP strided)
  std::string algo = "auto";
  std::string backend = "analytic";
};
struct Result {
  double time_s = 0;
  double algbw_bytes_per_s = 0;
  double busbw_bytes_per_s = 0;
  std::string algorithm;      // the one used (chosen when algo was "auto")
  // ---- additions (issue 4) ----
  std::string backend;        // "analytic" or "event"
  long steps = 0;             // algorithm steps (bulk-synchronous)
  double overhead_s = 0;      // launch + per-step software overhead included in time_s
  double latency_s = 0;       // path latencies included in time_s
  double flows_timed = 0;     // flows the backend evaluated (after symmetry reduction)
};
// "all-reduce", ... and "auto", "ring", "kangaring", "mesh", "rdh", "hierarchical"
// ("direct" is accepted for mesh); backends "analytic", "event".
const std::vector<std::string>& op_names();
const std::vector<std::string>& algo_names();  // including "auto"
const std::vector<std::string>& backend_names();
// Times `request` on the system's fabric. Throws InputError naming the bad field.
Result run(const hw::System& system, const Request& request);

// ---- per-link traffic (traffic.cpp): what the Fabric view draws -------------------------
// The bytes every directed link of one scale-up domain carries during the collective: the
// same schedule run() times (plan_request), every flow of every step routed by
// fabric::Topology::route, bytes x repeat summed over the steps. Links are Topology ids;
// Topology::ends names their endpoints. Busy time = bytes / Topology::bandwidth; its share of
// result.time_s is the link's utilization (at most 1 for the analytic backend).
// The group: rank r is chip first_chip + r x stride. A group that fits in one domain is
// placed in `domain` (first_chip = domain x chips_per_domain: every domain runs its own
// copy of such a group, and domains are identical, so the time is run()'s); a group that
// spans domains keeps first_chip 0 and only its flows into, out of and inside `domain`
// count.
struct TrafficOptions {
  int domain = 0;
  double max_flows = 2e6;  // more flows than this: InputError (keeps a page responsive)
};
struct Traffic {
  Result result;  // run(system, request)
  long ranks = 0, stride = 1, first_chip = 0;
  std::map<fabric::LinkId, double> bytes;  // links of the domain that carry anything
  double flows = 0;          // flows routed
  double efa_bytes_out = 0;  // bytes the domain's chips send to other domains over EFA
};
Traffic link_traffic(const hw::System& system, const Request& request, const TrafficOptions& options = {});

}  // namespace trnsim::collective
