# Build-time script: fills OUT with a fuzz target's seeds. FILES is a '|'-separated list of
# files of the tree; each becomes one seed named after its path, either copied or, when
# SEED_COMMAND is set, replaced by the stdout of `TRNSIM SEED_COMMAND FILE` (e.g. "link|encode").
#   cmake -DOUT=dir -DFILES=a|b -DSOURCE_DIR=src [-DTRNSIM=exe -DSEED_COMMAND=a|b] -P seeds.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
string(REPLACE "|" ";" files "${FILES}")
string(REPLACE "|" ";" seed_command "${SEED_COMMAND}")
foreach(f IN LISTS files)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
  string(REGEX REPLACE "[/ ]" "_" seed "${rel}")
  if(NOT "${SEED_COMMAND}" STREQUAL "")
    execute_process(COMMAND "${TRNSIM}" ${seed_command} "${f}" OUTPUT_FILE "${OUT}/${seed}" RESULT_VARIABLE rc
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      # A file the command refuses (a deliberately bad test input) is no seed.
      file(REMOVE "${OUT}/${seed}")
    endif()
  else()
    file(COPY_FILE "${f}" "${OUT}/${seed}")
  endif()
endforeach()
