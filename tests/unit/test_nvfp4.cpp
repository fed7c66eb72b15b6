// NVFP4 (core/mx/nvfp4.h): the recipe's steps checked against values worked out here (tensor
// scale amax / 2688, E4M3 block scale rounding and saturation, E2M1 ties to even, specials,
// tails), Dot and GEMM against the definition recomputed in double, and every SIMD path of
// the build against the scalar reference on random and adversarial data (natively AVX2 and
// AVX-512, under node WebAssembly SIMD128). The native/WebAssembly hash is in
// test_snapshot_mx_hash.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/splitmix64.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_nvfp4 {

using namespace trnsim::mx;

namespace {

using Rng = trnsim::SplitMix64;

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
int code_at(const NvTensor& t, std::size_t i) { return (t.elements[i / 2] >> ((i % 2) * 4)) & 0xF; }

// E2M1 magnitudes by code, written out (OCP MX v1.0 table).
const double kE2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
double e2m1_value(int code) { return (code & 8 ? -1 : 1) * kE2m1[code & 7]; }

// E4M3 value of a byte, written out: bias 7, 3 mantissa bits, S.1111.111 NaN.
double e4m3_value(int b) {
  const int e = (b >> 3) & 0xF, m = b & 7;
  if (e == 15 && m == 7) return std::nan("");
  const double mag = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return b & 0x80 ? -mag : mag;
}

// A block of 16 adversarial inputs: ties of the E2M1 grid under a random block scale, their
// FP32 neighbours, subnormals, zeros, huge and tiny binades, random bits, NaN/Inf.
void random_block(Rng& r, float* x) {
  const int mode = static_cast<int>(r.below(10));
  const int s = static_cast<int>(r.below(240)) - 120;
  for (int i = 0; i < 16; ++i) {
    float v = 0;
    switch (mode) {
      case 0: v = r.below(2) ? 0.0f : -0.0f; break;
      case 1: v = from_bits(static_cast<std::uint32_t>(r.next())); break;
      case 2: v = from_bits(static_cast<std::uint32_t>(r.below(0x00800000u)) | (r.below(2) << 31)); break;
      case 3:
      case 4:
      case 5: {  // grid values and midpoints times 2^s, nudged by an ulp
        const int k = static_cast<int>(r.below(7));
        const double base = r.below(2) ? kE2m1[k] : (kE2m1[k] + kE2m1[k + 1]) / 2;
        std::uint32_t u = bits_of(static_cast<float>(std::ldexp(base, s / 4)));
        if (u) u = static_cast<std::uint32_t>(static_cast<std::int64_t>(u) + static_cast<int>(r.below(3)) - 1);
        v = from_bits(u);
        if (r.below(2)) v = -v;
        break;
      }
      case 6: v = static_cast<float>(std::ldexp(r.unit() - 0.5, 120 + static_cast<int>(r.below(8)))); break;
      default: v = static_cast<float>(std::ldexp(r.unit() * 2 - 1, s / 3)); break;
    }
    x[i] = v;
  }
  if (mode >= 3 && r.below(10) == 0) x[r.below(16)] = r.below(2) ? std::nanf("") : from_bits(0xFF800000u);
}

std::vector<Path> simd_paths() {
  std::vector<Path> p;
  for (Path q : available_paths())
    if (q != Path::scalar) p.push_back(q);
  return p;
}

NvTensor random_codes(Rng& r, std::size_t rows, std::size_t cols, bool nan_scales) {
  NvTensor t = make_nv_tensor(rows, cols, static_cast<float>(std::ldexp(1.0 + r.unit(), static_cast<int>(r.below(60)) - 30)));
  for (auto& e : t.elements) e = static_cast<std::uint8_t>(r.next());
  for (auto& s : t.scales) {
    s = static_cast<std::uint8_t>(r.below(0x7F));  // positive E4M3 (no NaN)
    if (nan_scales && r.below(40) == 0) s = r.below(2) ? 0x7F : 0xFF;
  }
  // padding codes of a partial last block are zero, as quantize leaves them
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = cols; j < t.blocks_per_row() * 16; ++j)
      t.elements[i * t.row_element_bytes() + j / 2] &= static_cast<std::uint8_t>(j % 2 ? 0x0F : 0xF0);
  return t;
}

