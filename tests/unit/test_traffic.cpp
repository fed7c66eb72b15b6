// The fabric as a graph and the per-link traffic of a collective (what the playground's
// Fabric view draws): a domain's links are exactly the links routes use, link endpoints
// chain along every route, traffic follows the router (also on a two-level NeuronSwitch
// with an odd number of chips per server), any domain of a cluster, and the system-name
// grammar.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <tuple>

#include "collective/collective.h"
#include "fabric/topology.h"
#include "hw/system.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_traffic {

using test_support::contains;
using test_support::error_of;
using namespace trnsim;
using fabric::LinkId;
using fabric::NodeKind;

namespace {

// A Trainium3 NeuronSwitch test domain (tests/unit/data/switch-PxS[-lanes].json: P chips per
// server, S servers; 2 second-level switches, 3 for switch-5x3).
std::string switch_file(const std::string& name) {
  return std::string(TRNSIM_SOURCE_DIR) + "/tests/unit/data/" + name + ".json";
}

// Every route between two chips of domain d (and, in a cluster, to and from the next
// domain), checked hop by hop: the hops chain from the source chip to the destination, and
// every node a route passes (a switch a sprayed flow crosses over several paths) is left
// with the share it was entered with -- a whole flow leaves the source and enters the
// destination. A link's share is the same on every route.
std::set<LinkId> routed_links(const fabric::Topology& topo, int d) {
  std::set<LinkId> used;
  std::map<LinkId, double> share_of;
  const long per = topo.chips_per_domain(), lo = static_cast<long>(d) * per;
  std::vector<fabric::Hop> route;
  auto key = [](const fabric::Node& n) { return std::make_tuple(static_cast<int>(n.kind), n.index, n.domain); };
  auto check_route = [&](long src, long dst) {
    route.clear();
    topo.route(src, dst, route);
    REQUIRE(!route.empty());
    const fabric::Node from{NodeKind::chip, src, topo.domain_of(src)}, to{NodeKind::chip, dst, topo.domain_of(dst)};
    std::map<std::tuple<int, long, int>, double> held = {{key(from), 1.0}};  // share arrived, not yet sent on
    for (const fabric::Hop& h : route) {
      const fabric::LinkEnds e = topo.ends(h.link);
      CHECK(h.share > 0);
      CHECK(h.share <= 1);
      auto it = held.find(key(e.from));
      REQUIRE(it != held.end());  // leaves a node the route reached
      it->second -= h.share;
      CHECK(it->second >= -1e-12);
      held[key(e.to)] += h.share;
      auto [s, fresh] = share_of.emplace(h.link, h.share);
      if (!fresh) CHECK(s->second == h.share);
      if (topo.domain_of_link(h.link) == d) used.insert(h.link);
    }
    for (const auto& [node, left] : held) CHECK(left == Approx(node == key(to) ? 1.0 : 0.0).margin(1e-12));
  };
  for (long s = lo; s < lo + per; ++s)
    for (long t = lo; t < lo + per; ++t)
      if (s != t) check_route(s, t);
  if (topo.domains() > 1) {
    const long other = (lo + per) % topo.chips();
    for (long s = lo; s < lo + per; ++s) check_route(s, other), check_route(other, s);
  }
  return used;
}

collective::Request request(const std::string& op, double bytes, int ranks, const std::string& algo = "auto",
                            int stride = 1) {
  collective::Request r;
  r.op = op;
  r.bytes = bytes;
  r.ranks = ranks;
  r.algo = algo;
  r.stride = stride;
  return r;
}

double uplink_bytes(const fabric::Topology& topo, const collective::Traffic& t, int l2_switch) {
  double sum = 0;
  for (const auto& [id, b] : t.bytes) {
    fabric::LinkEnds e = topo.ends(id);
    if (e.kind == fabric::LinkKind::uplink && e.to.kind == NodeKind::l2_switch && e.to.index == l2_switch) sum += b;
  }
  return sum;
}

const double MiB = 1048576.0;

}  // namespace

