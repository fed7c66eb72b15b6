# The UI's model-facing library (ui/view/) is tested with the core: tests/unit/test_ui_*.cpp.
target_link_libraries(trnsim_tests PRIVATE trnsim_ui_view)
