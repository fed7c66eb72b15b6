// MX kernels for x86-64 AVX-512 (F, BW, VL, VNNI; BF16 when present), 16 lanes. Compiled
// with those ISA flags (module.cmake) and entered only after mx.cpp checked the CPU.
// GEMM: exact integer block sums with VPDPBUSD (FP4/FP6-E2M3/INT8 pairs; B's digits + 128
// as the unsigned operand, corrected by 128 * sum(A)); FP8 operands, and pairs with E3M2,
// with VDPBF16PS (which adds the product of the high BF16 halves first, then the low:
// element 2k, then 2k + 1, as the definition's left-to-right sum) on prescaled operands
// (mx_gemm.cpp); without BF16, FP32 FMA (the products are exact, so FMA equals
// multiply-then-add) and VPDPWSSD for E3M2. NVFP4 GEMM: exact integer block sums with
// VPDPBUSD too (E2M1 digits). Every result equals the scalar reference bit for bit (see mx.h).
#include "mx/mx_internal.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512VNNI__)
#define TRNSIM_MX_AVX512 1
// GCC 12's AVX-512 headers trip -Wuninitialized through _mm512_undefined_* (GCC bug
// 105593, fixed in GCC 13); the warnings are false positives.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace trnsim::mx::detail {

#if TRNSIM_MX_AVX512
namespace {

constexpr bool kKeepMags = true;  // quantize: store |x| in the first pass, or recompute it
constexpr int L = 16;
struct VI {
  __m512i v;
};
struct VF {
  __m512 v;
};
struct VM {
  __mmask16 m;
};

inline VI vi(std::int32_t x) { return {_mm512_set1_epi32(x)}; }
inline VF vf(float x) { return {_mm512_set1_ps(x)}; }
inline VF ldf(const float* p) { return {_mm512_loadu_ps(p)}; }
inline void stf(float* p, VF a) { _mm512_storeu_ps(p, a.v); }
inline VI asi(VF a) { return {_mm512_castps_si512(a.v)}; }
inline VF asf(VI a) { return {_mm512_castsi512_ps(a.v)}; }
inline VI band(VI a, VI b) { return {_mm512_and_si512(a.v, b.v)}; }
inline VI bor(VI a, VI b) { return {_mm512_or_si512(a.v, b.v)}; }
inline VI badd(VI a, VI b) { return {_mm512_add_epi32(a.v, b.v)}; }
inline VI bsub(VI a, VI b) { return {_mm512_sub_epi32(a.v, b.v)}; }
template <int N>
inline VI shl(VI a) {
  return {_mm512_slli_epi32(a.v, N)};
}
template <int N>
inline VI shr(VI a) {
  return {_mm512_srli_epi32(a.v, N)};
}
template <int N>
inline VI sar(VI a) {
  return {_mm512_srai_epi32(a.v, N)};
}
// code | the sign bit of b moved S places right (one VPTERNLOGD: a | (b & c))
template <int S>
inline VI or_sign(VI code, VI b) {
  return {_mm512_ternarylogic_epi32(code.v, _mm512_srli_epi32(b.v, S), _mm512_set1_epi32(1 << (31 - S)), 0xF8)};
}
inline VI imax(VI a, VI b) { return {_mm512_max_epi32(a.v, b.v)}; }
inline VI imin(VI a, VI b) { return {_mm512_min_epi32(a.v, b.v)}; }
inline VM igt(VI a, VI b) { return {_mm512_cmpgt_epi32_mask(a.v, b.v)}; }
inline VM ieq(VI a, VI b) { return {_mm512_cmpeq_epi32_mask(a.v, b.v)}; }
inline VI isel(VM m, VI f, VI t) { return {_mm512_mask_blend_epi32(m.m, f.v, t.v)}; }
inline VF fsel(VM m, VF f, VF t) { return {_mm512_mask_blend_ps(m.m, f.v, t.v)}; }
inline VF fadd(VF a, VF b) { return {_mm512_add_ps(a.v, b.v)}; }
inline VF fmul(VF a, VF b) { return {_mm512_mul_ps(a.v, b.v)}; }
inline VF fdiv(VF a, VF b) { return {_mm512_div_ps(a.v, b.v)}; }
inline VI cvt_rne(VF a) { return {_mm512_cvt_roundps_epi32(a.v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)}; }
inline VF cvt_f(VI a) { return {_mm512_cvtepi32_ps(a.v)}; }
inline std::int32_t hmax(VI a) { return _mm512_reduce_max_epi32(a.v); }
// Lane g of the result: the largest lane of v[g] (16 vectors).
inline VI hmax_group(const VI* v) {
  __m512i t[8], u[4];
  for (int i = 0; i < 8; ++i)
    t[i] = _mm512_max_epi32(_mm512_unpacklo_epi32(v[2 * i].v, v[2 * i + 1].v),
                            _mm512_unpackhi_epi32(v[2 * i].v, v[2 * i + 1].v));
  for (int i = 0; i < 4; ++i)
    u[i] = _mm512_max_epi32(_mm512_unpacklo_epi64(t[2 * i], t[2 * i + 1]), _mm512_unpackhi_epi64(t[2 * i], t[2 * i + 1]));
  const __m512i x0 = _mm512_max_epi32(_mm512_shuffle_i32x4(u[0], u[1], 0x88), _mm512_shuffle_i32x4(u[0], u[1], 0xDD));
  const __m512i x1 = _mm512_max_epi32(_mm512_shuffle_i32x4(u[2], u[3], 0x88), _mm512_shuffle_i32x4(u[2], u[3], 0xDD));
  return {_mm512_max_epi32(_mm512_shuffle_i32x4(x0, x1, 0x88), _mm512_shuffle_i32x4(x0, x1, 0xDD))};
}
// E2M1 code -> value
inline VF lut_e2m1(VI c) {
  return {_mm512_permutexvar_ps(c.v, _mm512_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f, -0.0f, -0.5f, -1.0f,
                                                    -1.5f, -2.0f, -3.0f, -4.0f, -6.0f))};
}
// (a0, b0, a1, b1, ...) over two vectors
inline void interleave(VF a, VF b, VF& o0, VF& o1) {
  o0.v = _mm512_permutex2var_ps(a.v, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), b.v);
  o1.v = _mm512_permutex2var_ps(a.v, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), b.v);
}
inline unsigned mask_bits(VM m) { return m.m; }
inline void st_u8(std::uint8_t* p, VI v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v.v)); }
// 32 codes (< 16) -> 16 bytes, code 2i in the low nibble of byte i.
inline void codes_to_nibbles(const VI* c, std::uint8_t* out) {
  const __m512i z0 = _mm512_or_si512(c[0].v, _mm512_srli_epi64(c[0].v, 28));
  const __m512i z1 = _mm512_or_si512(c[1].v, _mm512_srli_epi64(c[1].v, 28));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm512_cvtepi64_epi8(z0));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 8), _mm512_cvtepi64_epi8(z1));
}
inline VI ld_u8(const std::uint8_t* p) {
  return {_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)))};
}
// 32 codes (< 256) -> 32 bytes: two saturating packs, then one dword permute (cheaper
// than two VPMOVDB on Zen 4).
inline void codes_to_bytes(const VI* c, std::uint8_t* out) {
  const __m512i t = _mm512_packus_epi32(c[0].v, c[1].v);  // per 128-bit lane: 4 of c0, 4 of c1
  const __m512i u = _mm512_packus_epi16(t, t);            // per lane: those 8 as bytes, twice
  const __m512i r = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 0, 0, 0, 0, 0, 0, 0, 0), u);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_castsi512_si256(r));
}
inline void nibbles_to_bytes(const std::uint8_t* in, std::uint8_t* out) {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  __m128i m = _mm_set1_epi8(0x0F);
  __m128i lo = _mm_and_si128(v, m), hi = _mm_and_si128(_mm_srli_epi16(v, 4), m);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi8(lo, hi));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi8(lo, hi));
}
// E2M1 codes (packed) -> digits (value * 2) as int16; INT8 codes -> int16.
inline void digits_e2m1(const std::uint8_t* p, std::int16_t* out) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i m = _mm_set1_epi8(0x0F), lut = _mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
  const __m128i lo = _mm_shuffle_epi8(lut, _mm_and_si128(v, m)), hi = _mm_shuffle_epi8(lut, _mm_and_si128(_mm_srli_epi16(v, 4), m));
  const __m256i d = _mm256_set_m128i(_mm_unpackhi_epi8(lo, hi), _mm_unpacklo_epi8(lo, hi));
  _mm512_storeu_si512(out, _mm512_cvtepi8_epi16(d));
}
inline void digits_i8(const std::uint8_t* p, std::int16_t* out) {
  _mm512_storeu_si512(out, _mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
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
  __m512i p = _mm512_madd_epi16(_mm512_loadu_si512(a), _mm512_loadu_si512(b));
  return _mm512_reduce_add_epi32(p);
}

// Integer sums of 16 consecutive block pairs at once (E2M1/INT8 x E2M1/INT8), for the
// dot product. Per 4 blocks, two vectors hold elements 0..15 and 16..31 of one block per
// 128-bit lane; one operand is made unsigned (digit + 128) for VPDPBUSD and the excess
// 128 * sum(other) is taken off again. The 4 lanes per block then reduce in a fixed
// transpose (integer sums: any order gives the same value).
constexpr int kBlockSumLanes = 16;
inline bool block_sums_supported(Format fa, Format fb) {
  auto ok = [](Format f) { return f == Format::e2m1 || f == Format::int8; };
  return ok(fa) && ok(fb);
}
// Four blocks of one operand as digits: (lo, hi) halves per 128-bit lane; `offset`
// adds 128 (unsigned operand).
inline void four_blocks(Format f, const std::uint8_t* p, bool offset, __m512i& lo, __m512i& hi) {
  if (f == Format::int8) {
    const __m512i b0 = _mm512_loadu_si512(p), b1 = _mm512_loadu_si512(p + 64);
    lo = _mm512_shuffle_i64x2(b0, b1, 0x88);
    hi = _mm512_shuffle_i64x2(b0, b1, 0xDD);
    if (offset) {
      lo = _mm512_xor_si512(lo, _mm512_set1_epi8(-128));
      hi = _mm512_xor_si512(hi, _mm512_set1_epi8(-128));
    }
    return;
  }
  const __m512i lut = offset ? _mm512_broadcast_i32x4(_mm_setr_epi8(-128, -127, -126, -125, -124, -122, -120, -116,
                                                                    -128, 127, 126, 125, 124, 122, 120, 116))
                             : _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12));
  const __m512i v = _mm512_loadu_si512(p), m = _mm512_set1_epi8(0x0F);
  const __m512i l = _mm512_shuffle_epi8(lut, _mm512_and_si512(v, m));
  const __m512i h = _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(v, 4), m));
  lo = _mm512_unpacklo_epi8(l, h);
  hi = _mm512_unpackhi_epi8(l, h);
}
inline void block_sums(Format fa, const std::uint8_t* pa, Format fb, const std::uint8_t* pb, std::int32_t* out) {
  // the unsigned side: an E2M1 operand if there is one (digits + 128 fit a byte)
  const bool a_unsigned = fa == Format::e2m1 || fb == Format::int8;
  const Format fu = a_unsigned ? fa : fb, fs = a_unsigned ? fb : fa;
  const std::uint8_t* pu = a_unsigned ? pa : pb;
  const std::uint8_t* ps = a_unsigned ? pb : pa;
  const std::size_t bu = fu == Format::e2m1 ? 16 : 32, bs = fs == Format::e2m1 ? 16 : 32;
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i r[4];
  for (int q = 0; q < 4; ++q) {
    __m512i u0, u1, s0, s1;
    four_blocks(fu, pu + 4 * q * bu, true, u0, u1);
    four_blocks(fs, ps + 4 * q * bs, false, s0, s1);
    const __m512i acc = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_setzero_si512(), u0, s0), u1, s1);
    const __m512i sum = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_setzero_si512(), ones, s0), ones, s1);
    r[q] = _mm512_sub_epi32(acc, _mm512_slli_epi32(sum, 7));
  }
  const __m512i t0 = _mm512_add_epi32(_mm512_unpacklo_epi32(r[0], r[1]), _mm512_unpackhi_epi32(r[0], r[1]));
  const __m512i t1 = _mm512_add_epi32(_mm512_unpacklo_epi32(r[2], r[3]), _mm512_unpackhi_epi32(r[2], r[3]));
  const __m512i u = _mm512_add_epi32(_mm512_unpacklo_epi64(t0, t1), _mm512_unpackhi_epi64(t0, t1));
  // lane 4k + j holds block 4j + k
  _mm512_storeu_si512(out, _mm512_permutexvar_epi32(
                               _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), u));
}