// Dot by the definition, recomputed from the written-out tables (double sums are exact here).
float dot_by_definition(const NvTensor& a, std::size_t ra, const NvTensor& b, std::size_t rb) {
  float c = 0.0f;
  bool nan = false;
  for (std::size_t blk = 0; blk < a.blocks_per_row(); ++blk) {
    const double xa = e4m3_value(a.row_scales(ra)[blk]), xb = e4m3_value(b.row_scales(rb)[blk]);
    if (std::isnan(xa) || std::isnan(xb)) nan = true;
    double s = 0;
    for (std::size_t i = 0; i < 16; ++i) {
      const std::size_t k = blk * 16 + i;
      const int ca = (a.row_elements(ra)[k / 2] >> ((k % 2) * 4)) & 0xF, cb = (b.row_elements(rb)[k / 2] >> ((k % 2) * 4)) & 0xF;
      s += e2m1_value(ca) * e2m1_value(cb);
    }
    c = c + static_cast<float>(s * xa * xb);  // s * xa * xb is exact in FP32
  }
  if (nan) return from_bits(0x7FC00000u);
  const float alpha = a.tensor_scale * b.tensor_scale;
  return c * alpha;
}

}  // namespace

TEST_CASE("nvfp4: the tensor scale is amax / (6 * 448), over finite values, at least 2^-126") {
  CHECK(nv_tensor_scale_for_amax(2688.0f) == 1.0f);
  CHECK(nv_tensor_scale_for_amax(5376.0f) == 2.0f);
  CHECK(nv_tensor_scale_for_amax(1.0f) == 1.0f / 2688.0f);
  CHECK(nv_tensor_scale_for_amax(0.0f) == 0x1p-126f);
  std::vector<float> x = {1.0f, -2688.0f * 4, std::nanf(""), INFINITY, 3.0f};
  for (Path p : available_paths()) CHECK(quantize_nvfp4(x, {}, p).tensor_scale == 4.0f);
  CHECK(quantize_nvfp4(std::vector<float>(40, 0.0f)).tensor_scale == 0x1p-126f);
  CHECK_THROWS_AS(quantize_nvfp4(x, NvOptions{1e36f}), trnsim::InputError);
  CHECK_THROWS_AS(quantize_nvfp4(x, NvOptions{-1.0f}), trnsim::InputError);
  CHECK_THROWS_AS(quantize_nvfp4(x, NvOptions{std::nanf("")}), trnsim::InputError);
}

TEST_CASE("nvfp4: E2M1 elements round to nearest even and saturate at 6") {
  // tensor scale 1 and a block amax of 6: block scale 6 / 6 = 1 (E4M3 0x38), elements as given
  const float in[16] = {6, 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5, 5.0001f, -0.75f, -0.1f, 0.2600001f, 4.9999f, -6, 0, 1};
  const int want[16] = {7, 0, 2, 2, 4, 4, 6, 6, 7, 0xA, 0x8, 1, 6, 0xF, 0, 2};
  for (Path p : available_paths()) {
    NvTensor t = quantize_nvfp4(in, 1, 16, NvOptions{1.0f}, p);
    INFO(path_name(p));
    CHECK(t.scales[0] == 0x38);
    for (int i = 0; i < 16; ++i) CHECK(code_at(t, static_cast<std::size_t>(i)) == want[i]);
  }
  // saturation: a tensor scale far below the recipe's clamps the block scale at 448 and the
  // elements at 6
  const float big[16] = {1e6f, -3e6f};
  NvTensor s = quantize_nvfp4(big, 1, 16, NvOptions{1.0f});
  CHECK(s.scales[0] == 0x7E);  // 448
  CHECK(code_at(s, 0) == 7);
  CHECK(code_at(s, 1) == 0xF);
  CHECK(nv_error_stats(big, 16, NvOptions{1.0f}).clamped == 2);
}

