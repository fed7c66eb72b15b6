// MX numerics: the OCP Microscaling formats (MX specification v1.0) bit-exactly, with
// fast kernels whose results are bit-identical on every code path (scalar reference,
// x86-64 AVX2, x86-64 AVX-512 VNNI/BF16, WebAssembly SIMD128). Rules and open choices:
// docs/mx.md (the OCP MX v1.0 rules as this project applies them, and the open choices).
//
// Models
// - Element formats FP8 E4M3 / E5M2, FP6 E3M2 / E2M3, FP4 E2M1 and INT8 (implicit 2^-6),
//   each with an E8M0 shared scale X per block of 32 elements: value_i = X * P_i.
// - Quantization FP32 (or BF16) -> MX with the scale rules floor (OCP, default), rceil,
//   even and nki; round-to-nearest-even elements; FP8 overflow saturate (default) or
//   inf; optional flushing of FP32 subnormal inputs. Project rules (MX.md): an all-zero
//   block gets scale byte 0x00 and +-0 elements; a block with any NaN or Inf gets scale
//   byte 0xFF and zero element codes; the sign survives rounding to zero.
// - Packed layouts (per block, element bytes follow the scale byte in a separate array):
//   8-bit formats: element i in byte i (32 bytes). FP6: element i in bits 6i..6i+5 of the
//   block's 24 bytes read as a little-endian bit string (byte j holds bits 8j..8j+7).
//   FP4: element 2i in the low nibble of byte i, element 2i+1 in the high nibble (16 bytes).
//   INT8 codes are two's complement; quantization never produces -128 (0x80 decodes to -2).
// - Dot (spec 6.1), DotGeneral (6.2) and GEMM, with this accumulation (the definition
//   every path implements bit for bit):
//     block:  s = +0.0f; for i = 0..31: s = fl32(s + P_Ai * P_Bi)
//             (every product of two element values is exact in FP32, so FMA or not is the
//             same; for two FP4/FP6/INT8 formats every partial sum is exact too, which lets
//             the SIMD paths use exact integer dot products)
//             d = s * 2^(xa-127) * 2^(xb-127), rounded once to FP32 (round to nearest
//             even, gradual underflow, overflow to Inf); NaN if either scale byte is 0xFF
//     across blocks: c = +0.0f; for b = 0..nblocks-1: c = fl32(c + d_b)
//     a NaN result is returned as the quiet NaN 0x7FC00000.
//   GEMM: C[MxN] = A[MxK] * B[KxN] in FP32, A row-major with blocks along K; B is passed
//   transposed (Bt: N rows of K), quantized row by row, so its blocks also run along K;
//   C[i][j] = DotGeneral(row i of A, row j of Bt). A and B may use different element
//   formats (e.g. MXFP8 x MXFP4).
//
// Does NOT model: the MX spec's optional block sizes other than 32, stochastic or
// ties-away element rounding (microxcaling's default), MX9/MX6 shared microexponents,
// the accumulation order of any particular hardware (Trainium's PE array rounding is not
// published), or multi-threaded kernels (every kernel runs on the calling thread).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trnsim::mx {

inline constexpr int kBlockSize = 32;
inline constexpr std::uint8_t kScaleNaN = 0xFF;   // E8M0 NaN
inline constexpr std::uint8_t kScaleZero = 0x00;  // 2^-127, used for all-zero blocks

// ---------------------------------------------------------------------------------------
// Formats
enum class Format : std::uint8_t { e4m3, e5m2, e3m2, e2m3, e2m1, int8 };
inline constexpr std::array<Format, 6> kAllFormats = {Format::e4m3, Format::e5m2, Format::e3m2,
                                                      Format::e2m3, Format::e2m1, Format::int8};

struct FormatInfo {
  Format format;
  const char* name;        // "e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "int8"
  const char* long_name;   // "MXFP8 E4M3", ..., "MXINT8"
  int element_bits;        // 8, 8, 6, 6, 4, 8
  int exponent_bits;       // 4, 5, 3, 2, 2, 0
  int mantissa_bits;       // 3, 2, 2, 3, 1; int8: 6 fraction bits
  int bias;                // 7, 15, 3, 1, 1; int8: 0
  int emax;                // exponent of the largest normal: 8, 15, 4, 2, 2, 0
  int fraction_bits;       // every element value is an integer times 2^-fraction_bits:
                           // 9, 16, 4, 3, 1, 6 (log2 of 1 / smallest subnormal)
  double max_normal;       // 448, 57344, 28, 7.5, 6, 127/64
  double min_normal;       // 2^-6, 2^-14, 0.25, 1, 1; int8: 2^-6
  double min_subnormal;    // 2^-9, 2^-16, 2^-4, 2^-3, 0.5; int8: 2^-6
  bool has_inf;            // e5m2 only
  bool has_nan;            // e4m3 and e5m2
  int block_bytes;         // packed element bytes per block: 32, 32, 24, 24, 16, 32
  std::uint8_t max_code;   // positive code of max_normal: 0x7E, 0x7B, 0x1F, 0x1F, 0x7, 0x7F
};

