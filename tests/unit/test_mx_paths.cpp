// Every MX code path gives the scalar reference's bits: quantize (all formats, scale rules,
// overflow modes, flushing) on about a million random and adversarial blocks, dequantize of
// random codes and scale bytes, Dot/DotGeneral and GEMM over every pair of element formats
// with random codes (NaN/Inf codes included) and scale bytes that make the kernels fall
// back to the reference for some tiles. Natively this compares AVX2 and AVX-512 (with and
// without BF16) against scalar; under node, WebAssembly SIMD128 against scalar.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/splitmix64.h"
#include "mx/mx.h"
#include "mx/mx_internal.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_mx_paths {

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

// Non-negative finite element values of a format, ascending (from the decoder).
std::vector<float> grid(Format f) {
  std::vector<float> v;
  const int n = f == Format::int8 ? 128 : 1 << (format_info(f).element_bits - 1);
  for (int c = 0; c < n; ++c) {
    float x = decode_element(f, static_cast<std::uint8_t>(c));
    if (std::isfinite(x)) v.push_back(x);
  }
  return v;
}

// One block of 32 inputs, adversarial for format f: ties, neighbours of ties, block maxima
// around the clamp thresholds, subnormals, zeros, NaN/Inf, extreme exponents, random bits.
void random_block(Rng& r, const std::vector<float>& g, float* x) {
  const int mode = static_cast<int>(r.below(16));
  const int s = static_cast<int>(r.below(200)) - 100;  // block binade shift
  for (int i = 0; i < 32; ++i) {
    float v = 0;
    switch (mode) {
      case 0: v = r.below(2) ? 0.0f : -0.0f; break;
      case 1: v = from_bits(static_cast<std::uint32_t>(r.next())); break;  // any bits
      case 2: v = from_bits(static_cast<std::uint32_t>(r.below(0x00800000u)) | (r.below(2) << 31)); break;
      case 3:
        v = r.below(4) ? from_bits(static_cast<std::uint32_t>(r.below(0x01000000u)) | (r.below(2) << 31))
                       : static_cast<float>(std::ldexp(r.unit(), -120));
        break;
      case 4: v = static_cast<float>(std::ldexp(r.unit() - 0.5, 125 + static_cast<int>(r.below(4)))); break;
      case 5:
      case 6:
      case 7:
      case 8: {
        // grid values, midpoints and their FP32 neighbours, at binade shift s
        std::size_t k = r.below(static_cast<std::uint32_t>(g.size()));
        double a = g[k], b = k + 1 < g.size() ? g[k + 1] : g[k] * 2;
        double base = r.below(3) == 0 ? a : (a + b) / 2;
        float fv = static_cast<float>(std::ldexp(base, s));
        int nudge = static_cast<int>(r.below(5)) - 2;
        std::uint32_t u = bits_of(fv);
        if (u != 0 && std::isfinite(fv)) u = static_cast<std::uint32_t>(static_cast<std::int64_t>(u) + nudge);
        v = from_bits(u);
        if (r.below(2)) v = -v;
        break;
      }
      case 9: {
        // block maximum with a significand near the floor rule's clamp thresholds
        double sig = 1.0 + r.unit();
        if (r.below(2)) sig = (r.below(2) ? 1.75 : r.below(2) ? 1.5 : 1.875) + (r.unit() - 0.5) * 1e-6;
        v = static_cast<float>(std::ldexp(sig * (i == 0 ? 1.0 : r.unit()), s));
        if (r.below(2)) v = -v;
        break;
      }
      default:
        v = static_cast<float>(std::ldexp(r.unit() * 2 - 1, s / 4 + static_cast<int>(r.below(8))));
        break;
    }
    x[i] = v;
  }
  if (mode >= 5 && r.below(8) == 0) x[r.below(32)] = r.below(2) ? std::nanf("") : from_bits(0xFF800000u);
}

std::vector<Path> simd_paths() {
  std::vector<Path> p;
  for (Path q : available_paths())
    if (q != Path::scalar) p.push_back(q);
  return p;
}

}  // namespace

