// The capacity planner's search (capacity.h): the space, the bounds, the replica search per
// family, and the summary (per-system optimum, Pareto front).
#include "capacity/capacity.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "common/error.h"
#include "common/format.h"
#include "hw/system.h"
#include "serve/policy/batch_policy.h"
#include "serve/requests.h"
#include "serve/sessions.h"
#include "serve/sim/simulator.h"
#include "serve/stack/step_model.h"
#include "serve/stats.h"
#include "serve/traces.h"

namespace trnsim::capacity {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// A comma-separated list; "" gives `fallback`. An empty entry is an error naming the field.
std::vector<std::string> names(const std::string& text, const std::string& field, const std::vector<std::string>& fallback) {
  if (trim(text).empty()) return fallback;
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    part = trim(part);
    if (part.empty()) throw InputError(field, "an empty entry in '" + text + "' (names separated by commas)");
    if (std::find(out.begin(), out.end(), part) == out.end()) out.push_back(part);
  }
  if (!text.empty() && text.back() == ',')
    throw InputError(field, "an empty entry in '" + text + "' (names separated by commas)");
  return out;
}

void check_choice(const std::string& value, const std::string& field, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return;
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
  const std::string hint = closest_name(value, choices);
  throw InputError(field, "unknown '" + value + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                              "; one of: " + list);
}

hw::System load(const std::string& name) {
  try {
    return hw::load_system(name);
  } catch (const InputError& e) {
    throw InputError("capacity.systems", e.field() == "system" ? e.problem() : e.what());
  }
}

int domain_of(const hw::System& s) { return s.chips_per_domain > 0 ? s.chips_per_domain : s.chips; }

// Every built-in system that is one scale-up domain of several chips (an UltraServer, a
// server): chips alone and clusters (many of those domains) repeat what their domain offers.
std::vector<std::string> default_systems() {
  std::vector<std::string> out;
  for (const auto& n : hw::system_names()) {
    const hw::System s = hw::load_system(n);
    if (s.chips > 1 && domain_of(s) == s.chips) out.push_back(n);
  }
  return out;
}

std::vector<int> or_default(const std::vector<int>& v, std::vector<int> fallback) { return v.empty() ? fallback : v; }

// ---- What the simulator is asked ----------------------------------------------------------

