// The analyses of `trnsim serve` (analyses.h): the main run's figures and the side experiments.
#include "serve/analyses.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/dtype.h"
#include "common/error.h"
#include "common/format.h"
#include "serve/requests.h"
#include "serve/sessions.h"
#include "serve/traces.h"

namespace trnsim::serve {

Runner::Runner(const hw::System& system, const workload::Spec& workload, const Spec& serve, const Options& o)
    : system_(system), workload_(workload), serve_(serve), options_(o),
      model_(o.model ? o.model : std::shared_ptr<const StepModel>(make_step_model(system, workload, serve))) {
  reference_ = model_->reference();
  if (!reference_) {  // a model without one (a test's): evaluated here
    const auto [in, out] = reference_lengths(workload, serve);
    own_reference_ = std::make_shared<const Reference>(evaluate_reference(workload, system, in, out));
    reference_ = own_reference_.get();
  }
  const Spec& v = serve;
  // A replica with micro-batches in flight serves them as lanes (stack/gpu.cpp).
  cfg_.replicas = workload.parallelism.dp * std::max(serve.micro_batches, 1);
  cfg_.router = v.router;
  cfg_.closed_loop = v.arrivals == "closed";
  cfg_.concurrency = v.concurrency;
  cfg_.kv_block_tokens = v.kv_block_tokens;
  cfg_.prefix_cache = v.prefix_cache.enabled && model_->limits().prefix_caching;
  cfg_.prefix_cache_max_tokens = v.prefix_cache.max_tokens ? *v.prefix_cache.max_tokens : 0;
  cfg_.warmup = v.arrivals == "trace" || v.arrivals == "sessions" ? 0 : v.warmup_requests;
  cfg_.duration_s = v.duration_s;
  cfg_.exact_steps = o.exact_steps;
  cfg_.max_in_flight = v.arrivals == "closed" ? 0 : v.max_concurrency;
}

std::unique_ptr<Source> Runner::source(const Spec& v) const {
  if (v.arrivals == "sessions") return session_source(v, v.rate);
  if (v.arrivals == "trace") {
    if (!v.trace.text.empty())
      return trace_source(std::make_unique<std::istringstream>(v.trace.text), v.trace, "serve.trace.text",
                          v.kv_block_tokens);
    if (!options_.open_file)
      throw InputError("serve.trace.file", "trace files are read by the command line (`trnsim serve`); here, put the "
                                           "trace's text in serve.trace.text");
    return trace_source(options_.open_file(v.trace.file), v.trace, v.trace.file, v.kv_block_tokens);
  }
  return generated_source(v, v.rate, mean_length(v.input, workload_.inference.input_tokens),
                          mean_length(v.output, workload_.inference.output_tokens));
}

SimResult Runner::simulate_spec(const Spec& v, const SimConfig& cfg) const {
  auto src = source(v);
  return simulate(*model_, *src, cfg);
}

namespace {

// One request of fixed lengths, alone: the zero-load measurement.
class OneRequest : public Source {
 public:
  OneRequest(int input, int output) : input_(input), output_(output) {}
  bool next(Chain& c) override {
    if (done_) return false;
    done_ = true;
    c = Chain();
    Call call;
    call.input_tokens = input_;
    call.output_tokens = output_;
    c.calls.push_back(call);
    return true;
  }
  std::string describe() const override { return "one request alone"; }

