// The Capacity panel's data (capacity_view.h).
#include "ui/view/capacity_view.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/error.h"

namespace trnsim::ui {

namespace {

double capacity_wall_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool has_capacity_space(const Scenario& s) {
  for (const auto& f : scenario_fields())
    if (f.path.rfind("capacity.", 0) == 0 && !is_default(s, f.path)) return true;
  return false;
}

void CapacityProgress::start(const Scenario& planned) {
  Scenario scenario = planned;  // may be this one's own scenario_
  *this = CapacityProgress{};
  scenario_ = scenario;
  const double t0 = capacity_wall_ms();
  try {
    capacity::check_inputs(scenario.workload, scenario.serve);
    total_ = capacity::families(scenario.capacity, scenario.workload, scenario.serve).size();
    state_ = State::running;
  } catch (const InputError& e) {
    error_ = e.what();
    state_ = State::failed;
  }
  busy_ms_ = capacity_wall_ms() - t0;
}

bool CapacityProgress::advance(double budget_s) {
  if (state_ != State::running) return false;
  const double t0 = capacity_wall_ms();
  try {
    do {
      // One family of the core's range evaluation (the shard of one), as the CLI's --shard runs many.
      const std::size_t i = outcomes_.size();
      std::vector<capacity::Outcome> one =
          capacity::evaluate_range(scenario_.capacity, scenario_.workload, scenario_.serve, i, i + 1);
      if (one.size() != 1) throw InputError("capacity", "the search space changed while it was searched");
      outcomes_.push_back(std::move(one.front()));
    } while (outcomes_.size() < total_ && capacity_wall_ms() - t0 < budget_s * 1000);
    if (outcomes_.size() == total_) {
      result_ = capacity::plan_from(scenario_, outcomes_);
      state_ = State::done;
    }
  } catch (const InputError& e) {
    error_ = e.what();
    state_ = State::failed;
  }
  busy_ms_ += capacity_wall_ms() - t0;
  return true;
}

void CapacityProgress::cancel() {
  if (state_ == State::running) state_ = State::cancelled;
}

const char* capacity_state_name(CapacityProgress::State s) {
  switch (s) {
    case CapacityProgress::State::idle: return "idle";
    case CapacityProgress::State::running: return "running";
    case CapacityProgress::State::cancelled: return "cancelled";
    case CapacityProgress::State::done: return "done";
    case CapacityProgress::State::failed: return "failed";
  }
  return "idle";
}

json CapacityProgress::to_json() const {
  return {{"state", capacity_state_name(state_)},
          {"evaluated", evaluated()},
          {"total", total_},
          {"error", error_},
          {"plan", result_ ? capacity::result_to_json(*result_) : json(nullptr)}};
}

CapacityPlot capacity_plot(const capacity::Result& r) {
  CapacityPlot p;
  for (const auto& b : r.best) p.systems.push_back(b.system);
  bool any = false;
  double plo = 0, phi = 0, tlo = 0, thi = 0, olo = 0, ohi = 0;
  auto widen = [&](double v, double& lo, double& hi) {
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
  };
  for (std::size_t i = 0; i < r.outcomes.size(); ++i) {
    const capacity::Outcome& o = r.outcomes[i];
    if (!o.meets || !(o.price_per_hour_usd > 0 && o.ttft_s > 0 && o.tpot_s > 0)) continue;
    CapacityPoint pt;
    pt.price_per_hour_usd = o.price_per_hour_usd;
    pt.ttft_s = o.ttft_s;
    pt.tpot_s = o.tpot_s;
    pt.system = static_cast<std::size_t>(
        std::find(p.systems.begin(), p.systems.end(), o.family.system) - p.systems.begin());
    pt.front = std::find(r.front.begin(), r.front.end(), i) != r.front.end();
    pt.outcome = i;
    p.points.push_back(pt);
    widen(o.price_per_hour_usd, plo, phi);
    widen(o.ttft_s, tlo, thi);
    widen(o.tpot_s, olo, ohi);
    any = true;
  }
  if (!any) return p;
  const double pad = std::pow(10.0, 0.1);
  p.price_lo = plo / pad, p.price_hi = phi * pad;
  p.ttft_lo = tlo / pad, p.ttft_hi = thi * pad;
  p.tpot_lo = olo / pad, p.tpot_hi = ohi * pad;
  return p;
}

}  // namespace trnsim::ui
