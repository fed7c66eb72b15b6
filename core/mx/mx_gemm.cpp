// GEMM driver shared by the SIMD paths: packs Bt into panels of `lanes` rows, converts A
// to the kernel's digits, walks the tiles and calls the path's microkernel, or computes
// a tile with the reference when its scale bytes leave the kernel's range (NaN scales, or
// combined scales that are not a normal FP32 power of two). Compiled without ISA flags;
// the microkernels (mx_avx2.cpp, mx_avx512.cpp, mx_wasm.cpp) see only raw pointers.
//
// Packed B, per panel p (B rows p*lanes .. p*lanes + lanes - 1, zero rows past N) and
// block b, at data[(p * kb + b) * packed_block_bytes]:
//   kKindInt8:   8 groups g of 4 k: lanes x 4 unsigned bytes (integer digit of k = 4g + t,
//                plus b_offset)
//   kKindInt8 with nibbles (E2M1 B): 4 pairs of groups: lanes x 4 bytes, the low nibble
//                holds the code of k = 8gp + t, the high nibble that of k = 8gp + 4 + t (the
//                kernel maps codes to digit + b_offset with a 16-entry byte table)
//   kKindInt16:  16 pairs kp: lanes x 2 int16 (digits of k = 2kp, 2kp + 1)
//   kKindBf16:   16 pairs kp: lanes x uint32, BF16 of element 2kp in the high half and of
//                element 2kp + 1 in the low half (VDPBF16PS adds the high product first)
//   kKindF32:    32 k: lanes x FP32
// Each packed block is followed by its lanes' scale bytes xb, so one panel is one stream
// of (packed_block_bytes + lanes)-byte blocks (17 + 1/2 bytes per 32 E2M1 weights).
// Converted A, per row and block (a_block_bytes): kKindInt8 32 signed bytes (digits),
// kKindInt16 32 int16, kKindBf16 16 uint32 as above, kKindF32 32 FP32; per row and block
// the scale term ((xa - 127 - F) << 23), F = fraction bits of both formats for the integer
// kinds (the kernels convert exact integer sums), 0 for the FP32 kinds; and for kKindInt8
// the offset correction b_offset * sum(A's digits), since sum (b + off) a = sum b a + off sum a.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "mx/mx_internal.h"

