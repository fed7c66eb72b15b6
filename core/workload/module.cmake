# The video kind's files (core/{model,plan,schedule,workload}/video*.cpp) are compiled for size
# in the WebAssembly build (-Oz: about 70 kB less module). It runs once per edit (milliseconds), while the page's module
# has a size budget (tests/browser/playground.test.mjs); IEEE semantics do not depend on the
# optimization level (-ffp-contract=off, no fast-math: CMakeLists.txt), so reports stay
# bit-identical to the native build's.
if(EMSCRIPTEN)
  foreach(f model/video.cpp plan/video.cpp schedule/video.cpp workload/video.cpp workload/video_result.cpp)
    set_source_files_properties("${CMAKE_CURRENT_LIST_DIR}/../${f}" PROPERTIES COMPILE_OPTIONS "-Oz")
  endforeach()
endif()
