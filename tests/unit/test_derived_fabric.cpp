// Derived checks, fabric and collectives:
//  - link bandwidths from the data files' published figures (NeuronLink per chip counts both
//    directions unless the `one-direction` alternative is chosen; torus links split a chip's
//    bandwidth over its neighbours; NeuronSwitch ports carry the chip's NeuronLink; EFA a
//    chip's share of its server's or UltraServer's NICs);
//  - large-message busbw equals the bottleneck link for every algorithm on every topology,
//    from how each algorithm loads the links (torus rings, all-pairs on a 4-ary torus, RDH,
//    NeuronSwitch ports, separate PCIe lanes, EFA, hierarchical) -- shown on the systems with
//    DMA engines too fast to matter -- and on the built-in systems the smaller of that and
//    the DMA engines' bound (a rank's collective cores, one engine each, move what it sends
//    plus the operands it reads to reduce: S14, N4);
//  - exact collective times from the algorithm's steps (launch + per step: overhead, the
//    DMA transfers' fixed costs, path latency, the longer of the busiest link's bytes / its
//    bandwidth and the DMA engines' time);
//  - the automatic choice switches exactly at S13's 1 MiB and 56 MiB;
//  - routes are balanced over the second-level NeuronSwitch switches for any chips per
//    server (1 to 16): every flow between servers is sprayed over all of them, so each
//    switch's uplink and downlink of a server carry exactly 1 / l2_switches of its flows.
//  - torus routes: on every torus system and alternative, every route's hops per dimension
//    are the shorter way round between the chips' coordinates and its latency their sum of
//    link latencies from the data file; both backends report it for a permute at every distance;
//  - every link's load from the routes as the data describe them (a flow sprayed over l
//    second-level switches puts 1 / l of its bytes on each switch's links): both backends'
//    step latency and transfer time on every built-in system and named alternative (the PCIe
//    view's separate lanes included) and on fabrics whose second level is the bottleneck.
//  - the analytic backend's kept routes: whatever it timed before, a step time equals routing
//    every flow afresh, to the bit, and a collective::Runner gives run()'s results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "collective/algorithms.h"
#include "collective/backend.h"
#include "collective/collective.h"
#include "embedded.h"
#include "fabric/topology.h"
#include "hw/system.h"
#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_fabric {

using trnsim::json;
using namespace trnsim::hw;

namespace {

const double MiB = 1048576.0, TiB = 1099511627776.0;

trnsim::collective::Result run(const System& s, const std::string& op, double bytes, const std::string& algo,
                               int ranks = 0, int stride = 1, const std::string& backend = "analytic") {
  trnsim::collective::Request r;
  r.op = op, r.bytes = bytes, r.algo = algo, r.ranks = ranks, r.stride = stride, r.backend = backend;
  return trnsim::collective::run(s, r);
}

using derived::data_file;

// A quantity of a data file in SI units (the units the data files use here).
double si(const json& q) {
  static const std::map<std::string, double> units = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"GiB/s", 1073741824.0},
                                                      {"Gbps", 1e9 / 8}, {"us", 1e-6}, {"ns", 1e-9}};
  double v = q.at("value").get<double>();
  return q.contains("unit") ? v * units.at(q.at("unit").get<std::string>()) : v;
}

#ifdef __EMSCRIPTEN__
const std::string kPrefix = "test_derived_fabric_wasm_";
#else
const std::string kPrefix = "test_derived_fabric_native_";
#endif

// A NeuronSwitch system of `servers` x `per_server` Trainium3 chips with `l2` second-level
// switches, written from the Trn3 Gen2 data file (same links, latencies and software).
// A system written as a user's file (`data` in the system format, named `name`) and loaded.
System user_system(json data, const std::string& name) {
  data["name"] = name;
  std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/" + kPrefix + name + ".json";
  std::ofstream(path) << data.dump();
  System sys = load_system(path);
  std::remove(path.c_str());
  return sys;
}

System switch_system(int per_server, int servers, int l2) {
  json s = data_file("data/systems/trn3-gen2-ultraserver.json");
  s["chips_per_server"]["value"] = per_server;
  s["servers"]["value"] = servers;
  s["fabric"]["l2_switches"]["value"] = l2;
  return user_system(s, "test-switch-" + std::to_string(per_server) + "x" + std::to_string(servers) + "-l2-" + std::to_string(l2));
}

// The derivation adds the steps in another order: equal to 1e-12 relative.
Approx exact_time(double v) { return Approx(v).epsilon(1e-12); }

bool pow2(long x) { return x > 0 && (x & (x - 1)) == 0; }

// The same system with DMA engines a thousand times faster: the links alone bound a large
// message (the engines' share is checked apart, on the built-in systems).
System fast_dma(System s) {
  s.chip.neuroncore->dma_engine_bandwidth_bytes_per_s *= 1000;
  return s;
}

// The DMA engines of one chip-rank (ranks_per_chip 1): its collective cores each drive one
// engine (N4; an assumption that each has its own) at the engine's rate (S14).
double dma_rate(const System& s) { return s.chip.neuroncore->collective_cores * s.chip.neuroncore->dma_engine_bandwidth_bytes_per_s; }

// Large-message busbw with the DMA engines, from the link-bound busbw `link`: every step
// takes the longer of its link time and its DMA time. An all-gather, all-to-all or permute
// rank's engines move what it sends (1 DMA byte a busbw byte); a reduce-scatter rank's also
// read, for every byte sent on, the received operand it reduces into (2); an all-reduce is
// a reduce-scatter then an all-gather, each one of its 2 busbw units, bounded apart.
double busbw_with_dma(double link, const System& s, const std::string& op) {
  const double r = dma_rate(s);
  if (op == "all-reduce") return 2 / (std::max(1 / link, 2 / r) + std::max(1 / link, 1 / r));
  if (op == "reduce-scatter") return 1 / std::max(1 / link, 2 / r);
  return 1 / std::max(1 / link, 1 / r);
}

void check_switch_busbw(const std::vector<System>& systems, bool with_dma);

// Large-message busbw: `link` (the derived bottleneck link's bandwidth) with fast DMA
// engines, and with the DMA engines' time on the system as it is.
void check_busbw(const System& real, const std::string& op, const std::string& algo, double link, int ranks = 0,
                 int stride = 1) {
  INFO(real.name << " " << op << " " << algo);
  CHECK(run(fast_dma(real), op, TiB, algo, ranks, stride).busbw_bytes_per_s == Approx(link).epsilon(1e-3));
  CHECK(run(real, op, TiB, algo, ranks, stride).busbw_bytes_per_s == Approx(busbw_with_dma(link, real, op)).epsilon(1e-3));
}

}  // namespace

