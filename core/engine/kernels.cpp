// Kernels laid out for the NeuronCore timing model: a tiled GEMM (BF16, FP8, FP32, and
// MX on NeuronCore-v4) and a flash-attention block. Tiles are double-buffered in SBUF
// and PSUM, loads for the next tile are issued before the current tile's compute
// (software pipelining), and every buffer reuse waits for the last reader of the buffer.
// Sources: FACTS.md ISA facts (S10, S9, S11), chip data (S4, S8).
// Attention also runs decomposed (attention_decomposed): S = QK^T to HBM, a row softmax
// kernel and PV as three GEMM/softmax kernels, the path PyTorch's SDPA takes on Neuron when
// no fused kernel takes the call.
// Does NOT model: the exact NKI library kernels, transposes of GEMM inputs (A is assumed
// stored K-major in HBM), SBUF-to-SBUF DMA, dropout, GQA head sharing.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/dtype.h"
#include "engine/engine.h"

namespace trnsim::engine {

namespace {

long ceil_div(long a, long b) { return (a + b - 1) / b; }

double element_bytes(const std::string& dt) { return dtype::bytes_per_element(dt); }  // scales included

bool is_mx(const std::string& dt) { return dtype::is_mx(dt); }

std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string kib(double bytes) { return num(bytes / 1024) + " KiB"; }

// What needs the NeuronCore block, as errors name it.
constexpr const char* kEngineUser = "the engine pricer (core/engine: NeuronCore engines, SBUF, PSUM, DMA queues)";

// Builds a program on one core and keeps the bookkeeping every kernel needs.
struct Builder {
  const hw::Chip& chip;
  const hw::NeuronCoreBlock& nc;  // the chip's NeuronCore block (InputError without one)
  const hw::CoreSpec& core;
  Program prog;
  double queue_bw = 0;  // bytes/s of one DMA queue
  int queues = 1;
  int next_queue = 0;
  double hbm_bytes = 0, flops = 0;

  explicit Builder(const hw::Chip& c) : chip(c), nc(c.neuron(kEngineUser)), core(nc.core) {
    queues = std::max(1, core.dma_queues);
    double core_bw = std::min(chip.hbm_bandwidth_bytes_per_s, nc.dma_bandwidth_bytes_per_s) / std::max(1, nc.cores);
    queue_bw = core_bw / queues;
  }

  int join(std::vector<int> deps) {
    Instruction j;
    j.unit = kJoin;
    j.deps = std::move(deps);
    return prog.add(std::move(j));
  }
  // A DMA between HBM and SBUF, split over the queues; returns a join of the pieces.
  int dma(double bytes, const std::vector<int>& deps) {
    hbm_bytes += bytes;
    int pieces = static_cast<int>(std::max(1.0, std::min<double>(queues, bytes / 2048)));
    std::vector<int> ids;
    for (int p = 0; p < pieces; ++p) {
      Instruction d;
      d.unit = kDma;
      d.busy_s = bytes / pieces / queue_bw;
      d.latency_s = core.dma_fixed_s;
      d.deps = deps;
      d.queue = next_queue;
      next_queue = (next_queue + 1) % queues;
      ids.push_back(prog.add(std::move(d)));
    }
    return join(std::move(ids));
  }
  int engine_op(int unit, double elements, int inputs, bool fast, const std::vector<int>& deps) {
    const hw::EngineSpec& e = unit == kVector ? core.vector : unit == kScalar ? core.scalar : core.gpsimd;
    double rate = fast ? e.elems_per_cycle_fast : e.elems_per_cycle_other;
    Instruction i;
    i.unit = unit;
    i.busy_s = (e.op_overhead_cycles + inputs * elements / rate) / e.clock_hz;
    i.deps = deps;
    return prog.add(std::move(i));
  }
  // One matmul instruction: stationary [k x m] (k <= contraction, m <= cols), moving
  // [k x n] (n <= max moving free); FLOPs 2kmn.
  int matmul(const std::string& dt, long k, long m, long n, const std::vector<int>& deps, bool count_flops = true) {
    double rate = core.tensor.rate_vs_bf16.at(dt);
    double slow = rate < 1 ? 1 / rate : 1;
    Instruction i;
    i.unit = kTensor;
    i.busy_s = std::max(static_cast<double>(n), core.tensor.min_initiation_cycles) * slow / core.tensor.clock_hz;
    i.deps = deps;
    if (count_flops) flops += 2.0 * static_cast<double>(k) * static_cast<double>(m) * static_cast<double>(n);
    return prog.add(std::move(i));
  }
  long contraction(const std::string& dt) const {
    double rate = core.tensor.rate_vs_bf16.at(dt);
    return static_cast<long>(core.tensor.rows * (rate > 1 ? rate : 1));
  }
  void need_dtype(const std::string& dt) const {
    element_bytes(dt);
    if (!core.tensor.rate_vs_bf16.count(dt))
      throw InputError("dtype", chip.display_name + "'s tensor engine has no native " + dt + " matmul");
  }
  double sbuf_per_partition() const { return core.sbuf_bytes / core.partitions; }
  double psum_per_partition() const { return core.psum_bytes / core.partitions; }

