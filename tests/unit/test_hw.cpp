// The hardware data files and what is derived from them: the published aggregates of
// every system must come out of the per-chip data (FACTS.md), alternatives must be
// selectable, and bad files must fail with the file and field named.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <functional>

#include "embedded.h"
#include "hw/system.h"
#include "hw/roofline.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_hw {

using test_support::contains;
using test_support::error_of;
using trnsim::InputError;
using namespace trnsim::hw;

namespace {

const double GiB = 1073741824.0;

// Native and WebAssembly test runs may overlap: each writes its own files.
#ifdef __EMSCRIPTEN__
const std::string kTempPrefix = "test_hw_wasm_";
#else
const std::string kTempPrefix = "test_hw_native_";
#endif

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/" + kTempPrefix + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("every built-in name loads and names match") {
  auto names = system_names();
  REQUIRE(names.size() >= 9);
  for (const auto& n : names) {
    System s = load_system(n);
    CHECK(s.name == n);
    CHECK(s.chips >= 1);
    CHECK(!s.sources.empty());
    for (const auto& [k, v] : s.sources) CHECK(!v.empty());
  }
  CHECK(chip_names() == std::vector<std::string>{"b200", "gb200", "gb300", "h100-sxm", "h200-sxm", "trainium2", "trainium3"});
}

TEST_CASE("Trn3 Gen2 UltraServer aggregates derive from per-chip data") {
  System s = load_system("trn3-gen2-ultraserver");
  CHECK(s.chips == 144);
  CHECK(s.chips_per_server == 4);
  CHECK(s.peak_flops("mxfp8") == Approx(362e15).epsilon(0.005));
  CHECK(s.peak_flops("mxfp8") == Approx(362448e12).epsilon(1e-12));
  CHECK(s.peak_flops("bf16") == Approx(96624e12).epsilon(1e-12));
  CHECK(s.peak_flops("fp32") == Approx(26352e12).epsilon(1e-12));
  CHECK(s.hbm_capacity_bytes() == 20736 * GiB);
  CHECK(s.hbm_bandwidth_bytes_per_s() == Approx(705.6e12).epsilon(1e-12));
}

TEST_CASE("Trn3 Gen1 UltraServer aggregates") {
  System s = load_system("trn3-gen1-ultraserver");
  CHECK(s.chips == 64);
  CHECK(s.peak_flops("mxfp8") == Approx(161088e12).epsilon(1e-12));
  CHECK(s.hbm_capacity_bytes() == 9216 * GiB);
  CHECK(s.hbm_bandwidth_bytes_per_s() == Approx(313.6e12).epsilon(1e-12));
}

TEST_CASE("Trn2 UltraServer and trn2.48xlarge aggregates") {
  System u = load_system("trn2-ultraserver");
  CHECK(u.chips == 64);
  CHECK(u.peak_flops("fp8") == Approx(83.2e15).epsilon(0.001));
  CHECK(u.hbm_capacity_bytes() == 6144 * GiB);
  CHECK(u.hbm_bandwidth_bytes_per_s() == Approx(185.6e12).epsilon(1e-12));
  CHECK(u.peak_flops("mxfp8") == 0);  // no native MX on Trainium2
  System i = load_system("trn2-48xlarge");
  CHECK(i.chips == 16);
  CHECK(i.peak_flops("fp8") == Approx(20.8e15).epsilon(0.001));
  CHECK(i.hbm_capacity_bytes() == 1536 * GiB);
  CHECK(i.hbm_bandwidth_bytes_per_s() == Approx(46.4e12).epsilon(1e-12));
  // The torus carries the chip's whole NeuronLink-v3 budget: 1,024 GB/s inside the
  // instance plus 256 GB/s between instances = 1.28 TB/s (S5, S6).
  double per_chip = 0;
  for (const auto& d : u.fabric_spec.torus) per_chip += 2 * 2 * d.link_bandwidth_bytes_per_s;
  CHECK(per_chip == Approx(u.chip.link_bandwidth_published_bytes_per_s));
}

