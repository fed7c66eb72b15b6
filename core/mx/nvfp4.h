// NVFP4 numerics: NVIDIA's 4-bit block format (Blackwell tensor cores) bit-exactly, beside the
// OCP MX formats of mx.h and on the same code paths (scalar reference, x86-64 AVX2, x86-64
// AVX-512, WebAssembly SIMD128), every path giving the same bits.
//
// Models
// - Elements: FP4 E2M1 (the MXFP4 element: +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}) in blocks of 16,
//   each block with an FP8 E4M3 scale byte, and one FP32 scale per tensor:
//   value_i = P_i * fl32(decode_e4m3(scale byte) * tensor_scale).
// - Quantization, NVIDIA's published recipe (sources NVFP4-1, NVFP4-2 of core/data/sources.json:
//   the NVFP4 introduction and TensorRT Model Optimizer's NVFP4QTensor), every step an FP32
//   operation rounded to nearest even:
//     tensor_scale = fl32(amax / 2688)            (2688 = 6 * 448: E2M1 max times E4M3 max;
//                                                  amax over the tensor's finite values)
//     block scale  = E4M3(fl32(block_amax / fl32(6 * tensor_scale)))  (an all-zero block: 1.0)
//     element      = E2M1(fl32(x / fl32(block scale * tensor_scale)))
//   with E4M3() and E2M1() rounding to nearest even and saturating (448, 6).
//   Project rules where the recipe is silent: tensor_scale is at least 2^-126 (the smallest
//   normal FP32; an all-zero tensor gets it); a block holding a NaN or an Inf gets the E4M3
//   NaN scale 0x7F and zero codes (amax ignores it); a block whose scale rounds to E4M3 zero
//   gets signed zero codes; a caller-given tensor scale must lie in the range the recipe gives,
//   [2^-126, FLT_MAX / 2688] (so every block factor and value stays finite).
// - Packed layout: per row, ceil(cols / 16) scale bytes and 8 element bytes per block,
//   element 2i in the low nibble of byte i (as MXFP4 in mx.h); a last partial block is
//   padded with zero codes.
// - Dot and GEMM of two NVFP4 operands, with this accumulation (every path implements it):
//     block:  S = sum of P_Ai * P_Bi over the 16 elements (exact in FP32 in any order)
//             d = S * fl32(sa * sb)  (sa, sb the decoded E4M3 scales: exact, as S < 2^12 and
//             sa * sb has 8 significant bits); NaN if either scale byte is NaN
//     across blocks: c = +0.0f; for b = 0..nblocks-1: c = fl32(c + d_b)
//     result: fl32(c * fl32(tensor_scale_A * tensor_scale_B)) (as a GEMM's alpha), a NaN
//             returned as 0x7FC00000.
//
// Does NOT model: NVFP4 times another format (Blackwell multiplies NVFP4 by NVFP4), the
// swizzled scale-factor layouts of cuBLAS / CUTLASS (a layout, not numerics), stochastic
// rounding (used in NVFP4 training), 2D 16x16 weight blocks, the tensor core's internal
// accumulation order, per-token or static calibrated scales other than a given tensor scale.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mx/mx.h"

namespace trnsim::mx {

inline constexpr int kNvBlockSize = 16;
inline constexpr int kNvBlockBytes = 8;
inline constexpr std::uint8_t kNvScaleNaN = 0x7F;  // E4M3 NaN
inline constexpr float kNvAmaxDivisor = 2688.0f;   // 6 * 448

struct NvOptions {
  float tensor_scale = 0;  // 0: from the tensor's amax (the recipe); else used as given
};

struct NvTensor {
  std::size_t rows = 0, cols = 0;
  float tensor_scale = 1.0f;
  std::vector<std::uint8_t> scales;    // rows * blocks_per_row() E4M3 bytes
  std::vector<std::uint8_t> elements;  // rows * blocks_per_row() * 8 bytes
  std::size_t blocks_per_row() const { return (cols + kNvBlockSize - 1) / kNvBlockSize; }
  std::size_t row_element_bytes() const { return blocks_per_row() * kNvBlockBytes; }
  const std::uint8_t* row_scales(std::size_t r) const { return scales.data() + r * blocks_per_row(); }
  const std::uint8_t* row_elements(std::size_t r) const { return elements.data() + r * row_element_bytes(); }
};

inline std::size_t nv_blocks_for(std::size_t n) { return (n + kNvBlockSize - 1) / kNvBlockSize; }

// The recipe's pieces (exact; no path involved).
float nv_tensor_scale_for_amax(float amax);                 // max(fl32(amax / 2688), 2^-126)
std::uint8_t nv_block_scale(float block_amax, float tensor_scale);  // E4M3 byte (0x7F: NaN block)
float nv_decode_scale(std::uint8_t e4m3);                   // the E4M3 value (0x7F, 0xFF: NaN)
// Throws trnsim::InputError (field `field`) unless 2^-126 <= s <= FLT_MAX / 2688.
void check_nv_tensor_scale(float s, const char* field = "tensor_scale");

// A zero tensor (codes 0, scale bytes 0x38 = 1.0, tensor scale 1).
NvTensor make_nv_tensor(std::size_t rows, std::size_t cols, float tensor_scale = 1.0f);
// One tensor scale for the whole matrix (from the amax of all its finite values unless given).
NvTensor quantize_nvfp4(const float* x, std::size_t rows, std::size_t cols, const NvOptions& o = {},
                        Path path = Path::automatic);
NvTensor quantize_nvfp4(const std::vector<float>& x, const NvOptions& o = {}, Path path = Path::automatic);
std::vector<float> dequantize(const NvTensor& t, Path path = Path::automatic);
// Dot of two vectors (rows == 1, equal cols), as defined above.
float dot(const NvTensor& a, const NvTensor& b, Path path = Path::automatic);
// C[MxN] = A[MxK] * B[KxN]; bt is B transposed (N x K); c gets M*N row-major FP32 values.
void gemm(const NvTensor& a, const NvTensor& bt, float* c, Path path = Path::automatic);
std::string nv_gemm_kernel(Path path = Path::automatic);

// Round-trip error statistics (as mx::error_stats; `clamped` counts inputs beyond 6 times
// their block's decoded scale).
ErrorStats nv_error_stats(const float* x, std::size_t n, const NvOptions& o = {});
ErrorStats nv_error_stats(Distribution d, std::size_t n, std::uint64_t seed, const NvOptions& o = {});
// How often each E2M1 code occurs (16 entries).
std::vector<std::uint64_t> code_histogram(const NvTensor& t);

}  // namespace trnsim::mx
