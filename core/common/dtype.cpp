// The dtype table (dtype.h). Sources: OCP MX v1.0 via S10 (MX block of 32, E8M0 scale);
// NVFP4: NVIDIA's published format (16-element blocks, E4M3 block scale, FP32 tensor scale).
#include "common/dtype.h"

#include <algorithm>

#include "common/error.h"
#include "common/fields.h"

namespace trnsim::dtype {

namespace {

Dtype plain(const std::string& name, double bits, bool precision, bool kv, bool listed, std::vector<std::string> fallback) {
  Dtype d;
  d.name = name;
  d.element_bits = bits;
  d.precision = precision;
  d.kv_precision = kv;
  d.always_listed = listed;
  d.fallback = std::move(fallback);
  return d;
}

Dtype scaled(Dtype d, int block, const std::string& scale, const std::string& element, bool mx_kernel) {
  d.block = block;
  d.block_scale = scale;
  d.block_scale_bits = 8;  // E8M0 and E4M3 are both one byte
  d.element_format = element;
  d.mx_kernel = mx_kernel;
  return d;
}

}  // namespace

const std::vector<Dtype>& all() {
  // The first five are the tensor-engine kinds of the Trainium data: every peak table lists
  // them. The rest appear where a chip has a peak for them. Fallbacks: Neuron runs MXFP4
  // experts as BF16 on Trainium2 (PERF #5); FP8 and MXFP8 stand in for each other.
  static const std::vector<Dtype> table = [] {
    std::vector<Dtype> t;
    t.push_back(plain("fp32", 32, false, false, true, {"bf16"}));
    t.push_back(plain("bf16", 16, true, true, true, {}));
    t.push_back(plain("fp8", 8, true, true, true, {"mxfp8", "bf16"}));
    t.push_back(scaled(plain("mxfp8", 8, true, true, true, {"fp8", "bf16"}), 32, "e8m0", "e4m3", true));
    t.push_back(scaled(plain("mxfp4", 4, true, false, true, {"bf16"}), 32, "e8m0", "e2m1", true));
    t.push_back(scaled(plain("mxfp6_e3m2", 6, false, false, false, {"mxfp8", "fp8", "bf16"}), 32, "e8m0", "e3m2", true));
    t.push_back(scaled(plain("mxfp6_e2m3", 6, false, false, false, {"mxfp8", "fp8", "bf16"}), 32, "e8m0", "e2m3", true));
    Dtype nv = scaled(plain("nvfp4", 4, true, false, false, {"mxfp4", "fp8", "bf16"}), 16, "e4m3", "e2m1", true);
    nv.tensor_scale = "fp32";
    t.push_back(nv);
    t.push_back(plain("fp4", 4, false, false, false, {"nvfp4", "mxfp4", "fp8", "bf16"}));
    return t;
  }();
  return table;
}

const std::vector<std::string>& names() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> out;
    for (const auto& d : all()) out.push_back(d.name);
    return out;
  }();
  return n;
}

const Dtype* find(const std::string& name) {
  for (const auto& d : all())
    if (d.name == name) return &d;
  return nullptr;
}

const Dtype& get(const std::string& name, const std::string& field) {
  if (const Dtype* d = find(name)) return *d;
  std::string list;
  for (const auto& n : names()) list += (list.empty() ? "" : ", ") + n;
  std::string hint = closest_name(name, names());
  throw InputError(field, "unknown dtype '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                              "; one of: " + list);
}

double bytes_per_element(const std::string& name, const std::string& field) {
  const Dtype& d = get(name, field);
  return d.element_bits / 8 + (d.block > 0 ? d.block_scale_bits / 8 / d.block : 0.0);
}

bool is_mx(const std::string& name) {
  const Dtype* d = find(name);
  return d && d->block == 32 && d->block_scale == "e8m0";
}

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> out;
    for (const auto& d : all())
      if (d.precision) out.push_back(d.name);
    return out;
  }();
  return n;
}

std::vector<std::string> kv_precision_names() {
  std::vector<std::string> out;
  for (const auto& d : all())
    if (d.kv_precision) out.push_back(d.name);
  return out;
}

std::string attention_operand(const std::string& name) { return get(name).element_bits > 8 ? "bf16" : "fp8"; }

}  // namespace trnsim::dtype
