// NVFP4 (nvfp4.h): the scalar reference of the recipe -- tensor scale, E4M3 block scale,
// E2M1 elements, Dot and GEMM exactly as nvfp4.h defines them, written step by step with the
// MX reference's integer rounding (encode_element) -- and the API layer that pads partial
// blocks, checks input and dispatches to a code path (scalar, AVX2, AVX-512, WebAssembly).
// Sources: NVFP4-1 (NVIDIA's NVFP4 introduction: E2M1 in blocks of 16, an E4M3 scale per
// block, an FP32 scale per tensor) and NVFP4-2 (TensorRT Model Optimizer's NVFP4QTensor:
// tensor scale amax / (6 * 448), block scale block_amax / (6 * tensor scale) cast to E4M3,
// zero block scales replaced by 1, elements x / (block scale * tensor scale) cast to E2M1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "mx/mx_internal.h"

namespace trnsim::mx {

namespace {

using detail::f2u;
using detail::u2f;

constexpr std::uint8_t kNvScaleOne = 0x38;  // E4M3 1.0
constexpr float kNvMinTensorScale = 0x1p-126f;
constexpr float kNvMaxTensorScale = 3.40282347e38f / kNvAmaxDivisor;  // the recipe's largest: FLT_MAX / 2688

const detail::NvKernels& nv_kernels(Path p) {
  const Path r = resolve_path(p);
  const detail::NvKernels* k = nullptr;
  switch (r) {
    case Path::avx2: k = detail::nv_avx2_kernels(); break;
    case Path::avx512: k = detail::nv_avx512_kernels(); break;
    case Path::wasm_simd: k = detail::nv_wasm_kernels(); break;
    default: break;
  }
  return k ? *k : detail::nv_scalar_kernels();
}

void check_nv_shape(const NvTensor& t, const char* what) {
  check_nv_tensor_scale(t.tensor_scale, what);
  if (t.scales.size() != t.rows * t.blocks_per_row() || t.elements.size() != t.rows * t.row_element_bytes())
    throw InputError(what, "scale or element arrays do not match " + std::to_string(t.rows) + " x " +
                               std::to_string(t.cols) + " values");
}

}  // namespace

float nv_tensor_scale_for_amax(float amax) {
  const float s = amax / kNvAmaxDivisor;
  return s >= kNvMinTensorScale ? s : kNvMinTensorScale;  // also NaN -> the floor
}

// The E4M3 value table (decode_element's values; NaN codes hold the canonical NaN): the
// kernels read a block's factor per 16 elements, so a lookup, not the decoder's ldexp.
float nv_decode_scale(std::uint8_t e4m3) { return detail::element_table(Format::e4m3)[e4m3]; }

std::uint8_t nv_block_scale(float block_amax, float tensor_scale) {
  const std::uint32_t a = f2u(block_amax) & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return kNvScaleNaN;
  if (a == 0) return kNvScaleOne;  // the recipe replaces a zero block scale by 1.0
  const float six = 6.0f * tensor_scale;
  const float v = u2f(a) / six;
  return encode_element(v, 0, Format::e4m3, Overflow::saturate);
}

void check_nv_tensor_scale(float s, const char* field) {
  if (!(s >= kNvMinTensorScale && s <= kNvMaxTensorScale)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(s));
    throw InputError(field, std::string("tensor scale ") + buf + " is outside [2^-126, 3.4028235e38 / 2688] (the recipe's range)");
  }
}

