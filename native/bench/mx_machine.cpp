// The CPU and the fair OpenBLAS baseline of the MX benchmarks (see mx_machine.h).
#include "mx_machine.h"

#include "bench_api.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "mx/mx.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define TRNSIM_BENCH_X86 1
#endif
#if TRNSIM_HAVE_OPENBLAS
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace trnsim::bench {

namespace {

#if TRNSIM_BENCH_X86
bool has(const char* feature) {
  // __builtin_cpu_supports needs a literal: the list below spells each one out.
#define TRNSIM_FEATURE(name) \
  if (std::strcmp(feature, name) == 0) return __builtin_cpu_supports(name);
  TRNSIM_FEATURE("sse4.2")
  TRNSIM_FEATURE("avx")
  TRNSIM_FEATURE("avx2")
  TRNSIM_FEATURE("fma")
  TRNSIM_FEATURE("avx512f")
  TRNSIM_FEATURE("avx512dq")
  TRNSIM_FEATURE("avx512cd")
  TRNSIM_FEATURE("avx512bw")
  TRNSIM_FEATURE("avx512vl")
  TRNSIM_FEATURE("avx512vnni")
  TRNSIM_FEATURE("avx512bf16")
  TRNSIM_FEATURE("avx512vbmi")
  TRNSIM_FEATURE("avx512vp2intersect")
#if !defined(__clang__)  // clang 14 (the asan build) does not know these names: not detected there
  TRNSIM_FEATURE("avx512fp16")
  TRNSIM_FEATURE("avxvnni")
  TRNSIM_FEATURE("amx-tile")
  TRNSIM_FEATURE("amx-int8")
  TRNSIM_FEATURE("amx-bf16")
#endif
#undef TRNSIM_FEATURE
  return false;
}
constexpr const char* kFeatures[] = {"sse4.2",     "avx",        "avx2",       "fma",        "avx512f",
                                     "avx512dq",   "avx512cd",   "avx512bw",   "avx512vl",   "avx512vnni",
                                     "avx512bf16", "avx512vbmi", "avx512vp2intersect", "avx512fp16", "avxvnni",
                                     "amx-tile",   "amx-int8",   "amx-bf16"};

CpuInfo read_cpu() {
  CpuInfo c;
  unsigned a = 0, b = 0, cx = 0, d = 0;
  char brand[49] = {};
  if (__get_cpuid(0x80000000u, &a, &b, &cx, &d) && a >= 0x80000004u)
    for (unsigned i = 0; i < 3; ++i) {
      __get_cpuid(0x80000002u + i, &a, &b, &cx, &d);
      std::memcpy(brand + 16 * i, &a, 4);
      std::memcpy(brand + 16 * i + 4, &b, 4);
      std::memcpy(brand + 16 * i + 8, &cx, 4);
      std::memcpy(brand + 16 * i + 12, &d, 4);
    }
  c.brand = brand;
  while (!c.brand.empty() && c.brand.back() == ' ') c.brand.pop_back();
  if (__get_cpuid(1, &a, &b, &cx, &d)) {
    const int base_family = static_cast<int>((a >> 8) & 0xF), ext_family = static_cast<int>((a >> 20) & 0xFF);
    const int base_model = static_cast<int>((a >> 4) & 0xF), ext_model = static_cast<int>((a >> 16) & 0xF);
    c.family = base_family == 0xF ? base_family + ext_family : base_family;
    c.model = base_family == 0xF || base_family == 0x6 ? (ext_model << 4) + base_model : base_model;
    c.stepping = static_cast<int>(a & 0xF);
  }
  for (const char* f : kFeatures)
    if (has(f)) c.features += (c.features.empty() ? "" : " ") + std::string(f);
  return c;
}
#else
bool has(const char*) { return false; }
CpuInfo read_cpu() { return {"(not x86-64)", 0, 0, 0, ""}; }
#endif

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

const CpuInfo& cpu_info() {
  static const CpuInfo c = read_cpu();
  return c;
}

std::string best_openblas_core_for_cpu() {
  const bool avx512 = has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq") && has("avx512cd");
  if (avx512) return has("avx512bf16") ? "Cooperlake" : "SkylakeX";
  if (has("avx2") && has("fma")) return "Haswell";
  if (has("avx")) return "Sandybridge";
  return "";
}

int openblas_core_level(const std::string& core) {
  // OpenBLAS 0.3.21's x86-64 DYNAMIC_ARCH cores by the widest SIMD their kernels use.
  static const std::pair<const char*, int> kLevels[] = {
      {"cooperlake", 4}, {"sapphirerapids", 4}, {"skylakex", 3},   {"haswell", 2},    {"zen", 2},
      {"excavator", 2},  {"sandybridge", 1},    {"bulldozer", 1},  {"piledriver", 1}, {"steamroller", 1},
      {"prescott", 0},   {"core2", 0},          {"penryn", 0},     {"dunnington", 0}, {"nehalem", 0},
      {"atom", 0},       {"barcelona", 0},      {"opteron", 0},    {"opteron_sse3", 0}, {"katmai", 0},
      {"coppermine", 0}, {"northwood", 0},      {"banias", 0},     {"athlon", 0},     {"bobcat", 0}};
  const std::string c = lower(core);
  for (const auto& [name, level] : kLevels)
    if (c == name) return level;
  return -1;
}

#if TRNSIM_HAVE_OPENBLAS
namespace {

constexpr const char* kLibrary = "libopenblas.so.0";  // Debian's soname (libopenblas0-pthread)

// Sets (or, with nullopt, unsets) an environment variable; returns the previous value.
std::optional<std::string> set_env(const char* name, const std::optional<std::string>& value) {
  const char* old = std::getenv(name);
  std::optional<std::string> prev = old ? std::optional<std::string>(old) : std::nullopt;
  if (value) setenv(name, value->c_str(), 1);
  else unsetenv(name);
  return prev;
}

// Loads OpenBLAS with OPENBLAS_CORETYPE = core ("" = let OpenBLAS detect the CPU) and
// OPENBLAS_L2_SIZE unset, one thread; the environment is restored afterwards.
void* load_openblas(const std::string& core, std::string& error) {
  auto prev_core = set_env("OPENBLAS_CORETYPE", core.empty() ? std::nullopt : std::optional<std::string>(core));
  auto prev_l2 = set_env("OPENBLAS_L2_SIZE", std::nullopt);
  auto prev_threads = set_env("OPENBLAS_NUM_THREADS", std::string("1"));
  void* h = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!h) error = std::string("dlopen ") + kLibrary + ": " + dlerror();
  set_env("OPENBLAS_CORETYPE", prev_core);
  set_env("OPENBLAS_L2_SIZE", prev_l2);
  set_env("OPENBLAS_NUM_THREADS", prev_threads);
  return h;
}

std::string corename(void* h) {
  auto fn = reinterpret_cast<decltype(&openblas_get_corename)>(dlsym(h, "openblas_get_corename"));
  return fn ? fn() : "";
}

// The core OpenBLAS detects by itself, asked in a child process (a library loads once
// per process): "" when that fails.
std::string detected_core() {
  int fd[2];
  if (pipe(fd) != 0) return "";
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return "";
  }
  if (pid == 0) {
    close(fd[0]);
    std::string err;
    void* h = load_openblas("", err);
    const std::string name = h ? corename(h) : "";
    if (write(fd[1], name.data(), name.size()) < 0) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  std::string out;
  char buf[128];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

Blas make_blas() {
  Blas b;
  std::string core;
  if (const char* forced = std::getenv("TRNSIM_BENCH_OPENBLAS_CORETYPE"); forced && *forced) {
    core = forced;
    b.choice = std::string("forced by TRNSIM_BENCH_OPENBLAS_CORETYPE=") + forced;
  } else {
    // TRNSIM_BENCH_OPENBLAS_DETECTED stands in for the probe (tests of the choice on a
    // CPU that OpenBLAS knows).
    const char* pretend = std::getenv("TRNSIM_BENCH_OPENBLAS_DETECTED");
    const std::string detected = pretend && *pretend ? pretend : detected_core();
    const std::string best = best_openblas_core_for_cpu();
    const int dl = openblas_core_level(detected), bl = openblas_core_level(best);
    if (!detected.empty() && !best.empty() && dl >= 0 && dl < bl) {
      core = best;
      b.choice = "OpenBLAS detects " + detected + " on this CPU; " + best + " chosen from the CPU's features";
    } else {
      b.choice = detected.empty() ? "detected by OpenBLAS" : "detected by OpenBLAS (" + detected + ")";
    }
  }
  const char* env_core = std::getenv("OPENBLAS_CORETYPE");
  const char* env_l2 = std::getenv("OPENBLAS_L2_SIZE");
  if (env_core || env_l2)
    b.choice += std::string("; the environment's") + (env_core ? " OPENBLAS_CORETYPE=" + std::string(env_core) : "") +
                (env_l2 ? " OPENBLAS_L2_SIZE=" + std::string(env_l2) : "") + " not used for the baseline";
  void* h = load_openblas(core, b.error);
  if (!h) return b;
  b.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(h, "cblas_sgemm"));
  b.set_num_threads = reinterpret_cast<decltype(&openblas_set_num_threads)>(dlsym(h, "openblas_set_num_threads"));
  auto config = reinterpret_cast<decltype(&openblas_get_config)>(dlsym(h, "openblas_get_config"));
  if (!b.sgemm || !b.set_num_threads) {
    b.error = std::string(kLibrary) + " lacks cblas_sgemm or openblas_set_num_threads";
    return b;
  }
  b.core = corename(h);
  b.config = config ? config() : "";
  b.set_num_threads(1);
  b.loaded = true;
  return b;
}

}  // namespace

const Blas& blas() {
  static const Blas b = make_blas();
  return b;
}
#else
const Blas& blas() {
  static const Blas b = [] {
    Blas x;
    x.error = "built without OpenBLAS (pkg-config openblas not found)";
    return x;
  }();
  return b;
}
#endif

void add_machine_context() {
  namespace mx = trnsim::mx;
  const CpuInfo& c = cpu_info();
  benchmark::AddCustomContext("cpu", c.brand + " (family " + std::to_string(c.family) + " model " +
                                         std::to_string(c.model) + " stepping " + std::to_string(c.stepping) + ")");
  benchmark::AddCustomContext("cpu_features", c.features.empty() ? "(none detected)" : c.features);
  std::string paths;
  for (mx::Path p : mx::available_paths()) paths += std::string(paths.empty() ? "" : " ") + mx::path_name(p);
  benchmark::AddCustomContext("mx_paths", paths + " (automatic: " + mx::path_name(mx::best_path()) + ")");
  std::string kernels;
  for (auto [fa, fb] : {std::pair{mx::Format::e2m1, mx::Format::e2m1}, std::pair{mx::Format::e3m2, mx::Format::e3m2},
                        std::pair{mx::Format::e4m3, mx::Format::e4m3}})
    kernels += std::string(kernels.empty() ? "" : "; ") + mx::format_name(fa) + " x " + mx::format_name(fb) + ": " +
               mx::gemm_kernel(fa, fb);
  benchmark::AddCustomContext("mx_gemm_kernels", kernels);
  const Blas& b = blas();
  benchmark::AddCustomContext("openblas", b.loaded ? b.core + " kernels: " + b.choice + " (" + b.config + ")"
                                                   : "not loaded: " + b.error);
}

}  // namespace trnsim::bench
