// The serving report's views and its two writers, JSON and text (report/serving.h). The
// headline figures go through the metric table (core/report/metrics.h): its keys, labels and units.
#include <sstream>

#include "common/format.h"
#include "report/metrics.h"
#include "report/serving.h"

namespace trnsim::serve {

std::vector<LatencyRow> latency_rows(const Result& r) {
  std::vector<LatencyRow> rows;
  for (const auto& kind : latency_kinds()) {
    LatencyRow row;
    row.name = kind.label;
    for (const auto& st : latency_stats()) {
      const Metric& m = find_metric(std::string("serve_") + kind.key + "_" + st.name + "_s");
      auto v = m.of_serve(r);
      row.cells.push_back(v ? format_metric(m, *v) : "-");
    }
    const Summary& sum = r.*kind.summary;
    row.cells.push_back(sum.n ? fmt::time(sum.max) : "-");
    rows.push_back(row);
  }
  return rows;
}

TableRows kv_precision_rows(const Result& r) {
  TableRows rows;
  for (const auto& k : r.kv_precisions)
    rows.push_back({k.dtype, fmt::bytes(k.bytes_per_token), fmt::fixed(k.fit_sequences, 1), std::to_string(k.batch),
                    k.batch ? fmt::time(k.step_s) : "-", k.batch ? fmt::number(k.tokens_per_s_per_chip) : "-"});
  return rows;
}

TableRows context_rows(const Result& r) {
  TableRows rows;
  for (const auto& c : r.contexts)
    rows.push_back({fmt::count(c.context), fmt::fixed(c.fit_sequences, 1), std::to_string(c.batch),
                    c.batch ? fmt::time(c.step_s) : "-", c.batch ? fmt::number(c.tokens_per_s_per_chip) : "-"});
  return rows;
}

TableRows turn_rows(const Result& r) {
  TableRows rows;
  for (const auto& t : r.turns)
    rows.push_back({std::to_string(t.turn), std::to_string(t.calls), fmt::time(t.ttft_p50_s),
                    r.has_no_reuse ? fmt::time(t.ttft_p50_no_reuse_s) : "-", fmt::percent(t.cached_fraction)});
  return rows;
}

std::vector<std::pair<std::string, std::string>> headline_figures(const Result& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Metric* m : serve_metrics()) {
    // The latency metrics are the latency table's; the queue's mean and zero load are not there.
    if (m->unit == "s" && m->key.find("zero_load") == std::string::npos && m->key != "serve_queue_mean_s") continue;
    if (auto v = m->of_serve(r)) out.push_back({m->label, format_metric(*m, *v)});
  }
  return out;
}

