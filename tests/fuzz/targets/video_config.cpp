// Fuzz target: a diffusers video pipeline bundle (model_index, transformer, vae,
// text_encoder[_2]) given inline as a video scenario's workload.model: model::
// import_video_config, the parameter counts, then a small video scenario evaluated with it.
// fuzz-seeds: examples/models/video/*.json
#include <cmath>

#include "../fuzz.h"
#include "model/video.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace trnsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  json bundle;
  if (!fuzz::accepts("parse_json_text", [&] { bundle = parse_json_text(fuzz::text(data, size), "bundle.json"); })) return 0;
  model::VideoModelConfig m;
  if (!fuzz::accepts("import_video_config", [&] { m = model::import_video_config(bundle, "workload.model", "inline"); }))
    return 0;
  const model::VideoParamCounts c = model::count_video_parameters(m);
  fuzz::check(std::isfinite(c.total()) && c.transformer >= 0 && c.vae_decoder >= 0 && c.text_encoders >= 0,
              "parameter counts are not finite non-negative numbers");
  fuzz::accepts("evaluate", [&] {
    json s = {{"system", "trn3-gen2-ultraserver"},
              {"compare_system", ""},
              {"workload",
               {{"kind", "video"},
                {"model", bundle},
                {"video", {{"width", 256}, {"height", 256}, {"frames", 17}, {"steps", 2}}}}}};
    Report r = evaluate(scenario_from_json(s));
    (void)report_to_json_string(r);
    (void)report_to_text(r);
  });
  return 0;
}
