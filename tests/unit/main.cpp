// Catch2 (v2, Debian's single header) main for the unit tests. Every test case is
// tagged with [#<file stem>] automatically, which ctest uses to run one file at a time.
#define CATCH_CONFIG_MAIN
// Lines of 300 columns, so that the console reporter does not wrap a test's name: Catch2
// 2.13.10's line wrapper loops forever, printing a "-" a line, when a wrap falls after a ':' at
// the 80-column default (a failure in the test case "attention data parallelism with gathered
// experts (DEP) and weight-only MXFP4: derived" wrote 72 GB before it was killed).
#define CATCH_CONFIG_CONSOLE_WIDTH 300
#include <catch2/catch.hpp>
