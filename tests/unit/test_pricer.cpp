// The pricing seam: the roofline pricer is the roofline (and a kernel overhead per launch),
// the engine pricer times the same operators on the engine-level NeuronCore model and is
// never faster than the chip's peak; collectives are priced the same by both.
#include <catch2/catch.hpp>

#include "hw/roofline.h"
#include "price/pricer.h"
#include "scenario/scenario.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_pricer {

using namespace trnsim;

namespace {

const hw::System& trn3() {
  static const hw::System s = hw::load_system("trn3-gen2-ultraserver");
  return s;
}

plan::Operator gemm(double m, double k, double n, const std::string& dtype) {
  plan::Operator o;
  o.kind = plan::OpKind::matmul;
  o.name = "x";
  o.dtype = dtype;
  o.flops = 2 * m * k * n;
  o.hbm_bytes = (m * k + k * n + m * n) * 2;
  o.m = m;
  o.k = k;
  o.n = n;
  o.kernels = 1;
  return o;
}

}  // namespace

TEST_CASE("roofline pricer: max(compute, memory) plus the kernel overhead", "[price]") {
  price::Settings s;
  s.compute_efficiency = 0.5;
  s.hbm_efficiency = 0.8;
  s.kernel_overhead_s = 20e-6;
  auto p = price::make_pricer("roofline", trn3(), s);
  plan::Operator o = gemm(4096, 8192, 8192, "bf16");
  o.kernels = 3;
  price::PricedOp r = p->price(o);
  const double peak = trn3().chip.peak("bf16");
  // Each of the 3 kernels ramps up from cold (S15).
  CHECK(r.compute_s == Approx(3 * price::warmed_compute_s(trn3().chip.neuroncore->core.tensor, o.flops / (peak * 0.5) / 3)));
  CHECK(r.compute_s > o.flops / (peak * 0.5));
  CHECK(r.memory_s == Approx(o.hbm_bytes / (trn3().chip.hbm_bandwidth_bytes_per_s * 0.8)));
  CHECK(r.overhead_s == Approx(60e-6));
  CHECK(r.time_s == Approx(std::max(r.compute_s, r.memory_s) + 60e-6));
  CHECK(r.category == price::Category::compute);
  // A decode-sized matmul is HBM-bound.
  CHECK(p->price(gemm(1, 8192, 8192, "bf16")).category == price::Category::hbm);
}

TEST_CASE("engine pricer: never beats the peak, prices collectives like the roofline", "[price]") {
  price::Settings s;
  auto engine = price::make_pricer("engine", trn3(), s);
  auto roof = price::make_pricer("roofline", trn3(), s);  // efficiency 1: the chip's peak
  for (auto shape : {std::vector<double>{4096, 4096, 4096}, {512, 2880, 5760}, {16, 8192, 1024}})
    for (const char* dt : {"bf16", "mxfp8"}) {
      plan::Operator o = gemm(shape[0], shape[1], shape[2], dt);
      INFO(shape[0] << "x" << shape[1] << "x" << shape[2] << " " << dt);
      price::PricedOp e = engine->price(o), r = roof->price(o);
      CHECK(e.time_s >= r.time_s * (1 - 1e-9));
      CHECK(e.flops == r.flops);
      CHECK(e.time_s < r.time_s * 50);  // same order of magnitude: a real kernel, not a stub
    }
  plan::Operator c = plan::collective_op("tp", "all-reduce", 1 << 20, 8, 1);
  CHECK(engine->price(c).time_s == roof->price(c).time_s);
  CHECK(engine->price(c).category == price::Category::fabric);
  CHECK(test_support::contains(test_support::error_of([&] { price::make_pricer("fast", trn3(), s); }),
                               "workload.pricer: unknown pricer 'fast'"));
}

TEST_CASE("tensor-engine warm-up: a burst starts at half rate and ramps over 3 us (S15)", "[price]") {
  const hw::TensorEngineSpec& te = trn3().chip.neuroncore->core.tensor;
  REQUIRE(te.warmup_start_fraction == Approx(0.5));
  REQUIRE(te.warmup_ramp_s == Approx(3e-6));
  const double R = te.warmup_ramp_s, f0 = te.warmup_start_fraction;
  // Long bursts pay a fixed R (1 - f0) / 2 = 0.75 us; tiny ones run at the start rate.
  CHECK(price::warmed_compute_s(te, 1e-3) - 1e-3 == Approx(R * (1 - f0) / 2));
  CHECK(price::warmed_compute_s(te, 1e-9) == Approx(1e-9 / f0).epsilon(1e-3));
  // Continuous where the ramp ends (R (1 + f0) / 2 of full-rate work done by then).
  const double edge = R * (1 + f0) / 2;
  CHECK(price::warmed_compute_s(te, edge * (1 - 1e-9)) == Approx(price::warmed_compute_s(te, edge * (1 + 1e-9))));
  CHECK(price::warmed_compute_s(te, edge) == Approx(R));
  // Never faster than full rate, never slower than the start rate, monotone.
  double prev = 0;
  for (double t = 1e-8; t < 1e-4; t *= 1.7) {
    const double w = price::warmed_compute_s(te, t);
    CHECK(w >= t);
    CHECK(w <= t / f0 * (1 + 1e-12));
    CHECK(w > prev);
    prev = w;
  }
  // No ramp in the data: no throttle.
  hw::TensorEngineSpec flat = te;
  flat.warmup_ramp_s = 0;
  CHECK(price::warmed_compute_s(flat, 1e-6) == 1e-6);
}

}  // namespace unit_pricer
