// `trnsim mx`: the MX numerics of core/mx from the shell, reading stdin and writing stdout:
// quantize numbers into MX or NVFP4 blocks (one text line per block), dequantize that text
// back, the FP32 dot product of two quantized vectors, the error of a quantize-dequantize
// round trip over a chosen distribution, and every format's error on the same samples
// (compare: MXFP4 against NVFP4 among them). Bad input names its line and exits with 2.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "common/limits.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"

namespace {

using trnsim::InputError;
using trnsim::cli::Args;
using trnsim::cli::Io;
namespace mx = trnsim::mx;

const char* kMxUsage =
    "Usage: trnsim mx quantize --format F [--scale R] [--overflow O] [--flush-subnormals]\n"
    "                          [--tensor-scale T] [--input text|f32] [--path P]\n"
    "       trnsim mx dequantize --format F [--path P]\n"
    "       trnsim mx dot --a-format F --b-format G [--scale R] [--overflow O]\n"
    "                     [--flush-subnormals] [--tensor-scale T] [--path P]\n"
    "       trnsim mx error --format F [--dist D] [--n N] [--seed S] [--scale R]\n"
    "                       [--overflow O] [--flush-subnormals] [--tensor-scale T] [--json]\n"
    "       trnsim mx compare [--dist D] [--n N] [--seed S] [--json]\n"
    "       trnsim mx bench [--seconds S]\n"
    "\n"
    "OCP Microscaling (MX) formats, bit-exact: blocks of 32 elements sharing one E8M0 scale;\n"
    "and NVIDIA's NVFP4: E2M1 elements in blocks of 16 with an E4M3 scale each and one FP32\n"
    "scale per tensor (amax / (6 * 448), NVIDIA's recipe; docs/mx.md).\n"
    "All subcommands read stdin and write stdout.\n"
    "\n"
    "  quantize    Input: whitespace-separated decimal numbers (nan, inf, -inf accepted), or\n"
    "              with --input f32 raw little-endian float32. Output: one line per block of\n"
    "              32: the scale byte, then the 32 element codes, each as two lowercase hex\n"
    "              digits, separated by single spaces. A last partial block is padded with 0.\n"
    "              nvfp4: a first line 'tensor_scale 0xHHHHHHHH' (the FP32 bits), then one\n"
    "              line per block of 16: the E4M3 scale byte and the 16 codes.\n"
    "  dequantize  Reads the quantize output back and prints each block's 32 values on a line\n"
    "              (shortest decimal that reads back to the same FP32; nan, inf, -inf).\n"
    "  dot         Reads two lines of numbers of equal length, quantizes the first with\n"
    "              --a-format and the second with --b-format, and prints the FP32 DotGeneral\n"
    "              in decimal and as hex bits.\n"
    "  error       Quantizes N samples of a distribution and prints the RMSE, the largest\n"
    "              relative error and the SQNR (dB) of the round trip.\n"
    "  compare     The same statistics for every format on the same samples, one line each\n"
    "              (MXFP4 against NVFP4 among them), with the bits each stores per element.\n"
    "  bench       Times quantize, dequantize, dot and GEMM on every code path of this build\n"
    "              (e.g. WebAssembly SIMD128 under node against native AVX2). Timings vary\n"
    "              from run to run; the benchmarks proper are in trnsim-bench.\n"
    "\n"
    "Options:\n"
    "  --format F, --a-format F, --b-format F\n"
    "                 e4m3 | e5m2 (MXFP8), e3m2 | e2m3 (MXFP6), e2m1 (MXFP4), int8 (MXINT8),\n"
    "                 nvfp4 (NVFP4; multiplies only nvfp4; the MX scale options do not apply)\n"
    "  --scale R      floor (OCP, default) | rceil | even | nki (FP8 only)\n"
    "  --overflow O   saturate (default) | inf (FP8: E5M2 -> Inf, E4M3 -> NaN)\n"
    "  --flush-subnormals  treat FP32 subnormal inputs as zero\n"
    "  --tensor-scale T    nvfp4: use this FP32 tensor scale instead of amax / 2688\n"
    "  --json         error, compare: one JSON object instead of text\n"
    "  --dist D       normal (default) | laplace | uniform | lognormal\n"
    "  --n N          number of samples (default 100000, at most 67108864)\n"
    "  --seed S       generator seed (default 1)\n"
    "  --path P       auto (default) | scalar | avx2 | avx512 | wasm_simd: the code path\n"
    "                 (all give identical bits)\n"
    "\n"
    "Packed codes: FP8 and INT8 one byte per element; FP6 and FP4 codes are printed one per\n"
    "field (the in-memory packing is described in docs/mx.md). Exit codes: 0 ok, 2 bad input.\n";

mx::Format format_option(const Args& args, const std::string& name) {
  auto v = args.value(name);
  if (!v) throw InputError("--" + name, "missing (one of " + mx::format_names() + "|nvfp4)");
  auto f = mx::parse_format(*v);
  if (!f) throw InputError("--" + name, "unknown format '" + *v + "' (expected " + mx::format_names() + "|nvfp4)");
  return *f;
}

mx::Options options_from(const Args& args) {
  mx::Options o;
  if (auto v = args.value("scale")) {
    auto r = mx::parse_scale_rule(*v);
    if (!r) throw InputError("--scale", "unknown scale rule '" + *v + "' (expected floor|rceil|even|nki)");
    o.scale = *r;
  }
  if (auto v = args.value("overflow")) {
    auto r = mx::parse_overflow(*v);
    if (!r) throw InputError("--overflow", "unknown overflow mode '" + *v + "' (expected saturate|inf)");
    o.overflow = *r;
  }
  o.flush_subnormal_inputs = args.flag("flush-subnormals");
  return o;
}

mx::Path path_from(const Args& args) {
  auto v = args.value("path");
  if (!v) return mx::Path::automatic;
  auto p = mx::parse_path(*v);
  if (!p) throw InputError("--path", "unknown path '" + *v + "' (expected auto|scalar|avx2|avx512|wasm_simd)");
  return mx::resolve_path(*p);
}

void check_format_options(mx::Format f, const mx::Options& o) {
  try {
    mx::check_options(f, o);
  } catch (const InputError& e) {
    std::string what = e.what();
    throw InputError("--scale", what.substr(e.field().empty() ? 0 : e.field().size() + 2));
  }
}

std::string line_name(std::size_t line) { return "line " + std::to_string(line); }

bool parse_number(const std::string& tok, float& out);

// --format nvfp4 (or --a-format / --b-format): NVFP4 instead of an MX element format.
bool is_nvfp4(const Args& args, const std::string& name) {
  auto v = args.value(name);
  return v && *v == "nvfp4";
}

// NVFP4 takes NVIDIA's recipe, not the MX scale options; --tensor-scale fixes its FP32 scale.
mx::NvOptions nv_options_from(const Args& args) {
  for (const char* o : {"scale", "overflow"})
    if (args.value(o))
      throw InputError(std::string("--") + o, "does not apply to nvfp4 (E4M3 block scales by NVIDIA's recipe)");
  if (args.flag("flush-subnormals")) throw InputError("--flush-subnormals", "does not apply to nvfp4");
  mx::NvOptions o;
  if (auto v = args.value("tensor-scale")) {
    float f;
    if (!parse_number(*v, f)) throw InputError("--tensor-scale", "'" + *v + "' is not a number");
    mx::check_nv_tensor_scale(f, "--tensor-scale");
    o.tensor_scale = f;
  }
  return o;
}

void reject_tensor_scale(const Args& args) {
  if (args.value("tensor-scale")) throw InputError("--tensor-scale", "applies to nvfp4 only");
}

// One whitespace-separated token as an FP32 value: a decimal number (rounded to nearest
// FP32, so 1e39 is inf), or nan / inf / -inf / +inf.
bool parse_number(const std::string& tok, float& out) {
  std::string low;
  for (char c : tok) low += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (low == "nan" || low == "+nan" || low == "-nan") {
    out = std::strtof("nan", nullptr);
    return true;
  }
  if (low == "inf" || low == "+inf" || low == "infinity" || low == "+infinity") {
    out = std::strtof("inf", nullptr);
    return true;
  }
  if (low == "-inf" || low == "-infinity") {
    out = -std::strtof("inf", nullptr);
    return true;
  }
  // [+-] digits [. digits] [e [+-] digits], at least one digit in the mantissa
  std::size_t i = 0, n = tok.size(), digits = 0;
  if (i < n && (tok[i] == '+' || tok[i] == '-')) ++i;
  while (i < n && tok[i] >= '0' && tok[i] <= '9') ++i, ++digits;
  if (i < n && tok[i] == '.') {
    ++i;
    while (i < n && tok[i] >= '0' && tok[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < n && (tok[i] == 'e' || tok[i] == 'E')) {
    ++i;
    if (i < n && (tok[i] == '+' || tok[i] == '-')) ++i;
    std::size_t ed = 0;
    while (i < n && tok[i] >= '0' && tok[i] <= '9') ++i, ++ed;
    if (ed == 0) return false;
  }
  if (i != n) return false;
  errno = 0;
  out = std::strtof(tok.c_str(), nullptr);  // correctly rounded; overflow gives +-inf
  return true;
}

// Lines of whitespace-separated tokens, numbered from 1, visited one at a time (the input
// may be large: only one line's tokens are held at once).
struct Line {
  std::size_t number = 0;
  std::vector<std::string> tokens;
};
template <class Fn>
void for_each_line(const std::string& text, Fn fn) {
  std::size_t start = 0, number = 1;
  Line l;
  std::string tok;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    l.number = number;
    l.tokens.clear();
    for (std::size_t i = start; i < end; ++i) {
      char c = text[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        if (!tok.empty()) l.tokens.push_back(tok), tok.clear();
      } else {
        tok += c;
      }
    }
    if (!tok.empty()) l.tokens.push_back(tok), tok.clear();
    fn(static_cast<const Line&>(l));
    ++number;
    if (end == text.size()) break;
    start = end + 1;
  }
}

// Values read so far must stay within limits::kMaxMxValues.
void check_value_count(std::size_t n, const std::string& where) {
  if (n > trnsim::limits::kMaxMxValues)
    throw InputError(where, "more than " + std::to_string(trnsim::limits::kMaxMxValues) +
                                " values, the limit of one trnsim mx run");
}

void append_numbers_of_line(const Line& l, std::vector<float>& v) {
  check_value_count(v.size() + l.tokens.size(), line_name(l.number));
  for (std::size_t k = 0; k < l.tokens.size(); ++k) {
    float x;
    if (!parse_number(l.tokens[k], x))
      throw InputError(line_name(l.number), "'" + l.tokens[k] + "' (field " + std::to_string(k + 1) + ") is not a number");
    v.push_back(x);
  }
}

std::string float_text(float v) {
  if (v != v) return "nan";
  if (v == std::strtof("inf", nullptr)) return "inf";
  if (v == -std::strtof("inf", nullptr)) return "-inf";
  // The fewest significant digits that read back to the same FP32, written without an
  // exponent when that needs no more digits than the value's integer part (30, not 3e+01).
  char buf[40];
  int p = 1;
  for (; p < 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  std::snprintf(buf, sizeof buf, "%.0e", static_cast<double>(v));
  const char* e = std::strchr(buf, 'e');
  int e10 = e ? std::atoi(e + 1) : 0;
  if (e10 >= p && e10 < 9) p = e10 + 1;
  std::snprintf(buf, sizeof buf, "%.*g", p, static_cast<double>(v));
  return buf;
}

const char* hex2(unsigned b) {
  static const char* digits = "0123456789abcdef";
  static char s[3];
  s[0] = digits[(b >> 4) & 0xF];
  s[1] = digits[b & 0xF];
  s[2] = 0;
  return s;
}

void print_blocks(std::ostream& out, const mx::Tensor& t) {
  const std::size_t nb = t.blocks_per_row();
  const int bb = mx::format_info(t.format).block_bytes;
  std::string line;
  for (std::size_t b = 0; b < nb; ++b) {
    line.assign(hex2(t.scales[b]));
    const std::uint8_t* p = t.elements.data() + b * static_cast<std::size_t>(bb);
    for (int i = 0; i < mx::kBlockSize; ++i) {
      line += ' ';
      line += hex2(mx::get_code(t.format, p, i));
    }
    line += '\n';
    out << line;
  }
}

void print_nv_blocks(std::ostream& out, const mx::NvTensor& t) {
  char head[40];
  std::uint32_t u;
  std::memcpy(&u, &t.tensor_scale, 4);
  std::snprintf(head, sizeof head, "tensor_scale 0x%08x\n", static_cast<unsigned>(u));
  out << head;
  std::string line;
  for (std::size_t b = 0; b < t.blocks_per_row(); ++b) {
    line.assign(hex2(t.scales[b]));
    for (int i = 0; i < mx::kNvBlockSize; ++i) {
      line += ' ';
      line += hex2((t.elements[b * mx::kNvBlockBytes + static_cast<std::size_t>(i / 2)] >> ((i % 2) * 4)) & 0xF);
    }
    line += '\n';
    out << line;
  }
}

int run_quantize(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"format", "scale", "overflow", "input", "path", "tensor-scale"}, {"flush-subnormals"});
  args.expect_positional({});
  const bool nv = is_nvfp4(args, "format");
  mx::NvOptions nvo;
  mx::Format f = mx::Format::e2m1;
  mx::Options o;
  if (nv) {
    nvo = nv_options_from(args);
  } else {
    reject_tensor_scale(args);
    f = format_option(args, "format");
    o = options_from(args);
    check_format_options(f, o);
  }
  mx::Path path = path_from(args);
  std::string input = args.value_or("input", "text");
  if (input != "text" && input != "f32") throw InputError("--input", "unknown input form '" + input + "' (expected text|f32)");
  std::string data = trnsim::cli::read_file("-", io, trnsim::limits::kMaxMxInputBytes);
  std::vector<float> x;
  if (input == "f32") {
    if (data.size() % 4)
      throw InputError("input", std::to_string(data.size()) + " bytes is not a whole number of float32 values");
    check_value_count(data.size() / 4, "input");
    x.resize(data.size() / 4);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto* b = reinterpret_cast<const unsigned char*>(data.data() + 4 * i);
      std::uint32_t u = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
      std::memcpy(&x[i], &u, 4);
    }
  } else {
    for_each_line(data, [&](const Line& l) { append_numbers_of_line(l, x); });
  }
  if (nv) print_nv_blocks(io.out, mx::quantize_nvfp4(x.data(), 1, x.size(), nvo, path));
  else print_blocks(io.out, mx::quantize(x.data(), 1, x.size(), f, o, path));
  return 0;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Field k (0-based) of a dequantize input line: two hex digits, or an error naming the line.
unsigned hex_byte(const std::string& tok, std::size_t k, std::size_t line) {
  int hi = tok.size() == 2 ? hex_value(tok[0]) : -1, lo = tok.size() == 2 ? hex_value(tok[1]) : -1;
  if (hi < 0 || lo < 0)
    throw InputError(line_name(line), "field " + std::to_string(k + 1) + " '" + tok + "' is not two hex digits");
  return static_cast<unsigned>(hi * 16 + lo);
}

// Dequantized values, one block a line.
void print_blocks(const std::vector<float>& y, std::size_t blocks, std::size_t block_size, Io& io) {
  std::string line;
  for (std::size_t i = 0; i < blocks; ++i) {
    line.clear();
    for (std::size_t k = 0; k < block_size; ++k) {
      if (k) line += ' ';
      line += float_text(y[i * block_size + k]);
    }
    line += '\n';
    io.out << line;
  }
}

// NVFP4 text: 'tensor_scale 0xHHHHHHHH', then lines of the scale byte and 16 codes.
int run_nv_dequantize(const std::string& data, mx::Path path, Io& io) {
  std::size_t blocks = 0;
  bool head = false;
  for_each_line(data, [&](const Line& l) {
    if (l.tokens.empty()) return;
    if (!head) {
      head = true;
      return;
    }
    ++blocks;
    check_value_count(blocks * mx::kNvBlockSize, line_name(l.number));
  });
  mx::NvTensor t = mx::make_nv_tensor(1, blocks * mx::kNvBlockSize);
  std::size_t b = 0;
  head = false;
  for_each_line(data, [&](const Line& l) {
    if (l.tokens.empty()) return;
    if (!head) {
      head = true;
      const std::string* hex = l.tokens.size() == 2 && l.tokens[0] == "tensor_scale" ? &l.tokens[1] : nullptr;
      bool ok = hex && hex->size() == 10 && (*hex)[0] == '0' && ((*hex)[1] == 'x' || (*hex)[1] == 'X');
      std::uint32_t u = 0;
      for (std::size_t i = 2; ok && i < 10; ++i) {
        const int d = hex_value((*hex)[i]);
        ok = d >= 0;
        u = u << 4 | static_cast<std::uint32_t>(d < 0 ? 0 : d);
      }
      if (!ok) throw InputError(line_name(l.number), "expected 'tensor_scale 0xHHHHHHHH' (the FP32 bits) first");
      std::memcpy(&t.tensor_scale, &u, 4);
      mx::check_nv_tensor_scale(t.tensor_scale, line_name(l.number).c_str());
      return;
    }
    if (l.tokens.size() != 1 + mx::kNvBlockSize)
      throw InputError(line_name(l.number), "expected 17 fields (the E4M3 scale byte and 16 element codes), found " +
                                                std::to_string(l.tokens.size()));
    for (std::size_t k = 0; k < l.tokens.size(); ++k) {
      const std::string& tok = l.tokens[k];
      const unsigned v = hex_byte(tok, k, l.number);
      if (k == 0) {
        t.scales[b] = static_cast<std::uint8_t>(v);
      } else {
        if (v > 0xF)
          throw InputError(line_name(l.number), "field " + std::to_string(k + 1) + " code " + tok + " does not fit nvfp4 (4 bits)");
        const std::size_t i = b * mx::kNvBlockSize + k - 1;
        t.elements[i / 2] = static_cast<std::uint8_t>(t.elements[i / 2] | (v << ((i % 2) * 4)));
      }
    }
    ++b;
  });
  if (!head) throw InputError("input", "empty (expected 'tensor_scale 0xHHHHHHHH' and blocks)");
  const std::vector<float> y = mx::dequantize(t, path);
  print_blocks(y, blocks, mx::kNvBlockSize, io);
  return 0;
}

int run_dequantize(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"format", "path"}, {});
  args.expect_positional({});
  if (is_nvfp4(args, "format")) {
    mx::Path path = path_from(args);
    return run_nv_dequantize(trnsim::cli::read_file("-", io, trnsim::limits::kMaxMxInputBytes), path, io);
  }
  mx::Format f = format_option(args, "format");
  mx::Path path = path_from(args);
  const mx::FormatInfo& info = mx::format_info(f);
  std::string data = trnsim::cli::read_file("-", io, trnsim::limits::kMaxMxInputBytes);
  std::size_t blocks = 0;
  for_each_line(data, [&](const Line& l) {
    if (l.tokens.empty()) return;
    ++blocks;
    check_value_count(blocks * mx::kBlockSize, line_name(l.number));
  });
  mx::Tensor t = mx::make_tensor(f, 1, blocks * mx::kBlockSize);
  std::size_t b = 0;
  for_each_line(data, [&](const Line& l) {
    if (l.tokens.empty()) return;
    if (l.tokens.size() != 1 + mx::kBlockSize)
      throw InputError(line_name(l.number), "expected 33 fields (the scale byte and 32 element codes), found " +
                                                std::to_string(l.tokens.size()));
    std::uint8_t* p = t.elements.data() + b * static_cast<std::size_t>(info.block_bytes);
    for (std::size_t k = 0; k < l.tokens.size(); ++k) {
      const std::string& tok = l.tokens[k];
      const unsigned v = hex_byte(tok, k, l.number);
      if (k == 0) {
        t.scales[b] = static_cast<std::uint8_t>(v);
      } else {
        if (v >> info.element_bits)
          throw InputError(line_name(l.number), "field " + std::to_string(k + 1) + " code " + tok +
                                                    " does not fit " + info.name + " (" +
                                                    std::to_string(info.element_bits) + " bits)");
        mx::set_code(f, p, static_cast<int>(k - 1), static_cast<std::uint8_t>(v));
      }
    }
    ++b;
  });
  std::vector<float> y = mx::dequantize(t, path);
  print_blocks(y, blocks, mx::kBlockSize, io);
  return 0;
}

