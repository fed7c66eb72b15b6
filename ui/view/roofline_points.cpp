#include "ui/view/roofline_points.h"

#include <algorithm>

namespace trnsim::ui {

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
      p.share = ph.time_s > 0 ? o.total_s() / ph.time_s : 0;
      out.points.push_back(p);
    }
  }
  return out;
}

}  // namespace trnsim::ui
