// Loading chips, systems and clusters from the data files (core/data/**) or a user's
// file, and the aggregates derived from them.
//
// Models: a chip file (trnsim-chip-2) gives generic per-chip tiers and, optionally, the
// NeuronCore block; a system file (trnsim-system-2) gives how many chips, how they are
// packaged (servers), the scale-up fabric (a torus or a switched domain) and the scale-out
// NIC share; a cluster file (trnsim-cluster-2) gives how many scale-up domains are joined
// by the scale-out network. Physically bounded values are checked on reading (counts
// positive, bandwidths positive, fractions in (0, 1]), each error naming the file and key. Every aggregate (system FLOP/s, HBM capacity and bandwidth) is
// computed here from per-chip data, never read from a file.
// Does NOT model: anything time-dependent (see roofline.cpp, core/collective, core/engine).
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <mutex>

#include "common/dtype.h"
#include "common/format.h"
#include "common/input_file.h"
#include "common/limits.h"
#include "embedded.h"
#include "hw/data_reader.h"
#include "hw/sources.h"
#include "hw/system.h"

namespace trnsim::hw {

const std::vector<std::string>& dtype_names() { return dtype::names(); }

const NeuronCoreBlock& Chip::neuron(const std::string& user) const {
  if (neuroncore) return *neuroncore;
  throw InputError("system", display_name + " (" + name + ") has no NeuronCore block (\"neuroncore\" in its chip file), which " +
                                 user + " needs; the roofline pricer works from the generic tiers alone");
}

double Chip::peak(const std::string& dtype) const {
  auto it = peak_flops.find(dtype);
  return it == peak_flops.end() ? 0.0 : it->second;
}

double ExecutionBlock::compute_efficiency(const std::string& dtype, double peak) const {
  auto it = achieved_flops.find(dtype);
  return it == achieved_flops.end() || !(peak > 0) ? 0.0 : it->second / peak;
}

double TensorEngineSpec::peak_flops(const std::string& dtype) const {
  auto it = rate_vs_bf16.find(dtype);
  if (it == rate_vs_bf16.end()) return 0.0;
  return 2.0 * rows * cols * clock_hz * it->second;
}

std::vector<std::string> peak_table_dtypes(const std::vector<const Chip*>& chips) {
  std::vector<std::string> out;
  for (const auto& d : dtype::all()) {
    bool has = d.always_listed;
    for (const Chip* c : chips) has = has || c->peak(d.name) > 0;
    if (has) out.push_back(d.name);
  }
  return out;
}

double System::peak_flops(const std::string& dtype) const {
  dtype::get(dtype);
  return chips * chip.peak(dtype);
}

namespace {

constexpr double kBig = 1e30;

enum class Kind { chip, system, cluster };

struct Source {
  std::string label;  // for errors: "data/chips/trainium3.json" or the user's path
  std::string text;
  std::string dir;    // folder of a user file, to resolve relative references
  bool builtin = false;
};

std::vector<std::string> builtin_names(const std::string& folder) {
  std::vector<std::string> names;
  std::string prefix = "data/" + folder + "/";
  for (const auto& key : embedded_keys(prefix)) {
    std::string stem = key.substr(prefix.size());
    if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) names.push_back(stem.substr(0, stem.size() - 5));
  }
  return names;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0);
}

Source find_source(const std::string& name, const std::string& base_dir, const std::string& field) {
  if (!looks_like_path(name)) {
    for (const char* folder : {"chips", "systems", "clusters"}) {
      std::string key = std::string("data/") + folder + "/" + name + ".json";
      if (const std::string* text = find_embedded(key)) return Source{key, *text, "", true};
    }
    std::vector<std::string> all = system_names();
    std::string list;
    for (const auto& n : all) list += (list.empty() ? "" : ", ") + n;
    std::string hint = closest_name(name, all);
    throw InputError(field, "unknown system or chip '" + name + "'" +
                                (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; one of: " + list +
                                " (or a path to a .json file)");
  }
  std::string path = name;
  if (!path.empty() && path[0] != '/' && !base_dir.empty()) path = base_dir + "/" + path;
  std::string text = read_input_file(path, field, limits::kMaxJsonInputBytes);
  auto slash = path.find_last_of('/');
  return Source{path, text, slash == std::string::npos ? "" : path.substr(0, slash), false};
}

// Rethrows an InputError with the file named in front of the field.
template <class F>
auto with_file(const std::string& label, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    std::string what = e.what();
    const std::string& field = e.field();
    std::string problem = field.empty() ? what : what.substr(std::min(what.size(), field.size() + 2));
    if (field.rfind(label, 0) == 0) throw;  // already named (a nested file)
    throw InputError(field.empty() ? label : label + ": " + field, problem);
  }
}

EngineSpec read_engine(ObjectReader& r, const std::string& key, DataContext& ctx, const std::string& sk) {
  ObjectReader e(r.raw(key), r.path(key));
  EngineSpec s;
  s.clock_hz = ctx.quantity(e, "clock", sk + ".clock", Dim::frequency, 1e6, 1e11);
  s.elems_per_cycle_fast = ctx.quantity(e, "elems_per_cycle_fast", sk + ".elems_per_cycle_fast", Dim::count, 1, 1e6);
  s.elems_per_cycle_other = ctx.quantity(e, "elems_per_cycle_other", sk + ".elems_per_cycle_other", Dim::count, 1, 1e6);
  s.op_overhead_cycles = ctx.quantity(e, "op_overhead_cycles", sk + ".op_overhead_cycles", Dim::count, 0, 1e9);
  e.finish();
  return s;
}

