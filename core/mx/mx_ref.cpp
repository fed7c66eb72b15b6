// MX scalar reference: the formats' tables, scale rules, element rounding, packing, Dot,
// DotGeneral and GEMM exactly as mx.h defines them. Written for clarity with integer
// arithmetic on the FP32 bits (no float tricks), so the SIMD paths, which use float
// tricks, are checked against an independent implementation. Sources: OCP MX v1.0
// (sections 5, 6), OCP FP8, and the project rules in docs/mx.md.
#include <cmath>
#include <cstring>

#include "common/error.h"
#include "mx/mx_internal.h"

namespace trnsim::mx {

namespace {

// name, long name, bits, exponent bits, mantissa bits, bias, emax, fraction bits,
// max normal, min normal, min subnormal, inf, nan, block bytes, max code
const FormatInfo kInfo[6] = {
    {Format::e4m3, "e4m3", "MXFP8 E4M3", 8, 4, 3, 7, 8, 9, 448.0, 0x1p-6, 0x1p-9, false, true, 32, 0x7E},
    {Format::e5m2, "e5m2", "MXFP8 E5M2", 8, 5, 2, 15, 15, 16, 57344.0, 0x1p-14, 0x1p-16, true, true, 32, 0x7B},
    {Format::e3m2, "e3m2", "MXFP6 E3M2", 6, 3, 2, 3, 4, 4, 28.0, 0.25, 0x1p-4, false, false, 24, 0x1F},
    {Format::e2m3, "e2m3", "MXFP6 E2M3", 6, 2, 3, 1, 2, 3, 7.5, 1.0, 0.125, false, false, 24, 0x1F},
    {Format::e2m1, "e2m1", "MXFP4 E2M1", 4, 2, 1, 1, 2, 1, 6.0, 1.0, 0.5, false, false, 16, 0x07},
    {Format::int8, "int8", "MXINT8", 8, 0, 6, 0, 0, 6, 127.0 / 64.0, 0x1p-6, 0x1p-6, false, false, 32, 0x7F},
};

int bit_length(std::uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

// m * 2^s rounded to an integer, ties to even (m < 2^40, s <= 8).
std::uint64_t round_shift(std::uint64_t m, int s) {
  if (s >= 0) return m << s;
  int r = -s;
  if (r > 60) return 0;
  std::uint64_t q = m >> r, rem = m & ((std::uint64_t{1} << r) - 1), half = std::uint64_t{1} << (r - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  return q;
}

// floor(log2 |v|) of a finite nonzero magnitude given as FP32 bits.
int floor_log2_bits(std::uint32_t mag) {
  int ef = static_cast<int>(mag >> 23);
  if (ef > 0) return ef - 127;
  return -149 + bit_length(mag) - 1;  // subnormal
}

struct Tables {
  float value[6][256];
  std::int16_t integer[6][256];
  Tables() {
    for (int fi = 0; fi < 6; ++fi) {
      const FormatInfo& info = kInfo[fi];
      for (int c = 0; c < 256; ++c) {
        float v = 0;
        if (c < (1 << info.element_bits)) v = decode_element(info.format, static_cast<std::uint8_t>(c));
        value[fi][c] = detail::canonical(v);
        integer[fi][c] = 0;
        if (is_narrow(info.format) && c < (1 << info.element_bits))
          integer[fi][c] = static_cast<std::int16_t>(std::ldexp(static_cast<double>(v), info.fraction_bits));
      }
    }
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

const FormatInfo& format_info(Format f) { return kInfo[static_cast<int>(f)]; }
const char* format_name(Format f) { return format_info(f).name; }
bool is_narrow(Format f) { return f != Format::e4m3 && f != Format::e5m2; }

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& i : kInfo)
    if (name == i.name) return i.format;
  return std::nullopt;
}

std::string format_names(const char* separator) {
  std::string s;
  for (const auto& i : kInfo) {
    if (!s.empty()) s += separator;
    s += i.name;
  }
  return s;
}

const char* scale_rule_name(ScaleRule r) {
  switch (r) {
    case ScaleRule::floor: return "floor";
    case ScaleRule::rceil: return "rceil";
    case ScaleRule::even: return "even";
    case ScaleRule::nki: return "nki";
  }
  return "?";
}
std::optional<ScaleRule> parse_scale_rule(std::string_view n) {
  for (ScaleRule r : {ScaleRule::floor, ScaleRule::rceil, ScaleRule::even, ScaleRule::nki})
    if (n == scale_rule_name(r)) return r;
  return std::nullopt;
}
const char* overflow_name(Overflow o) { return o == Overflow::saturate ? "saturate" : "inf"; }
std::optional<Overflow> parse_overflow(std::string_view n) {
  if (n == "saturate") return Overflow::saturate;
  if (n == "inf") return Overflow::inf;
  return std::nullopt;
}

void check_options(Format f, const Options& o) {
  if (o.scale == ScaleRule::nki && is_narrow(f))
    throw InputError("scale", std::string("the nki rule applies to e4m3 and e5m2 only, not ") + format_name(f));
}

float decode_element(Format f, std::uint8_t code) {
  const FormatInfo& i = format_info(f);
  if (f == Format::int8) return static_cast<float>(static_cast<std::int8_t>(code)) * 0x1p-6f;
  code &= static_cast<std::uint8_t>((1u << i.element_bits) - 1);
  bool neg = (code >> (i.element_bits - 1)) & 1;
  int mag = code & ((1 << (i.element_bits - 1)) - 1);
  int e = mag >> i.mantissa_bits, m = mag & ((1 << i.mantissa_bits) - 1);
  int emax_field = (1 << i.exponent_bits) - 1;
  if (f == Format::e4m3 && e == emax_field && m == (1 << i.mantissa_bits) - 1) return detail::u2f(detail::kCanonicalNaN);
  if (f == Format::e5m2 && e == emax_field) {
    if (m != 0) return detail::u2f(detail::kCanonicalNaN);
    return neg ? -INFINITY : INFINITY;
  }
  double v = e == 0 ? std::ldexp(static_cast<double>(m), 1 - i.bias - i.mantissa_bits)
                    : std::ldexp(static_cast<double>(m + (1 << i.mantissa_bits)), e - i.bias - i.mantissa_bits);
  float fv = static_cast<float>(v);
  return neg ? -fv : fv;
}

float decode_scale(std::uint8_t x) {
  if (x == kScaleNaN) return detail::u2f(detail::kCanonicalNaN);
  if (x == 0) return detail::u2f(0x00400000u);  // 2^-127, an FP32 subnormal
  return detail::u2f(static_cast<std::uint32_t>(x) << 23);
}

std::uint8_t scale_for_amax(float amax, Format f, ScaleRule r) {
  const FormatInfo& i = format_info(f);
  std::uint32_t a = detail::f2u(amax) & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return kScaleNaN;
  if (a == 0) return kScaleZero;
  int e = 0;
  switch (r) {
    case ScaleRule::floor: e = floor_log2_bits(a) - i.emax; break;
    case ScaleRule::nki:
      if (is_narrow(f)) check_options(f, Options{ScaleRule::nki, Overflow::saturate, false});
      e = floor_log2_bits(a) - (i.emax - 1);
      break;
    case ScaleRule::even: {
      // torchao EVEN: add half a unit of the element's last mantissa place to the FP32
      // bits, drop the mantissa, read the exponent field (0 for subnormals: 2^-127).
      std::uint32_t rb = (a + (1u << (22 - i.mantissa_bits))) & 0x7F800000u;
      e = static_cast<int>(rb >> 23) - 127 - i.emax;
      break;
    }
    case ScaleRule::rceil: {
      float t = amax < 0 ? -amax : amax;
      t = t * (1.0f / static_cast<float>(i.max_normal));
      std::uint32_t tb = detail::f2u(t);
      if (tb == 0) {
        e = -127;
      } else if ((tb >> 23) == 0) {  // subnormal: ceil(log2(tb * 2^-149))
        e = -149 + bit_length(tb - 1);
      } else {
        e = static_cast<int>(tb >> 23) - 127 + ((tb & 0x7FFFFFu) != 0 ? 1 : 0);
      }
      break;
    }
  }
  if (e < -127) e = -127;
  if (e > 127) e = 127;
  return static_cast<std::uint8_t>(e + 127);
}

std::uint8_t encode_element(float v, int se, Format f, Overflow o) {
  const FormatInfo& i = format_info(f);
  std::uint32_t bits = detail::f2u(v);
  bool neg = bits >> 31;
  std::uint32_t mag = bits & 0x7FFFFFFFu;
  std::uint32_t sign_bit = f == Format::int8 ? 0u : (1u << (i.element_bits - 1));
  std::uint32_t code;
  if (mag > 0x7F800000u) {  // NaN
    code = f == Format::e4m3 || f == Format::e5m2 ? 0x7Fu : 0u;
    return static_cast<std::uint8_t>(code | (neg ? sign_bit : 0u));
  }
  if (mag == 0x7F800000u) {
    code = i.max_code + 1u;  // overflow
  } else if (mag == 0) {
    return static_cast<std::uint8_t>(neg ? sign_bit : 0u);
  } else {
    int ef = static_cast<int>(mag >> 23);
    std::uint64_t M = ef ? ((mag & 0x7FFFFFu) | 0x800000u) : mag;
    int E = (ef ? ef - 150 : -149) - se;  // |v| * 2^-se = M * 2^E
    if (f == Format::int8) {
      if (bit_length(M) + E + 6 > 9) {
        code = 128;
      } else {
        code = static_cast<std::uint32_t>(round_shift(M, E + 6));
      }
      if (code > 127) code = 127;
      std::int32_t s = neg ? -static_cast<std::int32_t>(code) : static_cast<std::int32_t>(code);
      return static_cast<std::uint8_t>(s & 0xFF);
    }
    int m = i.mantissa_bits, emin = 1 - i.bias;
    int et = E + bit_length(M) - 1;  // floor(log2 |t|)
    int qe = (et > emin ? et : emin) - m;
    std::uint64_t R = round_shift(M, E - qe);  // |t| / 2^qe, rounded
    if (R >= (2u << m)) {                      // carried into the next binade: R == 2^(m+1)
      R >>= 1;
      ++qe;
    }
    if (R < (1u << m)) {
      code = static_cast<std::uint32_t>(R);  // subnormal or zero
    } else {
      long long field = static_cast<long long>(qe) + m + i.bias;
      code = field > 255 ? 0xFFFFu : static_cast<std::uint32_t>((field << m) | static_cast<long long>(R - (1u << m)));
    }
  }
  if (code > i.max_code) {
    if (o == Overflow::inf && f == Format::e5m2) code = 0x7C;
    else if (o == Overflow::inf && f == Format::e4m3) code = 0x7F;
    else code = i.max_code;
  }
  if (f == Format::int8) {
    std::int32_t s = neg ? -static_cast<std::int32_t>(code) : static_cast<std::int32_t>(code);
    return static_cast<std::uint8_t>(s & 0xFF);
  }
  return static_cast<std::uint8_t>(code | (neg ? sign_bit : 0u));
}

std::uint8_t get_code(Format f, const std::uint8_t* p, int i) {
  switch (format_info(f).element_bits) {
    case 8: return p[i];
    case 4: return static_cast<std::uint8_t>((p[i >> 1] >> ((i & 1) * 4)) & 0xF);
    default: {
      int bit = 6 * i, byte = bit >> 3, sh = bit & 7;
      unsigned w = p[byte] | (byte + 1 < 24 ? static_cast<unsigned>(p[byte + 1]) << 8 : 0u);
      return static_cast<std::uint8_t>((w >> sh) & 0x3F);
    }
  }
}

void set_code(Format f, std::uint8_t* p, int i, std::uint8_t code) {
  switch (format_info(f).element_bits) {
    case 8: p[i] = code; return;
    case 4: {
      int sh = (i & 1) * 4;
      p[i >> 1] = static_cast<std::uint8_t>((p[i >> 1] & ~(0xF << sh)) | ((code & 0xF) << sh));
      return;
    }
    default: {
      int bit = 6 * i, byte = bit >> 3, sh = bit & 7;
      unsigned mask = 0x3Fu << sh, val = (code & 0x3Fu) << sh;
      p[byte] = static_cast<std::uint8_t>((p[byte] & ~mask) | (val & 0xFF));
      if (sh > 2)
        p[byte + 1] = static_cast<std::uint8_t>((p[byte + 1] & ~(mask >> 8)) | (val >> 8));
      return;
    }
  }
}

namespace detail {

const float* element_table(Format f) { return tables().value[static_cast<int>(f)]; }
const std::int16_t* integer_table(Format f) { return tables().integer[static_cast<int>(f)]; }

float mul_pow2(float s, int e) {
  // (double)s * 2^e is exact for |e| <= 300 and every FP32 s; the conversion rounds once.
  if (e > 300) e = 300;
  if (e < -300) e = -300;
  return static_cast<float>(static_cast<double>(s) * std::ldexp(1.0, e));
}

void unpack_codes(Format f, const std::uint8_t* p, std::uint8_t* codes) {
  switch (format_info(f).element_bits) {
    case 8: std::memcpy(codes, p, 32); return;
    case 4:
      for (int i = 0; i < 16; ++i) {
        codes[2 * i] = p[i] & 0xF;
        codes[2 * i + 1] = p[i] >> 4;
      }
      return;
    default:
      for (int g = 0; g < 8; ++g) {
        std::uint32_t w = p[3 * g] | (p[3 * g + 1] << 8) | (p[3 * g + 2] << 16);
        for (int t = 0; t < 4; ++t) codes[4 * g + t] = (w >> (6 * t)) & 0x3F;
      }
      return;
  }
}

void pack_codes(Format f, const std::uint8_t* codes, std::uint8_t* p) {
  switch (format_info(f).element_bits) {
    case 8: std::memcpy(p, codes, 32); return;
    case 4:
      for (int i = 0; i < 16; ++i) p[i] = static_cast<std::uint8_t>((codes[2 * i] & 0xF) | (codes[2 * i + 1] << 4));
      return;
    default:
      for (int g = 0; g < 8; ++g) {
        std::uint32_t w = 0;
        for (int t = 0; t < 4; ++t) w |= static_cast<std::uint32_t>(codes[4 * g + t] & 0x3F) << (6 * t);
        p[3 * g] = w & 0xFF;
        p[3 * g + 1] = (w >> 8) & 0xFF;
        p[3 * g + 2] = (w >> 16) & 0xFF;
      }
      return;
  }
}

void ref_quantize_block(const float* x, Format f, const Options& o, std::uint8_t* scale, std::uint8_t* elements) {
  float v[kBlockSize];
  std::uint32_t amax = 0;
  bool special = false;
  for (int i = 0; i < kBlockSize; ++i) {
    std::uint32_t b = f2u(x[i]), mag = b & 0x7FFFFFFFu;
    if (o.flush_subnormal_inputs && mag < 0x00800000u) {
      b &= 0x80000000u;
      mag = 0;
    }
    v[i] = u2f(b);
    if (mag >= 0x7F800000u) special = true;
    if (mag > amax) amax = mag;
  }
  const FormatInfo& info = format_info(f);
  std::memset(elements, 0, static_cast<std::size_t>(info.block_bytes));
  if (special) {
    *scale = kScaleNaN;
    return;
  }
  std::uint8_t sb = scale_for_amax(u2f(amax), f, o.scale);
  std::uint8_t codes[kBlockSize];
  for (int i = 0; i < kBlockSize; ++i) codes[i] = encode_element(v[i], static_cast<int>(sb) - 127, f, o.overflow);
  pack_codes(f, codes, elements);
  *scale = sb;
}

float ref_dot_block(Format fa, std::uint8_t xa, const std::uint8_t* pa, Format fb, std::uint8_t xb,
                    const std::uint8_t* pb) {
  if (xa == kScaleNaN || xb == kScaleNaN) return u2f(kCanonicalNaN);
  std::uint8_t ca[kBlockSize], cb[kBlockSize];
  unpack_codes(fa, pa, ca);
  unpack_codes(fb, pb, cb);
  const float* ta = element_table(fa);
  const float* tb = element_table(fb);
  float s = 0.0f;
  for (int i = 0; i < kBlockSize; ++i) {
    float p = ta[ca[i]] * tb[cb[i]];  // exact
    s = s + p;
  }
  return mul_pow2(s, static_cast<int>(xa) + static_cast<int>(xb) - 254);
}

float ref_dot_blocks(Format fa, const std::uint8_t* xa, const std::uint8_t* pa, Format fb, const std::uint8_t* xb,
                     const std::uint8_t* pb, std::size_t n_blocks) {
  const std::size_t ba = static_cast<std::size_t>(format_info(fa).block_bytes);
  const std::size_t bb = static_cast<std::size_t>(format_info(fb).block_bytes);
  float c = 0.0f;
  for (std::size_t b = 0; b < n_blocks; ++b) c = c + ref_dot_block(fa, xa[b], pa + b * ba, fb, xb[b], pb + b * bb);
  return canonical(c);
}

void ref_gemm_tile(const Tensor& a, const Tensor& bt, std::size_t i0, std::size_t i1, std::size_t j0,
                   std::size_t j1, float* c, std::size_t ldc) {
  const std::size_t nb = a.blocks_per_row();
  for (std::size_t i = i0; i < i1; ++i)
    for (std::size_t j = j0; j < j1; ++j)
      c[i * ldc + j] = ref_dot_blocks(a.format, a.row_scales(i), a.row_elements(i), bt.format, bt.row_scales(j),
                                      bt.row_elements(j), nb);
}

namespace {

void scalar_quantize(const float* x, std::size_t n_blocks, Format f, const Options& o, std::uint8_t* scales,
                     std::uint8_t* elements) {
  const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
  for (std::size_t b = 0; b < n_blocks; ++b) ref_quantize_block(x + b * kBlockSize, f, o, scales + b, elements + b * bb);
}

void scalar_dequantize(Format f, const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n_blocks,
                       float* out) {
  const std::size_t bb = static_cast<std::size_t>(format_info(f).block_bytes);
  const float* t = element_table(f);
  std::uint8_t codes[kBlockSize];
  for (std::size_t b = 0; b < n_blocks; ++b) {
    unpack_codes(f, elements + b * bb, codes);
    float x = decode_scale(scales[b]);
    for (int i = 0; i < kBlockSize; ++i) out[b * kBlockSize + i] = canonical(t[codes[i]] * x);
  }
}

const Kernels kScalar = {Path::scalar, scalar_quantize, scalar_dequantize, ref_dot_blocks, nullptr};

}  // namespace

const Kernels& scalar_kernels() { return kScalar; }

}  // namespace detail
}  // namespace trnsim::mx