int run_dot(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"a-format", "b-format", "scale", "overflow", "path", "tensor-scale"}, {"flush-subnormals"});
  args.expect_positional({});
  const bool nva = is_nvfp4(args, "a-format"), nvb = is_nvfp4(args, "b-format");
  if (nva != nvb)
    throw InputError(nva ? "--b-format" : "--a-format", "nvfp4 multiplies only nvfp4 (as Blackwell's tensor cores do)");
  mx::Format fa = mx::Format::e2m1, fb = mx::Format::e2m1;
  mx::Options o;
  mx::NvOptions nvo;
  if (nva) {
    nvo = nv_options_from(args);
  } else {
    reject_tensor_scale(args);
    fa = format_option(args, "a-format");
    fb = format_option(args, "b-format");
    o = options_from(args);
    check_format_options(fa, o);
    check_format_options(fb, o);
  }
  mx::Path path = path_from(args);
  std::string data = trnsim::cli::read_file("-", io, trnsim::limits::kMaxMxInputBytes);
  std::vector<float> a, b;
  std::size_t rows = 0, a_line = 0;
  for_each_line(data, [&](const Line& l) {
    if (l.tokens.empty()) return;
    if (++rows > 2) return;  // counted for the message below
    if (rows == 1) a_line = l.number;
    append_numbers_of_line(l, rows == 1 ? a : b);
    if (rows == 2 && a.size() != b.size())
      throw InputError(line_name(l.number), std::to_string(b.size()) + " numbers, but line " + std::to_string(a_line) +
                                                " has " + std::to_string(a.size()));
  });
  if (rows != 2)
    throw InputError("input", "expected two lines of numbers (vectors a and b), found " + std::to_string(rows));
  const float d = nva ? mx::dot(mx::quantize_nvfp4(a, nvo, path), mx::quantize_nvfp4(b, nvo, path), path)
                      : mx::dot(mx::quantize(a, fa, o, path), mx::quantize(b, fb, o, path), path);
  std::uint32_t u;
  std::memcpy(&u, &d, 4);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(u));
  io.out << float_text(d) << " " << hex << "\n";
  return 0;
}

