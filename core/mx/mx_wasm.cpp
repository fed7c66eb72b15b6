// MX kernels for WebAssembly SIMD128 (plain SIMD128, never relaxed SIMD, whose dot
// products differ between engines), 4 lanes. GEMM: exact integer block sums with
// i32x4.dot_i16x8_s for FP4/FP6/INT8 pairs; FP8 operands with FP32 multiply then add
// (WebAssembly has no FMA; the products are exact, so it is the same). Every result equals
// the scalar reference bit for bit (see mx.h).
#include "mx/mx_internal.h"

#if defined(__wasm_simd128__)
#define TRNSIM_MX_WASM 1
#include <wasm_simd128.h>
#endif

namespace trnsim::mx::detail {

#if TRNSIM_MX_WASM
namespace {

constexpr bool kKeepMags = false;  // quantize: store |x| in the first pass, or recompute it
constexpr int L = 4;
struct VI {
  v128_t v;
};
struct VF {
  v128_t v;
};
struct VM {
  v128_t m;
};

inline VI vi(std::int32_t x) { return {wasm_i32x4_splat(x)}; }
inline VF vf(float x) { return {wasm_f32x4_splat(x)}; }
inline VF ldf(const float* p) { return {wasm_v128_load(p)}; }
inline void stf(float* p, VF a) { wasm_v128_store(p, a.v); }
inline VI asi(VF a) { return {a.v}; }
inline VF asf(VI a) { return {a.v}; }
inline VI band(VI a, VI b) { return {wasm_v128_and(a.v, b.v)}; }
inline VI bor(VI a, VI b) { return {wasm_v128_or(a.v, b.v)}; }
inline VI badd(VI a, VI b) { return {wasm_i32x4_add(a.v, b.v)}; }
inline VI bsub(VI a, VI b) { return {wasm_i32x4_sub(a.v, b.v)}; }
template <int N>
inline VI shl(VI a) {
  return {wasm_i32x4_shl(a.v, N)};
}
template <int N>
inline VI shr(VI a) {
  return {wasm_u32x4_shr(a.v, N)};
}
template <int N>
inline VI sar(VI a) {
  return {wasm_i32x4_shr(a.v, N)};
}
// code | the sign bit of b moved S places right
template <int S>
inline VI or_sign(VI code, VI b) {
  return {wasm_v128_or(code.v, wasm_u32x4_shr(wasm_v128_and(b.v, wasm_i32x4_splat(INT32_MIN)), S))};
}
inline VI imax(VI a, VI b) { return {wasm_i32x4_max(a.v, b.v)}; }
inline VI imin(VI a, VI b) { return {wasm_i32x4_min(a.v, b.v)}; }
inline VM igt(VI a, VI b) { return {wasm_i32x4_gt(a.v, b.v)}; }
inline VM ieq(VI a, VI b) { return {wasm_i32x4_eq(a.v, b.v)}; }
inline VI isel(VM m, VI f, VI t) { return {wasm_v128_bitselect(t.v, f.v, m.m)}; }
inline VF fsel(VM m, VF f, VF t) { return {wasm_v128_bitselect(t.v, f.v, m.m)}; }
inline VF fadd(VF a, VF b) { return {wasm_f32x4_add(a.v, b.v)}; }
inline VF fmul(VF a, VF b) { return {wasm_f32x4_mul(a.v, b.v)}; }
inline VF fdiv(VF a, VF b) { return {wasm_f32x4_div(a.v, b.v)}; }
inline VI cvt_rne(VF a) { return {wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(a.v))}; }
inline VF cvt_f(VI a) { return {wasm_f32x4_convert_i32x4(a.v)}; }
inline std::int32_t hmax(VI a) {
  v128_t m = wasm_i32x4_max(a.v, wasm_i32x4_shuffle(a.v, a.v, 2, 3, 0, 1));
  m = wasm_i32x4_max(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2));
  return wasm_i32x4_extract_lane(m, 0);
}
// Lane g of the result: the largest lane of v[g] (4 vectors).
inline VI hmax_group(const VI* v) {
  const v128_t t0 = wasm_i32x4_max(wasm_i32x4_shuffle(v[0].v, v[1].v, 0, 4, 1, 5), wasm_i32x4_shuffle(v[0].v, v[1].v, 2, 6, 3, 7));
  const v128_t t1 = wasm_i32x4_max(wasm_i32x4_shuffle(v[2].v, v[3].v, 0, 4, 1, 5), wasm_i32x4_shuffle(v[2].v, v[3].v, 2, 6, 3, 7));
  return {wasm_i32x4_max(wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5), wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7))};
}
// E2M1 code -> value: the magnitude bits in the FP32 exponent/mantissa fields, times
// 2^126, then the sign bit
inline VF lut_e2m1(VI c) {
  const v128_t v = wasm_f32x4_mul(wasm_i32x4_shl(wasm_v128_and(c.v, wasm_i32x4_splat(7)), 22), wasm_f32x4_splat(0x1p126f));
  return {wasm_v128_or(v, wasm_i32x4_shl(wasm_u32x4_shr(c.v, 3), 31))};
}
// (a0, b0, a1, b1, ...) over two vectors
inline void interleave(VF a, VF b, VF& o0, VF& o1) {
  o0.v = wasm_i32x4_shuffle(a.v, b.v, 0, 4, 1, 5);
  o1.v = wasm_i32x4_shuffle(a.v, b.v, 2, 6, 3, 7);
}
inline unsigned mask_bits(VM m) { return static_cast<unsigned>(wasm_i32x4_bitmask(m.m)); }
inline void st_u8(std::uint8_t* p, VI v) {
  const v128_t h = wasm_u16x8_narrow_i32x4(v.v, v.v);
  const std::int32_t w = wasm_i32x4_extract_lane(wasm_u8x16_narrow_i16x8(h, h), 0);
  std::memcpy(p, &w, 4);
}
inline VI ld_u8(const std::uint8_t* p) { return {wasm_u32x4_extend_low_u16x8(wasm_u16x8_load8x8(p))}; }
inline void codes_to_bytes(const VI* c, std::uint8_t* out) {
  const v128_t h0 = wasm_u16x8_narrow_i32x4(c[0].v, c[1].v), h1 = wasm_u16x8_narrow_i32x4(c[2].v, c[3].v);
  const v128_t h2 = wasm_u16x8_narrow_i32x4(c[4].v, c[5].v), h3 = wasm_u16x8_narrow_i32x4(c[6].v, c[7].v);
  wasm_v128_store(out, wasm_u8x16_narrow_i16x8(h0, h1));
  wasm_v128_store(out + 16, wasm_u8x16_narrow_i16x8(h2, h3));
}
inline void bytes_to_nibbles(const std::uint8_t* in, std::uint8_t* out) {
  const v128_t w0 = wasm_v128_load(in), w1 = wasm_v128_load(in + 16);
  const v128_t m_lo = wasm_i16x8_splat(0x000F), m_hi = wasm_i16x8_splat(0x00F0);
  const v128_t n0 = wasm_v128_or(wasm_v128_and(w0, m_lo), wasm_v128_and(wasm_u16x8_shr(w0, 4), m_hi));
  const v128_t n1 = wasm_v128_or(wasm_v128_and(w1, m_lo), wasm_v128_and(wasm_u16x8_shr(w1, 4), m_hi));
  wasm_v128_store(out, wasm_u8x16_narrow_i16x8(n0, n1));
}
inline void codes_to_bytes(const VI* c, std::uint8_t* out);
inline void codes_to_nibbles(const VI* c, std::uint8_t* out) {
  alignas(16) std::uint8_t tmp[32];
  codes_to_bytes(c, tmp);
  bytes_to_nibbles(tmp, out);
}
inline void nibbles_to_bytes(const std::uint8_t* in, std::uint8_t* out) {
  const v128_t v = wasm_v128_load(in);
  const v128_t lo = wasm_v128_and(v, wasm_i8x16_splat(0x0F)), hi = wasm_u8x16_shr(v, 4);
  wasm_v128_store(out, wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
  wasm_v128_store(out + 16, wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
}
// E2M1 codes (packed) -> digits (value * 2) as int16; INT8 codes -> int16.
inline void digits_e2m1(const std::uint8_t* p, std::int16_t* out) {
  const v128_t v = wasm_v128_load(p);
  const v128_t lut = wasm_i8x16_make(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
  const v128_t lo = wasm_i8x16_swizzle(lut, wasm_v128_and(v, wasm_i8x16_splat(0x0F)));
  const v128_t hi = wasm_i8x16_swizzle(lut, wasm_u8x16_shr(v, 4));
  const v128_t d0 = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const v128_t d1 = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  wasm_v128_store(out, wasm_i16x8_extend_low_i8x16(d0));
  wasm_v128_store(out + 8, wasm_i16x8_extend_high_i8x16(d0));
  wasm_v128_store(out + 16, wasm_i16x8_extend_low_i8x16(d1));
  wasm_v128_store(out + 24, wasm_i16x8_extend_high_i8x16(d1));
}
inline void digits_i8(const std::uint8_t* p, std::int16_t* out) {
  for (int i = 0; i < 32; i += 8) wasm_v128_store(out + i, wasm_i16x8_load8x8(p + i));
}
// Integer block dot of E2M1/INT8 operands in registers: digits as i8x16 (elements 0..15,
// 16..31), products widened by i16x8.extmul, pairs summed by extadd_pairwise.
inline void digits_i8x16(Format f, const std::uint8_t* p, v128_t& d0, v128_t& d1) {
  if (f == Format::int8) {
    d0 = wasm_v128_load(p);
    d1 = wasm_v128_load(p + 16);
    return;
  }
  const v128_t v = wasm_v128_load(p);
  const v128_t lut = wasm_i8x16_make(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);
  const v128_t lo = wasm_i8x16_swizzle(lut, wasm_v128_and(v, wasm_i8x16_splat(0x0F)));
  const v128_t hi = wasm_i8x16_swizzle(lut, wasm_u8x16_shr(v, 4));
  d0 = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  d1 = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}
inline bool block_dot_direct(Format fa, const std::uint8_t* pa, Format fb, const std::uint8_t* pb, std::int32_t& S) {
  auto ok = [](Format f) { return f == Format::e2m1 || f == Format::int8; };
  if (!ok(fa) || !ok(fb)) return false;
  v128_t a0, a1, b0, b1;
  digits_i8x16(fa, pa, a0, a1);
  digits_i8x16(fb, pb, b0, b1);
  v128_t s = wasm_i32x4_add(wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_low_i8x16(a0, b0)),
                            wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_high_i8x16(a0, b0)));
  s = wasm_i32x4_add(s, wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_low_i8x16(a1, b1)));
  s = wasm_i32x4_add(s, wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_extmul_high_i8x16(a1, b1)));
  s = wasm_i32x4_add(s, wasm_i32x4_shuffle(s, s, 2, 3, 0, 1));
  s = wasm_i32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2));
  S = wasm_i32x4_extract_lane(s, 0);
  return true;
}
inline std::int32_t dot16(const std::int16_t* a, const std::int16_t* b) {
  v128_t s = wasm_i32x4_dot_i16x8(wasm_v128_load(a), wasm_v128_load(b));
  for (int i = 8; i < 32; i += 8) s = wasm_i32x4_add(s, wasm_i32x4_dot_i16x8(wasm_v128_load(a + i), wasm_v128_load(b + i)));
  s = wasm_i32x4_add(s, wasm_i32x4_shuffle(s, s, 2, 3, 0, 1));
  s = wasm_i32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2));
  return wasm_i32x4_extract_lane(s, 0);
}

