// Internal seam between the MX API (mx.cpp), the scalar reference (mx_ref.cpp) and the
// SIMD code paths (mx_avx2.cpp, mx_avx512.cpp, mx_wasm.cpp). Not for use outside core/mx.
//
// The SIMD translation units are compiled with per-file ISA flags (module.cmake), so
// nothing they define may be an inline function or template shared with other units (the
// linker could keep their AVX copy for everyone): they define everything in an anonymous
// namespace and call only the plain functions declared here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mx/mx.h"

namespace trnsim::mx::detail {

// GEMM kernel families (PackedB::kind).
enum Kind : int {
  kKindScalar = 0,  // scalar reference; PackedB holds only bt
  kKindInt8 = 1,    // exact integer, 8-bit digits (u8 x s8 dot products)
  kKindInt16 = 2,   // exact integer, 16-bit digits (s16 x s16 dot products)
  kKindBf16 = 3,    // FP32 sequential, element pairs as BF16 (AVX-512 BF16)
  kKindF32 = 4,     // FP32 sequential, one FP32 per element
};

// Per path: kernels over whole blocks. The API layer handles partial blocks and checks.
struct Kernels {
  Path path;
  void (*quantize)(const float* x, std::size_t n_blocks, Format f, const Options& o, std::uint8_t* scales,
                   std::uint8_t* elements);
  void (*dequantize)(Format f, const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n_blocks,
                     float* out);
  float (*dot)(Format fa, const std::uint8_t* xa, const std::uint8_t* pa, Format fb, const std::uint8_t* xb,
               const std::uint8_t* pb, std::size_t n_blocks);
  void (*pack_b)(const Tensor& bt, Format a_format, PackedB& out);
  void (*gemm)(const Tensor& a, const PackedB& b, float* c);
};

const Kernels& scalar_kernels();
// These return the kernel table of a SIMD translation unit, or nullptr when the unit was
// compiled without that ISA. They execute no SIMD instruction; mx.cpp checks the CPU.
const Kernels* avx2_kernels();
const Kernels* avx512_kernels();
const Kernels* wasm_kernels();

// Test hook: lets the AVX-512 path use FP32 FMA instead of BF16 dot products for FP8
// operands (both give the same bits); returns the previous setting.
bool set_avx512_bf16_allowed(bool allowed);
bool avx512_bf16_in_use();

inline std::uint32_t f2u(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float u2f(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline constexpr std::uint32_t kCanonicalNaN = 0x7FC00000u;

// Reference pieces shared by all paths (defined in mx_ref.cpp, compiled without ISA flags).
// Element value table (256 entries per format; NaN codes hold the canonical NaN).
const float* element_table(Format f);
// Integer value table: value * 2^fraction_bits for narrow formats (0 for wide formats).
const std::int16_t* integer_table(Format f);
// d = s * 2^e rounded once to FP32 (any e; NaN stays NaN).
float mul_pow2(float s, int e);
// The spec's Dot of one block pair, by definition (see mx.h).
float ref_dot_block(Format fa, std::uint8_t xa, const std::uint8_t* pa, Format fb, std::uint8_t xb,
                    const std::uint8_t* pb);
float ref_dot_blocks(Format fa, const std::uint8_t* xa, const std::uint8_t* pa, Format fb,
                     const std::uint8_t* xb, const std::uint8_t* pb, std::size_t n_blocks);
// One block of 32 inputs (no flushing applied yet).
void ref_quantize_block(const float* x, Format f, const Options& o, std::uint8_t* scale, std::uint8_t* elements);
// All 32 codes of a packed block, one per byte.
void unpack_codes(Format f, const std::uint8_t* block_elements, std::uint8_t* codes32);
void pack_codes(Format f, const std::uint8_t* codes32, std::uint8_t* block_elements);
inline float canonical(float v) { return v != v ? u2f(kCanonicalNaN) : v; }

// GEMM packing shared by the SIMD paths (mx_gemm.cpp): see the layouts there.
struct GemmShape {
  int kind;
  int lanes;        // lanes per panel (16 AVX-512, 8 AVX2, 4 WebAssembly)
  int a_offset;     // kKindInt8: added to A's integer digits to make them unsigned
  bool b_nibbles;   // kKindInt8 with FP4 B: two codes per byte, decoded in the kernel
};
// Packs bt into panels of `lanes` rows (lanes of the kernel), each panel block by block.
void pack_b_panels(const Tensor& bt, Format a_format, Path path, const GemmShape& shape, PackedB& out);
std::size_t packed_block_bytes(const GemmShape& shape);
// Per panel and block, `meta` holds lanes int32 scale terms (xb << 23) then lanes int32
// sums of B's integer digits (kKindInt8 only; 0 otherwise).
inline std::size_t meta_stride(int lanes) { return 2 * static_cast<std::size_t>(lanes); }
// A converted for a kernel: one row of K (padded to blocks) digits.
//   kKindInt8: u8 (integer value + a_offset); kKindInt16: int16; kKindBf16: uint32 per element
//   pair (element 2i in the high half); kKindF32: float.
std::size_t a_row_bytes(const GemmShape& shape, std::size_t k_blocks);
void convert_a_row(const Tensor& a, std::size_t row, const GemmShape& shape, std::uint8_t* out);
// Scale term of A for row r, block b: ((xa - 127 - F) << 23), F = fraction bits of both
// formats for integer kinds, 0 for FP32 kinds.
int a_exponent_bias(const GemmShape& shape, Format fa, Format fb);
// Fallback: C entries computed by the reference (tiles whose scales need it).
void ref_gemm_tile(const Tensor& a, const Tensor& bt, std::size_t i0, std::size_t i1, std::size_t j0,
                   std::size_t j1, float* c, std::size_t ldc);

}  // namespace trnsim::mx::detail
