# trnsim_embed_shaders(<target>): generates trnsim_shaders.h from shaders/*.glsl (see
# embed_shaders.cmake) for <target>, rebuilt whenever a shader changes. Used by the page
# (web/CMakeLists.txt) and the desktop GUI (native/gui/CMakeLists.txt).
set(TRNSIM_EMBED_SHADERS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_shaders.cmake")
function(trnsim_embed_shaders target)
  file(GLOB shader_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/shaders/*.glsl")
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/generated")
  file(MAKE_DIRECTORY "${out_dir}")
  add_custom_command(OUTPUT "${out_dir}/trnsim_shaders.h"
    COMMAND "${CMAKE_COMMAND}" -DSHADER_DIR=${PROJECT_SOURCE_DIR}/shaders -DOUT=${out_dir}/trnsim_shaders.h
            -P "${TRNSIM_EMBED_SHADERS_SCRIPT}"
    DEPENDS ${shader_files} "${TRNSIM_EMBED_SHADERS_SCRIPT}"
    COMMENT "Embedding shaders/*.glsl")
  target_sources(${target} PRIVATE "${out_dir}/trnsim_shaders.h")
  target_include_directories(${target} PRIVATE "${out_dir}")
endfunction()
