// MX reference semantics (core/mx): element tables, rounding at every boundary, overflow,
// underflow, signed zero, NaN/Inf, all-zero and subnormal blocks, the four scale rules,
// the published vectors of ../shared/MX.md, packed layouts, Dot/DotGeneral/GEMM
// accumulation, and the deterministic elementary functions. Checked on the scalar path;
// test_mx_paths.cpp checks that every SIMD path gives the same bits.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/error.h"
#include "mx/mx.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_mx {

using namespace trnsim::mx;

namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Block {
  std::uint8_t scale = 0;
  std::uint8_t codes[32] = {};
};

Block quantize_one(const std::vector<float>& x, Format f, Options o = {}) {
  REQUIRE(x.size() <= 32);
  std::uint8_t packed[32];
  Block b;
  quantize_blocks(x.data(), x.size(), f, o, &b.scale, packed, Path::scalar);
  for (int i = 0; i < 32; ++i) b.codes[i] = get_code(f, packed, i);
  return b;
}

// Value of an element code straight from the format definition (spec section 5.3).
double spec_value(Format f, unsigned code) {
  const FormatInfo& i = format_info(f);
  if (f == Format::int8) return static_cast<std::int8_t>(code) / 64.0;
  unsigned s = code >> (i.element_bits - 1), mag = code & ((1u << (i.element_bits - 1)) - 1);
  unsigned e = mag >> i.mantissa_bits, m = mag & ((1u << i.mantissa_bits) - 1);
  double v = e == 0 ? std::ldexp(m / double(1u << i.mantissa_bits), 1 - i.bias)
                    : std::ldexp(1 + m / double(1u << i.mantissa_bits), int(e) - i.bias);
  return s ? -v : v;
}

bool is_special(Format f, unsigned code) {
  if (f == Format::e4m3) return (code & 0x7F) == 0x7F;
  if (f == Format::e5m2) return (code & 0x7C) == 0x7C;
  return false;
}

// All non-negative finite values of a format, ascending.
std::vector<double> positive_values(Format f) {
  std::vector<double> v;
  const FormatInfo& i = format_info(f);
  unsigned n = f == Format::int8 ? 128 : (1u << (i.element_bits - 1));
  for (unsigned c = 0; c < n; ++c)
    if (!is_special(f, c)) v.push_back(spec_value(f, c));
  return v;
}

}  // namespace

TEST_CASE("format parameters match the MX specification") {
  CHECK(format_info(Format::e4m3).max_normal == 448);
  CHECK(format_info(Format::e5m2).max_normal == 57344);
  CHECK(format_info(Format::e3m2).max_normal == 28);
  CHECK(format_info(Format::e2m3).max_normal == 7.5);
  CHECK(format_info(Format::e2m1).max_normal == 6);
  CHECK(format_info(Format::int8).max_normal == 127.0 / 64);
  for (Format f : kAllFormats) {
    const FormatInfo& i = format_info(f);
    CHECK(parse_format(i.name) == f);
    CHECK(decode_element(f, i.max_code) == i.max_normal);
    CHECK(spec_value(f, i.max_code) == i.max_normal);
    CHECK(std::ldexp(1.0, -i.fraction_bits) == i.min_subnormal);
    CHECK(decode_element(f, 1) == i.min_subnormal);
    CHECK(i.block_bytes == 32 * i.element_bits / 8);
    // floor(log2(max_normal)) is emax
    CHECK(std::ldexp(1.0, i.emax) <= i.max_normal);
    CHECK(std::ldexp(1.0, i.emax + 1) > i.max_normal);
  }
  CHECK_FALSE(parse_format("fp8"));
  CHECK(format_names() == "e4m3|e5m2|e3m2|e2m3|e2m1|int8");
}