TEST_CASE("paths: this build has the expected SIMD paths") {
  std::vector<Path> p = available_paths();
  REQUIRE(!p.empty());
  CHECK(p.front() == Path::scalar);
  CHECK(best_path() == p.back());
#if defined(__wasm_simd128__)
  CHECK(p.back() == Path::wasm_simd);
#endif
  for (Path q : p) INFO(path_name(q));
  WARN("paths: " << [&] {
    std::string s;
    for (Path q : p) s += std::string(path_name(q)) + " ";
    return s;
  }());
#if defined(__wasm_simd128__)
  CHECK_THROWS_AS(resolve_path(Path::avx2), trnsim::InputError);
#else
  CHECK_THROWS_AS(resolve_path(Path::wasm_simd), trnsim::InputError);
#endif
}

TEST_CASE("paths: quantize matches the reference on ~1M random and adversarial blocks") {
  const std::size_t kBlocks = 12000;
  std::vector<float> x(kBlocks * 32);
  std::size_t configs = 0;
  for (Format f : kAllFormats) {
    const std::vector<float> g = grid(f);
    const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
    std::vector<std::uint8_t> s_ref(kBlocks), e_ref(kBlocks * bb), s_simd(kBlocks), e_simd(kBlocks * bb);
    for (ScaleRule rule : {ScaleRule::floor, ScaleRule::rceil, ScaleRule::even, ScaleRule::nki}) {
      if (rule == ScaleRule::nki && is_narrow(f)) continue;
      for (Overflow ovf : {Overflow::saturate, Overflow::inf}) {
        for (bool flush : {false, true}) {
          Options o{rule, ovf, flush};
          Rng rng(1000 + configs++);
          for (std::size_t b = 0; b < kBlocks; ++b) random_block(rng, g, x.data() + b * 32);
          quantize_blocks(x.data(), x.size(), f, o, s_ref.data(), e_ref.data(), Path::scalar);
          for (Path p : simd_paths()) {
            quantize_blocks(x.data(), x.size(), f, o, s_simd.data(), e_simd.data(), p);
            for (std::size_t b = 0; b < kBlocks; ++b) {
              bool same = s_ref[b] == s_simd[b] && std::memcmp(&e_ref[b * bb], &e_simd[b * bb], bb) == 0;
              if (!same) {
                std::string in;
                for (int i = 0; i < 32; ++i) in += std::to_string(bits_of(x[b * 32 + i])) + " ";
                FAIL_CHECK(path_name(p) << " " << format_name(f) << " " << scale_rule_name(rule) << " "
                                        << overflow_name(ovf) << (flush ? " flush" : "") << " block " << b
                                        << " scale " << int(s_ref[b]) << " vs " << int(s_simd[b]) << " input bits "
                                        << in);
                break;
              }
            }
          }
        }
      }
    }
  }
  CHECK(configs * kBlocks >= 900000);
}

TEST_CASE("paths: dequantize of random codes and scale bytes matches the reference") {
  const std::size_t kBlocks = 40000;
  Rng rng(7);
  for (Format f : kAllFormats) {
    const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
    std::vector<std::uint8_t> s(kBlocks), e(kBlocks * bb);
    for (auto& v : e) v = static_cast<std::uint8_t>(rng.next());
    for (std::size_t b = 0; b < kBlocks; ++b) {
      std::uint32_t k = rng.below(8);
      s[b] = k == 0 ? 0xFF : k == 1 ? 0 : k == 2 ? 254 : static_cast<std::uint8_t>(rng.next());
    }
    std::vector<float> ref(kBlocks * 32 - 5), out(ref.size());
    dequantize_blocks(f, s.data(), e.data(), ref.size(), ref.data(), Path::scalar);
    for (Path p : simd_paths()) {
      dequantize_blocks(f, s.data(), e.data(), out.size(), out.data(), p);
      CHECK(std::memcmp(ref.data(), out.data(), ref.size() * 4) == 0);
    }
  }
}

