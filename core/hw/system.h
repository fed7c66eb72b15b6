// Hardware as data: chips, the systems built from them and clusters of systems, loaded from
// JSON files (core/data/chips, systems, clusters, or a user's file of the same format;
// docs/hardware.md says how to add one) that cite their sources (keys of
// core/data/sources.json). A chip is vendor-neutral tiers -- dense and sparse compute per
// dtype, memory, on-chip SRAM, scale-up ports, power and price -- plus optional vendor
// blocks (the NeuronCore block: engines, SBUF, PSUM, DMA, collective cores). A system is N
// chips in one scale-up domain (a torus, or a switched domain of one or two levels) with a
// scale-out NIC share per chip; a cluster is N such domains over the scale-out network.
// Every aggregate (system peak, HBM, bandwidth) is derived from the per-chip data, never
// typed in. This header is the seam the fabric, the roofline, the workload layer, the CLI
// and the UI read hardware through.
// Units are SI in the names: bytes, seconds, FLOP/s, bytes/s.
// Does NOT model: anything dynamic (that is roofline.h, collective/, engine/, schedule/).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/fields.h"

namespace trnsim::hw {

// Every dtype of the table (common/dtype.h), in order: a chip file may give a peak for any.
// Names as strings everywhere: "fp32", "bf16", "fp8", "mxfp8", "mxfp4", "nvfp4", ...
const std::vector<std::string>& dtype_names();
struct Chip;
// The dtypes a peak table lists for these chips: the table's always-listed kinds (n/a where
// a chip has no peak) and any other kind one of the chips has a peak for.
std::vector<std::string> peak_table_dtypes(const std::vector<const Chip*>& chips);

// A value kept beside the chosen one because the sources disagree. `name`
// selects it: load_system("trainium3+nki-guide") uses every alternative named so.
struct Alternative {
  std::string name;    // "nki-guide"
  double value = 0;    // SI units (bools as 0/1)
  std::string source;  // "S4"
};

// One NeuronCore engine other than the tensor engine (vector, scalar, gpsimd).
struct EngineSpec {
  double clock_hz = 0;
  double elems_per_cycle_fast = 0;    // BF16/FP16 (and FP8 where the ISA says so)
  double elems_per_cycle_other = 0;   // FP32 and others
  double op_overhead_cycles = 0;      // fixed cost per instruction (S10)
};
// The systolic array of one NeuronCore (S8, S4, S10).
struct TensorEngineSpec {
  int rows = 128, cols = 128;         // PE array: contraction rows x stationary columns
  double clock_hz = 0;
  // Contraction rows consumed per cycle relative to one BF16 pass (fp32 0.25, bf16 1,
  // fp8 2 (double_row), mxfp8/mxfp4 4 on v4). Absent dtype = not supported.
  std::map<std::string, double> rate_vs_bf16;
  int max_moving_free = 512;          // moving free size per matmul
  double min_initiation_cycles = 64;  // matmul initiation interval ~ max(N, 64)
  // Current ramp (dI/dt throttle, S15): a matmul burst starts at this fraction of the full
  // rate and ramps linearly to full over warmup_ramp_s; it re-engages after an idle gap.
  double warmup_start_fraction = 1;   // 1 = no throttle
  double warmup_ramp_s = 0;
  double peak_flops(const std::string& dtype) const;  // one core, FLOP/s; 0 if unsupported
};
struct CoreSpec {
  TensorEngineSpec tensor;
  EngineSpec vector, scalar, gpsimd;
  double sbuf_bytes = 0;              // per core
  int partitions = 128;
  double psum_bytes = 0;              // per core
  int psum_banks = 8;
  int dma_queues = 16;                // DMA engines per core
  double dma_fixed_s = 0;             // per-transfer fixed cost (descriptor generation, S8)
};

// The NeuronCore vendor block of a chip file ("neuroncore"): read only by the engine
// pricer (core/engine), the collectives' DMA model and the Neuron serving stacks. A chip
// without it (any non-Neuron accelerator) is priced from the generic tiers alone.
struct NeuronCoreBlock {
  int cores = 0;                                // NeuronCores per chip
  int collective_cores = 0;                     // collective-communication cores per chip
  // DMA, per chip
  double dma_bandwidth_bytes_per_s = 0;
  int dma_engines = 0;
  double dma_engine_bandwidth_bytes_per_s = 0;  // one DMA engine at full payloads (S14)
  double dma_transfer_fixed_s = 0;              // per DMA transfer: descriptor, sync, semaphore-to-start (S14)
  CoreSpec core;                                // one NeuronCore (engines, SBUF, PSUM)
};

// What the chip achieves, as measured or fitted on the chip itself ("execution" in a chip
// file): the roofline's efficiencies are derived from it (achieved / peak) and replace the
// scenario's defaults (workload.efficiency.*, fitted on Trainium2) on this chip, unless the
// scenario sets its own. Absent entries leave the scenario's value.
struct ExecutionBlock {
  std::map<std::string, double> achieved_flops;  // best measured matmul FLOP/s per dtype
  double achieved_hbm_bytes_per_s = 0;           // measured streaming bandwidth; 0 = none
  std::optional<double> kernel_overhead_s;       // per kernel (launch, gaps between kernels)
  std::string assumed_from;                      // the chip whose fractions these are ("" = measured here)
  // The efficiency of the matmuls in `dtype`: achieved / peak; 0 when not given.
  double compute_efficiency(const std::string& dtype, double peak) const;
};

// A chip as generic tiers (compute per dtype, memory, SRAM, scale-up ports, cost) plus
// optional vendor blocks.
struct Chip {
  // Identity
  std::string name;          // "trainium3"
  std::string display_name;  // "Trainium3"
  // Compute: dense peak per chip in FLOP/s, keyed by dtype name (common/dtype.h). A dtype
  // the chip does not support natively is absent (e.g. mxfp4 on Trainium2).
  std::map<std::string, double> peak_flops;
  double sparse_peak_flops = 0;  // structured-sparsity peak per chip where published (FLOP/s); 0 = none
  // Memory tiers
  double hbm_capacity_bytes = 0;
  double hbm_bandwidth_bytes_per_s = 0;
  int hbm_stacks = 0;            // 0 = not given
  double sram_bytes = 0;         // on-chip SRAM per chip: the file's "sram", else the NeuronCores' SBUF
  // Scale-up ports (chip to chip inside a domain)
  std::string scale_up_name;     // "NeuronLink"; "" = the chip has no scale-up ports
  int links = 0;                 // ports per chip
  // The per-chip figure as published, and how it is read: when
  // link_published_counts_both_directions, link_bandwidth_bytes_per_s is half of it.
  double link_bandwidth_published_bytes_per_s = 0;
  bool link_published_counts_both_directions = true;
  double link_bandwidth_bytes_per_s = 0;  // per chip, one direction
  // Power and cost
  double power_watts = 0;                 // an explicit assumption where not published
  double price_per_hour_usd = 0;          // a guess where no price list covers the chip; 0 = unknown
  // Vendor blocks (optional)
  std::optional<NeuronCoreBlock> neuroncore;
  std::optional<ExecutionBlock> execution;  // achieved rates on this chip (see ExecutionBlock)