namespace {

std::string itl_definition(const std::string& harness) {
  if (harness == "guidellm") return "(last token - first token) / (output tokens - 1) per request (guidellm)";
  if (harness == "llmperf") return "end to end / output tokens per request, TTFT included (LLMPerf)";
  if (harness == "mlperf") return "(last token - first token) / (output tokens - 1) per sample (MLPerf loadgen's TPOT)";
  return "every gap between consecutive tokens of every request, pooled (vLLM bench)";
}

json definitions(const Result& r) {
  return {{"ttft", "arrival to the first output token: queueing, the per-request host cost and the prefill"},
          {"tpot", "(end to end - TTFT) / (output tokens - 1) per request; excludes the first token"},
          {"itl", itl_definition(r.harness)},
          {"e2e", "arrival to the last output token"},
          {"percentiles", "linear interpolation between order statistics (numpy's default)"},
          {"goodput", "requests meeting both the TTFT and the TPOT target per second (DistServe); the rate search "
                      "finds the highest arrival rate whose attainment meets the fraction"},
          {"throughput", "first arrival to last completion"}};
}

json summary_json(const Summary& s) {
  return {{"n", s.n}, {"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}, {"max", s.max}};
}

json histogram_json(const Histogram& h) { return {{"edges", h.edges}, {"counts", h.counts}}; }

json optional(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json series_json(const Result& r) {
  json t = json::array(), run = json::array(), wait = json::array(), kv = json::array(), cache = json::array(),
       tok = json::array();
  for (const auto& p : r.series) {
    t.push_back(p.t0_s);
    run.push_back(p.running);
    wait.push_back(p.waiting);
    kv.push_back(p.kv_fraction);
    cache.push_back(p.cache_fraction);
    tok.push_back(p.output_tokens_per_s);
  }
  return {{"bin_s", r.series.size() > 1 ? r.series[1].t0_s - r.series[0].t0_s : r.duration_s},
          {"t_s", t}, {"running", run}, {"waiting", wait}, {"kv_fraction", kv}, {"cache_fraction", cache},
          {"output_tokens_per_s", tok}};
}

json positions_json(const Result& r) {
  json from = json::array(), to = json::array(), tpt = json::array(), batch = json::array(), chip = json::array();
  for (const auto& p : r.positions) {
    from.push_back(p.from);
    to.push_back(p.to);
    tpt.push_back(p.time_per_token_s);
    batch.push_back(p.batch);
    chip.push_back(p.tokens_per_s_per_chip);
  }
  return {{"from", from}, {"to", to}, {"time_per_token_s", tpt}, {"batch", batch}, {"tokens_per_s_per_chip", chip}};
}

json metrics_json(const Result& r) {
  json m = json::object();
  for (const Metric* x : serve_metrics()) {
    auto v = x->of_serve(r);
    m[x->key] = v ? json(*v) : json(nullptr);
  }
  return m;
}

}  // namespace

json result_to_json(const Result& r) {
  json j;
  j["trnsim"] = TRNSIM_VERSION;
  j["scenario"] = r.scenario;
  json s;
  s["system"] = {{"name", r.system_name}, {"display_name", r.system_display_name}, {"chips", r.system_chips}};
  s["stack"] = r.stack;
  s["replicas"] = r.replicas;
  s["chips_per_replica"] = r.chips_per_replica;
  s["source"] = r.source;
  s["harness"] = r.harness;
  s["definitions"] = definitions(r);
  s["requests"] = {{"measured", r.requests}, {"rejected", r.rejected}, {"cut", r.cut}, {"rejected_reason", r.rejected_reason},
                   {"preemptions", r.preemptions}, {"steps", r.steps}, {"duration_s", r.duration_s}};
  s["latency"] = {{"ttft_s", summary_json(r.ttft)}, {"tpot_s", summary_json(r.tpot)}, {"itl_s", summary_json(r.itl)},
                  {"e2e_s", summary_json(r.e2e)}, {"queue_s", summary_json(r.queue)}};
  s["distributions"] = {{"ttft_s", histogram_json(r.ttft_histogram)},
                        {"tpot_s", histogram_json(r.tpot_histogram)},
                        {"e2e_s", histogram_json(r.e2e_histogram)}};
  s["throughput"] = {{"requests_per_s", r.request_rate},
                     {"output_tokens_per_s", r.output_tokens_per_s},
                     {"output_tokens_per_s_per_chip", r.output_tokens_per_s_per_chip},
                     {"prompt_tokens_per_s", r.prompt_tokens_per_s}};
  s["economics"] = {{"chips_per_domain", r.chips_per_domain},
                    {"output_tokens_per_s_per_domain", r.output_tokens_per_s_per_domain},
                    {"power_per_chip_all_in_watts", r.power_per_chip_all_in_watts},
                    {"tokens_per_s_per_megawatt", r.tokens_per_s_per_megawatt},
                    {"price_per_chip_hour_usd", r.price_per_chip_hour_usd},
                    {"usd_per_million_tokens", r.usd_per_million_tokens}};
  s["goodput"] = {{"targets", {{"ttft_s", optional(r.target_ttft_s)}, {"tpot_s", optional(r.target_tpot_s)},
                               {"fraction", r.target_fraction}}},
                  {"attainment", r.attainment},
                  {"requests_per_s", r.goodput_rps}};
  s["occupancy"] = {{"batch_slots", r.batch_slots},
                    {"mean_batch", r.mean_batch},
                    {"max_batch", r.max_batch},
                    {"mean_kv_fraction", r.mean_kv_fraction},
                    {"mean_cache_fraction", r.mean_cache_fraction},
                    {"peak_kv_fraction", r.peak_kv_fraction},
                    {"kv_budget_bytes_per_chip", r.kv_budget_bytes},
                    {"weights_bytes_per_chip", r.weights_bytes},
                    {"hbm_capacity_bytes_per_chip", r.hbm_capacity_bytes},
                    {"step_time_shares", workload::shares_json(r.step_time_shares)}};
  s["prefix_cache"] = {{"enabled", r.prefix_cache},
                       {"prompt_tokens", r.prompt_tokens},
                       {"cached_tokens", r.cached_prompt_tokens},
                       {"hit_fraction", r.prompt_tokens > 0 ? r.cached_prompt_tokens / r.prompt_tokens : 0.0},
                       {"computed_prefill_tokens", r.computed_prefill_tokens},
                       {"evictions", r.cache_evictions}};
  s["zero_load"] = {{"input_tokens", r.reference_input_tokens}, {"output_tokens", r.reference_output_tokens},
                    {"ttft_s", r.zero_load_ttft_s},           {"tpot_s", r.zero_load_tpot_s},
                    {"run_ttft_s", r.run_ttft_s},             {"run_tpot_s", r.run_tpot_s}};
  s["little"] = {{"requests_in_system", r.little_l}, {"arrival_rate_x_time_in_system", r.little_lambda_w},
                 {"requests_waiting", r.little_lq}, {"arrival_rate_x_wait", r.little_lambda_wq}};
  json kv = json::array();
  for (const auto& k : r.kv_precisions)
    kv.push_back({{"kv_cache", k.dtype}, {"bytes_per_token_per_chip", k.bytes_per_token},
                  {"fit_sequences", k.fit_sequences}, {"batch", k.batch}, {"decode_step_s", k.step_s},
                  {"tokens_per_s_per_chip", k.tokens_per_s_per_chip}});
  s["kv"] = {{"fit_sequences", r.kv_fit_sequences}, {"context_tokens", r.reference_input_tokens + r.reference_output_tokens},
             {"precisions", kv}};
  json ctx = json::array();
  for (const auto& c : r.contexts)
    ctx.push_back({{"context_tokens", c.context}, {"fit_sequences", c.fit_sequences}, {"batch", c.batch},
                   {"decode_step_s", c.step_s}, {"tokens_per_s_per_chip", c.tokens_per_s_per_chip}});
  s["kv"]["by_context"] = ctx;
  s["series"] = series_json(r);
  s["positions"] = positions_json(r);
  if (r.sessions > 0) {
    json turns = json::array();
    for (const auto& t : r.turns)
      turns.push_back({{"turn", t.turn}, {"calls", t.calls}, {"ttft_p50_s", t.ttft_p50_s},
                       {"ttft_p50_no_reuse_s", r.has_no_reuse ? json(t.ttft_p50_no_reuse_s) : json(nullptr)},
                       {"cached_fraction", t.cached_fraction}});
    s["sessions"] = {{"count", r.sessions}, {"kv_bytes_per_chip_mean", r.session_kv_bytes_mean},
                     {"kv_bytes_per_chip_p90", r.session_kv_bytes_p90}, {"turns", turns}};
  }
  if (r.has_no_reuse) s["ttft_p50_no_reuse_s"] = r.ttft_p50_no_reuse_s;
  if (r.searched) {
    json probes = json::array();
    for (const auto& p : r.probes)
      probes.push_back({{"rate", p.rate}, {"attainment", p.attainment}, {"goodput", p.goodput_rps}});
    s["rate_search"] = {{"max_rate", r.max_rate},
                        {"output_tokens_per_s_per_chip", r.max_rate_tokens_per_s_per_chip},
                        {"output_tokens_per_s_per_domain", r.max_rate_tokens_per_s_per_domain},
                        {"tokens_per_s_per_megawatt", r.max_rate_tokens_per_s_per_megawatt},
                        {"usd_per_million_tokens", r.max_rate_usd_per_million_tokens},
                        {"probes", probes}};
  }
  if (r.mlperf) {
    const Mlperf& m = *r.mlperf;
    s["mlperf"] = {{"scenario", m.scenario},
                   {"result", m.valid ? "VALID" : "INVALID"},
                   {"samples", m.samples},
                   {"tokens_per_s", m.tokens_per_s},
                   {"samples_per_s", m.samples_per_s},
                   {"duration_s", m.duration_s},
                   {"ttft_s", {{"mean", m.ttft_mean_s}, {"p99", m.ttft_p99_s}, {"constraint", optional(m.ttft_limit_s)}}},
                   {"tpot_s", {{"mean", m.tpot_mean_s}, {"p99", m.tpot_p99_s}, {"constraint", optional(m.tpot_limit_s)}}},
                   {"min_duration_met", m.min_duration_met},
                   {"definitions", "loadgen (results.cc): TPOT per sample (latency - TTFT) / (tokens - 1); p99 = "
                                   "sorted[floor(0.99 n)]; Server: tokens / the last-issued sample's completion, "
                                   "samples (n - 1) / that time, VALID when both p99s meet their constraints; "
                                   "Offline: over the last completion. loadgen's 600 s minimum duration is reported, "
                                   "not part of the result"}};
  }
  s["metrics"] = metrics_json(r);
  s["notes"] = r.notes;
  j["serve"] = s;
  return j;
}

namespace {

using fmt::lpad;
using fmt::pad;

void latency_table(std::ostringstream& o, const Result& r) {
  o << "\nLatency (" << r.requests << " requests; definitions: `trnsim serve --json` .serve.definitions)\n";
  o << "  " << pad("", 12);
  for (const auto& st : latency_stats()) o << lpad(st.name, 12);
  o << lpad("max", 12) << "\n";
  for (const auto& row : latency_rows(r)) {
    o << "  " << pad(row.name, 12);
    for (const auto& c : row.cells) o << lpad(c, 12);
    o << "\n";
  }
  o << "  " << pad("queue wait", 12) << lpad(fmt::time(r.queue.mean), 12) << lpad(fmt::time(r.queue.p50), 12)
    << lpad(fmt::time(r.queue.p90), 12) << lpad(fmt::time(r.queue.p99), 12) << lpad(fmt::time(r.queue.max), 12)
    << "\n";
  o << "  TPOT excludes the first token; ITL: " << itl_definition(r.harness) << ".\n";
}

void figures(std::ostringstream& o, const Result& r) {
  o << "\nFigures\n";
  for (const auto& [label, text] : headline_figures(r)) o << "  " << pad(label, 34) << text << "\n";
}

void mlperf_text(std::ostringstream& o, const Result& r) {
  if (!r.mlperf) return;
  const Mlperf& m = *r.mlperf;
  o << "\nMLPerf Inference (loadgen's definitions), scenario " << m.scenario << ": " << (m.valid ? "VALID" : "INVALID")
    << "\n";
  o << "  " << pad(m.scenario == "Server" ? "completed tokens/s" : "tokens/s", 34) << fmt::significant(m.tokens_per_s, 6)
    << "\n";
  o << "  " << pad(m.scenario == "Server" ? "completed samples/s" : "samples/s", 34)
    << fmt::significant(m.samples_per_s, 6) << "\n";
  auto line = [&](const char* name, double mean, double p99, const std::optional<double>& limit) {
    o << "  " << pad(name, 34) << "mean " << fmt::time(mean) << ", p99 " << fmt::time(p99);
    if (limit) o << " (constraint " << fmt::time(*limit) << ": " << (p99 <= *limit ? "met" : "NOT met") << ")";
    o << "\n";
  };
  line("TTFT", m.ttft_mean_s, m.ttft_p99_s, m.ttft_limit_s);
  line("TPOT", m.tpot_mean_s, m.tpot_p99_s, m.tpot_limit_s);
  o << "  " << pad("min duration (600 s)", 34) << (m.min_duration_met ? "met" : "not met")
    << " (reported only: a simulated run is shorter than loadgen's minimum)\n";
}

void occupancy_text(std::ostringstream& o, const Result& r) {
  o << "\nOccupancy\n";
  o << "  batch slots   " << r.batch_slots << " per replica; running mean " << fmt::fixed(r.mean_batch, 1) << ", max "
    << fmt::fixed(r.max_batch, 0) << "\n";
  o << "  KV budget     " << fmt::bytes(r.kv_budget_bytes) << " per chip (HBM " << fmt::bytes(r.hbm_capacity_bytes)
    << ", weights " << fmt::bytes(r.weights_bytes) << "); held by sequences mean " << fmt::percent(r.mean_kv_fraction)
    << ", peak " << fmt::percent(r.peak_kv_fraction) << "; evictable cached blocks mean "
    << fmt::percent(r.mean_cache_fraction) << "\n";
  const price::TimeSplit::Shares& sh = r.step_time_shares;
  o << "  step time     compute " << fmt::percent(sh.compute) << ", HBM " << fmt::percent(sh.hbm) << ", fabric "
    << fmt::percent(sh.fabric) << ", kernel overhead " << fmt::percent(sh.overhead)
    << "\n";
  o << "  prefix cache  " << (r.prefix_cache ? "on" : "off") << ": "
    << fmt::percent(r.prompt_tokens > 0 ? r.cached_prompt_tokens / r.prompt_tokens : 0) << " of "
    << fmt::count(r.prompt_tokens) << " prompt tokens reused, " << r.cache_evictions << " blocks evicted\n";
  o << "  Little's law  " << fmt::fixed(r.little_l, 3) << " requests in the system = arrival rate x time in system "
    << fmt::fixed(r.little_lambda_w, 3) << "; waiting " << fmt::fixed(r.little_lq, 3) << " = "
    << fmt::fixed(r.little_lambda_wq, 3) << "\n";
  o << "  zero load     one request of " << r.reference_input_tokens << " in / " << r.reference_output_tokens
    << " out alone: TTFT " << fmt::time(r.zero_load_ttft_s) << ", TPOT " << fmt::time(r.zero_load_tpot_s)
    << " (`trnsim run` at batch 1: " << fmt::time(r.run_ttft_s) << ", " << fmt::time(r.run_tpot_s) << ")\n";
}

// At most `rows` lines of a series, merging neighbouring bins.
void series_text(std::ostringstream& o, const Result& r, std::size_t rows) {
  if (r.series.empty()) return;
  o << "\nOver time (every replica)\n  " << pad("from", 12) << lpad("running", 10) << lpad("waiting", 10)
    << lpad("KV held", 10) << lpad("cached", 9) << lpad("tokens/s", 12) << "\n";
  const std::size_t step = (r.series.size() + rows - 1) / rows;
  for (std::size_t i = 0; i < r.series.size(); i += step) {
    double run = 0, wait = 0, kv = 0, cache = 0, tok = 0, w = 0;
    for (std::size_t k = i; k < std::min(r.series.size(), i + step); ++k) {
      const auto& p = r.series[k];
      const double dt = p.t1_s - p.t0_s;
      run += p.running * dt, wait += p.waiting * dt, kv += p.kv_fraction * dt, cache += p.cache_fraction * dt;
      tok += p.output_tokens_per_s * dt;
      w += dt;
    }
    if (w <= 0) continue;
    o << "  " << pad(fmt::time(r.series[i].t0_s), 12) << lpad(fmt::fixed(run / w, 1), 10)
      << lpad(fmt::fixed(wait / w, 1), 10) << lpad(fmt::percent(kv / w), 10) << lpad(fmt::percent(cache / w), 9)
      << lpad(fmt::number(tok / w), 12) << "\n";
  }
}

void positions_text(std::ostringstream& o, const Result& r) {
  if (r.positions.size() < 2) return;
  o << "\nOver the response (time per token and tokens per chip as the KV cache grows)\n  " << pad("tokens", 18)
    << lpad("per token", 12) << lpad("batch", 8) << lpad("tok/s/chip", 12) << "\n";
  const std::size_t step = (r.positions.size() + 15) / 16;
  for (std::size_t i = 0; i < r.positions.size(); i += step) {
    const auto& p = r.positions[i];
    o << "  " << pad(fmt::count(p.from) + "-" + fmt::count(p.to), 18) << lpad(fmt::time(p.time_per_token_s), 12)
      << lpad(fmt::fixed(p.batch, 1), 8) << lpad(fmt::number(p.tokens_per_s_per_chip), 12) << "\n";
  }
}

// Rows of cells: the first padded to its width, the others right-aligned to theirs.
void rows_text(std::ostringstream& o, const TableRows& rows, const std::vector<std::size_t>& widths) {
  for (const auto& row : rows) {
    o << "  ";
    for (std::size_t i = 0; i < row.size(); ++i) o << (i == 0 ? pad(row[i], widths[i]) : lpad(row[i], widths[i]));
    o << "\n";
  }
}

void kv_text(std::ostringstream& o, const Result& r) {
  o << "\nKV precision (sequences of " << r.reference_input_tokens + r.reference_output_tokens
    << " tokens at the end of their response)\n  " << pad("KV cache", 10) << lpad("bytes/token", 13)
    << lpad("fit", 10) << lpad("batch", 8) << lpad("step", 12) << lpad("tok/s/chip", 12) << "\n";
  rows_text(o, kv_precision_rows(r), {10, 13, 10, 8, 12, 12});
}

void contexts_text(std::ostringstream& o, const Result& r) {
  o << "\nAs the context grows (every sequence of a full batch at that context)\n  " << pad("context", 10)
    << lpad("fit", 10) << lpad("batch", 8) << lpad("step", 12) << lpad("tok/s/chip", 12) << "\n";
  rows_text(o, context_rows(r), {10, 10, 8, 12, 12});
}

void sessions_text(std::ostringstream& o, const Result& r) {
  if (r.sessions == 0) return;
  o << "\nAgentic sessions: " << r.sessions << " finished; KV held at a session's last call "
    << fmt::bytes(r.session_kv_bytes_mean) << " per chip (p90 " << fmt::bytes(r.session_kv_bytes_p90) << ")\n  "
    << pad("turn", 6) << lpad("calls", 8) << lpad("TTFT p50", 12) << lpad("no reuse", 12) << lpad("cached", 9) << "\n";
  TableRows turns = turn_rows(r);
  const std::size_t shown = std::min<std::size_t>(turns.size(), 12);
  turns.resize(shown);
  rows_text(o, turns, {6, 8, 12, 12, 9});
  if (r.turns.size() > shown) o << "  (" << r.turns.size() - shown << " more turns in --json)\n";
}

void search_text(std::ostringstream& o, const Result& r) {
  if (!r.searched) return;
  o << "\nRate search: highest rate with " << fmt::percent(r.target_fraction, 0) << " meeting the targets: "
    << fmt::significant(r.max_rate, 4) << " requests/s (" << r.probes.size() << " runs)\n";
  o << "  there, in steady state: " << fmt::number(r.max_rate_tokens_per_s_per_chip) << " output tokens/s per chip, "
    << fmt::number(r.max_rate_tokens_per_s_per_domain) << " per rack (" << r.chips_per_domain << " chips), "
    << fmt::number(r.max_rate_tokens_per_s_per_megawatt) << " per MW, $"
    << fmt::fixed(r.max_rate_usd_per_million_tokens, 3) << " per million\n  " << pad("rate", 12)
    << lpad("attainment", 12) << lpad("goodput", 12) << "\n";
  for (const auto& p : r.probes)
    o << "  " << pad(fmt::significant(p.rate, 4), 12) << lpad(fmt::percent(p.attainment), 12)
      << lpad(fmt::significant(p.goodput_rps, 4), 12) << "\n";
}

}  // namespace

std::string result_to_text(const Result& r) {
  std::ostringstream o;
  o << "trnsim " << TRNSIM_VERSION << " serve";
  if (!r.name.empty()) o << ": " << r.name;
  o << "\n\n  system        " << r.system_display_name << ": " << r.replicas << " replica" << (r.replicas > 1 ? "s" : "")
    << " x " << r.chips_per_replica << " chip" << (r.chips_per_replica > 1 ? "s" : "") << " (of " << r.system_chips
    << "), stack " << r.stack << "\n";
  const workload::Spec& w = r.workload;
  // A config given inline is named by its _name_or_path (a config file's path) or called inline,
  // with its model_type where it declares one.
  std::string model = w.model_name;
  if (model.empty()) {
    const bool typed = w.model_config.is_object() && w.model_config.contains("model_type") &&
                       w.model_config.at("model_type").is_string();
    const std::string type = typed ? w.model_config.at("model_type").get<std::string>() + " " : std::string();
    const std::string named = workload::inline_model_name(w.model_config);
    model = named == "inline" ? "inline " + type + "config" : named + " (" + type + "config)";
  }
  o << "  model         " << model << " (" << w.precision.weights << " weights, " << w.precision.kv_cache
    << " KV), tp " << w.parallelism.tp << " pp " << w.parallelism.pp << " ep " << w.parallelism.ep << "\n";
  o << "  requests      " << r.source << "\n";
  o << "  ran           " << r.requests << " measured, " << r.rejected << " rejected, ";
  if (r.cut > 0) o << r.cut << " cut by the run's end (serve.duration), ";
  o << r.preemptions << " preemptions, " << fmt::count(double(r.steps)) << " steps, " << fmt::time(r.duration_s) << " simulated\n";
  latency_table(o, r);
  figures(o, r);
  if (r.target_ttft_s || r.target_tpot_s)
    o << "  (targets: TTFT " << (r.target_ttft_s ? "<= " + fmt::time(*r.target_ttft_s) : std::string("none"))
      << ", TPOT " << (r.target_tpot_s ? "<= " + fmt::time(*r.target_tpot_s) : std::string("none")) << ", for "
      << fmt::percent(r.target_fraction, 0) << " of requests)\n";
  mlperf_text(o, r);
  occupancy_text(o, r);
  series_text(o, r, 16);
  positions_text(o, r);
  kv_text(o, r);
  contexts_text(o, r);
  sessions_text(o, r);
  search_text(o, r);
  for (const auto& n : r.notes) o << "\nnote: " << n << "\n";
  return o.str();
}

}  // namespace trnsim::serve
