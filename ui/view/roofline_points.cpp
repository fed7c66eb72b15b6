#include "ui/view/roofline_points.h"

#include <algorithm>

namespace trnsim::ui {

double op_share(const workload::Phase& ph, const workload::OpRecord& o) { return ph.time_s > 0 ? o.total_s() / ph.time_s : 0; }

RooflinePoints roofline_points(const workload::Result& r) {
  RooflinePoints out;
  for (std::size_t pi = 0; pi < r.phases.size(); ++pi) {
    const auto& ph = r.phases[pi];
    for (const auto& o : ph.ops) {
      if (o.category == price::Category::fabric) continue;
      if (o.flops <= 0 || o.hbm_bytes <= 0 || o.time_s <= 0) {
        if (std::find(out.skipped.begin(), out.skipped.end(), o.name) == out.skipped.end()) out.skipped.push_back(o.name);
        continue;
      }
      RooflinePoint p;
      p.intensity = o.flops / o.hbm_bytes;
      p.flops_per_s = o.flops / o.time_s;
      const double roof = std::max(o.compute_s, o.memory_s);
      p.roof_flops_per_s = roof > 0 ? o.flops / roof : p.flops_per_s;
      p.op = &o;
      p.phase = ph.name;
      p.phase_index = static_cast<int>(pi);
      p.share = op_share(ph, o);
      out.points.push_back(p);
    }
  }
  return out;
}

Roofs roofline_roofs(const hw::Chip& chip, const workload::Result& r) {
  Roofs out;
  out.hbm_bytes_per_s = chip.hbm_bandwidth_bytes_per_s;
  for (const auto& entry : chip.peak_flops) {
    // Not a structured binding: C++17 lambdas cannot capture one (clang, the WebAssembly build).
    const std::string& dtype = entry.first;
    const double peak = entry.second;
    out.peak_max = std::max(out.peak_max, peak);
    if (peak <= 0) continue;
    auto it = std::find_if(out.peaks.begin(), out.peaks.end(), [&](const Roof& roof) { return roof.flops_per_s == peak; });
    if (it == out.peaks.end()) out.peaks.push_back({peak, dtype});
    else it->dtypes += ", " + dtype;
  }
  std::sort(out.peaks.begin(), out.peaks.end(), [](const Roof& a, const Roof& b) {
    return a.flops_per_s != b.flops_per_s ? a.flops_per_s < b.flops_per_s : a.dtypes < b.dtypes;
  });
  out.matmul_peak = chip.peak(r.matmul_dtype);
  out.derated_flops_per_s = out.matmul_peak * r.spec.efficiency.compute;
  out.derated_hbm_bytes_per_s = out.hbm_bytes_per_s * r.spec.efficiency.hbm;
  return out;
}

}  // namespace trnsim::ui