  double peak(const std::string& dtype) const;  // peak_flops[dtype] or 0
  // The NeuronCore block, or InputError naming the chip and `user` (what needs it).
  const NeuronCoreBlock& neuron(const std::string& user) const;
  // NeuronCores per chip; 1 for a chip without the block (one rank per chip).
  int cores() const { return neuroncore ? neuroncore->cores : 1; }
};

// The fabric of one scale-up domain, as data. Bandwidths are per direction of one link;
// latencies per traversal.
struct TorusDim {
  int size = 1;
  double link_bandwidth_bytes_per_s = 0;  // to one neighbour, one direction
  double link_latency_s = 0;
};
struct FabricSpec {
  std::string kind = "none";   // "none" (one chip), "torus", "switch"
  std::vector<TorusDim> torus;  // kind torus: dimensions, fastest-varying first
  // kind switch (e.g. NeuronSwitch-v1): chips_per_server chips on a first-level switch,
  // servers joined by l2_switches second-level switches (one server: a single switch level).
  int l2_switches = 0;
  // Chips on one first-level switch group: chips_per_server, or more where every chip of
  // several servers reaches the same switches (a GB200 NVL72 rack: 72 chips, one level).
  int chips_per_l1_switch = 0;
  // The switches reduce in the fabric (NVLink SHARP): an all-reduce sends each byte into the
  // switch once and receives the reduced result once (the "in-switch" algorithm).
  bool in_switch_reduction = false;
  bool shared_chip_port = true;                    // intra- and inter-server traffic share the chip port
  double intra_server_bandwidth_bytes_per_s = 0;   // chip port, one direction
  double inter_server_bandwidth_bytes_per_s = 0;   // per chip toward the second level, one direction
  double l1_latency_s = 0, l2_latency_s = 0;       // one switch traversal
  // Scale-out between domains (e.g. EFA), assumed non-blocking beyond the NIC.
  std::string scale_out_name;                      // "EFA"; "" = none
  double efa_bandwidth_bytes_per_s_per_chip = 0;   // one direction
  double efa_latency_s = 0;
  // Software cost of a collective (the runtime's), explicit assumptions.
  double launch_overhead_s = 0;   // once per collective
  double step_overhead_s = 0;     // per algorithm step (DMA descriptors, sync)
  double reduce_bytes_per_s = 0;  // in-line reduction throughput per chip (0 = free)
  double dma_packet_bytes = 0;    // a collective transfer is cut into DMA packets of at most this size
  // A collective library that runs each algorithm under several wire protocols and picks the
  // fastest per message size (NCCL: LL, LL128, Simple). Empty = one protocol, links at their
  // full rate (the Neuron runtime's DMA model).
  struct Protocol {
    std::string name;              // "ll", "ll128", "simple"
    double latency_s = 0;          // once per collective
    double step_latency_s = 0;     // per algorithm step (hop)
    double payload_fraction = 1;   // data bytes per byte on the wire (LL: 4 of 8)
  };
  std::vector<Protocol> protocols;
  double link_efficiency = 1;      // of the link rate, under every protocol (packet headers, flow control)
  // The in-switch all-reduce: its fraction of the link rate and its fixed cost (0: none).
  double in_switch_reduction_efficiency = 0;
  double in_switch_reduction_latency_s = 0;
};

struct System {
  // Identity
  std::string name;          // "trn3-gen2-ultraserver"
  std::string display_name;  // "Trn3 Gen2 UltraServer"
  std::string origin;        // built-in key or file path it was loaded from
  // Chips and how they are packaged
  Chip chip;
  int chips = 0;             // chips in the whole system
  int chips_per_server = 0;  // chips per physical server / instance
  int chips_per_domain = 0;  // chips in one scale-up domain
  int domains = 1;           // scale-up domains joined by the scale-out network; chips = domains * chips_per_domain
  // Networks
  std::string fabric;        // "torus2d", "torus3d", "neuronswitch", ... (+ "+efa": the scale-out name, between domains)
  FabricSpec fabric_spec;    // topology and link data of one domain, plus the scale-out network
  double scaleout_bandwidth_bytes_per_s_per_chip = 0;  // per chip, one direction
  // Sources: every value's source key or "assumption: ..." text, keyed by quantity name
  // (docs/hardware.md: the path in the file; scale-up and scale-out quantities under the
  // network's name, a vendor block's under the chip).
  std::map<std::string, std::string> sources;
  // Values the sources disagree on, keyed like `sources`; the chosen value is in the
  // struct, its name in `chosen` ("default" unless an alternative was selected).
  std::map<std::string, std::vector<Alternative>> alternatives;
  std::map<std::string, std::string> chosen;
  // Derived aggregates (computed from the per-chip data, never typed in).
  double peak_flops(const std::string& dtype) const;  // whole system; 0 if unsupported
  double hbm_capacity_bytes() const { return chips * chip.hbm_capacity_bytes; }
  double hbm_bandwidth_bytes_per_s() const { return chips * chip.hbm_bandwidth_bytes_per_s; }
};

// The largest system the model accepts (chips), far beyond any announced cluster.
constexpr long long kMaxChips = 100000000;

// The system-name grammar, parsed here and nowhere else (load_system, the playground's
// system picker): "base[:N][+alt[+alt...]]" -- a built-in name or a file path (':' and '+'
// count only after its last '/'), N scale-up domains (UltraServers) joined by EFA, and the
// named data alternatives to choose where sources disagree.
struct SystemName {
  std::string base;
  int ultraservers = 0;                  // 0: as the data says
  std::vector<std::string> alternatives; // sorted, without repeats
};
// InputError("system", ...) for an empty base or alternative, or a bad count.
SystemName parse_system_name(const std::string& text);
// The canonical text: parse_system_name(format_system_name(n)) == n.
std::string format_system_name(const SystemName& name);

// Names of the built-in chips and systems, sorted.
std::vector<std::string> system_names();
// A built-in chip or system by name (a chip alone is a one-chip system), or a path to a
// user-written JSON file of the same format. Errors: InputError naming the file and field.
System load_system(const std::string& name_or_path);
// Name forms accepted by load_system:
//   "trn3-gen2-ultracluster:512"   a cluster with 512 UltraServers (any cluster or system)
//   "trainium3+nki-guide"          choose the alternative named nki-guide wherever one exists
//   "path/to/my_system.json"       a user file (chip, system or cluster format)
// The same as the ":N" form: `system` replicated over n scale-up domains joined by EFA.
System with_ultraservers(const System& system, int n);
// Built-in chip names only ("trainium2", "trainium3"), sorted.
std::vector<std::string> chip_names();
// A chip by name or path (the chip of load_system(name_or_path)).
Chip load_chip(const std::string& name_or_path);
// Names of every alternative known in the system's data ("nki-guide", ...), sorted.
std::vector<std::string> alternative_names(const System& system);
// `trnsim describe` output; the JSON has at least chips, peak_flops{fp32,bf16,fp8,mxfp8,mxfp4},
// hbm_capacity_bytes, hbm_bandwidth_bytes_per_s, sources.
json describe_json(const System& system);
std::string describe_text(const System& system);

}  // namespace trnsim::hw
