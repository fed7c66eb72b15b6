# MX benchmarks (bench_mx.cpp) compare against "dequantize to FP32, then OpenBLAS sgemm"
# in the same run. OpenBLAS (Debian's libopenblas-dev) is not linked: mx_machine.cpp loads
# it at run time with the best core type for the CPU (so the environment's
# OPENBLAS_CORETYPE cannot slow the baseline down); only its header is needed here.
# Without it the sgemm baselines are left out (TRNSIM_HAVE_OPENBLAS=0).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(TRNSIM_OPENBLAS QUIET openblas)
endif()
if(TRNSIM_OPENBLAS_FOUND)
  target_include_directories(trnsim-bench PRIVATE ${TRNSIM_OPENBLAS_INCLUDE_DIRS})
  target_link_libraries(trnsim-bench PRIVATE ${CMAKE_DL_LIBS})
  target_compile_definitions(trnsim-bench PRIVATE TRNSIM_HAVE_OPENBLAS=1)
else()
  message(STATUS "OpenBLAS not found (pkg-config openblas): MX sgemm baselines disabled")
  target_compile_definitions(trnsim-bench PRIVATE TRNSIM_HAVE_OPENBLAS=0)
endif()
