// MX kernels (core/mx) on every code path of this machine, single-threaded, with the
// baselines they are read against measured in the same binary: the 64 MiB memory copy
// (bench_baseline.cpp) and "dequantize to FP32, then OpenBLAS sgemm" on one thread.
//   mx_quantize/<format>/<path>     64 MiB of FP32 in; bytes_per_s counts bytes read + written
//   mx_dequantize/<format>/<path>   to 64 MiB of FP32; bytes read + written
//   mx_dot/<a>_x_<b>/<path>         DotGeneral of two 1 Mi-element vectors; macs_per_s
//   mx_gemv/e2m1_x_<x>/<path>       MXFP4 8192 x 8192 weights (packed once) times a vector
//   mx_gemm/<a>_x_<b>/<path>        2048^3, end to end (B packed inside); flops = 2 M N K / s
//   mx_dequant_sgemm/<a>_x_<b>      dequantize A and Bt to FP32 + cblas_sgemm, 2048^3
//   openblas_sgemm/2048             cblas_sgemm alone
//   mx_gemm_vs_dequant_sgemm/<a>_x_<b>  both, alternating in each iteration (thread CPU
//                                   time): medians of each rate and of the paired ratios
//                                   (ratio > 1: MX faster), and the MX rate as a fraction
//                                   of its kernel's instruction peak measured in between
//   mx_peak/<instruction>           that peak: a tight loop of independent accumulator
//                                   chains of VDPBF16PS, VPDPBUSD, VPDPWSSD or a 512-bit
//                                   FMA; macs_per_s counts the multiply-adds the MX kernels
//                                   get from one instruction (32, 64, 32, 16)
// NVFP4 (core/mx/nvfp4.h) beside MXFP4 in the same families: mx_quantize/nvfp4 (the recipe's
// two passes: tensor amax, then blocks), mx_dequantize/nvfp4, mx_dot/nvfp4_x_nvfp4,
// mx_gemm/nvfp4_x_nvfp4 and its baseline mx_dequant_sgemm/nvfp4_x_nvfp4.
// GEMM kinds: all 36 pairs of element formats. The sgemm is the fair one: OpenBLAS loaded
// with the best kernels this CPU supports (mx_machine.h); the output's context block names
// the CPU, its features, the MX paths and kernels and the OpenBLAS core.
// Run one family at a time, e.g. --benchmark_filter='mx_gemm/.*avx512'.
#include "bench_api.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "mx/nvfp4.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define TRNSIM_BENCH_PEAK 1
#endif

#include "mx/mx.h"
#include "mx_machine.h"