int as_int(double v) { return static_cast<int>(v); }

// The previous formats (version 1) put NeuronCore internals at the top of every chip file;
// version 2 splits generic tiers from vendor blocks. An old file is refused with what moved,
// not migrated: user files are few, and a silent migration would keep the old shape alive.
void refuse_version_1(const std::string& format) {
  std::string moved =
      format == "trnsim-chip-1"
          ? "move cores, collective_cores, dma and core into a \"neuroncore\" block and rename \"neuronlink\" to "
            "\"scale_up\" with \"name\": \"NeuronLink\""
      : format == "trnsim-system-1"
          ? "rename \"efa\" to \"scale_out\" with \"name\": \"EFA\", give a switch fabric \"name\": \"neuronswitch\" "
            "and write chip-scale-up for chip-neuronlink"
          : "only the format line changes";
  std::string next = format.substr(0, format.size() - 1) + "2";
  throw InputError("format", "'" + format + "' is the previous format; this version reads '" + next + "': " + moved +
                                 " (docs/hardware.md, How to add a chip or a system)");
}

void read_neuroncore(ObjectReader& r, Chip& c, DataContext& ctx, const std::string& p) {
  const json* block = r.optional_raw("neuroncore");
  if (!block) return;
  ObjectReader nr(*block, "neuroncore");
  NeuronCoreBlock n;
  n.cores = as_int(ctx.quantity(nr, "cores", p + "cores", Dim::count, 1, 4096));
  n.collective_cores = as_int(ctx.quantity(nr, "collective_cores", p + "collective_cores", Dim::count, 1, 1e6));
  {
    ObjectReader d(nr.raw("dma"), "neuroncore.dma");
    n.dma_bandwidth_bytes_per_s = ctx.quantity(d, "bandwidth", p + "dma.bandwidth", Dim::bytes_per_s, 1, kBig);
    n.dma_engines = as_int(ctx.quantity(d, "engines", p + "dma.engines", Dim::count, 1, 1e6));
    n.dma_engine_bandwidth_bytes_per_s =
        ctx.quantity(d, "engine_bandwidth", p + "dma.engine_bandwidth", Dim::bytes_per_s, 1, kBig);
    n.dma_transfer_fixed_s = ctx.quantity(d, "transfer_fixed_cost", p + "dma.transfer_fixed_cost", Dim::time, 0, 1);
    d.finish();
  }
  {
    ObjectReader k(nr.raw("core"), "neuroncore.core");
    k.ignore("generation");
    CoreSpec& s = n.core;
    {
      ObjectReader t(k.raw("tensor_engine"), "neuroncore.core.tensor_engine");
      std::string tk = p + "core.tensor_engine.";
      s.tensor.rows = as_int(ctx.quantity(t, "rows", tk + "rows", Dim::count, 1, 65536));
      s.tensor.cols = as_int(ctx.quantity(t, "cols", tk + "cols", Dim::count, 1, 65536));
      s.tensor.clock_hz = ctx.quantity(t, "clock", tk + "clock", Dim::frequency, 1e6, 1e11);
      ObjectReader rates(t.raw("rate_vs_bf16"), "neuroncore.core.tensor_engine.rate_vs_bf16");
      for (const auto& dt : dtype_names()) {
        double v = 0;
        if (ctx.optional_quantity(rates, dt, tk + "rate_vs_bf16." + dt, Dim::ratio, 1e-6, 1e6, v)) s.tensor.rate_vs_bf16[dt] = v;
      }
      rates.finish();
      s.tensor.max_moving_free = as_int(ctx.quantity(t, "max_moving_free", tk + "max_moving_free", Dim::count, 1, 1 << 20));
      s.tensor.min_initiation_cycles = ctx.quantity(t, "min_initiation_cycles", tk + "min_initiation_cycles", Dim::count, 0, 1e9);
      s.tensor.warmup_start_fraction =
          ctx.quantity(t, "warmup_start_fraction", tk + "warmup_start_fraction", Dim::ratio, 0.01, 1);
      s.tensor.warmup_ramp_s = ctx.quantity(t, "warmup_ramp", tk + "warmup_ramp", Dim::time, 0, 1);
      t.finish();
    }
    s.vector = read_engine(k, "vector_engine", ctx, p + "core.vector_engine");
    s.scalar = read_engine(k, "scalar_engine", ctx, p + "core.scalar_engine");
    s.gpsimd = read_engine(k, "gpsimd_engine", ctx, p + "core.gpsimd_engine");
    s.sbuf_bytes = ctx.quantity(k, "sbuf", p + "core.sbuf", Dim::bytes, 1, kBig);
    s.partitions = as_int(ctx.quantity(k, "partitions", p + "core.partitions", Dim::count, 1, 65536));
    s.psum_bytes = ctx.quantity(k, "psum", p + "core.psum", Dim::bytes, 1, kBig);
    s.psum_banks = as_int(ctx.quantity(k, "psum_banks", p + "core.psum_banks", Dim::count, 1, 1024));
    s.dma_queues = as_int(ctx.quantity(k, "dma_queues", p + "core.dma_queues", Dim::count, 1, 1e6));
    s.dma_fixed_s = ctx.quantity(k, "dma_fixed_latency", p + "core.dma_fixed_latency", Dim::time, 0, 1);
    k.finish();
  }
  nr.finish();
  c.neuroncore = n;
}

