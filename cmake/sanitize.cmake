# TRNSIM_SANITIZE=ON (the `asan` preset, build/asan): everything native is compiled with
# AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included), and any report
# aborts the program (-fno-sanitize-recover), so a test that triggers one fails. With clang
# (Debian's clang-14 + libclang-rt-14-dev) the same objects also carry libFuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link), so the fuzz targets of tests/fuzz/ link
# against this one build instead of a third one: the test command builds the core twice
# (native, asan), not three times.
option(TRNSIM_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer (and libFuzzer targets with clang)" OFF)
set(TRNSIM_FUZZ OFF)
if(TRNSIM_SANITIZE)
  if(EMSCRIPTEN)
    message(FATAL_ERROR "TRNSIM_SANITIZE is for native builds (the asan preset)")
  endif()
  set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all)
  # -O1 keeps stack traces exact and the instrumented suite quick enough; line tables only
  # (no full debug info) for symbolized reports at little compile cost. Assertions stay on.
  add_compile_options(${sanitizers} -O1 -gline-tables-only -fno-omit-frame-pointer)
  add_link_options(${sanitizers})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-fsanitize=fuzzer-no-link)
    set(TRNSIM_FUZZ ON)
  else()
    message(STATUS "TRNSIM_SANITIZE with ${CMAKE_CXX_COMPILER_ID}: no libFuzzer targets (they need clang)")
  endif()
endif()