#include "mx/mx_simd.inc"
#include "mx/nvfp4_simd.inc"

// ---------------------------------------------------------------------------------------
// GEMM microkernels: MR rows x 2 panels of 16 lanes, all blocks; C tile in registers.

inline __m512i bcast32(const std::uint8_t* p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return _mm512_set1_epi32(v);
}

// A packed block's meta: the lanes' scale bytes as scale terms (xb << 23).
inline __m512i meta_scales(const std::uint8_t* meta) {
  return _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(meta))), 23);
}

// d = S * 2^(terms) and c += d, per lane: scale term of A (broadcast) + of B (per lane).
inline __m512 scale_block(__m512i term_b, std::int32_t term_a) {
  return _mm512_castsi512_ps(_mm512_add_epi32(term_b, _mm512_set1_epi32(term_a)));
}

// The tile's running sums: +0 in the first K chunk, else what the previous chunk left.
template <int MR>
inline void load_c(const TileArgs& t, __m512 (&c)[MR][2]) {
  #pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
    #pragma GCC unroll 16
    for (int v = 0; v < 2; ++v)
      c[r][v] = t.first ? _mm512_setzero_ps() : _mm512_loadu_ps(t.out + r * t.ldc + v * L);
}
// Stores them back; after the last chunk NaNs become the canonical 0x7FC00000.
template <int MR>
inline void store_c(const TileArgs& t, __m512 (&c)[MR][2]) {
  const __m512 nan = _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<std::int32_t>(kCanonicalNaN)));
  #pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
    #pragma GCC unroll 16
    for (int v = 0; v < 2; ++v) {
      __m512 x = c[r][v];
      if (t.last) x = _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), nan);
      _mm512_storeu_ps(t.out + r * t.ldc + v * L, x);
    }
}