// No multi-block integer sums here: the dot takes the blocks one at a time.
constexpr int kBlockSumLanes = 0;
inline bool block_sums_supported(Format, Format) { return false; }
inline void block_sums(Format, const std::uint8_t*, Format, const std::uint8_t*, std::int32_t*) {}

#include "mx/mx_simd.inc"
#include "mx/nvfp4_simd.inc"

// ---------------------------------------------------------------------------------------
// GEMM microkernels: MR rows x 2 panels of 4 lanes; C tile in `out`, updated per block.

constexpr int kMR = 4;

inline v128_t bcast32(const std::uint8_t* p) { return wasm_v128_load32_splat(p); }

// A packed block's meta: the lanes' scale bytes, as scale terms xb << 23.
inline v128_t meta_scales(const std::uint8_t* meta) {
  std::int32_t w;
  std::memcpy(&w, meta, 4);
  return wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_i32x4_make(w, 0, 0, 0))), 23);
}

inline void accumulate(float* out, v128_t s, v128_t term_b, std::int32_t term_a) {
  const v128_t fac = wasm_i32x4_add(term_b, wasm_i32x4_splat(term_a));
  wasm_v128_store(out, wasm_f32x4_add(wasm_v128_load(out), wasm_f32x4_mul(s, fac)));
}