TEST_CASE("link bandwidths derive from the published figures", "[derived]") {
  for (const char* name : {"trainium2", "trainium3"}) {
    json nl = data_file(std::string("data/chips/") + name + ".json").at("scale_up");
    const double published = si(nl.at("bandwidth_per_chip"));
    REQUIRE(nl.at("counts_both_directions").at("value") == true);
    Chip c = load_chip(name);
    INFO(name);
    CHECK(c.link_bandwidth_published_bytes_per_s == published);
    CHECK(c.link_bandwidth_bytes_per_s == published / 2);  // both directions: half each way
    json d = describe_json(load_system(name));
    CHECK(d.at("link_bandwidth_bytes_per_s_per_chip").get<double>() == published / 2);
    CHECK(d.at("link_bandwidth_published_bytes_per_s_per_chip").get<double>() == published);
    // The other reading, a per-direction figure, is the `one-direction` alternative.
    Chip one = load_chip(std::string(name) + "+one-direction");
    CHECK(one.link_bandwidth_bytes_per_s == published);
  }
  // Torus links: a chip's per-dimension bandwidth over its two neighbours, per direction.
  for (const char* name : {"trn2-48xlarge", "trn2-ultraserver"}) {
    json f = data_file(std::string("data/systems/") + name + ".json").at("fabric");
    System s = load_system(name);
    REQUIRE(s.fabric_spec.torus.size() == f.at("torus").size());
    for (std::size_t i = 0; i < s.fabric_spec.torus.size(); ++i)
      CHECK(s.fabric_spec.torus[i].link_bandwidth_bytes_per_s == si(f.at("torus")[i].at("bandwidth_per_chip")) / 2 / 2);
    // EFA: the instance's NICs shared by its 16 chips.
    CHECK(s.fabric_spec.efa_bandwidth_bytes_per_s_per_chip == si(data_file(std::string("data/systems/") + name + ".json")
                                                                      .at("scale_out").at("bandwidth_per_server")) / 16);
  }
  // NeuronSwitch: the chip's whole NeuronLink-v4 reaches its first-level switch and the
  // second level; EFA per chip is the UltraServer's NICs over its chips (200 Gbps).
  for (const char* name : {"trn3-gen1-ultraserver", "trn3-gen2-ultraserver"}) {
    System s = load_system(name);
    const double chip = load_chip("trainium3").link_bandwidth_bytes_per_s;
    CHECK(s.fabric_spec.intra_server_bandwidth_bytes_per_s == chip);
    CHECK(s.fabric_spec.inter_server_bandwidth_bytes_per_s == chip);
    CHECK(s.fabric_spec.efa_bandwidth_bytes_per_s_per_chip ==
          Approx(si(data_file(std::string("data/systems/") + name + ".json").at("scale_out").at("bandwidth_per_domain")) / s.chips));
    CHECK(s.fabric_spec.efa_bandwidth_bytes_per_s_per_chip == Approx(200e9 / 8));
  }
}

TEST_CASE("large-message busbw equals the bottleneck link: NeuronSwitch, every algorithm", "[derived]") {
  // Every chip sends and receives through its one port to the first-level switch, and the
  // second level is non-blocking: each algorithm's per-rank bytes cross the port once, so
  // busbw -> the port's bandwidth (one direction); also with 8 chips per server.
  check_switch_busbw({load_system("trn3-gen2-ultraserver"), load_system("trn3-gen1-ultraserver"), switch_system(8, 4, 2)}, true);
}

TEST_CASE("large-message busbw equals the chip port with 1, 3, 5 or 6 chips per server", "[derived]") {
  // Every flow between servers is sprayed over the l2_switches second-level switches
  // (core/fabric/topology.h), 1 / l2_switches of its bytes through each. A server whose c
  // chips send (or receive) at most the port's bandwidth each puts at most c x port /
  // l2_switches on each uplink (downlink), which is what the data sizes them at
  // (inter_server_bandwidth: "non-blocking uplinks"): the second level never blocks, for
  // any chips per server and for exchanges covering part of a server (an RDH over 16 of 24
  // chips), and the chip port bounds busbw as with 4 chips per server. (With one switch per
  // flow by chip position, 3 chips and 2 switches put 2/3 of a server's traffic on switch
  // 0: mesh all-gather 0.82 x the port, RDH over 16 ranks 0.54 x; 6 chips and 3 switches,
  // RDH over 16 of 24 chips 0.71 x.)
  // Links only (fast DMA engines): with Trainium3's engines the DMA bound (528 GB/s) sits
  // below the port and would hide a blocked second level.
  check_switch_busbw({switch_system(3, 8, 2), switch_system(5, 6, 3), switch_system(1, 8, 2), switch_system(6, 4, 3)}, false);
}

namespace {
void check_switch_busbw(const std::vector<System>& systems, bool with_dma) {
  for (const System& real : systems) {
    const System s = fast_dma(real);
    const double port = s.fabric_spec.intra_server_bandwidth_bytes_per_s;
    const long n = s.chips;
    const long p2 = pow2(n) ? n : 1L << static_cast<int>(std::floor(std::log2(static_cast<double>(n))));
    for (const char* op : {"all-reduce", "all-gather", "reduce-scatter"}) {
      for (const char* algo : {"ring", "kangaring", "mesh", "rdh"}) {
        const int ranks = std::string(algo) == "rdh" ? static_cast<int>(p2) : 0;  // RDH on a power of two
        INFO(s.name << " " << op << " " << algo << " ranks " << ranks);
        CHECK(run(s, op, TiB, algo, ranks).busbw_bytes_per_s == Approx(port).epsilon(1e-3));
        CHECK(run(s, op, TiB, algo, ranks).busbw_bytes_per_s <= port);
        if (with_dma)
          CHECK(run(real, op, TiB, algo, ranks).busbw_bytes_per_s == Approx(busbw_with_dma(port, real, op)).epsilon(1e-3));
      }
    }
    INFO(s.name);
    CHECK(run(s, "all-to-all", TiB, "mesh").busbw_bytes_per_s == Approx(port).epsilon(1e-3));
    CHECK(run(s, "permute", TiB, "auto").busbw_bytes_per_s == Approx(port).epsilon(1e-3));
    if (with_dma) {
      CHECK(run(real, "all-to-all", TiB, "mesh").busbw_bytes_per_s == Approx(busbw_with_dma(port, real, "all-to-all")).epsilon(1e-3));
      CHECK(run(real, "permute", TiB, "auto").busbw_bytes_per_s == Approx(busbw_with_dma(port, real, "permute")).epsilon(1e-3));
    }
  }
}
}  // namespace

