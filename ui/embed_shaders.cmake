# Script mode (cmake -DSHADER_DIR=<dir> -DOUT=<header> -P embed_shaders.cmake): writes
# every shaders/*.glsl into one C++ header as raw string literals, so the page and the
# desktop GUI carry their shaders without a file system:
#   namespace trnsim::ui::shaders { struct Source { name, text }; kSources[] }
# The header is rewritten only when its contents change.
file(GLOB files "${SHADER_DIR}/*.glsl")
list(SORT files)
set(body "// Generated from shaders/*.glsl by ui/embed_shaders.cmake; do not edit.\n#pragma once\n")
string(APPEND body "namespace trnsim::ui::shaders {\nstruct Source {\n  const char* name;\n  const char* text;\n};\n")
string(APPEND body "inline constexpr Source kSources[] = {\n")
foreach(f IN LISTS files)
  get_filename_component(n "${f}" NAME)
  file(READ "${f}" text)
  string(APPEND body "    {\"${n}\", R\"trnsim_glsl(${text})trnsim_glsl\"},\n")
endforeach()
string(APPEND body "};\n}  // namespace trnsim::ui::shaders\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
