// Collectives on the fabric and the DMA engines that execute them: busbw limits, latency
// floors, logical NeuronCores as ranks, the two backends against each other, strided
// groups, huge clusters through symmetry, and clear errors.
#include <catch2/catch.hpp>

#include <functional>

#include "collective/algorithms.h"
#include "hw/system.h"
#include "collective/collective.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_collective {

using test_support::contains;
using test_support::error_of;
using trnsim::InputError;
using namespace trnsim::hw;

namespace {

trnsim::collective::Result run(const System& s, const std::string& op, double bytes, const std::string& algo = "auto",
                               const std::string& backend = "analytic", int ranks = 0, int stride = 1,
                               int ranks_per_chip = 1) {
  trnsim::collective::Request r;
  r.op = op;
  r.bytes = bytes;
  r.algo = algo;
  r.backend = backend;
  r.ranks = ranks;
  r.stride = stride;
  r.ranks_per_chip = ranks_per_chip;
  return trnsim::collective::run(s, r);
}

// What one rank's DMA engines move per second: its collective-communication cores, each
// driving one engine (chip data: collective_cores, dma.engine_bandwidth).
double dma_rate(const System& s, int ranks_per_chip) {
  return s.chip.neuroncore->collective_cores / ranks_per_chip * s.chip.neuroncore->dma_engine_bandwidth_bytes_per_s;
}

const double MiB = 1048576.0, GiB = 1073741824.0;

}  // namespace

TEST_CASE("large messages are bound by the slower of the links and the DMA engines") {
  System t = load_system("trn2-48xlarge");
  double link = t.fabric_spec.torus[0].link_bandwidth_bytes_per_s;  // 128 GB/s per direction
  double dma = dma_rate(t, 1);                                       // 16 CC cores x 23 GB/s
  CHECK(dma == Approx(368e9));
  // One ring uses one link direction per chip: below the DMA engines even when a reduce-
  // scatter step reads two operands per byte it sends (2 x 128 < 368).
  CHECK(run(t, "all-reduce", 16 * GiB, "ring").busbw_bytes_per_s == Approx(link).epsilon(0.03));
  CHECK(run(t, "all-gather", 16 * GiB, "ring").busbw_bytes_per_s == Approx(link).epsilon(0.03));
  // Two counter-rotating rings double the links; their reduce-scatter half is then bound
  // by the DMA engines (2 bytes read per byte sent), their all-gather half by the links.
  double rs = dma / 2, ag = 2 * link;
  CHECK(run(t, "all-reduce", 16 * GiB, "kangaring").busbw_bytes_per_s == Approx(2 / (1 / rs + 1 / ag)).epsilon(0.03));
  // On NeuronSwitch the chip port (2.56 TB/s both ways = 1.28 TB/s out) is faster than the
  // chip's 16 collective DMA channels (16 x 33 GB/s): the engines bind.
  System g = load_system("trn3-gen2-ultraserver");
  double port = g.fabric_spec.intra_server_bandwidth_bytes_per_s, gdma = dma_rate(g, 1);
  CHECK(port == Approx(1.28e12));
  CHECK(gdma == Approx(528e9));
  CHECK(run(g, "reduce-scatter", 64 * GiB, "ring").busbw_bytes_per_s == Approx(gdma / 2).epsilon(0.03));
  CHECK(run(g, "all-to-all", 16 * GiB, "mesh").busbw_bytes_per_s == Approx(gdma).epsilon(0.03));
  // Never above either bound.
  for (double b = 1024; b <= 4 * GiB; b *= 4) {
    CHECK(run(g, "all-reduce", b).busbw_bytes_per_s <= std::min(port, gdma) * 1.0001);
    CHECK(run(t, "all-reduce", b).busbw_bytes_per_s <= std::min(4 * link, dma) * 1.0001);
  }
}