// Adds each block's integer sums acc, scaled, to the running sums c (in block order).
template <int MR>
inline void add_blocks(const TileArgs& t, std::size_t blk, const __m512i (&acc)[MR][2], __m512 (&c)[MR][2],
                       const std::uint8_t* b0, const std::uint8_t* b1) {
  const __m512i x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
  #pragma GCC unroll 16
  for (int r = 0; r < MR; ++r) {
    const std::int32_t ta = t.ae[r * t.ae_stride + blk];
    c[r][0] = _mm512_add_ps(c[r][0], _mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][0]), scale_block(x0, ta)));
    c[r][1] = _mm512_add_ps(c[r][1], _mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][1]), scale_block(x1, ta)));
  }
}

template <int MR, bool NIB>
void tile_int8(const TileArgs& t) {
  __m512 c[MR][2];
  load_c<MR>(t, c);
  // E2M1 code -> digit (value * 2) + 128, the unsigned operand of VPDPBUSD
  const __m512i lut = _mm512_broadcast_i32x4(
      _mm_setr_epi8(-128, -127, -126, -125, -124, -122, -120, -116, -128, 127, 126, 125, 124, 122, 120, 116));
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    __m512i acc[MR][2];
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r)  // sum (b + 128) a = sum b a + 128 sum a
      acc[r][0] = acc[r][1] = _mm512_set1_epi32(-t.ac[r * t.ae_stride + blk]);
    const std::uint8_t* a = t.a + blk * 32;
    if constexpr (NIB) {
      #pragma GCC unroll 16
      for (int gp = 0; gp < 4; ++gp) {
        const __m512i r0 = _mm512_loadu_si512(b0 + gp * 64), r1 = _mm512_loadu_si512(b1 + gp * 64);
        const __m512i lo0 = _mm512_shuffle_epi8(lut, _mm512_and_si512(r0, low4));
        const __m512i hi0 = _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(r0, 4), low4));
        const __m512i lo1 = _mm512_shuffle_epi8(lut, _mm512_and_si512(r1, low4));
        const __m512i hi1 = _mm512_shuffle_epi8(lut, _mm512_and_si512(_mm512_srli_epi16(r1, 4), low4));
        #pragma GCC unroll 16
        for (int r = 0; r < MR; ++r) {
          const __m512i a0 = bcast32(a + r * t.a_stride + 8 * gp), a1 = bcast32(a + r * t.a_stride + 8 * gp + 4);
          acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], lo0, a0);
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], lo1, a0);
          acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], hi0, a1);
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], hi1, a1);
        }
      }
    } else {
      #pragma GCC unroll 16
      for (int g = 0; g < 8; ++g) {
        const __m512i v0 = _mm512_loadu_si512(b0 + g * 64), v1 = _mm512_loadu_si512(b1 + g * 64);
        #pragma GCC unroll 16
        for (int r = 0; r < MR; ++r) {
          const __m512i av = bcast32(a + r * t.a_stride + 4 * g);
          acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], v0, av);
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], v1, av);
        }
      }
    }
    add_blocks<MR>(t, blk, acc, c, b0, b1);
  }
  store_c<MR>(t, c);
}