std::uint64_t integer_option(const Args& args, const std::string& name, std::uint64_t def, std::uint64_t lo,
                             std::uint64_t hi) {
  auto v = args.value(name);
  if (!v) return def;
  const std::string& s = *v;
  bool ok = !s.empty() && s.size() <= 20;
  std::uint64_t r = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (r > (UINT64_MAX - d) / 10) {
      ok = false;
      break;
    }
    r = r * 10 + d;
  }
  if (!ok) throw InputError("--" + name, "'" + s + "' is not a non-negative integer");
  if (r < lo || r > hi)
    throw InputError("--" + name, s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return r;
}

std::string number_text(double v) {
  if (v != v) return "nan";
  if (v > 1e308) return "inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string json_number(double v) { return v == v && v < 1e308 && v > -1e308 ? number_text(v) : "null"; }

// The statistics lines of `error` (text) or their JSON members.
std::string stats_text(const mx::ErrorStats& st) {
  std::ostringstream s;
  s << "rmse " << number_text(st.rmse) << "\n"
    << "max_rel_error " << number_text(st.max_rel_error) << "\n"
    << "sqnr_db " << number_text(st.sqnr_db) << "\n"
    << "underflow_to_zero " << st.zeros << "\n"
    << "clamped " << st.clamped << "\n";
  return s.str();
}
std::string stats_json(const mx::ErrorStats& st) {
  std::ostringstream s;
  s << "\"rmse\": " << json_number(st.rmse) << ", \"max_rel_error\": " << json_number(st.max_rel_error)
    << ", \"sqnr_db\": " << json_number(st.sqnr_db) << ", \"underflow_to_zero\": " << st.zeros
    << ", \"clamped\": " << st.clamped;
  return s.str();
}

struct Samples {
  std::string dist;
  mx::Distribution d = mx::Distribution::normal;
  std::uint64_t n = 100000, seed = 1;
};
Samples samples_from(const Args& args) {
  Samples s;
  s.dist = args.value_or("dist", "normal");
  auto d = mx::parse_distribution(s.dist);
  if (!d) throw InputError("--dist", "unknown distribution '" + s.dist + "' (expected normal|laplace|uniform|lognormal)");
  s.d = *d;
  s.n = integer_option(args, "n", 100000, 1, 1u << 26);
  s.seed = integer_option(args, "seed", 1, 0, UINT64_MAX);
  return s;
}
std::string samples_json(const Samples& s) {
  return "\"dist\": \"" + s.dist + "\", \"n\": " + std::to_string(s.n) + ", \"seed\": " + std::to_string(s.seed);
}

const char* kNvLongName = "NVFP4 E2M1, E4M3 scale per 16, FP32 tensor scale";
// Stored bits per element: the element and its share of the block scale (NVFP4's one FP32
// tensor scale is left out: 32 bits per tensor).
double bits_per_element(mx::Format f) { return mx::format_info(f).element_bits + 8.0 / mx::kBlockSize; }
constexpr double kNvBitsPerElement = 4 + 8.0 / mx::kNvBlockSize;

int run_error(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"format", "dist", "n", "seed", "scale", "overflow", "tensor-scale"}, {"flush-subnormals", "json"});
  args.expect_positional({});
  const bool nv = is_nvfp4(args, "format"), json = args.flag("json");
  mx::Format f = mx::Format::e2m1;
  mx::Options o;
  mx::NvOptions nvo;
  if (nv) {
    nvo = nv_options_from(args);
  } else {
    reject_tensor_scale(args);
    f = format_option(args, "format");
    o = options_from(args);
    check_format_options(f, o);
  }
  const Samples smp = samples_from(args);
  const mx::ErrorStats st = nv ? mx::nv_error_stats(smp.d, static_cast<std::size_t>(smp.n), smp.seed, nvo)
                               : mx::error_stats(f, o, smp.d, static_cast<std::size_t>(smp.n), smp.seed);
  std::ostringstream s;
  std::string tensor_scale = "amax / 2688";
  if (nv && nvo.tensor_scale != 0) tensor_scale = float_text(nvo.tensor_scale);
  if (json) {
    s << "{\"format\": \"" << (nv ? "nvfp4" : mx::format_name(f)) << "\", \"long_name\": \""
      << (nv ? kNvLongName : mx::format_info(f).long_name) << "\", ";
    if (nv) s << "\"tensor_scale\": \"" << tensor_scale << "\", ";
    else
      s << "\"scale\": \"" << mx::scale_rule_name(o.scale) << "\", \"overflow\": \"" << mx::overflow_name(o.overflow)
        << "\", \"flush_subnormals\": " << (o.flush_subnormal_inputs ? "true" : "false") << ", ";
    s << samples_json(smp) << ", " << stats_json(st) << "}\n";
    io.out << s.str();
    return 0;
  }
  if (nv) s << "format nvfp4 (" << kNvLongName << "), tensor scale " << tensor_scale << "\n";
  else
    s << "format " << mx::format_name(f) << " (" << mx::format_info(f).long_name << "), scale "
      << mx::scale_rule_name(o.scale) << ", overflow " << mx::overflow_name(o.overflow)
      << (o.flush_subnormal_inputs ? ", flush subnormals" : "") << "\n";
  s << "samples " << smp.n << " " << smp.dist << " (seed " << smp.seed << ")\n" << stats_text(st);
  io.out << s.str();
  return 0;
}

