// Where a time goes: the tensor engines (compute-bound kernels), HBM bandwidth (memory-bound
// kernels), the fabric (collectives) and the fixed per-kernel overhead (launch,
// synchronisation). A priced operator splits its time this way (PricedOp::split), and so do
// a report's phases, its headline and a serving step: each holds one TimeSplit and adds,
// scales, totals and takes shares through the methods below, so the four parts are summed
// and laid out the same way everywhere.
// Not a timeline: the parts of a split may overlap in time (a collective hidden under
// compute still counts in fabric); the schedule (core/schedule/) says what runs when.
#pragma once

namespace trnsim::price {

struct TimeSplit {
  double compute_s = 0, hbm_s = 0, fabric_s = 0, overhead_s = 0;

  // The four parts of a split as fractions of a whole (zeros when the whole is not positive).
  struct Shares {
    double compute = 0, hbm = 0, fabric = 0, overhead = 0;
    double sum() const { return compute + hbm + fabric + overhead; }
  };

  double total() const { return compute_s + hbm_s + fabric_s + overhead_s; }
  // Each part over `whole_s`: the phase or headline time the parts were summed into.
  Shares shares_of(double whole_s) const {
    if (!(whole_s > 0)) return {};
    return {compute_s / whole_s, hbm_s / whole_s, fabric_s / whole_s, overhead_s / whole_s};
  }
  Shares shares() const { return shares_of(total()); }

  TimeSplit& operator+=(const TimeSplit& o) {
    compute_s += o.compute_s;
    hbm_s += o.hbm_s;
    fabric_s += o.fabric_s;
    overhead_s += o.overhead_s;
    return *this;
  }
  // `times` occurrences of this split (a phase run `times` times per headline).
  TimeSplit operator*(double times) const {
    return {times * compute_s, times * hbm_s, times * fabric_s, times * overhead_s};
  }
  // The split `f` of the way from this one to `to` (interpolation between priced shapes).
  TimeSplit toward(const TimeSplit& to, double f) const {
    return {compute_s + f * (to.compute_s - compute_s), hbm_s + f * (to.hbm_s - hbm_s),
            fabric_s + f * (to.fabric_s - fabric_s), overhead_s + f * (to.overhead_s - overhead_s)};
  }
};

}  // namespace trnsim::price