// A network's name as it prefixes its quantities' source keys: "NeuronLink" -> "neuronlink".
std::string network_key(const std::string& name, const std::string& field) {
  std::string key;
  for (char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    else if (ch == '-' || ch == '_' || ch == ' ') key += '-';
    else throw InputError(field, "a network name takes letters, digits, '-', '_' and spaces, got '" + name + "'");
  }
  if (key.empty()) throw InputError(field, "must not be empty");
  return key;
}

void read_scale_up(ObjectReader& r, Chip& c, DataContext& ctx, const std::string& p) {
  const json* block = r.optional_raw("scale_up");
  if (!block) return;
  ObjectReader n(*block, "scale_up");
  c.scale_up_name = n.string("name");
  const std::string k = p + network_key(c.scale_up_name, "scale_up.name") + ".";
  n.ignore("generation");
  c.links = as_int(ctx.quantity(n, "links", k + "links", Dim::count, 1, 1024));
  double per_link = 0;
  const bool by_link = ctx.optional_quantity(n, "bandwidth_per_link", k + "bandwidth_per_link", Dim::bytes_per_s, 1, kBig, per_link);
  double per_chip = 0;
  if (ctx.optional_quantity(n, "bandwidth_per_chip", k + "bandwidth_per_chip", Dim::bytes_per_s, 1, kBig, per_chip)) {
    if (by_link) throw InputError("scale_up", "give bandwidth_per_chip or bandwidth_per_link, not both");
    c.link_bandwidth_published_bytes_per_s = per_chip;
  } else if (by_link) {
    c.link_bandwidth_published_bytes_per_s = per_link * c.links;
  } else {
    throw InputError("scale_up.bandwidth_per_chip", "missing (required: bandwidth_per_chip or bandwidth_per_link)");
  }
  c.link_published_counts_both_directions =
      ctx.quantity(n, "counts_both_directions", k + "counts_both_directions", Dim::boolean, 0, 1) != 0;
  n.finish();
  c.link_bandwidth_bytes_per_s =
      c.link_bandwidth_published_bytes_per_s / (c.link_published_counts_both_directions ? 2.0 : 1.0);
}

// Nesting of execution.assumed_from while a chip is read: a reference must carry its own
// measurements, so a chain (or a cycle) of assumptions is refused.
thread_local int assumed_from_depth = 0;

// "assumed_from": another chip's measured fractions carried to this one, as a labelled
// assumption (a chip nobody measured, e.g. H200 as the H100's GH100 die at a higher HBM
// bandwidth, Blackwell as Hopper). {"chip": NAME, "source": "assumption: ...", "matmul":
// {this chip's dtype: the reference's dtype}}: each matmul rate is the reference's achieved /
// peak in its dtype times this chip's peak; the HBM bandwidth is the reference's achieved /
// published fraction of this chip's; the per-kernel overhead is the reference's.
ExecutionBlock assumed_execution(const json& spec, const Chip& c, DataContext& ctx, const std::string& p) {
  ObjectReader a(spec, "execution.assumed_from");
  const std::string ref = a.string("chip");
  const std::string why = a.string("source");
  check_source(why, a.path("source"));
  if (looks_like_path(ref) || ref.find_first_of(":+") != std::string::npos)
    throw InputError(a.path("chip"), "the name of a bundled chip, got '" + ref + "'");
  if (assumed_from_depth > 0)
    throw InputError(a.path("chip"), "'" + ref + "' carries assumed execution data itself; refer to the chip it was measured on");
  Chip rc;
  System rs;
  {
    ++assumed_from_depth;
    struct Leave { ~Leave() { --assumed_from_depth; } } leave;
    rs = load_system(ref);
    if (rs.chips != 1) throw InputError(a.path("chip"), "'" + ref + "' is a system, not a chip");
    rc = rs.chip;
  }
  if (!rc.execution) throw InputError(a.path("chip"), "'" + ref + "' has no execution data to carry");
  if (!rc.execution->assumed_from.empty())
    throw InputError(a.path("chip"), "'" + ref + "' carries assumed execution data itself (from '" +
                                         rc.execution->assumed_from + "'); refer to the chip it was measured on");
  const ExecutionBlock& rx = *rc.execution;
  auto ref_source = [&](const std::string& key) {
    for (const std::string& k : {key, "chip." + key}) {
      auto it = rs.sources.find(k);
      if (it != rs.sources.end()) return it->second;
    }
    return std::string("chip data");
  };
  const std::string who = why + "; " + rc.display_name + "'s ";
  ExecutionBlock x;
  x.assumed_from = ref;
  ObjectReader m(a.raw("matmul"), a.path("matmul"));
  for (const auto& dt : dtype_names()) {
    if (!m.has(dt)) continue;
    const std::string from = m.string(dt);
    const std::string path = m.path(dt);
    if (c.peak(dt) <= 0) throw InputError(path, "the chip has no " + dt + " peak (peak_flops." + dt + ")");
    auto it = rx.achieved_flops.find(from);
    if (it == rx.achieved_flops.end())
      throw InputError(path, "'" + ref + "' has no measured " + from + " matmul (execution.achieved_flops." + from + ")");
    const double fraction = rx.compute_efficiency(from, rc.peak(from));
    x.achieved_flops[dt] = fraction * c.peak(dt);
    ctx.record_source(p + "execution.achieved_flops." + dt,
                      who + from + " matmul fraction " + fmt::general(fraction, 3) + " (" +
                          ref_source("execution.achieved_flops." + from) + ")");
  }
  m.finish();
  if (x.achieved_flops.empty()) throw InputError(a.path("matmul"), "names no dtype");
  if (rx.achieved_hbm_bytes_per_s > 0 && rc.hbm_bandwidth_bytes_per_s > 0) {
    const double fraction = rx.achieved_hbm_bytes_per_s / rc.hbm_bandwidth_bytes_per_s;
    x.achieved_hbm_bytes_per_s = fraction * c.hbm_bandwidth_bytes_per_s;
    ctx.record_source(p + "execution.achieved_hbm_bandwidth",
                      who + "achieved / published HBM bandwidth " + fmt::general(fraction, 3) + ", the same fraction of this chip's (" +
                          ref_source("execution.achieved_hbm_bandwidth") + ")");
  }
  if (rx.kernel_overhead_s) {
    x.kernel_overhead_s = rx.kernel_overhead_s;
    ctx.record_source(p + "execution.kernel_overhead", who + "per-kernel overhead (" + ref_source("execution.kernel_overhead") + ")");
  }
  a.finish();
  return x;
}

