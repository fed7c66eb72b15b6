// `trnsim describe`: a system's derived aggregates, per-chip data, fabric, the
// alternatives the sources disagree on, and every source. One JSON form (describe_json)
// and one text form (describe_text) rendered from it, so both always agree.
#include <cstdio>
#include <sstream>

#include "hw/system.h"

namespace trnsim::hw {

namespace {

json nullable(double v) { return v > 0 ? json(v) : json(nullptr); }

json fabric_json(const System& s) {
  const FabricSpec& f = s.fabric_spec;
  json j;
  j["kind"] = s.fabric;
  if (f.kind == "torus") {
    json dims = json::array();
    for (const auto& d : f.torus)
      dims.push_back({{"size", d.size},
                      {"link_bandwidth_bytes_per_s", d.link_bandwidth_bytes_per_s},
                      {"link_latency_s", d.link_latency_s}});
    j["torus"] = dims;
  } else if (f.kind == "switch") {
    const int l1 = f.chips_per_l1_switch > 0 ? f.chips_per_l1_switch : s.chips_per_server;
    j["chips_per_l1_switch"] = l1;
    j["l1_switches"] = s.chips_per_domain / l1;
    if (f.in_switch_reduction) j["in_switch_reduction"] = true;
    j["l2_switches"] = f.l2_switches;
    j["shared_chip_port"] = f.shared_chip_port;
    j["intra_server_bandwidth_bytes_per_s"] = f.intra_server_bandwidth_bytes_per_s;
    j["inter_server_bandwidth_bytes_per_s"] = f.inter_server_bandwidth_bytes_per_s;
    j["l1_latency_s"] = f.l1_latency_s;
    j["l2_latency_s"] = f.l2_latency_s;
  }
  j["efa_bandwidth_bytes_per_s_per_chip"] = f.efa_bandwidth_bytes_per_s_per_chip;
  j["efa_latency_s"] = f.efa_latency_s;
  j["collective_launch_overhead_s"] = f.launch_overhead_s;
  j["collective_step_overhead_s"] = f.step_overhead_s;
  j["collective_dma_packet_bytes"] = f.dma_packet_bytes;
  if (!f.protocols.empty()) {
    j["collective_link_efficiency"] = f.link_efficiency;
    json protos = json::array();
    for (const auto& p : f.protocols)
      protos.push_back({{"name", p.name},
                        {"latency_s", p.latency_s},
                        {"step_latency_s", p.step_latency_s},
                        {"payload_fraction", p.payload_fraction}});
    j["collective_protocols"] = protos;
  }
  if (f.in_switch_reduction) {
    j["in_switch_reduction_efficiency"] = f.in_switch_reduction_efficiency;
    j["in_switch_reduction_latency_s"] = f.in_switch_reduction_latency_s;
  }
  return j;
}

json engine_json(const EngineSpec& e) {
  return {{"clock_hz", e.clock_hz},
          {"elems_per_cycle_fast", e.elems_per_cycle_fast},
          {"elems_per_cycle_other", e.elems_per_cycle_other},
          {"op_overhead_cycles", e.op_overhead_cycles}};
}

json neuroncore_json(const Chip& c, const NeuronCoreBlock& n);

json chip_json(const Chip& c) {
  json j;
  j["name"] = c.name;
  j["display_name"] = c.display_name;
  if (c.neuroncore) j["cores"] = c.neuroncore->cores;
  json pf;
  for (const auto& dt : peak_table_dtypes({&c})) pf[dt] = nullable(c.peak(dt));
  j["peak_flops"] = pf;
  j["sparse_peak_flops"] = nullable(c.sparse_peak_flops);
  j["hbm_capacity_bytes"] = c.hbm_capacity_bytes;
  j["hbm_bandwidth_bytes_per_s"] = c.hbm_bandwidth_bytes_per_s;
  j["hbm_stacks"] = c.hbm_stacks;
  const NeuronCoreBlock* n = c.neuroncore ? &*c.neuroncore : nullptr;
  if (n) {
    j["dma_bandwidth_bytes_per_s"] = n->dma_bandwidth_bytes_per_s;
    j["dma_engines"] = n->dma_engines;
    j["dma_engine_bandwidth_bytes_per_s"] = n->dma_engine_bandwidth_bytes_per_s;
    j["dma_transfer_fixed_s"] = n->dma_transfer_fixed_s;
  } else {
    j["sram_bytes"] = c.sram_bytes;  // with the block, its SBUF says it per core
    j["scale_up"] = c.scale_up_name.empty() ? json(nullptr) : json(c.scale_up_name);
  }
  j["links"] = c.links;
  j["link_bandwidth_published_bytes_per_s"] = c.link_bandwidth_published_bytes_per_s;
  j["link_published_counts_both_directions"] = c.link_published_counts_both_directions;
  j["link_bandwidth_bytes_per_s"] = c.link_bandwidth_bytes_per_s;
  if (n) j["collective_cores"] = n->collective_cores;
  j["power_watts"] = c.power_watts;
  if (n) j["core"] = neuroncore_json(c, *n);
  if (c.execution) {
    json x;
    json af;
    for (const auto& [dt, v] : c.execution->achieved_flops) af[dt] = v;
    x["achieved_flops"] = af;
    x["achieved_hbm_bandwidth_bytes_per_s"] = nullable(c.execution->achieved_hbm_bytes_per_s);
    x["kernel_overhead_s"] = c.execution->kernel_overhead_s ? json(*c.execution->kernel_overhead_s) : json(nullptr);
    if (!c.execution->assumed_from.empty()) x["assumed_from"] = c.execution->assumed_from;
    j["execution"] = x;
  }
  return j;
}

// The NeuronCore block: one core's engines, SBUF, PSUM and DMA queues.
json neuroncore_json(const Chip& c, const NeuronCoreBlock& n) {
  const CoreSpec& k = n.core;
  json core;
  json te;
  te["rows"] = k.tensor.rows;
  te["cols"] = k.tensor.cols;
  te["clock_hz"] = k.tensor.clock_hz;
  json tp;
  for (const auto& dt : peak_table_dtypes({&c})) tp[dt] = nullable(k.tensor.peak_flops(dt));
  te["peak_flops"] = tp;
  te["max_moving_free"] = k.tensor.max_moving_free;
  te["min_initiation_cycles"] = k.tensor.min_initiation_cycles;
  te["warmup_start_fraction"] = k.tensor.warmup_start_fraction;
  te["warmup_ramp_s"] = k.tensor.warmup_ramp_s;
  core["tensor_engine"] = te;
  core["vector_engine"] = engine_json(k.vector);
  core["scalar_engine"] = engine_json(k.scalar);
  core["gpsimd_engine"] = engine_json(k.gpsimd);
  core["sbuf_bytes"] = k.sbuf_bytes;
  core["partitions"] = k.partitions;
  core["psum_bytes"] = k.psum_bytes;
  core["psum_banks"] = k.psum_banks;
  core["dma_queues"] = k.dma_queues;
  core["dma_fixed_s"] = k.dma_fixed_s;
  return core;
}

std::string num(double v, const char* f = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// A value with an SI-prefixed unit: 3.624e17 FLOP/s -> "362.4 PFLOP/s".
std::string si(double v, const std::string& unit) {
  if (v == 0) return "0 " + unit;
  const char* prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int i = 0;
  double x = v;
  while (x >= 1000 && i < 6) x /= 1000, ++i;
  return num(x) + " " + prefixes[i] + unit;
}

std::string binary(double bytes) {
  const char* prefixes[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int i = 0;
  double x = bytes;
  while (x >= 1024 && i < 6) x /= 1024, ++i;
  return num(x, "%.6g") + " " + prefixes[i];
}

// A text row's label, padded to the value column: "NeuronLink/chip  ".
std::string label(const std::string& text) { return text + std::string(text.size() < 17 ? 17 - text.size() : 1, ' '); }

std::string time_str(double s) {
  if (s >= 1) return num(s) + " s";
  if (s >= 1e-3) return num(s * 1e3) + " ms";
  if (s >= 1e-6) return num(s * 1e6) + " us";
  return num(s * 1e9) + " ns";
}

}  // namespace

json describe_json(const System& s) {
  json j;
  j["name"] = s.name;
  j["display_name"] = s.display_name;
  j["origin"] = s.origin;
  j["chip"] = s.chip.name;
  j["chips"] = s.chips;
  j["chips_per_server"] = s.chips_per_server;
  j["chips_per_domain"] = s.chips_per_domain;
  j["domains"] = s.domains;
  json pf;
  for (const auto& dt : peak_table_dtypes({&s.chip})) pf[dt] = nullable(s.peak_flops(dt));
  j["peak_flops"] = pf;
  j["sparse_peak_flops"] = nullable(s.chips * s.chip.sparse_peak_flops);
  j["hbm_capacity_bytes"] = s.hbm_capacity_bytes();
  j["hbm_bandwidth_bytes_per_s"] = s.hbm_bandwidth_bytes_per_s();
  j["power_watts"] = s.chips * s.chip.power_watts;
  j["link_bandwidth_bytes_per_s_per_chip"] = s.chip.link_bandwidth_bytes_per_s;
  j["link_bandwidth_published_bytes_per_s_per_chip"] = s.chip.link_bandwidth_published_bytes_per_s;
  j["scaleout_bandwidth_bytes_per_s_per_chip"] = s.scaleout_bandwidth_bytes_per_s_per_chip;
  j["fabric"] = fabric_json(s);
  j["per_chip"] = chip_json(s.chip);
  json alts = json::object();
  for (const auto& [key, list] : s.alternatives) {
    json a;
    auto it = s.chosen.find(key);
    a["chosen"] = it == s.chosen.end() ? "default" : it->second;
    json opts = json::array();
    for (const auto& o : list) opts.push_back({{"name", o.name}, {"value", o.value}, {"source", o.source}});
    a["options"] = opts;
    alts[key] = a;
  }
  j["alternatives"] = alts;
  json src = json::object();
  for (const auto& [k, v] : s.sources) src[k] = v;
  j["sources"] = src;
  return j;
}

std::string describe_text(const System& s) {
  std::ostringstream o;
  const Chip& c = s.chip;
  o << s.display_name << " (" << s.name << ")\n";
  o << "  chips            " << s.chips << " x " << c.display_name;
  if (s.domains > 1) o << " (" << s.domains << " UltraServers of " << s.chips_per_domain << ")";
  o << ", " << s.chips_per_server << " per server\n";
  o << "  peak             ";
  bool first = true;
  for (const auto& dt : peak_table_dtypes({&c})) {
    o << (first ? "" : ", ") << dt << " ";
    double v = s.peak_flops(dt);
    o << (v > 0 ? si(v, "FLOP/s") : std::string("n/a"));
    first = false;
  }
  o << "\n";
  o << "  HBM              " << num(s.hbm_capacity_bytes() / 1073741824.0, "%.10g") << " GiB" << ", " << si(s.hbm_bandwidth_bytes_per_s(), "B/s") << "\n";
  o << "  fabric           " << s.fabric;
  const FabricSpec& f = s.fabric_spec;
  if (f.kind == "torus") {
    o << " ";
    for (std::size_t i = 0; i < f.torus.size(); ++i) o << (i ? "x" : "") << f.torus[i].size;
    o << ", links per direction:";
    for (const auto& d : f.torus) o << " " << si(d.link_bandwidth_bytes_per_s, "B/s");
  } else if (f.kind == "switch") {
    const int l1 = f.chips_per_l1_switch > 0 ? f.chips_per_l1_switch : s.chips_per_server;
    o << ", " << s.chips_per_domain / l1 << " first-level switches of " << l1 << " chips, " << f.l2_switches
      << " second-level; chip port " << si(f.intra_server_bandwidth_bytes_per_s, "B/s") << " per direction";
    if (f.l2_switches > 0)
      o << ", " << si(f.inter_server_bandwidth_bytes_per_s, "B/s") << " toward other servers"
        << (f.shared_chip_port ? " (shared port)" : " (separate lanes)");
    if (f.in_switch_reduction) o << "; reduces in the switches";
  }
  o << "\n";
  if (!f.protocols.empty()) {
    o << "  collectives      " << num(f.link_efficiency * 100, "%.3g") << "% of the link rate; protocols";
    for (const auto& p : f.protocols)
      o << " " << p.name << " (" << time_str(p.latency_s) << " + " << time_str(p.step_latency_s) << "/step, "
        << num(p.payload_fraction * 100, "%.4g") << "% payload)";
    if (f.in_switch_reduction)
      o << "; in-switch all-reduce at " << num(f.in_switch_reduction_efficiency * 100, "%.3g") << "% + "
        << time_str(f.in_switch_reduction_latency_s);
    o << "\n";
  }
  if (!c.scale_up_name.empty())
    o << "  " << label(c.scale_up_name + "/chip") << si(c.link_bandwidth_published_bytes_per_s, "B/s") << " published ("
      << (c.link_published_counts_both_directions ? "both directions" : "per direction") << "), "
      << si(c.link_bandwidth_bytes_per_s, "B/s") << " per direction\n";
  if (f.efa_bandwidth_bytes_per_s_per_chip > 0)
    o << "  " << label(f.scale_out_name + "/chip") << si(f.efa_bandwidth_bytes_per_s_per_chip, "B/s")
      << " per direction, latency " << time_str(f.efa_latency_s) << "\n";
  const NeuronCoreBlock* n = c.neuroncore ? &*c.neuroncore : nullptr;
  auto power_source = s.sources.find("chip.power");
  const bool power_assumed = power_source == s.sources.end() || power_source->second.rfind("assumption", 0) == 0 ||
                             power_source->second.rfind("guess", 0) == 0;
  o << "  per chip         " << (n ? std::to_string(n->cores) + " cores, " : std::string()) << "HBM "
    << binary(c.hbm_capacity_bytes) << " at " << si(c.hbm_bandwidth_bytes_per_s, "B/s")
    << (n ? ", DMA " + si(n->dma_bandwidth_bytes_per_s, "B/s") : c.sram_bytes > 0 ? ", SRAM " + binary(c.sram_bytes) : std::string())
    << ", power " << num(c.power_watts) << " W" << (power_assumed ? " (assumption)" : "") << "\n";
  if (c.execution) {
    const ExecutionBlock& x = *c.execution;
    o << "  achieved         ";
    std::string sep;
    for (const auto& [dt, v] : x.achieved_flops) {
      o << sep << dt << " matmul " << si(v, "FLOP/s") << " (" << num(x.compute_efficiency(dt, c.peak(dt)) * 100, "%.3g")
        << "% of peak)";
      sep = ", ";
    }
    if (x.achieved_hbm_bytes_per_s > 0) {
      o << sep << "HBM " << si(x.achieved_hbm_bytes_per_s, "B/s") << " ("
        << num(x.achieved_hbm_bytes_per_s / c.hbm_bandwidth_bytes_per_s * 100, "%.3g") << "%)";
      sep = ", ";
    }
    if (x.kernel_overhead_s) o << sep << "kernel overhead " << time_str(*x.kernel_overhead_s);
    o << "\n    (the roofline's efficiencies on this chip unless a scenario sets workload.efficiency.*" <<
        (x.assumed_from.empty() ? std::string() : "; assumed: " + x.assumed_from + "'s measured fractions, not measured here") << ")\n";
  }
  if (n)
    o << "  per core         SBUF " << binary(n->core.sbuf_bytes) << ", PSUM " << binary(n->core.psum_bytes)
      << ", tensor engine " << n->core.tensor.rows << "x" << n->core.tensor.cols << " at "
      << si(n->core.tensor.clock_hz, "Hz") << " (bf16 " << si(n->core.tensor.peak_flops("bf16"), "FLOP/s") << ")\n";
  if (!s.alternatives.empty()) {
    o << "  alternatives (sources disagree; select with NAME+ALTERNATIVE):\n";
    for (const auto& [key, list] : s.alternatives) {
      auto it = s.chosen.find(key);
      std::string chosen = it == s.chosen.end() ? "default" : it->second;
      o << "    " << key << ":";
      for (const auto& a : list)
        o << " " << (a.name == chosen ? "[" : "") << a.name << "=" << num(a.value, "%.6g") << " (" << a.source << ")"
          << (a.name == chosen ? "]" : "");
      o << "\n";
    }
  }
  o << "  sources:\n";
  for (const auto& [k, v] : s.sources) o << "    " << k << ": " << v << "\n";
  return o.str();
}

}  // namespace trnsim::hw