TEST_CASE("every code of every element format decodes to the spec's value") {
  // FP4 E2M1, written out (spec table: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6).
  const float fp4[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
  for (unsigned c = 0; c < 16; ++c) CHECK(bits_of(decode_element(Format::e2m1, c)) == bits_of(fp4[c]));
  // Spot values from the spec tables.
  CHECK(decode_element(Format::e4m3, 0x7E) == 448);
  CHECK(decode_element(Format::e4m3, 0x08) == 0x1p-6f);
  CHECK(decode_element(Format::e4m3, 0x01) == 0x1p-9f);
  CHECK(decode_element(Format::e4m3, 0x07) == 7 * 0x1p-9f);
  CHECK(decode_element(Format::e5m2, 0x7B) == 57344);
  CHECK(decode_element(Format::e5m2, 0x04) == 0x1p-14f);
  CHECK(decode_element(Format::e5m2, 0x01) == 0x1p-16f);
  CHECK(decode_element(Format::e3m2, 0x1F) == 28);
  CHECK(decode_element(Format::e3m2, 0x04) == 0.25f);
  CHECK(decode_element(Format::e3m2, 0x01) == 0.0625f);
  CHECK(decode_element(Format::e2m3, 0x1F) == 7.5f);
  CHECK(decode_element(Format::e2m3, 0x08) == 1);
  CHECK(decode_element(Format::e2m3, 0x01) == 0.125f);
  CHECK(decode_element(Format::int8, 0x7F) == 127.0f / 64);
  CHECK(decode_element(Format::int8, 0x81) == -127.0f / 64);
  CHECK(decode_element(Format::int8, 0x80) == -2.0f);
  // Specials: E4M3 NaN = S.1111.111 only; E5M2 Inf = S.11111.00, NaN = S.11111.{01,10,11}.
  CHECK(std::isnan(decode_element(Format::e4m3, 0x7F)));
  CHECK(std::isnan(decode_element(Format::e4m3, 0xFF)));
  CHECK(decode_element(Format::e5m2, 0x7C) == std::numeric_limits<float>::infinity());
  CHECK(decode_element(Format::e5m2, 0xFC) == -std::numeric_limits<float>::infinity());
  for (unsigned c : {0x7Du, 0x7Eu, 0x7Fu, 0xFDu, 0xFEu, 0xFFu}) CHECK(std::isnan(decode_element(Format::e5m2, c)));
  // Every code against the definition; signed zeros keep their sign.
  for (Format f : kAllFormats) {
    unsigned n = 1u << format_info(f).element_bits;
    for (unsigned c = 0; c < n; ++c) {
      INFO(format_name(f) << " code " << c);
      if (is_special(f, c)) continue;
      float v = decode_element(f, static_cast<std::uint8_t>(c));
      CHECK(double(v) == spec_value(f, c));
      CHECK(std::signbit(v) == std::signbit(spec_value(f, c)));
    }
  }
}

TEST_CASE("E8M0 scale decoding, including 2^-127 as an FP32 subnormal") {
  CHECK(decode_scale(127) == 1.0f);
  CHECK(decode_scale(128) == 2.0f);
  CHECK(decode_scale(254) == 0x1p127f);
  CHECK(decode_scale(1) == 0x1p-126f);
  CHECK(decode_scale(0) == 0x1p-127f);
  CHECK(decode_scale(0) > 0);
  CHECK(std::isnan(decode_scale(0xFF)));
}

TEST_CASE("packed layouts: FP4 element 2i in the low nibble, FP6 little-endian bit string") {
  std::uint8_t p[32] = {};
  set_code(Format::e2m1, p, 0, 0x3);
  set_code(Format::e2m1, p, 1, 0xA);
  set_code(Format::e2m1, p, 31, 0xF);
  CHECK(p[0] == 0xA3);
  CHECK(p[15] == 0xF0);
  CHECK(get_code(Format::e2m1, p, 1) == 0xA);
  std::uint8_t q[24] = {};
  for (int i = 0; i < 32; ++i) set_code(Format::e3m2, q, i, static_cast<std::uint8_t>((i * 7 + 3) & 0x3F));
  for (int i = 0; i < 32; ++i) CHECK(get_code(Format::e3m2, q, i) == ((i * 7 + 3) & 0x3F));
  // elements 0..3 = 3, 10, 17, 24: bits 0-5 = 3, 6-11 = 10, 12-17 = 17, 18-23 = 24
  std::uint32_t w = 3u | (10u << 6) | (17u << 12) | (24u << 18);
  CHECK(q[0] == (w & 0xFF));
  CHECK(q[1] == ((w >> 8) & 0xFF));
  CHECK(q[2] == ((w >> 16) & 0xFF));
}

TEST_CASE("rounding to nearest even at, just below and just above every boundary") {
  for (Format f : kAllFormats) {
    std::vector<double> v = positive_values(f);
    const FormatInfo& info = format_info(f);
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
      double lo = v[k], hi = v[k + 1], mid = (lo + hi) / 2;
      INFO(format_name(f) << " between " << lo << " and " << hi);
      float fm = static_cast<float>(mid);
      REQUIRE(double(fm) == mid);
      std::uint8_t c_lo = encode_element(static_cast<float>(lo), 0, f, Overflow::saturate);
      std::uint8_t c_hi = encode_element(static_cast<float>(hi), 0, f, Overflow::saturate);
      CHECK(decode_element(f, c_lo) == lo);
      CHECK(decode_element(f, c_hi) == hi);
      std::uint8_t even = (c_lo & 1) == 0 ? c_lo : c_hi;  // the code with an even last bit
      if (f == Format::int8) even = (static_cast<std::int8_t>(c_lo) % 2 == 0) ? c_lo : c_hi;
      CHECK(encode_element(fm, 0, f, Overflow::saturate) == even);
      CHECK(encode_element(std::nextafter(fm, 0.0f), 0, f, Overflow::saturate) == c_lo);
      CHECK(encode_element(std::nextafter(fm, 1e30f), 0, f, Overflow::saturate) == c_hi);
      // negative side mirrors
      std::uint8_t n_lo = encode_element(static_cast<float>(-lo), 0, f, Overflow::saturate);
      CHECK(decode_element(f, n_lo) == -lo);
      CHECK(decode_element(f, encode_element(-fm, 0, f, Overflow::saturate)) ==
            -double(decode_element(f, even)));
      // the same boundary under a scale: v * 2^-se with se = 5 and -7
      CHECK(encode_element(fm * 32.0f, 5, f, Overflow::saturate) == even);
      CHECK(encode_element(fm / 128.0f, -7, f, Overflow::saturate) == even);
    }
    // Beyond the largest value: saturate, or Inf/NaN for FP8 in inf mode.
    float big = static_cast<float>(info.max_normal * 1.5);
    CHECK(encode_element(big, 0, f, Overflow::saturate) == info.max_code);
    std::uint8_t inf_code = encode_element(big, 0, f, Overflow::inf);
    if (f == Format::e4m3) CHECK(inf_code == 0x7F);
    else if (f == Format::e5m2) CHECK(inf_code == 0x7C);
    else CHECK(inf_code == info.max_code);
  }
}

