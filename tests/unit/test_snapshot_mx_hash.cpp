// Native and WebAssembly builds compute the same MX bits: an FNV-1a hash of quantize,
// dequantize, Dot, GEMM, samples and error statistics over a fixed pseudo-random and
// adversarial input set (own generator, no std:: distributions) must equal one constant,
// on every code path of this build. The same test runs natively (scalar, AVX2, AVX-512)
// and under node (scalar, WebAssembly SIMD128), so both builds must produce the constant.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/splitmix64.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_snapshot_mx_hash {

using namespace trnsim::mx;

namespace {

struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 0x100000001b3ull;
    }
  }
  void f32(float v) { bytes(&v, 4); }
  void f64(double v) { bytes(&v, 8); }
  void u64(std::uint64_t v) { bytes(&v, 8); }
};

using Rng = trnsim::SplitMix64;

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Inputs from bit patterns only (no libm): random magnitudes in a chosen binade range,
// element-grid ties, subnormals, zeros, NaN and Inf.
void input_block(Rng& r, Format f, float* x) {
  const int mode = static_cast<int>(r.below(8));
  const std::uint32_t binade = 60 + r.below(140);
  for (int i = 0; i < 32; ++i) {
    std::uint32_t sign = r.below(2) << 31, u;
    switch (mode) {
      case 0: u = sign; break;
      case 1: u = static_cast<std::uint32_t>(r.next()); break;
      case 2: u = sign | r.below(0x00800000u); break;
      case 3: {  // a grid value or midpoint of f, shifted by a power of two, nudged by an ulp
        std::uint8_t c = static_cast<std::uint8_t>(r.below(1u << (format_info(f).element_bits - 1)));
        float v = decode_element(f, c);
        if (!(v == v) || v > 1e30f) v = 1.0f;
        std::uint32_t vb;
        std::memcpy(&vb, &v, 4);
        if (r.below(2) && vb) vb += (1u << 22) >> format_info(f).mantissa_bits;  // halfway up
        u = vb ? (vb + (r.below(3) - 1u) + (static_cast<std::uint32_t>(binade) - 127u) * (1u << 23)) : 0;
        u = (u & 0x7FFFFFFFu) | sign;
        break;
      }
      default: u = sign | ((binade + r.below(12)) << 23) | r.below(0x00800000u); break;
    }
    x[i] = from_bits(u);
  }
  if (mode >= 4 && r.below(6) == 0) x[r.below(32)] = from_bits(r.below(2) ? 0x7FC00000u : 0xFF800000u);
}

Tensor random_tensor(Rng& r, Format f, std::size_t rows, std::size_t cols) {
  std::vector<float> x(rows * ((cols + 31) / 32) * 32);
  for (std::size_t b = 0; b * 32 < x.size(); ++b) input_block(r, f, x.data() + b * 32);
  std::vector<float> m(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) m[i * cols + j] = x[i * ((cols + 31) / 32) * 32 + j];
  return quantize(m.data(), rows, cols, f);
}

std::uint64_t mx_hash(Path p) {
  Fnv h;
  // quantize: every format, scale rule, overflow mode and flushing
  for (Format f : kAllFormats) {
    const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
    for (ScaleRule rule : {ScaleRule::floor, ScaleRule::rceil, ScaleRule::even, ScaleRule::nki}) {
      if (rule == ScaleRule::nki && is_narrow(f)) continue;
      for (Overflow o : {Overflow::saturate, Overflow::inf})
        for (bool flush : {false, true}) {
          Rng r(static_cast<std::uint64_t>(f) * 1000 + static_cast<std::uint64_t>(rule) * 10 +
                static_cast<std::uint64_t>(o) * 2 + flush);
          const std::size_t n = 300 * 32 + 7;
          std::vector<float> x(301 * 32);
          for (std::size_t b = 0; b < 301; ++b) input_block(r, f, x.data() + b * 32);
          std::vector<std::uint8_t> s(301), e(301 * bb);
          quantize_blocks(x.data(), n, f, Options{rule, o, flush}, s.data(), e.data(), p);
          h.bytes(s.data(), s.size());
          h.bytes(e.data(), e.size());
          // and back
          std::vector<float> y(n);
          dequantize_blocks(f, s.data(), e.data(), n, y.data(), p);
          h.bytes(y.data(), y.size() * 4);
        }
    }
  }
  // dequantize of arbitrary codes and scale bytes
  Rng r(99);
  for (Format f : kAllFormats) {
    const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
    std::vector<std::uint8_t> s(200), e(200 * bb);
    for (auto& v : s) v = static_cast<std::uint8_t>(r.next());
    for (auto& v : e) v = static_cast<std::uint8_t>(r.next());
    std::vector<float> y(200 * 32);
    dequantize_blocks(f, s.data(), e.data(), y.size(), y.data(), p);
    h.bytes(y.data(), y.size() * 4);
  }
  // Dot and GEMM over every pair of formats
  for (Format fa : kAllFormats)
    for (Format fb : kAllFormats) {
      Tensor a = random_tensor(r, fa, 1, 1000), b = random_tensor(r, fb, 1, 1000);
      h.f32(dot(a, b, p));
      const std::size_t M = 9, N = 21, K = 130;
      Tensor A = random_tensor(r, fa, M, K), Bt = random_tensor(r, fb, N, K);
      std::vector<float> c(M * N);
      gemm(A, Bt, c.data(), p);
      h.bytes(c.data(), c.size() * 4);
    }
  return h.h;
}

