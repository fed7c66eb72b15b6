// The Serving panel's data (serving_view.h).
#include "ui/view/serving_view.h"

#include <chrono>

#include "hw/system.h"

namespace trnsim::ui {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr int kCurveRequests = 2000;

}  // namespace

ServingRun ServingRunner::execute(const Scenario& s, bool find_rate) {
  ServingRun out;
  const double start = now_ms();
  try {
    const std::string key = serve::server_key(s);
    if (key != model_key_ || !model_) {
      model_ = serve::make_step_model(hw::load_system(s.system), s.workload, s.serve);
      model_key_ = key;
    } else {
      out.reused_model = true;
    }
    serve::Options o;
    o.find_rate = find_rate;
    o.model = model_;
    out.result = serve::run(s, o);
  } catch (const InputError& e) {
    out.error = e.what();
  }
  out.ms = now_ms() - start;
  return out;
}

const ServingRun& ServingRunner::run(const Scenario& s) {
  const std::string key = scenario_to_string(s);
  if (key != run_key_) {
    run_ = execute(s, false);
    run_key_ = key;
  }
  return run_;
}

const ServingRun& ServingRunner::goodput_curve(const Scenario& s) {
  const std::string key = scenario_to_string(s);
  if (key != curve_key_) {
    Scenario probe = s;
    if (probe.serve.requests > kCurveRequests) probe.serve.requests = kCurveRequests;
    curve_ = execute(probe, true);
    curve_key_ = key;
  }
  return curve_;
}

std::pair<double, double> ServingRunner::time_requests(const Scenario& s, int requests) {
  Scenario t = s;
  t.serve.requests = requests;
  model_.reset();
  const double cold = execute(t, false).ms;
  const double warm = execute(t, false).ms;
  return {cold, warm};
}

}  // namespace trnsim::ui
