// Internal seam between the MX API (mx.cpp), the scalar reference (mx_ref.cpp) and the
// SIMD code paths (mx_avx2.cpp, mx_avx512.cpp, mx_wasm.cpp). Not for use outside core/mx.
//
// The SIMD translation units are compiled with per-file ISA flags (module.cmake), so
// nothing they define may be an inline function or template shared with other units (the
// linker could keep their AVX copy for everyone, e.g. in an unoptimized build): they define
// everything in an anonymous namespace and call only the plain functions declared here and
// the `static inline` helpers below (internal linkage: one copy per unit).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mx/mx.h"
#include "mx/nvfp4.h"

namespace trnsim::mx::detail {

// GEMM kernel families (PackedB::kind).
enum Kind : int {
  kKindScalar = 0,  // scalar reference; PackedB holds only bt
  kKindInt8 = 1,    // exact integer, 8-bit digits (u8 x s8 dot products)
  kKindInt16 = 2,   // exact integer, 16-bit digits (s16 x s16 dot products)
  kKindBf16 = 3,    // FP32 sequential, element pairs as BF16 (AVX-512 BF16)
  kKindF32 = 4,     // FP32 sequential, one FP32 per element
};

// How a GEMM is computed on one SIMD path for one pair of element formats.
struct GemmShape {
  int kind = kKindScalar;
  int lanes = 1;         // B rows (C columns) per panel: 16 AVX-512, 8 AVX2, 4 WebAssembly
  int b_offset = 0;      // kKindInt8: added to B's integer digits to make them unsigned
  bool b_nibbles = false;  // kKindInt8 with E2M1 B: two codes per byte, decoded in the kernel
  int mr = 4;            // A rows per tile (as many as the registers hold)
  bool wide_a = false;   // kKindInt8 on AVX2: A's digits reach 128, so every VPMADDUBSW
                         // result is widened at once (two summed could exceed 32767)
  bool prescale = false;  // kKindBf16 / kKindF32: the kernel takes operands with the block
                          // scales applied to the elements (mx_gemm.cpp: prescaling)
};

// One call of a microkernel: mr rows of A (converted, see mx_gemm.cpp) against nv
// panels of packed B, over kb consecutive blocks (one K chunk); updates mr x (nv * lanes)
// FP32 outputs at `out` (row stride ldc): starting from +0.0 when `first`, else from the
// values there (the previous chunks' running sums c), adding each block's d in order,
// and returning NaNs as the canonical 0x7FC00000 when `last`. The kernel may assume every
// scale term gives a normal FP32 power of two (the driver checks it, else computes the
// tile with the reference).
struct TileArgs {
  const std::uint8_t* a;      // row 0 of the tile's converted A, at the chunk's first block
  std::size_t a_stride;       // bytes between A rows
  const std::int32_t* ae;     // row 0's per-block scale terms (kb entries)
  std::size_t ae_stride;      // int32 between rows
  const std::int32_t* ac;     // row 0's per-block offset corrections (kKindInt8: b_offset * sum of A's digits)
  const std::uint8_t* b[2];   // packed panels (nv of them) at the chunk's first block: per block, digits then meta
  std::size_t b_stride;       // bytes per packed block: digits, then lanes scale bytes (xb)
  std::size_t meta_offset;    // from meta_offset
  std::size_t kb;             // blocks in this chunk
  float* out;                 // the tile's row 0, column 0
  std::size_t ldc;            // floats between output rows
  bool first, last;           // first / last K chunk of these outputs
  bool prescaled;             // A and B carry their block scales: each block's sum is d
};

struct GemmIsa {
  int lanes;
  int mr;  // most rows per tile (of any kind)
  int nv;  // panels per full tile (1 or 2)
  GemmShape (*shape)(Format fa, Format fb);
  // Computes one tile; mr_now <= mr, nv_now <= nv.
  void (*tile)(const GemmShape& shape, int mr_now, int nv_now, const TileArgs& t);
  // The instructions a kernel family runs on, e.g. "VPDPBUSD (int8 digits)".
  const char* (*kind_name)(const GemmShape& shape);
  // The path's dequantize (Kernels::dequantize): the FP32 kinds convert operands with it.
  void (*dequantize)(Format f, const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n_blocks,
                     float* out);
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
  const GemmIsa* gemm;  // nullptr: the scalar reference
};

const Kernels& scalar_kernels();
// These return the kernel table of a SIMD translation unit, or nullptr when the unit was
// compiled without that ISA. They execute no SIMD instruction; mx.cpp checks the CPU.
const Kernels* avx2_kernels();
const Kernels* avx512_kernels();
const Kernels* wasm_kernels();

// Test hook: lets the AVX-512 path use FP32 FMA instead of BF16 dot products for FP8
// operands (both give the same bits); returns the previous setting. avx512_bf16_in_use()
// runs AVX-512 code: call it only when available_paths() lists avx512.
bool set_avx512_bf16_allowed(bool allowed);
bool avx512_bf16_in_use();

static inline std::uint32_t f2u(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static inline float u2f(std::uint32_t u) {
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
static inline float canonical(float v) { return v != v ? u2f(kCanonicalNaN) : v; }

// NVFP4 (nvfp4.h): per path, kernels over whole 16-element blocks; the API layer
// (nvfp4.cpp) pads partial blocks, computes the tensor scale from `amax` and checks input.
struct NvKernels {
  Path path;
  // The largest magnitude among the finite values of x[0..n), as FP32 bits (0 if none).
  std::uint32_t (*amax)(const float* x, std::size_t n);
  void (*quantize)(const float* x, std::size_t n_blocks, float tensor_scale, std::uint8_t* scales,
                   std::uint8_t* elements);
  void (*dequantize)(const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n_blocks,
                     float tensor_scale, float* out);
  // c = sum over blocks of d_b, in order (before the tensor scales; NaN not canonical).
  float (*dot)(const std::uint8_t* sa, const std::uint8_t* pa, const std::uint8_t* sb, const std::uint8_t* pb,
               std::size_t n_blocks);
  // C = A * Bt^T with the tensor scales applied (canonical NaNs); nullptr: the reference.
  void (*gemm)(const NvTensor& a, const NvTensor& bt, float* c);
  const char* gemm_name;
};
const NvKernels& nv_scalar_kernels();
const NvKernels* nv_avx2_kernels();
const NvKernels* nv_avx512_kernels();
const NvKernels* nv_wasm_kernels();

// NVFP4 reference pieces (nvfp4.cpp, compiled without ISA flags).
void ref_nv_quantize_block(const float* x16, float tensor_scale, std::uint8_t* scale, std::uint8_t* elements8);
// fl32(decode_e4m3(scale) * tensor_scale): the factor of every element of a block.
float nv_block_factor(std::uint8_t scale, float tensor_scale);
float ref_nv_dot(const std::uint8_t* sa, const std::uint8_t* pa, const std::uint8_t* sb, const std::uint8_t* pb,
                 std::size_t n_blocks);
// The GEMM's alpha: fl32(tensor_scale_a * tensor_scale_b).
float nv_alpha(const NvTensor& a, const NvTensor& b);
void ref_nv_gemm(const NvTensor& a, const NvTensor& bt, float* c);

// Test hook: fixes the GEMM driver's K chunk (blocks) and row chunk (row tiles) instead
// of the cache-sized ones (0 = automatic), so tests can split small GEMMs into many
// chunks; returns the previous setting.
struct GemmChunks {
  std::size_t k_blocks = 0, row_tiles = 0;
};
GemmChunks set_gemm_chunks(GemmChunks c);

// GEMM driver shared by the SIMD paths (mx_gemm.cpp, compiled without ISA flags).
inline constexpr std::size_t kPanelInfo = 4;  // bytes of PackedB::panel_info per panel
void simd_pack_b(const GemmIsa& isa, Path path, const Tensor& bt, Format a_format, PackedB& out);
void simd_gemm(const GemmIsa& isa, const Tensor& a, const PackedB& b, float* c);
// The same with B packed into this thread's scratch memory for this call only.
void simd_gemm(const GemmIsa& isa, const Tensor& a, const Tensor& bt, float* c);
// Bytes of one packed block of one panel, and of one converted A block.
std::size_t packed_block_bytes(const GemmShape& shape);
std::size_t a_block_bytes(const GemmShape& shape);
// Reference entries of C (tiles whose scales the kernels cannot take).
void ref_gemm_tile(const Tensor& a, const Tensor& bt, std::size_t i0, std::size_t i1, std::size_t j0,
                   std::size_t j1, float* c, std::size_t ldc);

}  // namespace trnsim::mx::detail
