// placeholder
#include "mx/mx_internal.h"
namespace trnsim::mx::detail {
const Kernels* wasm_kernels() { return nullptr; }

}