  KernelReport finish(const std::string& op, const std::string& dt) {
    if (prog.size() > 50000000) throw InputError("shape", "the kernel needs more than 50 million instructions; shrink it");
    Schedule s = simulate(prog, queues);
    KernelReport r;
    r.op = op;
    r.chip = chip.name;
    r.dtype = dt;
    r.time_s = s.time_s;
    int best = 0;
    for (int u = 0; u < kUnits; ++u) {
      r.busy_s[u] = s.busy_s[u];
      if (s.busy_s[u] > s.busy_s[best]) best = u;
    }
    r.bottleneck = unit_name(best);
    r.flops = flops;
    r.hbm_bytes = hbm_bytes;
    r.instructions = static_cast<long>(prog.size());
    r.sbuf_capacity_per_partition = sbuf_per_partition();
    r.psum_capacity_per_partition = psum_per_partition();
    hw::OperatorCost cost;
    cost.dtype = dt;
    cost.flops = flops;
    cost.hbm_bytes = hbm_bytes;
    r.roofline = hw::roofline(one_core(chip), cost, hw::RooflineEfficiency{});
    return r;
  }
};

void check_dim(long v, const char* name, long hi = 1 << 20) {
  if (v < 1 || v > hi) throw InputError(name, "must be between 1 and " + std::to_string(hi) + ", got " + std::to_string(v));
}

}  // namespace

hw::Chip one_core(const hw::Chip& chip) {
  const hw::NeuronCoreBlock& nc = chip.neuron(kEngineUser);
  hw::Chip c = chip;
  c.name = chip.name + "-core";
  c.display_name = chip.display_name + " (one NeuronCore)";
  c.neuroncore->cores = 1;
  c.peak_flops.clear();
  for (const auto& dt : hw::dtype_names()) {
    double p = nc.core.tensor.peak_flops(dt);
    if (p > 0) c.peak_flops[dt] = p;
  }
  c.hbm_capacity_bytes = chip.hbm_capacity_bytes / std::max(1, nc.cores);
  c.hbm_bandwidth_bytes_per_s = std::min(chip.hbm_bandwidth_bytes_per_s, nc.dma_bandwidth_bytes_per_s) / std::max(1, nc.cores);
  return c;
}

KernelReport gemm(const hw::Chip& chip, const GemmShape& g) {
  check_dim(g.m, "m");
  check_dim(g.n, "n");
  check_dim(g.k, "k");
  Builder b(chip);
  const std::string& dt = g.dtype;
  b.need_dtype(dt);
  const long P = b.core.partitions, cols = b.core.tensor.cols, free_max = b.core.tensor.max_moving_free;
  const long kin = b.contraction(dt);
  const bool mx = is_mx(dt);
  const double el = element_bytes(dt);
  const double a_hbm_el = mx && g.quantize_a ? 2.0 : el;          // A read as BF16 and quantised
  const double a_sbuf_el = mx && g.quantize_a ? 2.0 + el : el;    // BF16 staging + MX copy
  const double out_el = dt == "fp32" ? 4.0 : 2.0;
  const double sbuf_cap = b.sbuf_per_partition(), psum_cap = b.psum_per_partition();

  auto sbuf_need = [&](long tm, long tn, long tk) {
    double rows = static_cast<double>(ceil_div(tk, P));
    return 2 * rows * tm * a_sbuf_el + 2 * rows * tn * el + 2.0 * ceil_div(tm, P) * tn * out_el;
  };
  auto psum_need = [&](long tm, long tn) { return 2.0 * ceil_div(tm, P) * tn * 4; };

  long tm = g.tile_m, tn = g.tile_n, tk = g.tile_k;
  if (tm < 0 || tn < 0 || tk < 0) throw InputError("tile", "tile sizes must not be negative");
  if (tm == 0 || tn == 0 || tk == 0) {
    // Largest tiles that fit: prefer the whole contraction, then wide N, then tall M.
    bool found = false;
    std::vector<long> tks, tns, tms;
    for (long t = g.k; t >= 1; t = (t > kin ? std::max(kin, (t / 2 + kin - 1) / kin * kin) : 0)) {
      tks.push_back(t);
      if (t == kin) break;
    }
    for (long t : {4096L, 2048L, 1024L, 512L, 256L, 128L}) tns.push_back(std::min(t, g.n));
    for (long t : {512L, 256L, 128L}) tms.push_back(std::min(t, g.m));
    for (long ck : tk ? std::vector<long>{tk} : tks) {
      for (long cn : tn ? std::vector<long>{tn} : tns) {
        for (long cm : tm ? std::vector<long>{tm} : tms) {
          if (!found && sbuf_need(cm, cn, ck) <= sbuf_cap && psum_need(cm, cn) <= psum_cap) {
            found = true;
            tk = ck, tn = cn, tm = cm;
          }
        }
      }
    }
    if (!found) throw InputError("tile", "no tiling of this GEMM fits the NeuronCore's SBUF (" + kib(sbuf_cap) +
                                             " per partition) and PSUM (" + kib(psum_cap) + " per partition)");
  }
  if (sbuf_need(tm, tn, tk) > sbuf_cap)
    throw InputError("tile", "tiles A[" + std::to_string(tm) + "x" + std::to_string(tk) + "] and B[" + std::to_string(tk) + "x" +
                                 std::to_string(tn) + "] double-buffered with the output need " + kib(sbuf_need(tm, tn, tk)) +
                                 " of SBUF per partition; " + chip.display_name + " has " + kib(sbuf_cap) + " (" +
                                 num(b.core.sbuf_bytes / 1048576) + " MiB / " + std::to_string(P) + " partitions)");
  if (psum_need(tm, tn) > psum_cap)
    throw InputError("tile", "the FP32 accumulators of a " + std::to_string(tm) + "x" + std::to_string(tn) +
                                 " output tile, double-buffered, need " + kib(psum_need(tm, tn)) + " of PSUM per partition; " +
                                 chip.display_name + " has " + kib(psum_cap) + " (" + std::to_string(b.core.psum_banks) +
                                 " banks)");

  const long nb = ceil_div(g.n, tn), mb = ceil_div(g.m, tm), kb = ceil_div(g.k, tk);
  struct StepDesc {
    long n0, m0, k0, tn, tm, tk;
    bool load_b, first_k, last_k;
  };
  std::vector<StepDesc> steps;
  for (long ni = 0; ni < nb; ++ni)
    for (long mi = 0; mi < mb; ++mi)
      for (long ki = 0; ki < kb; ++ki) {
        StepDesc s;
        s.n0 = ni * tn, s.m0 = mi * tm, s.k0 = ki * tk;
        s.tn = std::min(tn, g.n - s.n0), s.tm = std::min(tm, g.m - s.m0), s.tk = std::min(tk, g.k - s.k0);
        s.load_b = kb > 1 || mi == 0;
        s.first_k = ki == 0, s.last_k = ki == kb - 1;
        steps.push_back(s);
      }
  // Buffers (double): last reader of each slot.
  int a_reader[2] = {-1, -1}, b_reader[2] = {-1, -1}, c_reader[2] = {-1, -1}, psum_reader[2] = {-1, -1};
  int a_slot = 0, b_slot = 0, blk = 0;
  std::vector<int> a_ready(steps.size(), -1), b_ready(steps.size(), -1);
  int b_current = -1;
  auto deps_of = [](int x) { return x >= 0 ? std::vector<int>{x} : std::vector<int>{}; };
  auto emit_loads = [&](std::size_t i) {
    const StepDesc& s = steps[i];
    if (s.load_b) {
      b_ready[i] = b.dma(static_cast<double>(s.tk) * s.tn * el, deps_of(b_reader[b_slot]));
    }
    int a = b.dma(static_cast<double>(s.tk) * s.tm * a_hbm_el, deps_of(a_reader[a_slot]));
    if (mx && g.quantize_a) a = b.engine_op(kVector, static_cast<double>(s.tk) * s.tm, 1, true, {a});  // quantize_mx
    a_ready[i] = a;
  };
  if (!steps.empty()) emit_loads(0);
  int last_mm = -1;
  std::vector<int> block_mms;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepDesc& s = steps[i];
    if (s.load_b) b_current = b_ready[i];
    int b_used_slot = b_slot;
    if (i + 1 < steps.size()) {
      // Next step's buffers: A always alternates; B alternates when reloaded.
      a_slot ^= 1;
      if (steps[i + 1].load_b) b_slot ^= 1;
      emit_loads(i + 1);
    }
    int psum_slot = blk % 2;
    for (long ms = 0; ms < ceil_div(s.tm, cols); ++ms) {
      long m_sub = std::min(cols, s.tm - ms * cols);
      for (long ns = 0; ns < ceil_div(s.tn, free_max); ++ns) {
        long n_sub = std::min(free_max, s.tn - ns * free_max);
        for (long kt = 0; kt < ceil_div(s.tk, kin); ++kt) {
          long k_sub = std::min(kin, s.tk - kt * kin);
          std::vector<int> deps = {a_ready[i], b_current};
          if (s.first_k && psum_reader[psum_slot] >= 0) deps.push_back(psum_reader[psum_slot]);
          last_mm = b.matmul(dt, k_sub, m_sub, n_sub, deps);
        }
      }
    }
    a_reader[a_slot ^ (i + 1 < steps.size() ? 1 : 0)] = last_mm;
    b_reader[b_used_slot] = last_mm;
    if (s.last_k) {
      // Evacuate PSUM (FP32) to SBUF in the output dtype, then store.
      std::vector<int> evac;
      int c_slot = blk % 2;
      for (long ms = 0; ms < ceil_div(s.tm, P); ++ms) {
        long m_sub = std::min(P, s.tm - ms * P);
        std::vector<int> deps = {last_mm};
        if (c_reader[c_slot] >= 0) deps.push_back(c_reader[c_slot]);
        evac.push_back(b.engine_op(kVector, static_cast<double>(m_sub) * s.tn, 1, false, deps));
      }
      psum_reader[psum_slot] = evac.back();
      c_reader[c_slot] = b.dma(static_cast<double>(s.tm) * s.tn * out_el, evac);
      ++blk;
    }
  }
  KernelReport r = b.finish("gemm", dt);
  r.shape = "M=" + std::to_string(g.m) + " N=" + std::to_string(g.n) + " K=" + std::to_string(g.k);
  r.tiling = "tile_m=" + std::to_string(tm) + " tile_n=" + std::to_string(tn) + " tile_k=" + std::to_string(tk);
  r.sbuf_bytes_per_partition = sbuf_need(tm, tn, tk);
  r.psum_bytes_per_partition = psum_need(tm, tn);
  return r;
}

