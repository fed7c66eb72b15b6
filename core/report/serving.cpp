// `trnsim serve` of a Scenario (serving.h).
#include "report/serving.h"

#include "hw/system.h"

namespace trnsim::serve {

Result run(const Scenario& s, const Options& o) {
  Result r = run(hw::load_system(s.system), s.workload, s.serve, o);
  r.scenario = scenario_to_json(s);
  r.name = s.name;
  return r;
}

std::string server_key(const Scenario& s) {
  json j = scenario_to_json(s);
  j.erase("name");
  j.erase("compare_system");
  json& v = j["serve"];
  for (const char* traffic : {"arrivals", "rate", "burstiness", "concurrency", "max_concurrency", "duration", "requests",
                              "warmup_requests", "seed",
                              "input_tokens", "output_tokens", "shared_prefix_tokens", "router", "harness", "targets",
                              "find_rate", "trace", "sessions"})
    v.erase(traffic);
  // The mean lengths set the model's reference evaluation (stack/step_model.h).
  const auto [in, out] = reference_lengths(s.workload, s.serve);
  v["reference_lengths"] = {in, out};
  return j.dump();
}

}  // namespace trnsim::serve