 private:
  int input_, output_;
  bool done_ = false;
};

double tpot_of(const CallRecord& r) {
  return (r.finish_s - r.first_token_s) / double(r.output_tokens - 1);
}

bool meets(const CallRecord& r, const Targets& t) {
  if (t.ttft_s && r.first_token_s - r.arrival_s > *t.ttft_s) return false;
  if (t.tpot_s && r.output_tokens > 1 && tpot_of(r) > *t.tpot_s) return false;
  return true;
}

// The run's window: first arrival to last completion (SimResult::start_s, end_s).
double window_s(const SimResult& sim) { return sim.end_s - sim.start_s; }

// Share of the measured requests meeting both targets; a rejected request never gets a first
// token, so it counts against (DistServe's attainment is over every request sent).
double attainment(const SimResult& sim, const Targets& t) {
  const double n = double(sim.calls.size()) + double(sim.rejected_measured);
  if (n <= 0) return 0;
  std::size_t ok = 0;
  for (const auto& r : sim.calls) ok += meets(r, t) ? 1 : 0;
  return double(ok) / n;
}

}  // namespace

void latency(const SimResult& sim, const std::string& harness, Result& R) {
  std::vector<double> ttft, tpot, e2e, queue, itl;
  for (const auto& r : sim.calls) {
    ttft.push_back(r.first_token_s - r.arrival_s);
    e2e.push_back(r.finish_s - r.arrival_s);
    queue.push_back(r.queue_s);
    if (r.output_tokens > 1) tpot.push_back(tpot_of(r));
    if (harness == "llmperf") itl.push_back((r.finish_s - r.arrival_s) / r.output_tokens);
  }
  R.ttft = summarize(ttft);
  R.e2e = summarize(e2e);
  constexpr int kBins = 24;
  R.ttft_histogram = log_histogram(ttft, kBins);  // summarize sorted them
  R.e2e_histogram = log_histogram(e2e, kBins);
  R.queue = summarize(queue);
  if (harness == "vllm-bench") {
    auto gaps = sim.token_gaps;
    R.itl = summarize_weighted(gaps);
  } else if (harness == "guidellm" || harness == "mlperf") {
    R.itl = summarize(tpot);  // (last - first) / (output - 1): the same per-request figure (loadgen's TPOT)
  } else {
    R.itl = summarize(itl);
  }
  R.tpot = summarize(tpot);
  R.tpot_histogram = log_histogram(tpot, kBins);
}

void occupancy(const SimResult& sim, Result& R) {
  const double T = window_s(sim) > 0 ? window_s(sim) : 1;
  double running = 0, kv = 0, cache = 0;
  for (std::size_t b = 0; b < sim.series.used_bins(); ++b) {
    running += sim.series.sum(b, 0);
    kv += sim.series.sum(b, 2);
    cache += sim.series.sum(b, 3);
    SeriesPoint p;
    p.t0_s = double(b) * sim.series.width();
    p.t1_s = std::min(T, double(b + 1) * sim.series.width());
    const double w = p.t1_s - p.t0_s;
    if (w > 0) {
      p.running = sim.series.sum(b, 0) / w;
      p.waiting = sim.series.sum(b, 1) / w;
      p.kv_fraction = sim.series.sum(b, 2) / w;
      p.cache_fraction = sim.series.sum(b, 3) / w;
      p.output_tokens_per_s = sim.series.sum(b, 4) / w;
    }
    R.series.push_back(p);
  }
  R.mean_batch = running / T / R.replicas;
  R.mean_kv_fraction = kv / T;
  R.mean_cache_fraction = cache / T;
  R.max_batch = sim.max_running;
  R.peak_kv_fraction = sim.peak_kv_fraction;
  for (std::size_t b = 0; b < sim.positions.used_bins(); ++b) {
    const double n = sim.positions.sum(b, 1);
    if (n <= 0) continue;
    PositionPoint p;
    p.from = double(b) * sim.positions.width();
    p.to = double(b + 1) * sim.positions.width();
    p.time_per_token_s = sim.positions.sum(b, 0) / n;
    p.batch = sim.positions.sum(b, 2) / n;
    p.tokens_per_s_per_chip = p.time_per_token_s > 0 ? p.batch / p.time_per_token_s / R.chips_per_replica : 0;
    R.positions.push_back(p);
  }
}

void throughput(const SimResult& sim, Result& R) {
  R.duration_s = window_s(sim);
  const double T = window_s(sim) > 0 ? window_s(sim) : 1;
  R.requests = sim.calls.size();
  R.request_rate = double(sim.calls_all - sim.rejected - sim.cut) / T;
  R.output_tokens_per_s = sim.output_tokens / T;
  R.output_tokens_per_s_per_chip = R.output_tokens_per_s / (double(R.replicas) * R.chips_per_replica);
  R.prompt_tokens_per_s = sim.prompt_tokens / T;
  R.rejected = sim.rejected;
  R.cut = sim.cut;
  R.rejected_reason = sim.rejected_reason;
  R.preemptions = sim.preemptions;
  R.steps = sim.steps;
  R.prompt_tokens = sim.prompt_tokens;
  R.cached_prompt_tokens = sim.cached_prompt_tokens;
  R.computed_prefill_tokens = sim.computed_prefill_tokens;
  R.cache_evictions = sim.cache_evictions;
  R.step_time_shares = sim.step_split.shares();
  R.little_l = sim.in_system_area / T;
  R.little_lambda_w = sim.e2e_s_all / T;
  R.little_lq = sim.in_queue_area / T;
  R.little_lambda_wq = sim.queue_s_all / T;
}

void goodput(const SimResult& sim, const Targets& targets, Result& R) {
  R.attainment = attainment(sim, targets);
  std::size_t ok = 0;
  for (const auto& r : sim.calls) ok += meets(r, targets) ? 1 : 0;
  R.goodput_rps = window_s(sim) > 0 ? double(ok) / window_s(sim) : 0;
}

void zero_load(const Runner& run, Result& R) {
  const int in = run.input_tokens(), out = run.output_tokens();
  R.reference_input_tokens = in;
  R.reference_output_tokens = out;
  OneRequest one(in, out);
  SimConfig cfg = run.config();
  cfg.closed_loop = true;
  cfg.concurrency = 1;
  cfg.warmup = 0;
  cfg.duration_s = 0;
  cfg.max_in_flight = 0;
  cfg.replicas = 1;
  const SimResult sim = simulate(run.model(), one, cfg);
  if (!sim.calls.empty()) {
    const CallRecord& r = sim.calls.front();
    R.zero_load_ttft_s = r.first_token_s - r.arrival_s;
    R.zero_load_tpot_s = r.output_tokens > 1 ? tpot_of(r) : 0;
  }
  // `trnsim run` of one request of these lengths: the reference the step model evaluated.
  const Reference& ref = run.reference();
  if (ref.ok) {
    R.run_ttft_s = ref.run.inference().ttft_s;
    R.run_tpot_s = ref.run.inference().tpot_s;
  } else {
    R.notes.push_back("`trnsim run` cannot price one request of these lengths (it prefills whole prompts): " + ref.error);
  }
}

// The run's output rate per chip at the reference run's all-in power per chip and price per
// chip-hour (workload/economics.cpp: the chip data's, or the scenario's workload.economics).
void economics(const Runner& run, Result& R) {
  const hw::System& sys = run.system();
  R.chips_per_domain = std::min(sys.chips_per_domain > 0 ? sys.chips_per_domain : sys.chips, sys.chips);
  R.output_tokens_per_s_per_domain = R.output_tokens_per_s_per_chip * R.chips_per_domain;
  const workload::Result& ref = run.reference().run;
  R.power_per_chip_all_in_watts = ref.power_per_chip_all_in_watts;
  R.price_per_chip_hour_usd = ref.price_per_chip_hour_usd;
  R.tokens_per_s_per_megawatt =
      R.power_per_chip_all_in_watts > 0 ? R.output_tokens_per_s_per_chip / R.power_per_chip_all_in_watts * 1e6 : 0;
  R.usd_per_million_tokens = R.output_tokens_per_s_per_chip > 0
                                 ? R.price_per_chip_hour_usd / (R.output_tokens_per_s_per_chip * 3600.0) * 1e6
                                 : 0;
}

void economics_at_max_rate(Result& R) {
  const double chips = double(R.replicas) * R.chips_per_replica;
  const double output_per_request = R.request_rate > 0 ? R.output_tokens_per_s / R.request_rate : 0;
  R.max_rate_tokens_per_s_per_chip = chips > 0 ? R.max_rate * output_per_request / chips : 0;
  R.max_rate_tokens_per_s_per_domain = R.max_rate_tokens_per_s_per_chip * R.chips_per_domain;
  R.max_rate_tokens_per_s_per_megawatt =
      R.power_per_chip_all_in_watts > 0 ? R.max_rate_tokens_per_s_per_chip / R.power_per_chip_all_in_watts * 1e6 : 0;
  R.max_rate_usd_per_million_tokens =
      R.max_rate_tokens_per_s_per_chip > 0 ? R.price_per_chip_hour_usd / (R.max_rate_tokens_per_s_per_chip * 3600.0) * 1e6
                                           : 0;
}

namespace {

// A decode step of as many sequences of `context` tokens as fit (and the batch slots allow).
template <class Row>
void decode_row(const StepModel& m, double context, int chips_per_replica, Row& row) {
  row.fit_sequences = std::max(0.0, m.memory().kv_budget_bytes / m.kv_bytes(context));
  row.batch = static_cast<int>(std::min<double>(std::floor(row.fit_sequences), m.limits().max_batch));
  if (row.batch > 0) {
    Batch b;
    b.decode_contexts.assign(static_cast<std::size_t>(row.batch), static_cast<int>(context));
    row.step_s = m.step(b).time_s;
    row.tokens_per_s_per_chip = row.batch / row.step_s / chips_per_replica;
  }
}

}  // namespace

// The same server at other KV precisions. The scenario's own precision is the run's model; each
// other one is a step model of its own (the precision changes the KV bytes every attention
// kernel reads, the plan's context and the reference's memory).
void kv_precisions(const Runner& run, Result& R) {
  const double context = double(run.input_tokens()) + run.output_tokens();
  const std::string& own = run.workload().precision.kv_cache;
  std::vector<std::string> dtypes = dtype::kv_precision_names();
  if (std::find(dtypes.begin(), dtypes.end(), own) == dtypes.end()) dtypes.push_back(own);
  R.kv_fit_sequences = run.model().memory().kv_budget_bytes / run.model().kv_bytes(context);
  for (const auto& dt : dtypes) {
    KvPrecisionRow row;
    row.dtype = dt;
    try {
      std::unique_ptr<StepModel> other;
      if (dt != own) {
        workload::Spec w = run.workload();
        w.precision.kv_cache = dt;
        other = make_step_model(run.system(), w, run.serve());
      }
      const StepModel& model = other ? *other : run.model();
      row.bytes_per_token = model.kv_bytes(context) / context;
      decode_row(model, context, R.chips_per_replica, row);
    } catch (const InputError&) {
      // does not fit at all: a row of zeros says so
    }
    R.kv_precisions.push_back(row);
  }
}

// Decode steps at 1K, 2K, ... tokens of context: where the KV cache stops fitting the batch.
void context_sweep(const Runner& run, Result& R) {
  const double top = std::max(8192.0, 4.0 * (double(run.input_tokens()) + run.output_tokens()));
  const StepModel& m = run.model();
  const int longest = m.limits().max_context;  // a compiled server cannot go beyond it
  for (double context = 1024; context <= top && (longest <= 0 || context <= longest); context *= 2) {
    ContextRow row;
    row.context = context;
    decode_row(m, context, R.chips_per_replica, row);
    R.contexts.push_back(row);
  }
}

namespace {

std::map<int, std::vector<double>> ttft_by_turn(const SimResult& sim) {
  std::map<int, std::vector<double>> m;
  for (const auto& r : sim.calls)
    if (r.session) m[r.turn].push_back(r.first_token_s - r.arrival_s);
  return m;
}

}  // namespace

void sessions(const Runner& run, const SimResult& sim, Result& R) {
  const Spec& v = run.serve();
  std::map<int, TurnRow> rows;
  std::map<int, double> prompt;
  std::map<std::int64_t, const CallRecord*> last;
  for (const auto& r : sim.calls) {
    if (!r.session) continue;
    TurnRow& t = rows[r.turn];
    t.turn = r.turn;
    ++t.calls;
    t.cached_fraction += r.cached_tokens;
    prompt[r.turn] += r.input_tokens;
    const CallRecord*& l = last[r.chain];
    if (!l || r.call > l->call) l = &r;
  }
  const bool reuse_possible =
      v.prefix_cache.enabled && (v.arrivals == "sessions" || v.arrivals == "trace" || v.shared_prefix_tokens > 0);
  SimResult without;
  if (reuse_possible) {
    SimConfig cfg = run.config();
    cfg.prefix_cache = false;
    without = run.simulate_spec(v, cfg);
    std::vector<double> all;
    for (const auto& r : without.calls) all.push_back(r.first_token_s - r.arrival_s);
    R.ttft_p50_no_reuse_s = summarize(all).p50;
    R.has_no_reuse = true;
  }
  auto with = ttft_by_turn(sim), wo = ttft_by_turn(without);
  for (auto& [turn, row] : rows) {
    row.cached_fraction /= prompt[turn];
    row.ttft_p50_s = summarize(with[turn]).p50;
    row.ttft_p50_no_reuse_s = wo.count(turn) ? summarize(wo[turn]).p50 : 0;
    R.turns.push_back(row);
  }
  std::vector<double> kv;
  for (const auto& [chain, r] : last) kv.push_back(r->kv_bytes_final);
  R.sessions = kv.size();
  const Summary k = summarize(kv);
  R.session_kv_bytes_mean = k.mean;
  R.session_kv_bytes_p90 = k.p90;
}

namespace {

// Which target binds at zero load, for the error of an impossible search.
void check_reachable(const Runner& run) {
  Spec v = run.serve();
  v.arrivals = v.arrivals == "sessions" ? "sessions" : "closed";
  SimConfig cfg = run.config();
  if (v.arrivals == "closed") {
    cfg.closed_loop = true;
    cfg.concurrency = 1;
  } else {
    v.rate = 1e-9;  // sessions so far apart that none overlaps another
  }
  const SimResult sim = run.simulate_spec(v, cfg);
  const Targets& t = run.serve().targets;
  if (attainment(sim, t) >= t.fraction) return;
  for (int which = 0; which < 2; ++which) {
    Targets one;
    (which == 0 ? one.ttft_s : one.tpot_s) = which == 0 ? t.ttft_s : t.tpot_s;
    if (!(which == 0 ? one.ttft_s : one.tpot_s) || attainment(sim, one) >= t.fraction) continue;
    std::vector<double> v2;
    for (const auto& r : sim.calls)
      if (which == 0) v2.push_back(r.first_token_s - r.arrival_s);
      else if (r.output_tokens > 1) v2.push_back(tpot_of(r));
    std::sort(v2.begin(), v2.end());
    const double at = percentile_sorted(v2, 100 * t.fraction);
    throw InputError(which == 0 ? "serve.targets.ttft_s" : "serve.targets.tpot_s",
                     fmt::time(which == 0 ? *t.ttft_s : *t.tpot_s) + " cannot be met by " +
                         fmt::percent(t.fraction, 0) + " of requests even at zero load (" + fmt::percent(t.fraction, 0) +
                         " of them take " + fmt::time(at) + " alone)");
  }
  throw InputError("serve.targets", "the TTFT and TPOT targets together cannot be met by " + fmt::percent(t.fraction, 0) +
                                        " of requests even at zero load");
}

constexpr double kBurstRate = 1e12;  // requests per second: every arrival at (nearly) t = 0

}  // namespace

void search_rate(const Runner& run, Result& R) {
  check_reachable(run);
  const Spec& serve = run.serve();
  const Targets& t = serve.targets;
  auto probe = [&](double rate) {
    Spec v = serve;
    v.rate = rate;
    const SimResult sim = run.simulate_spec(v, run.config());
    RateProbe p{rate, attainment(sim, t), 0};
    std::size_t ok = 0;
    for (const auto& r : sim.calls) ok += meets(r, t) ? 1 : 0;
    p.goodput_rps = window_s(sim) > 0 ? double(ok) / window_s(sim) : 0;
    R.probes.push_back(p);
    return p.attainment >= t.fraction;
  };
  // If even every request at once meets the targets, no rate limits this many requests.
  if (probe(kBurstRate)) {
    const int n = serve.arrivals == "sessions" ? serve.sessions.count : serve.requests;
    throw InputError(serve.arrivals == "sessions" ? "serve.sessions.count" : "serve.requests",
                     "all " + std::to_string(n) + " arriving at once still meet the targets, so no arrival rate "
                     "limits them: the rate search needs more (enough that the server cannot hold them all at once)");
  }
  R.probes.clear();
  double lo = 0, hi = serve.rate;
  if (probe(hi)) {
    lo = hi;
    for (int i = 0; i < 40 && probe(hi * 2); ++i) lo = hi *= 2;
    hi *= 2;
  }
  for (int i = 0; i < 30 && (hi - lo) > 0.01 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    if (probe(mid)) lo = mid;
    else hi = mid;
  }
  R.searched = true;
  R.max_rate = lo;
  std::sort(R.probes.begin(), R.probes.end(), [](const RateProbe& a, const RateProbe& b) { return a.rate < b.rate; });
}


}  // namespace trnsim::serve