// The optional "execution" block: achieved matmul rates per dtype (each at most the chip's
// peak of that dtype), achieved HBM bandwidth (at most the HBM's) and the per-kernel overhead;
// or "assumed_from", another chip's fractions (assumed_execution above), not both.
void read_execution(ObjectReader& r, Chip& c, DataContext& ctx, const std::string& p) {
  const json* block = r.optional_raw("execution");
  if (!block) return;
  ObjectReader e(*block, "execution");
  e.ignore("note");
  if (const json* from = e.optional_raw("assumed_from")) {
    for (const char* own : {"achieved_flops", "achieved_hbm_bandwidth", "kernel_overhead"})
      if (e.has(own)) throw InputError(e.path(own), "give measured values or assumed_from, not both");
    c.execution = assumed_execution(*from, c, ctx, p);
    e.finish();
    return;
  }
  ExecutionBlock x;
  if (const json* af = e.optional_raw("achieved_flops")) {
    ObjectReader a(*af, "execution.achieved_flops");
    for (const auto& dt : dtype_names()) {
      double v = 0;
      if (!ctx.optional_quantity(a, dt, p + "execution.achieved_flops." + dt, Dim::flops, 1, kBig, v)) continue;
      if (c.peak(dt) <= 0)
        throw InputError("execution.achieved_flops." + dt, "the chip has no " + dt + " peak (peak_flops." + dt + ")");
      if (v > c.peak(dt))
        throw InputError("execution.achieved_flops." + dt, "exceeds the chip's " + dt + " peak");
      x.achieved_flops[dt] = v;
    }
    a.finish();
  }
  if (ctx.optional_quantity(e, "achieved_hbm_bandwidth", p + "execution.achieved_hbm_bandwidth", Dim::bytes_per_s, 1,
                            kBig, x.achieved_hbm_bytes_per_s) &&
      x.achieved_hbm_bytes_per_s > c.hbm_bandwidth_bytes_per_s)
    throw InputError("execution.achieved_hbm_bandwidth", "exceeds the HBM bandwidth (hbm.bandwidth)");
  double overhead = 0;
  if (ctx.optional_quantity(e, "kernel_overhead", p + "execution.kernel_overhead", Dim::time, 0, 0.01, overhead))
    x.kernel_overhead_s = overhead;
  e.finish();
  c.execution = x;
}

// Source keys: the path in the file under `p` ("chip."), except that scale-up quantities
// go under the network's name (chip.neuronlink.links) and a vendor block's under the chip
// itself (chip.cores, chip.core.sbuf): the names every report has listed.
Chip parse_chip(const json& j, DataContext& ctx, const std::string& p) {
  ObjectReader r(j, "");
  r.choice("format", {"trnsim-chip-2"});
  Chip c;
  c.name = r.string("name");
  if (c.name.empty()) throw InputError("name", "must not be empty");
  c.display_name = r.string("display_name", c.name);
  r.ignore("note");
  r.ignore("description");
  {
    ObjectReader pf(r.raw("peak_flops"), "peak_flops");
    for (const auto& dt : dtype_names()) {
      double v = 0;
      if (ctx.optional_quantity(pf, dt, p + "peak_flops." + dt, Dim::flops, 1, kBig, v)) c.peak_flops[dt] = v;
    }
    pf.finish();
    if (c.peak_flops.empty()) throw InputError("peak_flops", "the chip needs a peak for at least one dtype");
  }
  ctx.optional_quantity(r, "sparse_peak_flops", p + "sparse_peak_flops", Dim::flops, 1, kBig, c.sparse_peak_flops);
  {
    ObjectReader h(r.raw("hbm"), "hbm");
    c.hbm_capacity_bytes = ctx.quantity(h, "capacity", p + "hbm.capacity", Dim::bytes, 1, kBig);
    double stacks = 0;
    if (ctx.optional_quantity(h, "stacks", p + "hbm.stacks", Dim::count, 1, 64, stacks)) c.hbm_stacks = as_int(stacks);
    c.hbm_bandwidth_bytes_per_s = ctx.quantity(h, "bandwidth", p + "hbm.bandwidth", Dim::bytes_per_s, 1, kBig);
    h.finish();
  }
  if (const json* sram = r.optional_raw("sram")) {
    ObjectReader m(*sram, "sram");
    c.sram_bytes = ctx.quantity(m, "capacity", p + "sram.capacity", Dim::bytes, 1, kBig);
    m.finish();
  }
  read_scale_up(r, c, ctx, p);
  c.power_watts = ctx.quantity(r, "power", p + "power", Dim::power, 1, 1e7);
  ctx.optional_quantity(r, "price_per_chip_hour", p + "price_per_chip_hour", Dim::money_per_hour, 0, 1e6,
                        c.price_per_hour_usd);
  read_neuroncore(r, c, ctx, p);
  read_execution(r, c, ctx, p);
  // On-chip SRAM, derived where the NeuronCore block gives it per core (SBUF).
  if (c.sram_bytes == 0 && c.neuroncore) c.sram_bytes = c.neuroncore->cores * c.neuroncore->core.sbuf_bytes;
  r.finish();
  return c;
}

