// The Fabric view's data (ui/view/fabric_view.h): the drawn links are the links the router
// uses, drawn between the nodes their ends name (also on a NeuronSwitch with an odd number
// of chips per server), any domain of a cluster can be drawn with its own traffic, and the
// workload's collectives are the ones it priced.
#include <catch2/catch.hpp>

#include <set>

#include "fabric/topology.h"
#include "hw/system.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "ui/view/fabric_view.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_fabric {

using namespace trnsim;
using namespace trnsim::ui;
using fabric::NodeKind;

namespace {

const FabricNode* node(const FabricLayout& L, const fabric::Node& n) {
  for (const auto& x : L.nodes)
    if (x.node == n) return &x;
  return nullptr;
}

bool same(FabricPoint a, FabricPoint b) { return a.x == b.x && a.y == b.y; }

// Every link is one the router uses in the domain, and its drawing joins its ends' nodes
// (EFA shares: a stub leaving or entering the chip).
void check_layout(const hw::System& s, int domain) {
  const FabricLayout L = layout_fabric(s, domain);
  REQUIRE(L.error.empty());
  const fabric::Topology topo(s);
  const std::vector<fabric::LinkId> used = topo.domain_links(domain);
  std::set<fabric::LinkId> drawn;
  for (const auto& l : L.links) {
    drawn.insert(l.id);
    REQUIRE(!l.segments.empty());
    const FabricNode* from = node(L, l.ends.from);
    const FabricNode* to = node(L, l.ends.to);
    if (l.ends.kind == fabric::LinkKind::efa) {
      CHECK((from || to));
      if (from) CHECK(same(l.segments.front().first, from->p));
      if (to) CHECK(same(l.segments.back().second, to->p));
      continue;
    }
    REQUIRE(from);
    REQUIRE(to);
    CHECK(same(l.segments.front().first, from->p));
    CHECK(same(l.segments.back().second, to->p));
    CHECK(l.bandwidth_bytes_per_s == topo.bandwidth(l.id));
  }
  CHECK(drawn == std::set<fabric::LinkId>(used.begin(), used.end()));
  long chips = 0;
  for (const auto& n : L.nodes)
    if (n.node.kind == NodeKind::chip) {
      ++chips;
      CHECK(topo.domain_of(n.node.index) == domain);
    }
  CHECK(chips == s.chips_per_domain);
  CHECK(L.lo.x < L.hi.x);
}

std::string test_system(const std::string& name) {
  return std::string(TRNSIM_SOURCE_DIR) + "/tests/unit/data/" + name + ".json";
}

}  // namespace

TEST_CASE("the drawn links are the router's, between the nodes their ends name") {
  for (const char* name : {"trn2-48xlarge", "trn2-ultraserver", "trn3-gen1-ultraserver", "trn3-gen2-ultraserver",
                           "trn3-gen2-ultraserver+pcie-switch-view"}) {
    INFO(name);
    check_layout(hw::load_system(name), 0);
  }
  for (const char* name : {"switch-3x5", "switch-3x4-lanes", "switch-1x6", "switch-5x3"}) {
    INFO(name);
    check_layout(hw::load_system(test_system(name)), 0);
  }
  CHECK(test_support::contains(layout_fabric(hw::load_system("trainium3")).error, "single chip"));
}

TEST_CASE("an odd number of chips per server: the uplinks drawn loaded are the router's share of each switch") {
  const hw::System s = hw::load_system(test_system("switch-3x5"));
  const FabricLayout L = layout_fabric(s);
  collective::Request all_to_all;
  all_to_all.op = "all-to-all";
  all_to_all.algo = "mesh";
  all_to_all.bytes = 15 * 1048576.0;
  const FabricLoads loads = fabric_loads(s, all_to_all);
  REQUIRE(loads.error.empty());
  double up[2] = {0, 0};
  for (const auto& l : L.links)
    if (l.ends.kind == fabric::LinkKind::uplink && l.ends.to.kind == NodeKind::l2_switch) {
      const double u = loads.utilization(l);
      CHECK(u > 0);
      CHECK(u <= 1.000001);
      up[l.ends.to.index] += u;
    }
  // Every flow between servers is sprayed over both switches, half its bytes each
  // (fabric/topology.h): the two switches' uplinks are drawn equally loaded.
  CHECK(up[0] / up[1] == Approx(1.0));
  CHECK(loads.members.size() == 15);
  CHECK(loads.max_utilization <= 1.000001);
}

TEST_CASE("any domain of a cluster: its own chips, links and traffic") {
  const hw::System c = hw::load_system("trn3-gen2-ultracluster:3");
  for (int d = 0; d < 3; ++d) check_layout(c, d);
  const FabricLayout L = layout_fabric(c, 2);
  CHECK(L.domains == 3);
  CHECK(L.first_chip == 2 * c.chips_per_domain);
  collective::Request tp;
  tp.op = "all-reduce";
  tp.bytes = 8 * 1048576.0;
  tp.ranks = 8;
  const FabricLoads loads = fabric_loads(c, tp, 2);
  REQUIRE(loads.error.empty());
  REQUIRE(loads.members.size() == 8);
  CHECK(loads.members.front() == L.first_chip);
  std::set<fabric::LinkId> drawn;
  for (const auto& l : L.links) drawn.insert(l.id);
  for (const auto& kv : loads.traffic.bytes) CHECK(drawn.count(kv.first) == 1);
  CHECK(test_support::contains(fabric_loads(c, tp, 3).error, "domain"));
}

TEST_CASE("the workload's collectives are the requests it priced; a request is trimmed to a small system") {
  const Report rep = evaluate(default_scenario());
  REQUIRE(rep.primary.result);
  const auto list = workload_collectives(*rep.primary.result);
  REQUIRE(!list.empty());
  for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i - 1].total_s >= list[i].total_s);
  std::size_t fabric_ops = 0;
  for (const auto& ph : rep.primary.result->phases)
    for (const auto& o : ph.ops)
      if (o.category == price::Category::fabric && o.fabric_bytes > 0 && o.collective.ranks >= 2) ++fabric_ops;
  CHECK(list.size() == fabric_ops);
  const WorkloadCollective* first = default_collective(list, rep.primary.system.chips_per_domain);
  REQUIRE(first);
  CHECK((first->request.ranks - 1) * first->request.stride < rep.primary.system.chips_per_domain);

  std::string note;
  collective::Request big = first->request;
  big.ranks = 64;
  const collective::Request fitted = fit_request(big, hw::load_system("trn2-48xlarge"), note);
  CHECK(fitted.ranks == 16);
  CHECK(test_support::contains(note, "trimmed"));
  fit_request(first->request, rep.primary.system, note);
  CHECK(note.empty());
}

}  // namespace unit_ui_fabric
