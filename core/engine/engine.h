// A timing model of one NeuronCore: the tensor, vector, scalar and
// gpsimd engines and the DMA queues are concurrent resources; a kernel is a program of
// instructions with dependencies; each engine executes its own instructions in program
// order (as NeuronCores do, synchronising through semaphores), starting one when the
// engine is free and its inputs are ready. SBUF and PSUM capacity are enforced when a
// kernel is laid out (a clear InputError when a tile does not fit).
//
// Costs (FACTS.md "ISA facts", S8/S4/S10; numbers in core/data/chips/*.json):
//  - matmul: initiation interval max(N, 64) cycles at the tensor clock for N moving
//    columns; FP32 4x slower; the contraction per instruction is 128 rows (BF16/FP32),
//    256 (FP8 double_row) or 512 (MX on NeuronCore-v4). Stationary loads are hidden.
//  - vector / scalar / gpsimd op: fixed overhead (~100 cycles) + inputs x elements /
//    elements-per-cycle of the engine (BF16/FP16/FP8 "fast" rate, FP32 the other).
//  - DMA: a transfer occupies one of the core's 16 queues for bytes / (per-core share of
//    min(HBM, DMA) bandwidth / queues) and is usable ~600 ns later (descriptor latency).
// Does NOT model: SBUF bank conflicts, partition-offset rules, instruction fetch, the
// sync engine, semaphore latency, PSUM read-modify-write timing, DMA descriptor queues
// per engine, HBM page effects, clock throttling, other cores' traffic beyond an equal
// share of HBM bandwidth.
#pragma once
#include <string>
#include <vector>

#include "common/fields.h"
#include "hw/system.h"
#include "hw/roofline.h"

namespace trnsim::engine {

enum Unit : int { kJoin = -1, kTensor = 0, kVector, kScalar, kGpsimd, kDma, kUnits };
const char* unit_name(int unit);

struct Instruction {
  int unit = kTensor;      // or kJoin: no engine, finishes when its dependencies have
  double busy_s = 0;       // occupancy of the engine / queue
  double latency_s = 0;    // extra time before the result is usable (not occupying)
  std::vector<int> deps;   // instruction ids that must have finished
  int queue = -1;          // DMA: the queue (0..queues-1)
};

class Program {
 public:
  int add(Instruction i) {
    code_.push_back(std::move(i));
    return static_cast<int>(code_.size()) - 1;
  }
  const std::vector<Instruction>& code() const { return code_; }
  std::size_t size() const { return code_.size(); }

 private:
  std::vector<Instruction> code_;
};

struct Schedule {
  double time_s = 0;
  double busy_s[kUnits] = {0, 0, 0, 0, 0};  // DMA: summed over queues / queues
  std::vector<double> end_s;                // per instruction
};
Schedule simulate(const Program& program, int dma_queues);

// ---- kernels ----
struct KernelReport {
  std::string op;            // "gemm", "attention"
  std::string chip, dtype;
  std::string shape;         // "M=4096 N=4096 K=4096"
  std::string tiling;        // "tile_m=512 tile_n=2048 tile_k=4096"
  double time_s = 0;
  double busy_s[kUnits] = {0, 0, 0, 0, 0};
  std::string bottleneck;    // the busiest engine
  double flops = 0;          // useful FLOPs (matmuls only)
  double hbm_bytes = 0;      // bytes moved by DMA
  double sbuf_bytes_per_partition = 0, sbuf_capacity_per_partition = 0;
  double psum_bytes_per_partition = 0, psum_capacity_per_partition = 0;
  long instructions = 0;
  // The same operator on the roofline of one core (peak of its PE array, an equal
  // share of the chip's HBM bandwidth).
  hw::RooflineTime roofline;
};

struct GemmShape {
  long m = 4096, n = 4096, k = 4096;
  std::string dtype = "bf16";   // fp32, bf16, fp8, mxfp8, mxfp4
  long tile_m = 0, tile_n = 0, tile_k = 0;  // 0 = chosen to fit SBUF / PSUM
  bool quantize_a = true;       // MX: A arrives in BF16 and is quantised on the vector engine
};
struct AttentionShape {
  // head_dim: the QK^T contraction (above 128, in passes of 128 partitions accumulated in
  // PSUM); value_dim: the columns of V and the output (0: head_dim), in matmuls of at most the
  // moving free size. MLA differs: prefill 192 / 128, absorbed decode 576 / 512.
  long seq_q = 2048, seq_kv = 2048, head_dim = 128, heads = 1, value_dim = 0;
  // kv_heads: the K/V heads those query heads read (0: heads, one each). Not causal (decode,
  // speculation's verify), the heads / kv_heads query heads sharing a K/V head are rows of one
  // query tile against it, its K and V read once -- NKI's decode kernel (attention_tkg) takes
  // Q as [d, batch x heads x active tokens] against each sequence's K/V; GQA groups, and MLA's
  // absorbed decode where every head reads the one latent. Causal prefill keeps a tile per head.
  long kv_heads = 0;
  bool causal = true;
  std::string dtype = "bf16";   // bf16 or fp8 for QK^T and PV
  long tile_kv = 512;
  // false: the flash kernel above (scores stay in SBUF/PSUM). true: the decomposed path a
  // framework takes without a fused kernel (PyTorch SDPA's math path compiled by
  // neuronx-cc): S = QK^T written to HBM, a row softmax kernel reading S and writing P,
  // then O = PV reading P -- three kernels one after another (attention_decomposed).
  bool decomposed = false;
};

KernelReport gemm(const hw::Chip& chip, const GemmShape& shape);
KernelReport attention(const hw::Chip& chip, const AttentionShape& shape);  // either path
json report_json(const KernelReport& r);
std::string report_text(const KernelReport& r);

// One NeuronCore seen as a chip for hw::roofline: its PE-array peaks and an equal share
// (1 / cores) of the chip's HBM bandwidth.
hw::Chip one_core(const hw::Chip& chip);

}  // namespace trnsim::engine
