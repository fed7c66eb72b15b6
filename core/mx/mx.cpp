// MX API: path selection, partial blocks, tensors, the error statistics and their
// deterministic distributions. The numerics live in mx_ref.cpp (reference) and the
// mx_<isa>.cpp kernels; see mx.h for the definitions every path implements.
#include "mx/mx.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "common/splitmix64.h"
#include "mx/mx_internal.h"

namespace trnsim::mx {

using detail::Kernels;

namespace {

bool cpu_has_avx2() {
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(__EMSCRIPTEN__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

bool cpu_has_avx512() {
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(__EMSCRIPTEN__) && defined(__GNUC__)
  return cpu_has_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

const Kernels* kernels_for(Path p) {
  switch (p) {
    case Path::scalar: return &detail::scalar_kernels();
    case Path::avx2: return cpu_has_avx2() ? detail::avx2_kernels() : nullptr;
    case Path::avx512: return cpu_has_avx512() ? detail::avx512_kernels() : nullptr;
    case Path::wasm_simd: return detail::wasm_kernels();
    case Path::automatic: break;
  }
  return nullptr;
}

const Kernels& kernels(Path p) {
  const Kernels* k = kernels_for(resolve_path(p));
  return *k;
}

}  // namespace

const char* path_name(Path p) {
  switch (p) {
    case Path::automatic: return "auto";
    case Path::scalar: return "scalar";
    case Path::avx2: return "avx2";
    case Path::avx512: return "avx512";
    case Path::wasm_simd: return "wasm_simd";
  }
  return "?";
}

std::optional<Path> parse_path(std::string_view n) {
  for (Path p : {Path::automatic, Path::scalar, Path::avx2, Path::avx512, Path::wasm_simd})
    if (n == path_name(p)) return p;
  return std::nullopt;
}

std::vector<Path> available_paths() {
  std::vector<Path> out;
  for (Path p : {Path::scalar, Path::avx2, Path::avx512, Path::wasm_simd})
    if (kernels_for(p)) out.push_back(p);
  return out;
}

Path best_path() { return available_paths().back(); }

Path resolve_path(Path p) {
  if (p == Path::automatic) return best_path();
  if (!kernels_for(p)) throw InputError("path", std::string(path_name(p)) + " is not available on this machine or build");
  return p;
}

// ---------------------------------------------------------------------------------------

void quantize_blocks(const float* x, std::size_t n, Format f, const Options& o, std::uint8_t* scales,
                     std::uint8_t* elements, Path path) {
  check_options(f, o);
  const Kernels& k = kernels(path);
  const std::size_t full = n / kBlockSize, bb = static_cast<std::size_t>(format_info(f).block_bytes);
  if (full) k.quantize(x, full, f, o, scales, elements);
  if (n % kBlockSize) {
    float tail[kBlockSize] = {};
    std::copy(x + full * kBlockSize, x + n, tail);
    k.quantize(tail, 1, f, o, scales + full, elements + full * bb);
  }
}

void quantize_blocks_bf16(const std::uint16_t* x, std::size_t n, Format f, const Options& o, std::uint8_t* scales,
                          std::uint8_t* elements, Path path) {
  check_options(f, o);
  const Kernels& k = kernels(path);
  const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
  constexpr std::size_t kChunkBlocks = 64;
  float buf[kChunkBlocks * kBlockSize];
  for (std::size_t b0 = 0; b0 * kBlockSize < n; b0 += kChunkBlocks) {
    std::size_t first = b0 * kBlockSize, count = std::min(n - first, kChunkBlocks * kBlockSize);
    std::size_t blocks = blocks_for(count);
    for (std::size_t i = 0; i < blocks * kBlockSize; ++i)
      buf[i] = i < count ? detail::u2f(static_cast<std::uint32_t>(x[first + i]) << 16) : 0.0f;
    k.quantize(buf, blocks, f, o, scales + b0, elements + b0 * bb);
  }
}

void dequantize_blocks(Format f, const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n, float* out,
                       Path path) {
  const Kernels& k = kernels(path);
  const std::size_t full = n / kBlockSize, bb = static_cast<std::size_t>(format_info(f).block_bytes);
  if (full) k.dequantize(f, scales, elements, full, out);
  if (n % kBlockSize) {
    float tail[kBlockSize];
    k.dequantize(f, scales + full, elements + full * bb, 1, tail);
    std::copy(tail, tail + (n - full * kBlockSize), out + full * kBlockSize);
  }
}

float dot_block(Format fa, std::uint8_t xa, const std::uint8_t* pa, Format fb, std::uint8_t xb,
                const std::uint8_t* pb) {
  return detail::canonical(detail::ref_dot_block(fa, xa, pa, fb, xb, pb));
}

float dot_blocks(Format fa, const std::uint8_t* xa, const std::uint8_t* pa, Format fb, const std::uint8_t* xb,
                 const std::uint8_t* pb, std::size_t n_blocks, Path path) {
  return kernels(path).dot(fa, xa, pa, fb, xb, pb, n_blocks);
}

// ---------------------------------------------------------------------------------------

std::size_t Tensor::row_element_bytes() const {
  return blocks_per_row() * static_cast<std::size_t>(format_info(format).block_bytes);
}

Tensor make_tensor(Format f, std::size_t rows, std::size_t cols) {
  Tensor t;
  t.format = f;
  t.rows = rows;
  t.cols = cols;
  t.scales.assign(rows * t.blocks_per_row(), kScaleZero);
  t.elements.assign(rows * t.row_element_bytes(), 0);
  return t;
}

Tensor quantize(const float* x, std::size_t rows, std::size_t cols, Format f, const Options& o, Path path) {
  Tensor t = make_tensor(f, rows, cols);
  for (std::size_t r = 0; r < rows; ++r)
    quantize_blocks(x + r * cols, cols, f, o, t.scales.data() + r * t.blocks_per_row(),
                    t.elements.data() + r * t.row_element_bytes(), path);
  return t;
}

Tensor quantize(const std::vector<float>& x, Format f, const Options& o, Path path) {
  return quantize(x.data(), 1, x.size(), f, o, path);
}

Tensor quantize_bf16(const std::uint16_t* x, std::size_t rows, std::size_t cols, Format f, const Options& o,
                     Path path) {
  Tensor t = make_tensor(f, rows, cols);
  for (std::size_t r = 0; r < rows; ++r)
    quantize_blocks_bf16(x + r * cols, cols, f, o, t.scales.data() + r * t.blocks_per_row(),
                         t.elements.data() + r * t.row_element_bytes(), path);
  return t;
}

std::vector<float> dequantize(const Tensor& t, Path path) {
  std::vector<float> out(t.rows * t.cols);
  for (std::size_t r = 0; r < t.rows; ++r)
    dequantize_blocks(t.format, t.row_scales(r), t.row_elements(r), t.cols, out.data() + r * t.cols, path);
  return out;
}

float dot(const Tensor& a, const Tensor& b, Path path) {
  if (a.rows != 1 || b.rows != 1) throw InputError("dot", "operands must be vectors (one row each)");
  if (a.cols != b.cols)
    throw InputError("dot", "vector lengths differ (" + std::to_string(a.cols) + " and " + std::to_string(b.cols) + ")");
  return dot_blocks(a.format, a.scales.data(), a.elements.data(), b.format, b.scales.data(), b.elements.data(),
                    a.blocks_per_row(), path);
}

PackedB pack_b(const Tensor& bt, Format a_format, Path path) {
  PackedB p;
  const Kernels& k = kernels(path);
  if (k.gemm) {
    detail::simd_pack_b(*k.gemm, k.path, bt, a_format, p);
  } else {
    p.path = Path::scalar;
    p.a_format = a_format;
    p.b_format = bt.format;
    p.n = bt.rows;
    p.k = bt.cols;
    p.bt = bt;
  }
  return p;
}

void gemm(const Tensor& a, const PackedB& b, float* c) {
  if (a.cols != b.k)
    throw InputError("gemm", "inner dimensions differ (A has " + std::to_string(a.cols) + " columns, Bt has " +
                                 std::to_string(b.k) + ")");
  if (a.format != b.a_format) throw InputError("gemm", "B was packed for another A format");
  if (a.rows == 0 || b.n == 0) return;
  const Kernels& k = kernels(b.path);
  if (k.gemm && b.kind != detail::kKindScalar) detail::simd_gemm(*k.gemm, a, b, c);
  else detail::ref_gemm_tile(a, b.bt, 0, a.rows, 0, b.n, c, b.n);
}

void gemm(const Tensor& a, const Tensor& bt, float* c, Path path) {
  const Kernels& k = kernels(path);
  if (!k.gemm) return gemm(a, pack_b(bt, a.format, path), c);
  if (a.cols != bt.cols)
    throw InputError("gemm", "inner dimensions differ (A has " + std::to_string(a.cols) + " columns, Bt has " +
                                 std::to_string(bt.cols) + ")");
  if (a.rows == 0 || bt.rows == 0) return;
  detail::simd_gemm(*k.gemm, a, bt, c);  // B packed for this call only, in scratch memory
}

std::string gemm_kernel(Format a, Format b, Path path) {
  const Kernels& k = kernels(path);
  const std::string name = path_name(k.path);
  if (!k.gemm) return name + " reference loop (FP32, as defined)";
  return name + " " + k.gemm->kind_name(k.gemm->shape(a, b));
}

// ---------------------------------------------------------------------------------------
// Deterministic elementary functions: only + - * / and exact frexp/ldexp, evaluated in a
// fixed order, so every IEEE-754 platform gives the same bits.

double det_log(double x) {
  if (x != x || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    e -= 1;
  }
  // log(1 + f) = f - s (f - R), s = f / (2 + f), R = sum_k 2 s^2k / (2k + 1) (fdlibm's form)
  double f = m - 1, s = f / (2 + f), z = s * s;
  double R = 0, term = z;
  for (int k = 1; k <= 20; ++k) {
    R += 2 * term / (2 * k + 1);
    term *= z;
  }
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return e * ln2_hi - ((s * (f - R) - e * ln2_lo) - f);
}

double det_exp(double x) {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0;
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  double kf = std::floor(x * 1.44269504088896340736 + 0.5);
  int k = static_cast<int>(kf);
  double r = (x - kf * ln2_hi) - kf * ln2_lo;  // |r| <= 0.35
  double p = 1;  // Horner: 1 + r (1 + r/2 (1 + r/3 (...)))
  for (int n = 20; n >= 1; --n) p = 1 + p * r / n;
  return std::ldexp(p, k);
}

double det_log10(double x) { return det_log(x) / 2.30258509299404568402; }

namespace {

struct Xoshiro256 {
  std::uint64_t s[4];
  explicit Xoshiro256(std::uint64_t seed) {
    for (auto& w : s) w = splitmix64(seed);
  }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t next() {
    std::uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
  }
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
};

}  // namespace

const char* distribution_name(Distribution d) {
  switch (d) {
    case Distribution::normal: return "normal";
    case Distribution::laplace: return "laplace";
    case Distribution::uniform: return "uniform";
    case Distribution::lognormal: return "lognormal";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view n) {
  for (Distribution d : {Distribution::normal, Distribution::laplace, Distribution::uniform, Distribution::lognormal})
    if (n == distribution_name(d)) return d;
  return std::nullopt;
}

std::vector<float> sample(Distribution d, std::size_t n, std::uint64_t seed) {
  Xoshiro256 rng(seed);
  std::vector<float> out;
  out.reserve(n);
  auto normal_pair = [&](double& z0, double& z1) {  // Marsaglia polar method
    for (;;) {
      double u = 2 * rng.uniform01() - 1, v = 2 * rng.uniform01() - 1, s = u * u + v * v;
      if (s <= 0 || s >= 1) continue;
      double f = std::sqrt(-2 * det_log(s) / s);
      z0 = u * f;
      z1 = v * f;
      return;
    }
  };
  while (out.size() < n) {
    switch (d) {
      case Distribution::normal:
      case Distribution::lognormal: {
        double z[2];
        normal_pair(z[0], z[1]);
        for (double v : z)
          if (out.size() < n) out.push_back(static_cast<float>(d == Distribution::normal ? v : det_exp(v)));
        break;
      }
      case Distribution::laplace: {
        double u = rng.uniform01() - 0.5;  // inverse CDF: -sign(u) ln(1 - 2|u|)
        double a = u < 0 ? -u : u;
        if (a >= 0.5) break;  // u == -0.5 exactly: draw again
        double v = -det_log(1 - 2 * a);
        out.push_back(static_cast<float>(u < 0 ? -v : v));
        break;
      }
      case Distribution::uniform: out.push_back(static_cast<float>(2 * rng.uniform01() - 1)); break;
    }
  }
  return out;
}

ErrorStats error_stats(const float* x, std::size_t n, Format f, const Options& o) {
  ErrorStats st;
  st.n = n;
  if (n == 0) return st;
  Tensor t = quantize(x, 1, n, f, o);
  std::vector<float> y = dequantize(t);
  // Largest representable magnitude of each block, to count clamped inputs.
  const double max_normal = format_info(f).max_normal;
  double sum_x2 = 0, sum_e2 = 0, max_rel = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double xi = x[i], yi = y[i], e = xi - yi;
    sum_x2 += xi * xi;
    sum_e2 += e * e;
    if (xi != 0) {
      double rel = (e < 0 ? -e : e) / (xi < 0 ? -xi : xi);
      if (rel > max_rel) max_rel = rel;
      if (yi == 0) ++st.zeros;
    }
    double block_max = max_normal * static_cast<double>(decode_scale(t.scales[i / kBlockSize]));
    if ((xi < 0 ? -xi : xi) > block_max) ++st.clamped;
  }
  st.rmse = std::sqrt(sum_e2 / static_cast<double>(n));
  st.max_rel_error = max_rel;
  st.sqnr_db = sum_e2 == 0 ? std::numeric_limits<double>::infinity() : 10 * det_log10(sum_x2 / sum_e2);
  return st;
}

ErrorStats error_stats(Format f, const Options& o, Distribution d, std::size_t n, std::uint64_t seed) {
  std::vector<float> x = sample(d, n, seed);
  return error_stats(x.data(), n, f, o);
}

Histogram histogram(const float* x, std::size_t n, double lo, double hi, int bins) {
  Histogram h;
  h.lo = lo;
  h.hi = hi;
  h.counts.assign(static_cast<std::size_t>(bins > 0 ? bins : 1), 0);
  const double width = (hi - lo) / static_cast<double>(h.counts.size());
  for (std::size_t i = 0; i < n; ++i) {
    double v = x[i];
    if (v != v) ++h.nan;
    else if (v < lo) ++h.below;
    else if (v >= hi) ++h.above;
    else {
      std::size_t b = static_cast<std::size_t>((v - lo) / width);
      if (b >= h.counts.size()) b = h.counts.size() - 1;
      ++h.counts[b];
    }
  }
  return h;
}

std::vector<std::uint64_t> code_histogram(const Tensor& t) {
  const FormatInfo& fi = format_info(t.format);
  std::vector<std::uint64_t> counts(std::size_t{1} << fi.element_bits, 0);
  const std::size_t nb = t.blocks_per_row();
  for (std::size_t r = 0; r < t.rows; ++r)
    for (std::size_t b = 0; b < nb; ++b) {
      std::size_t valid = std::min<std::size_t>(kBlockSize, t.cols - b * kBlockSize);
      const std::uint8_t* p = t.row_elements(r) + b * static_cast<std::size_t>(fi.block_bytes);
      for (std::size_t i = 0; i < valid; ++i) ++counts[get_code(t.format, p, static_cast<int>(i))];
    }
  return counts;
}

}  // namespace trnsim::mx