TEST_CASE("large-message busbw equals the bottleneck link: tori, PCIe lanes, EFA, hierarchical", "[derived]") {
  // 4x4 torus (trn2.48xlarge), 128 GB/s links. A ring in rank order puts one flow on each
  // link it uses; two counter-rotating rings use both directions. RDH's partners at
  // distance 1 and 2 of each 4-ring each take one directed link. All-pairs on a 4-ary
  // dimension with the parity tie-break loads every directed link with 2 flows per source
  // and destination line: 8 of the 16 x 15 flows of B/16 bytes, B/2 a link.
  System t = load_system("trn2-48xlarge");
  const double link = t.fabric_spec.torus[0].link_bandwidth_bytes_per_s;
  for (const char* op : {"all-reduce", "all-gather", "reduce-scatter"}) {
    INFO(op);
    check_busbw(t, op, "ring", link);
    check_busbw(t, op, "kangaring", 2 * link);
    check_busbw(t, op, "rdh", link);
    check_busbw(t, op, "mesh", 15.0 / 16 * 2 * link);
  }
  // 4x4x4 torus (Trn2 UltraServer): the ring crosses the 64 GB/s z-links between instances
  // once per plane -- they are its bottleneck; all-pairs loads every directed link with 32
  // flows of B/64, and the z-links are the slowest.
  System u = load_system("trn2-ultraserver");
  const double z = u.fabric_spec.torus[2].link_bandwidth_bytes_per_s;
  REQUIRE(z == u.fabric_spec.torus[0].link_bandwidth_bytes_per_s / 2);
  check_busbw(u, "all-gather", "ring", z);
  check_busbw(u, "reduce-scatter", "kangaring", 2 * z);
  check_busbw(u, "all-to-all", "mesh", 63.0 / 64 * z / (32.0 / 64));
  // RDH reduce-scatter on 64 = 4 x 4 x 4: masks 32 and 16 move B/2 and B/4 over z, the other
  // four B/8 .. B/64 over x and y.
  const double x = u.fabric_spec.torus[0].link_bandwidth_bytes_per_s;
  const double rdh_time = (0.5 + 0.25) / z + (1.0 / 8 + 1.0 / 16 + 1.0 / 32 + 1.0 / 64) / x;
  check_busbw(u, "reduce-scatter", "rdh", 63.0 / 64 / rdh_time);
  // The PCIe view of a Gen2 UltraServer: separate lanes inside (the port) and between
  // servers. A ring's flows inside a server take the port, the crossings take the lanes; an
  // all-to-all sends (n - P) of its n - 1 flows over the lanes.
  System pv = load_system("trn3-gen2-ultraserver+pcie-switch-view");
  const double port = pv.fabric_spec.intra_server_bandwidth_bytes_per_s, lanes = pv.fabric_spec.inter_server_bandwidth_bytes_per_s;
  check_busbw(pv, "all-gather", "ring", std::min(port, lanes));
  check_busbw(pv, "all-to-all", "mesh", 143.0 / 140 * lanes);
  // EFA: one rank per UltraServer, each chip's NIC share (25 GB/s) carries all its traffic.
  System c = load_system("trn3-gen2-ultracluster:8");
  const double nic = c.fabric_spec.efa_bandwidth_bytes_per_s_per_chip;
  for (const char* algo : {"ring", "kangaring", "mesh", "rdh"}) {
    INFO(algo);
    check_busbw(c, "all-reduce", algo, nic, 8, 144);
  }
  // Hierarchical all-reduce over 4 UltraServers (576 ranks, L = 144 per UltraServer): the
  // intra reduce-scatter and all-gather move (L-1)/L B over the port, the inter all-reduce
  // 2 (G-1)/G of B/L over the NIC.
  System c4 = load_system("trn3-gen2-ultracluster:4");
  const double L = 144, G = 4, n = 576, chip_port = c4.fabric_spec.intra_server_bandwidth_bytes_per_s;
  const double hier = 2 * (L - 1) / L / chip_port + 2 * (G - 1) / G / L / nic;
  CHECK(run(fast_dma(c4), "all-reduce", TiB, "hierarchical").busbw_bytes_per_s == Approx(2 * (n - 1) / n / hier).epsilon(1e-3));
  // With the DMA engines (rate r per chip) each phase's steps take the longer of the link's
  // time and the engines': a reduce-scatter step moves 2 DMA bytes per byte sent, an
  // all-gather step 1 -- inside the UltraServer and in the inter all-reduce alike.
  const double r = dma_rate(c4);
  const double hier_dma = (L - 1) / L * (std::max(1 / chip_port, 2 / r) + std::max(1 / chip_port, 1 / r)) +
                          (G - 1) / G / L * (std::max(1 / nic, 2 / r) + std::max(1 / nic, 1 / r));
  CHECK(run(c4, "all-reduce", TiB, "hierarchical").busbw_bytes_per_s == Approx(2 * (n - 1) / n / hier_dma).epsilon(1e-3));
}