namespace {

// Adds `times` runs of kernel k, run after what t holds, into t.
void add_serial(KernelReport& t, const KernelReport& k, double times) {
  t.time_s += times * k.time_s;
  for (int u = 0; u < kUnits; ++u) t.busy_s[u] += times * k.busy_s[u];
  t.flops += times * k.flops;
  t.hbm_bytes += times * k.hbm_bytes;
  t.instructions += static_cast<long>(times) * k.instructions;
  t.sbuf_bytes_per_partition = std::max(t.sbuf_bytes_per_partition, k.sbuf_bytes_per_partition);
  t.psum_bytes_per_partition = std::max(t.psum_bytes_per_partition, k.psum_bytes_per_partition);
  t.sbuf_capacity_per_partition = k.sbuf_capacity_per_partition;
  t.psum_capacity_per_partition = k.psum_capacity_per_partition;
}

// The decomposed path: what PyTorch's SDPA math path becomes when no fused kernel takes the
// call -- S = Q K^T per head as a GEMM whose output goes to HBM (BF16), a row softmax kernel
// (each 128-row tile of S loaded whole, max on the vector engine, exp(S - max) with the row
// sum on the scalar engine, the 1/sum scaling on the vector engine, P stored), and O = P V
// as a GEMM reading P. The three kernels run one after another, so their times add; the
// softmax reads and writes the scores once each when a row fits SBUF (one fused pass), and
// reads them three times when it does not (max, exp-sum, normalise over column chunks).
KernelReport attention_decomposed(const hw::Chip& chip, const AttentionShape& a) {
  const long dv = a.value_dim ? a.value_dim : a.head_dim;
  GemmShape qk;
  qk.m = a.seq_q, qk.n = a.seq_kv, qk.k = a.head_dim, qk.dtype = a.dtype;
  GemmShape pv;
  pv.m = a.seq_q, pv.n = dv, pv.k = a.seq_kv, pv.dtype = a.dtype;
  Builder b(chip);
  const long P = b.core.partitions;
  // A row of BF16 scores per partition, S in and P out, double-buffered: whole rows when they
  // fit SBUF (one fused pass: S read once), else column chunks in three passes (the row max,
  // then exp with the row sum, then exp scaled by 1/sum and stored: S read three times).
  const long chunk_max = static_cast<long>(b.sbuf_per_partition() / (4 * 2));
  const bool whole_rows = a.seq_kv <= chunk_max;
  const long chunk = whole_rows ? a.seq_kv : std::min(a.seq_kv, std::max(P, chunk_max / P * P));
  const double sbuf = 4.0 * chunk * 2;
  int reader[2] = {-1, -1};
  int slot = 0;
  auto load = [&](double bytes) {
    int in = b.dma(bytes, reader[slot] >= 0 ? std::vector<int>{reader[slot]} : std::vector<int>{});
    return in;
  };
  for (long h = 0; h < a.heads; ++h) {
    for (long q0 = 0; q0 < a.seq_q; q0 += P) {
      const double rows = static_cast<double>(std::min(P, a.seq_q - q0));
      if (whole_rows) {
        const double el = rows * a.seq_kv;
        int in = load(el * 2);
        int mx = b.engine_op(kVector, el, 1, true, {in});   // row max
        int ex = b.engine_op(kScalar, el, 1, true, {mx});   // exp(S - max), row sum accumulated
        int nm = b.engine_op(kVector, el, 1, true, {ex});   // P = E / sum
        reader[slot] = b.dma(el * 2, {nm});
        slot ^= 1;
        continue;
      }
      int stats = -1;  // the running row max, then the row sum
      for (int pass = 0; pass < 3; ++pass) {
        std::vector<int> done;
        for (long c0 = 0; c0 < a.seq_kv; c0 += chunk) {
          const double el = rows * std::min(chunk, a.seq_kv - c0);
          int in = load(el * 2);
          std::vector<int> deps = {in};
          if (stats >= 0) deps.push_back(stats);
          int last;
          if (pass == 0) last = b.engine_op(kVector, el, 1, true, deps);            // running max
          else if (pass == 1) last = b.engine_op(kScalar, el, 1, true, deps);       // exp, running sum
          else {
            int ex = b.engine_op(kScalar, el, 1, true, deps);                      // exp again
            int nm = b.engine_op(kVector, el, 1, true, {ex});                      // x 1/sum
            last = b.dma(el * 2, {nm});
          }
          reader[slot] = last;
          slot ^= 1;
          done.push_back(last);
        }
        stats = b.join(std::move(done));
      }
    }
  }
  KernelReport softmax = b.finish("softmax", "bf16");
  softmax.sbuf_bytes_per_partition = sbuf;
  KernelReport r;
  r.op = "attention";
  r.chip = chip.name;
  r.dtype = a.dtype;
  add_serial(r, gemm(chip, qk), static_cast<double>(a.heads));
  add_serial(r, softmax, 1);
  add_serial(r, gemm(chip, pv), static_cast<double>(a.heads));
  int best = 0;
  for (int u = 0; u < kUnits; ++u)
    if (r.busy_s[u] > r.busy_s[best]) best = u;
  r.bottleneck = unit_name(best);
  hw::OperatorCost cost;
  cost.dtype = a.dtype;
  cost.flops = r.flops;
  cost.hbm_bytes = r.hbm_bytes;
  r.roofline = hw::roofline(one_core(chip), cost, hw::RooflineEfficiency{});
  r.shape = "heads=" + std::to_string(a.heads) + " seq_q=" + std::to_string(a.seq_q) + " seq_kv=" + std::to_string(a.seq_kv) +
            " head_dim=" + std::to_string(a.head_dim) + (dv != a.head_dim ? " value_dim=" + std::to_string(dv) : "") +
            " decomposed";
  r.tiling = "S = QK^T, softmax, PV as three kernels; scores through HBM";
  return r;
}

}  // namespace

