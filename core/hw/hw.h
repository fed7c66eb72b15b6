// The hardware model's public seam: what the workload layer, the CLI and the UI may
// ask of chips, systems, the fabric and collectives. Everything behind it (data files,
// roofline, engine-level model, topologies, analytic and event-driven backends) is
// free to change; this header changes only together with its callers.
//
// Models: Trainium2 / Trainium3 chips and the systems built from them (trn2.48xlarge,
// Trn2 UltraServer, Trn3 Gen1 / Gen2 UltraServers, UltraClusters over EFA), loaded
// from JSON data files under core/data/ that cite their sources (../shared/FACTS.md).
// Units are SI in the names: bytes, seconds, FLOP/s, bytes/s.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::hw {

// Tensor-engine data types with a published (or explicitly assumed) peak.
// Names as strings everywhere: "fp32", "bf16", "fp8", "mxfp8", "mxfp4".
const std::vector<std::string>& dtype_names();

struct Chip {
  std::string name;          // "trainium3"
  std::string display_name;  // "Trainium3"
  int cores = 0;             // NeuronCores per chip
  // Dense peak per chip in FLOP/s, keyed by dtype name. A dtype the chip does not
  // support natively is absent (e.g. mxfp4 on Trainium2).
  std::map<std::string, double> peak_flops;
  double hbm_capacity_bytes = 0;
  double hbm_bandwidth_bytes_per_s = 0;
  double link_bandwidth_bytes_per_s = 0;  // chip-to-chip (NeuronLink), per chip, one direction
  double power_watts = 0;                 // an explicit assumption (not published)
};

struct System {
  std::string name;          // "trn3-gen2-ultraserver"
  std::string display_name;  // "Trn3 Gen2 UltraServer"
  Chip chip;
  int chips = 0;             // chips in the whole system
  int chips_per_server = 0;  // chips per physical server / instance
  int chips_per_domain = 0;  // chips in one scale-up (NeuronLink / NeuronSwitch) domain
  std::string fabric;        // "torus2d", "torus3d", "neuronswitch", ... (+ "efa" between domains)
  double scaleout_bandwidth_bytes_per_s_per_chip = 0;  // EFA, per chip, one direction
  // Every value's source key or "assumption: ..." text, keyed by field name.
  std::map<std::string, std::string> sources;
  // Derived aggregates (computed from the per-chip data, never typed in).
  double peak_flops(const std::string& dtype) const;  // whole system; 0 if unsupported
  double hbm_capacity_bytes() const { return chips * chip.hbm_capacity_bytes; }
  double hbm_bandwidth_bytes_per_s() const { return chips * chip.hbm_bandwidth_bytes_per_s; }
};

// Names of the built-in chips and systems, sorted.
std::vector<std::string> system_names();
// A built-in chip or system by name (a chip alone is a one-chip system), or a path to a
// user-written JSON file of the same format. Errors: InputError naming the file and field.
System load_system(const std::string& name_or_path);
// `trnsim describe` output; the JSON has at least chips, peak_flops{fp32,bf16,fp8,mxfp8,mxfp4},
// hbm_capacity_bytes, hbm_bandwidth_bytes_per_s, sources.
json describe_json(const System& system);
std::string describe_text(const System& system);

// ---- Roofline for one operator on one chip ---------------------------------------
struct Efficiency {           // achievable fraction of peak (explicit assumptions)
  double compute = 1.0;
  double hbm = 1.0;
};
struct OperatorCost {
  std::string dtype = "bf16"; // tensor-engine dtype for the FLOPs
  double flops = 0;           // FLOP
  double hbm_bytes = 0;       // bytes read + written from/to HBM
  double fixed_overhead_s = 0;
};
struct RooflineTime {
  double time_s = 0, compute_s = 0, memory_s = 0;
  bool compute_bound = false;
};
RooflineTime roofline(const Chip& chip, const OperatorCost& op, const Efficiency& eff);

// ---- Collectives ------------------------------------------------------------------
// ops: "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute", "broadcast"
// algos: "auto", "ring", "mesh", "rdh", "hierarchical"; backends: "analytic", "event".
struct CollectiveRequest {
  std::string op = "all-reduce";
  double bytes = 0;           // per-rank message size as nccl-tests counts it
  int ranks = 0;              // 0 = every chip of the system
  int stride = 1;             // rank i is chip i*stride (TP groups contiguous, DP strided)
  std::string algo = "auto";
  std::string backend = "analytic";
};
struct CollectiveResult {
  double time_s = 0;
  double algbw_bytes_per_s = 0;
  double busbw_bytes_per_s = 0;
  std::string algorithm;      // the one used (chosen when algo was "auto")
};
CollectiveResult collective(const System& system, const CollectiveRequest& request);

}  // namespace trnsim::hw
