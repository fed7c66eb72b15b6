// Fuzz target: a scenario file, as `trnsim run FILE` reads and evaluates it (and the page
// evaluates a pasted scenario): parse_scenario, the canonical round trip the format
// promises (parse(write(s)) writes the same text), then evaluate and write every report form.
// fuzz-seeds: examples/*.json tests/cli/data/*.json tests/browser/data/*.json
#include "../fuzz.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace trnsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Scenario s;
  if (!fuzz::accepts("parse_scenario", [&] { s = parse_scenario(fuzz::text(data, size), "fuzz.json"); })) return 0;
  const std::string canonical = scenario_to_string(s);
  Scenario again;
  fuzz::check(fuzz::accepts("parse_scenario(canonical)", [&] { again = parse_scenario(canonical, "canonical"); }),
              "the canonical form of an accepted scenario is refused");
  fuzz::check(scenario_to_string(again) == canonical, "the canonical form does not read back to itself");
  fuzz::accepts("evaluate", [&] {
    Report r = evaluate(s);
    (void)report_to_json_string(r);
    (void)report_to_text(r);
    if (r.primary.result) (void)workload::chrome_trace(*r.primary.result).dump();
  });
  return 0;
}
