# core/mx: per-file ISA flags for the MX SIMD paths. One binary runs on any x86-64: the
# AVX2 and AVX-512 files are compiled for those ISAs and entered only after a run-time
# CPU check (core/mx/mx.cpp). WebAssembly builds pass -msimd128 globally (CMakeLists.txt).
if(NOT EMSCRIPTEN AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/mx_avx2.cpp" PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma")
  set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/mx_avx512.cpp" PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-mavx512f;-mavx512bw;-mavx512vl;-mavx512vnni")
endif()