TEST_CASE("logical NeuronCores as ranks: on-chip transfers, Neuron's stages, KangaRing pairs") {
  System t = load_system("trn2-48xlarge");
  const double ch = dma_rate(t, 4);  // a logical core at LNC=2: 4 CC cores
  CHECK(ch == Approx(92e9));
  // nccom-test -r 2 on trn2: two logical cores of one chip. No link is used; the ring's
  // reduce-scatter moves B/2 reading two operands, its all-gather B/2: 1.5 B on the engines.
  auto two = run(t, "all-reduce", GiB, "auto", "analytic", 2, 1, 4);
  CHECK(two.ranks_per_chip == 2);
  CHECK(two.link_s == 0);
  CHECK(two.latency_s == 0);
  CHECK(two.time_s == Approx(1.5 * GiB / ch).epsilon(0.01));
  // 16 ranks on 4 chips, large: KangaRing pairs, every rank the primary of one of two
  // cycles: (P - 1) reduce-scatter steps reading 3 chunks and (P - 1) all-gather steps
  // reading 1, chunk B / 16, P = 8 primaries: 28 chunks = 1.75 B per rank.
  auto kr = run(t, "all-reduce", 512 * MiB, "auto", "analytic", 16, 1, 4);
  CHECK(contains(kr.algorithm, "kangaring"));
  CHECK(kr.steps == 14);
  CHECK(kr.time_s == Approx(1.75 * 512 * MiB / ch).epsilon(0.02));
  // Small: Mesh as an intra-chip stage, the inter-chip mesh among one local index, and
  // an intra-chip stage: 4 steps; the inter-chip ones send to 15 chips over 4 channels,
  // 4 rounds of the per-transfer cost.
  auto m = run(t, "all-reduce", 14336, "auto", "analytic", 64, 1, 4);
  CHECK(contains(m.algorithm, "mesh"));
  CHECK(m.steps == 4);
  double fixed = t.chip.neuroncore->dma_transfer_fixed_s;
  CHECK(m.overhead_s == Approx(t.fabric_spec.launch_overhead_s + (1 + 4 + 4 + 1) * fixed).epsilon(1e-6));
  // Logical-core groups cost more than chip-rank groups of the same chips: fewer channels
  // per rank and the intra-chip stages.
  CHECK(m.time_s > run(t, "all-reduce", 14336, "auto", "analytic", 16).time_s);
  // The backends agree on logical-core groups (nothing shared beyond the chip ports).
  for (double b : {14336.0, 8 * MiB, 512 * MiB}) {
    auto a = run(t, "all-reduce", b, "auto", "analytic", 16, 1, 4), e = run(t, "all-reduce", b, "auto", "event", 16, 1, 4);
    CHECK(e.time_s == Approx(a.time_s).epsilon(0.01));
  }
  // Across UltraServers the local indices share each chip's EFA share.
  System c = load_system("trn3-gen2-ultracluster:4");
  auto dp = run(c, "all-reduce", 4 * GiB, "ring", "analytic", 16, 144, 4);
  auto dpe = run(c, "all-reduce", 4 * GiB, "ring", "event", 16, 144, 4);
  CHECK(dpe.time_s == Approx(dp.time_s).epsilon(0.01));
  CHECK(contains(error_of([&] { run(t, "all-reduce", 1024, "auto", "analytic", 6, 1, 4); }),
                 "ranks: 6 ranks do not fill whole chips of 4 ranks"));
  CHECK(contains(error_of([&] { run(t, "all-reduce", 1024, "auto", "analytic", 8, 1, 9); }),
                 "ranks_per_chip: must be 1..8"));
}

TEST_CASE("small messages are latency-bound") {
  for (const char* name : {"trn2-48xlarge", "trn3-gen2-ultraserver"}) {
    System s = load_system(name);
    auto a = run(s, "all-reduce", 1024), b = run(s, "all-reduce", 8192);
    CHECK(b.time_s / a.time_s < 1.05);  // 8x the bytes, almost the same time
    CHECK(a.time_s >= s.fabric_spec.launch_overhead_s);
    CHECK(a.busbw_bytes_per_s < 0.01 * s.chip.link_bandwidth_bytes_per_s);
    CHECK(a.overhead_s + a.latency_s > 0.9 * a.time_s);
  }
}

TEST_CASE("busbw follows the nccl-tests conventions") {
  System s = load_system("trn3-gen1-ultraserver");
  auto ar = run(s, "all-reduce", 64 * MiB);
  CHECK(ar.algbw_bytes_per_s == Approx(64 * MiB / ar.time_s));
  CHECK(ar.busbw_bytes_per_s / ar.algbw_bytes_per_s == Approx(2.0 * 63 / 64));
  for (const char* op : {"all-gather", "reduce-scatter", "all-to-all"}) {
    auto r = run(s, op, 64 * MiB);
    CHECK(r.busbw_bytes_per_s / r.algbw_bytes_per_s == Approx(63.0 / 64));
  }
  for (const char* op : {"permute", "broadcast"}) {
    auto r = run(s, op, 64 * MiB);
    CHECK(r.busbw_bytes_per_s == Approx(r.algbw_bytes_per_s));
  }
}

TEST_CASE("automatic choice follows Neuron's sweet spots") {
  System s = load_system("trn3-gen2-ultraserver");
  CHECK(run(s, "all-reduce", 512 * 1024).algorithm == "mesh");
  CHECK(run(s, "all-reduce", 8 * MiB).algorithm == "rdh");
  CHECK(run(s, "all-reduce", 56 * MiB).algorithm == "rdh");
  CHECK(run(s, "all-reduce", 57 * MiB).algorithm == "kangaring");
  CHECK(run(s, "all-to-all", 8 * MiB).algorithm == "mesh");
  CHECK(run(s, "permute", 8 * MiB).algorithm == "direct");
  System c = load_system("trn3-gen2-ultracluster:4");
  CHECK(contains(run(c, "all-reduce", 8 * MiB).algorithm, "hierarchical("));
  // Strided across UltraServers with one rank in each: flat.
  CHECK(run(c, "all-reduce", 8 * MiB, "auto", "analytic", 4, 144).algorithm == "rdh");
}