namespace {

// Random MX operand: codes uniform over the code space, scale bytes mostly near 127
// (kernels run), some extreme or NaN (reference fallback).
Tensor random_tensor(Rng& r, Format f, std::size_t rows, std::size_t cols, int extreme_per_mille) {
  Tensor t = make_tensor(f, rows, cols);
  for (auto& v : t.elements) v = static_cast<std::uint8_t>(r.next());
  // keep FP6 / FP4 padding bits in range: re-pack through the codes
  const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
  for (std::size_t b = 0; b < t.scales.size(); ++b) {
    std::uint8_t codes[32];
    for (int i = 0; i < 32; ++i) codes[i] = get_code(f, &t.elements[b * bb], i);
    for (int i = 0; i < 32; ++i) set_code(f, &t.elements[b * bb], i, codes[i]);
    std::uint32_t k = r.below(1000);
    if (static_cast<int>(k) < extreme_per_mille) {
      std::uint32_t w = r.below(4);
      t.scales[b] = w == 0 ? 0xFF : w == 1 ? 0 : w == 2 ? 254 : static_cast<std::uint8_t>(r.next());
    } else {
      t.scales[b] = static_cast<std::uint8_t>(100 + r.below(55));
    }
  }
  // zero the codes past cols in the last block of each row (padding is zero)
  const std::size_t nb = t.blocks_per_row();
  for (std::size_t row = 0; row < rows; ++row)
    for (std::size_t c = cols; c < nb * 32; ++c)
      set_code(f, &t.elements[row * t.row_element_bytes() + (c / 32) * bb], static_cast<int>(c % 32), 0);
  return t;
}

}  // namespace

TEST_CASE("paths: Dot and DotGeneral over every format pair match the reference") {
  Rng rng(11);
  std::size_t blocks = 0;
  for (Format fa : kAllFormats)
    for (Format fb : kAllFormats)
      for (int rep = 0; rep < 60; ++rep) {
        const std::size_t n = 1 + rng.below(48 * 32);
        Tensor a = random_tensor(rng, fa, 1, n, rep % 3 == 0 ? 50 : 0);
        Tensor b = random_tensor(rng, fb, 1, n, rep % 3 == 0 ? 50 : 0);
        const float ref = dot(a, b, Path::scalar);
        blocks += a.blocks_per_row();
        for (Path p : simd_paths()) {
          const float d = dot(a, b, p);
          INFO(path_name(p) << " " << format_name(fa) << " x " << format_name(fb) << " n " << n);
          CHECK(bits_of(d) == bits_of(ref));
        }
      }
  CHECK(blocks > 40000);
}

TEST_CASE("paths: GEMM over every format pair matches the reference, fallback tiles included") {
  Rng rng(21);
  const bool bf16_before = trnsim::mx::detail::set_avx512_bf16_allowed(true);
  using trnsim::mx::detail::GemmChunks;
  // cache-sized chunks, and forced small ones: every output then continues its sum
  // across several K chunks and row chunks
  for (GemmChunks chunks : {GemmChunks{0, 0}, GemmChunks{1, 1}, GemmChunks{3, 2}}) {
    const GemmChunks chunks_before = trnsim::mx::detail::set_gemm_chunks(chunks);
    for (int bf16 = 0; bf16 < 2; ++bf16) {
      trnsim::mx::detail::set_avx512_bf16_allowed(bf16 == 1);
      for (Format fa : kAllFormats)
        for (Format fb : kAllFormats) {
          const std::size_t M = 1 + rng.below(13), N = 1 + rng.below(70), K = 1 + rng.below(300);
          const int extreme = rng.below(2) ? 3 : 0;
          Tensor a = random_tensor(rng, fa, M, K, extreme);
          Tensor bt = random_tensor(rng, fb, N, K, extreme);
          std::vector<float> ref(M * N), out(M * N);
          gemm(a, bt, ref.data(), Path::scalar);
          for (Path p : simd_paths()) {
            if (bf16 == 1 && p != Path::avx512) continue;
            std::fill(out.begin(), out.end(), -1.0f);  // not the previous path's outputs
            gemm(a, bt, out.data(), p);
            INFO(path_name(p) << (bf16 ? " bf16" : "") << " " << format_name(fa) << " x " << format_name(fb) << " M "
                              << M << " N " << N << " K " << K << " chunks " << chunks.k_blocks << " x "
                              << chunks.row_tiles);
            CHECK(std::memcmp(ref.data(), out.data(), ref.size() * 4) == 0);
            // packed once, reused (the matrix-vector form: 1 x K times N x K)
            PackedB packed = pack_b(bt, fa, p);
            Tensor row = random_tensor(rng, fa, 1, K, 0);
            std::vector<float> y_ref(N), y(N);
            gemm(row, bt, y_ref.data(), Path::scalar);
            std::fill(y.begin(), y.end(), -1.0f);
            gemm(row, packed, y.data());
            CHECK(std::memcmp(y_ref.data(), y.data(), N * 4) == 0);
          }
        }
    }
    trnsim::mx::detail::set_gemm_chunks(chunks_before);
  }
  trnsim::mx::detail::set_avx512_bf16_allowed(bf16_before);
}