TEST_CASE("overflow boundaries of FP8: saturate and inf modes") {
  // E4M3: 464 is the tie between 448 (1.110) and 480 (1.111): ties to even -> 448.
  CHECK(encode_element(464, 0, Format::e4m3, Overflow::inf) == 0x7E);
  CHECK(encode_element(std::nextafter(464.0f, 1e9f), 0, Format::e4m3, Overflow::inf) == 0x7F);
  CHECK(encode_element(std::nextafter(464.0f, 1e9f), 0, Format::e4m3, Overflow::saturate) == 0x7E);
  CHECK(encode_element(-500, 0, Format::e4m3, Overflow::inf) == 0xFF);
  CHECK(encode_element(-500, 0, Format::e4m3, Overflow::saturate) == 0xFE);
  // E5M2: 61440 is the tie between 57344 (1.11) and 65536 (1.00 x 2^16): even -> overflow.
  CHECK(encode_element(std::nextafter(61440.0f, 0.0f), 0, Format::e5m2, Overflow::inf) == 0x7B);
  CHECK(encode_element(61440, 0, Format::e5m2, Overflow::inf) == 0x7C);
  CHECK(encode_element(-61440, 0, Format::e5m2, Overflow::inf) == 0xFC);
  CHECK(encode_element(61440, 0, Format::e5m2, Overflow::saturate) == 0x7B);
  // INT8 saturates at +-127 (never -128).
  CHECK(encode_element(-3.0f, 0, Format::int8, Overflow::inf) == 0x81);
  CHECK(encode_element(1.9921875f, 0, Format::int8, Overflow::saturate) == 0x7F);
}

