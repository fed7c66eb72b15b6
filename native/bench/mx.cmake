# MX benchmarks (bench_mx.cpp) compare against "dequantize to FP32, then OpenBLAS sgemm"
# in the same run: link Debian's OpenBLAS (libopenblas-dev) when present. Without it the
# sgemm baselines are left out (TRNSIM_HAVE_OPENBLAS=0).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(TRNSIM_OPENBLAS QUIET IMPORTED_TARGET openblas)
endif()
if(TRNSIM_OPENBLAS_FOUND)
  target_link_libraries(trnsim-bench PRIVATE PkgConfig::TRNSIM_OPENBLAS)
  target_compile_definitions(trnsim-bench PRIVATE TRNSIM_HAVE_OPENBLAS=1)
else()
  message(STATUS "OpenBLAS not found (pkg-config openblas): MX sgemm baselines disabled")
  target_compile_definitions(trnsim-bench PRIVATE TRNSIM_HAVE_OPENBLAS=0)
endif()