System chip_as_system(const Chip& chip) {
  System s;
  s.name = chip.name;
  s.display_name = chip.display_name + " (one chip)";
  s.chip = chip;
  s.chips = s.chips_per_server = s.chips_per_domain = 1;
  s.domains = 1;
  s.fabric = "none";
  s.fabric_spec.kind = "none";
  return s;
}

System load_any(const Source& src, DataContext& parent, const std::string& field, int depth);

Chip load_chip_ref(const std::string& ref, const Source& from, DataContext& ctx, const std::string& field, int depth) {
  Source cs = find_source(ref, from.dir, field);
  System sub = load_any(cs, ctx, field, depth + 1);
  if (sub.chips != 1 || sub.fabric_spec.kind != "none") throw InputError(field, "'" + ref + "' is a system, not a chip");
  return sub.chip;
}

void read_fabric(ObjectReader& r, System& s, DataContext& ctx) {
  ObjectReader f(r.raw("fabric"), "fabric");
  FabricSpec& fs = s.fabric_spec;
  fs.kind = f.choice("kind", {"torus", "switch"});
  double conv = s.chip.link_published_counts_both_directions ? 2.0 : 1.0;
  if (fs.kind == "torus") {
    const json& dims = f.raw("torus");
    if (!dims.is_array() || dims.empty() || dims.size() > 6)
      throw InputError("fabric.torus", "expected an array of 1 to 6 dimensions");
    long long product = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      std::string dp = index_path("fabric.torus", i);
      ObjectReader d(dims[i], dp);
      TorusDim td;
      td.size = as_int(ctx.quantity(d, "size", dp + ".size", Dim::count, 1, 1 << 20));
      double per_chip = ctx.quantity(d, "bandwidth_per_chip", dp + ".bandwidth_per_chip", Dim::bytes_per_s, 0, kBig);
      int neighbours = td.size >= 3 ? 2 : (td.size == 2 ? 1 : 0);
      td.link_bandwidth_bytes_per_s = neighbours ? per_chip / neighbours / conv : 0.0;
      if (neighbours && td.link_bandwidth_bytes_per_s <= 0) throw InputError(dp + ".bandwidth_per_chip", "must be positive");
      td.link_latency_s = ctx.quantity(d, "link_latency", dp + ".link_latency", Dim::time, 0, 1);
      d.finish();
      fs.torus.push_back(td);
      product *= td.size;
    }
    if (product != s.chips_per_domain)
      throw InputError("fabric.torus", "dimension sizes multiply to " + std::to_string(product) + " chips but the system has " +
                                           std::to_string(s.chips_per_domain));
    s.fabric = "torus" + std::to_string(fs.torus.size()) + "d";
  } else {
    // "chip-scale-up": the chip's whole published scale-up bandwidth reaches the switch.
    for (const char* key : {"intra_server_bandwidth", "inter_server_bandwidth"}) {
      const json* q = f.has(key) ? &f.raw(key) : nullptr;
      if (s.chip.link_bandwidth_published_bytes_per_s <= 0 && q && q->is_object() && q->contains("value") &&
          (*q)["value"] == "chip-scale-up")
        throw InputError(std::string("fabric.") + key, "chip-scale-up needs the chip's scale_up ports, and '" + s.chip.name +
                                                           "' has none");
    }
    std::vector<SpecialValue> chip_bw = {{"chip-scale-up", s.chip.link_bandwidth_published_bytes_per_s}};
    s.fabric = network_key(f.string("name", "switch"), "fabric.name");
    fs.shared_chip_port = ctx.quantity(f, "shared_chip_port", "fabric.shared_chip_port", Dim::boolean, 0, 1) != 0;
    fs.intra_server_bandwidth_bytes_per_s =
        ctx.quantity(f, "intra_server_bandwidth", "fabric.intra_server_bandwidth", Dim::bytes_per_s, 1, kBig, chip_bw) / conv;
    fs.l1_latency_s = ctx.quantity(f, "l1_latency", "fabric.l1_latency", Dim::time, 0, 1);
    double l1_chips = 0;
    if (ctx.optional_quantity(f, "chips_per_l1_switch", "fabric.chips_per_l1_switch", Dim::count, 1, 1 << 20, l1_chips)) {
      fs.chips_per_l1_switch = as_int(l1_chips);
      if (fs.chips_per_l1_switch % s.chips_per_server != 0 || s.chips_per_domain % fs.chips_per_l1_switch != 0)
        throw InputError("fabric.chips_per_l1_switch", "must be a multiple of chips_per_server (" +
                                                           std::to_string(s.chips_per_server) + ") that divides the domain's " +
                                                           std::to_string(s.chips_per_domain) + " chips, got " +
                                                           std::to_string(fs.chips_per_l1_switch));
    } else {
      fs.chips_per_l1_switch = s.chips_per_server;
    }
    double reduces = 0;
    if (ctx.optional_quantity(f, "in_switch_reduction", "fabric.in_switch_reduction", Dim::boolean, 0, 1, reduces))
      fs.in_switch_reduction = reduces != 0;
    // The second level joins servers: a domain of one server has none (a single switch).
    if (s.chips_per_domain > fs.chips_per_l1_switch || f.has("l2_switches")) {
      fs.l2_switches = as_int(ctx.quantity(f, "l2_switches", "fabric.l2_switches", Dim::count, 1, 1024));
      fs.inter_server_bandwidth_bytes_per_s =
          ctx.quantity(f, "inter_server_bandwidth", "fabric.inter_server_bandwidth", Dim::bytes_per_s, 1, kBig, chip_bw) / conv;
      fs.l2_latency_s = ctx.quantity(f, "l2_latency", "fabric.l2_latency", Dim::time, 0, 1);
    } else {
      fs.inter_server_bandwidth_bytes_per_s = fs.intra_server_bandwidth_bytes_per_s;
    }
  }
  f.finish();
}