TEST_CASE("analytic and event backends agree where nothing is shared") {
  struct Case {
    const char* system;
    const char* op;
    const char* algo;
    double bytes;
    int ranks, stride;
  };
  const Case cases[] = {
      {"trn2-48xlarge", "all-reduce", "ring", 64 * MiB, 0, 1},
      {"trn2-48xlarge", "all-gather", "kangaring", 256 * MiB, 0, 1},
      {"trn2-48xlarge", "all-reduce", "ring", 1024, 0, 1},
      {"trn2-ultraserver", "reduce-scatter", "ring", 64 * MiB, 0, 1},
      {"trn2-48xlarge", "all-reduce", "ring", 64 * MiB, 4, 4},  // a torus column
      {"trn3-gen2-ultraserver", "all-reduce", "ring", 64 * MiB, 0, 1},
      {"trn3-gen2-ultraserver", "all-reduce", "rdh", 8 * MiB, 0, 1},
      {"trn3-gen2-ultraserver", "permute", "auto", 8 * MiB, 0, 1},
      {"trn3-gen1-ultraserver", "all-gather", "ring", 64 * MiB, 0, 1},
      {"trn3-gen2-ultracluster:4", "all-reduce", "hierarchical", 64 * MiB, 0, 1},
      {"trn2-48xlarge", "all-to-all", "mesh", 64 * MiB, 0, 1},  // 15 peers: all flows at once
  };
  for (const auto& c : cases) {
    System s = load_system(c.system);
    auto a = run(s, c.op, c.bytes, c.algo, "analytic", c.ranks, c.stride);
    auto e = run(s, c.op, c.bytes, c.algo, "event", c.ranks, c.stride);
    INFO(c.system << " " << c.op << " " << c.algo);
    CHECK(e.time_s == Approx(a.time_s).epsilon(0.01));
    CHECK(e.algorithm == a.algorithm);
  }
}

TEST_CASE("the backends differ where links are shared") {
  // All-to-all on the 4x4x4 torus: each chip has 63 peers but drives 16 transfers at a
  // time; routes share torus links, so max-min sharing leaves links idle part of the time.
  System u = load_system("trn2-ultraserver");
  auto a = run(u, "all-to-all", 64 * MiB, "mesh", "analytic");
  auto e = run(u, "all-to-all", 64 * MiB, "mesh", "event");
  CHECK(e.time_s > a.time_s * 1.02);
  // On NeuronSwitch the same pattern only meets at the chip ports: they agree.
  System g = load_system("trn3-gen2-ultraserver");
  CHECK(run(g, "all-to-all", 64 * MiB, "mesh", "event").time_s ==
        Approx(run(g, "all-to-all", 64 * MiB, "mesh", "analytic").time_s).epsilon(0.01));
}

TEST_CASE("strided groups and sub-groups") {
  System t = load_system("trn2-48xlarge");
  // 4 ranks along a torus column (stride 4) and along a row (stride 1) see the same links.
  auto col = run(t, "all-reduce", 64 * MiB, "ring", "analytic", 4, 4);
  auto row = run(t, "all-reduce", 64 * MiB, "ring", "analytic", 4, 1);
  CHECK(col.time_s == Approx(row.time_s).epsilon(1e-9));
  // Stride 2 on a 4-ring: neighbours are 2 hops apart, sharing links: slower.
  auto spread = run(t, "all-reduce", 64 * MiB, "ring", "analytic", 8, 2);
  CHECK(spread.time_s > row.time_s);
  CHECK(run(t, "all-reduce", 64 * MiB, "ring", "event", 8, 2).time_s == Approx(spread.time_s).epsilon(0.01));
  // DP groups across UltraServers: one rank per UltraServer, bound by EFA (25 GB/s a chip).
  System c = load_system("trn3-gen2-ultracluster:8");
  auto dp = run(c, "all-reduce", 4 * GiB, "ring", "analytic", 8, 144);
  CHECK(dp.busbw_bytes_per_s == Approx(25e9).epsilon(0.03));
  CHECK(run(c, "all-reduce", 4 * GiB, "ring", "event", 8, 144).time_s == Approx(dp.time_s).epsilon(0.01));
}