KernelReport attention(const hw::Chip& chip, const AttentionShape& a) {
  check_dim(a.seq_q, "seq_q");
  check_dim(a.seq_kv, "seq_kv");
  check_dim(a.heads, "heads", 1024);
  check_dim(a.head_dim, "head_dim", 4096);
  if (a.value_dim != 0) check_dim(a.value_dim, "value_dim", 4096);
  if (a.kv_heads != 0) check_dim(a.kv_heads, "kv_heads", 1024);
  if (a.kv_heads != 0 && a.heads % a.kv_heads != 0)
    throw InputError("kv_heads", "must divide heads (" + std::to_string(a.heads) + "), got " + std::to_string(a.kv_heads));
  // Not causal: each K/V head's query heads become rows of its query tiles (engine.h).
  const long group = a.kv_heads != 0 && !a.causal ? a.heads / a.kv_heads : 1;
  const long heads = a.heads / group, seq_q = a.seq_q * group;
  if (a.dtype != "bf16" && a.dtype != "fp8") throw InputError("dtype", "attention supports bf16 or fp8, got '" + a.dtype + "'");
  if (a.decomposed) {
    if (a.causal) throw InputError("decomposed", "the decomposed attention path is modelled for full (not causal) attention");
    return attention_decomposed(chip, a);
  }
  Builder b(chip);
  const long P = b.core.partitions;
  b.need_dtype(a.dtype);
  const long d = a.head_dim, dv = a.value_dim ? a.value_dim : a.head_dim, tq = P;
  const long passes = ceil_div(d, P);                          // QK^T contraction passes
  const long F = b.core.tensor.max_moving_free;
  const long tkv = a.tile_kv;
  if (tkv < P || tkv % P != 0 || tkv > F)
    throw InputError("tile_kv", "must be a multiple of " + std::to_string(P) + " up to " + std::to_string(F) + ", got " +
                                    std::to_string(tkv));
  const double el = element_bytes(a.dtype);
  // SBUF per partition: Q^T and K^T (d rows in `passes` partition tiles), V (kv partitions x
  // dv), P and P^T (bf16), O accumulator and statistics; double-buffered K, V.
  double sbuf = passes * tq * el + 2.0 * passes * tkv * el + 2.0 * (tkv / P) * dv * el + 2.0 * tkv * 2 +
                2.0 * (tkv / P) * tq * 2 + dv * 4.0 + 16;
  double psum = 2.0 * tkv * 4 + 2.0 * std::min(dv, F) * 4 + 2.0 * tq * 4;  // S, O partial, transposes
  if (sbuf > b.sbuf_per_partition())
    throw InputError("tile_kv", "attention tiles need " + kib(sbuf) + " of SBUF per partition; " + chip.display_name + " has " +
                                    kib(b.sbuf_per_partition()));
  if (psum > b.psum_per_partition())
    throw InputError("tile_kv", "attention accumulators need " + kib(psum) + " of PSUM per partition; " + chip.display_name +
                                    " has " + kib(b.psum_per_partition()));
  int kv_reader[2] = {-1, -1};
  int slot = 0;
  auto deps_of = [](int x) { return x >= 0 ? std::vector<int>{x} : std::vector<int>{}; };
  for (long h = 0; h < heads; ++h) {
    for (long q0 = 0; q0 < seq_q; q0 += tq) {
      long qn = std::min(tq, seq_q - q0);
      int q = b.dma(static_cast<double>(qn) * d * el, {});
      int o_prev = -1;  // last update of the O accumulator
      // Causal: query i sees keys <= i (queries aligned to the end of the keys).
      long q_last = q0 + qn - 1 + (a.seq_kv - seq_q);
      long kv_end = a.causal ? std::min(a.seq_kv, q_last + 1) : a.seq_kv;
      for (long k0 = 0; k0 < kv_end; k0 += tkv) {
        long kn = std::min(tkv, kv_end - k0);
        int k = b.dma(static_cast<double>(kn) * d * el, deps_of(kv_reader[slot]));
        int v = b.dma(static_cast<double>(kn) * dv * el, deps_of(kv_reader[slot]));
        // S = Q K^T: contraction d in passes of P rows accumulated in PSUM, stationary Q^T
        // [rows x qn], moving K^T [rows x kn].
        int s = -1;
        for (long c = 0; c < d; c += P) {
          std::vector<int> deps = {q, k};
          if (s >= 0) deps.push_back(s);
          s = b.matmul(a.dtype, std::min(P, d - c), qn, kn, deps);
        }
        int masked = s;
        bool diagonal = a.causal && k0 + kn - 1 > q0 + (a.seq_kv - seq_q);
        if (diagonal) masked = b.engine_op(kGpsimd, static_cast<double>(qn) * kn, 1, false, {s});  // affine_select
        int mx = b.engine_op(kVector, static_cast<double>(qn) * kn, 1, false, {masked});           // row max
        int ex = b.engine_op(kScalar, static_cast<double>(qn) * kn, 1, false, {mx});               // exp(S - max), row sum
        int corr = b.engine_op(kVector, static_cast<double>(qn) * 2, 2, false, {mx});               // rescale factors
        // P^T by tensor-engine transposes (128x128 each), copied back to SBUF, then O += P V
        // (V's columns in matmuls of at most F).
        std::vector<int> pv;
        for (long c = 0; c < kn; c += P) {
          long cn = std::min(P, kn - c);
          int t = b.matmul("bf16", qn, cn, qn, {ex}, false);
          int tc = b.engine_op(kVector, static_cast<double>(cn) * qn, 1, false, {t});
          for (long e = 0; e < dv; e += F) pv.push_back(b.matmul(a.dtype, cn, qn, std::min(F, dv - e), {tc, v}));
        }
        std::vector<int> upd_deps = {pv.back(), corr};
        if (o_prev >= 0) upd_deps.push_back(o_prev);
        o_prev = b.engine_op(kVector, static_cast<double>(qn) * dv, 2, false, upd_deps);  // O = O*scale + PV
        kv_reader[slot] = pv.back();
        slot ^= 1;
      }
      int norm = b.engine_op(kVector, static_cast<double>(qn) * dv, 2, false, deps_of(o_prev));  // O / l
      b.dma(static_cast<double>(qn) * dv * 2, {norm});
    }
  }
  KernelReport r = b.finish("attention", a.dtype);
  r.shape = "heads=" + std::to_string(a.heads) + " seq_q=" + std::to_string(a.seq_q) + " seq_kv=" + std::to_string(a.seq_kv) +
            " head_dim=" + std::to_string(d) + (dv != d ? " value_dim=" + std::to_string(dv) : "") +
            (a.kv_heads != 0 ? " kv_heads=" + std::to_string(a.kv_heads) : "") + (a.causal ? " causal" : "");
  r.tiling = "tile_q=" + std::to_string(tq) + " tile_kv=" + std::to_string(tkv);
  r.sbuf_bytes_per_partition = sbuf;
  r.psum_bytes_per_partition = psum;
  return r;
}

