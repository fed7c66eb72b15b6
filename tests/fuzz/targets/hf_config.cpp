// Fuzz target: a Hugging Face config.json, as pasted into the playground or given inline as
// a scenario's workload.model: model::import_hf_config, the parameter and KV-cache counts,
// then the default scenario evaluated with it (what the page does after "Use this model").
// fuzz-seeds: examples/models/*.json
#include <cmath>

#include "../fuzz.h"
#include "model/llm.h"
#include "report/report.h"
#include "scenario/scenario.h"

using namespace trnsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  json config;
  if (!fuzz::accepts("parse_json_text", [&] { config = parse_json_text(fuzz::text(data, size), "config.json"); })) return 0;
  model::ModelConfig m;
  if (!fuzz::accepts("import_hf_config", [&] { m = model::import_hf_config(config, "config", "inline"); })) return 0;
  fuzz::check(static_cast<int>(m.layer_moe.size()) == m.layers && static_cast<int>(m.layer_sliding.size()) == m.layers,
              "per-layer tables do not match the layer count");
  model::ParamCounts c = model::count_parameters(m);
  fuzz::check(std::isfinite(c.total) && c.total >= 0 && c.active >= 0, "parameter counts are not finite non-negative numbers");
  (void)model::kv_bytes_per_sequence(m, 4096, 2.0);
  fuzz::accepts("evaluate", [&] {
    Scenario s = default_scenario();
    s.workload.model_name.clear();
    s.workload.model_config = config;
    Report r = evaluate(scenario_from_json(scenario_to_json(s)));
    (void)report_to_json_string(r);
    (void)report_to_text(r);
  });
  return 0;
}