template <int MR>
void tile_int16(const TileArgs& t) {
  __m512 c[MR][2];
  load_c<MR>(t, c);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    __m512i acc[MR][2];
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    const std::uint8_t* a = t.a + blk * 64;
    #pragma GCC unroll 16
    for (int kp = 0; kp < 16; ++kp) {
      const __m512i v0 = _mm512_loadu_si512(b0 + kp * 64), v1 = _mm512_loadu_si512(b1 + kp * 64);
      #pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const __m512i av = bcast32(a + r * t.a_stride + 4 * kp);
        acc[r][0] = _mm512_dpwssd_epi32(acc[r][0], av, v0);
        acc[r][1] = _mm512_dpwssd_epi32(acc[r][1], av, v1);
      }
    }
    add_blocks<MR>(t, blk, acc, c, b0, b1);
  }
  store_c<MR>(t, c);
}

// Adds each block's FP32 sums s to the running sums c: prescaled operands (t.prescaled)
// make s the block's d; else d = s * 2^(terms of A and B).
template <int MR, bool PRE>
inline void add_sums(const TileArgs& t, std::size_t blk, const __m512 (&s)[MR][2], __m512 (&c)[MR][2],
                     const std::uint8_t* b0, const std::uint8_t* b1) {
  if constexpr (PRE) {
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      c[r][0] = _mm512_add_ps(c[r][0], s[r][0]);
      c[r][1] = _mm512_add_ps(c[r][1], s[r][1]);
    }
  } else {
    const __m512i x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      c[r][0] = _mm512_add_ps(c[r][0], _mm512_mul_ps(s[r][0], scale_block(x0, ta)));
      c[r][1] = _mm512_add_ps(c[r][1], _mm512_mul_ps(s[r][1], scale_block(x1, ta)));
    }
  }
}