json report_json(const KernelReport& r) {
  json j;
  j["op"] = r.op;
  j["chip"] = r.chip;
  j["dtype"] = r.dtype;
  j["shape"] = r.shape;
  j["tiling"] = r.tiling;
  j["time_s"] = r.time_s;
  json busy;
  for (int u = 0; u < kUnits; ++u) busy[unit_name(u)] = r.busy_s[u];
  j["busy_s"] = busy;
  json util;
  for (int u = 0; u < kUnits; ++u) util[unit_name(u)] = r.time_s > 0 ? r.busy_s[u] / r.time_s : 0.0;
  j["utilization"] = util;
  j["bottleneck"] = r.bottleneck;
  j["flops"] = r.flops;
  j["achieved_flops_per_s"] = r.time_s > 0 ? r.flops / r.time_s : 0.0;
  j["hbm_bytes"] = r.hbm_bytes;
  j["sbuf_bytes_per_partition"] = r.sbuf_bytes_per_partition;
  j["sbuf_capacity_per_partition"] = r.sbuf_capacity_per_partition;
  j["psum_bytes_per_partition"] = r.psum_bytes_per_partition;
  j["psum_capacity_per_partition"] = r.psum_capacity_per_partition;
  j["instructions"] = r.instructions;
  j["roofline"] = {{"time_s", r.roofline.time_s},
                   {"compute_s", r.roofline.compute_s},
                   {"memory_s", r.roofline.memory_s},
                   {"compute_bound", r.roofline.compute_bound}};
  return j;
}

