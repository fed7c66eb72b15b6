// Side-by-side benchmark of trnsim's MX kernels (core/mx) and ggml's MXFP4 CPU kernels,
// single thread, in one interleaved run. Built by scripts/bench_vs_ggml.sh against a
// ggml checkout outside this tree; uses only ggml's public headers (ggml.h, ggml-cpu.h,
// ggml-backend.h, ggml-alloc.h) and nothing of ggml is part of trnsim.
//
// Operations (ggml's best x86 path for each, trnsim's automatic path):
//   quantize FP32 -> MXFP4, 16 Mi values: ggml_quantize_chunk vs mx::quantize_blocks;
//     bytes read + written (4 + 17/32 per value)
//   dot MXFP4 x 8-bit, 1 Mi elements: ggml's vec_dot (MXFP4 x Q8_0) vs mx::dot (E2M1 x INT8)
//   GEMV 8192 x 8192 MXFP4 weights: ggml mul_mat with the CPU_REPACK buffer (mxfp4_8x8,
//     F32 activations quantized to Q8_0 inside) vs mx::gemm with weights packed once
//   GEMM 2048^3 with MXFP4 weights: the same ggml mul_mat with 2048 activation rows vs
//     mx::gemm with E2M1 weights and E2M1 / INT8 / E4M3 / E5M2 activations (ggml has no
//     FP8 type: its MXFP4 x Q8_0 GEMM is the reference for the FP8 rows)
// Each sample times ggml, then trnsim (the order swaps every sample) on the same thread's
// CPU clock; the table prints the medians of each side's rate, the median of the paired
// ratios trnsim / ggml and their spread (min..max).
//
// Does NOT compare numerics: ggml's MXFP4 rounds differently (see ../shared/MX.md).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"
#include "mx/mx.h"