TEST_CASE("paths: quantized real data through GEMM, larger shapes") {
  Rng rng(5);
  for (auto [fa, fb] : {std::pair{Format::e2m1, Format::e2m1}, std::pair{Format::e4m3, Format::e2m1},
                        std::pair{Format::e2m1, Format::e4m3}, std::pair{Format::e4m3, Format::e4m3},
                        std::pair{Format::int8, Format::e2m1}, std::pair{Format::e3m2, Format::e5m2}}) {
    const std::size_t M = 37, N = 83, K = 1000;
    std::vector<float> av = sample(Distribution::normal, M * K, rng.next());
    std::vector<float> bv = sample(Distribution::laplace, N * K, rng.next());
    Tensor a = quantize(av.data(), M, K, fa), bt = quantize(bv.data(), N, K, fb);
    std::vector<float> ref(M * N), out(M * N);
    gemm(a, bt, ref.data(), Path::scalar);
    for (Path p : simd_paths()) {
      std::fill(out.begin(), out.end(), -1.0f);  // not the previous path's outputs
      gemm(a, bt, out.data(), p);
      INFO(path_name(p) << " " << format_name(fa) << " x " << format_name(fb));
      CHECK(std::memcmp(ref.data(), out.data(), ref.size() * 4) == 0);
    }
  }
}

// The GEMM kernels apply block scales to the elements up front when every scale of a row or
// panel lies in a range where no product or partial sum leaves the normal FP32 range
// (core/mx/mx_gemm.cpp, prescaling). Sweep each operand's scale byte over every value from
// far below to far above any such range, alone and against the other operand at its own
// extreme, with some rows at a neutral scale (tiles that mix prescaled and unscaled rows) and
// some all-zero blocks carrying out-of-range or NaN scales: the bits must be the reference's
// at every scale, whatever range the kernels choose.
TEST_CASE("paths: GEMM at every scale byte around the prescaling range matches the reference") {
  Rng rng(31);
  const bool bf16_before = trnsim::mx::detail::set_avx512_bf16_allowed(true);
  std::size_t gemms = 0;
  for (Format fa : kAllFormats)
    for (Format fb : kAllFormats) {
      const std::size_t M = 5, N = 17, K = 70;
      Tensor a = random_tensor(rng, fa, M, K, 0);
      Tensor bt = random_tensor(rng, fb, N, K, 0);
      const std::size_t abb = static_cast<std::size_t>(format_info(fa).block_bytes);
      for (int s = 30; s <= 225; ++s) {
        // three cases a scale: A swept (B neutral), B swept (A neutral), both swept together
        // (their products then leave the FP32 range at both ends)
        for (int c = 0; c < 3; ++c) {
          const int sa = c == 1 ? 127 : s, sb = c == 0 ? 127 : s;
          for (std::size_t i = 0; i < a.scales.size(); ++i) a.scales[i] = static_cast<std::uint8_t>(sa);
          for (std::size_t i = 0; i < bt.scales.size(); ++i) bt.scales[i] = static_cast<std::uint8_t>(sb);
          if (s % 7 == 0) a.scales[0] = 127;  // a neutral row 0 beside swept rows
          if (s % 5 == 0) {                   // an all-zero block with a NaN or extreme scale
            std::memset(&a.elements[a.row_element_bytes()], 0, abb);
            a.scales[a.blocks_per_row()] = s % 10 == 0 ? 0xFF : 0;
          }
          std::vector<float> ref(M * N), out(M * N);
          gemm(a, bt, ref.data(), Path::scalar);
          for (Path p : simd_paths()) {
            std::fill(out.begin(), out.end(), -1.0f);  // not the previous path's outputs
            gemm(a, bt, out.data(), p);
            INFO(path_name(p) << " " << format_name(fa) << " x " << format_name(fb) << " scales " << sa << " / " << sb);
            CHECK(std::memcmp(ref.data(), out.data(), ref.size() * 4) == 0);
          }
          ++gemms;
        }
      }
    }
  CHECK(gemms == kAllFormats.size() * kAllFormats.size() * 196 * 3);
  trnsim::mx::detail::set_avx512_bf16_allowed(bf16_before);
}

}  // namespace unit_mx_paths