namespace trnsim::mx::detail {

std::size_t packed_block_bytes(const GemmShape& s) {
  const std::size_t l = static_cast<std::size_t>(s.lanes);
  switch (s.kind) {
    case kKindInt8: return (s.b_nibbles ? 16 : 32) * l;
    case kKindInt16: return 64 * l;
    case kKindBf16: return 64 * l;
    case kKindF32: return 128 * l;
  }
  return 0;
}

std::size_t a_block_bytes(const GemmShape& s) {
  switch (s.kind) {
    case kKindInt8: return 32;
    case kKindInt16: return 64;
    case kKindBf16: return 64;
    case kKindF32: return 128;
  }
  return 0;
}

namespace {

// Bytes from one packed block of a panel to the next: digits, the lanes' scale bytes, and
// for the compute-bound kinds (not the 8-bit digits a GEMV streams) padding to a whole
// vector, so that no vector load of B straddles two cache lines.
std::size_t block_stride(const GemmShape& s) {
  const std::size_t l = static_cast<std::size_t>(s.lanes), n = packed_block_bytes(s) + l;
  if (s.kind == kKindInt8) return n;
  const std::size_t v = 4 * l;  // bytes per vector
  return (n + v - 1) / v * v;
}

bool integer_kind(int kind) { return kind == kKindInt8 || kind == kKindInt16; }

int fraction_term(const GemmShape& s, Format fa, Format fb) {
  return integer_kind(s.kind) ? format_info(fa).fraction_bits + format_info(fb).fraction_bits : 0;
}

std::uint32_t bf16_pair(const float* vals, int kp) {
  return (f2u(vals[2 * kp]) & 0xFFFF0000u) | (f2u(vals[2 * kp + 1]) >> 16);
}

// Writes one block (32 codes) of one lane into a packed panel block (E2M1 B as nibbles).
void pack_lane_nibbles(const GemmShape& s, const std::uint8_t* codes, int l, std::uint8_t* dst) {
  const int L = s.lanes;
  for (int gp = 0; gp < 4; ++gp)
    for (int t4 = 0; t4 < 4; ++t4)
      dst[(gp * L + l) * 4 + t4] =
          static_cast<std::uint8_t>((codes[8 * gp + t4] & 0xF) | ((codes[8 * gp + 4 + t4] & 0xF) << 4));
}

// The integer kinds convert whole rows through the path's dequantize with the scale byte
// 127 + F (F = the format's fraction bits): each value is then its integer digit, exactly
// (the digit tables hold value * 2^F), and the loops below vectorize; per-element table
// lookups had taken a sixth of an int8 GEMM's time.
void digit_row(const GemmIsa& isa, Format f, const Tensor& t, std::size_t row, std::vector<std::uint8_t>& xdig,
               float* vals) {
  const std::size_t kb = t.blocks_per_row();
  xdig.assign(kb, static_cast<std::uint8_t>(127 + format_info(f).fraction_bits));
  isa.dequantize(f, xdig.data(), t.row_elements(row), kb, vals);
}

// One block of A's digits (integer kinds) from its values; returns the sum of the digits.
std::int32_t a_block_digits(int kind, const float* vals, std::uint8_t* dst) {
  std::int32_t d[kBlockSize], sum = 0;
  for (int k = 0; k < kBlockSize; ++k) d[k] = static_cast<std::int32_t>(vals[k]);
  if (kind == kKindInt8) {
    for (int k = 0; k < kBlockSize; ++k) dst[k] = static_cast<std::uint8_t>(d[k] & 0xFF);
  } else {
    std::int16_t h[kBlockSize];
    for (int k = 0; k < kBlockSize; ++k) h[k] = static_cast<std::int16_t>(d[k]);
    std::memcpy(dst, h, sizeof h);
  }
  for (int k = 0; k < kBlockSize; ++k) sum += d[k];
  return sum;
}

// One lane of a packed block of B (integer kinds, not nibbles) from its values.
void b_lane_digits(const GemmShape& s, const float* vals, int l, std::uint8_t* dst) {
  const int L = s.lanes;
  if (s.kind == kKindInt8) {
    for (int g = 0; g < 8; ++g) {
      std::uint8_t w[4];
      for (int t4 = 0; t4 < 4; ++t4)
        w[t4] = static_cast<std::uint8_t>(static_cast<std::int32_t>(vals[4 * g + t4]) + s.b_offset);
      std::memcpy(dst + (g * L + l) * 4, w, 4);
    }
  } else {
    for (int kp = 0; kp < 16; ++kp) {
      const std::int16_t w[2] = {static_cast<std::int16_t>(vals[2 * kp]), static_cast<std::int16_t>(vals[2 * kp + 1])};
      std::memcpy(dst + (kp * L + l) * 4, w, 4);
    }
  }
}

// Prescaling (GemmShape::prescale): a row of A or a panel of B whose every block has its
// scale in the format's safe range below has its element values multiplied by the block's
// scale 2^(x - 127) when converted (an all-zero block by 1: zeros stay zeros). Nonzero
// scaled values v then satisfy 2^-63 <= |v| < 2^61, so every product of two lies in
// [2^-126, 2^122) and every partial sum of 32 is 0 or a normal FP32 below 2^127: each
// rounding of the block's left-to-right sum happens at the same place as unscaled, and
// the sum is s * 2^(xa - 127) * 2^(xb - 127) exactly, which is d (exact: normal). The
// kernel adds it to c without a multiply. Rows or panels with a block outside the range
// are converted unscaled; tiles mixing the two are computed by the reference.
int safe_scale_lo(Format f) { return 127 - 63 + format_info(f).fraction_bits; }
int safe_scale_hi(Format f) { return 127 + 61 - (format_info(f).emax + 1); }  // max normal < 2^(emax + 1)

// Whether a block can be prescaled: its scale in the safe range, or all its elements zero.
bool prescalable(Format f, std::uint8_t x, const std::uint8_t* block_elements) {
  static const struct Bounds {
    int lo[6], hi[6];
    Bounds() {
      for (Format g : kAllFormats) {
        lo[static_cast<int>(g)] = safe_scale_lo(g);
        hi[static_cast<int>(g)] = safe_scale_hi(g);
      }
    }
  } bounds;
  if (x >= bounds.lo[static_cast<int>(f)] && x <= bounds.hi[static_cast<int>(f)]) return true;
  if (x == kScaleNaN) return false;
  std::uint8_t codes[kBlockSize];
  unpack_codes(f, block_elements, codes);
  const float* t = element_table(f);
  for (int k = 0; k < kBlockSize; ++k)
    if (t[codes[k]] != 0.0f) return false;
  return true;
}

bool fp32_kind(int kind) { return kind == kKindBf16 || kind == kKindF32; }

// The FP32 kinds convert a whole row of blocks at once with the path's dequantize, given
// per block the scale byte it applies: the block's own when prescaled (an all-zero block
// outside the safe range: 127, i.e. 1), else 127. The values are exact (the safe range).
void row_values(const GemmIsa& isa, Format f, const std::uint8_t* scales, const std::uint8_t* elements,
                std::size_t kb, bool prescaled, std::uint8_t* xeff, float* vals) {
  const int lo = prescaled ? safe_scale_lo(f) : 256, hi = safe_scale_hi(f);
  for (std::size_t b = 0; b < kb; ++b) xeff[b] = scales[b] >= lo && scales[b] <= hi ? scales[b] : 127;
  isa.dequantize(f, xeff, elements, kb, vals);
}

// One block of values in a kernel's operand layout: BF16 pairs (kKindBf16) or FP32;
// `step` bytes between consecutive words (4 for A, 4 * lanes for a lane of packed B).
void store_block_values(int kind, const float* vals, std::uint8_t* dst, std::size_t step) {
  if (kind == kKindBf16) {
    for (int kp = 0; kp < 16; ++kp) {
      const std::uint32_t w = bf16_pair(vals, kp);
      std::memcpy(dst + kp * step, &w, 4);
    }
  } else {
    for (int k = 0; k < kBlockSize; ++k) std::memcpy(dst + k * step, &vals[k], 4);
  }
}

struct ScaleRange {
  int lo = 255, hi = -1;
  bool nan = false;
  void add(std::uint8_t x) {
    if (x == kScaleNaN) {
      nan = true;
      return;
    }
    lo = std::min(lo, static_cast<int>(x));
    hi = std::max(hi, static_cast<int>(x));
  }
  void add(const ScaleRange& r) {
    nan = nan || r.nan;
    lo = std::min(lo, r.lo);
    hi = std::max(hi, r.hi);
  }
};

}  // namespace

namespace {

// Packs every panel of bt (all K) into data (panels * kb * block_stride bytes, every byte
// written) and panel_info (kPanelInfo bytes per panel: lowest and highest scale byte
// other than NaN, any NaN scale, prescaled).
void pack_panels(const GemmIsa& isa, const GemmShape& s, const Tensor& bt, std::uint8_t* data,
                 std::uint8_t* panel_info) {
  const std::size_t L = static_cast<std::size_t>(s.lanes), kb = bt.blocks_per_row();
  const std::size_t panels = (bt.rows + L - 1) / L, pbb = packed_block_bytes(s), stride = block_stride(s);
  const std::size_t bb = static_cast<std::size_t>(format_info(bt.format).block_bytes);
  std::uint8_t codes[kBlockSize], zero_codes[kBlockSize] = {};
  const bool fp32 = fp32_kind(s.kind), digits = !fp32 && !s.b_nibbles;
  std::vector<float> vals(fp32 || digits ? kb * kBlockSize : 0);
  std::vector<std::uint8_t> xeff(fp32 ? kb : 0);
  for (std::size_t p = 0; p < panels; ++p) {
    const std::size_t rows = std::min(L, bt.rows - p * L);
    bool prescaled = s.prescale;
    for (std::size_t b = 0; prescaled && b < kb; ++b)
      for (std::size_t l = 0; prescaled && l < rows; ++l)
        prescaled = prescalable(bt.format, bt.row_scales(p * L + l)[b], bt.row_elements(p * L + l) + b * bb);
    if (fp32) {  // lane by lane, whole rows through the path's dequantize
      for (std::size_t l = 0; l < L; ++l) {
        if (l < rows) {
          row_values(isa, bt.format, bt.row_scales(p * L + l), bt.row_elements(p * L + l), kb, prescaled, xeff.data(),
                     vals.data());
        } else if (l == rows) {
          std::fill(vals.begin(), vals.end(), 0.0f);
        }
        for (std::size_t b = 0; b < kb; ++b)
          store_block_values(s.kind, vals.data() + b * kBlockSize, data + (p * kb + b) * stride + l * 4, 4 * L);
      }
    } else if (digits) {  // lane by lane too, as digits
      for (std::size_t l = 0; l < L; ++l) {
        if (l < rows) digit_row(isa, bt.format, bt, p * L + l, xeff, vals.data());
        else if (l == rows) std::fill(vals.begin(), vals.end(), 0.0f);
        for (std::size_t b = 0; b < kb; ++b)
          b_lane_digits(s, vals.data() + b * kBlockSize, static_cast<int>(l), data + (p * kb + b) * stride);
      }
    }
    ScaleRange range;
    for (std::size_t b = 0; b < kb; ++b) {
      std::uint8_t* dst = data + (p * kb + b) * stride;
      std::uint8_t* meta = dst + pbb;
      // padding lanes copy the scale of the panel's first row, leaving the range as is
      const std::uint8_t first_scale = bt.row_scales(p * L)[b];
      for (std::size_t l = 0; l < L; ++l) {
        const std::size_t j = p * L + l;
        std::uint8_t x = first_scale;
        if (l < rows) {
          x = bt.row_scales(j)[b];
          range.add(x);
          if (!fp32 && !digits) {
            unpack_codes(bt.format, bt.row_elements(j) + b * bb, codes);
            pack_lane_nibbles(s, codes, static_cast<int>(l), dst);
          }
        } else if (!fp32 && !digits) {
          pack_lane_nibbles(s, zero_codes, static_cast<int>(l), dst);
        }
        meta[l] = x;
      }
      std::memset(meta + L, 0, stride - pbb - L);  // alignment padding
    }
    panel_info[p * kPanelInfo] = static_cast<std::uint8_t>(range.lo > 255 ? 255 : range.lo);
    panel_info[p * kPanelInfo + 1] = static_cast<std::uint8_t>(range.hi < 0 ? 0 : range.hi);
    panel_info[p * kPanelInfo + 2] = range.nan ? 1 : 0;
    panel_info[p * kPanelInfo + 3] = prescaled ? 1 : 0;
  }
}

// Scratch memory of one thread, kept from call to call: a GEMM of 2048^3 converts and
// packs ~17 MiB, and fresh pages for them (zeroed by the allocator, faulted in by the
// kernel) cost as much time as the multiply-adds. Buffers above kKeepScratch are freed
// after the call.
constexpr std::size_t kKeepScratch = 64u << 20;
struct Scratch {
  std::unique_ptr<std::uint8_t[]> buf;
  std::size_t cap = 0;
  // n bytes, 64-byte aligned, contents undefined
  std::uint8_t* get(std::size_t n) {
    if (n + 64 > cap) {
      buf.reset();
      cap = n + 64;
      buf.reset(new std::uint8_t[cap]);
    }
    const std::uintptr_t u = reinterpret_cast<std::uintptr_t>(buf.get());
    return buf.get() + ((64 - (u & 63)) & 63);
  }
  void trim() {
    if (cap > kKeepScratch) {
      buf.reset();
      cap = 0;
    }
  }
};
thread_local Scratch g_scratch_a, g_scratch_b;

}  // namespace

void simd_pack_b(const GemmIsa& isa, Path path, const Tensor& bt, Format a_format, PackedB& out) {
  const GemmShape s = isa.shape(a_format, bt.format);
  const std::size_t L = static_cast<std::size_t>(s.lanes), kb = bt.blocks_per_row();
  const std::size_t panels = (bt.rows + L - 1) / L;
  out.path = path;
  out.a_format = a_format;
  out.b_format = bt.format;
  out.n = bt.rows;
  out.k = bt.cols;
  out.kind = s.kind;
  out.lanes = s.lanes;
  out.data.resize(panels * kb * block_stride(s));
  out.panel_info.resize(panels * kPanelInfo);
  out.bt = bt;
  pack_panels(isa, s, bt, out.data.data(), out.panel_info.data());
}

namespace {

// K chunk (blocks) and row chunk (tiles) for the caches: one chunk of a panel pair,
// kc blocks of packed B (at most kBChunkBytes), stays in L2 while every row tile of the
// row chunk passes over it; the row chunk's converted A (mc rows x kc blocks) stays in L2
// too (kAChunkBytes). Each output still adds its blocks in order: chunk after chunk, the
// kernel continuing from the running sums left in C. With a single row tile (a GEMV)
// nothing is reused, so K is not split.
// Why L2 and not L1 for B: a tile reads two vectors of B per 16 (BF16) or 8 (int8)
// multiply-add instructions, far below what L2 delivers with the hardware prefetcher,
// while every K chunk costs a pass over all of C (16 MiB read and written at 2048^3,
// from memory). B chunks sized for L1 (24 KiB: 11 BF16 blocks, 6 chunks at K = 2048)
// made e4m3 x e4m3 ~25% and int8 x int8 ~15% slower than whole-K chunks on the Zen 5 VM
// (mx_gemm/.../avx512, same session). 192 + 256 KiB leave half of a 1 MiB L2 free.
constexpr std::size_t kBChunkBytes = 192 << 10, kAChunkBytes = 256 << 10;

GemmChunks g_forced_chunks;

std::size_t k_chunk_blocks(const GemmShape& s, int nv, std::size_t kb, bool one_row_tile) {
  if (g_forced_chunks.k_blocks) return std::min(kb, g_forced_chunks.k_blocks);
  if (one_row_tile) return kb;
  const std::size_t per_block = static_cast<std::size_t>(nv) * block_stride(s);
  return std::max<std::size_t>(1, std::min(kb, kBChunkBytes / per_block));
}

std::size_t row_chunk_tiles(const GemmShape& s, std::size_t kc) {
  if (g_forced_chunks.row_tiles) return g_forced_chunks.row_tiles;
  const std::size_t per_tile = static_cast<std::size_t>(s.mr) * kc * a_block_bytes(s);
  return std::max<std::size_t>(1, kAChunkBytes / per_tile);
}

}  // namespace

GemmChunks set_gemm_chunks(GemmChunks c) {
  const GemmChunks old = g_forced_chunks;
  g_forced_chunks = c;
  return old;
}

namespace {

// Packed B as the tile loop reads it: panels (pack_panels' layout) and the operand itself
// (for the reference tiles).
struct PanelsView {
  const std::uint8_t* data;
  const std::uint8_t* panel_info;
  const Tensor* bt;
};

void gemm_impl(const GemmIsa& isa, const Tensor& a, const PanelsView& b, float* c) {
  const GemmShape s = isa.shape(a.format, b.bt->format);
  const std::size_t M = a.rows, N = b.bt->rows, kb = a.blocks_per_row();
  const std::size_t L = static_cast<std::size_t>(s.lanes), panels = (N + L - 1) / L;
  const std::size_t abb = a_block_bytes(s), pbb = packed_block_bytes(s), stride = block_stride(s);
  const std::size_t a_stride = kb * abb;
  const int F = fraction_term(s, a.format, b.bt->format);
  const std::size_t bb = static_cast<std::size_t>(format_info(a.format).block_bytes);

  // converted A, its scale terms and offset corrections, in this thread's scratch
  const std::size_t conv_bytes = (M * a_stride + 63) / 64 * 64, terms = M * kb;
  std::uint8_t* scratch = g_scratch_a.get(conv_bytes + 2 * terms * sizeof(std::int32_t));
  std::uint8_t* a_conv = scratch;
  std::int32_t* a_exp = reinterpret_cast<std::int32_t*>(scratch + conv_bytes);
  std::int32_t* a_corr = a_exp + terms;
  std::vector<ScaleRange> row_range(M);
  std::vector<char> row_prescaled(M, 0);
  const bool fp32 = fp32_kind(s.kind);
  std::vector<float> vals(kb * kBlockSize);
  std::vector<std::uint8_t> xeff(kb);
  for (std::size_t i = 0; i < M; ++i) {
    bool prescaled = s.prescale;
    for (std::size_t blk = 0; prescaled && blk < kb; ++blk)
      prescaled = prescalable(a.format, a.row_scales(i)[blk], a.row_elements(i) + blk * bb);
    row_prescaled[i] = prescaled;
    if (fp32) {
      row_values(isa, a.format, a.row_scales(i), a.row_elements(i), kb, prescaled, xeff.data(), vals.data());
      for (std::size_t blk = 0; blk < kb; ++blk)
        store_block_values(s.kind, vals.data() + blk * kBlockSize, a_conv + i * a_stride + blk * abb, 4);
    } else {
      digit_row(isa, a.format, a, i, xeff, vals.data());
    }
    for (std::size_t blk = 0; blk < kb; ++blk) {
      const std::uint8_t x = a.row_scales(i)[blk];
      row_range[i].add(x);
      std::int32_t sum = 0;
      if (!fp32) {
        sum = a_block_digits(s.kind, vals.data() + blk * kBlockSize, a_conv + i * a_stride + blk * abb);
        if (s.kind != kKindInt8) sum = 0;
      }
      a_corr[i * kb + blk] = s.b_offset * sum;
      a_exp[i * kb + blk] = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << 23) -
                            static_cast<std::int32_t>(static_cast<std::uint32_t>(127 + F) << 23);
    }
  }