System parse_system(const json& j, const Source& src, DataContext& ctx, int depth) {
  ObjectReader r(j, "");
  r.choice("format", {"trnsim-system-2"});
  System s;
  s.name = r.string("name");
  if (s.name.empty()) throw InputError("name", "must not be empty");
  s.display_name = r.string("display_name", s.name);
  r.ignore("note");
  r.ignore("description");
  std::string chip_ref = r.string("chip");
  // The chip's sources go in under "chip.", so load it into this system's context.
  s.chip = load_chip_ref(chip_ref, src, ctx, "chip", depth);
  s.chips_per_server = as_int(ctx.quantity(r, "chips_per_server", "chips_per_server", Dim::count, 1, 1 << 20));
  int servers = as_int(ctx.quantity(r, "servers", "servers", Dim::count, 1, 1 << 20));
  if (static_cast<long long>(servers) * s.chips_per_server > kMaxChips)
    throw InputError("servers", std::to_string(servers) + " servers of " + std::to_string(s.chips_per_server) +
                                    " chips exceed the model's limit of " + std::to_string(kMaxChips) + " chips");
  s.chips_per_domain = servers * s.chips_per_server;
  s.chips = s.chips_per_domain;
  s.domains = 1;
  read_fabric(r, s, ctx);
  FabricSpec& fs = s.fabric_spec;
  if (fs.kind == "switch" && s.chips_per_domain % s.chips_per_server != 0)
    throw InputError("servers", "chips must fill whole servers");
  // The scale-out NIC share of each chip, given per chip, per server or per domain (one of
  // them); its quantities' source keys go under the network's name (efa.latency).
  if (const json* out = r.optional_raw("scale_out")) {
    ObjectReader e(*out, "scale_out");
    fs.scale_out_name = e.string("name");
    const std::string k = network_key(fs.scale_out_name, "scale_out.name") + ".";
    const std::pair<const char*, int> shares[] = {
        {"bandwidth_per_chip", 1}, {"bandwidth_per_server", s.chips_per_server}, {"bandwidth_per_domain", s.chips_per_domain}};
    std::string given;
    for (const auto& [key, chips] : shares) {
      double v = 0;
      if (!ctx.optional_quantity(e, key, k + key, Dim::bytes_per_s, 1, kBig, v)) continue;
      if (!given.empty()) throw InputError("scale_out", "give one of bandwidth_per_chip, bandwidth_per_server or bandwidth_per_domain, not " +
                                                            given + " and " + key);
      given = key;
      fs.efa_bandwidth_bytes_per_s_per_chip = v / chips;
    }
    if (given.empty())
      throw InputError("scale_out.bandwidth_per_chip", "missing (required: bandwidth_per_chip, bandwidth_per_server or bandwidth_per_domain)");
    fs.efa_latency_s = ctx.quantity(e, "latency", k + "latency", Dim::time, 0, 1);
    e.finish();
    s.scaleout_bandwidth_bytes_per_s_per_chip = fs.efa_bandwidth_bytes_per_s_per_chip;
  }
  {
    ObjectReader c(r.raw("collective_software"), "collective_software");
    fs.launch_overhead_s = ctx.quantity(c, "launch_overhead", "collective_software.launch_overhead", Dim::time, 0, 1);
    fs.step_overhead_s = ctx.quantity(c, "step_overhead", "collective_software.step_overhead", Dim::time, 0, 1);
    fs.reduce_bytes_per_s = ctx.quantity(c, "reduce_bandwidth", "collective_software.reduce_bandwidth", Dim::bytes_per_s, 0, kBig);
    ctx.optional_quantity(c, "dma_packet", "collective_software.dma_packet", Dim::bytes, 1, kBig, fs.dma_packet_bytes);
    ctx.optional_quantity(c, "link_efficiency", "collective_software.link_efficiency", Dim::ratio, 0.01, 1, fs.link_efficiency);
    if (const json* protos = c.optional_raw("protocols")) {
      if (!protos->is_object() || protos->empty())
        throw InputError("collective_software.protocols", "expected an object of protocols by name");
      for (const auto& item : protos->items()) {
        const std::string& name = item.key();
        const json& value = item.value();
        const std::string pp = "collective_software.protocols." + name;
        ObjectReader pr(value, pp);
        FabricSpec::Protocol proto;
        proto.name = name;
        proto.latency_s = ctx.quantity(pr, "latency", pp + ".latency", Dim::time, 0, 1);
        proto.step_latency_s = ctx.quantity(pr, "step_latency", pp + ".step_latency", Dim::time, 0, 1);
        proto.payload_fraction = ctx.quantity(pr, "payload_fraction", pp + ".payload_fraction", Dim::ratio, 0.01, 1);
        pr.finish();
        fs.protocols.push_back(proto);
      }
    }
    if (const json* isr = c.optional_raw("in_switch_reduction")) {
      ObjectReader ir(*isr, "collective_software.in_switch_reduction");
      const std::string ip = "collective_software.in_switch_reduction.";
      fs.in_switch_reduction_efficiency =
          ctx.quantity(ir, "bandwidth_efficiency", ip + "bandwidth_efficiency", Dim::ratio, 0.01, 1);
      fs.in_switch_reduction_latency_s = ctx.quantity(ir, "latency", ip + "latency", Dim::time, 0, 1);
      ir.finish();
    }
    c.finish();
    if (fs.in_switch_reduction && fs.in_switch_reduction_efficiency <= 0)
      throw InputError("collective_software.in_switch_reduction",
                       "missing: the fabric reduces in its switches (fabric.in_switch_reduction), which needs the "
                       "algorithm's bandwidth_efficiency and latency");
    if (!fs.in_switch_reduction && fs.in_switch_reduction_efficiency > 0)
      throw InputError("collective_software.in_switch_reduction",
                       "given, but the fabric does not reduce in its switches (fabric.in_switch_reduction)");
    if (s.chip.neuroncore && fs.dma_packet_bytes <= 0)
      throw InputError("collective_software.dma_packet",
                       "missing: the chip's NeuronCore block times collectives as DMA transfers cut into packets of this size");
  }
  r.finish();
  return s;
}

