# trnsim-bench for WebAssembly: the same benchmark sources (native/bench/*.cpp) built against
# the portable stand-in for Google Benchmark (native/bench/portable/), run under node by
# scripts/bench.sh. No OpenBLAS there: the MX sgemm baselines are native-only.
file(GLOB TRNSIM_WASM_BENCH_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/../*.cpp")
add_executable(trnsim-bench ${TRNSIM_WASM_BENCH_SOURCES} "${CMAKE_CURRENT_LIST_DIR}/portable_benchmark.cpp")
target_link_libraries(trnsim-bench PRIVATE trnsim_core)
target_compile_definitions(trnsim-bench PRIVATE TRNSIM_HAVE_OPENBLAS=0)
target_link_options(trnsim-bench PRIVATE -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0
                    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sENVIRONMENT=node)