TEST_CASE("Trn3 / Trn2 ratios match the published ones") {
  Chip t2 = load_chip("trainium2"), t3 = load_chip("trainium3");
  CHECK(t3.link_bandwidth_bytes_per_s / t2.link_bandwidth_bytes_per_s == Approx(2.0));  // interconnect 2x (S1)
  CHECK(t3.peak("fp8") / t2.peak("fp8") == Approx(2.0).epsilon(0.04));                  // FP8 2x
  CHECK(t3.peak("bf16") / t2.peak("bf16") == Approx(1.0).epsilon(0.01));                // BF16 1x
  CHECK(t3.hbm_capacity_bytes / t2.hbm_capacity_bytes == Approx(1.5));                  // capacity 1.5x
  CHECK(t3.hbm_bandwidth_bytes_per_s / t2.hbm_bandwidth_bytes_per_s == Approx(1.7).epsilon(0.01));
  CHECK(t3.neuroncore->core.sbuf_bytes / t2.neuroncore->core.sbuf_bytes == Approx(1.14).epsilon(0.01));
  CHECK(t3.neuroncore->dma_bandwidth_bytes_per_s / t2.neuroncore->dma_bandwidth_bytes_per_s == Approx(1.4));
  // The PE array reproduces the per-core figures: 128x128x2x2.4 GHz = 79 BF16 TFLOPS.
  CHECK(t2.neuroncore->core.tensor.peak_flops("bf16") == Approx(79e12).epsilon(0.01));
  CHECK(t2.neuroncore->core.tensor.peak_flops("fp8") == Approx(158e12).epsilon(0.01));
  CHECK(t3.neuroncore->core.tensor.peak_flops("mxfp8") == Approx(315e12).epsilon(0.01));
  CHECK(t2.neuroncore->core.tensor.peak_flops("mxfp8") == 0);
}

TEST_CASE("alternatives are kept, shown and selectable") {
  System d = load_system("trainium3");
  CHECK(d.chip.hbm_bandwidth_bytes_per_s == 4.9e12);
  CHECK(d.chosen.at("chip.hbm.bandwidth") == "default");
  REQUIRE(d.alternatives.at("chip.hbm.bandwidth").size() == 2);
  System a = load_system("trainium3+nki-guide");
  CHECK(a.chip.hbm_bandwidth_bytes_per_s == 4.7e12);
  CHECK(a.chosen.at("chip.hbm.bandwidth") == "nki-guide");
  CHECK(a.sources.at("chip.hbm.bandwidth") == "S4");
  System l = load_system("trn3-gen2-ultraserver+trn3-arch");
  CHECK(l.chip.link_bandwidth_published_bytes_per_s == 2048 * GiB);
  System p = load_system("trn3-gen2-ultraserver+pcie-switch-view");
  CHECK_FALSE(p.fabric_spec.shared_chip_port);
  CHECK(p.fabric_spec.inter_server_bandwidth_bytes_per_s == 160e9);
  auto j = describe_json(d);
  CHECK(j["alternatives"]["chip.hbm.bandwidth"]["chosen"] == "default");
  CHECK(contains(describe_text(a), "[nki-guide=4.7e+12 (S4)]"));
  CHECK(contains(error_of([] { load_system("trainium3+nki-gide"); }), "did you mean 'nki-guide'?"));
  auto names = alternative_names(p);
  CHECK(std::find(names.begin(), names.end(), "pcie-switch-view") != names.end());
}

TEST_CASE("clusters: default size, :N override and with_ultraservers") {
  System c = load_system("trn3-gen2-ultracluster");
  CHECK(c.domains == 1000);
  CHECK(c.chips == 144000);
  CHECK(c.fabric == "neuronswitch+efa");
  CHECK(c.fabric_spec.efa_bandwidth_bytes_per_s_per_chip == Approx(25e9));  // 200 Gbps per chip
  System big = load_system("trn2-ultracluster:15625");
  CHECK(big.chips == 1000000);
  CHECK(big.name == "trn2-ultracluster:15625");
  System w = with_ultraservers(load_system("trn3-gen2-ultraserver"), 3);
  CHECK(w.chips == 432);
  CHECK(w.name == "trn3-gen2-ultraserver:3");
  CHECK(w.peak_flops("mxfp8") == Approx(3 * 362448e12));
  CHECK(contains(error_of([] { load_system("trn2-ultracluster:0"); }), "at least 1"));
  CHECK(contains(error_of([] { load_system("trn2-ultracluster:x"); }), "positive whole number"));
  CHECK(contains(error_of([] { with_ultraservers(load_system("trainium2"), 4); }), "single chip"));
}

TEST_CASE("describe JSON has the agreed keys") {
  auto j = describe_json(load_system("trainium2"));
  for (const char* k : {"chips", "peak_flops", "hbm_capacity_bytes", "hbm_bandwidth_bytes_per_s", "sources", "fabric",
                        "link_bandwidth_bytes_per_s_per_chip"})
    CHECK(j.contains(k));
  CHECK(j["peak_flops"]["mxfp8"].is_null());
  CHECK(j["peak_flops"]["mxfp4"].is_null());
  CHECK(j["peak_flops"]["fp8"] == 1299e12);
  CHECK(j["chips"] == 1);
  CHECK(contains(error_of([] { load_system("trainium2").peak_flops("fp9"); }), "did you mean"));
}