const FormatInfo& format_info(Format f);
const char* format_name(Format f);
std::optional<Format> parse_format(std::string_view name);
std::string format_names(const char* separator = "|");  // "e4m3|e5m2|e3m2|e2m3|e2m1|int8"
// FP4, FP6 and INT8 ("narrow"): every block dot product of two narrow formats is an exact
// integer sum. FP8 formats are "wide".
bool is_narrow(Format f);

// ---------------------------------------------------------------------------------------
// Options
enum class ScaleRule : std::uint8_t {
  floor,  // OCP: X = 2^(floor(log2 amax) - emax_elem); the default
  rceil,  // X = smallest power of two >= fl32(amax * fl32(1 / max_normal)) (cuDNN, TE, MLX)
  even,   // torchao EVEN: amax rounded (half up) to the element's mantissa width, then floor
  nki,    // Trainium quantize_mx, FP8 only: X = 2^(floor(log2 amax) - (emax_elem - 1))
};
enum class Overflow : std::uint8_t {
  saturate,  // values beyond max_normal become +-max_normal (default)
  inf,       // FP8 only: E5M2 -> +-Inf, E4M3 -> NaN (S.1111.111); other formats saturate
};
struct Options {
  ScaleRule scale = ScaleRule::floor;
  Overflow overflow = Overflow::saturate;
  bool flush_subnormal_inputs = false;  // FP32 subnormal inputs count as +-0
};
const char* scale_rule_name(ScaleRule r);
std::optional<ScaleRule> parse_scale_rule(std::string_view name);
const char* overflow_name(Overflow o);
std::optional<Overflow> parse_overflow(std::string_view name);
// Throws trnsim::InputError when the combination is invalid (nki with a non-FP8 format).
void check_options(Format f, const Options& o);

// ---------------------------------------------------------------------------------------
// Code paths. Every path gives the same bits; `automatic` is the fastest available.
enum class Path : std::uint8_t { automatic, scalar, avx2, avx512, wasm_simd };
const char* path_name(Path p);  // "auto", "scalar", "avx2", "avx512", "wasm_simd"
std::optional<Path> parse_path(std::string_view name);
// Paths this build can run on this machine, scalar first (x86-64: chosen at run time with
// the CPU's feature bits; avx512 needs AVX-512 F/BW/VL/VNNI and uses BF16 when present).
std::vector<Path> available_paths();
Path best_path();
// `automatic` -> best_path(); throws trnsim::InputError for a path not available here.
Path resolve_path(Path p);

// ---------------------------------------------------------------------------------------
// Single elements and scales (exact; no path involved)
float decode_element(Format f, std::uint8_t code);  // NaN codes -> NaN, e5m2 Inf -> +-Inf
float decode_scale(std::uint8_t x);                  // 2^(x-127) (0x00 -> FP32 subnormal 2^-127); 0xFF -> NaN
// The scale byte a block with largest magnitude `amax` gets (amax NaN/Inf -> 0xFF, 0 -> 0x00).
std::uint8_t scale_for_amax(float amax, Format f, ScaleRule r);
// The element code of value v * 2^-scale_exponent (rounded to nearest even).
std::uint8_t encode_element(float v, int scale_exponent, Format f, Overflow o);
// Element code i of one packed block, and its inverse.
std::uint8_t get_code(Format f, const std::uint8_t* block_elements, int i);
void set_code(Format f, std::uint8_t* block_elements, int i, std::uint8_t code);

// ---------------------------------------------------------------------------------------
// Raw arrays of blocks: n values use ceil(n/32) scale bytes and ceil(n/32) * block_bytes
// element bytes; a last partial block is padded with zeros.
inline std::size_t blocks_for(std::size_t n) { return (n + kBlockSize - 1) / kBlockSize; }
void quantize_blocks(const float* x, std::size_t n, Format f, const Options& o, std::uint8_t* scales,
                     std::uint8_t* elements, Path path = Path::automatic);
// BF16 inputs (the upper 16 bits of an FP32), converted exactly.
void quantize_blocks_bf16(const std::uint16_t* x, std::size_t n, Format f, const Options& o,
                          std::uint8_t* scales, std::uint8_t* elements, Path path = Path::automatic);
void dequantize_blocks(Format f, const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n,
                       float* out, Path path = Path::automatic);

// Dot (spec 6.1): one block of each operand.
float dot_block(Format fa, std::uint8_t xa, const std::uint8_t* pa, Format fb, std::uint8_t xb,
                const std::uint8_t* pb);
// DotGeneral (spec 6.2): n_blocks blocks of each operand.
float dot_blocks(Format fa, const std::uint8_t* xa, const std::uint8_t* pa, Format fb, const std::uint8_t* xb,
                 const std::uint8_t* pb, std::size_t n_blocks, Path path = Path::automatic);