TEST_CASE("nvfp4: the block scale is E4M3(block amax / (6 * tensor scale)), ties to even") {
  // v = 13.5 lies halfway between the E4M3 values 13 (mantissa 101) and 14 (110): 14
  CHECK(e4m3_value(nv_block_scale(6.0f * 13.5f, 1.0f)) == 14.0);
  CHECK(e4m3_value(nv_block_scale(6.0f * 13.4f, 1.0f)) == 13.0);
  // subnormal E4M3 scales (below 2^-6) keep 3 bits of 2^-9
  CHECK(e4m3_value(nv_block_scale(6.0f * 0x1p-8f * 3, 1.0f)) == std::ldexp(3, -8));
  // the worked recipe on one block: amax 10, tensor amax 100
  float x[16] = {10, -7.3f, 0.02f};
  std::vector<float> v(x, x + 16);
  v.push_back(100.0f);  // a second block fixes the tensor amax
  NvTensor t = quantize_nvfp4(v);
  const float ts = 100.0f / 2688.0f;
  CHECK(t.tensor_scale == ts);
  const float six = 6.0f * ts, want_v = 10.0f / six;
  const std::uint8_t sb = t.scales[0];
  // the E4M3 value nearest to want_v (no tie here): search the positive codes
  int best = 0;
  for (int c = 0; c < 0x7F; ++c)
    if (std::fabs(e4m3_value(c) - want_v) < std::fabs(e4m3_value(best) - want_v)) best = c;
  CHECK(sb == best);
  const float den = static_cast<float>(e4m3_value(sb)) * ts;
  const std::vector<float> y = dequantize(t);
  for (int i = 0; i < 3; ++i) {
    // the E2M1 value nearest to x / den (no ties in this data), times den, rounded once
    const float q = x[i] / den;
    double bestv = 0;
    for (int c = 0; c < 16; ++c)
      if (std::fabs(e2m1_value(c) - q) < std::fabs(bestv - q)) bestv = e2m1_value(c);
    CHECK(y[static_cast<std::size_t>(i)] == static_cast<float>(bestv) * den);
  }
}

TEST_CASE("nvfp4: zero, NaN/Inf and underflowing blocks; tails padded with zeros") {
  std::vector<float> x(37, 0.0f);
  x[0] = -0.0f;
  x[16] = 1.0f;
  x[17] = std::nanf("");
  x[32] = 2688.0f;   // tensor amax: scale 1
  x[33] = 1e-6f;     // with 2688 in the block: 1e-6 / (448 * 1) rounds to E2M1 zero
  x[36] = -5e-3f;
  for (Path p : available_paths()) {
    INFO(path_name(p));
    NvTensor t = quantize_nvfp4(x, {}, p);
    REQUIRE(t.scales.size() == 3);
    REQUIRE(t.elements.size() == 24);
    CHECK(t.tensor_scale == 1.0f);
    CHECK(t.scales[0] == 0x38);  // all zero: 1.0
    CHECK(code_at(t, 0) == 8);   // -0 keeps its sign
    CHECK(t.scales[1] == kNvScaleNaN);
    for (std::size_t i = 16; i < 32; ++i) CHECK(code_at(t, i) == 0);
    CHECK(t.scales[2] == 0x7E);  // 2688 / 6 = 448
    CHECK(code_at(t, 32) == 7);
    CHECK(code_at(t, 33) == 0);
    for (std::size_t i = 37; i < 48; ++i) CHECK(code_at(t, i) == 0);  // padding
    const std::vector<float> y = dequantize(t, p);
    REQUIRE(y.size() == 37);
    CHECK(bits_of(y[0]) == 0x80000000u);
    for (std::size_t i = 16; i < 32; ++i) CHECK(bits_of(y[i]) == 0x7FC00000u);
    CHECK(y[32] == 2688.0f);
  }
  // a block scale that rounds to E4M3 zero gives signed zero codes
  const float tiny[32] = {1e-9f, -1e-9f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0f};
  for (Path p : available_paths()) {
    NvTensor t = quantize_nvfp4(tiny, 1, 32, NvOptions{1.0f}, p);
    CHECK(t.scales[0] == 0x00);
    CHECK(code_at(t, 0) == 0);
    CHECK(code_at(t, 1) == 8);
  }
}

