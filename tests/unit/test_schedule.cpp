// The schedule layer: the 1F1B timeline is the same schedule as the step time (its end is
// the step), the pipeline and bubble follow the 1F1B formulas under metamorphic changes,
// tasks respect their dependencies, and the inference timeline is the TTFT / decode cycle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "common/splitmix64.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "schedule/schedule.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_schedule {

using namespace trnsim;
using schedule::Lane;
using schedule::Span;

namespace {

plan::Placement placement(int pp) {
  plan::Placement p;
  p.pp = pp;
  p.tp = 4;
  return p;
}

schedule::TrainingStages random_stages(int pp, std::uint64_t seed) {
  SplitMix64 rng(seed);
  schedule::TrainingStages st;
  for (int s = 0; s < pp; ++s) {
    st.forward_s.push_back(1e-3 * (1 + rng.next() % 1000) / 100.0);
    st.backward_s.push_back(1e-3 * (1 + rng.next() % 2000) / 100.0);
  }
  st.activation_send_s = pp > 1 ? 1e-5 * (1 + rng.next() % 100) : 0;
  st.gradient_send_s = st.activation_send_s;
  return st;
}

const Span* find(const schedule::Timeline& tl, int stage, const std::string& name) {
  for (const auto& s : tl.spans)
    if (s.stage == stage && s.name == name) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("1F1B: the timeline ends exactly where the step time says", "[schedule]") {
  for (int pp : {1, 2, 3, 4, 8})
    for (int m : {1, 2, 5, 16})
      for (std::uint64_t seed : {1u, 2u, 3u}) {
        INFO("pp " << pp << " m " << m << " seed " << seed);
        auto st = random_stages(pp, seed * 100 + pp * 10 + m);
        auto t = schedule::training_times(st, m, 0.02, 0.003, 0.8);
        auto tl = schedule::training_timeline(st, t, m, placement(pp));
        CHECK(tl.end_s == Approx(t.step_s).epsilon(1e-12));
        double last = 0;
        for (const auto& s : tl.spans) last = std::max(last, s.start_s + s.dur_s);
        CHECK(last == Approx(t.step_s).epsilon(1e-12));
      }
}

TEST_CASE("1F1B: pipeline, bubble and exposed exchange follow the formulas", "[schedule]") {
  auto st = random_stages(4, 7);
  const double f = *std::max_element(st.forward_s.begin(), st.forward_s.end()) + st.activation_send_s;
  const double b = *std::max_element(st.backward_s.begin(), st.backward_s.end()) + st.gradient_send_s;
  auto t8 = schedule::training_times(st, 8, 0, 0, 1.0);
  CHECK(t8.slot_s == Approx(f + b).epsilon(1e-14));
  CHECK(t8.pipeline_s == Approx((8 + 4 - 1) * (f + b)).epsilon(1e-14));
  CHECK(t8.bubble_fraction == Approx(3.0 / 11.0));
  // Metamorphic: double the micro-batches -> the pipeline grows by exactly 8 slots.
  auto t16 = schedule::training_times(st, 16, 0, 0, 1.0);
  CHECK(t16.pipeline_s - t8.pipeline_s == Approx(8 * t8.slot_s).epsilon(1e-12));
  // Add a stage (a copy of the slowest): one more slot, same slot.
  auto st5 = st;
  st5.forward_s.push_back(0);
  st5.backward_s.push_back(0);
  auto t5 = schedule::training_times(st5, 8, 0, 0, 1.0);
  CHECK(t5.pipeline_s == Approx(t8.pipeline_s + t8.slot_s).epsilon(1e-12));
  CHECK(t5.bubble_fraction == Approx(4.0 / 12.0));
  // The exchange is hidden by the overlap fraction, but never more than the backward work.
  auto half = schedule::training_times(st, 8, 1.0, 0, 0.5);
  CHECK(half.dp_exposed_s == Approx(std::max(0.5, 1.0 - 8 * half.slowest_backward_s)));
  auto none = schedule::training_times(st, 8, 1.0, 0, 0.0);
  CHECK(none.dp_exposed_s == Approx(1.0));
  CHECK(none.step_s - half.step_s == Approx(none.dp_exposed_s - half.dp_exposed_s));
}

TEST_CASE("1F1B: tasks wait for their inputs and never overlap on a stage", "[schedule]") {
  const int pp = 4, m = 6;
  auto st = random_stages(pp, 11);
  auto t = schedule::training_times(st, m, 0, 0, 1.0);
  auto tl = schedule::training_timeline(st, t, m, placement(pp));
  for (int s = 0; s < pp; ++s) {
    for (int i = 0; i < m; ++i) {
      const std::string mb = " mb " + std::to_string(i);
      const Span* f = find(tl, s, "forward" + mb);
      const Span* b = find(tl, s, "backward" + mb);
      REQUIRE(f);
      REQUIRE(b);
      CHECK(f->dur_s == st.forward_s[s]);
      CHECK(b->dur_s == st.backward_s[s]);
      CHECK(b->start_s >= f->start_s + f->dur_s);
      if (s > 0) CHECK(f->start_s >= find(tl, s - 1, "forward" + mb)->start_s + t.forward_slot_s - 1e-15);
      if (s < pp - 1) CHECK(b->start_s >= find(tl, s + 1, "backward" + mb)->start_s + t.backward_slot_s - 1e-15);
    }
    std::vector<std::pair<double, double>> busy;
    for (const auto& sp : tl.spans)
      if (sp.stage == s && sp.lane == Lane::compute) busy.push_back({sp.start_s, sp.start_s + sp.dur_s});
    std::sort(busy.begin(), busy.end());
    for (std::size_t k = 1; k < busy.size(); ++k) CHECK(busy[k].first >= busy[k - 1].second - 1e-15);
  }
}

TEST_CASE("the training example's timeline is its step time", "[schedule]") {
  Scenario s = parse_scenario(R"({"system": "trn3-gen2-ultracluster:2", "compare_system": "",
      "workload": {"kind": "training", "model": "Llama-3.1-8B", "parallelism": {"tp": 4, "pp": 4, "dp": 18},
                   "training": {"global_batch": 288, "sequence_length": 4096}}})",
                              "s.json");
  Report r = evaluate(s);
  const auto& R = *r.primary.result;
  CHECK(R.timeline().end_s == Approx(R.training().step_time_s).epsilon(1e-12));
  CHECK(R.timeline().stage_names.size() == 4);
}

TEST_CASE("the inference timeline is the prefill, then decode cycles", "[schedule]") {
  Scenario s = parse_scenario(R"({"compare_system": "", "workload": {"model": "Llama-3.1-8B",
      "parallelism": {"tp": 2, "pp": 2}, "inference": {"batch": 4, "input_tokens": 512, "output_tokens": 3}}})",
                              "s.json");
  Report r = evaluate(s);
  const auto& R = *r.primary.result;
  // pp = 2 with 4 streams: the decode cycle is max(one pass end to end, 2 x slowest stage);
  // the timeline replays single passes, so it ends at TTFT + 2 passes <= TTFT + 2 cycles.
  CHECK(R.timeline().end_s > R.inference().ttft_s);
  CHECK(R.timeline().end_s <= R.inference().ttft_s + 2 * R.inference().tpot_s * (1 + 1e-12));
  const auto tl = R.timeline();
  const Span* first = &tl.spans.front();
  CHECK(first->phase == "prefill");
  CHECK(first->start_s == 0);
  bool decode = false;
  for (const auto& sp : tl.spans) decode |= sp.phase.rfind("decode step 2", 0) == 0;
  CHECK(decode);
}

}  // namespace unit_schedule