namespace {

namespace mx = trnsim::mx;

double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Seconds per call: calls repeated until at least `min_seconds` have passed.
double per_call(const std::function<void()>& fn, double min_seconds) {
  std::size_t calls = 0;
  const double t0 = thread_seconds();
  double t = 0;
  do {
    fn();
    ++calls;
    t = thread_seconds() - t0;
  } while (t < min_seconds);
  return t / static_cast<double>(calls);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

struct Options {
  int samples = 7;
  double seconds = 0.3;  // per side and sample
};

// One row of the table: `work` units per call (bytes, multiply-adds or FLOPs).
void compare(const Options& o, const char* what, const char* unit, double work, const std::function<void()>& ggml_fn,
             const std::function<void()>& mx_fn) {
  ggml_fn();  // warm up both
  mx_fn();
  std::vector<double> g, t, r;
  for (int s = 0; s < o.samples; ++s) {
    double tg, tm;
    if (s % 2 == 0) {
      tg = per_call(ggml_fn, o.seconds);
      tm = per_call(mx_fn, o.seconds);
    } else {
      tm = per_call(mx_fn, o.seconds);
      tg = per_call(ggml_fn, o.seconds);
    }
    g.push_back(work / tg / 1e9);
    t.push_back(work / tm / 1e9);
    r.push_back(tg / tm);
  }
  std::printf("| %s | %.2f %s | %.2f %s | %.2fx (%.2f..%.2f) |\n", what, median(g), unit, median(t), unit, median(r),
              *std::min_element(r.begin(), r.end()), *std::max_element(r.begin(), r.end()));
  std::fflush(stdout);
}

std::vector<float> normal(std::size_t n, std::uint64_t seed) { return mx::sample(mx::Distribution::normal, n, seed); }

// ggml's CPU backend, one thread, and its repacking buffer type.
struct Ggml {
  ggml_backend_t backend = nullptr;
  ggml_backend_buffer_type_t repack = nullptr;
  Ggml() {
    ggml_cpu_init();
    backend = ggml_backend_cpu_init();
    ggml_backend_cpu_set_n_threads(backend, 1);
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    auto get_extra = reinterpret_cast<ggml_backend_dev_get_extra_bufts_t>(
        ggml_backend_reg_get_proc_address(ggml_backend_dev_backend_reg(dev), "ggml_backend_dev_get_extra_bufts"));
    for (ggml_backend_buffer_type_t* b = get_extra ? get_extra(dev) : nullptr; b && *b; ++b)
      if (std::strcmp(ggml_backend_buft_name(*b), "CPU_REPACK") == 0) repack = *b;
    if (!repack) {
      std::fprintf(stderr, "bench_vs_ggml: this ggml has no CPU_REPACK buffer type\n");
      std::exit(1);
    }
  }
};

// y = W x for an MXFP4 W (rows x k, repacked by ggml) and m F32 activation rows.
struct GgmlMatmul {
  ggml_context* wctx = nullptr;
  ggml_context* ctx = nullptr;
  ggml_backend_buffer_t wbuf = nullptr, buf = nullptr;
  ggml_cgraph* graph = nullptr;
  GgmlMatmul(Ggml& g, std::size_t rows, std::size_t k, std::size_t m) {
    ggml_init_params wp = {ggml_tensor_overhead() * 4, nullptr, true};
    wctx = ggml_init(wp);
    ggml_tensor* w = ggml_new_tensor_2d(wctx, GGML_TYPE_MXFP4, static_cast<int64_t>(k), static_cast<int64_t>(rows));
    wbuf = ggml_backend_alloc_ctx_tensors_from_buft(wctx, g.repack);
    const std::vector<float> wf = normal(rows * k, 4);
    std::vector<std::uint8_t> q(ggml_row_size(GGML_TYPE_MXFP4, static_cast<int64_t>(k)) * rows);
    ggml_quantize_chunk(GGML_TYPE_MXFP4, wf.data(), q.data(), 0, static_cast<int64_t>(rows), static_cast<int64_t>(k),
                        nullptr);
    ggml_backend_tensor_set(w, q.data(), 0, q.size());  // repacks to mxfp4_8x8
    ggml_init_params p = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), nullptr, true};
    ctx = ggml_init(p);
    ggml_tensor* x = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, static_cast<int64_t>(k), static_cast<int64_t>(m));
    ggml_tensor* y = ggml_mul_mat(ctx, w, x);
    graph = ggml_new_graph(ctx);
    ggml_build_forward_expand(graph, y);
    buf = ggml_backend_alloc_ctx_tensors(ctx, g.backend);
    const std::vector<float> xf = normal(k * m, 5);
    ggml_backend_tensor_set(x, xf.data(), 0, xf.size() * 4);
  }
  void run(Ggml& g) { ggml_backend_graph_compute(g.backend, graph); }
  ~GgmlMatmul() {
    ggml_backend_buffer_free(buf);
    ggml_backend_buffer_free(wbuf);
    ggml_free(ctx);
    ggml_free(wctx);
  }
};

void quantize_row(const Options& o) {
  const std::size_t n = 16u << 20;
  const std::vector<float> x = normal(n, 1);
  std::vector<std::uint8_t> gq(ggml_row_size(GGML_TYPE_MXFP4, static_cast<int64_t>(n)));
  mx::Tensor t = mx::make_tensor(mx::Format::e2m1, 1, n);
  const std::int64_t row = 4096;
  compare(
      o, "quantize FP32 -> MXFP4, 16 Mi values (bytes read + written)", "GB/s", static_cast<double>(n) * (4.0 + 17.0 / 32),
      [&] { ggml_quantize_chunk(GGML_TYPE_MXFP4, x.data(), gq.data(), 0, static_cast<std::int64_t>(n) / row, row, nullptr); },
      [&] { mx::quantize_blocks(x.data(), n, mx::Format::e2m1, {}, t.scales.data(), t.elements.data()); });
}

void dot_row(const Options& o) {
  const std::size_t n = 1u << 20;
  const std::vector<float> a = normal(n, 2), b = normal(n, 3);
  const ggml_type_traits_cpu* tr = ggml_get_type_traits_cpu(GGML_TYPE_MXFP4);
  const ggml_type_traits_cpu* tq = ggml_get_type_traits_cpu(tr->vec_dot_type);
  std::vector<std::uint8_t> ga(ggml_row_size(GGML_TYPE_MXFP4, static_cast<int64_t>(n)));
  std::vector<std::uint8_t> gb(ggml_row_size(tr->vec_dot_type, static_cast<int64_t>(n)));
  ggml_quantize_chunk(GGML_TYPE_MXFP4, a.data(), ga.data(), 0, 1, static_cast<int64_t>(n), nullptr);
  tq->from_float(b.data(), gb.data(), static_cast<int64_t>(n));
  const mx::Tensor ta = mx::quantize(a, mx::Format::e2m1), tb = mx::quantize(b, mx::Format::int8);
  volatile float sink = 0;
  compare(
      o, "dot, MXFP4 x 8-bit (ggml Q8_0, trnsim MXINT8), 1 Mi elements", "G MAC/s", static_cast<double>(n),
      [&] {
        float s = 0;
        tr->vec_dot(static_cast<int>(n), &s, 0, ga.data(), 0, gb.data(), 0, 1);
        sink = s;
      },
      [&] { sink = mx::dot(ta, tb); });
  (void)sink;
}