namespace {

namespace mx = trnsim::mx;

constexpr std::size_t kQuantizeElems = (64u << 20) / 4;  // 64 MiB of FP32
constexpr std::size_t kDotElems = 1u << 20;
constexpr std::size_t kGemvN = 8192, kGemvK = 8192;
constexpr std::size_t kGemmN = 2048;
constexpr int kPairedIterations = 9;

// Inputs, made once per process (std::map keeps references stable).
const std::vector<float>& normal_data(std::size_t n, std::uint64_t seed) {
  static std::map<std::pair<std::size_t, std::uint64_t>, std::vector<float>> cache;
  auto it = cache.find({n, seed});
  if (it == cache.end()) it = cache.emplace(std::make_pair(n, seed), mx::sample(mx::Distribution::normal, n, seed)).first;
  return it->second;
}

double element_bytes(mx::Format f) {
  return mx::format_info(f).element_bits / 8.0 + 1.0 / mx::kBlockSize;  // codes + scale byte
}

void bm_quantize(benchmark::State& state, mx::Format f, mx::Path p) {
  const std::vector<float>& x = normal_data(kQuantizeElems, 1);
  std::vector<std::uint8_t> scales(mx::blocks_for(x.size()));
  std::vector<std::uint8_t> elems(scales.size() * static_cast<std::size_t>(mx::format_info(f).block_bytes));
  for (auto _ : state) {
    mx::quantize_blocks(x.data(), x.size(), f, {}, scales.data(), elems.data(), p);
    benchmark::DoNotOptimize(elems.data());
    benchmark::ClobberMemory();
  }
  const double n = static_cast<double>(x.size()) * static_cast<double>(state.iterations());
  state.counters["bytes_per_s"] = benchmark::Counter(n * (4.0 + element_bytes(f)), benchmark::Counter::kIsRate);
  state.counters["elements_per_s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}

void bm_dequantize(benchmark::State& state, mx::Format f, mx::Path p) {
  const std::vector<float>& x = normal_data(kQuantizeElems, 1);
  std::vector<std::uint8_t> scales(mx::blocks_for(x.size()));
  std::vector<std::uint8_t> elems(scales.size() * static_cast<std::size_t>(mx::format_info(f).block_bytes));
  mx::quantize_blocks(x.data(), x.size(), f, {}, scales.data(), elems.data());
  std::vector<float> out(x.size());
  for (auto _ : state) {
    mx::dequantize_blocks(f, scales.data(), elems.data(), out.size(), out.data(), p);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  const double n = static_cast<double>(x.size()) * static_cast<double>(state.iterations());
  state.counters["bytes_per_s"] = benchmark::Counter(n * (4.0 + element_bytes(f)), benchmark::Counter::kIsRate);
  state.counters["elements_per_s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}

void bm_dot(benchmark::State& state, mx::Format fa, mx::Format fb, mx::Path p) {
  mx::Tensor a = mx::quantize(normal_data(kDotElems, 2), fa);
  mx::Tensor b = mx::quantize(normal_data(kDotElems, 3), fb);
  for (auto _ : state) benchmark::DoNotOptimize(mx::dot(a, b, p));
  state.counters["macs_per_s"] =
      benchmark::Counter(static_cast<double>(kDotElems) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void bm_gemv(benchmark::State& state, mx::Format fx, mx::Path p) {
  static mx::Tensor w = mx::quantize(normal_data(kGemvN * kGemvK, 4).data(), kGemvN, kGemvK, mx::Format::e2m1);
  mx::PackedB packed = mx::pack_b(w, fx, p);  // the weights, repacked once
  mx::Tensor x = mx::quantize(normal_data(kGemvK, 5), fx);
  std::vector<float> y(kGemvN);
  for (auto _ : state) {
    mx::gemm(x, packed, y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.counters["macs_per_s"] = benchmark::Counter(
      static_cast<double>(kGemvN * kGemvK) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["weight_bytes_per_s"] = benchmark::Counter(
      static_cast<double>(kGemvN * kGemvK) * element_bytes(mx::Format::e2m1) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

// NVFP4: bytes per element (codes and the E4M3 scale byte per 16).
constexpr double kNvElementBytes = 0.5 + 1.0 / mx::kNvBlockSize;

void bm_nv_quantize(benchmark::State& state, mx::Path p) {
  const std::vector<float>& x = normal_data(kQuantizeElems, 1);
  for (auto _ : state) {
    mx::NvTensor t = mx::quantize_nvfp4(x, {}, p);
    benchmark::DoNotOptimize(t.elements.data());
    benchmark::ClobberMemory();
  }
  const double n = static_cast<double>(x.size()) * static_cast<double>(state.iterations());
  state.counters["bytes_per_s"] = benchmark::Counter(n * (4.0 + kNvElementBytes), benchmark::Counter::kIsRate);
  state.counters["elements_per_s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}

void bm_nv_dequantize(benchmark::State& state, mx::Path p) {
  static const mx::NvTensor t = mx::quantize_nvfp4(normal_data(kQuantizeElems, 1));
  for (auto _ : state) {
    std::vector<float> y = mx::dequantize(t, p);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  const double n = static_cast<double>(t.cols) * static_cast<double>(state.iterations());
  state.counters["bytes_per_s"] = benchmark::Counter(n * (4.0 + kNvElementBytes), benchmark::Counter::kIsRate);
  state.counters["elements_per_s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
}

void bm_nv_dot(benchmark::State& state, mx::Path p) {
  const mx::NvTensor a = mx::quantize_nvfp4(normal_data(kDotElems, 2)), b = mx::quantize_nvfp4(normal_data(kDotElems, 3));
  for (auto _ : state) benchmark::DoNotOptimize(mx::dot(a, b, p));
  state.counters["macs_per_s"] =
      benchmark::Counter(static_cast<double>(kDotElems) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

struct NvGemmOperands {
  mx::NvTensor a, bt;
};
const NvGemmOperands& nv_gemm_operands() {
  static const NvGemmOperands g{mx::quantize_nvfp4(normal_data(kGemmN * kGemmN, 6).data(), kGemmN, kGemmN),
                                mx::quantize_nvfp4(normal_data(kGemmN * kGemmN, 7).data(), kGemmN, kGemmN)};
  return g;
}

struct GemmOperands {
  mx::Tensor a, bt;
};
const GemmOperands& gemm_operands(mx::Format fa, mx::Format fb) {
  static std::map<std::pair<mx::Format, mx::Format>, GemmOperands> cache;
  auto it = cache.find({fa, fb});
  if (it != cache.end()) return it->second;
  const std::vector<float>& av = normal_data(kGemmN * kGemmN, 6);
  const std::vector<float>& bv = normal_data(kGemmN * kGemmN, 7);
  GemmOperands g{mx::quantize(av.data(), kGemmN, kGemmN, fa), mx::quantize(bv.data(), kGemmN, kGemmN, fb)};
  return cache.emplace(std::make_pair(fa, fb), std::move(g)).first->second;
}

void set_flops(benchmark::State& state) {
  const double n = static_cast<double>(kGemmN);
  state.counters["flops"] = benchmark::Counter(2 * n * n * n * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void bm_gemm(benchmark::State& state, mx::Format fa, mx::Format fb, mx::Path p) {
  const GemmOperands& g = gemm_operands(fa, fb);
  std::vector<float> c(kGemmN * kGemmN);
  for (auto _ : state) {
    mx::gemm(g.a, g.bt, c.data(), p);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_flops(state);
}

// Dequantize A and Bt to FP32, then one sgemm of the fair OpenBLAS (mx_machine.h).
void dequant_sgemm(const GemmOperands& g, std::vector<float>& a, std::vector<float>& bt, std::vector<float>& c) {
  const trnsim::bench::Blas& b = trnsim::bench::blas();
  const int n = static_cast<int>(kGemmN);
  for (std::size_t r = 0; r < kGemmN; ++r) {
    mx::dequantize_blocks(g.a.format, g.a.row_scales(r), g.a.row_elements(r), kGemmN, a.data() + r * kGemmN);
    mx::dequantize_blocks(g.bt.format, g.bt.row_scales(r), g.bt.row_elements(r), kGemmN, bt.data() + r * kGemmN);
  }
#if TRNSIM_HAVE_OPENBLAS
  b.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0f, a.data(), n, bt.data(), n, 0.0f, c.data(), n);
#else
  (void)b, (void)n, (void)c;  // WebAssembly: no OpenBLAS (the baseline is native-only)
#endif
}

void bm_dequant_sgemm(benchmark::State& state, mx::Format fa, mx::Format fb) {
  const GemmOperands& g = gemm_operands(fa, fb);
  std::vector<float> a(kGemmN * kGemmN), bt(kGemmN * kGemmN), c(kGemmN * kGemmN);
  for (auto _ : state) {
    dequant_sgemm(g, a, bt, c);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_flops(state);
  state.SetLabel(trnsim::bench::blas().core);
}

void bm_nv_gemm(benchmark::State& state, mx::Path p) {
  const NvGemmOperands& g = nv_gemm_operands();
  std::vector<float> c(kGemmN * kGemmN);
  for (auto _ : state) {
    mx::gemm(g.a, g.bt, c.data(), p);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_flops(state);
  state.SetLabel(mx::nv_gemm_kernel(p));
}

// The NVFP4 baseline: dequantize A and Bt to FP32, then the same sgemm.
void bm_nv_dequant_sgemm(benchmark::State& state) {
  const NvGemmOperands& g = nv_gemm_operands();
  const trnsim::bench::Blas& b = trnsim::bench::blas();
  const int n = static_cast<int>(kGemmN);
  std::vector<float> c(kGemmN * kGemmN);
  for (auto _ : state) {
    const std::vector<float> a = mx::dequantize(g.a), bt = mx::dequantize(g.bt);
#if TRNSIM_HAVE_OPENBLAS
    b.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0f, a.data(), n, bt.data(), n, 0.0f, c.data(), n);
#else
    (void)b, (void)n, (void)a, (void)bt;
#endif
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  set_flops(state);
  state.SetLabel(trnsim::bench::blas().core);
}

void bm_sgemm(benchmark::State& state) {
  const trnsim::bench::Blas& b = trnsim::bench::blas();
  const int n = static_cast<int>(kGemmN);
  const std::vector<float>& a = normal_data(kGemmN * kGemmN, 6);
  const std::vector<float>& bt = normal_data(kGemmN * kGemmN, 7);
  std::vector<float> c(kGemmN * kGemmN);
  for (auto _ : state) {
#if TRNSIM_HAVE_OPENBLAS
    b.sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0f, a.data(), n, bt.data(), n, 0.0f, c.data(), n);
#else
    (void)b, (void)n, (void)a, (void)bt;  // WebAssembly: no OpenBLAS
#endif
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  (void)n;
  set_flops(state);
  state.SetLabel(b.core);
}

// ---------------------------------------------------------------------------------------
// Instruction peaks: kChains independent accumulator chains (more than latency x issue
// rate of any of these on current x86 cores), each instruction's inputs in registers.
enum class Instr { none, vdpbf16ps, vpdpbusd, vpdpwssd, fma };
struct InstrInfo {
  Instr instr;
  const char* name;     // as in the kernel names of mx::gemm_kernel
  double macs;          // multiply-adds per instruction, as the MX kernels use them
};
constexpr InstrInfo kInstrs[] = {{Instr::vdpbf16ps, "VDPBF16PS", 32},
                                 {Instr::vpdpbusd, "VPDPBUSD", 64},
                                 {Instr::vpdpwssd, "VPDPWSSD", 32},
                                 {Instr::fma, "FMA", 16}};
constexpr int kChains = 16;

double thread_seconds() {
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(__EMSCRIPTEN__)
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
#else
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

#if TRNSIM_BENCH_PEAK
#define TRNSIM_PEAK_LOOP(TYPE, INIT, OP, REDUCE)                                \
  TYPE acc[kChains];                                                            \
  for (int i = 0; i < kChains; ++i) acc[i] = INIT;                              \
  const double t0 = thread_seconds();                                           \
  for (long i = 0; i < rounds; ++i) {                                           \
    _Pragma("GCC unroll 16") for (int j = 0; j < kChains; ++j) acc[j] = OP;     \
    __asm__ volatile("" : "+v"(x)); /* a new input each round: nothing hoisted */ \
  }                                                                             \
  const double t = thread_seconds() - t0;                                       \
  for (int i = 1; i < kChains; ++i) acc[0] = REDUCE;                            \
  benchmark::DoNotOptimize(acc[0]);                                             \
  return static_cast<double>(rounds) * kChains / t;

__attribute__((target("avx512f,avx512bf16"), noinline)) double peak_vdpbf16ps(long rounds) {
  __m512bh x = (__m512bh)_mm512_set1_epi32(0x3F803F80), y = (__m512bh)_mm512_set1_epi32(0);
  TRNSIM_PEAK_LOOP(__m512, _mm512_set1_ps(static_cast<float>(i)), _mm512_dpbf16_ps(acc[j], x, y),
                   _mm512_add_ps(acc[0], acc[i]))
}
__attribute__((target("avx512f,avx512vnni"), noinline)) double peak_vpdpbusd(long rounds) {
  __m512i x = _mm512_set1_epi32(1), y = _mm512_set1_epi32(0);
  TRNSIM_PEAK_LOOP(__m512i, _mm512_set1_epi32(i), _mm512_dpbusd_epi32(acc[j], x, y), _mm512_add_epi32(acc[0], acc[i]))
}
__attribute__((target("avx512f,avx512vnni"), noinline)) double peak_vpdpwssd(long rounds) {
  __m512i x = _mm512_set1_epi32(1), y = _mm512_set1_epi32(0);
  TRNSIM_PEAK_LOOP(__m512i, _mm512_set1_epi32(i), _mm512_dpwssd_epi32(acc[j], x, y), _mm512_add_epi32(acc[0], acc[i]))
}
__attribute__((target("avx512f,fma"), noinline)) double peak_fma(long rounds) {
  __m512 x = _mm512_set1_ps(1.0f), y = _mm512_set1_ps(0.0f);
  TRNSIM_PEAK_LOOP(__m512, _mm512_set1_ps(static_cast<float>(i)), _mm512_fmadd_ps(x, y, acc[j]),
                   _mm512_add_ps(acc[0], acc[i]))
}
#undef TRNSIM_PEAK_LOOP
#endif

bool instr_available(Instr in) {
#if TRNSIM_BENCH_PEAK
  const bool avx512 = __builtin_cpu_supports("avx512f");
  switch (in) {
    case Instr::vdpbf16ps: return avx512 && __builtin_cpu_supports("avx512bf16");
    case Instr::vpdpbusd:
    case Instr::vpdpwssd: return avx512 && __builtin_cpu_supports("avx512vnni");
    case Instr::fma: return avx512;
    default: return false;
  }
#else
  (void)in;
  return false;
#endif
}

// Instructions per second over `rounds` rounds of kChains (0 when not available).
double instr_rate(Instr in, long rounds) {
  if (!instr_available(in)) return 0;
#if TRNSIM_BENCH_PEAK
  switch (in) {
    case Instr::vdpbf16ps: return peak_vdpbf16ps(rounds);
    case Instr::vpdpbusd: return peak_vpdpbusd(rounds);
    case Instr::vpdpwssd: return peak_vpdpwssd(rounds);
    case Instr::fma: return peak_fma(rounds);
    default: break;
  }
#endif
  (void)rounds;
  return 0;
}

// The instruction an AVX-512 GEMM kernel runs on, from its name (mx::gemm_kernel).
const InstrInfo* kernel_instr(const std::string& kernel) {
  if (kernel.rfind("avx512 ", 0) != 0) return nullptr;
  for (const InstrInfo& i : kInstrs)
    if (kernel.find(i.name) != std::string::npos) return &i;
  return nullptr;
}

void bm_peak(benchmark::State& state, InstrInfo info) {
  constexpr long kRounds = 1 << 16;
  double seconds = 0, instrs = 0;
  for (auto _ : state) {
    const double rate = instr_rate(info.instr, kRounds);
    seconds += kRounds * kChains / rate;
    instrs += kRounds * kChains;
  }
  state.counters["macs_per_s"] = instrs * info.macs / seconds;
  state.counters["instructions_per_s"] = instrs / seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// The MX GEMM (automatic path) and dequantize + sgemm on the same operands, alternating
// within each iteration (the order swaps every iteration), so that both see the same
// machine load: counters are the medians of each side's rate and of the paired ratios.
// Times are this thread's CPU time (OpenBLAS runs on the calling thread with one thread),
// so other processes on a shared machine disturb both sides least. The kernel's
// instruction peak (mx_peak) is measured after every pair, ~2 ms: peak_fraction is the
// median MX rate over the median peak.
void bm_gemm_vs_baseline(benchmark::State& state, mx::Format fa, mx::Format fb) {
  const GemmOperands& g = gemm_operands(fa, fb);
  std::vector<float> a(kGemmN * kGemmN), bt(kGemmN * kGemmN), c(kGemmN * kGemmN), c2(kGemmN * kGemmN);
  std::vector<double> t_mx, t_base, ratio, peak;
  const std::string kernel = mx::gemm_kernel(fa, fb);
  const InstrInfo* instr = kernel_instr(kernel);
  // once untimed: the MX GEMM's scratch and the baseline's buffers exist before timing
  mx::gemm(g.a, g.bt, c.data());
  dequant_sgemm(g, a, bt, c2);
  bool mx_first = true;
  for (auto _ : state) {
    double tm = 0, tb = 0;
    for (int half = 0; half < 2; ++half) {
      const double t0 = thread_seconds();
      if ((half == 0) == mx_first) mx::gemm(g.a, g.bt, c.data());
      else dequant_sgemm(g, a, bt, c2);
      const double s = thread_seconds() - t0;
      ((half == 0) == mx_first ? tm : tb) = s;
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::DoNotOptimize(c2.data());
    mx_first = !mx_first;
    t_mx.push_back(tm);
    t_base.push_back(tb);
    ratio.push_back(tb / tm);
    if (instr) peak.push_back(instr_rate(instr->instr, 1 << 15) * instr->macs);
    state.SetIterationTime(tm + tb);
  }
  const double macs = static_cast<double>(kGemmN) * static_cast<double>(kGemmN) * static_cast<double>(kGemmN);
  state.counters["mx_flops"] = 2 * macs / median(t_mx);
  state.counters["baseline_flops"] = 2 * macs / median(t_base);
  state.counters["ratio"] = median(ratio);
  state.counters["ratio_min"] = *std::min_element(ratio.begin(), ratio.end());
  state.counters["ratio_max"] = *std::max_element(ratio.begin(), ratio.end());
  if (instr && median(peak) > 0) {
    state.counters["peak_macs_per_s"] = median(peak);
    state.counters["peak_fraction"] = macs / median(t_mx) / median(peak);
  }
  state.SetLabel(kernel + " vs " + trnsim::bench::blas().core);
}

std::string pair_name(mx::Format a, mx::Format b) {
  return std::string(mx::format_name(a)) + "_x_" + mx::format_name(b);
}

// Every pair of element formats (36 GEMM kinds).
std::vector<std::pair<mx::Format, mx::Format>> all_pairs() {
  std::vector<std::pair<mx::Format, mx::Format>> v;
  for (mx::Format a : mx::kAllFormats)
    for (mx::Format b : mx::kAllFormats) v.emplace_back(a, b);
  return v;
}

const int kRegistered = [] {
  using mx::Format;
  trnsim::bench::add_machine_context();
  const std::vector<mx::Path> paths = mx::available_paths();
  for (mx::Path p : paths) {
    const std::string pn = mx::path_name(p);
    for (Format f : mx::kAllFormats) {
      benchmark::RegisterBenchmark(("mx_quantize/" + std::string(mx::format_name(f)) + "/" + pn).c_str(), bm_quantize, f, p)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("mx_dequantize/" + std::string(mx::format_name(f)) + "/" + pn).c_str(), bm_dequantize,
                                   f, p)
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("mx_quantize/nvfp4/" + pn).c_str(), bm_nv_quantize, p)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("mx_dequantize/nvfp4/" + pn).c_str(), bm_nv_dequantize, p)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("mx_dot/nvfp4_x_nvfp4/" + pn).c_str(), bm_nv_dot, p)->Unit(benchmark::kMicrosecond);
    for (auto [fa, fb] : {std::pair{Format::e2m1, Format::e2m1}, std::pair{Format::e2m1, Format::int8},
                          std::pair{Format::int8, Format::int8}, std::pair{Format::e4m3, Format::e4m3},
                          std::pair{Format::e5m2, Format::e5m2}, std::pair{Format::e4m3, Format::e2m1}})
      benchmark::RegisterBenchmark(("mx_dot/" + pair_name(fa, fb) + "/" + pn).c_str(), bm_dot, fa, fb, p)
          ->Unit(benchmark::kMicrosecond);
    if (p == mx::Path::scalar) continue;  // GEMV and GEMM at these sizes take minutes on it
    for (Format fx : {Format::int8, Format::e2m1, Format::e4m3})
      benchmark::RegisterBenchmark(("mx_gemv/e2m1_x_" + std::string(mx::format_name(fx)) + "/" + pn).c_str(), bm_gemv, fx, p)
          ->Unit(benchmark::kMillisecond);
    for (auto [fa, fb] : all_pairs())
      benchmark::RegisterBenchmark(("mx_gemm/" + pair_name(fa, fb) + "/" + pn).c_str(), bm_gemm, fa, fb, p)
          ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("mx_gemm/nvfp4_x_nvfp4/" + pn).c_str(), bm_nv_gemm, p)->Unit(benchmark::kMillisecond);
  }
  for (const InstrInfo& i : kInstrs)
    if (instr_available(i.instr))
      benchmark::RegisterBenchmark((std::string("mx_peak/") + i.name).c_str(), bm_peak, i)->Unit(benchmark::kMicrosecond);
  if (trnsim::bench::blas().loaded) {
    for (auto [fa, fb] : all_pairs())
      benchmark::RegisterBenchmark(("mx_dequant_sgemm/" + pair_name(fa, fb)).c_str(), bm_dequant_sgemm, fa, fb)
          ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("mx_dequant_sgemm/nvfp4_x_nvfp4", bm_nv_dequant_sgemm)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("openblas_sgemm/2048", bm_sgemm)->Unit(benchmark::kMillisecond);
    for (auto [fa, fb] : all_pairs())
      benchmark::RegisterBenchmark(("mx_gemm_vs_dequant_sgemm/" + pair_name(fa, fb)).c_str(), bm_gemm_vs_baseline, fa,
                                   fb)
          ->UseManualTime()
          ->Iterations(kPairedIterations)
          ->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace
