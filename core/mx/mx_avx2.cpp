// MX kernels for x86-64 AVX2 + FMA, 8 lanes. Compiled with -mavx2 -mfma (module.cmake)
// and entered only after mx.cpp checked the CPU. GEMM: exact integer block sums with
// VPMADDUBSW (E2M1/E2M3 B, whose digits + 64 are the unsigned operand, times E2M1/E2M3/
// INT8 A: a pair of products stays below 2 * 124 * 128 < 32767, never saturating; corrected
// by 64 * sum(A)) or VPMADDWD (the other narrow pairs: E3M2, INT8 B); FP8 operands with FP32 FMA (exact products, so FMA equals multiply-then-
// add). Every result equals the scalar reference bit for bit (see mx.h).
#include "mx/mx_internal.h"

#if defined(__AVX2__) && defined(__FMA__)
#define TRNSIM_MX_AVX2 1
#include <immintrin.h>
#endif

namespace trnsim::mx::detail {

#if TRNSIM_MX_AVX2
namespace {

constexpr bool kKeepMags = true;  // quantize: store |x| in the first pass, or recompute it
constexpr int L = 8;
struct VI {
  __m256i v;
};
struct VF {
  __m256 v;
};
struct VM {
  __m256i m;
};

inline VI vi(std::int32_t x) { return {_mm256_set1_epi32(x)}; }
inline VF vf(float x) { return {_mm256_set1_ps(x)}; }
inline VF ldf(const float* p) { return {_mm256_loadu_ps(p)}; }
inline void stf(float* p, VF a) { _mm256_storeu_ps(p, a.v); }
inline VI asi(VF a) { return {_mm256_castps_si256(a.v)}; }
inline VF asf(VI a) { return {_mm256_castsi256_ps(a.v)}; }
inline VI band(VI a, VI b) { return {_mm256_and_si256(a.v, b.v)}; }
inline VI bor(VI a, VI b) { return {_mm256_or_si256(a.v, b.v)}; }
inline VI badd(VI a, VI b) { return {_mm256_add_epi32(a.v, b.v)}; }
inline VI bsub(VI a, VI b) { return {_mm256_sub_epi32(a.v, b.v)}; }
template <int N>
inline VI shl(VI a) {
  return {_mm256_slli_epi32(a.v, N)};
}
template <int N>
inline VI shr(VI a) {
  return {_mm256_srli_epi32(a.v, N)};
}
template <int N>
inline VI sar(VI a) {
  return {_mm256_srai_epi32(a.v, N)};
}
// code | the sign bit of b moved S places right
template <int S>
inline VI or_sign(VI code, VI b) {
  return {_mm256_or_si256(code.v, _mm256_srli_epi32(_mm256_and_si256(b.v, _mm256_set1_epi32(INT32_MIN)), S))};
}
inline VI imax(VI a, VI b) { return {_mm256_max_epi32(a.v, b.v)}; }
inline VI imin(VI a, VI b) { return {_mm256_min_epi32(a.v, b.v)}; }
inline VM igt(VI a, VI b) { return {_mm256_cmpgt_epi32(a.v, b.v)}; }
inline VM ieq(VI a, VI b) { return {_mm256_cmpeq_epi32(a.v, b.v)}; }
inline VI isel(VM m, VI f, VI t) { return {_mm256_blendv_epi8(f.v, t.v, m.m)}; }
inline VF fsel(VM m, VF f, VF t) { return {_mm256_blendv_ps(f.v, t.v, _mm256_castsi256_ps(m.m))}; }
inline VF fadd(VF a, VF b) { return {_mm256_add_ps(a.v, b.v)}; }
inline VF fmul(VF a, VF b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline VF fdiv(VF a, VF b) { return {_mm256_div_ps(a.v, b.v)}; }
// round to nearest even explicitly (not through MXCSR), then an exact conversion
inline VI cvt_rne(VF a) {
  return {_mm256_cvttps_epi32(_mm256_round_ps(a.v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))};
}
inline VF cvt_f(VI a) { return {_mm256_cvtepi32_ps(a.v)}; }
inline std::int32_t hmax(VI a) {
  __m128i m = _mm_max_epi32(_mm256_castsi256_si128(a.v), _mm256_extracti128_si256(a.v, 1));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  return _mm_cvtsi128_si32(m);
}
// Lane g of the result: the largest lane of v[g] (8 vectors).
inline VI hmax_group(const VI* v) {
  __m256i t[4], u[2];
  for (int i = 0; i < 4; ++i)
    t[i] = _mm256_max_epi32(_mm256_unpacklo_epi32(v[2 * i].v, v[2 * i + 1].v),
                            _mm256_unpackhi_epi32(v[2 * i].v, v[2 * i + 1].v));
  for (int i = 0; i < 2; ++i)
    u[i] = _mm256_max_epi32(_mm256_unpacklo_epi64(t[2 * i], t[2 * i + 1]), _mm256_unpackhi_epi64(t[2 * i], t[2 * i + 1]));
  return {_mm256_max_epi32(_mm256_permute2x128_si256(u[0], u[1], 0x20), _mm256_permute2x128_si256(u[0], u[1], 0x31))};
}
// E2M1 code -> value: magnitude from an 8-entry table, then the sign bit
inline VF lut_e2m1(VI c) {
  const __m256 mag = _mm256_permutevar8x32_ps(_mm256_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f), c.v);
  return {_mm256_or_ps(mag, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_srli_epi32(c.v, 3), 31)))};
}
// (a0, b0, a1, b1, ...) over two vectors
inline void interleave(VF a, VF b, VF& o0, VF& o1) {
  const __m256 t0 = _mm256_unpacklo_ps(a.v, b.v), t1 = _mm256_unpackhi_ps(a.v, b.v);
  o0.v = _mm256_permute2f128_ps(t0, t1, 0x20);
  o1.v = _mm256_permute2f128_ps(t0, t1, 0x31);
}
inline unsigned mask_bits(VM m) { return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m.m))); }
inline void st_u8(std::uint8_t* p, VI v) {
  const __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(v.v), _mm256_extracti128_si256(v.v, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(w, w));
}
inline __m256i codes_packed(const VI* c) {
  const __m256i t0 = _mm256_packus_epi32(c[0].v, c[1].v), t1 = _mm256_packus_epi32(c[2].v, c[3].v);
  return _mm256_permutevar8x32_epi32(_mm256_packus_epi16(t0, t1), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
// 32 codes (< 16) -> 16 bytes, code 2i in the low nibble of byte i.
inline void codes_to_nibbles(const VI* c, std::uint8_t* out) {
  const __m256i w = codes_packed(c);
  const __m256i lo = _mm256_and_si256(w, _mm256_set1_epi16(0x000F));
  const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(w, 4), _mm256_set1_epi16(0x00F0));
  const __m256i n = _mm256_or_si256(lo, hi);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm_packus_epi16(_mm256_castsi256_si128(n), _mm256_extracti128_si256(n, 1)));
}
inline VI ld_u8(const std::uint8_t* p) {
  return {_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)))};
}
inline void codes_to_bytes(const VI* c, std::uint8_t* out) {
  const __m256i t0 = _mm256_packus_epi32(c[0].v, c[1].v), t1 = _mm256_packus_epi32(c[2].v, c[3].v);
  const __m256i u = _mm256_packus_epi16(t0, t1);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_permutevar8x32_epi32(u, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
inline void nibbles_to_bytes(const std::uint8_t* in, std::uint8_t* out) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  const __m128i m = _mm_set1_epi8(0x0F);
  const __m128i lo = _mm_and_si128(v, m), hi = _mm_and_si128(_mm_srli_epi16(v, 4), m);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi8(lo, hi));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi8(lo, hi));
}
// E2M1 codes (packed) -> digits (value * 2) as int16; INT8 codes -> int16.
inline void digits_e2m1(const std::uint8_t* p, std::int16_t* out) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i m = _mm_set1_epi8(0x0F), lut = _mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
  const __m128i lo = _mm_shuffle_epi8(lut, _mm_and_si128(v, m)), hi = _mm_shuffle_epi8(lut, _mm_and_si128(_mm_srli_epi16(v, 4), m));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(lo, hi)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 16), _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(lo, hi)));
}
inline void digits_i8(const std::uint8_t* p, std::int16_t* out) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 16),
                      _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16))));
}
// Integer block dot of E2M1/INT8 operands in registers (digits widened to int16).
inline void digits_x16(Format f, const std::uint8_t* p, __m256i& d0, __m256i& d1) {
  __m128i lo8, hi8;
  if (f == Format::int8) {
    lo8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    hi8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  } else {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i m = _mm_set1_epi8(0x0F), lut = _mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
    const __m128i lo = _mm_shuffle_epi8(lut, _mm_and_si128(v, m)), hi = _mm_shuffle_epi8(lut, _mm_and_si128(_mm_srli_epi16(v, 4), m));
    lo8 = _mm_unpacklo_epi8(lo, hi);
    hi8 = _mm_unpackhi_epi8(lo, hi);
  }
  d0 = _mm256_cvtepi8_epi16(lo8);
  d1 = _mm256_cvtepi8_epi16(hi8);
}
inline bool block_dot_direct(Format fa, const std::uint8_t* pa, Format fb, const std::uint8_t* pb, std::int32_t& S) {
  auto ok = [](Format f) { return f == Format::e2m1 || f == Format::int8; };
  if (!ok(fa) || !ok(fb)) return false;
  __m256i a0, a1, b0, b1;
  digits_x16(fa, pa, a0, a1);
  digits_x16(fb, pb, b0, b1);
  const __m256i s = _mm256_add_epi32(_mm256_madd_epi16(a0, b0), _mm256_madd_epi16(a1, b1));
  __m128i m = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  m = _mm_add_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_add_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  S = _mm_cvtsi128_si32(m);
  return true;
}
inline std::int32_t dot16(const std::int16_t* a, const std::int16_t* b) {
  const __m256i p0 = _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)));
  const __m256i p1 = _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 16)));
  const __m256i s = _mm256_add_epi32(p0, p1);
  __m128i m = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  m = _mm_add_epi32(m, _mm_shuffle_epi32(m, 0x4E));
  m = _mm_add_epi32(m, _mm_shuffle_epi32(m, 0xB1));
  return _mm_cvtsi128_si32(m);
}

// No multi-block integer sums here: the dot takes the blocks one at a time.
constexpr int kBlockSumLanes = 0;
inline bool block_sums_supported(Format, Format) { return false; }
inline void block_sums(Format, const std::uint8_t*, Format, const std::uint8_t*, std::int32_t*) {}

#include "mx/mx_simd.inc"
#include "mx/nvfp4_simd.inc"

// ---------------------------------------------------------------------------------------
// GEMM microkernels: MR rows x 2 panels of 8 lanes, all blocks. The FP32 C tile lives in
// `out` (updated once per block), the block sums in registers.

constexpr int kMR = 4;

inline __m256i bcast32(const std::uint8_t* p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return _mm256_set1_epi32(v);
}

// A packed block's meta: the lanes' scale terms (xb << 23).
inline __m256i meta_scales(const std::uint8_t* meta) {
  return _mm256_slli_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(meta))), 23);
}

inline void accumulate(float* out, __m256 s, __m256i term_b, std::int32_t term_a) {
  const __m256 fac = _mm256_castsi256_ps(_mm256_add_epi32(term_b, _mm256_set1_epi32(term_a)));
  _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(out), _mm256_mul_ps(s, fac)));
}

// The tile's running sums live in `out`: +0 in the first K chunk, else what the previous
// chunk left there.
template <int MR>
void zero_out(const TileArgs& t) {
  if (!t.first) return;
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) _mm256_storeu_ps(t.out + r * t.ldc + v * L, _mm256_setzero_ps());
}
// After the last chunk NaNs become the canonical 0x7FC00000.
template <int MR>
void finish_out(const TileArgs& t) {
  if (!t.last) return;
  const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<std::int32_t>(kCanonicalNaN)));
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) {
      float* o = t.out + r * t.ldc + v * L;
      const __m256 x = _mm256_loadu_ps(o);
      _mm256_storeu_ps(o, _mm256_blendv_ps(x, nan, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
    }
}

// Two VPMADDUBSW results (int16 pair sums) widened to int32 lanes: summed first when their
// sum cannot overflow int16 (A's digits at most 60), else each on its own (INT8 A).
template <bool WIDE>
inline __m256i widen_pairs(__m256i p, __m256i q, __m256i ones) {
  if constexpr (WIDE) return _mm256_add_epi32(_mm256_madd_epi16(p, ones), _mm256_madd_epi16(q, ones));
  else return _mm256_madd_epi16(_mm256_add_epi16(p, q), ones);
}

template <int MR, bool NIB, bool WIDE>
void tile_int8(const TileArgs& t) {
  zero_out<MR>(t);
  // E2M1 code -> digit (value * 2) + 64, the unsigned operand of VPMADDUBSW
  const __m256i lut = _mm256_setr_epi8(64, 65, 66, 67, 68, 70, 72, 76, 64, 63, 62, 61, 60, 58, 56, 52, 64, 65, 66, 67, 68,
                                       70, 72, 76, 64, 63, 62, 61, 60, 58, 56, 52);
  const __m256i low4 = _mm256_set1_epi8(0x0F), ones = _mm256_set1_epi16(1);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    __m256i acc[MR][2];
    for (int r = 0; r < MR; ++r)  // sum (b + 64) a = sum b a + 64 sum a
      acc[r][0] = acc[r][1] = _mm256_set1_epi32(-t.ac[r * t.ae_stride + blk]);
    const std::uint8_t* a = t.a + blk * 32;
    if constexpr (NIB) {
      for (int gp = 0; gp < 4; ++gp) {
        const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0 + gp * 32));
        const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1 + gp * 32));
        const __m256i lo0 = _mm256_shuffle_epi8(lut, _mm256_and_si256(r0, low4));
        const __m256i hi0 = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(r0, 4), low4));
        const __m256i lo1 = _mm256_shuffle_epi8(lut, _mm256_and_si256(r1, low4));
        const __m256i hi1 = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(r1, 4), low4));
        for (int r = 0; r < MR; ++r) {
          const __m256i a0 = bcast32(a + r * t.a_stride + 8 * gp), a1 = bcast32(a + r * t.a_stride + 8 * gp + 4);
          // each VPMADDUBSW lane pair is at most 2 * 124 * 60 = 14880, two of them < 32767
          acc[r][0] = _mm256_add_epi32(
              acc[r][0], widen_pairs<WIDE>(_mm256_maddubs_epi16(lo0, a0), _mm256_maddubs_epi16(hi0, a1), ones));
          acc[r][1] = _mm256_add_epi32(
              acc[r][1], widen_pairs<WIDE>(_mm256_maddubs_epi16(lo1, a0), _mm256_maddubs_epi16(hi1, a1), ones));
        }
      }
    } else {
      for (int g = 0; g < 8; g += 2) {
        const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0 + g * 32));
        const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1 + g * 32));
        const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0 + g * 32 + 32));
        const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1 + g * 32 + 32));
        for (int r = 0; r < MR; ++r) {
          const __m256i a0 = bcast32(a + r * t.a_stride + 4 * g), a1 = bcast32(a + r * t.a_stride + 4 * g + 4);
          acc[r][0] = _mm256_add_epi32(
              acc[r][0], widen_pairs<WIDE>(_mm256_maddubs_epi16(v0, a0), _mm256_maddubs_epi16(w0, a1), ones));
          acc[r][1] = _mm256_add_epi32(
              acc[r][1], widen_pairs<WIDE>(_mm256_maddubs_epi16(v1, a0), _mm256_maddubs_epi16(w1, a1), ones));
        }
      }
    }
    const __m256i x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      accumulate(t.out + r * t.ldc, _mm256_cvtepi32_ps(acc[r][0]), x0, ta);
      accumulate(t.out + r * t.ldc + L, _mm256_cvtepi32_ps(acc[r][1]), x1, ta);
    }
  }
  finish_out<MR>(t);
}

template <int MR>
void tile_int16(const TileArgs& t) {
  zero_out<MR>(t);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    __m256i acc[MR][2];
    for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    const std::uint8_t* a = t.a + blk * 64;
    for (int kp = 0; kp < 16; ++kp) {
      const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b0 + kp * 32));
      const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1 + kp * 32));
      for (int r = 0; r < MR; ++r) {
        const __m256i av = bcast32(a + r * t.a_stride + 4 * kp);
        acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, v0));
        acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, v1));
      }
    }
    const __m256i x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      accumulate(t.out + r * t.ldc, _mm256_cvtepi32_ps(acc[r][0]), x0, ta);
      accumulate(t.out + r * t.ldc + L, _mm256_cvtepi32_ps(acc[r][1]), x1, ta);
    }
  }
  finish_out<MR>(t);
}

template <int MR>
void tile_f32(const TileArgs& t) {
  zero_out<MR>(t);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    __m256 s[MR][2];
    for (int r = 0; r < MR; ++r) s[r][0] = s[r][1] = _mm256_setzero_ps();
    const std::uint8_t* p0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* p1 = t.b[1] + blk * t.b_stride;
    const float* b0 = reinterpret_cast<const float*>(p0);
    const float* b1 = reinterpret_cast<const float*>(p1);
    const std::uint8_t* a = t.a + blk * 128;
    for (int k = 0; k < kBlockSize; ++k) {
      const __m256 v0 = _mm256_loadu_ps(b0 + k * L), v1 = _mm256_loadu_ps(b1 + k * L);
      for (int r = 0; r < MR; ++r) {
        const __m256 ab = _mm256_broadcast_ss(reinterpret_cast<const float*>(a + r * t.a_stride + 4 * k));
        s[r][0] = _mm256_fmadd_ps(ab, v0, s[r][0]);  // exact product: same as mul + add
        s[r][1] = _mm256_fmadd_ps(ab, v1, s[r][1]);
      }
    }
    const __m256i x0 = meta_scales(p0 + t.meta_offset), x1 = meta_scales(p1 + t.meta_offset);
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      accumulate(t.out + r * t.ldc, s[r][0], x0, ta);
      accumulate(t.out + r * t.ldc + L, s[r][1], x1, ta);
    }
  }
  finish_out<MR>(t);
}

template <bool NIB, bool WIDE>
void tile_int8_rows(int mr, const TileArgs& t) {
  switch (mr) {
    case 1: tile_int8<1, NIB, WIDE>(t); break;
    case 2: tile_int8<2, NIB, WIDE>(t); break;
    case 3: tile_int8<3, NIB, WIDE>(t); break;
    default: tile_int8<4, NIB, WIDE>(t); break;
  }
}

void avx2_tile(const GemmShape& s, int mr, int, const TileArgs& t) {
  switch (s.kind) {
    case kKindInt8:
      if (s.b_nibbles) {
        if (s.wide_a) tile_int8_rows<true, true>(mr, t);
        else tile_int8_rows<true, false>(mr, t);
      } else {
        if (s.wide_a) tile_int8_rows<false, true>(mr, t);
        else tile_int8_rows<false, false>(mr, t);
      }
      break;
    case kKindInt16:
      switch (mr) {
        case 1: tile_int16<1>(t); break;
        case 2: tile_int16<2>(t); break;
        case 3: tile_int16<3>(t); break;
        case 4: tile_int16<4>(t); break;
        case 5: tile_int16<5>(t); break;
        default: tile_int16<6>(t); break;
      }
      break;
    default:
      switch (mr) {
        case 1: tile_f32<1>(t); break;
        case 2: tile_f32<2>(t); break;
        case 3: tile_f32<3>(t); break;
        case 4: tile_f32<4>(t); break;
        case 5: tile_f32<5>(t); break;
        default: tile_f32<6>(t); break;
      }
      break;
  }
}

GemmShape avx2_shape(Format fa, Format fb) {
  GemmShape s;
  s.lanes = L;
  // B's digits + 64 (E2M1/E2M3: 4..124) times A's digits (at most 128 in magnitude for
  // INT8): a VPMADDUBSW pair stays below 2 * 124 * 128 = 31744, never saturating.
  auto small = [](Format f) { return f == Format::e2m1 || f == Format::e2m3; };
  if (is_narrow(fa) && is_narrow(fb)) {
    if ((small(fa) || fa == Format::int8) && small(fb)) {
      s.kind = kKindInt8;
      s.b_offset = 64;
      s.b_nibbles = fb == Format::e2m1;
      s.wide_a = fa == Format::int8;
    } else {
      s.kind = kKindInt16;
      s.mr = 6;
    }
  } else {
    s.kind = kKindF32;
    s.mr = 6;  // 12 accumulators hide the FMA latency
  }
  return s;
}

const char* avx2_kind_name(const GemmShape& s) {
  switch (s.kind) {
    case kKindInt8: return s.b_nibbles ? "VPMADDUBSW (int8 digits, B as nibbles)" : "VPMADDUBSW (int8 digits)";
    case kKindInt16: return "VPMADDWD (int16 digits)";
    default: return "FP32 FMA";
  }
}

const GemmIsa kGemm = {L, 6, 2, avx2_shape, avx2_tile, avx2_kind_name, simd_dequantize};
const Kernels kAvx2 = {Path::avx2, simd_quantize, simd_dequantize, simd_dot, &kGemm};
const NvKernels kNv = {Path::avx2, nv_simd_amax, nv_simd_quantize, nv_simd_dequantize, nv_simd_dot, nv_simd_gemm,
                         "FP32 lanes across columns (B decoded to FP32)"};

}  // namespace

const Kernels* avx2_kernels() { return &kAvx2; }
const NvKernels* nv_avx2_kernels() { return &kNv; }
#else
const Kernels* avx2_kernels() { return nullptr; }
const NvKernels* nv_avx2_kernels() { return nullptr; }
#endif

}  // namespace trnsim::mx::detail