// The tile's running sums live in `out`: +0 in the first K chunk, else what the previous
// chunk left there.
template <int MR>
void zero_out(const TileArgs& t) {
  if (!t.first) return;
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) wasm_v128_store(t.out + r * t.ldc + v * L, wasm_f32x4_splat(0.0f));
}
// After the last chunk NaNs become the canonical 0x7FC00000.
template <int MR>
void finish_out(const TileArgs& t) {
  if (!t.last) return;
  const v128_t nan = wasm_i32x4_splat(static_cast<std::int32_t>(kCanonicalNaN));
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < 2; ++v) {
      float* o = t.out + r * t.ldc + v * L;
      const v128_t x = wasm_v128_load(o);
      wasm_v128_store(o, wasm_v128_bitselect(x, nan, wasm_f32x4_eq(x, x)));
    }
}

template <int MR>
void tile_int16(const TileArgs& t) {
  zero_out<MR>(t);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    v128_t acc[MR][2];
    for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = wasm_i32x4_splat(0);
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    const std::uint8_t* a = t.a + blk * 64;
    for (int kp = 0; kp < 16; ++kp) {
      const v128_t v0 = wasm_v128_load(b0 + kp * 16), v1 = wasm_v128_load(b1 + kp * 16);
      for (int r = 0; r < MR; ++r) {
        const v128_t av = bcast32(a + r * t.a_stride + 4 * kp);
        acc[r][0] = wasm_i32x4_add(acc[r][0], wasm_i32x4_dot_i16x8(av, v0));
        acc[r][1] = wasm_i32x4_add(acc[r][1], wasm_i32x4_dot_i16x8(av, v1));
      }
    }
    const v128_t x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      accumulate(t.out + r * t.ldc, wasm_f32x4_convert_i32x4(acc[r][0]), x0, ta);
      accumulate(t.out + r * t.ldc + L, wasm_f32x4_convert_i32x4(acc[r][1]), x1, ta);
    }
  }
  finish_out<MR>(t);
}

