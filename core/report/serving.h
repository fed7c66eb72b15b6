// `trnsim serve` of a whole Scenario: the thin entry the faces call (CLI, Python, page,
// validation), over serve::run(system, workload, serve) (core/serve/serve.h), which knows
// nothing of scenarios. It loads the scenario's system and keeps the scenario's name and
// canonical JSON in the result (the report prints them).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "serve/metrics.h"
#include "serve/serve.h"

namespace trnsim::serve {

// The scenario's serving run (InputError as serve::run).
Result run(const Scenario& scenario, const Options& options = {});

// What a scenario's step model depends on: the canonical scenario without the traffic
// fields (arrivals, rate, lengths, seed, targets, trace, sessions, harness, router, ...),
// plus the mean request lengths (the model's zero-load reference). Stacks read only these
// (core/serve/stack/step_model.h): two scenarios of one key may share a step model (Options::model).
std::string server_key(const Scenario& scenario);

// ---- The serving report: its views and writers (core/report/serve_report.cpp), over the
// metric table (core/report/metrics.h) -- which is why they sit here and not in core/serve.

// The latency table every view of a serving report shows: TTFT, TPOT, ITL and end to end,
// each with its mean, p50, p90, p99 (formatted by the metric table) and max.
struct LatencyRow {
  std::string name;
  std::vector<std::string> cells;  // mean, p50, p90, p99, max
};
std::vector<LatencyRow> latency_rows(const Result& result);
// The KV tables every view of a serving report shows, as formatted cells, one row per entry:
// per KV precision (KV cache, bytes per token per chip, sequences that fit, batch, decode
// step, tokens/s per chip), per context (context, fit, batch, step, tokens/s per chip) and
// per agentic turn (turn, calls, TTFT p50, without reuse, prompt cached).
using TableRows = std::vector<std::vector<std::string>>;
TableRows kv_precision_rows(const Result& result);
TableRows context_rows(const Result& result);
TableRows turn_rows(const Result& result);
// The other serving metrics that have a value for this run: (label, formatted value).
std::vector<std::pair<std::string, std::string>> headline_figures(const Result& result);

// The serving report's two writers.
json result_to_json(const Result& result);       // deterministic; what `trnsim serve --json` prints
std::string result_to_text(const Result& result);

}  // namespace trnsim::serve