TEST_CASE("huge clusters through symmetry") {
  System big = load_system("trn2-ultracluster:15625");  // 1,000,000 chips
  REQUIRE(big.chips == 1000000);
  auto r = run(big, "all-reduce", GiB);
  CHECK(contains(r.algorithm, "hierarchical"));
  CHECK(r.time_s > 0);
  CHECK(r.flows_timed < 1e6);  // symmetric: never every flow
  // The inter-UltraServer part is bound by EFA: busbw below 64 chips' EFA share x 2.
  CHECK(r.busbw_bytes_per_s < 64 * 25e9);
  // A flat ring folds onto one UltraServer (translation symmetry): over a million chips
  // it is latency-bound (a million EFA hops); over 1,024 chips bandwidth-bound by EFA.
  auto ring = run(big, "all-gather", 64 * GiB, "ring");
  CHECK(ring.flows_timed == 64);
  CHECK(ring.time_s > 999999 * big.fabric_spec.efa_latency_s);
  auto ring1k = run(load_system("trn2-ultracluster:16"), "all-gather", 64 * GiB, "ring");
  CHECK(ring1k.busbw_bytes_per_s == Approx(25e9).epsilon(0.02));
  // Same answer with or without symmetry on a cluster small enough to enumerate.
  System small = load_system("trn2-ultracluster:4");
  auto h = run(small, "all-reduce", 256 * MiB, "hierarchical", "analytic");
  auto he = run(small, "all-reduce", 256 * MiB, "hierarchical", "event");
  CHECK(h.time_s == Approx(he.time_s).epsilon(0.01));
}

TEST_CASE("impossible requests give clear errors") {
  System s = load_system("trn2-48xlarge");
  CHECK(contains(error_of([&] { run(s, "all-reduce", 1024, "auto", "analytic", 17); }),
                 "ranks: 17 ranks need 17 chips but trn2-48xlarge has 16"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", 1024, "auto", "analytic", 8, 3); }), "at stride 3 need 22 chips"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", 0); }), "bytes: must be a positive"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", -5); }), "bytes: must be a positive"));
  CHECK(contains(error_of([&] { run(s, "all-reduse", 1024); }), "op: unknown operation 'all-reduse' (did you mean 'all-reduce'?)"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", 1024, "rign"); }), "algo: unknown algorithm 'rign' (did you mean 'ring'?)"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", 1024, "ring", "evnt"); }), "backend: unknown backend 'evnt'"));
  CHECK(contains(error_of([&] { run(s, "all-reduce", 1024, "hierarchical"); }), "hierarchical needs ranks spanning"));
  CHECK(contains(error_of([&] { run(load_system("trainium3"), "all-reduce", 1024, "auto", "analytic", 2); }),
                 "need 2 chips but trainium3 has 1"));
  System big = load_system("trn2-ultracluster:15625");
  CHECK(contains(error_of([&] { run(big, "all-to-all", GiB, "mesh", "event"); }), "use the analytic backend"));
  // One rank: nothing to do.
  CHECK(run(s, "all-reduce", 1024, "auto", "analytic", 1).time_s == 0);
}

TEST_CASE("Trn3 UltraServer collectives are faster than Trn2's by the link ratio") {
  // Large ring all-gather: bound by one chip's port / link. Gen2's port carries the whole
  // 2x NeuronLink-v4 budget; a Trn2 torus ring uses one of its links.
  System t2 = load_system("trn2-ultraserver"), t3 = load_system("trn3-gen1-ultraserver");
  double r = run(t3, "all-gather", 16 * GiB, "ring").busbw_bytes_per_s /
             run(t2, "all-gather", 16 * GiB, "ring").busbw_bytes_per_s;
  CHECK(r > 2.0);
  CHECK(t3.chip.link_bandwidth_bytes_per_s / t2.chip.link_bandwidth_bytes_per_s == Approx(2.0));
}

TEST_CASE("request_ranks: the given ranks, or every chip at the stride times the ranks per chip") {
  const System t = load_system("trn2-48xlarge");
  namespace coll = trnsim::collective;
  coll::Request r;
  r.bytes = 1 << 20;
  CHECK(coll::request_ranks(t, r) == t.chips);
  r.stride = 3;  // chips 0, 3, 6, ...: the chips the strided group reaches
  long reached = 0;
  for (long c = 0; c < t.chips; c += r.stride) ++reached;
  CHECK(coll::request_ranks(t, r) == reached);
  r.stride = 1;
  r.ranks_per_chip = 2;
  CHECK(coll::request_ranks(t, r) == 2L * t.chips);
  r.ranks = 4;
  CHECK(coll::request_ranks(t, r) == 4);
  // The traffic the collective plans has as many ranks.
  r.ranks = 0;
  r.ranks_per_chip = 1;
  CHECK(coll::link_traffic(t, r).ranks == coll::request_ranks(t, r));
}

}  // namespace unit_collective