void matmul_rows(const Options& o, Ggml& g) {
  {
    const std::size_t n = 8192, k = 8192;
    GgmlMatmul gm(g, n, k, 1);
    const mx::Tensor w = mx::quantize(normal(n * k, 4).data(), n, k, mx::Format::e2m1);
    const mx::PackedB packed = mx::pack_b(w, mx::Format::int8);
    const mx::Tensor x = mx::quantize(normal(k, 5), mx::Format::int8);
    std::vector<float> y(n);
    compare(
        o, "GEMV 8192 x 8192, MXFP4 weights x 8-bit vector", "G MAC/s", static_cast<double>(n * k), [&] { gm.run(g); },
        [&] { mx::gemm(x, packed, y.data()); });
  }
  const std::size_t n = 2048;
  GgmlMatmul gm(g, n, n, n);
  const mx::Tensor w = mx::quantize(normal(n * n, 4).data(), n, n, mx::Format::e2m1);
  const std::vector<float> xf = normal(n * n, 5);
  std::vector<float> c(n * n);
  const double flop = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  for (auto [fa, label] : {std::pair{mx::Format::e2m1, "GEMM 2048^3, FP4 activations x FP4 weights"},
                           std::pair{mx::Format::int8, "GEMM 2048^3, INT8 activations x FP4 weights"},
                           std::pair{mx::Format::e4m3, "GEMM 2048^3, FP8 E4M3 activations x FP4 weights"},
                           std::pair{mx::Format::e5m2, "GEMM 2048^3, FP8 E5M2 activations x FP4 weights"}}) {
    const mx::PackedB packed = mx::pack_b(w, fa);
    const mx::Tensor a = mx::quantize(xf.data(), n, n, fa);
    compare(o, label, "GFLOP/s", flop, [&] { gm.run(g); }, [&] { mx::gemm(a, packed, c.data()); });
  }
  {  // both operands FP8 (against the same ggml MXFP4 GEMM)
    const mx::Tensor w8 = mx::quantize(normal(n * n, 4).data(), n, n, mx::Format::e4m3);
    const mx::PackedB packed = mx::pack_b(w8, mx::Format::e4m3);
    const mx::Tensor a = mx::quantize(xf.data(), n, n, mx::Format::e4m3);
    compare(o, "GEMM 2048^3, FP8 E4M3 x FP8 E4M3", "GFLOP/s", flop, [&] { gm.run(g); },
            [&] { mx::gemm(a, packed, c.data()); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--samples") == 0) o.samples = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--seconds") == 0) o.seconds = std::max(0.01, std::atof(argv[i + 1]));
    else {
      std::fprintf(stderr, "usage: bench_vs_ggml [--samples N] [--seconds S]\n");
      return 2;
    }
  }
  Ggml g;
  std::printf("trnsim MX path: %s; GEMM kernels: FP4 x FP4 %s, FP8 x FP4 %s\n", mx::path_name(mx::best_path()),
              mx::gemm_kernel(mx::Format::e2m1, mx::Format::e2m1).c_str(),
              mx::gemm_kernel(mx::Format::e4m3, mx::Format::e2m1).c_str());
  std::printf("single thread, %d samples per row (order alternating), %.2f s per side and sample, thread CPU time\n\n",
              o.samples, o.seconds);
  std::printf("| operation | ggml | trnsim | trnsim / ggml (spread) |\n| --- | --- | --- | --- |\n");
  quantize_row(o);
  dot_row(o);
  matmul_rows(o, g);
  ggml_backend_free(g.backend);
  return 0;
}