namespace detail {

float nv_block_factor(std::uint8_t scale, float tensor_scale) { return nv_decode_scale(scale) * tensor_scale; }

void ref_nv_quantize_block(const float* x, float ts, std::uint8_t* scale, std::uint8_t* el) {
  std::uint32_t amax = 0;
  bool special = false;
  for (int i = 0; i < kNvBlockSize; ++i) {
    const std::uint32_t mag = f2u(x[i]) & 0x7FFFFFFFu;
    if (mag >= 0x7F800000u) special = true;
    else if (mag > amax) amax = mag;
  }
  std::memset(el, 0, kNvBlockBytes);
  if (special) {
    *scale = kNvScaleNaN;
    return;
  }
  const std::uint8_t sb = nv_block_scale(u2f(amax), ts);
  *scale = sb;
  const float den = nv_block_factor(sb, ts);
  for (int i = 0; i < kNvBlockSize; ++i) {
    std::uint8_t code;
    if (den == 0.0f) code = (f2u(x[i]) >> 31) ? 0x8 : 0x0;  // the scale rounded to zero
    else code = encode_element(x[i] / den, 0, Format::e2m1, Overflow::saturate);
    el[i >> 1] = static_cast<std::uint8_t>(el[i >> 1] | (code << ((i & 1) * 4)));
  }
}

float ref_nv_dot(const std::uint8_t* sa, const std::uint8_t* pa, const std::uint8_t* sb, const std::uint8_t* pb,
                 std::size_t n_blocks) {
  const float* v = element_table(Format::e2m1);
  float c = 0.0f;
  for (std::size_t b = 0; b < n_blocks; ++b) {
    const float xa = nv_decode_scale(sa[b]), xb = nv_decode_scale(sb[b]);
    float d;
    if (xa != xa || xb != xb) {
      d = u2f(kCanonicalNaN);
    } else {
      float s = 0.0f;
      for (int i = 0; i < kNvBlockSize; ++i) {
        const std::uint8_t ba = pa[b * kNvBlockBytes + (i >> 1)], bb = pb[b * kNvBlockBytes + (i >> 1)];
        const int sh = (i & 1) * 4;
        s = s + v[(ba >> sh) & 0xF] * v[(bb >> sh) & 0xF];  // exact
      }
      const float sab = xa * xb;  // exact: 4 x 4 significant bits
      d = s * sab;                // exact: S < 2^12 in units of 1/4
    }
    c = c + d;
  }
  return c;
}

float nv_alpha(const NvTensor& a, const NvTensor& b) { return a.tensor_scale * b.tensor_scale; }

void ref_nv_gemm(const NvTensor& a, const NvTensor& bt, float* c) {
  const float alpha = nv_alpha(a, bt);
  const std::size_t nb = a.blocks_per_row();
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < bt.rows; ++j)
      c[i * bt.rows + j] =
          canonical(ref_nv_dot(a.row_scales(i), a.row_elements(i), bt.row_scales(j), bt.row_elements(j), nb) * alpha);
}

namespace {

std::uint32_t nv_scalar_amax(const float* x, std::size_t n) {
  std::uint32_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t mag = f2u(x[i]) & 0x7FFFFFFFu;
    if (mag < 0x7F800000u && mag > m) m = mag;
  }
  return m;
}

void nv_scalar_quantize(const float* x, std::size_t n_blocks, float ts, std::uint8_t* scales, std::uint8_t* el) {
  for (std::size_t b = 0; b < n_blocks; ++b)
    ref_nv_quantize_block(x + b * kNvBlockSize, ts, scales + b, el + b * kNvBlockBytes);
}

void nv_scalar_dequantize(const std::uint8_t* scales, const std::uint8_t* el, std::size_t n_blocks, float ts,
                       float* out) {
  const float* v = element_table(Format::e2m1);
  for (std::size_t b = 0; b < n_blocks; ++b) {
    const float d = nv_block_factor(scales[b], ts);
    for (int i = 0; i < kNvBlockSize; ++i) {
      const std::uint8_t code = (el[b * kNvBlockBytes + (i >> 1)] >> ((i & 1) * 4)) & 0xF;
      out[b * kNvBlockSize + static_cast<std::size_t>(i)] = canonical(v[code] * d);
    }
  }
}

const NvKernels kNvScalar = {Path::scalar, nv_scalar_amax, nv_scalar_quantize, nv_scalar_dequantize, ref_nv_dot, nullptr,
                             "reference loop (FP32, as defined)"};

}  // namespace

const NvKernels& nv_scalar_kernels() { return kNvScalar; }

}  // namespace detail

NvTensor make_nv_tensor(std::size_t rows, std::size_t cols, float tensor_scale) {
  NvTensor t;
  t.rows = rows;
  t.cols = cols;
  t.tensor_scale = tensor_scale;
  t.scales.assign(rows * t.blocks_per_row(), kNvScaleOne);
  t.elements.assign(rows * t.row_element_bytes(), 0);
  return t;
}

NvTensor quantize_nvfp4(const float* x, std::size_t rows, std::size_t cols, const NvOptions& o, Path path) {
  const detail::NvKernels& k = nv_kernels(path);
  float ts;
  if (o.tensor_scale != 0) {
    check_nv_tensor_scale(o.tensor_scale);
    ts = o.tensor_scale;
  } else {
    ts = nv_tensor_scale_for_amax(u2f(k.amax(x, rows * cols)));
  }
  NvTensor t = make_nv_tensor(rows, cols, ts);
  const std::size_t full = cols / kNvBlockSize, bpr = t.blocks_per_row();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    std::uint8_t* s = t.scales.data() + r * bpr;
    std::uint8_t* e = t.elements.data() + r * t.row_element_bytes();
    if (full) k.quantize(xr, full, ts, s, e);
    if (cols % kNvBlockSize) {
      float tail[kNvBlockSize] = {};
      std::copy(xr + full * kNvBlockSize, xr + cols, tail);
      k.quantize(tail, 1, ts, s + full, e + full * kNvBlockBytes);
    }
  }
  return t;
}

