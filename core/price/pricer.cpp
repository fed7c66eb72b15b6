// The two pricers behind price::Pricer (pricer.h).
#include "price/pricer.h"

#include <algorithm>
#include <cmath>

#include "common/dtype.h"
#include "common/format.h"
#include "engine/engine.h"
#include "hw/roofline.h"

namespace trnsim::price {

const char* category_name(Category c) {
  switch (c) {
    case Category::compute: return "compute";
    case Category::hbm: return "hbm";
    case Category::fabric: return "fabric";
  }
  return "compute";
}

TimeSplit PricedOp::split() const {
  TimeSplit s;
  const double busy = count * (time_s - overhead_s);
  s.overhead_s = count * overhead_s;
  if (category == Category::fabric) s.fabric_s = busy;
  else if (category == Category::compute) s.compute_s = busy;
  else s.hbm_s = busy;
  return s;
}

namespace {

// What a priced operator keeps of the plan's.
PricedOp record_of(const plan::Operator& o) {
  PricedOp r;
  r.name = o.name;
  r.scope = o.scope;
  r.layer_type = o.layer_type;
  r.count = o.count;
  r.flops = o.flops;
  r.hbm_bytes = o.hbm_bytes;
  return r;
}

}  // namespace

PricedOp Pricer::price(const plan::Operator& o) const {
  if (o.kind == plan::OpKind::collective) return price_collective(o);
  PricedOp r = record_of(o);
  const double kernel_s = time_kernel(o, r);
  r.overhead_s = o.kernels * settings_.kernel_overhead_s + o.fixed_s;
  r.time_s = kernel_s + r.overhead_s;
  if (o.kind == plan::OpKind::matmul) r.detail = o.dtype + " matmul";
  else if (o.kind == plan::OpKind::conv) r.detail = o.dtype + " convolution (implicit GEMM)";
  else if (o.kind == plan::OpKind::attention) r.detail = o.dtype + " attention";
  else r.detail = "memory-bound";
  // The engine pricer prices the decomposed path; the roofline keeps the flash kernel's.
  if (o.kind == plan::OpKind::attention && o.attention_path == "decomposed" && name() == "engine")
    r.detail += " (decomposed: scores through HBM)";
  return r;
}

std::vector<PricedOp> Pricer::price_all(const std::vector<plan::Operator>& ops) const {
  std::vector<PricedOp> out;
  out.reserve(ops.size());
  for (const auto& o : ops) out.push_back(price(o));
  return out;
}

double warmed_compute_s(const hw::TensorEngineSpec& te, double t) {
  const double f0 = te.warmup_start_fraction, R = te.warmup_ramp_s;
  if (!(t > 0) || R <= 0 || f0 >= 1) return t;
  const double ramp_work = R * (1 + f0) / 2;  // full-rate seconds done while ramping
  if (t >= ramp_work) return t + R * (1 - f0) / 2;
  // Inside the ramp: f0 tau + (1 - f0) tau^2 / (2R) = t.
  return R / (1 - f0) * (std::sqrt(f0 * f0 + 2 * (1 - f0) * t / R) - f0);
}

// The tensor engine's current ramp is NeuronCore data (S15): a chip without the block
// runs at its peak from the first cycle.
static double warmed_on(const hw::Chip& chip, double t) {
  return chip.neuroncore ? warmed_compute_s(chip.neuroncore->core.tensor, t) : t;
}

PricedOp Pricer::price_collective(const plan::Operator& o) const {
  const collective::Request& q = o.collective;
  auto key = std::make_tuple(q.op, q.bytes, q.ranks, q.stride, q.ranks_per_chip);
  auto it = collectives_.find(key);
  if (it == collectives_.end()) {
    if (!collective_runner_) collective_runner_ = std::make_unique<collective::Runner>(system_);
    it = collectives_.emplace(key, collective_runner_->run(q)).first;
  }
  const collective::Result& c = it->second;
  PricedOp r = record_of(o);
  r.collective = q;
  r.category = Category::fabric;
  r.fabric_bytes = q.bytes;
  r.fabric_s = c.time_s;
  r.time_s = c.time_s;
  const std::string where = c.ranks_per_chip > 1 ? std::to_string(q.ranks) + " ranks on " +
                                                       std::to_string(q.ranks / c.ranks_per_chip) + " chips"
                                                 : std::to_string(q.ranks) + " chips";
  r.detail = q.op + ", " + where + (c.algorithm.empty() ? "" : " (" + c.algorithm + ")");
  return r;
}

double Pricer::roofline_kernel(const plan::Operator& o, PricedOp& r) const {
  hw::OperatorCost cost;
  cost.dtype = o.dtype;
  cost.flops = o.flops;
  cost.hbm_bytes = o.hbm_bytes;
  hw::RooflineEfficiency eff;
  eff.compute = o.kind == plan::OpKind::attention ? settings_.attention_efficiency : settings_.compute_efficiency;
  eff.compute *= o.rate_scale;  // a weight-only kernel's in-kernel dequantization (plan::Operator::rate_scale)
  eff.hbm = settings_.hbm_efficiency;
  hw::RooflineTime t = hw::roofline(system_.chip, cost, eff);
  // An efficiency is any share of the peak above 0 (the field table's (0, 1]), but one near
  // the smallest double takes a kernel's time past a double's range: refuse it here rather
  // than let an infinite time into the schedules and the serving simulator's clock.
  if (!std::isfinite(t.compute_s) || !std::isfinite(t.memory_s)) {
    const double tiny = std::isfinite(t.compute_s) ? eff.hbm : eff.compute;
    throw InputError("workload.efficiency", "an efficiency of " + fmt::general(tiny, 3) + " times " + o.name +
                                                " at more seconds than a double holds: too small to model");
  }
  if (o.kind != plan::OpKind::memory) {  // each kernel's burst ramps up from cold (S15)
    const double kernels = std::max(1.0, o.kernels);
    t.compute_s = kernels * warmed_on(system_.chip, t.compute_s / kernels);
  }
  r.compute_s = t.compute_s;
  r.memory_s = t.memory_s;
  r.category = (o.flops > 0 && t.compute_s >= t.memory_s) ? Category::compute : Category::hbm;
  return std::max(t.compute_s, t.memory_s);
}

namespace {

class RooflinePricer : public Pricer {
 public:
  using Pricer::Pricer;
  std::string name() const override { return "roofline"; }