template <int MR>
void tile_f32(const TileArgs& t) {
  zero_out<MR>(t);
  for (std::size_t blk = 0; blk < t.kb; ++blk) {
    v128_t s[MR][2];
    for (int r = 0; r < MR; ++r) s[r][0] = s[r][1] = wasm_f32x4_splat(0.0f);
    const std::uint8_t* b0 = t.b[0] + blk * t.b_stride;
    const std::uint8_t* b1 = t.b[1] + blk * t.b_stride;
    const std::uint8_t* a = t.a + blk * 128;
    for (int k = 0; k < kBlockSize; ++k) {
      const v128_t v0 = wasm_v128_load(b0 + k * 16), v1 = wasm_v128_load(b1 + k * 16);
      for (int r = 0; r < MR; ++r) {
        const v128_t ab = bcast32(a + r * t.a_stride + 4 * k);
        s[r][0] = wasm_f32x4_add(s[r][0], wasm_f32x4_mul(ab, v0));
        s[r][1] = wasm_f32x4_add(s[r][1], wasm_f32x4_mul(ab, v1));
      }
    }
    const v128_t x0 = meta_scales(b0 + t.meta_offset), x1 = meta_scales(b1 + t.meta_offset);
    for (int r = 0; r < MR; ++r) {
      const std::int32_t ta = t.ae[r * t.ae_stride + blk];
      accumulate(t.out + r * t.ldc, s[r][0], x0, ta);
      accumulate(t.out + r * t.ldc + L, s[r][1], x1, ta);
    }
  }
  finish_out<MR>(t);
}

void wasm_tile(const GemmShape& s, int mr, int, const TileArgs& t) {
  if (s.kind == kKindInt16) {
    switch (mr) {
      case 1: tile_int16<1>(t); break;
      case 2: tile_int16<2>(t); break;
      case 3: tile_int16<3>(t); break;
      default: tile_int16<4>(t); break;
    }
  } else {
    switch (mr) {
      case 1: tile_f32<1>(t); break;
      case 2: tile_f32<2>(t); break;
      case 3: tile_f32<3>(t); break;
      default: tile_f32<4>(t); break;
    }
  }
}

GemmShape wasm_shape(Format fa, Format fb) {
  GemmShape s;
  s.lanes = L;
  s.kind = is_narrow(fa) && is_narrow(fb) ? kKindInt16 : kKindF32;
  return s;
}

const char* wasm_kind_name(const GemmShape& s) {
  return s.kind == kKindInt16 ? "i32x4.dot_i16x8_s (int16 digits)" : "f32x4 multiply then add";
}

const GemmIsa kGemm = {L, kMR, 2, wasm_shape, wasm_tile, wasm_kind_name, simd_dequantize};
const Kernels kWasm = {Path::wasm_simd, simd_quantize, simd_dequantize, simd_dot, &kGemm};
const NvKernels kNv = {Path::wasm_simd, nv_simd_amax, nv_simd_quantize, nv_simd_dequantize, nv_simd_dot, nv_simd_gemm,
                         "f32x4 lanes across columns (B decoded to FP32)"};

}  // namespace

const Kernels* wasm_kernels() { return &kWasm; }
const NvKernels* nv_wasm_kernels() { return &kNv; }
#else
const Kernels* wasm_kernels() { return nullptr; }
const NvKernels* nv_wasm_kernels() { return nullptr; }
#endif

}  // namespace trnsim::mx::detail
