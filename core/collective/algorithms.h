// Collective algorithms as the Neuron runtime and NCCL name them (S12, S13, G15): ring, mesh (direct),
// rdh (recursive doubling-halving), kangaring (here: two counter-rotating rings, our
// stand-in for the runtime's large-message ring), hierarchical (intra + inter), and the
// automatic choice by message size (S13 sweet spots: mesh < 1 MiB, rdh 1-56 MiB, ring
// family above; hierarchical when the ranks span several scale-up domains); NCCL's tree
// (all-reduce as a pipelined chain up and down, its form inside one NVLink domain) and nvls
// (all-reduce reduced in the NVSwitches, NVLink SHARP: each byte enters the switch once and
// the reduced result leaves it once, so a chip port carries B (n+1)/n each way, not 2B (n-1)/n).
// An algorithm sees only where ranks are (ranks per domain / server), never bandwidths.
// Does NOT model: the runtime's exact chunking, KangaRing's real construction, the
// single-step mesh variant, AllGatherV / ReduceScatterV / AllToAllV.
#pragma once
#include <string>
#include <vector>

#include "collective/collective.h"
#include "collective/schedule.h"

namespace trnsim::collective {

struct Layout {
  long ranks = 0;
  long ranks_per_domain = 0;  // consecutive ranks in one scale-up domain (0: not aligned)
  long ranks_per_server = 0;  // consecutive ranks in one server (0: not aligned)
  long ranks_per_chip = 1;    // consecutive ranks on one chip (logical NeuronCores)
  bool whole_chips = true;    // the group holds every logical core of its chips (KangaRing pairs)
  // The fabric reduces in its switches and the group sits under one switch group (nvls).
  bool in_switch = false;
  // A library that picks among ring, tree and in-switch per size (NCCL, collective.cpp):
  // hierarchical's parts then run ring rather than the Neuron runtime's size rule.
  bool library_tuner = false;
};

// A request resolved against a system: its ranks and stride, the layout the algorithm sees
// and the schedule -- what run() times and link_traffic() routes (collective.cpp).
// InputError naming the bad field (bytes, stride, ranks, op, algo).
struct Planned {
  long ranks = 0, stride = 1, ranks_per_chip = 1;
  Layout layout;
  Schedule schedule;
};
Planned plan_request(const hw::System& system, const Request& request);

// The schedule of `op` on `bytes` (nccl-tests size) with `algo` ("auto" resolved here).
// With several ranks per chip, Mesh, RDH and hierarchical run an intra-chip stage around
// the inter-chip algorithm (on bytes / ranks per chip), KangaRing runs as a ring of rank
// pairs on whole chips, Ring as one flat ring over every rank.
// Throws InputError when the algorithm does not apply (e.g. hierarchical in one domain).
Schedule build_schedule(const std::string& op, const std::string& algo, double bytes, const Layout& layout);
// What "auto" resolves to.
std::string auto_algorithm(const std::string& op, double bytes, const Layout& layout);
// nccl-tests bus-bandwidth factor (FACTS.md): 2(n-1)/n all-reduce, (n-1)/n all-gather,
// reduce-scatter, all-to-all; 1 for permute and broadcast.
double busbw_factor(const std::string& op, long ranks);

}  // namespace trnsim::collective