TEST_CASE("collective times from the algorithm's steps, exactly", "[derived]") {
  // time = launch + sum over steps of (step overhead + the DMA transfers' fixed costs (one
  // per transfer a rank sends, its collective cores working in parallel: ceil(transfers /
  // cores) rounds, S14) + the longest path latency + the longer of the busiest link's bytes
  // / its bandwidth and the DMA time (bytes sent + operands read to reduce) / (engines in
  // use x the engine's rate), the engines in use at most the transfers' 64 KiB packets).
  System s = load_system("trn3-gen2-ultraserver");
  const FabricSpec& f = s.fabric_spec;
  const double n = s.chips, B = 256 * MiB, port = f.intra_server_bandwidth_bytes_per_s;
  const double cores = s.chip.neuroncore->collective_cores, engine = s.chip.neuroncore->dma_engine_bandwidth_bytes_per_s;
  const double fixed = s.chip.neuroncore->dma_transfer_fixed_s, packet = f.dma_packet_bytes;
  REQUIRE(fixed == Approx(1300e-9));
  REQUIRE(packet == 64 * 1024);
  // One step of `transfers` of `bytes` per rank, reading `reduce` more, `link_s` on the busiest link.
  auto step = [&](double transfers, double bytes, double reduce, double latency, double link_s) {
    const double engines = std::max(1.0, std::min(cores, transfers * std::ceil(bytes / packet)));
    const double dma = (transfers * bytes + reduce) / (engines * engine);
    return f.step_overhead_s + std::ceil(transfers / cores) * fixed + latency + std::max(link_s, dma);
  };
  const double cross = 2 * f.l1_latency_s + f.l2_latency_s, inside = f.l1_latency_s;
  // Ring all-reduce: n - 1 reduce-scatter steps (send B/n, reduce the B/n received) and n - 1
  // all-gather steps; some cross servers.
  CHECK(run(s, "all-reduce", B, "ring").time_s ==
        exact_time(f.launch_overhead_s + (n - 1) * step(1, B / n, B / n, cross, B / n / port) +
                   (n - 1) * step(1, B / n, 0, cross, B / n / port)));
  // Two counter-rotating rings: two transfers of B/(2n) per rank per step, through the same port.
  CHECK(run(s, "all-gather", B, "kangaring").time_s ==
        exact_time(f.launch_overhead_s + (n - 1) * step(2, B / n / 2, 0, cross, B / n / port)));
  // Mesh reduce-scatter: one step, n - 1 transfers of B/n from every rank, reducing n - 1 blocks.
  CHECK(run(s, "reduce-scatter", B, "mesh").time_s ==
        exact_time(f.launch_overhead_s + step(n - 1, B / n, (n - 1) * B / n, cross, (n - 1) * B / n / port)));
  // A small mesh all-gather: 143 transfers of 7 KiB, one packet each -- every core busy,
  // ceil(143 / 16) = 9 rounds of fixed cost.
  const double small = 144 * 7 * 1024;
  CHECK(run(s, "all-gather", small, "mesh").time_s ==
        exact_time(f.launch_overhead_s + step(n - 1, small / n, 0, cross, (n - 1) * small / n / port)));
  // RDH all-reduce on 128 ranks: 7 halving steps (B/2 .. B/128, each reduced) and 7 doubling
  // steps; the partners 1 and 2 apart share a 4-chip server, farther ones cross the second level.
  double rdh = f.launch_overhead_s;
  for (int k = 0; k < 7; ++k) {
    const double mask = std::pow(2, 6 - k), part = B / std::pow(2, k + 1);  // halving: 64, 32, .. 1
    rdh += step(1, part, part, mask >= 4 ? cross : inside, part / port);
  }
  for (int k = 0; k < 7; ++k) {
    const double mask = std::pow(2, k), part = B / 128 * std::pow(2, k);  // doubling: 1, 2, .. 64
    rdh += step(1, part, 0, mask >= 4 ? cross : inside, part / port);
  }
  CHECK(run(s, "all-reduce", B, "rdh", 128).time_s == exact_time(rdh));
  // Permute: one step, B to the next rank.
  CHECK(run(s, "permute", B, "auto").time_s == exact_time(f.launch_overhead_s + step(1, B, 0, cross, B / port)));
  // Halving a link's bandwidth doubles exactly the link part of the time (with DMA engines
  // fast enough not to bound it), and halving the DMA engines' rate doubles their part.
  json half = data_file("data/systems/trn3-gen2-ultraserver.json");
  // Published figures count both directions: 1,280 GB/s is 640 GB/s a direction, half the port.
  half["fabric"]["intra_server_bandwidth"] = {{"value", 1280}, {"unit", "GB/s"}, {"source", "assumption: half the port, a test"}};
  System h = user_system(half, "test-half-port");
  System slow_dma = s;
  slow_dma.chip.neuroncore->dma_engine_bandwidth_bytes_per_s /= 2;
  for (const char* algo : {"ring", "kangaring", "mesh"}) {
    auto a = run(fast_dma(s), "all-gather", B, algo), b = run(fast_dma(h), "all-gather", B, algo);
    INFO(algo);
    CHECK(a.link_s > a.dma_s);
    CHECK(b.time_s - b.overhead_s - b.latency_s == exact_time(2 * (a.time_s - a.overhead_s - a.latency_s)));
    // As built, Trainium3's engines (16 x 33 GB/s) bound every step below the 1.28 TB/s port.
    auto c = run(s, "all-gather", B, algo), d = run(slow_dma, "all-gather", B, algo);
    CHECK(c.dma_s > c.link_s);
    CHECK(c.time_s - c.overhead_s - c.latency_s == exact_time(c.dma_s));
    CHECK(d.dma_s == exact_time(2 * c.dma_s));
    CHECK(d.time_s - d.overhead_s - d.latency_s == exact_time(2 * c.dma_s));
  }
}

TEST_CASE("the automatic choice switches at S13's 1 MiB and 56 MiB exactly", "[derived]") {
  // Neuron collectives documentation (S13): mesh below 1 MB, RDH from 1 to 56 MB, the ring
  // family (KangaRing) above.
  System s = load_system("trn3-gen2-ultraserver");
  for (const char* op : {"all-reduce", "all-gather", "reduce-scatter"}) {
    INFO(op);
    CHECK(run(s, op, MiB - 1, "auto").algorithm == "mesh");
    CHECK(run(s, op, MiB, "auto").algorithm == "rdh");
    CHECK(run(s, op, 56 * MiB, "auto").algorithm == "rdh");
    CHECK(run(s, op, 56 * MiB + 1, "auto").algorithm == "kangaring");
  }
  CHECK(run(s, "all-to-all", 4 * 56 * MiB, "auto").algorithm == "mesh");
  CHECK(run(s, "broadcast", MiB - 1, "auto").algorithm == "mesh");
  CHECK(run(s, "broadcast", MiB, "auto").algorithm == "ring");
}