std::uint64_t stats_hash() {
  Fnv h;
  for (Distribution d : {Distribution::normal, Distribution::laplace, Distribution::uniform, Distribution::lognormal}) {
    std::vector<float> s = sample(d, 1001, 17);
    h.bytes(s.data(), s.size() * 4);
    for (Format f : kAllFormats) {
      ErrorStats e = error_stats(f, Options{}, d, 4000, 3);
      h.f64(e.rmse);
      h.f64(e.max_rel_error);
      h.f64(e.sqnr_db);
      h.u64(e.zeros);
      h.u64(e.clamped);
    }
  }
  for (double x : {1e-300, 0.1, 0.7, 1.0, 1.5, 2.0, 1e10, 1e300}) h.f64(det_log(x));
  for (double x : {-700.0, -3.3, -1e-9, 0.0, 0.5, 1.0, 2.5, 50.0, 700.0}) h.f64(det_exp(x));
  return h.h;
}

// NVFP4: quantize with the recipe's and given tensor scales (odd block counts, tails),
// dequantize, Dot and GEMM, and the error statistics.
std::uint64_t nv_hash(Path p) {
  Fnv h;
  Rng r(4242);
  for (float ts : {0.0f, 1.0f, 0x1p-126f, 0x1p64f, 0.013f}) {
    const std::size_t n = 301 * 32 - 9;
    std::vector<float> x(301 * 32);
    for (std::size_t b = 0; b < 301; ++b) input_block(r, Format::e2m1, x.data() + b * 32);
    const NvTensor t = quantize_nvfp4(x.data(), 1, n, NvOptions{ts}, p);
    h.f32(t.tensor_scale);
    h.bytes(t.scales.data(), t.scales.size());
    h.bytes(t.elements.data(), t.elements.size());
    const std::vector<float> y = dequantize(t, p);
    h.bytes(y.data(), y.size() * 4);
  }
  std::vector<float> xa(37 * 32), xb(86 * 32);  // at least 9 x 130 and 21 x 130 values
  for (std::size_t b = 0; b < 37; ++b) input_block(r, Format::e2m1, xa.data() + b * 32);
  for (std::size_t b = 0; b < 86; ++b) input_block(r, Format::e2m1, xb.data() + b * 32);
  const NvTensor A = quantize_nvfp4(xa.data(), 9, 130, {}, p), Bt = quantize_nvfp4(xb.data(), 21, 130, {}, p);
  std::vector<float> c(9 * 21);
  gemm(A, Bt, c.data(), p);
  h.bytes(c.data(), c.size() * 4);
  const NvTensor a = quantize_nvfp4(xa.data(), 1, 1000, {}, p), b = quantize_nvfp4(xb.data(), 1, 1000, {}, p);
  h.f32(dot(a, b, p));
  for (Distribution d : {Distribution::normal, Distribution::laplace, Distribution::uniform, Distribution::lognormal}) {
    const ErrorStats e = nv_error_stats(d, 4000, 3);
    h.f64(e.rmse);
    h.f64(e.max_rel_error);
    h.f64(e.sqnr_db);
    h.u64(e.zeros);
    h.u64(e.clamped);
  }
  return h.h;
}

constexpr std::uint64_t kNvHash = 0xee1bbf2538667bae;

constexpr std::uint64_t kMxHash = 0xc4fbc32579c2f963ull;
constexpr std::uint64_t kStatsHash = 0xc9b112f78ae0c2aeull;

}  // namespace

TEST_CASE("hash: MX bits are the same constant on every path of every build") {
  for (Path p : available_paths()) {
    const std::uint64_t got = mx_hash(p);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(got));
    INFO(path_name(p) << " hash " << hex);
    CHECK(got == kMxHash);
  }
  const std::uint64_t st = stats_hash();
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(st));
  INFO("error statistics hash " << hex);
  CHECK(st == kStatsHash);
}

TEST_CASE("hash: NVFP4 bits are the same constant on every path of every build") {
  for (Path p : available_paths()) {
    const std::uint64_t got = nv_hash(p);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(got));
    INFO(path_name(p) << " hash " << hex);
    CHECK(got == kNvHash);
  }
}

}  // namespace unit_snapshot_mx_hash