TEST_CASE("nvfp4: Dot and GEMM equal the definition recomputed in double") {
  Rng r(7);
  for (std::size_t k : {16u, 37u, 160u, 1000u}) {
    NvTensor a = random_codes(r, 1, k, true), b = random_codes(r, 1, k, true);
    const float want = dot_by_definition(a, 0, b, 0);
    for (Path p : available_paths()) {
      INFO(path_name(p) << " k " << k);
      CHECK(bits_of(dot(a, b, p)) == bits_of(want));
    }
  }
  const std::size_t M = 7, N = 19, K = 90;
  NvTensor A = random_codes(r, M, K, true), Bt = random_codes(r, N, K, true);
  for (Path p : available_paths()) {
    std::vector<float> c(M * N);
    gemm(A, Bt, c.data(), p);
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        INFO(path_name(p) << " " << i << "," << j);
        CHECK(bits_of(c[i * N + j]) == bits_of(dot_by_definition(A, i, Bt, j)));
      }
  }
  CHECK_THROWS_AS(dot(random_codes(r, 1, 16, false), random_codes(r, 1, 32, false)), trnsim::InputError);
  NvTensor bad = random_codes(r, 1, 16, false);
  bad.tensor_scale = 0;
  CHECK_THROWS_AS(dequantize(bad), trnsim::InputError);
  bad = random_codes(r, 1, 16, false);
  bad.scales.pop_back();
  CHECK_THROWS_AS(dequantize(bad), trnsim::InputError);
}