namespace {

// For every pattern the collectives use -- rings both ways, all-pairs, the RDH exchanges --
// every server's uplinks to the second-level switches carry the same bytes, and so do its
// downlinks: each flow between servers is sprayed over the l2 switches, 1 / l2 of it up
// and 1 / l2 down through each (so the busiest carries at most ceil(flows / l2), the
// idlest at least floor, the balance a single-path rule could at best reach); each flow
// crosses the second level once, up and down.
void check_balance(const std::vector<std::tuple<int, int, int>>& shapes) {
  for (auto [per_server, servers, l2] : shapes) {
    System s = switch_system(per_server, servers, l2);
    trnsim::fabric::Topology topo(s);
    const long n = s.chips;
    std::map<std::string, std::vector<std::pair<long, long>>> patterns;
    for (long m = 0; m < n; ++m) {
      patterns["ring"].push_back({m, (m + 1) % n});
      patterns["both rings"].push_back({m, (m + 1) % n});
      patterns["both rings"].push_back({m, (m + n - 1) % n});
      for (long d = 0; d < n; ++d)
        if (d != m) patterns["all-pairs"].push_back({m, d});
      for (long mask = 1; mask < n; mask *= 2)
        if ((m ^ mask) < n) patterns["xor " + std::to_string(mask)].push_back({m, m ^ mask});
    }
    for (const auto& [name, flows] : patterns) {
      INFO(s.name << ": " << name);
      std::map<trnsim::fabric::LinkId, double> load;  // flows through the link (a sprayed flow counts its share)
      std::map<int, double> up_flows, down_flows;     // flows leaving / entering each server
      std::vector<trnsim::fabric::Hop> hops;
      double crossing = 0, second_level = 0;
      for (auto [src, dst] : flows) {
        hops.clear();
        topo.route(src, dst, hops);
        if (src / per_server != dst / per_server) {
          crossing += 2;  // up and down
          up_flows[static_cast<int>(src / per_server)] += 1;
          down_flows[static_cast<int>(dst / per_server)] += 1;
        }
        for (const auto& h : hops) {
          load[h.link] += h.share;
          if (topo.link_name(h.link).find("L2 switch") != std::string::npos) second_level += h.share;
        }
      }
      CHECK(second_level == Approx(crossing));
      for (int srv = 0; srv < servers; ++srv) {
        std::vector<double> up, down;
        for (const auto& [l, flows_on] : load) {
          std::string nm = topo.link_name(l);
          if (nm.find("server " + std::to_string(srv) + " -> L2") == 0) up.push_back(flows_on);
          const std::string into = " -> server " + std::to_string(srv);
          if (nm.rfind("L2 switch", 0) == 0 && nm.size() > into.size() && nm.compare(nm.size() - into.size(), into.size(), into) == 0)
            down.push_back(flows_on);
        }
        // Every switch carries exactly 1 / l2 of the server's flows each way: within the
        // ceil / floor bound of the flows per switch.
        for (auto [side, total] : {std::pair{&up, up_flows[srv]}, std::pair{&down, down_flows[srv]}}) {
          if (total == 0) {
            CHECK(side->empty());
            continue;
          }
          CHECK(side->size() == static_cast<std::size_t>(l2));
          for (double f : *side) {
            CHECK(f == Approx(total / l2).epsilon(1e-12));
            CHECK(f <= std::ceil(total / l2) * (1 + 1e-12));
            CHECK(f >= std::floor(total / l2) * (1 - 1e-12));
          }
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("routes are balanced over the second-level switches", "[derived]") {
  check_balance({{4, 6, 2}, {4, 36, 2}, {16, 4, 2}, {8, 4, 2}});
}

TEST_CASE("routes are balanced over the second-level switches for any chips per server", "[derived]") {
  // With 1, 3, 5, 6 or 7 chips per server a single switch per flow by chip position loaded
  // one switch with more flows than ceil(flows / l2) for rings both ways, all-to-alls or RDH
  // exchanges; sprayed flows load every switch with flows / l2.
  check_balance({{3, 8, 2}, {5, 6, 3}, {1, 8, 2}, {7, 3, 4}, {6, 4, 3}});
}

TEST_CASE("the event backend agrees with the analytic one on a balanced 8-chip-server fabric", "[derived]") {
  // Max-min fair sharing of equal flows that all start together ends when the busiest link
  // drains: where the second level does not block, the two backends give the same time.
  System s = switch_system(8, 4, 2);
  for (const char* algo : {"ring", "kangaring", "mesh"}) {
    INFO(algo);
    CHECK(run(s, "all-gather", 64 * MiB, algo, 0, 1, "event").time_s ==
          Approx(run(s, "all-gather", 64 * MiB, algo).time_s).epsilon(1e-6));
  }
}


namespace {

// ---- routes, latencies and link loads written from the data files ----------------------
// What core/fabric/topology.h documents, derived here from the system's data file (the
// cluster's UltraServer for a cluster, each value as the chosen alternatives give it): a
// torus routes dimension by dimension the shorter way round (ties: + from an even
// coordinate), each hop paying its dimension's link_latency; inside a NeuronSwitch server a
// flow crosses the first-level switch (l1_latency), between servers both servers' first-level
// switches and the second level (2 l1 + l2), sprayed evenly over the l2_switches second-level
// switches: 1 / l2 of its bytes on each switch's uplink from the source server and downlink
// to the destination server, sized chips_per_server x inter_server_bandwidth / l2; between
// UltraServers a flow leaves through the source chip's EFA share and enters through the
// destination's (efa.latency).

// The value of a data quantity under the chosen alternatives (a quantity lists the
// alternatives its sources disagree on; no alternative chosen: its own value).
json chosen(const json& q, const std::vector<std::string>& alternatives) {
  if (q.contains("alternatives"))
    for (const std::string& a : alternatives)
      if (q.at("alternatives").contains(a)) return q.at("alternatives").at(a);
  return q;
}

struct DataFabric {
  std::string kind;                  // "torus" or "switch"
  long per_server = 0, per_domain = 0;
  std::vector<int> sizes;            // torus, dimension 0 first
  std::vector<double> hop_latency;   // torus: s per hop of each dimension
  int l2 = 0;                        // switch
  bool shared = true;
  double l1_latency = 0, l2_latency = 0, efa_latency = 0;
};

DataFabric data_fabric(const std::string& system_name) {
  const trnsim::hw::SystemName n = trnsim::hw::parse_system_name(system_name);
  const json d = derived::system_data(system_name), f = d.at("fabric");
  auto value = [&](const json& q) { return chosen(q, n.alternatives).at("value"); };
  DataFabric out;
  out.kind = f.at("kind").get<std::string>();
  out.per_server = value(d.at("chips_per_server")).get<long>();
  out.per_domain = out.per_server * value(d.at("servers")).get<long>();  // before a switch group replaces per_server
  out.efa_latency = si(chosen(d.at("scale_out").at("latency"), n.alternatives));
  if (out.kind == "torus") {
    for (const json& dim : f.at("torus")) {
      out.sizes.push_back(value(dim.at("size")).get<int>());
      out.hop_latency.push_back(si(chosen(dim.at("link_latency"), n.alternatives)));
    }
  } else {
    // A domain whose chips all reach the same switches (an NVL72 rack) is one first-level
    // group of chips_per_l1_switch chips, with no second level.
    if (f.contains("chips_per_l1_switch")) out.per_server = value(f.at("chips_per_l1_switch")).get<long>();
    out.l2 = f.contains("l2_switches") ? value(f.at("l2_switches")).get<int>() : 0;
    out.shared = value(f.at("shared_chip_port")).get<bool>();
    out.l1_latency = si(chosen(f.at("l1_latency"), n.alternatives));
    out.l2_latency = f.contains("l2_latency") ? si(chosen(f.at("l2_latency"), n.alternatives)) : 0.0;
  }
  return out;
}

// A chip's torus coordinates in its domain, dimension 0 varying fastest.
std::vector<int> coordinates(const DataFabric& f, long chip) {
  std::vector<int> c;
  long local = chip % f.per_domain;
  for (int size : f.sizes) {
    c.push_back(static_cast<int>(local % size));
    local /= size;
  }
  return c;
}

// Hops of the shortest way round each torus dimension from src to dst (same domain).
std::vector<int> torus_hops(const DataFabric& f, long src, long dst) {
  const std::vector<int> a = coordinates(f, src), b = coordinates(f, dst);
  std::vector<int> h;
  for (std::size_t d = 0; d < f.sizes.size(); ++d) {
    const int fwd = ((b[d] - a[d]) % f.sizes[d] + f.sizes[d]) % f.sizes[d];
    h.push_back(std::min(fwd, f.sizes[d] - fwd) % f.sizes[d]);
  }
  return h;
}

// One directed link of a derived path (named by its ends), the share of the flow's bytes it
// carries and its bandwidth.
struct DerivedLink {
  std::string name;
  double share = 1, bandwidth = 0;
};
struct DerivedPath {
  double latency = 0;
  std::vector<DerivedLink> links;
};

DerivedPath derived_path(const DataFabric& f, const FabricSpec& spec, long src, long dst) {
  DerivedPath p;
  const std::string s = std::to_string(src), d = std::to_string(dst);
  if (src / f.per_domain != dst / f.per_domain) {
    p.latency = f.efa_latency;
    p.links = {{"chip " + s + " -> EFA", 1, spec.efa_bandwidth_bytes_per_s_per_chip},
               {"EFA -> chip " + d, 1, spec.efa_bandwidth_bytes_per_s_per_chip}};
    return p;
  }
  if (f.kind == "torus") {
    long cur = src, stride = 1;
    std::vector<int> a = coordinates(f, src);
    const std::vector<int> b = coordinates(f, dst);
    for (std::size_t k = 0; k < f.sizes.size(); ++k) {
      const int n = f.sizes[k];
      const int fwd = ((b[k] - a[k]) % n + n) % n, back = (n - fwd) % n;
      const bool plus = fwd < back || (fwd == back && a[k] % 2 == 0);
      for (int h = 0; h < std::min(fwd, back); ++h) {
        const int next = plus ? (a[k] + 1) % n : (a[k] + n - 1) % n;
        const long to = cur + (next - a[k]) * stride;
        p.links.push_back({"chip " + std::to_string(cur) + " -> chip " + std::to_string(to), 1,
                           spec.torus[k].link_bandwidth_bytes_per_s});
        p.latency += f.hop_latency[k];
        cur = to;
        a[k] = next;
      }
      stride *= n;
    }
    return p;
  }
  const long from = src / f.per_server, into = dst / f.per_server;
  if (from == into) {
    p.latency = f.l1_latency;
    p.links = {{"chip " + s + " -> L1", 1, spec.intra_server_bandwidth_bytes_per_s},
               {"L1 -> chip " + d, 1, spec.intra_server_bandwidth_bytes_per_s}};
    return p;
  }
  // Out of the chip through its port to the first-level switch (shared with the traffic
  // inside the server), or through separate lanes (the PCIe view).
  p.latency = 2 * f.l1_latency + f.l2_latency;
  const std::string via = f.shared ? "L1" : "lanes";
  const double chip_bw = f.shared ? spec.intra_server_bandwidth_bytes_per_s : spec.inter_server_bandwidth_bytes_per_s;
  const double uplink = static_cast<double>(f.per_server) * spec.inter_server_bandwidth_bytes_per_s / f.l2;
  p.links.push_back({"chip " + s + " -> " + via, 1, chip_bw});
  for (int k = 0; k < f.l2; ++k) {
    p.links.push_back({"server " + std::to_string(from) + " -> L2 " + std::to_string(k), 1.0 / f.l2, uplink});
    p.links.push_back({"L2 " + std::to_string(k) + " -> server " + std::to_string(into), 1.0 / f.l2, uplink});
  }
  p.links.push_back({via + " -> chip " + d, 1, chip_bw});
  return p;
}

// Every built-in system with a fabric (a chip alone has none), as its data gives it and with
// each named alternative of its data; a cluster at 2 UltraServers (EFA joins any number the
// same way, and the event backend times every flow).
std::vector<std::string> fabric_systems() {
  std::vector<std::string> out;
  for (const std::string& name : trnsim::hw::system_names()) {
    const System s = load_system(name);
    if (s.chips < 2) continue;
    const std::string base = s.domains > 1 ? name + ":2" : name;
    out.push_back(base);
    for (const std::string& alt : trnsim::hw::alternative_names(s)) out.push_back(base + "+" + alt);
  }
  return out;
}

}  // namespace

TEST_CASE("torus routes: the latency is the sum of the hops counted from the coordinates", "[derived]") {
  // On every torus system (and its alternatives), every route from a chip of the first domain:
  // the hops of each dimension are the shorter way round between the two coordinates, the
  // latency the sum of those hops' link latencies from the data file (EFA's between domains).
  // The collective backends report the same latency for a permute between two chips at every
  // distance, and its bytes over the slowest link it crosses (each link carries one flow).
  using namespace trnsim::collective;
  int torus_systems = 0;
  for (const std::string& name : fabric_systems()) {
    const DataFabric f = data_fabric(name);
    if (f.kind != "torus") continue;
    ++torus_systems;
    const System s = load_system(name);
    const trnsim::fabric::Topology topo(s);
    INFO(name);
    REQUIRE(s.chips_per_domain == f.per_domain);
    std::string wrong;  // the first route that differs (one check per system keeps the output short)
    long routes = 0;
    std::map<int, long> first_at;  // hop count -> the first chip that far from chip 0
    std::vector<trnsim::fabric::Hop> hops;
    for (long src = 0; src < f.per_domain; ++src) {
      for (long dst = 0; dst < std::min<long>(s.chips, 2 * f.per_domain); ++dst) {
        if (dst == src) continue;
        hops.clear();
        const double latency = topo.route(src, dst, hops);
        ++routes;
        // Between domains: EFA out and in (distance -1 below).
        double want = f.efa_latency;
        int total = 2, distance = -1;
        std::vector<int> per_dim(f.sizes.size(), 0), got(f.sizes.size(), 0);
        if (dst / f.per_domain == src / f.per_domain) {
          per_dim = torus_hops(f, src, dst);
          want = 0, total = 0;
          for (std::size_t d = 0; d < per_dim.size(); ++d) want += per_dim[d] * f.hop_latency[d], total += per_dim[d];
          distance = total;
          for (const auto& h : hops) {
            const auto e = topo.ends(h.link);
            if (e.kind == trnsim::fabric::LinkKind::torus && h.share == 1) ++got[static_cast<std::size_t>(e.torus_dim)];
          }
        } else {
          got = per_dim;
        }
        if (src == 0 && !first_at.count(distance)) first_at[distance] = dst;
        if (wrong.empty() && (std::abs(latency - want) > 1e-12 * want || static_cast<int>(hops.size()) != total || got != per_dim))
          wrong = std::to_string(src) + " -> " + std::to_string(dst) + ": latency " + std::to_string(latency * 1e6) + " us, " +
                  std::to_string(hops.size()) + " hops; derived " + std::to_string(want * 1e6) + " us, " + std::to_string(total);
      }
    }
    CHECK(wrong == "");
    CHECK(routes == f.per_domain * (std::min<long>(s.chips, 2 * f.per_domain) - 1));
    // Every distance, 1 to the torus's diameter, through both backends.
    int diameter = 0;
    for (int size : f.sizes) diameter += size / 2;
    REQUIRE(first_at.size() == static_cast<std::size_t>(diameter) + (s.domains > 1 ? 1 : 0));
    for (const auto& [distance, chip] : first_at) {
      const DerivedPath there = derived_path(f, s.fabric_spec, 0, chip), back = derived_path(f, s.fabric_spec, chip, 0);
      double slowest = std::numeric_limits<double>::infinity();
      for (const DerivedPath* p : {&there, &back})
        for (const DerivedLink& l : p->links) slowest = std::min(slowest, l.bandwidth);
      for (const char* backend : {"analytic", "event"}) {
        INFO(backend << ": chip 0 <-> chip " << chip << ", " << distance << " hops (-1: EFA)");
        const Result r = run(s, "permute", MiB, "auto", 2, static_cast<int>(chip), backend);
        REQUIRE(r.steps == 1);
        CHECK(r.latency_s == exact_time(std::max(there.latency, back.latency)));
        CHECK(r.link_s == exact_time(MiB / slowest));
      }
    }
  }
  CHECK(torus_systems >= 2);  // trn2.48xlarge, the Trn2 UltraServer (and its cluster), with alternatives
}

namespace {

// One step of a collective timed by both backends against the derivation: the step's
// latency is its longest derived path's; every flow's `bytes` load each link of its derived
// path by bytes x the share the link carries (a flow sprayed over l second-level switches: 1 / l
// on each), and the transfer takes the busiest link's load / bandwidth. That is also the
// event backend's time: equal flows starting together and sharing links max-min fairly are
// frozen first on the link with the most flows per bandwidth, at its fair rate, which keeps it
// full to the end; every other flow runs at least as fast (each chip's flows here fit its
// collective cores, so all start at once).
void check_step(const System& s, const DataFabric& f, const trnsim::collective::Step& step, const std::string& what) {
  using namespace trnsim::collective;
  const trnsim::fabric::Topology topo(s);
  RankMap map;
  map.topology = &topo;
  map.ranks = s.chips;
  map.ranks_per_domain = s.domains > 1 ? s.chips_per_domain : 0;
  // A chip without the NeuronCore block drives every flow at once (no collective-core cap).
  const int cap = s.chip.neuroncore ? s.chip.neuroncore->collective_cores : 0;
  map.max_flows_per_chip = cap;
  REQUIRE((cap == 0 || max_flows_per_rank(step, map.ranks) <= cap));
  std::map<std::string, double> load, bandwidth;
  double latency = 0, sprayed = 0;
  for (long g = 0; g < subgroups(step, map.ranks); ++g)
    for_each_flow_in_group(step, map.ranks, g, [&](long src, long dst) {
      const DerivedPath p = derived_path(f, s.fabric_spec, src, dst);
      latency = std::max(latency, p.latency);
      for (const DerivedLink& l : p.links) {
        load[l.name] += step.bytes * l.share;
        bandwidth[l.name] = l.bandwidth;
        if (l.share < 1) sprayed += l.share;
      }
    });
  double transfer = 0;
  for (const auto& [name, bytes] : load) transfer = std::max(transfer, bytes / bandwidth.at(name));
  for (const char* backend : {"analytic", "event"}) {
    INFO(s.name << ", " << what << ", " << backend << " backend (" << sprayed << " flow-shares sprayed)");
    const StepTime t = make_backend(backend)->time_step(step, map);
    CHECK(t.latency_s == exact_time(latency));
    CHECK(t.transfer_s == Approx(transfer).epsilon(1e-9));
  }
}

}  // namespace

TEST_CASE("every link's load is derived from the routes: both backends, every system and alternative", "[derived]") {
  // On every built-in system and every named alternative of its data (the PCIe view's separate
  // lanes included), and on user fabrics whose second level is the bottleneck, steps whose
  // flows stay in a server, cross servers (every chip to its counterpart in the next server:
  // every second-level link as loaded as the chip ports), cross UltraServers, or mix them.
  using trnsim::collective::Pattern;
  using trnsim::collective::Step;
  const double B = 64 * MiB;
  std::vector<std::pair<System, std::string>> systems;
  for (const std::string& name : fabric_systems()) systems.push_back({load_system(name), name});
  // The shared chip port at full NeuronLink, the uplinks sized for half of it: between servers
  // a chip gets half its port, through the second level (the built-in data sizes them equal).
  json half_up = data_file("data/systems/trn3-gen2-ultraserver.json");
  half_up["fabric"]["inter_server_bandwidth"] = {{"value", 1280}, {"unit", "GB/s"}, {"source", "assumption: half the port, a test"}};
  systems.push_back({user_system(half_up, "test-half-uplinks"), "trn3-gen2-ultraserver"});
  half_up["chips_per_server"]["value"] = 3;
  half_up["servers"]["value"] = 8;
  half_up["fabric"]["l2_switches"]["value"] = 3;
  systems.push_back({user_system(half_up, "test-half-uplinks-3x8-l2-3"), "trn3-gen2-ultraserver"});
  int sprayed_systems = 0, lanes_systems = 0;
  for (const auto& [s, data_name] : systems) {
    DataFabric f = data_fabric(data_name);
    f.per_server = s.chips_per_server, f.per_domain = s.chips_per_domain;  // the user files change them
    if (f.kind == "switch") f.l2 = s.fabric_spec.l2_switches, ++sprayed_systems;
    if (f.kind == "switch" && !f.shared) ++lanes_systems;
    std::vector<std::pair<Step, std::string>> steps;
    auto add = [&](Pattern pattern, long param, long group, const std::string& what) {
      Step st;
      st.pattern = pattern, st.param = param, st.group_size = group, st.bytes = B;
      steps.push_back({st, what});
    };
    add(Pattern::shift, 1, 0, "ring");
    add(Pattern::shift_both, 1, 0, "two rings");
    add(Pattern::shift, 3, 0, "shift by 3");
    add(Pattern::shift, f.per_server, 0, "to the next server");
    add(Pattern::shift_both, f.per_server, 0, "to both neighbouring servers");
    add(Pattern::xor_, f.per_server, 0, "exchange with the partner server");
    add(Pattern::all_pairs, 0, 2 * f.per_server <= s.chip.neuroncore->collective_cores && s.chips % (2 * f.per_server) == 0 ? 2 * f.per_server : 4,
        "all-pairs in groups");
    if (s.domains > 1) add(Pattern::shift, s.chips_per_domain, 0, "to the next UltraServer");
    for (const auto& [st, what] : steps) check_step(s, f, st, what);
  }
  CHECK(sprayed_systems >= 4);
  CHECK(lanes_systems >= 1);  // +pcie-switch-view
}
}  // namespace unit_derived_fabric

namespace unit_derived_fabric {

namespace {

// The analytic step time as routing every selected flow afresh gives it: each hop adds
// bytes x count x share to its link's load in flow order (a translation-symmetric step folds
// links onto UltraServer 0's), the transfer is the busiest link's load / bandwidth, the latency
// the longest path's.
trnsim::collective::StepTime routed_afresh(const trnsim::collective::Step& step, const trnsim::collective::RankMap& map) {
  using namespace trnsim::collective;
  const trnsim::fabric::Topology& topo = *map.topology;
  const Selection sel = select_flows(step, map, true);
  StepTime t;
  std::unordered_map<trnsim::fabric::LinkId, double> load;
  std::vector<trnsim::fabric::Hop> hops;
  const bool fold = sel.mode == Symmetry::translation;
  if (sel.mode == Symmetry::one_group) {
    bool found = false;
    for_each_flow_in_group(step, map.ranks, 0, [&](long src, long dst) {
      if (found) return;
      found = true;
      t.latency_s = topo.route(map.chip(src), map.chip(dst), hops);
    });
    const double degree = double(max_flows_per_rank(step, map.ranks)) * double(sel.group_end);
    for (const auto& h : hops) t.transfer_s = std::max(t.transfer_s, degree * step.bytes * h.share / topo.bandwidth(h.link));
    return t;
  }
  for_each_selected_flow(step, map, sel, [&](long src, long dst, double count) {
    if (map.same_chip(src, dst)) return;
    hops.clear();
    t.latency_s = std::max(t.latency_s, topo.route(map.chip(src), map.chip(dst), hops));
    for (const auto& h : hops) {
      const trnsim::fabric::LinkId key = fold ? topo.to_domain0(h.link) : h.link;
      load[key] += step.bytes * count * h.share;
      t.transfer_s = std::max(t.transfer_s, load[key] / topo.bandwidth(key));
    }
  });
  return t;
}

}  // namespace

// The analytic backend routes a step shape once and replays its links at every size
// (analytic.cpp): whatever sizes and shapes it timed before, each step time must be the one
// routing afresh gives, to the bit -- on every built-in system, for rings, shifts, exchanges and
// all-pairs, whole and in subgroups, at stride 2 and with several ranks per chip, per
// UltraServer and translation-folded on clusters, one group across UltraServers, and a group
// too large for its links to be kept. And a runner gives run()'s results, whatever it ran before.
TEST_CASE("the analytic backend's replayed links give the step time routing afresh gives, to the bit", "[derived]") {
  using namespace trnsim::collective;
  std::vector<double> sizes = {3e6, 1e9};
  int compared = 0;
  auto check = [&](const System& s, long ranks, long stride, long per_chip, const std::string& what, bool all_pairs_only = false) {
    const trnsim::fabric::Topology topo(s);
    RankMap map;
    map.topology = &topo;
    map.ranks = ranks, map.stride = stride, map.ranks_per_chip = per_chip;
    const long per_domain = s.chips_per_domain % stride == 0 ? s.chips_per_domain / stride * per_chip : 0;
    map.ranks_per_domain = s.domains > 1 ? per_domain : 0;
    std::vector<Step> steps;
    auto add = [&](Pattern p, long param, long group, long member_stride) {
      Step st;
      st.pattern = p, st.param = param, st.group_size = group, st.member_stride = member_stride;
      if (all_pairs_only && (p != Pattern::all_pairs || group != 0)) return;
      if (group == 0 || (ranks % (group * member_stride) == 0 && group <= ranks)) steps.push_back(st);
    };
    add(Pattern::shift, 1, 0, 1);
    add(Pattern::shift_both, 1, 0, 1);
    add(Pattern::shift, 3, 0, 1);
    add(Pattern::xor_, 2, 0, 1);
    add(Pattern::all_pairs, 0, 0, 1);
    add(Pattern::all_pairs, 0, 4, 1);
    add(Pattern::all_pairs, 0, 2, ranks / 2);
    const auto backend = make_backend("analytic");
    for (int pass = 0; pass < 2; ++pass)
      for (Step st : steps)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
          st.bytes = sizes[pass == 0 ? i : sizes.size() - 1 - i];
          INFO(s.name << ", " << what << ", pattern " << int(st.pattern) << " param " << st.param << " group "
                      << st.group_size << " x" << st.member_stride << ", " << st.bytes << " B");
          const StepTime got = backend->time_step(st, map), want = routed_afresh(st, map);
          CHECK(got.latency_s == want.latency_s);
          CHECK(got.transfer_s == want.transfer_s);
          CHECK(got.time_s == got.latency_s + got.transfer_s);
          ++compared;
        }
  };
  for (const std::string& name : fabric_systems()) {
    const System s = load_system(name);
    check(s, s.chips, 1, 1, "every chip");
    if (s.chips >= 8) check(s, s.chips / 2, 2, 1, "every other chip");
    if (s.chip.cores() >= 4 && s.chips >= 4) check(s, 16, 1, 4, "16 ranks, 4 a chip");
  }
  CHECK(compared > 1000);
  // 300 of 576 chips do not fill whole UltraServers, so every one of an all-pairs step's 89,700
  // flows is enumerated: more than the backend keeps (routed again at each size).
  check(load_system("trn3-gen2-ultracluster:4"), 300, 1, 1, "300 chips of 4 UltraServers", true);

  // The runner: run()'s result in every field, for each op at sizes up and down (on both sides
  // of the automatic choice's switches at 1 MiB and 56 MiB).
  sizes = {65536, 3e6, 57 * MiB, 1e9};
  const System s = load_system("trn3-gen2-ultracluster:2");
  Runner runner(s);
  for (int pass = 0; pass < 2; ++pass)
    for (const char* op : {"all-reduce", "all-gather", "all-to-all"})
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        Request r;
        r.op = op, r.bytes = sizes[pass == 0 ? i : sizes.size() - 1 - i];
        const Result a = runner.run(r), b = run(s, r);
        INFO(op << " " << r.bytes);
        CHECK((a.time_s == b.time_s && a.algorithm == b.algorithm && a.steps == b.steps && a.latency_s == b.latency_s &&
               a.link_s == b.link_s && a.dma_s == b.dma_s && a.overhead_s == b.overhead_s && a.flows_timed == b.flows_timed));
      }
}

}  // namespace unit_derived_fabric