// One request of fixed lengths, alone.
class OneRequest : public serve::Source {
 public:
  OneRequest(int input, int output) : input_(input), output_(output) {}
  bool next(serve::Chain& c) override {
    if (done_) return false;
    done_ = true;
    c = serve::Chain();
    serve::Call call;
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

bool is_generated(const serve::Spec& v) { return v.arrivals != "sessions" && v.arrivals != "trace"; }

std::unique_ptr<serve::Source> make_source(const workload::Spec& w, const serve::Spec& v, const Options& o) {
  if (v.arrivals == "sessions") return serve::session_source(v, v.rate);
  if (v.arrivals == "trace") {
    if (!v.trace.text.empty())
      return serve::trace_source(std::make_unique<std::istringstream>(v.trace.text), v.trace, "serve.trace.text",
                                 v.kv_block_tokens);
    if (!o.open_file)
      throw InputError("serve.trace.file", "trace files are read by the command line; here, put the trace's text in "
                                           "serve.trace.text");
    return serve::trace_source(o.open_file(v.trace.file), v.trace, v.trace.file, v.kv_block_tokens);
  }
  return serve::generated_source(v, v.rate, serve::mean_length(v.input, w.inference.input_tokens),
                                 serve::mean_length(v.output, w.inference.output_tokens));
}

double tpot_of(const serve::CallRecord& r) { return (r.finish_s - r.first_token_s) / double(r.output_tokens - 1); }

bool meets(const serve::CallRecord& r, const serve::Targets& t) {
  if (t.ttft_s && r.first_token_s - r.arrival_s > *t.ttft_s) return false;
  if (t.tpot_s && r.output_tokens > 1 && tpot_of(r) > *t.tpot_s) return false;
  return true;
}

// One run at the offered load.
struct Probe {
  bool meets = false;
  double attainment = 0, ttft_s = 0, tpot_s = 0, output_tokens_per_s = 0;
};

serve::SimConfig load_config(const serve::Spec& v, const serve::StepModel& m, int replicas) {
  serve::SimConfig c;
  c.replicas = replicas;
  c.router = v.router;
  c.closed_loop = v.arrivals == "closed";
  c.concurrency = v.concurrency;
  c.kv_block_tokens = v.kv_block_tokens;
  c.prefix_cache = v.prefix_cache.enabled && m.limits().prefix_caching;
  c.prefix_cache_max_tokens = v.prefix_cache.max_tokens ? *v.prefix_cache.max_tokens : 0;
  c.warmup = is_generated(v) ? v.warmup_requests : 0;
  c.duration_s = v.duration_s;
  c.max_in_flight = v.arrivals == "closed" ? 0 : v.max_concurrency;
  return c;
}

Probe run_at(const serve::StepModel& m, const workload::Spec& w, const serve::Spec& v, const Options& o, int replicas) {
  auto src = make_source(w, v, o);
  const serve::SimResult sim = serve::simulate(m, *src, load_config(v, m, replicas));
  const serve::Targets& t = v.targets;
  Probe p;
  std::vector<double> ttft, tpot;
  std::size_t ok = 0;
  for (const auto& r : sim.calls) {
    ok += meets(r, t) ? 1 : 0;
    ttft.push_back(r.first_token_s - r.arrival_s);
    if (r.output_tokens > 1) tpot.push_back(tpot_of(r));
  }
  const double n = double(sim.calls.size()) + double(sim.rejected_measured);
  p.attainment = n > 0 ? double(ok) / n : 0;
  p.meets = n > 0 && p.attainment >= t.fraction;
  std::sort(ttft.begin(), ttft.end());
  std::sort(tpot.begin(), tpot.end());
  p.ttft_s = ttft.empty() ? 0 : serve::percentile_sorted(ttft, 100 * t.fraction);
  p.tpot_s = tpot.empty() ? 0 : serve::percentile_sorted(tpot, 100 * t.fraction);
  const double window = sim.end_s - sim.start_s;
  p.output_tokens_per_s = window > 0 ? sim.output_tokens / window : 0;
  return p;
}

// A request alone on one replica: (TTFT, TPOT).
std::pair<double, double> alone(const serve::StepModel& m, const serve::Spec& v, int input, int output) {
  OneRequest one(input, output);
  serve::SimConfig c;
  c.replicas = 1;
  c.closed_loop = true;
  c.concurrency = 1;
  c.kv_block_tokens = v.kv_block_tokens;
  c.prefix_cache = false;
  const serve::SimResult sim = serve::simulate(m, one, c);
  if (sim.calls.empty()) return {INFINITY, INFINITY};  // rejected alone: it cannot be served at all
  const auto& r = sim.calls.front();
  return {r.first_token_s - r.arrival_s, r.output_tokens > 1 ? tpot_of(r) : 0};
}

// The measured requests' lengths (generated arrivals: drawn without simulating).
struct Lengths {
  std::vector<int> prompts;                  // every measured request
  std::vector<int> decoding_prompts;         // those with at least two output tokens
  double output_tokens = 0;                  // summed
};

Lengths drawn_lengths(const workload::Spec& w, const serve::Spec& v) {
  Lengths L;
  auto src = make_source(w, v, {});
  serve::Chain c;
  std::int64_t n = 0;
  while (src->next(c)) {
    if (n++ < v.warmup_requests) continue;
    for (const auto& call : c.calls) {
      L.prompts.push_back(call.input_tokens);
      if (call.output_tokens > 1) L.decoding_prompts.push_back(call.input_tokens);
      L.output_tokens += call.output_tokens;
    }
  }
  std::sort(L.prompts.begin(), L.prompts.end());
  std::sort(L.decoding_prompts.begin(), L.decoding_prompts.end());
  return L;
}

// Output tokens per second the traffic offers (0: unknown up front).
double offered_tokens_per_s(const workload::Spec& w, const serve::Spec& v) {
  if (v.arrivals == "trace" || v.arrivals == "closed" || v.arrivals == "burst") return 0;
  if (v.arrivals == "sessions")
    return v.rate * v.sessions.turns * v.sessions.calls_per_turn * v.sessions.output_tokens;
  return v.rate * serve::served_mean_length(v.output, w.inference.output_tokens);
}

std::string gib(double bytes) { return fmt::general(bytes / double(1ull << 30), 3) + " GiB"; }

// The step model's error, classified: HBM fit or the placement itself.
std::string classify(const InputError& e) {
  const std::string what = e.what();
  for (const char* word : {"HBM", "hbm", "does not fit", "KV budget", "KV cache"})
    if (what.find(word) != std::string::npos) return "memory";
  return "placement";
}

}  // namespace

std::string Family::label() const {
  std::string s = system + " tp" + std::to_string(tp) + " ep" + std::to_string(ep) + " pp" + std::to_string(pp) + " " +
                  weights + "/" + kv_cache + " " + std::to_string(batch_slots) + " slots " + stack;
  if (!scheduler.empty()) s += " " + scheduler;
  return s;
}

void check_inputs(const workload::Spec& w, const serve::Spec& v) {
  if (w.kind != workload::Kind::inference)
    throw InputError("workload.kind", "capacity plans serve an inference workload, got '" +
                                          std::string(workload::kind_name(w.kind)) + "'");
  if (v.arrivals == "closed" || v.arrivals == "burst")
    throw InputError("serve.arrivals", "a capacity plan serves an offered load: use poisson, gamma, constant, sessions "
                                       "or trace arrivals, got '" + v.arrivals + "'");
  if (!v.targets.ttft_s && !v.targets.tpot_s)
    throw InputError("serve.targets", "a capacity plan needs a target: serve.targets.ttft_s and/or serve.targets.tpot_s");
  if (v.targets.fraction <= 0)
    throw InputError("serve.targets.fraction", "must be above 0 for a capacity plan (the share of requests that must "
                                               "meet the targets)");
  if (v.arrivals == "trace" && v.trace.file.empty() && v.trace.text.empty())
    throw InputError("serve.trace.file", "arrivals 'trace' need a trace (serve.trace.file or serve.trace.text)");
}

std::vector<Family> families(const Spec& spec, const workload::Spec& w, const serve::Spec& v) {
  const auto systems = names(spec.systems, "capacity.systems", {});
  const std::vector<std::string> system_list = systems.empty() ? default_systems() : systems;
  if (system_list.empty()) throw InputError("capacity.systems", "no system to search");
  const auto& precisions = workload::precision_names();
  const auto weights = names(spec.weights, "capacity.weights", {w.precision.weights});
  for (const auto& p : weights) check_choice(p, "capacity.weights", precisions);
  const auto kvs = names(spec.kv_cache, "capacity.kv_cache", {w.precision.kv_cache});
  for (const auto& p : kvs) check_choice(p, "capacity.kv_cache", precisions);
  const auto stacks = names(spec.stacks, "capacity.stacks", {w.stack});
  for (const auto& s : stacks) check_choice(s, "capacity.stacks", serve::stack_names());
  const auto schedulers = names(spec.schedulers, "capacity.schedulers", {v.scheduler});
  for (const auto& s : schedulers) check_choice(s, "capacity.schedulers", serve::batch_policy_names());
  const auto slots = or_default(spec.batch_slots, {v.max_num_seqs});
  const auto eps = or_default(spec.ep, {1});
  const auto pps = or_default(spec.pp, {1});

  std::vector<Family> out;
  for (const auto& name : system_list) {
    const hw::System sys = load(name);
    std::vector<int> tps = spec.tp;
    if (tps.empty())
      for (int t = 1; t <= domain_of(sys); t *= 2)
        if (domain_of(sys) % t == 0) tps.push_back(t);
    for (int tp : tps)
      for (int ep : eps)
        for (int pp : pps)
          for (const auto& wt : weights)
            for (const auto& kv : kvs)
              for (int b : slots)
                for (const auto& st : stacks) {
                  // Only the plain stack takes serve.scheduler; a Neuron stack names its own.
                  const std::vector<std::string> scheds = st == "plain" ? schedulers : std::vector<std::string>{""};
                  for (const auto& sc : scheds) out.push_back(Family{name, tp, ep, pp, wt, kv, b, st, sc});
                }
  }
  if (out.empty()) throw InputError("capacity", "the search space is empty");
  return out;
}

Outcome evaluate(const Family& f, const workload::Spec& base_w, const serve::Spec& base_v, const Spec& spec,
                 const Options& o) {
  Outcome out;
  out.family = f;
  out.chips_per_replica = f.tp * f.pp;
  auto reject = [&out](const std::string& by, const std::string& why) {
    out.meets = false;
    out.rejected_by = by;
    out.reason = why;
    return out;
  };
  const hw::System sys = load(f.system);
  workload::Spec w = base_w;
  w.parallelism.tp = f.tp;
  w.parallelism.ep = f.ep;
  w.parallelism.pp = f.pp;
  // Expert groups wider than tp span replicas: replicas come in groups of ep / tp.
  const int group = f.ep > f.tp && f.ep % f.tp == 0 ? f.ep / f.tp : 1;
  w.parallelism.dp = group;
  w.precision.weights = f.weights;
  w.precision.kv_cache = f.kv_cache;
  w.stack = f.stack;
  serve::Spec v = base_v;
  v.max_num_seqs = f.batch_slots;
  if (!f.scheduler.empty()) v.scheduler = f.scheduler;
  const int max_groups = spec.max_chips / (out.chips_per_replica * group);
  if (max_groups < 1)
    return reject("max_chips", "one replica group takes " + std::to_string(out.chips_per_replica * group) +
                                   " chips, above capacity.max_chips (" + std::to_string(spec.max_chips) + ")");

  std::unique_ptr<serve::StepModel> model;
  try {
    model = serve::make_step_model(sys, w, v);
  } catch (const InputError& e) {
    return reject(classify(e), e.what());
  }
  const serve::StepModel& m = *model;
  const serve::ReplicaMemory mem = m.memory();
  const double price = w.economics.price_per_chip_hour_usd ? *w.economics.price_per_chip_hour_usd
                                                           : sys.chip.price_per_hour_usd;
  const double watts = (w.economics.chip_power_watts ? *w.economics.chip_power_watts : sys.chip.power_watts) *
                       (1 + w.economics.host_power_fraction) * w.economics.pue;
  const auto [mean_in, mean_out] = serve::reference_lengths(w, v);

  const bool bounds = !o.exhaustive;
  const serve::Targets& t = v.targets;
  // Memory: the KV budget must hold one request of the mean lengths.
  if (bounds) {
    if (mem.kv_budget_bytes <= 0)
      return reject("memory", "weights " + gib(mem.weights_bytes) + " + working set " + gib(mem.activations_bytes) +
                                  " + reserve " + gib(mem.reserve_bytes) + " per chip exceed HBM " +
                                  gib(mem.capacity_bytes));
    const double one = m.kv_bytes(mean_in + mean_out);
    if (one > mem.kv_budget_bytes)
      return reject("memory", "one request of the mean lengths (" + std::to_string(mean_in + mean_out) + " tokens) needs " +
                                  gib(one) + " of KV per chip, the budget is " + gib(mem.kv_budget_bytes));
  }

  // Zero load: the request at the target fraction's quantile of prompt length, alone.
  int min_prompt = 1;
  if (bounds && v.duration_s <= 0) {
    Lengths L;
    if (is_generated(v)) L = drawn_lengths(w, v);
    const std::size_t N = L.prompts.size();
    if (N > 0) {
      min_prompt = L.prompts.front();
      // At most j requests (those with shorter prompts) can meet a target the j-th misses
      // alone; attainment needs ceil(f N) of N.
      const long need = static_cast<long>(std::ceil(t.fraction * double(N) - 1e-9));
      const long j = need - 1;
      if (t.ttft_s && j >= 0 && j < long(N)) {
        // A shared system prompt may be cached under load: only the rest is sure to be computed.
        const int computed = std::max(1, L.prompts[j] - v.shared_prefix_tokens);
        out.zero_load_ttft_s = alone(m, v, computed, 1).first;
        if (out.zero_load_ttft_s > *t.ttft_s)
          return reject("zero_load_ttft", "misses TTFT " + fmt::time(*t.ttft_s) + " at any load: the request at the " +
                                              fmt::percent(t.fraction, 0) + " point of prompt length (" +
                                              std::to_string(computed) + " tokens computed) takes " +
                                              fmt::time(out.zero_load_ttft_s) + " alone");
      }
      // Requests of one output token meet TPOT whatever happens.
      const long jt = need - 1 - long(N - L.decoding_prompts.size());
      if (t.tpot_s && jt >= 0 && jt < long(L.decoding_prompts.size())) {
        out.zero_load_tpot_s = alone(m, v, L.decoding_prompts[jt], 2).second;
        if (out.zero_load_tpot_s > *t.tpot_s)
          return reject("zero_load_tpot", "misses TPOT " + fmt::time(*t.tpot_s) + " at any load: one decode step after a " +
                                              std::to_string(L.decoding_prompts[jt]) + "-token prompt takes " +
                                              fmt::time(out.zero_load_tpot_s) + " alone");
      }
    } else if (t.tpot_s) {
      // Sessions and traces: the cheapest decode there is (a one-token prompt) bounds every request.
      out.zero_load_tpot_s = alone(m, v, 1, 2).second;
      if (out.zero_load_tpot_s > *t.tpot_s)
        return reject("zero_load_tpot", "misses TPOT " + fmt::time(*t.tpot_s) + " at any load: one decode step alone takes " +
                                            fmt::time(out.zero_load_tpot_s));
    }
  }

  // The throughput ceiling: a full batch of decodes at the shortest context.
  int k_lb = 1;
  const double offered = offered_tokens_per_s(w, v);
  if (bounds && offered > 0) {
    serve::Batch b;
    b.decode_contexts.assign(std::max(1, m.limits().max_batch), min_prompt + 1);
    const serve::StepTime st = m.step(b);
    if (st.time_s > 0) {
      out.ceiling_tokens_per_s = double(b.decode_contexts.size()) * st.tokens_per_sequence / st.time_s;
      k_lb = std::max(1, static_cast<int>(std::ceil(offered / (out.ceiling_tokens_per_s * group) - 1e-9)));
    }
  }
  out.bound_replicas = k_lb * group;

  // The replica search, in groups.
  std::map<int, Probe> probes;
  auto probe = [&](int k) -> const Probe& {
    auto it = probes.find(k);
    if (it != probes.end()) return it->second;
    ++out.simulations;
    return probes[k] = run_at(m, w, v, o, k * group);
  };
  int found = 0;
  try {
    if (o.exhaustive) {
      for (int k = 1; k <= max_groups && !found; ++k)
        if (probe(k).meets) found = k;
    } else {
      int lo = 0, hi = 0;  // lo misses (0: none known), hi meets (0: none found)
      int k = std::min(k_lb, max_groups);
      if (probe(k).meets) {
        hi = k;
        // A finite run may hold a little over the steady-state ceiling: check one below.
        if (k > 1 && !probe(k - 1).meets) lo = k - 1;
      } else {
        lo = k;
        while (lo < max_groups) {
          const int next = std::min(max_groups, lo * 2);
          if (probe(next).meets) {
            hi = next;
            break;
          }
          lo = next;
        }
      }
      if (hi > 0) {
        while (hi - lo > 1) {
          const int mid = lo + (hi - lo) / 2;
          if (probe(mid).meets) hi = mid;
          else lo = mid;
        }
        found = hi;
      }
    }
  } catch (const InputError& e) {
    return reject("simulated", e.what());
  }
  auto fill = [&](int k) {
    const Probe& p = probes.at(k);
    out.replicas = k * group;
    out.chips = out.replicas * out.chips_per_replica;
    out.attainment = p.attainment;
    out.ttft_s = p.ttft_s;
    out.tpot_s = p.tpot_s;
    out.output_tokens_per_s = p.output_tokens_per_s;
    out.price_per_hour_usd = out.chips * price;
    out.usd_per_million_tokens =
        p.output_tokens_per_s > 0 ? out.price_per_hour_usd / (p.output_tokens_per_s * 3600.0) * 1e6 : 0;
    out.output_tokens_per_s_per_megawatt = watts > 0 ? p.output_tokens_per_s / (out.chips * watts) * 1e6 : 0;
    hw::SystemName n = hw::parse_system_name(f.system);
    const int domains = (out.chips + domain_of(sys) - 1) / domain_of(sys);
    if (out.chips > sys.chips) n.ultraservers = domains;
    out.deployment_system = hw::format_system_name(n);
  };
  if (!found) {
    if (!probes.empty()) fill(probes.rbegin()->first);
    return reject("simulated", "misses the targets with " + std::to_string(max_groups * group) +
                                   " replicas, the most capacity.max_chips (" + std::to_string(spec.max_chips) +
                                   ") allows: " + fmt::percent(out.attainment, 1) + " of requests within both");
  }
  fill(found);
  out.meets = true;
  return out;
}

namespace {

bool cheaper(const Outcome& a, const Outcome& b) {
  if (a.price_per_hour_usd != b.price_per_hour_usd) return a.price_per_hour_usd < b.price_per_hour_usd;
  if (a.chips != b.chips) return a.chips < b.chips;
  if (a.ttft_s != b.ttft_s) return a.ttft_s < b.ttft_s;
  return a.tpot_s < b.tpot_s;
}

bool dominates(const Outcome& a, const Outcome& b) {
  const bool le = a.price_per_hour_usd <= b.price_per_hour_usd && a.ttft_s <= b.ttft_s && a.tpot_s <= b.tpot_s;
  const bool lt = a.price_per_hour_usd < b.price_per_hour_usd || a.ttft_s < b.ttft_s || a.tpot_s < b.tpot_s;
  return le && lt;
}

}  // namespace

Result summarize(std::vector<Outcome> outcomes, const workload::Spec& w, const serve::Spec& v, const Spec& spec) {
  Result R;
  R.model = w.model_name.empty() ? std::string("(inline config)") : w.model_name;
  R.offered_output_tokens_per_s = offered_tokens_per_s(w, v);
  R.traffic = v.arrivals == "trace"      ? std::string("a trace")
              : v.arrivals == "sessions" ? fmt::general(v.rate, 4) + " agentic sessions/s"
                                         : fmt::general(v.rate, 4) + " requests/s (" + v.arrivals + ")";
  R.target_ttft_s = v.targets.ttft_s;
  R.target_tpot_s = v.targets.tpot_s;
  R.target_fraction = v.targets.fraction;
  R.max_chips = spec.max_chips;
  R.outcomes = std::move(outcomes);
  for (std::size_t i = 0; i < R.outcomes.size(); ++i) {
    const Outcome& o = R.outcomes[i];
    R.simulations += o.simulations;
    R.configurations += std::max(1, spec.max_chips / std::max(1, o.chips_per_replica));
    auto it = std::find_if(R.best.begin(), R.best.end(), [&](const Result::SystemBest& b) { return b.system == o.family.system; });
    if (it == R.best.end()) {
      R.best.push_back({o.family.system, -1});
      it = R.best.end() - 1;
    }
    if (o.meets && (it->index < 0 || cheaper(o, R.outcomes[it->index]))) it->index = static_cast<long>(i);
    if (o.meets) {
      bool dominated = false;
      for (const auto& p : R.outcomes) dominated = dominated || (p.meets && dominates(p, o));
      if (!dominated) R.front.push_back(i);
    }
  }
  std::stable_sort(R.front.begin(), R.front.end(),
                   [&](std::size_t a, std::size_t b) { return cheaper(R.outcomes[a], R.outcomes[b]); });
  // Nothing meets: impossible targets are an error naming them, an empty space one naming it.
  const bool any = std::any_of(R.outcomes.begin(), R.outcomes.end(), [](const Outcome& o) { return o.meets; });
  if (!any && !R.outcomes.empty()) {
    auto all = [&](auto pred) { return std::all_of(R.outcomes.begin(), R.outcomes.end(), pred); };
    if (all([](const Outcome& o) { return o.rejected_by == "placement"; }))
      throw InputError("capacity", "no family of the search space is a valid placement (e.g. " +
                                       R.outcomes.front().family.label() + ": " + R.outcomes.front().reason + ")");
    const bool latency = all([](const Outcome& o) {
      return o.rejected_by == "placement" || o.rejected_by == "memory" || o.rejected_by.rfind("zero_load", 0) == 0;
    });
    if (latency) {
      const bool ttft = std::any_of(R.outcomes.begin(), R.outcomes.end(),
                                    [](const Outcome& o) { return o.rejected_by == "zero_load_ttft"; });
      const bool tpot = std::any_of(R.outcomes.begin(), R.outcomes.end(),
                                    [](const Outcome& o) { return o.rejected_by == "zero_load_tpot"; });
      if (ttft || tpot) {
        double best = INFINITY;
        for (const auto& o : R.outcomes)
          if (o.rejected_by == (ttft ? "zero_load_ttft" : "zero_load_tpot"))
            best = std::min(best, ttft ? o.zero_load_ttft_s : o.zero_load_tpot_s);
        throw InputError(ttft ? "serve.targets.ttft_s" : "serve.targets.tpot_s",
                         "no configuration of the search space meets " +
                             fmt::time(ttft ? *v.targets.ttft_s : *v.targets.tpot_s) + " for " +
                             fmt::percent(v.targets.fraction, 0) + " of requests even at zero load: the fastest takes " +
                             fmt::time(best) + " alone");
      }
    }
  }
  return R;
}

std::vector<Outcome> evaluate_range(const Spec& spec, const workload::Spec& w, const serve::Spec& v, std::size_t first,
                                    std::size_t last, const Options& o) {
  check_inputs(w, v);
  const std::vector<Family> all = families(spec, w, v);
  last = std::min(last, all.size());
  first = std::min(first, last);
  const std::vector<Family> fams(all.begin() + static_cast<long>(first), all.begin() + static_cast<long>(last));
  std::vector<Outcome> out(fams.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  std::exception_ptr failure;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < fams.size();) {
      try {
        out[i] = evaluate(fams[i], w, v, spec, o);
      } catch (...) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (!failure) failure = std::current_exception();
        next = fams.size();
        return;
      }
      const std::size_t d = ++done;
      if (o.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        o.progress(d, fams.size());
      }
    }
  };
  std::vector<std::thread> threads;
  if (o.jobs > 1) {
    try {
      for (int t = 1; t < o.jobs; ++t) threads.emplace_back(worker);
    } catch (const std::system_error&) {  // no threads here (a WebAssembly build): the rest on this one
    }
  }
  worker();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

Result search(const Spec& spec, const workload::Spec& w, const serve::Spec& v, const Options& o) {
  return summarize(evaluate_range(spec, w, v, 0, SIZE_MAX, o), w, v, spec);
}

}  // namespace trnsim::capacity