TEST_CASE("user files: a chip and a system referring to it") {
  std::string chip_text = *trnsim::find_embedded("data/chips/trainium3.json");
  auto j = trnsim::json::parse(chip_text);
  j["name"] = "mychip";
  j["hbm"]["capacity"]["value"] = 288;
  std::string chip_path = write_temp("mychip.json", j.dump());
  System c = load_system(chip_path);
  CHECK(c.chip.name == "mychip");
  CHECK(c.chip.hbm_capacity_bytes == 288 * GiB);
  auto s = trnsim::json::parse(*trnsim::find_embedded("data/systems/trn3-gen2-ultraserver.json"));
  s["name"] = "mysys";
  s["chip"] = kTempPrefix + "mychip.json";  // relative to the system file
  s["servers"]["value"] = 2;
  System sys = load_system(write_temp("mysys.json", s.dump()));
  CHECK(sys.chips == 8);
  CHECK(sys.hbm_capacity_bytes() == 8 * 288 * GiB);
  CHECK(sys.sources.count("chip.hbm.capacity") == 1);
}

TEST_CASE("bad files name the file and the field") {
  auto base = trnsim::json::parse(*trnsim::find_embedded("data/chips/trainium2.json"));
  auto bad = [&](const std::function<void(trnsim::json&)>& edit) {
    trnsim::json j = base;
    edit(j);
    std::string path = write_temp("bad.json", j.dump());
    return error_of([&] { load_system(path); });
  };
  CHECK(contains(bad([](trnsim::json& j) { j["hbm"]["capasity"] = j["hbm"]["capacity"]; }),
                 kTempPrefix + "bad.json: hbm.capasity: unknown key (did you mean 'capacity'?)"));
  CHECK(contains(bad([](trnsim::json& j) { j["hbm"]["capacity"]["value"] = -96; }),
                 kTempPrefix + "bad.json: hbm.capacity.value: must not be negative"));
  CHECK(contains(bad([](trnsim::json& j) { j["hbm"]["capacity"]["value"] = "lots"; }),
                 "hbm.capacity.value: expected a number"));
  CHECK(contains(bad([](trnsim::json& j) { j["hbm"]["capacity"]["unit"] = "GiB/s"; }),
                 "hbm.capacity.unit: unknown unit 'GiB/s'"));
  CHECK(contains(bad([](trnsim::json& j) { j["hbm"]["capacity"]["source"] = "I think"; }),
                 "hbm.capacity.source: a source must start with"));
  CHECK(contains(bad([](trnsim::json& j) { j["neuroncore"]["cores"] = 8; }), "neuroncore.cores: expected an object, got number"));
  CHECK(contains(bad([](trnsim::json& j) { j["neuroncore"].erase("dma"); }), "neuroncore.dma: missing (required)"));
  CHECK(contains(bad([](trnsim::json& j) { j["format"] = "chip"; }), "format: unknown value 'chip'"));
  CHECK(contains(error_of([] { load_system(write_temp("syntax.json", "{\"format\": ")); }),
                 kTempPrefix + "syntax.json: not valid JSON"));
  CHECK(contains(error_of([] { load_system("/nonexistent/x.json"); }), "cannot open file"));
  auto sys = trnsim::json::parse(*trnsim::find_embedded("data/systems/trn2-48xlarge.json"));
  sys["name"] = "badsys";
  sys["servers"]["value"] = 2;  // 32 chips on a 4x4 torus
  CHECK(contains(error_of([&] { load_system(write_temp("badsys.json", sys.dump())); }),
                 "fabric.torus: dimension sizes multiply to 16 chips but the system has 32"));
}

TEST_CASE("roofline and HBM capacity checks") {
  Chip c = load_chip("trainium2");
  OperatorCost op;
  op.dtype = "bf16";
  op.flops = 667e12;          // one second at peak
  op.hbm_bytes = 2.9e12 / 2;  // half a second of HBM
  op.fixed_overhead_s = 1e-6;
  auto t = roofline(c, op, RooflineEfficiency{});
  CHECK(t.compute_bound);
  CHECK(t.compute_s == Approx(1.0));
  CHECK(t.memory_s == Approx(0.5));
  CHECK(t.time_s == Approx(1.0 + 1e-6));
  auto h = roofline(c, op, RooflineEfficiency{0.5, 0.2});
  CHECK_FALSE(h.compute_bound);
  CHECK(h.time_s == Approx(2.5 + 1e-6));
  op.dtype = "mxfp8";
  CHECK(contains(error_of([&] { roofline(c, op, RooflineEfficiency{}); }), "dtype: Trainium2 has no native mxfp8 support"));
  CHECK(contains(error_of([&] { roofline(c, op, RooflineEfficiency{0, 1}); }), "efficiency.compute: must be in (0, 1]"));
  CHECK_NOTHROW(check_hbm_capacity(c, 96 * GiB, "model", "weights"));
  CHECK(error_of([&] { check_hbm_capacity(c, 120 * GiB, "model", "weights"); }) ==
        "model: weights: need 120 GiB of HBM per chip but a Trainium2 has 96 GiB");
}

}  // namespace unit_hw