  const std::size_t MR = static_cast<std::size_t>(s.mr), NV = static_cast<std::size_t>(isa.nv), W = NV * L;
  const std::size_t row_tiles = (M + MR - 1) / MR, pairs = (panels + NV - 1) / NV;
  // Per (row tile, panel pair), how the tile is computed (kTile*): prescaled when all its
  // rows and panels are; else, when none is, by the kernel if it can take every pair of
  // scale bytes (every combined biased exponent xa + xb - 127 - F in [1, 254]); else by
  // the reference.
  enum : char { kTileRef, kTileKernel, kTilePrescaled };
  std::vector<char> tile_mode(row_tiles * pairs);
  for (std::size_t rt = 0; rt < row_tiles; ++rt) {
    ScaleRange rows;
    int rows_prescaled = 0, n_rows = 0;
    for (std::size_t i = rt * MR; i < std::min(M, rt * MR + MR); ++i, ++n_rows) {
      rows.add(row_range[i]);
      rows_prescaled += row_prescaled[i];
    }
    for (std::size_t pp = 0; pp < pairs; ++pp) {
      ScaleRange pr;
      int panels_prescaled = 0, n_panels = 0;
      for (std::size_t p = pp * NV; p < std::min(panels, pp * NV + NV); ++p, ++n_panels) {
        const std::uint8_t* info = b.panel_info + p * kPanelInfo;
        pr.nan = pr.nan || info[2];
        pr.lo = std::min(pr.lo, static_cast<int>(info[0]));
        pr.hi = std::max(pr.hi, static_cast<int>(info[1]));
        panels_prescaled += info[3];
      }
      char mode = kTileRef;
      if (rows_prescaled == n_rows && panels_prescaled == n_panels) mode = kTilePrescaled;
      else if (rows_prescaled == 0 && panels_prescaled == 0 && !rows.nan && !pr.nan && rows.hi >= 0 && pr.hi >= 0 &&
               rows.lo + pr.lo - 127 - F >= 1 && rows.hi + pr.hi - 127 - F <= 254)
        mode = kTileKernel;
      tile_mode[rt * pairs + pp] = mode;
    }
  }
  // The kernels write whole panel pairs: a last, partial pair goes to `edge` first.
  const bool ragged = N % W != 0;
  std::vector<float> edge(ragged ? row_tiles * MR * W : 0);
  const std::size_t kc = k_chunk_blocks(s, isa.nv, kb, row_tiles == 1);
  const std::size_t mc = row_chunk_tiles(s, kc);
  TileArgs t{};
  t.b_stride = stride;
  t.meta_offset = pbb;
  t.a_stride = a_stride;
  t.ae_stride = kb;
  for (std::size_t k0 = 0; k0 < kb; k0 += kc) {
    const std::size_t k1 = std::min(kb, k0 + kc);
    t.kb = k1 - k0;
    t.first = k0 == 0;
    t.last = k1 == kb;
    for (std::size_t rt0 = 0; rt0 < row_tiles; rt0 += mc) {
      const std::size_t rt1 = std::min(row_tiles, rt0 + mc);
      for (std::size_t pp = 0; pp < pairs; ++pp) {
        const std::size_t p0 = pp * NV, nv = std::min(NV, panels - p0);
        const std::size_t j0 = p0 * L, j1 = std::min(N, j0 + nv * L);
        const bool in_edge = j0 + W > N;
        for (std::size_t v = 0; v < 2; ++v) t.b[v] = b.data + ((p0 + (v < nv ? v : 0)) * kb + k0) * stride;
        for (std::size_t rt = rt0; rt < rt1; ++rt) {
          const std::size_t i0 = rt * MR, mr = std::min(MR, M - i0);
          const char mode = tile_mode[rt * pairs + pp];
          if (mode == kTileRef) {
            if (t.first) ref_gemm_tile(a, *b.bt, i0, i0 + mr, j0, j1, c, N);
            continue;
          }
          t.prescaled = mode == kTilePrescaled;
          t.a = a_conv + i0 * a_stride + k0 * abb;
          t.ae = a_exp + i0 * kb + k0;
          t.ac = a_corr + i0 * kb + k0;
          t.out = in_edge ? edge.data() + i0 * W : c + i0 * N + j0;
          t.ldc = in_edge ? W : N;
          // the next tile's running sums: C is too large for L2, and a kernel that
          // waits for them at its first block loses a fifth of its time
          if (!t.first && rt + 1 < rt1)
            for (std::size_t r = 0; r < MR; ++r)
              for (std::size_t j = 0; j < W; j += 16) __builtin_prefetch(t.out + (MR + r) * t.ldc + j, 1);
          isa.tile(s, static_cast<int>(mr), static_cast<int>(nv), t);
        }
      }
    }
  }
  if (ragged) {
    const std::size_t pp = pairs - 1, j0 = pp * NV * L;
    for (std::size_t rt = 0; rt < row_tiles; ++rt) {
      if (tile_mode[rt * pairs + pp] == kTileRef) continue;
      for (std::size_t i = rt * MR; i < std::min(M, rt * MR + MR); ++i)
        std::copy(edge.data() + i * W, edge.data() + i * W + (N - j0), c + i * N + j0);
    }
  }
  g_scratch_a.trim();
}

}  // namespace

void simd_gemm(const GemmIsa& isa, const Tensor& a, const PackedB& b, float* c) {
  gemm_impl(isa, a, PanelsView{b.data.data(), b.panel_info.data(), &b.bt}, c);
}

void simd_gemm(const GemmIsa& isa, const Tensor& a, const Tensor& bt, float* c) {
  const GemmShape s = isa.shape(a.format, bt.format);
  const std::size_t L = static_cast<std::size_t>(s.lanes), panels = (bt.rows + L - 1) / L;
  const std::size_t data_bytes = panels * bt.blocks_per_row() * block_stride(s);
  std::uint8_t* data = g_scratch_b.get(data_bytes + panels * kPanelInfo);
  pack_panels(isa, s, bt, data, data + data_bytes);
  gemm_impl(isa, a, PanelsView{data, data + data_bytes, &bt}, c);
  g_scratch_b.trim();
}

}  // namespace trnsim::mx::detail
