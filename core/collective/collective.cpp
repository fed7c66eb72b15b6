// collective::run: see collective/collective.h.
#include <algorithm>
#include <cmath>

#include "collective/algorithms.h"
#include "collective/backend.h"
#include "fabric/topology.h"

namespace trnsim::collective {

namespace {

// What executes a step on every rank (N4, S14): its collective-communication cores, each
// driving one DMA engine (assumption), transfers cut into packets.
struct Dma {
  long channels = 1;             // CC cores per rank
  double engine_bytes_per_s = 0; // one engine
  double transfer_fixed_s = 0;   // per transfer: descriptor, synchronization, semaphore-to-start
  double packet_bytes = 0;
};

struct StepCost {
  double fixed_s = 0;  // transfer fixed costs, in rounds over the channels
  double dma_s = 0;    // bytes through the DMA engines
};

// The busiest rank's DMA work in one instance of a step: the bytes it sends plus the extra
// operands it reads to reduce (a k-way reduction reads k inputs per byte written).
StepCost dma_cost(const Step& s, long ranks, const Dma& d) {
  StepCost c;
  const long flows = max_flows_per_rank(s, ranks);
  if (flows <= 0 || s.bytes <= 0) return c;
  const double packets = static_cast<double>(flows) * std::ceil(s.bytes / d.packet_bytes);
  const double used = std::max(1.0, std::min(static_cast<double>(d.channels), packets));
  c.dma_s = (static_cast<double>(flows) * s.bytes + s.reduce_bytes) / (used * d.engine_bytes_per_s);
  const long rounds = (flows + d.channels - 1) / d.channels;
  c.fixed_s = static_cast<double>(rounds) * d.transfer_fixed_s;
  return c;
}

long ranks_on_each_chip(const Request& req, long ranks) {
  const long L = std::min<long>(req.ranks_per_chip, ranks);
  if (ranks % L != 0)
    throw InputError("ranks", std::to_string(ranks) + " ranks do not fill whole chips of " + std::to_string(L) +
                                  " ranks (ranks_per_chip " + std::to_string(req.ranks_per_chip) + ")");
  return L;
}

}  // namespace

long request_ranks(const hw::System& system, const Request& req) {
  return req.ranks == 0 ? (static_cast<long>(system.chips) + req.stride - 1) / req.stride * req.ranks_per_chip : req.ranks;
}

Planned plan_request(const hw::System& system, const Request& req) {
  if (!(req.bytes > 0) || !std::isfinite(req.bytes)) throw InputError("bytes", "must be a positive number of bytes");
  if (req.stride < 1) throw InputError("stride", "must be at least 1");
  if (req.ranks < 0) throw InputError("ranks", "must not be negative");
  if (req.ranks_per_chip < 1 || req.ranks_per_chip > system.chip.cores())
    throw InputError("ranks_per_chip", "must be 1.." + std::to_string(system.chip.cores()) +
                                           (system.chip.neuroncore ? " (the chip's NeuronCores)" : " (one rank per chip without a NeuronCore block)") +
                                           ", got " + std::to_string(req.ranks_per_chip));
  Planned p;
  p.stride = req.stride;
  p.ranks = request_ranks(system, req);
  const long stride = p.stride, ranks = p.ranks;
  const long L = ranks > 0 ? ranks_on_each_chip(req, ranks) : 1;
  p.ranks_per_chip = L;
  const long chips_used = ranks / std::max(1L, L);
  if ((chips_used - 1) * stride + 1 > system.chips)
    throw InputError("ranks", std::to_string(ranks) + " ranks" + (L > 1 ? " (" + std::to_string(L) + " per chip)" : std::string()) +
                                  (stride > 1 ? " at stride " + std::to_string(stride) : std::string()) + " need " +
                                  std::to_string((chips_used - 1) * stride + 1) + " chips but " + system.name + " has " +
                                  std::to_string(system.chips));
  auto per = [&](long block) -> long {
    if (block % stride == 0) return block / stride * L;
    if (stride % block == 0) return L;
    return 0;
  };
  p.layout.ranks = ranks;
  p.layout.ranks_per_chip = L;
  p.layout.whole_chips = L == req.ranks_per_chip;
  p.layout.ranks_per_domain = per(system.chips_per_domain);
  const hw::FabricSpec& fs = system.fabric_spec;
  const long l1_chips = fs.kind == "switch" && fs.chips_per_l1_switch > 0 ? fs.chips_per_l1_switch : system.chips_per_server;
  p.layout.ranks_per_server = per(l1_chips);
  p.layout.in_switch = fs.kind == "switch" && fs.in_switch_reduction && (chips_used - 1) * stride + 1 <= l1_chips;
  p.layout.library_tuner = !fs.protocols.empty();
  p.schedule = build_schedule(req.op, req.algo, req.bytes, p.layout);  // validates op / algo
  return p;
}

namespace {

// A collective library with several wire protocols (NCCL): every candidate algorithm under
// every protocol it runs, the fastest kept -- what NCCL's tuner does with its own cost model
// (G15). Each protocol adds its fixed latency, a latency per step, and carries payload_fraction
// data bytes per wire byte at link_efficiency of the link rate; the in-switch algorithm runs
// the Simple protocol only (NCCL) at its own efficiency and latency.
Result run_library(const hw::System& system, const Request& req, const fabric::Topology& topo, const Backend& backend) {
  const hw::FabricSpec& f = system.fabric_spec;
  std::vector<std::string> algos;
  if (req.algo == "auto") {
    Planned probe = plan_request(system, req);  // validates the request, resolves hierarchical
    std::string a = auto_algorithm(req.op, req.bytes, probe.layout);
    algos.push_back(a);
    if (a != "hierarchical" && req.op == "all-reduce") {
      for (const char* extra : {"ring", "tree"})
        if (a != extra) algos.push_back(extra);
    }
  } else {
    algos.push_back(req.algo);
  }
  if (!req.protocol.empty() && req.protocol != "auto") {
    bool known = false;
    for (const auto& p : f.protocols) known = known || p.name == req.protocol;
    if (!known) {
      std::string list;
      for (const auto& p : f.protocols) list += (list.empty() ? "" : ", ") + p.name;
      throw InputError("protocol", "unknown protocol '" + req.protocol + "' for " + system.name + "; one of: auto, " + list);
    }
  }
  Result best;
  bool have = false;
  for (const std::string& algo : algos) {
    Request r = req;
    r.algo = algo;
    const Planned plan = plan_request(system, r);
    const Schedule& sched = plan.schedule;
    if (plan.ranks < 2) {
      best = Result{};
      best.backend = backend.name();
      best.algorithm = "none (one rank)";
      return best;
    }
    RankMap map;
    map.topology = &topo;
    map.ranks = plan.ranks;
    map.stride = plan.stride;
    map.ranks_per_chip = plan.ranks_per_chip;
    map.ranks_per_domain = plan.layout.ranks_per_domain;
    map.max_flows_per_chip = 0;
    std::vector<StepTime> times;
    for (const Step& s : sched.steps) times.push_back(backend.time_step(s, map));
    const bool in_switch = sched.algorithm == "nvls";
    for (const auto& p : f.protocols) {
      if (req.protocol != "auto" && !req.protocol.empty() && p.name != req.protocol) continue;
      if (in_switch && p.name != "simple" && f.protocols.size() > 1) continue;
      const double rate = f.link_efficiency * p.payload_fraction * (in_switch ? f.in_switch_reduction_efficiency : 1.0);
      Result res;
      res.backend = backend.name();
      res.algorithm = sched.algorithm;
      res.protocol = p.name;
      double t = f.launch_overhead_s + p.latency_s + (in_switch ? f.in_switch_reduction_latency_s : 0.0);
      res.overhead_s = t;
      for (std::size_t i = 0; i < sched.steps.size(); ++i) {
        const Step& s = sched.steps[i];
        const StepTime& st = times[i];
        const double reps = static_cast<double>(s.repeat);
        const double reduce = f.reduce_bytes_per_s > 0 ? s.reduce_bytes / f.reduce_bytes_per_s : 0.0;
        t += reps * (f.step_overhead_s + p.step_latency_s + st.latency_s + st.transfer_s / rate + reduce);
        res.overhead_s += reps * (f.step_overhead_s + p.step_latency_s);
        res.latency_s += reps * st.latency_s;
        res.link_s += reps * st.transfer_s / rate;
        res.flows_timed += st.flows;
        res.steps += s.repeat;
      }
      res.time_s = t;
      if (!have || t < best.time_s) best = res, have = true;
    }
  }
  if (!have)
    throw InputError("protocol", "the in-switch algorithm runs the simple protocol only, not " + req.protocol);
  best.algbw_bytes_per_s = req.bytes / best.time_s;
  best.busbw_bytes_per_s = best.algbw_bytes_per_s * busbw_factor(req.op, request_ranks(system, req));
  return best;
}

Result run_on(const hw::System& system, const Request& req, const fabric::Topology& topo, const Backend& backend) {
  if (!system.fabric_spec.protocols.empty()) return run_library(system, req, topo, backend);
  if (!req.protocol.empty() && req.protocol != "auto")
    throw InputError("protocol", system.name + "'s collective software has no protocols to choose from "
                                 "(collective_software.protocols); only auto");
  const Planned plan = plan_request(system, req);
  const long ranks = plan.ranks, stride = plan.stride, L = plan.ranks_per_chip;
  const Layout& layout = plan.layout;
  const Schedule& sched = plan.schedule;
  Result r;
  r.backend = backend.name();
  r.algorithm = sched.algorithm;
  r.ranks_per_chip = static_cast<int>(L);
  if (ranks < 2) {
    r.algorithm = "none (one rank)";
    return r;
  }
  RankMap map;
  map.topology = &topo;
  map.ranks = ranks;
  map.stride = stride;
  map.ranks_per_chip = L;
  map.ranks_per_domain = layout.ranks_per_domain;
  const hw::FabricSpec& f = system.fabric_spec;
  // The DMA side is NeuronCore data: without the block a step is timed by its links alone.
  const std::optional<hw::NeuronCoreBlock>& nc = system.chip.neuroncore;
  // Assumption: one transfer per collective-communication core at a time (S1, S5 count 16).
  map.max_flows_per_chip = nc ? nc->collective_cores : 0;
  Dma dma;
  if (nc) {
    dma.channels = std::max(1, nc->collective_cores / req.ranks_per_chip);
    dma.engine_bytes_per_s = nc->dma_engine_bandwidth_bytes_per_s;
    dma.transfer_fixed_s = nc->dma_transfer_fixed_s;
    dma.packet_bytes = f.dma_packet_bytes;
  }
  double t = f.launch_overhead_s;
  r.overhead_s = f.launch_overhead_s;
  for (const Step& s : sched.steps) {
    StepTime st = backend.time_step(s, map);
    StepCost c = nc ? dma_cost(s, ranks, dma) : StepCost{};
    double reduce = f.reduce_bytes_per_s > 0 ? s.reduce_bytes / f.reduce_bytes_per_s : 0.0;
    double reps = static_cast<double>(s.repeat);
    t += reps * (f.step_overhead_s + c.fixed_s + st.latency_s + std::max(st.transfer_s, c.dma_s) + reduce);
    r.overhead_s += reps * (f.step_overhead_s + c.fixed_s);
    r.latency_s += reps * st.latency_s;
    r.dma_s += reps * c.dma_s;
    r.link_s += reps * st.transfer_s;
    r.flows_timed += st.flows;
    r.steps += s.repeat;
  }
  r.time_s = t;
  r.algbw_bytes_per_s = req.bytes / t;
  r.busbw_bytes_per_s = r.algbw_bytes_per_s * busbw_factor(req.op, ranks);
  return r;
}

}  // namespace

Runner::Runner(const hw::System& system) : system_(system), topology_(std::make_unique<fabric::Topology>(system)) {}
Runner::~Runner() = default;

Result Runner::run(const Request& req) const {
  // Validate names first so a typo is reported before anything else.
  auto it = backends_.find(req.backend);
  if (it == backends_.end()) it = backends_.emplace(req.backend, make_backend(req.backend)).first;
  return run_on(system_, req, *topology_, *it->second);
}

Result run(const hw::System& system, const Request& req) {
  make_backend(req.backend);  // a typo is reported before the topology is built
  return Runner(system).run(req);
}

}  // namespace trnsim::collective
