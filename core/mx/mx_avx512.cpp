// placeholder
#include "mx/mx_internal.h"
namespace trnsim::mx::detail {
const Kernels* avx512_kernels() { return nullptr; }
bool set_avx512_bf16_allowed(bool) { return false; }
bool avx512_bf16_in_use() { return false; }
}