System parse_cluster(const json& j, const Source& src, DataContext& ctx, int depth) {
  ObjectReader r(j, "");
  r.choice("format", {"trnsim-cluster-2"});
  std::string name = r.string("name");
  if (name.empty()) throw InputError("name", "must not be empty");
  std::string display = r.string("display_name", name);
  r.ignore("note");
  r.ignore("description");
  std::string ref = r.string("ultraserver");
  Source us = find_source(ref, src.dir, "ultraserver");
  System base = load_any(us, ctx, "ultraserver", depth + 1);
  if (base.domains != 1 || base.fabric_spec.kind == "none")
    throw InputError("ultraserver", "'" + ref + "' must be a system (an UltraServer), not a chip or a cluster");
  int n = as_int(ctx.quantity(r, "ultraservers", "ultraservers", Dim::count, 1, kMaxChips));
  r.finish();
  System s = with_ultraservers(base, n);
  s.name = name;
  s.display_name = display;
  return s;
}

// Loads one file (and the files it refers to). What it records (sources,
// alternatives) goes into the returned system and is merged into `parent`.
System load_any(const Source& src, DataContext& parent, const std::string& field, int depth) {
  if (depth > 4) throw InputError(field, "files refer to each other too deeply");
  DataContext ctx(parent.selected());
  System s = with_file(src.label, [&] {
    json j = parse_json_text(src.text, "");
    if (!j.is_object()) throw InputError("", "expected a JSON object");
    std::string format = j.contains("format") && j["format"].is_string() ? j["format"].get<std::string>() : "";
    System out;
    if (format == "trnsim-chip-2") {
      out = chip_as_system(parse_chip(j, ctx, "chip."));
    } else if (format == "trnsim-system-2") {
      out = parse_system(j, src, ctx, depth);
    } else if (format == "trnsim-cluster-2") {
      out = parse_cluster(j, src, ctx, depth);
    } else if (format == "trnsim-chip-1" || format == "trnsim-system-1" || format == "trnsim-cluster-1") {
      refuse_version_1(format);
    } else {
      ObjectReader r(j, "");
      r.choice("format", {"trnsim-chip-2", "trnsim-system-2", "trnsim-cluster-2"});
    }
    if (src.builtin) {
      std::string stem = src.label.substr(src.label.find_last_of('/') + 1);
      stem = stem.substr(0, stem.size() - 5);
      if (stem != out.name) throw InputError("name", "'" + out.name + "' does not match the file name '" + stem + "'");
    }
    return out;
  });
  ctx.store(s);
  s.origin = src.label;
  parent.merge(s, ctx, "");
  return s;
}

}  // namespace

std::vector<std::string> chip_names() { return builtin_names("chips"); }