TEST_CASE("underflow to zero keeps the sign; FP32 subnormals are converted exactly") {
  for (Format f : kAllFormats) {
    const FormatInfo& i = format_info(f);
    float half = static_cast<float>(i.min_subnormal / 2);
    INFO(format_name(f));
    CHECK(encode_element(half, 0, f, Overflow::saturate) == 0);  // tie to even (zero)
    CHECK(encode_element(std::nextafter(half, 1.0f), 0, f, Overflow::saturate) == 1);
    std::uint8_t neg_zero = f == Format::int8 ? 0 : static_cast<std::uint8_t>(1u << (i.element_bits - 1));
    CHECK(encode_element(-half, 0, f, Overflow::saturate) == neg_zero);
    CHECK(encode_element(-0.0f, 0, f, Overflow::saturate) == neg_zero);
    CHECK(encode_element(from_bits(0x80000001u), -127, f, Overflow::saturate) == neg_zero);
  }
  // MX.md: -0.1 in a block with X = 1 encodes as negative zero (E2M1).
  Block b = quantize_one({-0.1f, 4.0f}, Format::e2m1);
  CHECK(b.scale == 127);
  CHECK(b.codes[0] == 0x8);
  CHECK(b.codes[1] == 0x6);
  // A block of FP32 subnormals: floor(log2 amax) from the bits (2^-140), scale clamps at
  // 2^-127; E5M2 keeps 2^-140 * 2^127 = 2^-13 (a normal E5M2 value), E4M3 rounds it to 0.
  std::vector<float> sub = {0x1p-140f, -0x1p-141f, 0x1p-149f};
  Block e5 = quantize_one(sub, Format::e5m2);
  CHECK(e5.scale == 0);
  CHECK(decode_element(Format::e5m2, e5.codes[0]) == 0x1p-13f);
  CHECK(decode_element(Format::e5m2, e5.codes[1]) == -0x1p-14f);
  CHECK(e5.codes[2] == 0);
  Block e4 = quantize_one(sub, Format::e4m3);
  CHECK(e4.scale == 0);
  CHECK(e4.codes[0] == 0);
  CHECK(e4.codes[1] == 0x80);
  // With flushing, subnormal inputs are +-0: an all-zero block.
  Options flush;
  flush.flush_subnormal_inputs = true;
  Block fl = quantize_one(sub, Format::e5m2, flush);
  CHECK(fl.scale == 0);
  CHECK(fl.codes[0] == 0);
  CHECK(fl.codes[1] == 0x80);
  // Flushing a subnormal beside a normal value changes nothing else.
  Block mixed = quantize_one({1.0f, 0x1p-130f}, Format::e5m2, flush);
  CHECK(mixed.scale == 127 - 15);
  CHECK(mixed.codes[1] == 0);
}

TEST_CASE("special blocks: NaN/Inf gives scale 0xFF, all-zero gives 0x00") {
  for (Format f : kAllFormats) {
    INFO(format_name(f));
    Block n = quantize_one({1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f}, f);
    CHECK(n.scale == 0xFF);
    for (auto c : n.codes) CHECK(c == 0);
    Block i = quantize_one({1.0f, -std::numeric_limits<float>::infinity()}, f);
    CHECK(i.scale == 0xFF);
    Block z = quantize_one({0.0f, -0.0f, 0.0f}, f);
    CHECK(z.scale == 0x00);
    CHECK(z.codes[0] == 0);
    CHECK(z.codes[1] == (f == Format::int8 ? 0 : 1u << (format_info(f).element_bits - 1)));
    // dequantized: NaN block all NaN, zero block all zero
    std::uint8_t sc = 0xFF, el[32] = {};
    float out[32];
    dequantize_blocks(f, &sc, el, 32, out, Path::scalar);
    for (float v : out) CHECK(bits_of(v) == 0x7FC00000u);
  }
}

TEST_CASE("scale rule floor: the published vectors") {
  // microxcaling issue 4: amax 960 in E4M3 gets X = 2; 957 becomes 896 (478.5 clamps to 448).
  Block b = quantize_one({960.0f, 957.0f, 1.0f}, Format::e4m3);
  CHECK(b.scale == 128);
  CHECK(decode_element(Format::e4m3, b.codes[0]) * 2 == 896);
  CHECK(decode_element(Format::e4m3, b.codes[1]) * 2 == 896);
  // pytorch/ao issue 436: E5M2 block [1, 2, ..., 31, 127.9999] gets scale byte 118.
  std::vector<float> v;
  for (int i = 1; i <= 31; ++i) v.push_back(static_cast<float>(i));
  v.push_back(127.9999f);
  CHECK(quantize_one(v, Format::e5m2).scale == 118);
  // floorf(log2f((2 - 2^-23) * 8)) is 4 in float arithmetic; the exponent bits say 3.
  float hazard = (2.0f - 0x1p-23f) * 8.0f;
  CHECK(scale_for_amax(hazard, Format::e2m1, ScaleRule::floor) == 127 + 3 - 2);
  CHECK(scale_for_amax(hazard, Format::e4m3, ScaleRule::floor) == 127 + 3 - 8);
  // Range clamps: huge amax never reaches 0xFF, tiny amax clamps at 0x00.
  CHECK(scale_for_amax(3.0e38f, Format::int8, ScaleRule::floor) == 254);
  CHECK(scale_for_amax(0x1p-149f, Format::e4m3, ScaleRule::floor) == 0);
  CHECK(scale_for_amax(0x1p-100f, Format::e4m3, ScaleRule::floor) == 127 - 100 - 8);
}