 protected:
  double time_kernel(const plan::Operator& o, PricedOp& r) const override { return roofline_kernel(o, r); }
};

long whole(double x) { return std::max(1L, static_cast<long>(std::ceil(x - 1e-9))); }

// The engine model's tensor-engine input types (attention runs BF16 or FP8 on Neuron).
std::string attention_dtype(const std::string& d) { return dtype::attention_operand(d); }

// Beyond these sizes a shape is timed in slices: a tiled GEMM streams its row blocks and a
// non-causal attention its query tiles, so the time is linear in the rows / queries once one
// slice fills the pipeline (video's VAE convolutions have millions of output voxels, its
// attention tens of thousands of queries; the engine model takes at most 2^20 and would
// simulate every tile).
constexpr long kGemmSliceRows = 16384;
constexpr long kAttentionSliceQueries = 4096;

class EnginePricer : public Pricer {
 public:
  using Pricer::Pricer;
  std::string name() const override { return "engine"; }

 protected:
  double time_kernel(const plan::Operator& o, PricedOp& r) const override {
    const int cores = system().chip.neuron("the engine pricer (workload.pricer: engine)").cores;
    engine::KernelReport k;
    double copies = 1;
    const bool gemm = o.kind == plan::OpKind::matmul || o.kind == plan::OpKind::conv;
    if (gemm && o.m > 0 && o.k > 0 && o.n > 0) {
      // Output columns split over the cores; independent GEMMs (experts) run one after another.
      engine::GemmShape g;
      g.m = std::min(whole(o.m), kGemmSliceRows);
      g.n = whole(o.n / cores);
      g.k = whole(o.k);
      g.dtype = o.dtype;
      k = cached(gemms_, {g.m, g.n, g.k}, o.dtype, [&] { return engine::gemm(system().chip, g); });
      copies = o.gemms * std::max(1.0, o.m / kGemmSliceRows);
    } else if (o.kind == plan::OpKind::attention && o.seq_q > 0 && o.heads > 0) {
      engine::AttentionShape a;
      a.seq_q = o.causal ? whole(o.seq_q) : std::min(whole(o.seq_q), kAttentionSliceQueries);
      a.seq_kv = whole(o.seq_kv);
      if (!o.causal) copies = std::max(1.0, o.seq_q / kAttentionSliceQueries);
      a.head_dim = whole(o.head_dim);
      a.value_dim = o.value_dim > 0 ? whole(o.value_dim) : 0;
      a.heads = whole(o.heads / cores);
      // The query heads per K/V head (GQA, MLA decode), kept whole on one core's share.
      const long group = o.kv_heads > 0 ? std::max(1L, static_cast<long>(o.heads / o.kv_heads + 1e-9)) : 1;
      a.kv_heads = a.heads % group == 0 ? a.heads / group : 0;
      a.causal = o.causal;
      a.dtype = attention_dtype(o.dtype);
      a.decomposed = o.attention_path == "decomposed";
      k = cached(attentions_, {a.seq_q, a.seq_kv, a.head_dim * 1000000 + a.heads * 2 + (a.causal ? 1 : 0)},
                 a.dtype + "/" + std::to_string(a.value_dim) + "/" + std::to_string(a.kv_heads) + "/" + o.attention_path,
                 [&] { return engine::attention(system().chip, a); });
    } else {
      return roofline_kernel(o, r);
    }
    // Each copy's tensor-engine burst ramps up from cold (S15).
    const double busy = k.busy_s[engine::kTensor];
    const double warm = warmed_on(system().chip, busy);
    const bool tensor_bound = k.bottleneck == engine::unit_name(engine::kTensor);
    r.compute_s = copies * warm;
    r.memory_s = copies * k.busy_s[engine::kDma];
    r.category = tensor_bound ? Category::compute : Category::hbm;
    const double t = copies * k.time_s;
    return tensor_bound ? t + copies * (warm - busy) : std::max(t, copies * warm);
  }

 private:
  using Key = std::tuple<long, long, long, std::string>;
  template <class F>
  const engine::KernelReport& cached(std::map<Key, engine::KernelReport>& cache, std::tuple<long, long, long> shape,
                                     const std::string& dtype, F&& make) const {
    Key key{std::get<0>(shape), std::get<1>(shape), std::get<2>(shape), dtype};
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, make()).first;
    return it->second;
  }
  mutable std::map<Key, engine::KernelReport> gemms_, attentions_;
};

}  // namespace

const std::vector<std::string>& pricer_names() {
  static const std::vector<std::string> names = {"roofline", "engine"};
  return names;
}

void check_pricer_name(const std::string& name, const std::string& field) {
  const auto& names = pricer_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError(field, "unknown pricer '" + name + "'; one of: " + list);
}

std::unique_ptr<Pricer> make_pricer(const std::string& name, const hw::System& system, const Settings& settings) {
  check_pricer_name(name, "workload.pricer");
  if (name == "roofline") return std::make_unique<RooflinePricer>(system, settings);
  return std::make_unique<EnginePricer>(system, settings);
}

}  // namespace trnsim::price
