// Catch2 (v2, Debian's single header) main for the unit tests. Every test case is
// tagged with [#<file stem>] automatically, which ctest uses to run one file at a time.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
