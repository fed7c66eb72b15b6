// NVIDIA systems as data (core/data/chips/{h100-sxm,h200-sxm,b200,gb200,gb300}.json, the DGX
// and NVL72 systems and their clusters) and the collectives NCCL runs on them: every aggregate
// and every bandwidth law is derived here from the data files read key by key, and the
// in-switch (NVLS) all-reduce against the nccl-tests sweep of GPU.md H6 (60-gpu.json).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "collective/collective.h"
#include "hw/system.h"
#include "test_support.h"

namespace unit_gpu_hw {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

json read_data(const std::string& rel) {
  std::ifstream in(std::string(TRNSIM_SOURCE_DIR) + "/core/data/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

// value x unit, for the units these files use.
double si(const json& q) {
  const std::string unit = q.value("unit", "");
  const double v = q.at("value").get<double>();
  if (unit == "TFLOPS") return v * 1e12;
  if (unit == "TB/s") return v * 1e12;
  if (unit == "GB/s") return v * 1e9;
  if (unit == "Gbps") return v * 1e9 / 8;
  if (unit == "GB") return v * 1e9;
  if (unit == "GiB") return v * 1073741824.0;
  if (unit == "us") return v * 1e-6;
  if (unit == "W" || unit.empty()) return v;
  FAIL("unit " << unit << " not handled by the test");
  return v;
}

const std::vector<std::string> kChips = {"h100-sxm", "h200-sxm", "b200", "gb200", "gb300"};

TEST_CASE("every GPU chip's peaks, HBM, NVLink and power are its file's, each with a source") {
  for (const std::string& name : kChips) {
    INFO(name);
    const json c = read_data("chips/" + name + ".json");
    const hw::System s = hw::load_system(name);
    CHECK_FALSE(s.chip.neuroncore.has_value());
    for (const auto& item : c.at("peak_flops").items()) {
      CHECK(s.chip.peak(item.key()) == si(item.value()));
      CHECK_FALSE(s.sources.at("chip.peak_flops." + item.key()).empty());
    }
    CHECK(s.chip.hbm_capacity_bytes == si(c.at("hbm").at("capacity")));
    CHECK(s.chip.hbm_bandwidth_bytes_per_s == si(c.at("hbm").at("bandwidth")));
    // NVLink figures are published per direction ("each way"): the model uses them as given.
    CHECK(s.chip.link_bandwidth_bytes_per_s == si(c.at("scale_up").at("bandwidth_per_chip")));
    CHECK(s.chip.power_watts == si(c.at("power")));
    CHECK(s.sources.at("chip.power").rfind("G1", 0) == 0);
    // Sparse figures are kept apart from the dense peaks: twice the dense BF16 (as rounded
    // in the published tables: 1,979 = 2 x 989).
    CHECK(s.chip.sparse_peak_flops == Approx(2 * s.chip.peak("bf16")).epsilon(0.001));
  }
  // Hopper has FP8 and no block-scaled formats; Blackwell runs MX at the FP8 rate and MXFP4
  // at twice it or more (G1, G5).
  const hw::Chip h100 = hw::load_chip("h100-sxm"), b200 = hw::load_chip("b200"), gb300 = hw::load_chip("gb300");
  CHECK(h100.peak("fp8") == Approx(2 * h100.peak("bf16")).epsilon(0.001));
  CHECK(h100.peak("mxfp8") == 0);
  CHECK(b200.peak("mxfp8") == b200.peak("fp8"));
  CHECK(b200.peak("mxfp4") == 2 * b200.peak("fp8"));
  CHECK(b200.peak("nvfp4") > b200.peak("mxfp4"));
  CHECK(gb300.peak("mxfp4") == 3 * gb300.peak("fp8"));
}

TEST_CASE("NVL72 and DGX aggregates are the chip's figures times the GPUs, never typed") {
  const json chip = read_data("chips/gb200.json"), sys = read_data("systems/gb200-nvl72.json");
  const hw::System s = hw::load_system("gb200-nvl72");
  const int gpus = sys.at("chips_per_server").at("value").get<int>() * sys.at("servers").at("value").get<int>();
  CHECK(gpus == 72);
  CHECK(s.chips == gpus);
  CHECK(s.hbm_capacity_bytes() == gpus * si(chip.at("hbm").at("capacity")));
  CHECK(s.hbm_bandwidth_bytes_per_s() == gpus * si(chip.at("hbm").at("bandwidth")));
  CHECK(s.peak_flops("bf16") == gpus * si(chip.at("peak_flops").at("bf16")));
  CHECK(s.peak_flops("mxfp4") == gpus * si(chip.at("peak_flops").at("mxfp4")));
  // One switched domain of 72: every GPU on the same first-level switches, no second level.
  CHECK(s.fabric_spec.chips_per_l1_switch == 72);
  CHECK(s.fabric_spec.l2_switches == 0);
  CHECK(s.fabric_spec.in_switch_reduction);
  // Scale-out given per rack: each GPU's NIC share is the rack's / 72.
  CHECK(s.scaleout_bandwidth_bytes_per_s_per_chip == si(sys.at("scale_out").at("bandwidth_per_domain")) / gpus);
  // The alternative of the disagreeing sources: 192 GB per GPU.
  const hw::System alt = hw::load_system("gb200-nvl72+hbm-192");
  CHECK(alt.hbm_capacity_bytes() == gpus * si(chip.at("hbm").at("capacity").at("alternatives").at("hbm-192")));
  CHECK(hw::load_system("b200+hbm-192").chip.hbm_capacity_bytes == 192e9);
  const hw::System dgx = hw::load_system("dgx-h100");
  const json h100 = read_data("chips/h100-sxm.json");
  CHECK(dgx.chips == 8);
  CHECK(dgx.hbm_bandwidth_bytes_per_s() == 8 * si(h100.at("hbm").at("bandwidth")));
  CHECK(dgx.scaleout_bandwidth_bytes_per_s_per_chip == si(read_data("systems/dgx-h100.json").at("scale_out").at("bandwidth_per_chip")));
  // Clusters: N domains over InfiniBand.
  const hw::System cl = hw::load_system("gb200-nvl72-cluster:4");
  CHECK(cl.chips == 4 * 72);
  CHECK(cl.domains == 4);
}

// The collective software's values of a system file, for the laws below.
struct Nccl {
  double link = 0, eff = 0, isr_eff = 0;
};
Nccl nccl(const std::string& system) {
  const json sys = read_data("systems/" + system + ".json");
  const json chip = read_data("chips/" + sys.at("chip").get<std::string>() + ".json");
  const json& cs = sys.at("collective_software");
  return {si(chip.at("scale_up").at("bandwidth_per_chip")), si(cs.at("link_efficiency")),
          si(cs.at("in_switch_reduction").at("bandwidth_efficiency"))};
}

double busbw(const std::string& system, long ranks, double bytes, const std::string& algo, const std::string& protocol = "auto") {
  collective::Request q;
  q.op = "all-reduce";
  q.bytes = bytes;
  q.ranks = static_cast<int>(ranks);
  q.algo = algo;
  q.protocol = protocol;
  return collective::run(hw::load_system(system), q).busbw_bytes_per_s;
}

TEST_CASE("ring busbw tends to the link rate x efficiency; in-switch to 2(n-1)/(n+1) of it") {
  const double big = 64.0 * 1073741824.0;  // latencies below 0.1%
  for (const std::string system : {"dgx-h100", "dgx-b200", "gb200-nvl72"}) {
    INFO(system);
    const Nccl n = nccl(system);
    CHECK(busbw(system, 8, big, "ring", "simple") == Approx(n.link * n.eff).epsilon(0.002));
    for (long ranks : {4L, 8L}) {
      const double law = 2.0 * (ranks - 1) / (ranks + 1) * n.link * n.eff * n.isr_eff;
      CHECK(busbw(system, ranks, big, "nvls") == Approx(law).epsilon(0.002));
    }
  }
  // 72 GPUs under one switch: the in-switch algorithm's busbw nearly doubles the link rate.
  const Nccl n = nccl("gb200-nvl72");
  CHECK(busbw("gb200-nvl72", 72, 64.0 * 1073741824.0, "nvls") == Approx(2.0 * 71 / 73 * n.link * n.eff * n.isr_eff).epsilon(0.002));
  // LL carries half the payload: at a size where bandwidth dominates, ring/LL is ~half ring/Simple.
  const double ll = busbw("dgx-h100", 8, big, "ring", "ll"), simple = busbw("dgx-h100", 8, big, "ring", "simple");
  CHECK(ll / simple == Approx(0.5).epsilon(0.01));
}

TEST_CASE("the tuner picks the fastest algorithm and protocol; small sizes run a low-latency protocol") {
  const hw::System s = hw::load_system("dgx-h100");
  collective::Request q;
  q.op = "all-reduce";
  q.ranks = 8;
  q.bytes = 4096;
  const collective::Result small = collective::run(s, q);
  CHECK(small.protocol == "ll");
  q.bytes = 1073741824.0;
  const collective::Result big = collective::run(s, q);
  CHECK(big.algorithm == "nvls");
  CHECK(big.protocol == "simple");
  for (const std::string algo : {"ring", "tree", "nvls"})
    for (const std::string proto : {"ll", "ll128", "simple"}) {
      if (algo == "nvls" && proto != "simple") continue;
      q.algo = algo;
      q.protocol = proto;
      CHECK(collective::run(s, q).time_s >= big.time_s);
    }
}

TEST_CASE("the in-switch algorithm and the protocols refuse what they cannot run, naming the field") {
  collective::Request q;
  q.op = "all-reduce";
  q.bytes = 1048576;
  q.algo = "nvls";
  CHECK(contains(error_of([&] { collective::run(hw::load_system("trn2-48xlarge"), q); }), "fabric.in_switch_reduction"));
  // Across InfiniBand the switches of one node cannot reduce the whole group.
  CHECK(contains(error_of([&] { collective::run(hw::load_system("dgx-h100-cluster:2"), q); }), "nvls needs"));
  q.algo = "auto";
  q.protocol = "ll64";
  CHECK(contains(error_of([&] { collective::run(hw::load_system("dgx-h100"), q); }), "unknown protocol 'll64'"));
  CHECK(contains(error_of([&] { collective::run(hw::load_system("trn3-gen2-ultraserver"), q); }), "protocol"));
  q.protocol = "auto";
  q.op = "all-gather";
  q.algo = "nvls";
  CHECK(contains(error_of([&] { collective::run(hw::load_system("dgx-h100"), q); }), "all-reduce only"));
}

TEST_CASE("the H100 nccl-tests sweep (GPU.md H6): within 10% from 1 MiB to 8 GiB") {
  const json rows = read_data("validation/60-gpu.json").at("rows");
  int checked = 0;
  for (const json& r : rows) {
    if (r.at("id") != "H6") continue;
    const json& c = r.at("compute").at("collective");
    const double bytes = c.at("bytes").get<double>();
    if (bytes < 1048576) continue;
    const double published = r.at("published").at("value").get<double>() * 1e9;
    const double model = busbw(c.at("system"), c.at("ranks").get<long>(), bytes, "auto");
    INFO(bytes << " B: model " << model / 1e9 << " GB/s, published " << published / 1e9);
    CHECK(std::fabs(model / published - 1) <= 0.10);
    ++checked;
  }
  CHECK(checked == 14);
}

}  // namespace unit_gpu_hw
