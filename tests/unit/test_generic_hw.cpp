// A chip and a system written only in the vendor-neutral format (tests/unit/data/generic-*.json:
// a made-up accelerator with no NeuronCore block, every number 'assumption: test') load and
// price a model through the normal pipeline (trnsim::evaluate). The figures are derived here
// from the data files read key by key: peaks per dtype, HBM bandwidth, the scale-up ports.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "collective/collective.h"
#include "hw/system.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"
#include "test_support.h"

namespace unit_generic_hw {

using namespace trnsim;
using test_support::contains;
using test_support::error_of;

std::string data_path(const std::string& name) { return std::string(TRNSIM_SOURCE_DIR) + "/tests/unit/data/" + name + ".json"; }

json read_json(const std::string& name) {
  std::ifstream in(data_path(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

// value x unit, for the few units these files use.
double si(const json& q) {
  const std::string unit = q.value("unit", "");
  const double v = q.at("value").get<double>();
  if (unit == "TFLOPS") return v * 1e12;
  if (unit == "TB/s") return v * 1e12;
  if (unit == "GB/s") return v * 1e9;
  if (unit == "Gbps") return v * 1e9 / 8;
  if (unit == "GB") return v * 1e9;
  if (unit == "MiB") return v * 1048576.0;
  if (unit == "us") return v * 1e-6;
  return v;
}

double field_default(const std::string& path) { return find_field(path).default_value.get<double>(); }

json run_json(const std::string& system, const json& workload) {
  json s = {{"version", 1}, {"system", system}, {"compare_system", ""}, {"workload", workload}};
  return report_to_json(evaluate(scenario_from_json(s)));
}

const json kWorkload = {{"model", "Llama-3.1-8B"},
                        {"stack", "plain"},
                        {"parallelism", {{"tp", 8}}},
                        {"precision", {{"weights", "fp8"}, {"activations", "fp8"}, {"attention_weights", "fp8"}, {"kv_cache", "fp8"}}},
                        {"inference", {{"batch", 1}, {"input_tokens", 512}, {"output_tokens", 64}}}};

TEST_CASE("a generic chip and system load from the new format alone") {
  const json chip = read_json("generic-chip"), sys = read_json("generic-system");
  const hw::System s = hw::load_system(data_path("generic-system"));
  CHECK_FALSE(s.chip.neuroncore.has_value());
  CHECK(s.chip.cores() == 1);
  CHECK(s.chips == sys.at("chips_per_server").at("value").get<int>() * sys.at("servers").at("value").get<int>());
  for (const auto& [dt, q] : chip.at("peak_flops").items()) CHECK(s.chip.peak(dt) == si(q));
  CHECK(s.peak_flops("bf16") == s.chips * si(chip.at("peak_flops").at("bf16")));
  CHECK(s.chip.hbm_bandwidth_bytes_per_s == si(chip.at("hbm").at("bandwidth")));
  CHECK(s.chip.sram_bytes == si(chip.at("sram").at("capacity")));
  // Scale-up: ports x per-port bandwidth, counted both directions -> half per direction.
  const json& up = chip.at("scale_up");
  const double published = up.at("links").at("value").get<double>() * si(up.at("bandwidth_per_link"));
  CHECK(s.chip.link_bandwidth_published_bytes_per_s == published);
  CHECK(s.chip.link_bandwidth_bytes_per_s == published / 2);
  // One switch, the chip's whole port: intra = inter = the per-direction port.
  CHECK(s.fabric == "testswitch");
  CHECK(s.fabric_spec.intra_server_bandwidth_bytes_per_s == published / 2);
  CHECK(s.fabric_spec.efa_bandwidth_bytes_per_s_per_chip == si(sys.at("scale_out").at("bandwidth_per_chip")));
  // Sources: scale-up and scale-out quantities under the network's name.
  CHECK(s.sources.at("chip.testlink.bandwidth_per_link") == "assumption: test");
  CHECK(s.sources.at("testnic.latency") == "assumption: test");
  // A named alternative works as for the built-in data.
  const hw::System slow = hw::load_system(data_path("generic-system") + "+slow-memory");
  CHECK(slow.chip.hbm_bandwidth_bytes_per_s == si(chip.at("hbm").at("bandwidth").at("alternatives").at("slow-memory")));
  // Clustered like any system: N domains over the scale-out network.
  const hw::System four = hw::load_system(data_path("generic-system") + ":4");
  CHECK(four.chips == 4 * s.chips);
  CHECK(four.fabric == "testswitch+testnic");
  // describe: the generic tiers, a peak table with the chip's extra kind, no NeuronCore rows.
  const std::string text = hw::describe_text(s);
  CHECK(contains(text, "TestLink/chip"));
  CHECK(contains(text, "TestNIC/chip"));
  CHECK(contains(text, "nvfp4 "));
  CHECK_FALSE(contains(text, "per core"));
  CHECK(hw::describe_json(s).at("per_chip").at("peak_flops").contains("nvfp4"));
}

TEST_CASE("a model priced on the generic system: decode reads HBM at the chip's bandwidth") {
  const hw::System s = hw::load_system(data_path("generic-system"));
  const json rep = run_json(data_path("generic-system"), kWorkload);
  const json& result = rep.at("primary").at("result");
  const double hbm_eff = field_default("workload.efficiency.hbm");
  const double compute_eff = field_default("workload.efficiency.compute");
  const double overhead = field_default("workload.efficiency.kernel_overhead_s");
  int kernels = 0, collectives = 0;
  for (const auto& ph : result.at("phases")) {
    for (const auto& o : ph.at("ops")) {
      if (o.at("category") == "fabric") {
        // The TP all-reduce over the switch: the collective backend on the same system.
        CHECK(o.at("time_s").get<double>() > 0);
        ++collectives;
        continue;
      }
      ++kernels;
      const double bytes = o.at("hbm_bytes").get<double>(), flops = o.at("flops").get<double>();
      CHECK(o.at("memory_s").get<double>() == Approx(bytes / (s.chip.hbm_bandwidth_bytes_per_s * hbm_eff)).epsilon(1e-12));
      if (flops > 0 && o.at("name").get<std::string>().rfind("attn.core", 0) != 0) {
        // No NeuronCore block, so no tensor-engine ramp: the peak from the first cycle.
        const std::string dt = o.at("detail").get<std::string>().substr(0, o.at("detail").get<std::string>().find(' '));
        CHECK(o.at("compute_s").get<double>() == Approx(flops / (s.chip.peak(dt) * compute_eff)).epsilon(1e-12));
      }
      CHECK(o.at("time_s").get<double>() ==
            Approx(std::max(o.at("compute_s").get<double>(), o.at("memory_s").get<double>()) + o.at("overhead_s").get<double>())
                .epsilon(1e-12));
      CHECK(o.at("overhead_s").get<double>() >= overhead);
    }
  }
  CHECK(kernels > 0);
  CHECK(collectives > 0);
  // Batch-1 decode of an 8B model in FP8 reads every weight once a step: TPOT is at least
  // the weight bytes per chip over the chip's HBM bandwidth (kernel and collective overheads
  // come on top).
  const double weight_bytes = result.at("model").at("params").at("total").get<double>() / 8;  // FP8, TP8
  const double tpot = result.at("inference").at("tpot_s").get<double>();
  CHECK(tpot > weight_bytes / s.chip.hbm_bandwidth_bytes_per_s);
}

TEST_CASE("what needs the NeuronCore block refuses a generic chip, naming the chip and the user") {
  json engine = kWorkload;
  engine["pricer"] = "engine";
  const std::string e = error_of([&] { run_json(data_path("generic-system"), engine); });
  CHECK(contains(e, "Generic Accelerator (generic-chip) has no NeuronCore block"));
  CHECK(contains(e, "engine pricer"));
  json neuron_stack = kWorkload;
  neuron_stack["stack"] = "vllm-neuron";
  const std::string n = error_of([&] { run_json(data_path("generic-system"), neuron_stack); });
  CHECK(contains(n, "has no NeuronCore block"));
  CHECK(contains(n, "vllm-neuron"));
  // A precision the chip lacks falls back along the dtype table's chain (mxfp8 -> fp8).
  json mx = kWorkload;
  mx["precision"]["weights"] = "mxfp8";
  const json rep = run_json(data_path("generic-system"), mx);
  bool warned = false;
  for (const auto& w : rep.at("primary").at("result").at("warnings"))
    warned = warned || contains(w.get<std::string>(), "mxfp8 is not supported by Generic Accelerator; modeled as fp8");
  CHECK(warned);
}

TEST_CASE("hardware files: physically bounded values are refused naming file and key") {
  json chip = read_json("generic-chip");
  // Written where test_strict_data writes its files, and removed after.
  const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/generic-bad-chip.json";
  auto load_error = [&](const json& j) {
    std::ofstream(path) << j.dump();
    const std::string e = error_of([&] { hw::load_system(path); });
    std::remove(path.c_str());
    return e;
  };
  json zero_bw = chip;
  zero_bw["hbm"]["bandwidth"]["value"] = 0;
  CHECK(contains(load_error(zero_bw), "generic-bad-chip.json: hbm.bandwidth.value"));
  json no_links = chip;
  no_links["scale_up"]["links"]["value"] = 0;
  CHECK(contains(load_error(no_links), "generic-bad-chip.json: scale_up.links.value"));
}

}  // namespace unit_generic_hw
