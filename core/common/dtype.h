// The data types the model knows: one table, read by every layer that names a dtype (chip
// peaks, workload precisions, bytes per element, the engine's MX path, the precision
// fallback, the MX panel, serving's KV-precision comparison).
//
// Models: storage size per element (element bits plus, for block-scaled kinds, one scale per
// block: OCP MX v1.0 -- MXFP8, MXFP6, MXFP4 -- 32 elements per E8M0 scale (S10); NVFP4 16
// elements per E4M3 scale plus one FP32 scale per tensor), and which kind a chip that lacks
// one runs instead (a warning says so).
// Does NOT model: numerics (core/mx does, for the kinds marked mx_kernel); a per-tensor
// scale's bytes (one number per tensor, not per element).
#pragma once
#include <string>
#include <vector>

namespace trnsim::dtype {

struct Dtype {
  // Identity
  std::string name;            // "mxfp8": the name in scenarios, chip files and reports
  // Storage
  double element_bits = 0;     // bits of one element, scales excluded
  int block = 0;               // elements sharing one scale; 0 = not block-scaled
  std::string block_scale;     // the block scale's format: "e8m0" (OCP MX), "e4m3" (NVFP4); "" if none
  double block_scale_bits = 0;
  std::string tensor_scale;    // a second, per-tensor scale: "fp32" for NVFP4; "" if none
  // Numerics
  std::string element_format;  // core/mx's element format of a block-scaled kind ("e4m3", "e2m1"); "" otherwise
  bool mx_kernel = false;      // core/mx quantizes and multiplies it
  // Use
  bool precision = false;      // a scenario may name it (workload.precision.*)
  bool kv_precision = false;   // serving's KV-cache comparison lists it
  bool always_listed = false;  // peak tables list it even where a chip has no peak for it (n/a)
  std::vector<std::string> fallback;  // tried in order on a chip without a peak for it
};

// Every dtype, in the order reports list them.
const std::vector<Dtype>& all();
// Names of all(), in order.
const std::vector<std::string>& names();
// The entry, or nullptr.
const Dtype* find(const std::string& name);
// The entry, or InputError(field, ...) naming the known dtypes.
const Dtype& get(const std::string& name, const std::string& field = "dtype");
// Bytes one element occupies in memory, its block scale included.
double bytes_per_element(const std::string& name, const std::string& field = "dtype");
// An OCP MX kind (block of 32 with an E8M0 scale): the NeuronCore's MX matmul path.
bool is_mx(const std::string& name);
// Names with `precision` set (workload precisions), in order.
const std::vector<std::string>& precision_names();
// Names with `kv_precision` set, in order.
std::vector<std::string> kv_precision_names();
// The operand type of the engine model's attention kernel for this kind: wider than 8 bits
// runs BF16, 8 bits and narrower FP8 (Neuron's attention kernels take BF16 or FP8).
std::string attention_operand(const std::string& name);

}  // namespace trnsim::dtype