// ---------------------------------------------------------------------------------------
// Tensors: a matrix (or a vector: rows == 1) quantized row by row along its columns.
struct Tensor {
  Format format = Format::e4m3;
  std::size_t rows = 0, cols = 0;
  std::vector<std::uint8_t> scales;    // rows * blocks_per_row() bytes
  std::vector<std::uint8_t> elements;  // rows * blocks_per_row() * block_bytes bytes
  std::size_t blocks_per_row() const { return blocks_for(cols); }
  std::size_t row_element_bytes() const;
  const std::uint8_t* row_scales(std::size_t r) const { return scales.data() + r * blocks_per_row(); }
  const std::uint8_t* row_elements(std::size_t r) const { return elements.data() + r * row_element_bytes(); }
};
Tensor make_tensor(Format f, std::size_t rows, std::size_t cols);  // zero codes, scale 0x00
Tensor quantize(const float* x, std::size_t rows, std::size_t cols, Format f, const Options& o = {},
                Path path = Path::automatic);
Tensor quantize(const std::vector<float>& x, Format f, const Options& o = {}, Path path = Path::automatic);
Tensor quantize_bf16(const std::uint16_t* x, std::size_t rows, std::size_t cols, Format f,
                     const Options& o = {}, Path path = Path::automatic);
std::vector<float> dequantize(const Tensor& t, Path path = Path::automatic);  // rows * cols values
// DotGeneral of two vectors (rows == 1, equal cols).
float dot(const Tensor& a, const Tensor& b, Path path = Path::automatic);

// GEMM C[MxN] = A[MxK] * B[KxN]: a is M x K, bt is B transposed (N x K); c gets M*N
// row-major FP32 values.
void gemm(const Tensor& a, const Tensor& bt, float* c, Path path = Path::automatic);
// Bt repacked for one path and one A format, reusable across calls (weights): gemm with a
// 1 x K `a` is a matrix-vector product y = W x with W = bt.
struct PackedB {
  Path path = Path::scalar;
  Format a_format = Format::e4m3, b_format = Format::e4m3;
  std::size_t n = 0, k = 0;
  int kind = 0, lanes = 1;
  std::vector<std::uint8_t> data;     // kernel-specific panels (digits and scales per block)
  std::vector<std::uint8_t> panel_info;  // per panel: min scale, max scale, has NaN scale, prescaled
  Tensor bt;                          // the original operand (fallback tiles, scalar path)
};
PackedB pack_b(const Tensor& bt, Format a_format, Path path = Path::automatic);
void gemm(const Tensor& a, const PackedB& b, float* c);
// What a GEMM of these formats runs on a path, e.g. "avx512 VPDPBUSD (int8 digits)", for
// benchmark output and labels.
std::string gemm_kernel(Format a, Format b, Path path = Path::automatic);

// ---------------------------------------------------------------------------------------
// Quantization error of a quantize-dequantize round trip, on samples from a fixed
// pseudo-random generator (xoshiro256**, seeded by splitmix64) and transforms computed
// with + - * / sqrt only, so every build prints the same numbers.
enum class Distribution : std::uint8_t {
  normal,     // mean 0, standard deviation 1 (Marsaglia polar method)
  laplace,    // location 0, scale 1
  uniform,    // [-1, 1)
  lognormal,  // exp(N(0, 1)), positive
};
const char* distribution_name(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view name);
std::vector<float> sample(Distribution d, std::size_t n, std::uint64_t seed);

struct ErrorStats {
  std::size_t n = 0;
  double rmse = 0;           // sqrt(mean((x - q(x))^2))
  double max_rel_error = 0;  // max |x - q(x)| / |x| over x != 0
  double sqnr_db = 0;        // 10 log10(sum x^2 / sum (x - q(x))^2); +inf when exact
  std::size_t zeros = 0;     // nonzero inputs that became zero
  std::size_t clamped = 0;   // inputs beyond the largest representable value of their block
};
ErrorStats error_stats(Format f, const Options& o, Distribution d, std::size_t n, std::uint64_t seed);
ErrorStats error_stats(const float* x, std::size_t n, Format f, const Options& o);

// A histogram with `bins` equal bins over [lo, hi); values outside go to below/above.
struct Histogram {
  double lo = 0, hi = 1;
  std::vector<std::uint64_t> counts;
  std::uint64_t below = 0, above = 0, nan = 0;
};
Histogram histogram(const float* x, std::size_t n, double lo, double hi, int bins);
// How often each element code occurs in a tensor (size 2^element_bits).
std::vector<std::uint64_t> code_histogram(const Tensor& t);

// Deterministic elementary functions (+ - * / sqrt only; about 1 ulp), used by the error
// statistics and the distributions so that native and WebAssembly builds agree.
double det_log(double x);
double det_exp(double x);
double det_log10(double x);

}  // namespace trnsim::mx