TEST_CASE("nvfp4: every SIMD path gives the reference's bits") {
  Rng r(11);
  const std::size_t kBlocks = 20001;  // odd: a last unpaired block
  std::vector<float> x(kBlocks * 16);
  for (float ts : {0.0f, 1.0f, 0x1p-126f, 0x1p64f, 3.7e-5f}) {
    for (std::size_t b = 0; b < kBlocks; ++b) random_block(r, x.data() + b * 16);
    for (std::size_t cols : {x.size(), x.size() - 5}) {
      const NvTensor ref = quantize_nvfp4(x.data(), 1, cols, NvOptions{ts}, Path::scalar);
      const std::vector<float> yref = dequantize(ref, Path::scalar);
      for (Path p : simd_paths()) {
        INFO(path_name(p) << " tensor scale " << ts << " cols " << cols);
        const NvTensor t = quantize_nvfp4(x.data(), 1, cols, NvOptions{ts}, p);
        CHECK(bits_of(t.tensor_scale) == bits_of(ref.tensor_scale));
        std::size_t bad = 0;
        for (std::size_t b = 0; b < ref.scales.size() && bad < 3; ++b)
          if (t.scales[b] != ref.scales[b] || std::memcmp(&t.elements[b * 8], &ref.elements[b * 8], 8) != 0) {
            std::string in;
            for (std::size_t i = b * 16; i < b * 16 + 16 && i < cols; ++i) in += std::to_string(bits_of(x[i])) + " ";
            FAIL_CHECK("block " << b << " scale " << int(ref.scales[b]) << " vs " << int(t.scales[b]) << " input bits " << in);
            ++bad;
          }
        const std::vector<float> y = dequantize(ref, p);
        CHECK(std::memcmp(y.data(), yref.data(), y.size() * 4) == 0);
      }
    }
  }
  // dequantize, Dot and GEMM of random codes and scale bytes (NaN and negative scales too)
  for (int rep = 0; rep < 20; ++rep) {
    NvTensor t = random_codes(r, 3, 16 * static_cast<std::size_t>(rep) + 5, true);
    for (auto& s : t.scales)
      if (r.below(10) == 0) s = static_cast<std::uint8_t>(r.next());
    const std::vector<float> yref = dequantize(t, Path::scalar);
    NvTensor a = random_codes(r, 1, 16 * static_cast<std::size_t>(rep) * 7 + 3, true);
    NvTensor b = random_codes(r, 1, a.cols, true);
    const float dref = dot(a, b, Path::scalar);
    const std::size_t M = 1 + r.below(9), N = 1 + r.below(40), K = 1 + r.below(200);
    NvTensor A = random_codes(r, M, K, true), Bt = random_codes(r, N, K, true);
    std::vector<float> cref(M * N), c(M * N);
    gemm(A, Bt, cref.data(), Path::scalar);
    for (Path p : simd_paths()) {
      INFO(path_name(p) << " rep " << rep);
      const std::vector<float> y = dequantize(t, p);
      CHECK(std::memcmp(y.data(), yref.data(), y.size() * 4) == 0);
      CHECK(bits_of(dot(a, b, p)) == bits_of(dref));
      std::fill(c.begin(), c.end(), -1.0f);  // not the previous path's outputs
      gemm(A, Bt, c.data(), p);
      CHECK(std::memcmp(c.data(), cref.data(), c.size() * 4) == 0);
    }
  }
  // a long K (the AVX-512 GEMM splits M into row chunks sized for L2: 16 rows here, so 40
  // rows make three chunks, the last one partial) and negative scale bytes; no NaN scale
  // (over 1024 blocks one would make every output NaN)
  {
    const std::size_t M = 40, N = 37, K = 16384;
    NvTensor A = random_codes(r, M, K, false), Bt = random_codes(r, N, K, false);
    for (NvTensor* t : {&A, &Bt})
      for (auto& s : t->scales)
        if (r.below(8) == 0) s = static_cast<std::uint8_t>(0x80 | r.below(0x7F));  // -E4M3
    std::vector<float> cref(M * N), c(M * N);
    gemm(A, Bt, cref.data(), Path::scalar);
    std::size_t finite = 0;
    for (float v : cref) finite += std::isfinite(v) && v != 0.0f;
    CHECK(finite > M * N / 2);
    for (Path p : simd_paths()) {
      INFO(path_name(p) << " long K");
      std::fill(c.begin(), c.end(), -1.0f);  // every output must be written
      gemm(A, Bt, c.data(), p);
      CHECK(std::memcmp(c.data(), cref.data(), c.size() * 4) == 0);
    }
  }
}

TEST_CASE("nvfp4: on the same samples NVFP4's error is below MXFP4's") {
  // NVFP4's finer scales (E4M3 per 16 against E8M0 per 32) cut the round-trip error of
  // normal data; computed here from the two formats' own statistics, not a stored figure.
  for (Distribution d : {Distribution::normal, Distribution::laplace, Distribution::uniform}) {
    const std::vector<float> x = sample(d, 16384, 5);
    const ErrorStats mx4 = error_stats(x.data(), x.size(), Format::e2m1, Options{});
    const ErrorStats nv4 = nv_error_stats(x.data(), x.size());
    INFO(distribution_name(d) << " MXFP4 " << mx4.sqnr_db << " dB, NVFP4 " << nv4.sqnr_db << " dB");
    CHECK(nv4.sqnr_db > mx4.sqnr_db);
    CHECK(nv4.rmse < mx4.rmse);
    // the statistics follow from the round trip
    const std::vector<float> y = dequantize(quantize_nvfp4(x));
    double se = 0;
    for (std::size_t i = 0; i < x.size(); ++i) se += (double(x[i]) - y[i]) * (double(x[i]) - y[i]);
    CHECK(nv4.rmse == Approx(std::sqrt(se / double(x.size()))).epsilon(1e-12));
  }
}

}  // namespace unit_nvfp4