// The BF16 kernel, with more rows than the registers hold running sums for: MR x 2
// accumulators (16 for MR = 8: VDPBF16PS's latency, 6 cycles on Zen 5, times the two it
// issues per cycle), the running sums c in a small contiguous buffer (one load, add and
// store per vector and block; C's own rows, N floats apart, would fall into the same L1
// sets). 6, 8 and 12 rows ran within the noise of each other on the loaded VM.
constexpr int kBf16Rows = 8;
template <int MR, bool PRE>
__attribute__((target("avx512bf16"))) void tile_bf16_tall(const TileArgs& t) {
  alignas(64) float cb[MR][2 * L];
  #pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
    #pragma GCC unroll 2
    for (int v = 0; v < 2; ++v)
      _mm512_store_ps(cb[r] + v * L, t.first ? _mm512_setzero_ps() : _mm512_loadu_ps(t.out + r * t.ldc + v * L));
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    __m512 s[MR][2];
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) s[r][0] = s[r][1] = _mm512_setzero_ps();
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    const std::uint8_t* a = t.a + blk * 64;
    #pragma GCC unroll 16
    for (int kp = 0; kp < 16; ++kp) {
      const __m512bh v0 = (__m512bh)_mm512_loadu_si512(b0 + kp * 64);
      const __m512bh v1 = (__m512bh)_mm512_loadu_si512(b1 + kp * 64);
      #pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const __m512bh av = (__m512bh)bcast32(a + r * t.a_stride + 4 * kp);
        s[r][0] = _mm512_dpbf16_ps(s[r][0], av, v0);
        s[r][1] = _mm512_dpbf16_ps(s[r][1], av, v1);
      }
    }
    if constexpr (PRE) {
      #pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        _mm512_store_ps(cb[r], _mm512_add_ps(_mm512_load_ps(cb[r]), s[r][0]));
        _mm512_store_ps(cb[r] + L, _mm512_add_ps(_mm512_load_ps(cb[r] + L), s[r][1]));
      }
    } else {
      const __m512i x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
      #pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const std::int32_t ta = t.ae[r * t.ae_stride + blk];
        _mm512_store_ps(cb[r], _mm512_add_ps(_mm512_load_ps(cb[r]), _mm512_mul_ps(s[r][0], scale_block(x0, ta))));
        _mm512_store_ps(cb[r] + L,
                        _mm512_add_ps(_mm512_load_ps(cb[r] + L), _mm512_mul_ps(s[r][1], scale_block(x1, ta))));
      }
    }
  }
  const __m512 nan = _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<std::int32_t>(kCanonicalNaN)));
  #pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
    #pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) {
      __m512 x = _mm512_load_ps(cb[r] + v * L);
      if (t.last) x = _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), nan);
      _mm512_storeu_ps(t.out + r * t.ldc + v * L, x);
    }
}

template <int MR, bool PRE>
void tile_f32(const TileArgs& t) {
  __m512 c[MR][2];
  load_c<MR>(t, c);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    __m512 s[MR][2];
    #pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) s[r][0] = s[r][1] = _mm512_setzero_ps();
    const std::uint8_t* p0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* p1 = t.b[1] + blk * t.b_stride;
    const float* b0 = reinterpret_cast<const float*>(p0);
    const float* b1 = reinterpret_cast<const float*>(p1);
    const std::uint8_t* a = t.a + blk * 128;
    #pragma GCC unroll 16
    for (int k = 0; k < kBlockSize; ++k) {
      const __m512 v0 = _mm512_loadu_ps(b0 + k * L), v1 = _mm512_loadu_ps(b1 + k * L);
      #pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        float av;
        std::memcpy(&av, a + r * t.a_stride + 4 * k, 4);
        const __m512 ab = _mm512_set1_ps(av);
        s[r][0] = _mm512_fmadd_ps(ab, v0, s[r][0]);  // exact product: same as mul + add
        s[r][1] = _mm512_fmadd_ps(ab, v1, s[r][1]);
      }
    }
    add_sums<MR, PRE>(t, blk, s, c, p0, p1);
  }
  store_c<MR>(t, c);
}

