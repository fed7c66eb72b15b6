// Fuzz target: a playground link (`trnsim link decode LINK`, the page's URL fragment):
// decode_fragment, then the decoded value read as a scenario and evaluated, as the page
// does (MessagePack reaches values JSON text cannot: NaN, infinities, any bytes in a
// string). Properties: what decodes re-encodes to a link that decodes to the same value,
// and an accepted scenario's canonical link decodes to the same scenario.
// fuzz-seeds: examples/*.json tests/browser/data/*.json
// fuzz-seed-command: link encode
#include "../fuzz.h"
#include "link/link.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace trnsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  json j;
  if (!fuzz::accepts("decode_fragment", [&] { j = decode_fragment(fuzz::text(data, size)); })) return 0;
  json back;
  fuzz::check(fuzz::accepts("decode_fragment(encode_fragment)", [&] { back = decode_fragment(encode_fragment(j)); }),
              "a decoded value does not survive re-encoding");
  fuzz::check(json::to_msgpack(back) == json::to_msgpack(j), "decode(encode(v)) differs from v");
  Scenario s;
  if (!fuzz::accepts("scenario_from_json", [&] { s = scenario_from_json(j); })) return 0;
  const std::string link = make_link(scenario_to_json(s));
  Scenario again;
  fuzz::check(fuzz::accepts("canonical link", [&] { again = scenario_from_json(decode_fragment(link)); }),
              "the canonical link of an accepted scenario is refused");
  fuzz::check(scenario_to_string(again) == scenario_to_string(s), "the canonical link does not restore the scenario");
  fuzz::accepts("evaluate", [&] {
    Report r = evaluate(s);
    (void)report_to_json_string(r);
    (void)report_to_text(r);
  });
  return 0;
}
