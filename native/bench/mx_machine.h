// The machine the MX benchmarks run on, and their fair baseline: the CPU (brand string,
// family/model, the SIMD features that matter to the MX kernels and to OpenBLAS) and
// OpenBLAS loaded at run time with the best kernel the CPU supports.
//
// Why at run time: OpenBLAS picks its kernels (its "core type") when the library loads,
// from the CPU or from OPENBLAS_CORETYPE. Debian's OpenBLAS 0.3.21 does not recognise
// some newer CPUs (an Intel Emerald Rapids runs its Prescott SSE3 kernels at ~1/5 of the
// AVX-512 speed), and some machines set OPENBLAS_CORETYPE (this project's VMs set
// Haswell, since older builds crash on their CPU) which halves sgemm on an AVX-512 CPU.
// So the baseline library is loaded here, after deciding its core type:
//   1. a child process loads OpenBLAS with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset
//      and reports the core OpenBLAS detects by itself;
//   2. if that core uses a weaker instruction set than the CPU offers (AVX-512 with BF16
//      -> Cooperlake, AVX-512 F/BW/VL/DQ/CD -> SkylakeX, AVX2 + FMA -> Haswell, AVX ->
//      Sandybridge), OPENBLAS_CORETYPE is set to that core for loading the library in
//      this process only (the environment is restored right after); otherwise OpenBLAS
//      detects the core itself. TRNSIM_BENCH_OPENBLAS_CORETYPE forces a core;
//      TRNSIM_BENCH_OPENBLAS_DETECTED replaces the child's answer (to test step 2).
// The variables are changed for the baseline library only, never for tests or CI.
//
// Does NOT: tune OpenBLAS (threads are set to 1, as the MX kernels are single-threaded),
// know core names newer than OpenBLAS 0.3.2x (an unknown name is trusted as detected).
#pragma once
#include <string>

#if TRNSIM_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace trnsim::bench {

struct CpuInfo {
  std::string brand;     // cpuid brand string, e.g. "AMD EPYC 9R45 ..."
  int family = 0, model = 0, stepping = 0;
  std::string features;  // space-separated, e.g. "avx2 fma avx512f ... avx512bf16"
};
const CpuInfo& cpu_info();

// The OpenBLAS core type whose instruction set is the best this CPU supports, or ""
// (not x86-64, or no AVX).
std::string best_openblas_core_for_cpu();
// 0 (SSE) .. 4 (AVX-512 with BF16) for a known OpenBLAS x86-64 core name (any case),
// -1 for a name this table does not know.
int openblas_core_level(const std::string& core);

struct Blas {
  bool loaded = false;
  std::string error;   // why not loaded
  std::string core;    // openblas_get_corename() of the loaded library
  std::string config;  // openblas_get_config()
  std::string choice;  // how the core was chosen, for the benchmark output
#if TRNSIM_HAVE_OPENBLAS
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&openblas_set_num_threads) set_num_threads = nullptr;
#endif
};
// Loaded once, on first use (single-threaded: call it before any benchmark runs).
const Blas& blas();

// Adds the CPU, its features, the MX paths and kernels and the baseline's OpenBLAS core
// to the benchmark output's context block.
void add_machine_context();

}  // namespace trnsim::bench