std::vector<std::string> system_names() {
  std::vector<std::string> names;
  for (const char* folder : {"chips", "systems", "clusters"}) {
    auto part = builtin_names(folder);
    names.insert(names.end(), part.begin(), part.end());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// n UltraServers of `system` must stay within kMaxChips (system.h); the message states the
// limit and the largest n this system allows.
static void check_chip_limit(long long n, const System& system, const std::string& field, const std::string& what) {
  if (system.chips_per_domain <= 0 || n <= kMaxChips / system.chips_per_domain) return;
  throw InputError(field, what + std::to_string(n) + " UltraServers of " + std::to_string(system.chips_per_domain) +
                              " chips exceed the model's limit of " + std::to_string(kMaxChips) + " chips (at most " +
                              std::to_string(kMaxChips / system.chips_per_domain) + " UltraServers of this system)");
}

// "+efa": how a system's fabric name says that domains are joined by its scale-out network.
static std::string scale_out_suffix(const System& s) {
  return s.fabric_spec.scale_out_name.empty() ? "+scale-out" : "+" + network_key(s.fabric_spec.scale_out_name, "scale_out.name");
}

System with_ultraservers(const System& system, int n) {
  if (n < 1) throw InputError("ultraservers", "must be at least 1, got " + std::to_string(n));
  if (system.fabric_spec.kind == "none")
    throw InputError("ultraservers", "'" + system.name + "' is a single chip; a cluster is built from an UltraServer");
  check_chip_limit(n, system, "ultraservers", "");
  if (n > 1 && system.fabric_spec.efa_bandwidth_bytes_per_s_per_chip <= 0)
    throw InputError("ultraservers", "'" + system.name + "' has no scale-out network (scale_out), so it cannot be clustered");
  System s = system;
  s.domains = n;
  s.chips = n * system.chips_per_domain;
  const std::string suffix = scale_out_suffix(system);
  bool was_cluster = system.domains > 1 || system.fabric.find(suffix) != std::string::npos;
  if (!was_cluster) {
    s.name = system.name + ":" + std::to_string(n);
    s.display_name = system.display_name + " x " + std::to_string(n);
  }
  if (s.fabric.find(suffix) == std::string::npos) s.fabric += suffix;
  return s;
}

SystemName parse_system_name(const std::string& text) {
  SystemName spec;
  std::string rest = text;
  std::size_t slash = rest.find_last_of('/');
  std::size_t from = slash == std::string::npos ? 0 : slash;
  std::size_t plus = rest.find('+', from);
  if (plus != std::string::npos) {
    std::string alts = rest.substr(plus + 1);
    rest = rest.substr(0, plus);
    std::size_t pos = 0;
    while (pos <= alts.size()) {
      std::size_t next = alts.find('+', pos);
      std::string a = alts.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      if (a.empty()) throw InputError("system", "empty alternative name in '" + text + "'");
      spec.alternatives.push_back(a);
      if (next == std::string::npos) break;
      pos = next + 1;
    }
    std::sort(spec.alternatives.begin(), spec.alternatives.end());
    spec.alternatives.erase(std::unique(spec.alternatives.begin(), spec.alternatives.end()), spec.alternatives.end());
  }
  std::size_t colon = rest.find(':', from);
  if (colon != std::string::npos) {
    std::string num = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("system", "'" + text + "': the UltraServer count after ':' must be a positive whole number");
    // A count is a positive whole number; one beyond the chip limit for any system (each
    // UltraServer has a chip) is refused here, stating the limit; within it, load_system
    // checks it against the system's size (and says how many UltraServers fit).
    num.erase(0, std::min(num.find_first_not_of('0'), num.size()));
    if (num.size() > 9 || (!num.empty() && std::stoll(num) > kMaxChips))
      throw InputError("system", "'" + text + "': " + num + " UltraServers exceed the model's limit of " +
                                     std::to_string(kMaxChips) + " chips");
    spec.ultraservers = num.empty() ? 0 : std::stoi(num);
    if (spec.ultraservers < 1) throw InputError("system", "'" + text + "': the UltraServer count must be at least 1");
  }
  if (rest.empty()) throw InputError("system", "missing system name");
  spec.base = rest;
  return spec;
}

std::string format_system_name(const SystemName& name) {
  std::string s = name.base;
  if (name.ultraservers > 0) s += ":" + std::to_string(name.ultraservers);
  for (const auto& a : name.alternatives) s += "+" + a;
  return s;
}

static System load_system_uncached(const std::string& name_or_path) {
  SystemName spec = parse_system_name(name_or_path);
  DataContext root(std::set<std::string>(spec.alternatives.begin(), spec.alternatives.end()));
  Source src = find_source(spec.base, "", "system");
  System s = load_any(src, root, "system", 0);
  for (const auto& a : spec.alternatives) {
    if (root.used().count(a)) continue;
    std::string list;
    for (const auto& n : root.seen()) list += (list.empty() ? "" : ", ") + n;
    std::vector<std::string> seen(root.seen().begin(), root.seen().end());
    std::string hint = closest_name(a, seen);
    throw InputError("system", "'" + spec.base + "' has no alternative named '" + a + "'" +
                                   (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                   (list.empty() ? "; it has none" : "; it has: " + list));
  }
  if (spec.ultraservers > 0) {
    check_chip_limit(spec.ultraservers, s, "system", "'" + name_or_path + "': ");
    int n = static_cast<int>(spec.ultraservers);
    std::string base_name = s.name, display = s.display_name;
    bool cluster = s.fabric.find(scale_out_suffix(s)) != std::string::npos;
    s = with_ultraservers(s, n);
    s.sources["ultraservers"] = "user: " + std::to_string(n) + " UltraServers (" + name_or_path + ")";
    if (cluster) {
      s.name = base_name + ":" + std::to_string(n);
      s.display_name = display;
    }
  }
  if (!spec.alternatives.empty()) {
    for (const auto& a : spec.alternatives) s.name += "+" + a;
  }
  return s;
}

// Built-in systems are immutable data, so each name is parsed and derived once per process:
// the playground re-evaluates on every edit, and loading costs ~0.2 ms native, several ms
// in WebAssembly. Files are read afresh every time (they may change); errors are not cached.
System load_system(const std::string& name_or_path) {
  bool is_file = name_or_path.find('/') != std::string::npos ||
                 (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".json") == 0);
  if (is_file) return load_system_uncached(name_or_path);
  static std::mutex mutex;
  static std::map<std::string, System> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(name_or_path);
    if (it != cache.end()) return it->second;
  }
  System s = load_system_uncached(name_or_path);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 256) cache.clear();  // bounded: sweeps may try many NAME:N forms
  cache.emplace(name_or_path, s);
  return s;
}

Chip load_chip(const std::string& name_or_path) { return load_system(name_or_path).chip; }

std::vector<std::string> alternative_names(const System& system) {
  std::set<std::string> names;
  for (const auto& [key, alts] : system.alternatives)
    for (const auto& a : alts)
      if (a.name != "default") names.insert(a.name);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace trnsim::hw
