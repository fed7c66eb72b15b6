// placeholder
#include "mx/mx_internal.h"
namespace trnsim::mx::detail {
const Kernels* avx2_kernels() { return nullptr; }

}