// Calls K<mr>::run(t) for mr = 1 .. 6.
template <template <int> class K>
void by_rows(int mr, const TileArgs& t) {
  switch (mr) {
    case 1: K<1>::run(t); break;
    case 2: K<2>::run(t); break;
    case 3: K<3>::run(t); break;
    case 4: K<4>::run(t); break;
    case 5: K<5>::run(t); break;
    default: K<6>::run(t); break;
  }
}
template <int MR>
struct Int8Nib {
  static void run(const TileArgs& t) { tile_int8<MR, true>(t); }
};
template <int MR>
struct Int8 {
  static void run(const TileArgs& t) { tile_int8<MR, false>(t); }
};
template <int MR>
struct Int16 {
  static void run(const TileArgs& t) { tile_int16<MR>(t); }
};
template <int MR>
struct Bf16Tall {
  static void run(const TileArgs& t) { t.prescaled ? tile_bf16_tall<MR, true>(t) : tile_bf16_tall<MR, false>(t); }
};
template <int MR>
struct F32 {
  static void run(const TileArgs& t) { t.prescaled ? tile_f32<MR, true>(t) : tile_f32<MR, false>(t); }
};

void avx512_tile(const GemmShape& s, int mr, int, const TileArgs& t) {
  switch (s.kind) {
    case kKindInt8: s.b_nibbles ? by_rows<Int8Nib>(mr, t) : by_rows<Int8>(mr, t); break;
    case kKindInt16: by_rows<Int16>(mr, t); break;
    case kKindBf16:
      static_assert(kBf16Rows == 8, "rows 7 and 8 below, 1 to 6 in by_rows");
      if (mr > 6) mr == 7 ? Bf16Tall<7>::run(t) : Bf16Tall<8>::run(t);
      else by_rows<Bf16Tall>(mr, t);
      break;
    default: by_rows<F32>(mr, t); break;
  }
}

// NVFP4 GEMM with VPDPBUSD. A block's sum S of 16 E2M1 products is exact in any order, and
// so is its integer form: with digits 2 * value, 4S is an integer (|4S| <= 2304). B's digits
// + 128 are the unsigned operand (corrected by 128 * sum of A's digits, as the MX kernel).
// d = S * fl32(sa * sb) = 4S * (fl32(sa * sb) / 4): A's decoded scale carries the 1/4, and
// since |sa * sb| >= 2^-18 (or 0, or NaN) the quarter is exact, so x and d are the FP32
// kernel's bit for bit; c adds the blocks in order, as there. Layout, per 16-lane panel of
// B and block: 4 groups of 4 k as 16 lanes x 4 bytes, then the lanes' 16 decoded scales.
constexpr std::size_t kNvPackedBlock = 4 * 64 + 64;

template <int MR>
void nv_tile_int8(const std::uint8_t* a, std::size_t a_stride, const float* xa, const std::int32_t* ca,
                  std::size_t ax_stride, const std::uint8_t* b0, const std::uint8_t* b1, std::size_t nb, float alpha,
                  float* out, std::size_t ldc, int cols) {
  __m512 c[MR][2];
  #pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) c[r][0] = c[r][1] = _mm512_setzero_ps();
  for (std::size_t blk = 0; blk < nb; ++blk) {
    const std::uint8_t* p0 = b0 + blk * kNvPackedBlock;
    const std::uint8_t* p1 = b1 + blk * kNvPackedBlock;
    const std::uint8_t* ab = a + blk * kNvBlockSize;
    __m512i acc[MR][2];
    #pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm512_set1_epi32(-ca[r * ax_stride + blk]);
    #pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
      const __m512i v0 = _mm512_loadu_si512(p0 + g * 64), v1 = _mm512_loadu_si512(p1 + g * 64);
      #pragma GCC unroll 8
      for (int r = 0; r < MR; ++r) {
        const __m512i av = bcast32(ab + r * a_stride + 4 * g);
        acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], v0, av);
        acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], v1, av);
      }
    }
    const __m512 xb0 = _mm512_loadu_ps(reinterpret_cast<const float*>(p0 + 256));
    const __m512 xb1 = _mm512_loadu_ps(reinterpret_cast<const float*>(p1 + 256));
    #pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      const __m512 x = _mm512_set1_ps(xa[r * ax_stride + blk]);
      c[r][0] = _mm512_add_ps(c[r][0], _mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][0]), _mm512_mul_ps(x, xb0)));
      c[r][1] = _mm512_add_ps(c[r][1], _mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][1]), _mm512_mul_ps(x, xb1)));
    }
  }
  const __m512 va = _mm512_set1_ps(alpha);
  #pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
    #pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) {
      const int n = std::min(L, cols - v * L);
      if (n <= 0) break;
      const VF y = nv_canonical(VF{_mm512_mul_ps(c[r][v], va)});
      _mm512_mask_storeu_ps(out + r * ldc + v * L, static_cast<__mmask16>((1u << n) - 1u), y.v);
    }
}