std::string report_text(const KernelReport& r) {
  std::ostringstream o;
  auto us = [](double s) { return num(s * 1e6) + " us"; };
  o << r.op << " on one NeuronCore of " << r.chip << " (" << r.dtype << "): " << r.shape << "\n";
  o << "  tiling        " << r.tiling << "; SBUF " << kib(r.sbuf_bytes_per_partition) << " of " << kib(r.sbuf_capacity_per_partition)
    << " per partition, PSUM " << kib(r.psum_bytes_per_partition) << " of " << kib(r.psum_capacity_per_partition) << "\n";
  o << "  time          " << us(r.time_s) << " (" << num(r.flops / r.time_s / 1e12) << " TFLOP/s, " << r.instructions
    << " instructions)\n";
  o << "  engine busy  ";
  for (int u = 0; u < kUnits; ++u)
    o << " " << unit_name(u) << " " << us(r.busy_s[u]) << " (" << num(100 * r.busy_s[u] / r.time_s) << "%)"
      << (u + 1 < kUnits ? "," : "");
  o << "\n  bottleneck    " << r.bottleneck << "\n";
  o << "  roofline      " << us(r.roofline.time_s) << " (compute " << us(r.roofline.compute_s) << ", HBM "
    << us(r.roofline.memory_s) << ", " << num(r.hbm_bytes / 1048576) << " MiB); engine model / roofline = "
    << num(r.time_s / r.roofline.time_s) << "\n";
  return o.str();
}

}  // namespace trnsim::engine