TEST_CASE("scale rule rceil: floor, plus one exactly where floor would clamp") {
  struct Threshold {
    Format f;
    double significand_max;  // max_normal / 2^emax
  };
  for (Threshold t : {Threshold{Format::e4m3, 1.75}, Threshold{Format::e5m2, 1.75}, Threshold{Format::e3m2, 1.75},
                      Threshold{Format::e2m3, 1.875}, Threshold{Format::e2m1, 1.5}, Threshold{Format::int8, 127.0 / 64}}) {
    for (int e = -100; e <= 100; e += 7) {
      for (double sig : {1.0, 1.25, 1.5, 1.74, 1.76, 1.87, 1.88, 1.98, 1.99, 1.9999}) {
        float amax = static_cast<float>(std::ldexp(sig, e));
        int fl = scale_for_amax(amax, t.f, ScaleRule::floor);
        int rc = scale_for_amax(amax, t.f, ScaleRule::rceil);
        INFO(format_name(t.f) << " amax " << amax);
        CHECK(rc == fl + (sig > t.significand_max ? 1 : 0));
        // rceil never clamps the block maximum
        CHECK(amax / decode_scale(static_cast<std::uint8_t>(rc)) <= format_info(t.f).max_normal);
      }
    }
  }
  // rceil near a power of two: 448 * fl(1/448) rounds to exactly 1 or just below/above it
  float t = 448.0f * (1.0f / 448.0f);
  int expect = bits_of(t) == 0x3F800000u ? 127 : (t > 1.0f ? 128 : 127);
  CHECK(scale_for_amax(448.0f, Format::e4m3, ScaleRule::rceil) == expect);
  CHECK(scale_for_amax(0x1p-140f, Format::e4m3, ScaleRule::rceil) == 0);
}

TEST_CASE("scale rule even (torchao EVEN) and nki") {
  // E4M3 (3 mantissa bits): amax significand >= 1.9375 rounds up to the next binade.
  CHECK(scale_for_amax(std::ldexp(1.9375f, 8), Format::e4m3, ScaleRule::even) == 128);
  CHECK(scale_for_amax(std::ldexp(1.93f, 8), Format::e4m3, ScaleRule::even) == 127);
  CHECK(scale_for_amax(std::ldexp(1.93f, 8), Format::e4m3, ScaleRule::floor) == 127);
  // E2M1 (1 mantissa bit): significand >= 1.75 rounds up.
  CHECK(scale_for_amax(1.75f * 4, Format::e2m1, ScaleRule::even) == 128);
  CHECK(scale_for_amax(1.74f * 4, Format::e2m1, ScaleRule::even) == 127);
  // nki: twice the OCP scale for FP8; invalid for other formats.
  CHECK(scale_for_amax(448.0f, Format::e4m3, ScaleRule::nki) == 128);
  CHECK(scale_for_amax(448.0f, Format::e4m3, ScaleRule::floor) == 127);
  CHECK(scale_for_amax(57344.0f, Format::e5m2, ScaleRule::nki) == 128);
  Options nki;
  nki.scale = ScaleRule::nki;
  float x[32] = {1.0f};
  std::uint8_t s, e[32];
  CHECK_THROWS_AS(quantize_blocks(x, 32, Format::e2m1, nki, &s, e), trnsim::InputError);
  CHECK_NOTHROW(quantize_blocks(x, 32, Format::e4m3, nki, &s, e));
  // nki never clamps the block maximum: 960 keeps 960 (X = 4, 240 in E4M3).
  Block b = quantize_one({960.0f, 957.0f}, Format::e4m3, nki);
  CHECK(b.scale == 129);
  CHECK(decode_element(Format::e4m3, b.codes[0]) * 4 == 960);
}