void nv_avx512_gemm(const NvTensor& a, const NvTensor& bt, float* c) {
  const std::size_t M = a.rows, N = bt.rows, nb = a.blocks_per_row();
  const std::size_t panels = (N + L - 1) / L, a_stride = nb * kNvBlockSize;
  const std::int16_t* q = integer_table(Format::e2m1);  // 2 * value
  static thread_local std::vector<std::uint8_t> bp_keep, ad_keep;
  static thread_local std::vector<float> xa_keep;
  static thread_local std::vector<std::int32_t> ca_keep;
  std::vector<std::uint8_t>& bp = bp_keep;
  std::vector<std::uint8_t>& ad = ad_keep;
  std::vector<float>& xa = xa_keep;
  std::vector<std::int32_t>& ca = ca_keep;
  bp.resize(panels * nb * kNvPackedBlock);
  ad.resize(M * a_stride);
  xa.resize(M * nb);
  ca.resize(M * nb);
  for (std::size_t j = 0; j < panels * L; ++j) {
    const std::size_t p = j / L, l = j % L;
    for (std::size_t blk = 0; blk < nb; ++blk) {
      std::uint8_t* dst = bp.data() + (p * nb + blk) * kNvPackedBlock;
      float xb = 0.0f;
      std::uint8_t d[kNvBlockSize] = {};
      if (j < N) {
        const std::uint8_t* e = bt.row_elements(j) + blk * kNvBlockBytes;
        for (int k = 0; k < kNvBlockSize; ++k) d[k] = static_cast<std::uint8_t>(q[(e[k >> 1] >> ((k & 1) * 4)) & 0xF]);
        xb = nv_decode_scale(bt.row_scales(j)[blk]);
      }
      for (int g = 0; g < 4; ++g)
        for (int t4 = 0; t4 < 4; ++t4) dst[(g * L + l) * 4 + t4] = static_cast<std::uint8_t>(d[4 * g + t4] + 128);
      std::memcpy(dst + 256 + l * 4, &xb, 4);
    }
  }
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t blk = 0; blk < nb; ++blk) {
      const std::uint8_t* e = a.row_elements(i) + blk * kNvBlockBytes;
      std::int32_t sum = 0;
      for (int k = 0; k < kNvBlockSize; ++k) {
        const std::int16_t v = q[(e[k >> 1] >> ((k & 1) * 4)) & 0xF];
        ad[i * a_stride + blk * kNvBlockSize + k] = static_cast<std::uint8_t>(v & 0xFF);
        sum += v;
      }
      ca[i * nb + blk] = 128 * sum;
      xa[i * nb + blk] = nv_decode_scale(a.row_scales(i)[blk]) * 0.25f;
    }
  const float alpha = nv_alpha(a, bt);
  // Row chunks of A (digits) sized for L2 walk every pair of B panels (40 KiB at K = 2048).
  constexpr int kMr = 4;
  const std::size_t chunk = std::max<std::size_t>(kMr, (256u << 10) / a_stride / kMr * kMr);
  const std::size_t pairs = (panels + 1) / 2;
  for (std::size_t i0 = 0; i0 < M; i0 += chunk)
    for (std::size_t pp = 0; pp < pairs; ++pp) {
      const std::uint8_t* b0 = bp.data() + 2 * pp * nb * kNvPackedBlock;
      const std::uint8_t* b1 = 2 * pp + 1 < panels ? b0 + nb * kNvPackedBlock : b0;  // a lone last panel: twice
      const int cols = static_cast<int>(std::min<std::size_t>(2 * L, N - 2 * pp * L));
      for (std::size_t i = i0; i < std::min(M, i0 + chunk); i += kMr) {
        const std::uint8_t* ai = ad.data() + i * a_stride;
        const float* x = xa.data() + i * nb;
        const std::int32_t* cr = ca.data() + i * nb;
        float* o = c + i * N + 2 * pp * L;
        switch (std::min<std::size_t>(kMr, M - i)) {
          case 4: nv_tile_int8<4>(ai, a_stride, x, cr, nb, b0, b1, nb, alpha, o, N, cols); break;
          case 3: nv_tile_int8<3>(ai, a_stride, x, cr, nb, b0, b1, nb, alpha, o, N, cols); break;
          case 2: nv_tile_int8<2>(ai, a_stride, x, cr, nb, b0, b1, nb, alpha, o, N, cols); break;
          default: nv_tile_int8<1>(ai, a_stride, x, cr, nb, b0, b1, nb, alpha, o, N, cols); break;
        }
      }
    }
  constexpr std::size_t kKeep = 64u << 20;
  if (bp.size() > kKeep) std::vector<std::uint8_t>().swap(bp);
  if (ad.size() > kKeep) std::vector<std::uint8_t>().swap(ad);
}

