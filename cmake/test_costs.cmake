# Start order: ctest -j2 starts tests in descending COST. A clean clone has no timings of its
# own yet (ctest records them in Testing/Temporary/CTestCostData.txt after a run), so the
# longest tests -- seconds measured in a fresh clone's test command on the 2-core machine on
# 2026-12-05 -- are named here to start first rather than last, where one would run alone
# while the other core idles.
set(TRNSIM_TEST_COSTS
  wasm.parity.reports=157 wasm.browser.panels=126 wasm.browser.never_blank=95 wasm.browser.serving=53
  wasm.unit.test_ui_validation=39 wasm.browser.playground=27 wasm.browser.examples=25
  wasm.browser.capacity=21 wasm.unit.test_serve=19 wasm.unit.test_derived_fabric=14
  asan.cli.test_validate=66 asan.cli.test_snapshot_golden=55 asan.unit.test_serve=40
  asan.unit.test_serve_monotonic=31 asan.cli.test_models_run=31 asan.unit.test_serve_conservation=26
  asan.unit.test_ui_validation=20 asan.cli.test_slurm=21 asan.unit.test_ui_serving=18
  asan.unit.test_serve_order=15 asan.unit.test_mx_paths=15 asan.cli.test_workload=15 asan.cli.test_serve=15
  asan.cli.test_mx=15 native.python.test_run=33 native.cli.test_validate=33 native.cli.test_snapshot_golden=26
  native.python.test_calibrate=18 native.cli.test_slurm=18 native.python.test_capacity=17
  native.cli.test_serve=17 native.cli.test_models_run=15)
function(trnsim_test_cost name)
  foreach(entry IN LISTS TRNSIM_TEST_COSTS)
    if(entry MATCHES "^(.*)=([0-9]+)$" AND CMAKE_MATCH_1 STREQUAL name)
      set_tests_properties("${name}" PROPERTIES COST ${CMAKE_MATCH_2})
    endif()
  endforeach()
endfunction()
