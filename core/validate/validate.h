// Validation: every published figure the model is checked against, as data. The rows live
// in core/data/validation/*.json (files read in name order), each with the published value
// and unit, its source (a key of core/data/sources.json, or a claim), whether the row
// calibrated a default (then the field table names it too), a note, and the computation
// that reproduces it through the same pipeline every user runs:
//   {"scenario": S, "metric": KEY}                   a metric (core/report/metrics.h) of S's primary system
//   {"scenario": S, "phase": NAME, "part": P}        a phase's time, compute+overhead, hbm or fabric
//   {"serve": S, "metric": KEY}                      a serving metric (serve_..., core/report/metrics.h) of S
//                                                    run through the serving simulator (`trnsim serve`): S's
//                                                    "serve" object names the harness's arrivals and definitions
//   {"serve": S, "mlperf": FIGURE, "set"?: {PATH: E}} a figure of S's MLPerf summary (serve.harness mlperf:
//                                                    tokens_per_s, samples_per_s, ttft_/tpot_ mean_s/p99_s, valid);
//                                                    "set" gives S's fields computed values first
//   {"figure": X}                                    a published figure, as an operand of a derivation
//   {"collective": {system, op, bytes, ranks, ranks_per_chip?}, "metric": "time_s" | "busbw_bytes_per_s"}
//   {"system": NAME, "quantity": PATH}               a value of `trnsim describe NAME --json`
//   {"best": {scenario, vary, fixed, maximize, subject_to}, "metric": KEY}
//                                                    the best point of a small grid (its placement goes in the note as {a}/{b})
//   {"ratio": [E, E]}, {"divide": [E, E]}, {"sum": [E...]}, {"max": [E...]}
//   {"repeat": {"count": N, "of": E}}                N x E: the same pass N times one after another
//   {"given": {"value": V, "what": "..."}}          a count the source publishes beside the figure, as an
//                                                    operand (LLMPerf's own count of the tokens it received);
//                                                    never the figure itself
//   {"not_modeled": "why"}
// S is a scenario object or the path of a bundled example ("examples/x.json"). `trnsim
// validate`, the playground's Validation panel and the README's table show the same rows.
#pragma once
#include <functional>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "common/fields.h"

namespace trnsim::validate {

struct Row {
  std::string id;      // PERF.md row number or claim id ("7", "C3b")
  std::string file;    // core/data/validation/<file>.json
  std::string source;
  std::string figure;
  std::string unit;    // "ms", "us", "tok/s", "x"
  double published = 0;
  bool modeled = true;
  double model = 0;    // in `unit`
  bool calibration = false;
  std::string note;
  double error() const { return (model - published) / published; }  // modeled rows only
};

struct Summary {
  int modeled = 0, within_25_percent = 0, off_by_more_than_50_percent = 0;
  int uncalibrated_measurements = 0, uncalibrated_measurements_within_25_percent = 0;
  std::vector<std::string> far_rows;  // "id figure" of rows off by more than 50%
};

// What a validation run changes in every row's scenario. pricer: workload.pricer of each
// scenario and serving run ("" keeps the rows' own, the roofline by default).
struct Options {
  std::string pricer;
};

// Reads and evaluates every row (InputError naming file and row for a malformed one);
// `progress(done, total)` is called after each row when given.
std::vector<Row> rows(const std::function<void(std::size_t, std::size_t)>& progress = {}, const Options& options = {});

// The same evaluation a row at a time, for a caller that must stay responsive: the page's
// Validation panel evaluates rows between frames, so the engine pricer's run (seconds) never
// freezes the tab. rows() is a Run stepped to its end; the rows are the same.
class Run {
 public:
  explicit Run(const Options& options = {});  // reads every file (InputError as rows())
  ~Run();
  Run(Run&&) noexcept;
  Run& operator=(Run&&) noexcept;
  bool done() const { return rows_.size() == total_; }
  std::size_t evaluated() const { return rows_.size(); }
  std::size_t total() const { return total_; }
  void step();  // evaluates the next row (InputError naming file and row); nothing when done
  const std::vector<Row>& rows() const { return rows_; }
  const Options& options() const { return options_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  Options options_;
  std::vector<Row> rows_;
  std::size_t total_ = 0;
};
Summary summarize(const std::vector<Row>& rows);

// One computation of the row format above, in a figure's unit (s, ms, us, tok/s, x): what a
// validation row computes and what a recorded prediction (validate/predictions.h) computes
// again. Keeps the reports and serving runs it has made, so rows sharing a scenario share them.
class Computer {
 public:
  explicit Computer(const Options& options = {});
  ~Computer();
  // The value and, for best points, the placements chosen ("TP2 x 256", "a|b" for a ratio).
  std::pair<double, std::string> operator()(const json& compute, const std::string& unit, const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// `options`: the run's (its pricer is named at the top of both when set).
json to_json(const std::vector<Row>& rows, const Options& options = {});
std::string to_text(const std::vector<Row>& rows, const Options& options = {});  // what `trnsim validate` prints
// A row's published or modeled value in its unit ("19.60 ms", "1.63x") and its error
// ("+12%", "-" when not modeled): the texts `trnsim validate` and the Validation panel show.
std::string value_text(double value, const std::string& unit);
std::string error_text(const Row& row);

}  // namespace trnsim::validate
