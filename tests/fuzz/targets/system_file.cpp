// Fuzz target: a user's system, chip or cluster file (`trnsim describe FILE`, a scenario's
// "system": "my_system.json"): hw::load_system of the file (references to built-in chips and
// systems resolve as usual), describe in both forms, then the default scenario on it.
// fuzz-seeds: core/data/chips/*.json core/data/systems/*.json core/data/clusters/*.json
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "../fuzz.h"
#include "hw/system.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace trnsim;

namespace {

// One private folder per process for the file under test, removed at exit.
const std::string& file_path() {
  static const std::string path = [] {
    char tmpl[] = "/tmp/trnsim-fuzz-system-XXXXXX";
    const char* dir = ::mkdtemp(tmpl);
    if (!dir) fuzz::fail("cannot create a temporary folder");
    static std::string folder = dir;
    std::atexit([] {
      std::remove((folder + "/system.json").c_str());
      ::rmdir(folder.c_str());
    });
    return folder + "/system.json";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream f(file_path(), std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  hw::System sys;
  if (!fuzz::accepts("load_system", [&] { sys = hw::load_system(file_path()); })) return 0;
  fuzz::check(sys.chips >= 1 && sys.chips == sys.domains * sys.chips_per_domain, "chip counts do not add up");
  (void)hw::describe_json(sys).dump();
  (void)hw::describe_text(sys);
  fuzz::accepts("evaluate", [&] {
    Scenario s = default_scenario();
    s.system = file_path();
    s.compare_system.clear();
    Report r = evaluate(s);
    (void)report_to_json_string(r);
    (void)report_to_text(r);
  });
  return 0;
}