// Every format on the same samples (MX formats with the default options, NVFP4 by the
// recipe), and NVFP4 against MXFP4: the two 4-bit formats.
int run_mx_compare(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"dist", "n", "seed"}, {"json"});
  args.expect_positional({});
  const Samples smp = samples_from(args);
  const std::vector<float> x = mx::sample(smp.d, static_cast<std::size_t>(smp.n), smp.seed);
  struct Row {
    std::string name, long_name;
    double bits;
    mx::ErrorStats st;
  };
  std::vector<Row> rows;
  for (mx::Format f : mx::kAllFormats)
    rows.push_back({mx::format_name(f), mx::format_info(f).long_name, bits_per_element(f),
                    mx::error_stats(x.data(), x.size(), f, mx::Options{})});
  rows.push_back({"nvfp4", kNvLongName, kNvBitsPerElement, mx::nv_error_stats(x.data(), x.size())});
  const mx::ErrorStats& mx4 = rows[static_cast<std::size_t>(mx::Format::e2m1)].st;
  const mx::ErrorStats& nv4 = rows.back().st;
  const double gain = nv4.sqnr_db - mx4.sqnr_db, ratio = mx4.rmse > 0 ? nv4.rmse / mx4.rmse : 1.0;
  std::ostringstream s;
  if (args.flag("json")) {
    s << "{" << samples_json(smp) << ", \"formats\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
      s << (i ? ", " : "") << "{\"format\": \"" << rows[i].name << "\", \"long_name\": \"" << rows[i].long_name
        << "\", \"bits_per_element\": " << number_text(rows[i].bits) << ", " << stats_json(rows[i].st) << "}";
    s << "], \"nvfp4_vs_mxfp4\": {\"sqnr_db_gain\": " << json_number(gain) << ", \"rmse_ratio\": "
      << json_number(ratio) << "}}\n";
    io.out << s.str();
    return 0;
  }
  s << "samples " << smp.n << " " << smp.dist << " (seed " << smp.seed
    << "); MX formats: scale floor, overflow saturate; nvfp4: tensor scale amax / 2688\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-7s %5s  %-12s %-14s %-9s %-18s %s\n", "format", "bits", "rmse",
                "max_rel_error", "sqnr_db", "underflow_to_zero", "clamped");
  s << line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof line, "%-7s %5s  %-12s %-14s %-9s %-18zu %zu\n", r.name.c_str(),
                  number_text(r.bits).c_str(), number_text(r.st.rmse).c_str(), number_text(r.st.max_rel_error).c_str(),
                  number_text(r.st.sqnr_db).c_str(), r.st.zeros, r.st.clamped);
    s << line;
  }
  s << "nvfp4 vs e2m1 (MXFP4): sqnr " << (gain >= 0 ? "+" : "") << number_text(gain) << " dB, rmse x"
    << number_text(ratio) << "\n";
  io.out << s.str();
  return 0;
}