TEST_CASE("a domain's links are exactly the links its routes use, and their ends chain") {
  const std::vector<std::string> systems = {
      "trn2-48xlarge", "trn2-ultraserver", "trn3-gen1-ultraserver", "trn3-gen2-ultraserver",
      "trn3-gen2-ultraserver+pcie-switch-view", "trn2-ultracluster:3", "trn3-gen2-ultracluster:2",
      switch_file("switch-3x5"), switch_file("switch-3x4-lanes"), switch_file("switch-1x6"), switch_file("switch-5x3")};
  for (const auto& name : systems) {
    INFO(name);
    const hw::System s = hw::load_system(name);
    const fabric::Topology topo(s);
    for (int d : {0, topo.domains() - 1}) {
      const std::vector<LinkId> listed = topo.domain_links(d);
      CHECK(std::set<LinkId>(listed.begin(), listed.end()) == routed_links(topo, d));
      for (LinkId id : listed) CHECK(topo.bandwidth(id) > 0);
    }
  }
  CHECK(contains(error_of([] { fabric::Topology(hw::load_system("trn2-ultraserver")).domain_links(1); }), "domain"));
}

TEST_CASE("a torus link's ends are neighbours; coordinates follow dimension 0 first") {
  const fabric::Topology topo(hw::load_system("trn2-ultraserver"));  // 4 x 4 x 4
  CHECK(topo.torus_coordinates(0) == std::vector<int>{0, 0, 0});
  CHECK(topo.torus_coordinates(1 + 4 * 2 + 16 * 3) == std::vector<int>{1, 2, 3});
  for (LinkId id : topo.domain_links(0)) {
    fabric::LinkEnds e = topo.ends(id);
    REQUIRE(e.kind == fabric::LinkKind::torus);
    std::vector<int> a = topo.torus_coordinates(e.from.index), b = topo.torus_coordinates(e.to.index);
    int differing = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k] != b[k]) {
        ++differing;
        CHECK(static_cast<int>(k) == e.torus_dim);
        CHECK(b[k] == (e.plus ? (a[k] + 1) % 4 : (a[k] + 3) % 4));
      }
    CHECK(differing == 1);
  }
}

TEST_CASE("traffic of a ring all-gather along a torus dimension: (n-1)/n of the buffer per link") {
  const hw::System s = hw::load_system("trn2-48xlarge");  // 4 x 4
  const fabric::Topology topo(s);
  const double B = 64 * MiB;
  collective::Traffic t = collective::link_traffic(s, request("all-gather", B, 4, "ring"));
  REQUIRE(t.bytes.size() == 4);  // chips 0..3: one + link each (3 -> 0 wraps around)
  for (const auto& [id, bytes] : t.bytes) {
    fabric::LinkEnds e = topo.ends(id);
    CHECK(e.kind == fabric::LinkKind::torus);
    CHECK(e.torus_dim == 0);
    CHECK(e.plus);
    CHECK(e.from.index < 4);
    CHECK(bytes == Approx(3.0 / 4 * B));
  }
  CHECK(t.flows == 4);  // one step (repeated 3 times) of 4 flows
  CHECK(t.efa_bytes_out == 0);
  CHECK(t.result.time_s == collective::run(s, request("all-gather", B, 4, "ring")).time_s);
}

TEST_CASE("no link is busy longer than the collective takes (analytic backend)") {
  for (const char* name : {"trn2-ultraserver", "trn3-gen2-ultraserver", "trn3-gen2-ultraserver+pcie-switch-view"}) {
    const hw::System s = hw::load_system(name);
    const fabric::Topology topo(s);
    for (const char* op : {"all-reduce", "all-gather", "all-to-all", "permute"})
      for (double b : {64 * 1024.0, 64 * MiB}) {
        INFO(name << " " << op << " " << b);
        collective::Traffic t = collective::link_traffic(s, request(op, b, 0));
        CHECK(!t.bytes.empty());
        for (const auto& [id, bytes] : t.bytes) CHECK(bytes / topo.bandwidth(id) <= t.result.time_s * 1.000001);
      }
  }
}

TEST_CASE("a NeuronSwitch with an odd number of chips per server: uplinks follow the router") {
  // 3 chips per server, 2 second-level switches: the router sprays every flow between
  // servers over both switches, half its bytes each, so an all-to-all loads them 1 : 1 and
  // each carries half of what the servers send each other: a mesh all-to-all of B per rank
  // sends B / n to each of the 15 - 3 chips of other servers from every one of the 15 chips.
  // (The rule spraying replaced, one switch by chip position mod 2, loaded them 2 : 1.)
  const hw::System s = hw::load_system(switch_file("switch-3x5"));
  const fabric::Topology topo(s);
  const double B = 15 * MiB;
  collective::Traffic t = collective::link_traffic(s, request("all-to-all", B, 0, "mesh"));
  const double up0 = uplink_bytes(topo, t, 0), up1 = uplink_bytes(topo, t, 1);
  REQUIRE(up1 > 0);
  CHECK(up0 == up1);
  CHECK(up0 == Approx(15.0 * 12 * (B / 15) / 2));
  // One chip per server: every flow between servers still uses both switches, half each.
  const hw::System one = hw::load_system(switch_file("switch-1x6"));
  const fabric::Topology topo1(one);
  collective::Traffic t1 = collective::link_traffic(one, request("all-to-all", 6 * MiB, 0, "mesh"));
  CHECK(uplink_bytes(topo1, t1, 0) > 0);
  CHECK(uplink_bytes(topo1, t1, 1) == uplink_bytes(topo1, t1, 0));
  bool drawn = false;
  for (LinkId id : topo1.domain_links(0)) {
    fabric::LinkEnds e = topo1.ends(id);
    drawn = drawn || (e.from.kind == NodeKind::l2_switch && e.from.index == 1);
  }
  CHECK(drawn);
}

