// The Serving panel's data (no ImGui; tests/unit/test_ui_serving.cpp): the scenario served
// by the core's simulator (core/serve/serve.h) -- the same report `trnsim serve --json`
// prints -- run again only when the scenario changes, with its step model (and the shapes
// that model priced) kept while only the traffic changes (rate, seed, targets: serve::server_key),
// as a user drags the request rate; and goodput versus request rate, on demand (the rate
// search's probes). The latency rows and figures are the core's (serve::latency_rows,
// serve::headline_figures: the metric table's labels and formats).
// The page has no file system: a scenario naming a trace file gets the core's error (put
// the trace in serve.trace.text instead).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "report/serving.h"
#include "scenario/scenario.h"

namespace trnsim::ui {

struct ServingRun {
  std::optional<serve::Result> result;
  std::string error;      // why it did not run (an InputError's text)
  double ms = 0;          // wall-clock time of serve::run
  bool reused_model = false;  // the step model (and its priced shapes) came from an earlier run
};

class ServingRunner {
 public:
  // The run of `scenario` (cached per scenario value).
  const ServingRun& run(const Scenario& scenario);
  // The rate search on the scenario (its targets; 2,000 requests per probe at most, so the
  // page stays responsive): probes sorted by rate. Cached per scenario value.
  const ServingRun& goodput_curve(const Scenario& scenario);
  // ms of run(scenario with serve.requests = n): the first run and a second one with the
  // model warm (what the page pays after an edit of the traffic).
  std::pair<double, double> time_requests(const Scenario& scenario, int requests);

 private:
  ServingRun execute(const Scenario& scenario, bool find_rate);
  std::string run_key_, curve_key_, model_key_;
  ServingRun run_, curve_;
  std::shared_ptr<const serve::StepModel> model_;
};

}  // namespace trnsim::ui