NvTensor quantize_nvfp4(const std::vector<float>& x, const NvOptions& o, Path path) {
  return quantize_nvfp4(x.data(), 1, x.size(), o, path);
}

std::vector<float> dequantize(const NvTensor& t, Path path) {
  check_nv_shape(t, "tensor");
  const detail::NvKernels& k = nv_kernels(path);
  std::vector<float> out(t.rows * t.cols);
  const std::size_t full = t.cols / kNvBlockSize;
  for (std::size_t r = 0; r < t.rows; ++r) {
    float* o = out.data() + r * t.cols;
    if (full) k.dequantize(t.row_scales(r), t.row_elements(r), full, t.tensor_scale, o);
    if (t.cols % kNvBlockSize) {
      float tail[kNvBlockSize];
      k.dequantize(t.row_scales(r) + full, t.row_elements(r) + full * kNvBlockBytes, 1, t.tensor_scale, tail);
      std::copy(tail, tail + (t.cols - full * kNvBlockSize), o + full * kNvBlockSize);
    }
  }
  return out;
}

float dot(const NvTensor& a, const NvTensor& b, Path path) {
  check_nv_shape(a, "a");
  check_nv_shape(b, "b");
  if (a.rows != 1 || b.rows != 1) throw InputError("dot", "operands must be vectors (one row each)");
  if (a.cols != b.cols)
    throw InputError("dot", "vector lengths differ (" + std::to_string(a.cols) + " and " + std::to_string(b.cols) + ")");
  const detail::NvKernels& k = nv_kernels(path);
  const float c = k.dot(a.scales.data(), a.elements.data(), b.scales.data(), b.elements.data(), a.blocks_per_row());
  return detail::canonical(c * detail::nv_alpha(a, b));
}

void gemm(const NvTensor& a, const NvTensor& bt, float* c, Path path) {
  check_nv_shape(a, "a");
  check_nv_shape(bt, "bt");
  if (a.cols != bt.cols)
    throw InputError("gemm", "inner dimensions differ (A has " + std::to_string(a.cols) + " columns, Bt has " +
                                 std::to_string(bt.cols) + ")");
  if (a.rows == 0 || bt.rows == 0) return;
  const detail::NvKernels& k = nv_kernels(path);
  if (k.gemm) k.gemm(a, bt, c);
  else detail::ref_nv_gemm(a, bt, c);
}

std::string nv_gemm_kernel(Path path) {
  const detail::NvKernels& k = nv_kernels(path);
  return std::string(path_name(k.path)) + " " + k.gemm_name;
}

ErrorStats nv_error_stats(const float* x, std::size_t n, const NvOptions& o) {
  ErrorStats st;
  st.n = n;
  if (n == 0) return st;
  const NvTensor t = quantize_nvfp4(x, 1, n, o);
  const std::vector<float> y = dequantize(t);
  double sum_x2 = 0, sum_e2 = 0, max_rel = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = x[i], yi = y[i], e = xi - yi;
    sum_x2 += xi * xi;
    sum_e2 += e * e;
    if (xi != 0) {
      const double rel = (e < 0 ? -e : e) / (xi < 0 ? -xi : xi);
      if (rel > max_rel) max_rel = rel;
      if (yi == 0) ++st.zeros;
    }
    const double block_max = 6.0 * static_cast<double>(detail::nv_block_factor(t.scales[i / kNvBlockSize], t.tensor_scale));
    if ((xi < 0 ? -xi : xi) > block_max) ++st.clamped;
  }
  st.rmse = std::sqrt(sum_e2 / static_cast<double>(n));
  st.max_rel_error = max_rel;
  st.sqnr_db = sum_e2 == 0 ? std::numeric_limits<double>::infinity() : 10 * det_log10(sum_x2 / sum_e2);
  return st;
}

ErrorStats nv_error_stats(Distribution d, std::size_t n, std::uint64_t seed, const NvOptions& o) {
  const std::vector<float> x = sample(d, n, seed);
  return nv_error_stats(x.data(), n, o);
}

std::vector<std::uint64_t> code_histogram(const NvTensor& t) {
  std::vector<std::uint64_t> counts(16, 0);
  for (std::size_t r = 0; r < t.rows; ++r)
    for (std::size_t i = 0; i < t.cols; ++i) ++counts[(t.row_elements(r)[i >> 1] >> ((i & 1) * 4)) & 0xF];
  return counts;
}

}  // namespace trnsim::mx