TEST_CASE("any domain of a cluster: a group inside a domain moves there, a spanning group shows its part") {
  const hw::System c = hw::load_system("trn2-ultracluster:4");
  const fabric::Topology topo(c);
  const long per = c.chips_per_domain;
  const collective::Request tp = request("all-reduce", 64 * MiB, 16);
  collective::Traffic t0 = collective::link_traffic(c, tp, {0});
  collective::Traffic t2 = collective::link_traffic(c, tp, {2});
  CHECK(t0.first_chip == 0);
  CHECK(t2.first_chip == 2 * per);
  REQUIRE(t0.bytes.size() == t2.bytes.size());
  for (const auto& [id, bytes] : t2.bytes) {
    CHECK(topo.domain_of_link(id) == 2);
    auto it = t0.bytes.find(topo.to_domain0(id));
    REQUIRE(it != t0.bytes.end());
    CHECK(it->second == bytes);
  }
  CHECK(t2.result.time_s == t0.result.time_s);

  // Data parallel across the UltraServers (one rank per domain): domain 1's chip 64 sends
  // and receives over its EFA share, nothing else of domain 1 is used.
  collective::Traffic dp = collective::link_traffic(c, request("all-reduce", 64 * MiB, 4, "ring", static_cast<int>(per)), {1});
  CHECK(dp.first_chip == 0);
  CHECK(dp.efa_bytes_out > 0);
  for (const auto& [id, bytes] : dp.bytes) {
    fabric::LinkEnds e = topo.ends(id);
    CHECK(e.kind == fabric::LinkKind::efa);
    CHECK((e.from.index == per || e.to.index == per));
  }
  CHECK(dp.bytes.size() == 2);
  CHECK(contains(error_of([&] { collective::link_traffic(c, tp, {4}); }), "domain"));
  collective::TrafficOptions small;
  small.max_flows = 10;
  CHECK(contains(error_of([&] { collective::link_traffic(c, tp, small); }), "flows"));
}

TEST_CASE("the system-name grammar round-trips and names its errors") {
  hw::SystemName n = hw::parse_system_name("trn3-gen2-ultracluster:12+pcie-switch-view+nki-guide+nki-guide");
  CHECK(n.base == "trn3-gen2-ultracluster");
  CHECK(n.ultraservers == 12);
  CHECK(n.alternatives == std::vector<std::string>{"nki-guide", "pcie-switch-view"});
  CHECK(hw::format_system_name(n) == "trn3-gen2-ultracluster:12+nki-guide+pcie-switch-view");
  CHECK(hw::parse_system_name(hw::format_system_name(n)).alternatives == n.alternatives);
  hw::SystemName p = hw::parse_system_name("dir:1/x+y/my.json:3+alt");
  CHECK(p.base == "dir:1/x+y/my.json");
  CHECK(p.ultraservers == 3);
  CHECK(p.alternatives == std::vector<std::string>{"alt"});
  CHECK(hw::parse_system_name("trainium3").ultraservers == 0);
  CHECK(contains(error_of([] { hw::parse_system_name("trn2-ultraserver:0"); }), "at least 1"));
  CHECK(contains(error_of([] { hw::parse_system_name("trn2-ultraserver:x"); }), "whole number"));
  CHECK(contains(error_of([] { hw::parse_system_name("trn2-ultraserver+"); }), "empty alternative"));
  CHECK(contains(error_of([] { hw::parse_system_name(":4"); }), "missing system name"));
  // load_system reads the same grammar: alternatives in any order give the same system.
  CHECK(hw::load_system("trn3-gen2-ultraserver+pcie-switch-view").fabric_spec.shared_chip_port == false);
}

}  // namespace unit_traffic