TEST_CASE("quantize then dequantize: values on the grid survive exactly") {
  for (Format f : kAllFormats) {
    std::vector<double> v = positive_values(f);
    std::vector<float> x;
    for (std::size_t k = 0; k < v.size() && x.size() < 31; ++k) x.push_back(static_cast<float>(v[v.size() - 1 - k] * 8));
    x.push_back(static_cast<float>(-v.back() * 8));
    Tensor t = quantize(x, f);
    std::vector<float> y = dequantize(t, Path::scalar);
    for (std::size_t k = 0; k < x.size(); ++k) CHECK(y[k] == x[k]);
  }
}

TEST_CASE("Dot accumulates in FP32 in element order; blocks add in order") {
  // E5M2 products 2^30, 1, -2^30: fl32(2^30 + 1) = 2^30, so the block sum is 0 (exactly: 1).
  std::uint8_t a[32] = {}, b[32] = {};
  a[0] = encode_element(32768.0f, 0, Format::e5m2, Overflow::saturate);
  b[0] = a[0];
  a[1] = encode_element(1.0f, 0, Format::e5m2, Overflow::saturate);
  b[1] = a[1];
  a[2] = encode_element(-32768.0f, 0, Format::e5m2, Overflow::saturate);
  b[2] = b[0];
  CHECK(dot_block(Format::e5m2, 127, a, Format::e5m2, 127, b) == 0.0f);
  // reordered: -2^30 first, then 2^30, then 1 -> 1
  std::uint8_t a2[32] = {}, b2[32] = {};
  a2[0] = a[2]; b2[0] = b[2];
  a2[1] = a[0]; b2[1] = b[0];
  a2[2] = a[1]; b2[2] = b[1];
  CHECK(dot_block(Format::e5m2, 127, a2, Format::e5m2, 127, b2) == 1.0f);
  // Scale exponents are added as integers: 2^127 * 2^127 overflows only the result.
  std::uint8_t one[32] = {};
  one[0] = encode_element(1.0f, 0, Format::e2m1, Overflow::saturate);
  CHECK(dot_block(Format::e2m1, 254, one, Format::e2m1, 0, one) == 1.0f);
  CHECK(dot_block(Format::e2m1, 254, one, Format::e2m1, 254, one) == std::numeric_limits<float>::infinity());
  // 2^-127 * 2^-127 * 3: rounded once into the subnormal range (3 * 2^-254 -> 0)
  std::uint8_t three[32] = {};
  three[0] = encode_element(3.0f, 0, Format::e2m1, Overflow::saturate);
  CHECK(dot_block(Format::e2m1, 0, three, Format::e2m1, 0, one) == 0.0f);
  // 1.5 * 2^-149 is a tie between 2^-149 and 2^-148: even -> 2^-148
  std::uint8_t onehalf[32] = {};
  onehalf[0] = encode_element(1.5f, 0, Format::e2m1, Overflow::saturate);
  CHECK(dot_block(Format::e2m1, 0, onehalf, Format::e2m1, 105, one) == 0x1p-148f);
  CHECK(dot_block(Format::e2m1, 0, one, Format::e2m1, 105, one) == 0x1p-149f);
  // NaN scale -> NaN (canonical)
  CHECK(bits_of(dot_block(Format::e2m1, 0xFF, one, Format::e2m1, 127, one)) == 0x7FC00000u);
  // DotGeneral: per-block results added left to right in FP32.
  Tensor x = quantize(std::vector<float>(64, 1.0f), Format::e4m3);
  Tensor y = quantize(std::vector<float>(64, 1.0f), Format::e2m1);
  CHECK(dot(x, y, Path::scalar) == 64.0f);
  std::vector<float> big(96, 0.0f);
  big[0] = 1.0f;   // block 0: 1
  big[32] = 0x1p25f;  // block 1: 2^25
  big[64] = 1.0f;  // block 2: 1
  Tensor bx = quantize(big, Format::e4m3);
  Tensor ones = quantize(std::vector<float>(96, 1.0f), Format::e4m3);
  // (1 + 2^25) rounds to 2^25 (tie to even), then + 1 -> 2^25 again
  CHECK(dot(bx, ones, Path::scalar) == 0x1p25f);
}