// Wall-clock seconds per call of fn: the best of several short batches within `seconds`
// (the least disturbed by other processes on a shared machine).
template <class Fn>
double time_per_call(double seconds, Fn fn) {
  using clock = std::chrono::steady_clock;
  fn();  // warm up
  double best = 1e30;
  const auto start = clock::now();
  do {
    std::size_t calls = 0;
    const auto t0 = clock::now();
    double elapsed = 0;
    do {
      fn();
      ++calls;
      elapsed = std::chrono::duration<double>(clock::now() - t0).count();
    } while (elapsed < seconds / 20);
    best = std::min(best, elapsed / static_cast<double>(calls));
  } while (std::chrono::duration<double>(clock::now() - start).count() < seconds);
  return best;
}

int run_bench(const std::vector<std::string>& raw, Io& io) {
  Args args(raw, {"seconds"}, {});
  args.expect_positional({});
  const double seconds = static_cast<double>(integer_option(args, "seconds", 1, 1, 60)) / 4;
  const std::size_t n = 1u << 22, gn = 512;
  const std::vector<float> x = mx::sample(mx::Distribution::normal, n, 1);
  const std::vector<float> y = mx::sample(mx::Distribution::normal, gn * gn, 2);
  std::vector<float> out(n);
  io.out << "path        quantize e4m3   quantize e2m1   dequantize e4m3   dot e2m1 x e2m1   gemm 512^3 e2m1 / e4m3\n";
  for (mx::Path p : mx::available_paths()) {
    char line[256];
    double q[2], dq, dot, g[2];
    int i = 0;
    for (mx::Format f : {mx::Format::e4m3, mx::Format::e2m1}) {
      mx::Tensor t = mx::make_tensor(f, 1, n);
      q[i++] = static_cast<double>(n) / time_per_call(seconds, [&] {
                 mx::quantize_blocks(x.data(), n, f, {}, t.scales.data(), t.elements.data(), p);
               });
    }
    mx::Tensor t8 = mx::quantize(x, mx::Format::e4m3);
    dq = static_cast<double>(n) / time_per_call(seconds, [&] {
           mx::dequantize_blocks(mx::Format::e4m3, t8.scales.data(), t8.elements.data(), n, out.data(), p);
         });
    mx::Tensor v4 = mx::quantize(y.data(), 1, gn * gn, mx::Format::e2m1);
    mx::Tensor u4 = mx::quantize(x.data(), 1, gn * gn, mx::Format::e2m1);
    volatile float sink = 0;
    dot = static_cast<double>(gn * gn) / time_per_call(seconds, [&] { sink = mx::dot(u4, v4, p); });
    i = 0;
    for (mx::Format f : {mx::Format::e2m1, mx::Format::e4m3}) {  // B packed once: the kernels
      mx::Tensor A = mx::quantize(x.data(), gn, gn, f), B = mx::quantize(y.data(), gn, gn, f);
      const mx::PackedB packed = mx::pack_b(B, f, p);
      g[i++] = 2.0 * static_cast<double>(gn * gn * gn) /
               time_per_call(seconds, [&] { mx::gemm(A, packed, out.data()); });
    }
    (void)sink;
    std::snprintf(line, sizeof line, "%-10s  %8.3f G/s    %8.3f G/s    %8.3f G/s      %8.3f G MAC/s   %7.2f / %.2f GFLOP/s\n",
                  mx::path_name(p), q[0] / 1e9, q[1] / 1e9, dq / 1e9, dot / 1e9, g[0] / 1e9, g[1] / 1e9);
    io.out << line;
  }
  // NVFP4 beside MXFP4 (the same data; GEMM with B decoded inside the call)
  io.out << "path        quantize nvfp4  dequantize nvfp4  dot nvfp4 x nvfp4  gemm 512^3 nvfp4\n";
  for (mx::Path p : mx::available_paths()) {
    char line[256];
    const mx::NvTensor t4 = mx::quantize_nvfp4(x);
    const double q = static_cast<double>(n) / time_per_call(seconds, [&] { (void)mx::quantize_nvfp4(x, {}, p); });
    const double dq = static_cast<double>(n) / time_per_call(seconds, [&] { (void)mx::dequantize(t4, p); });
    const mx::NvTensor u4 = mx::quantize_nvfp4(x.data(), 1, gn * gn), v4 = mx::quantize_nvfp4(y.data(), 1, gn * gn);
    volatile float sink = 0;
    const double dot = static_cast<double>(gn * gn) / time_per_call(seconds, [&] { sink = mx::dot(u4, v4, p); });
    (void)sink;
    const mx::NvTensor A = mx::quantize_nvfp4(x.data(), gn, gn), B = mx::quantize_nvfp4(y.data(), gn, gn);
    const double g =
        2.0 * static_cast<double>(gn * gn * gn) / time_per_call(seconds, [&] { mx::gemm(A, B, out.data(), p); });
    std::snprintf(line, sizeof line, "%-10s  %8.3f G/s    %8.3f G/s        %8.3f G MAC/s   %7.2f GFLOP/s\n",
                  mx::path_name(p), q / 1e9, dq / 1e9, dot / 1e9, g / 1e9);
    io.out << line;
  }
  return 0;
}

int run_mx(const std::vector<std::string>& args, Io& io) {
  if (args.empty() || args[0].compare(0, 2, "--") == 0)
    throw InputError("mx", "missing subcommand (quantize, dequantize, dot, error or compare; see trnsim mx --help)");
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "quantize") return run_quantize(rest, io);
  if (args[0] == "dequantize") return run_dequantize(rest, io);
  if (args[0] == "dot") return run_dot(rest, io);
  if (args[0] == "error") return run_error(rest, io);
  if (args[0] == "compare") return run_mx_compare(rest, io);
  if (args[0] == "bench") return run_bench(rest, io);
  throw InputError("mx", "unknown subcommand '" + args[0] + "' (expected quantize, dequantize, dot, error, compare or bench)");
}

}  // namespace

TRNSIM_COMMAND("mx", "MX and NVFP4 numerics: quantize, dequantize, dot, error, compare (stdin -> stdout)", kMxUsage, run_mx);