// VDPBF16PS is used only when the CPU has it and it computes, on this machine, exactly
// the two sequential roundings the definition asks for (checked once on crafted inputs).
__attribute__((target("avx512bf16"))) bool bf16_semantics_ok() {
  // lane i: acc + hi product + lo product, with ties and cancellations
  alignas(64) float acc[16], out[16];
  alignas(64) std::uint32_t a[16], b[16];
  std::uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return seed;
  };
  for (int round = 0; round < 64; ++round) {
    for (int i = 0; i < 16; ++i) {
      // BF16 values with 4 significant bits and wide exponents, like MX elements
      auto val = [&] {
        std::uint32_t r = next();
        return static_cast<std::uint16_t>(((r >> 31) << 15) | ((100 + (r >> 8) % 50) << 7) | ((r >> 4) & 0x70));
      };
      a[i] = (static_cast<std::uint32_t>(val()) << 16) | val();
      b[i] = (static_cast<std::uint32_t>(val()) << 16) | val();
      std::uint32_t r = next();
      acc[i] = u2f(((r & 1u) << 31) | ((110 + (r >> 8) % 40) << 23) | (r & 0x7FFF00u));
    }
    __m512 res = _mm512_dpbf16_ps(_mm512_load_ps(acc), (__m512bh)_mm512_load_si512(a), (__m512bh)_mm512_load_si512(b));
    _mm512_store_ps(out, res);
    for (int i = 0; i < 16; ++i) {
      volatile float p_hi = u2f(a[i] & 0xFFFF0000u) * u2f(b[i] & 0xFFFF0000u);
      volatile float p_lo = u2f(a[i] << 16) * u2f(b[i] << 16);
      volatile float s = acc[i] + p_hi;
      volatile float s2 = s + p_lo;
      if (f2u(s2) != f2u(out[i])) return false;
    }
  }
  return true;
}

bool g_bf16_allowed = true;

bool bf16_usable() {
  static const bool ok = __builtin_cpu_supports("avx512bf16") && bf16_semantics_ok();
  return ok;
}

GemmShape avx512_shape(Format fa, Format fb) {
  GemmShape s;
  s.lanes = L;
  auto small = [](Format f) { return f == Format::e2m1 || f == Format::e2m3 || f == Format::int8; };
  if (is_narrow(fa) && is_narrow(fb)) {
    if (small(fa) && small(fb)) {
      s.kind = kKindInt8;
      s.b_offset = 128;
      s.b_nibbles = fb == Format::e2m1;
      s.mr = 4;  // 8 accumulators + 8 running sums + the decoded B
    } else if (g_bf16_allowed && bf16_usable()) {
      // E3M2 with a narrow format: every element is a BF16 and every partial sum an
      // exact FP32 (below 2^23 units of the last place), so the sequential BF16 sum is
      // the exact integer sum, and the prescaled kernel needs one add per block where
      // VPDPWSSD needs a conversion, a multiply and an add
      s.kind = kKindBf16;
      s.mr = kBf16Rows;
      s.prescale = true;
    } else {
      s.kind = kKindInt16;
      s.mr = 6;
    }
  } else {
    s.kind = g_bf16_allowed && bf16_usable() ? kKindBf16 : kKindF32;
    s.mr = s.kind == kKindBf16 ? kBf16Rows : 6;  // 12 accumulators hide the FMA latency
    s.prescale = true;
  }
  return s;
}

const char* avx512_kind_name(const GemmShape& s) {
  switch (s.kind) {
    case kKindInt8: return s.b_nibbles ? "VPDPBUSD (int8 digits, B as nibbles)" : "VPDPBUSD (int8 digits)";
    case kKindInt16: return "VPDPWSSD (int16 digits)";
    case kKindBf16: return "VDPBF16PS (BF16 pairs)";
    default: return "FP32 FMA";
  }
}

const GemmIsa kGemm = {L, kBf16Rows, 2, avx512_shape, avx512_tile, avx512_kind_name, simd_dequantize};
const Kernels kAvx512 = {Path::avx512, simd_quantize, simd_dequantize, simd_dot, &kGemm};
const NvKernels kNv = {Path::avx512, nv_simd_amax, nv_simd_quantize, nv_simd_dequantize, nv_simd_dot, nv_avx512_gemm,
                         "VPDPBUSD (int8 digits of E2M1, exact block sums)"};

}  // namespace

const Kernels* avx512_kernels() { return &kAvx512; }
const NvKernels* nv_avx512_kernels() { return &kNv; }
bool set_avx512_bf16_allowed(bool allowed) {
  bool old = g_bf16_allowed;
  g_bf16_allowed = allowed;
  return old;
}
bool avx512_bf16_in_use() { return g_bf16_allowed && bf16_usable(); }

#else
const Kernels* avx512_kernels() { return nullptr; }
const NvKernels* nv_avx512_kernels() { return nullptr; }
bool set_avx512_bf16_allowed(bool) { return false; }
bool avx512_bf16_in_use() { return false; }
#endif

}  // namespace trnsim::mx::detail