TEST_CASE("GEMM: C[i][j] is the DotGeneral of row i of A and row j of Bt, mixed formats") {
  const std::size_t M = 5, N = 7, K = 70;
  std::vector<float> av = sample(Distribution::normal, M * K, 1), bv = sample(Distribution::laplace, N * K, 2);
  Tensor a = quantize(av.data(), M, K, Format::e4m3);
  Tensor bt = quantize(bv.data(), N, K, Format::e2m1);
  std::vector<float> c(M * N);
  gemm(a, bt, c.data(), Path::scalar);
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      float d = dot_blocks(a.format, a.row_scales(i), a.row_elements(i), bt.format, bt.row_scales(j),
                           bt.row_elements(j), a.blocks_per_row(), Path::scalar);
      CHECK(bits_of(c[i * N + j]) == bits_of(d));
    }
  // and is close to the FP32 product of the dequantized operands
  std::vector<float> ad = dequantize(a), bd = dequantize(bt);
  double ref = 0, mag = 0;
  for (std::size_t k = 0; k < K; ++k) {
    ref += double(ad[k]) * bd[k];
    mag += std::fabs(double(ad[k]) * bd[k]);
  }
  CHECK(std::fabs(c[0] - ref) <= 1e-5 * mag);
  Tensor wrong = quantize(bv.data(), N, K - 1, Format::e2m1);
  CHECK_THROWS_AS(gemm(a, wrong, c.data(), Path::scalar), trnsim::InputError);
}

TEST_CASE("deterministic log and exp are accurate") {
  for (double x : {1e-300, 1e-10, 0.001, 0.5, 0.7071, 1.0, 1.0001, 2.0, 10.0, 12345.678, 1e300}) {
    INFO(x);
    CHECK(std::fabs(det_log(x) - std::log(x)) <= 4e-16 * std::fabs(std::log(x)) + 1e-300);
  }
  CHECK(det_log(1.0) == 0.0);
  for (double x : {-700.0, -20.0, -1.0, -1e-8, 0.0, 0.3, 1.0, 5.5, 88.0, 700.0}) {
    INFO(x);
    CHECK(std::fabs(det_exp(x) - std::exp(x)) <= 4e-16 * std::exp(x));
  }
  CHECK(std::fabs(det_log10(1000.0) - 3.0) < 1e-15);
}

TEST_CASE("error statistics and samples") {
  std::vector<float> s = sample(Distribution::normal, 100000, 7);
  double m = 0, v = 0;
  for (float x : s) m += x;
  m /= s.size();
  for (float x : s) v += (x - m) * (x - m);
  v /= s.size();
  CHECK(std::fabs(m) < 0.02);
  CHECK(std::fabs(v - 1) < 0.02);
  for (float x : sample(Distribution::lognormal, 1000, 1)) CHECK(x > 0);
  for (float x : sample(Distribution::uniform, 1000, 1)) CHECK((x >= -1 && x < 1));
  ErrorStats e8 = error_stats(Format::e4m3, {}, Distribution::normal, 4096, 1);
  ErrorStats e4 = error_stats(Format::e2m1, {}, Distribution::normal, 4096, 1);
  ErrorStats i8 = error_stats(Format::int8, {}, Distribution::normal, 4096, 1);
  CHECK(e8.n == 4096);
  CHECK(e8.sqnr_db > e4.sqnr_db);
  CHECK(i8.sqnr_db > e8.sqnr_db);
  CHECK(e8.sqnr_db > 25);
  CHECK(e8.sqnr_db < 40);
  CHECK(e4.max_rel_error <= 1.0);
  Histogram h = histogram(s.data(), s.size(), -4, 4, 8);
  std::uint64_t total = h.below + h.above + h.nan;
  for (auto c : h.counts) total += c;
  CHECK(total == s.size());
  Tensor t = quantize(s, Format::e2m1);
  auto ch = code_histogram(t);
  CHECK(ch.size() == 16);
  std::uint64_t sum = 0;
  for (auto c : ch) sum += c;
  CHECK(sum == s.size());
}

TEST_CASE("BF16 inputs quantize like their FP32 values") {
  std::vector<float> x = sample(Distribution::normal, 100, 3);
  std::vector<std::uint16_t> b(x.size());
  std::vector<float> xb(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    b[i] = static_cast<std::uint16_t>(bits_of(x[i]) >> 16);
    xb[i] = from_bits(static_cast<std::uint32_t>(b[i]) << 16);
  }
  Tensor t1 = quantize_bf16(b.data(), 1, b.size(), Format::e4m3);
  Tensor t2 = quantize(xb, Format::e4m3);
  CHECK(t1.scales == t2.scales);
  CHECK(t1.elements == t2.elements);
}

}  // namespace unit_mx
