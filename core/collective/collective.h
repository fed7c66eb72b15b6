// Collectives on a system's fabric: the public seam of core/collective/. A request (op,
// per-rank bytes as nccl-tests counts them, ranks, stride, ranks per chip, algorithm,
// backend) becomes a schedule of bulk-synchronous steps (algorithms.cpp) timed on the
// fabric's topology (core/fabric/) by the analytic or the event-driven backend (backend.h)
// and on the DMA engines that execute it (Neuron's execution, docs/neuron-execution.md):
//   time = launch overhead + sum over steps of repeat x (step overhead
//          + ceil(transfers per rank / channels) x DMA transfer fixed cost
//          + path latency + max(link time, DMA time) + reduction time)
//   DMA time = (bytes a rank sends + extra operand bytes it reads to reduce)
//              / (channels used x DMA engine bandwidth)
// where a rank's channels are its collective-communication cores (two per physical
// NeuronCore, N4; each drives one DMA engine: an assumption), channels used = min(channels,
// the step's DMA packets of at most collective_software.dma_packet bytes).
// Ranks are logical NeuronCores when ranks_per_chip > 1 (LNC=2 gives 4 per chip, N5): a
// group spanning several chips runs Mesh and RDH as an intra-chip stage, the inter-chip
// algorithm among the ranks with the same local index, and an intra-chip stage (S13's
// description), and KangaRing as a ring of rank pairs (one primary per pair per cycle,
// S13); transfers between ranks of one chip use no link.
// Sources: algorithms and sweet spots S12/S13; link data from the system file; DMA engine
// rate and per-transfer cost S14; CC cores N4; software overheads in the system file
// (collective_software).
// Does NOT model: overlap of consecutive steps, the runtime's exact chunking, stragglers,
// other traffic on the fabric or the DMA engines (compute shares them, N4).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "hw/system.h"

namespace trnsim::collective {
// ops: "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute", "broadcast"
// algos: "auto", "ring", "mesh", "rdh", "hierarchical", "tree", "nvls"; backends: "analytic", "event".
// A system whose collective_software lists protocols (an NCCL-like library) is timed under
// each protocol with its latencies and payload efficiency, and "auto" takes the fastest of
// the size rule's algorithm, ring and tree (and nvls where the switches reduce): NCCL's tuner.
struct Request {
  std::string op = "all-reduce";
  double bytes = 0;           // per-rank message size as nccl-tests counts it
  int ranks = 0;              // 0 = every chip of the system
  int stride = 1;             // rank i is chip i*stride (TP groups contiguous, DP strided)
  std::string algo = "auto";
  std::string backend = "analytic";
  // Ranks per chip: 1 = ranks are chips (each drives all of the chip's collective cores);
  // the chip's logical NeuronCores (cores / LNC, 4 on Trn2/Trn3 at LNC=2) make ranks logical
  // cores, rank r on chip (r / ranks_per_chip) * stride. A group smaller than that sits on
  // one chip (nccom-test -r 2 on trn2: two logical cores of chip 0).
  int ranks_per_chip = 1;
  // The wire protocol where the system's collective software has several (NCCL: ll, ll128,
  // simple): "auto" = the fastest for the size, as NCCL's tuner picks.
  std::string protocol = "auto";
};
struct Result {
  double time_s = 0;
  double algbw_bytes_per_s = 0;
  double busbw_bytes_per_s = 0;
  std::string algorithm;      // the one used (chosen when algo was "auto")
  std::string protocol;       // the wire protocol used ("" where the software has one)
  // How the backend timed it
  std::string backend;        // "analytic" or "event"
  long steps = 0;             // algorithm steps (bulk-synchronous)
  double overhead_s = 0;      // launch + per-step software overhead included in time_s
  double latency_s = 0;       // path latencies included in time_s
  double flows_timed = 0;     // flows the backend evaluated (after symmetry reduction)
  // Execution on the DMA engines and the links
  double dma_s = 0;           // DMA transfer time of the steps (included where it exceeds the links')
  double link_s = 0;          // link transfer time of the steps (the backend's)
  int ranks_per_chip = 1;     // as placed (the request's, at most the group)
};
// "all-reduce", ... and "auto", "ring", "kangaring", "mesh", "rdh", "hierarchical"
// ("direct" is accepted for mesh); backends "analytic", "event".
const std::vector<std::string>& op_names();
const std::vector<std::string>& algo_names();  // including "auto"
const std::vector<std::string>& backend_names();
// Times `request` on the system's fabric. Throws InputError naming the bad field.
// The ranks a request runs on: its `ranks`, or when 0 every chip of the system at its stride,
// times its ranks per chip (the CLI and the Python module report this number).
long request_ranks(const hw::System& system, const Request& request);
Result run(const hw::System& system, const Request& request);

class Backend;
// run() for one system, many requests: the topology is built once, and each backend keeps the
// routed flows of every step shape it has timed (the analytic backend; analytic.cpp), so a
// caller pricing the same collective at many sizes -- the serving step pricer, one size per
// batch token count -- routes each shape once. Every result is run()'s, to the bit. The system
// must outlive the runner.
class Runner {
 public:
  explicit Runner(const hw::System& system);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  Result run(const Request& request) const;

 private:
  const hw::System& system_;
  std::unique_ptr<fabric::Topology> topology_;
  mutable std::map<std::string, std::unique_ptr<Backend>> backends_;
};

// ---- per-link traffic (traffic.cpp): what the Fabric view draws -------------------------
// The bytes every directed link of one scale-up domain carries during the collective: the
// same schedule run() times (plan_request), every flow of every step routed by
// fabric::Topology::route, bytes x repeat x the hop's share (a flow sprayed over the
// second-level switches puts 1 / l2_switches on each) summed over the steps. Links are Topology ids;
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
