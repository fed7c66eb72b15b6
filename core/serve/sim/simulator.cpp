// The event-driven serving simulator (simulator.h): the event loop over the KV manager and
// the registered policies.
#include "serve/sim/simulator.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <deque>
#include <queue>
#include <unordered_map>

#include "common/error.h"
#include "serve/policy/batch_policy.h"
#include "serve/policy/router.h"
#include "serve/sim/kv_manager.h"

namespace trnsim::serve {

namespace {

enum class Ev : std::uint8_t { call_arrive, dispatch, step_end, release_held };

constexpr int kPositionSample = 16;  // the position series samples every 16th token (a power of 2)
constexpr std::size_t kPrefetch = 8;  // sequences ahead a step's loops fetch (Simulator::prefetch)
constexpr std::size_t kPrefetchLazy = 48;  // the same in running order when most are lazy (about 1 in 8 visited)
constexpr std::size_t kMaxReservedCalls = std::size_t(1) << 22;  // records reserved up front at most (SimConfig::expected_calls)

struct Event {
  double t = 0;
  std::uint64_t order = 0;
  Ev kind = Ev::call_arrive;
  std::int64_t a = 0;  // chain id (call_arrive), sequence (dispatch), replica (step_end)
  int b = 0;           // call index (call_arrive)
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : order > o.order; }
};

struct ActiveChain {
  Chain chain;
};

class Simulator final : private StepBuilder {
 public:
  Simulator(const StepModel& model, Source& source, const SimConfig& cfg)
      : model_(model), source_(source), cfg_(cfg), limits_(model.limits()), overhead_s_(model.request_overhead_s()),
        budget_(model.memory().kv_budget_bytes), kv_(model, budget_, cfg.kv_block_tokens, cfg.prefix_cache),
        router_(make_router(cfg.router)), batch_policy_(make_batch_policy(limits_.batch_policy)) {
    if (!(budget_ > 0))
      throw InputError("workload.parallelism",
                       "no HBM left for the KV cache on a " + std::to_string(cfg.replicas) +
                           "-replica server (weights, activations and reserve fill it); use more tp/pp/ep or a lower "
                           "precision");
    const double cache_cap =
        cfg.prefix_cache_max_tokens > 0 ? cfg.prefix_cache_max_tokens : std::numeric_limits<double>::infinity();
    for (int i = 0; i < cfg.replicas; ++i) replicas_.emplace_back(cache_cap);
    loads_.resize(replicas_.size());
    router_reads_loads_ = router_->reads_loads();
    lazy_ = !cfg.exact_steps && model.prices_decodes_by_longest_context() && limits_.max_batched_tokens <= 0;
    res_.kv_budget_bytes = budget_;
    res_.series = AdaptiveBins(cfg.series_bins, 1e-3, 5);
    res_.positions = AdaptiveBins(cfg.position_bins, 16, 3);
    res_.source = source.describe();
    res_.calls.reserve(std::min<std::size_t>(cfg.expected_calls, kMaxReservedCalls));
  }

  SimResult run() {
    if (cfg_.closed_loop) {
      for (int i = 0; i < cfg_.concurrency; ++i)
        if (!pull(0)) break;
    } else {
      pull(-1);
    }
    // The run's window opens at the first arrival (a trace's timestamps need not start at 0):
    // throughput, occupancy and the duration count from there.
    origin_ = now_ = events_.empty() ? 0 : events_.top().t;
    res_.start_s = origin_;
    while (!events_.empty()) {
      const Event e = events_.top();
      if (cfg_.duration_s > 0 && e.t >= origin_ + cfg_.duration_s) {  // the run's end: what is still running is cut
        advance(origin_ + cfg_.duration_s);
        res_.cut = in_system_;
        break;
      }
      events_.pop();
      advance(e.t);
      if (e.kind == Ev::call_arrive) arrive(e.a, e.b, e.t);
      else if (e.kind == Ev::dispatch) dispatch(static_cast<int>(e.a), e.t);
      else if (e.kind == Ev::release_held) release_held(e.t);
      else end_step(static_cast<int>(e.a), e.t);
    }
    res_.end_s = now_;
    for (const auto& x : replicas_) {
      res_.cache_evictions += x.cache.evictions();
      res_.kv_held_at_end_bytes += x.held();
    }
    res_.peak_kv_used_bytes = kv_.peak_used();
    res_.source = source_.describe();
    res_.ignored_trace_columns = source_.ignored();
    return std::move(res_);
  }

 private:
  // ---- time and events ---------------------------------------------------------------
  void push(double t, Ev kind, std::int64_t a, int b = 0) { events_.push({t, order_++, kind, a, b}); }

  void advance(double t) {
    const double dt = t - now_;
    if (dt > 0) {
      double running = 0, held = 0, cached = 0;
      for (const auto& r : replicas_) {
        running += double(r.running.size());
        held += r.held();
        cached += r.cache.evictable_bytes();
      }
      const double all = budget_ * double(replicas_.size());
      const double v[5] = {running, double(waiting_), held / all, cached / all, 0};
      res_.series.add_interval(now_ - origin_, t - origin_, v);
      res_.in_system_area += double(in_system_) * dt;
      res_.in_queue_area += double(waiting_) * dt;
    }
    now_ = std::max(now_, t);
  }

  // The next chain from the source: its first call arrives at `at` (closed loop) or at its
  // own arrival time (at < 0).
  bool pull(double at) {
    Chain c;
    if (!source_.next(c)) return false;
    if (at >= 0) c.arrival_s = at;
    const std::int64_t id = c.id;
    const double t = c.arrival_s;
    chains_[id].chain = std::move(c);
    ++res_.chains;
    push(t, Ev::call_arrive, id, 0);
    return true;
  }

  // ---- arrivals and routing ------------------------------------------------------------
  void arrive(std::int64_t chain_id, int call, double t, bool released = false) {
    if (!cfg_.closed_loop && call == 0 && !released) pull(-1);
    if (cfg_.max_in_flight > 0 && in_system_ >= cfg_.max_in_flight) {  // the client holds it until one finishes
      held_.push_back({chain_id, call});
      return;
    }
    Chain& ch = chains_.at(chain_id).chain;
    const Call& c = ch.calls[static_cast<std::size_t>(call)];
    ++in_system_;
    ++res_.calls_all;
    const double total = double(c.input_tokens) + c.output_tokens;
    std::string why;
    if (limits_.max_context > 0 && total > limits_.max_context)
      why = "a request of " + std::to_string(static_cast<long long>(total)) + " tokens exceeds the stack's max context of " +
            std::to_string(limits_.max_context);
    else if (limits_.max_prompt > 0 && c.input_tokens > limits_.max_prompt)
      why = "a prompt of " + std::to_string(c.input_tokens) +
            " tokens exceeds the largest compiled context-encoding bucket (" + std::to_string(limits_.max_prompt) + ")";
    else if (kv(round_up(static_cast<int>(std::min<double>(total, INT_MAX / 2)))) > budget_)
      why = "a request of " + std::to_string(static_cast<long long>(total)) +
            " tokens needs more KV cache than a replica has";
    if (!why.empty()) {
      count_rejected(chain_id >= cfg_.warmup, why);
      --in_system_;
      chain_done(chain_id, t);
      release_held(t);  // its place is free again: the client sends what it holds back
      return;
    }
    const int id = new_seq();
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    s.chain = chain_id;
    s.call = call;
    s.c = &c;
    s.session = ch.session;
    s.measured = chain_id >= cfg_.warmup;
    s.output_blocks = c.output_ns != 0;
    s.prompt_len = c.input_tokens;
    s.target = c.output_tokens;
    s.arrival_s = t;
    s.replica = route(ch, call);
    ++replicas_[static_cast<std::size_t>(s.replica)].routed;
    push(t + overhead_s_, Ev::dispatch, id);
  }

  // With one replica there is nothing to choose (and the router is not asked).
  int route(const Chain& ch, int call) {
    if (replicas_.size() == 1) return 0;
    RoutedCall rc;
    rc.chain = ch.id;
    rc.call = call;
    rc.session = ch.session;
    if (router_reads_loads_)
      for (std::size_t i = 0; i < replicas_.size(); ++i) {  // what the router sees
        loads_[i].waiting = replicas_[i].waiting.size();
        loads_[i].running = replicas_[i].running.size();
        loads_[i].routed = static_cast<std::size_t>(replicas_[i].routed);
      }
    return router_->route(rc, loads_);
  }

  void dispatch(int id, double t) {
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    s.queue_since = t;
    Replica& r = replicas_[static_cast<std::size_t>(s.replica)];
    --r.routed;
    r.waiting.push_back(id);
    ++waiting_;
    if (!r.busy) start_step(s.replica, t);
  }

  // ---- memory (the KV manager) -----------------------------------------------------------
  double kv(int tokens) const { return kv_.kv(tokens); }
  int round_up(int tokens) const { return kv_.round_up(tokens); }
  bool reserve(Replica& r, Seq& s, int n) { return kv_.reserve(r, s, n); }
  void lookup_prefix(Replica& r, Seq& s) { kv_.lookup_prefix(r, s); }
  void release_all(Replica& r, Seq& s) { kv_.release_all(r, s); }
  void insert_blocks(Replica& r, Seq& s, bool all = false) { kv_.insert_blocks(r, s, all); }

  void preempt(Replica& r, std::size_t index) {
    materialize(r, index);
    const int id = r.running[index];
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    insert_blocks(r, s, true);
    release_all(r, s);
    ++s.preemptions;
    ++res_.preemptions;
    erase_running(r, index);
    const int recompute = s.c->input_tokens + s.emitted;  // recompute the prompt and what it generated
    if (limits_.max_prompt > 0 && recompute > limits_.max_prompt) {
      drop(id, "a preempted request's recompute of " + std::to_string(recompute) +
                   " tokens exceeds the largest compiled context-encoding bucket (" + std::to_string(limits_.max_prompt) +
                   ")");
      return;
    }
    s.prompt_len = recompute;
    r.waiting.push_front(id);
    ++waiting_;
    s.queue_since = now_;
  }

  // A rejected call in the books: counted (apart for measured chains), the first reason kept.
  void count_rejected(bool measured, const std::string& why) {
    ++res_.rejected;
    if (measured) ++res_.rejected_measured;
    if (res_.rejected_reason.empty()) res_.rejected_reason = why;
  }

  // A call the server cannot take further (a recompute no compiled graph holds, as vLLM
  // ignores a prompt over its limit): it leaves the system with what it had streamed, counted
  // as rejected; its chain ends.
  void drop(int id, const std::string& why) {
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    count_rejected(s.measured, why);
    res_.e2e_s_all += now_ - s.arrival_s;  // its time in the system, for Little's law
    res_.queue_s_all += s.queue_s;
    const std::int64_t chain = s.chain;
    free_seq(id);
    --in_system_;
    chain_done(chain, now_);
    // Its place is free: the client sends what it holds back -- as an event, since a call
    // arriving now would take a new Seq while the scheduler still holds references into seqs_.
    if (!held_.empty()) push(now_, Ev::release_held, 0);
  }

  void admit(Replica& r, int id) {
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    r.waiting.pop_front();
    --waiting_;
    s.queue_s += now_ - s.queue_since;
    if (s.cached_at_admission < 0) s.cached_at_admission = s.shared;
    r.running.push_back(id);
    if (lazy_) r.lazy.push_back({kVisitEveryStep, 0, 0, 0, 0});
  }

  void erase_running(Replica& r, std::size_t index) {
    const auto at = static_cast<std::ptrdiff_t>(index);
    r.running.erase(r.running.begin() + at);
    if (lazy_) r.lazy.erase(r.lazy.begin() + at);
  }

  // ---- lazy decode ----------------------------------------------------------------------
  // A decoding sequence whose next steps are each one token and nothing else -- no KV block to
  // allocate, no sampled position, not its last token -- is not visited until the step that
  // needs it (Replica::due): each step (a tick of its replica) it gains a token implicitly, and
  // the step's books take the lazy ones at once (their count and longest context for the
  // step model, their equal token gaps in running order). A KV block or a sampled position is
  // taken from its LazyEntry in running order without touching the sequence; only its last
  // token (or memory running out) brings it back. Bringing its fields up to date:
  void materialize(Replica& r, std::size_t index) noexcept {
    if (!lazy_) return;
    LazyEntry& l = r.lazy[index];
    if (l.due == kVisitEveryStep) return;
    Seq& s = seqs_[static_cast<std::size_t>(r.running[index])];
    s.computed = l.c + r.tick;
    s.emitted = l.e + r.tick;
    s.alloc = l.alloc;
    if (r.tick > s.sync) s.last_token_s = r.tick_s;
    l = LazyEntry{kVisitEveryStep, 0, 0, 0, 0};
  }

  // The first tick from `from` at which a lazy entry needs looking at: a token past its
  // allocated blocks, its last token, or a sampled position.
  static int next_due(const LazyEntry& l, int from) noexcept {
    int due = std::min(l.alloc - l.c, l.target - 1 - l.e);
    return std::min(due, from + ((kPositionSample - ((l.e + from) & (kPositionSample - 1))) & (kPositionSample - 1)));
  }

  // After tick `S` (s emitted its token at it, as every lazy sequence did): lazy until the
  // first tick needing a visit, if that is not the next one.
  void make_lazy(Replica& r, std::size_t index, Seq& s, int S) noexcept {
    const LazyEntry l{0, s.computed - S, s.emitted - S, s.alloc, s.target};
    const int due = next_due(l, S);
    if (due <= S) return;
    r.lazy[index] = l;
    r.lazy[index].due = due;
    s.sync = S;
  }

  // Adds `n` token gaps of `g` (lazy sequences are measured), as n gap() calls would.
  void gaps(double g, int n) noexcept {
    if (n <= 0) return;
    auto& v = res_.token_gaps;
    if (!v.empty() && v.back().first == g) v.back().second += static_cast<std::uint32_t>(n);
    else v.push_back({g, static_cast<std::uint32_t>(n)});
  }


  // ---- scheduling -----------------------------------------------------------------------
  int budget_tokens() const { return limits_.max_batched_tokens > 0 ? limits_.max_batched_tokens : INT_MAX; }
  bool prefill_slot(int prefills) const { return limits_.max_prefill_seqs <= 0 || prefills < limits_.max_prefill_seqs; }

  // Running sequences in admission order: a decode token each, or the next prompt chunk;
  // memory for each, preempting from the back. Returns false if anything was preempted.
  bool schedule_running(Replica& r, int& step_budget, int& step_prefills, bool decodes_only) {
    if (lazy_) return schedule_running_lazy(r, step_budget, step_prefills, decodes_only);
    // Counted in locals, written back at the end (the batch's int vectors written in the loop
    // could alias the references: the compiler would reload them for every sequence).
    int budget = step_budget, prefills = step_prefills;
    bool preempted = false;
    for (std::size_t i = 0; i < r.running.size() && budget > 0;) {
      if (i + kPrefetch < r.running.size()) prefetch(r.running[i + kPrefetch]);
      Seq& s = seqs_[static_cast<std::size_t>(r.running[i])];
      const bool decode = s.computed >= s.prompt_len;
      if (decodes_only && !decode) {
        ++i;
        continue;
      }
      if (!decode && !prefill_slot(prefills)) {
        ++i;
        continue;
      }
      const int n = decode ? 1 : std::min(s.prompt_len - s.computed, budget);
      if (!make_room(r, s, i, n, true, preempted)) break;
      add_item(r, s, r.running[i], i, n, decode);
      budget -= n;
      if (!decode) ++prefills;
      ++i;
    }
    step_budget = budget;
    step_prefills = prefills;
    return !preempted;
  }

  // Memory for n more tokens of s (running[i]), preempting from the back of the running list
  // until they fit, else s itself; `fits` false skips the first try. False when s was preempted.
  bool make_room(Replica& r, Seq& s, std::size_t i, int n, bool fits, bool& preempted) {
    bool ok = fits && reserve(r, s, n);
    while (!ok && r.running.size() - 1 > i) {
      preempt(r, r.running.size() - 1);
      preempted = true;
      ok = reserve(r, s, n);
    }
    if (!ok) {
      preempt(r, i);
      preempted = true;
    }
    return ok;
  }

  // The same pass with lazy sequences (their entries walked, the sequences visited when due).
  bool schedule_running_lazy(Replica& r, int& step_budget, int& step_prefills, bool decodes_only) {
    // Counted in locals, written back at the end (the batch's int vectors written in the loop
    // could alias the references: the compiler would reload them for every sequence).
    int budget = step_budget, prefills = step_prefills;
    bool preempted = false;
    const int tick = r.tick;
    // Lazy sequences passed over: since the last item, in all, and the longest context's key.
    // (Preemption takes from the back, which the pass has not reached; without a token budget
    // the pass goes over every one left.)
    int run = 0, lazy = 0, longest = INT_MIN;
    for (std::size_t i = 0; i < r.running.size() && budget > 0;) {
      // (with lazy sequences skipped, the ones visited are further apart: fetched further ahead)
      if (i + kPrefetchLazy < r.running.size() && r.lazy[i + kPrefetchLazy].due <= tick &&
          r.lazy[i + kPrefetchLazy].e + tick + 1 >= r.lazy[i + kPrefetchLazy].target)  // (its last token)
        prefetch(r.running[i + kPrefetchLazy]);
      LazyEntry& l = r.lazy[i];
      bool ok = true;
      if (l.due > tick) {  // lazy: its decode token, nothing else to do this step
        --budget;
        ++run;
        ++lazy;
        longest = std::max(longest, l.c);
        ++i;
        continue;
      }
      if (l.due != kVisitEveryStep && l.e + tick + 1 < l.target) {  // lazy, due, not its last token:
        ok = kv_.reserve(r, l.c + tick, l.alloc, 1);                // its block (if one) and sample here
        if (ok) {
          --budget;
          ++lazy;
          longest = std::max(longest, l.c);
          const int emitted = l.e + tick;
          if ((emitted & (kPositionSample - 1)) == 0) {
            Item& it = r.items.emplace_back();
            it.seq = r.running[i];
            it.tokens = emitted;
            it.index = static_cast<int>(i);
            it.lazy_before = run;
            it.decode = it.light = true;
            run = 0;
            ++r.light;
          } else {
            ++run;
          }
          l.due = next_due(l, tick + 1);
          ++i;
          continue;
        }
      }
      materialize(r, i);
      Seq& s = seqs_[static_cast<std::size_t>(r.running[i])];
      const bool decode = s.computed >= s.prompt_len;
      if (decodes_only && !decode) {
        ++i;
        continue;
      }
      if (!decode && !prefill_slot(prefills)) {
        ++i;
        continue;
      }
      const int n = decode ? 1 : std::min(s.prompt_len - s.computed, budget);
      if (!make_room(r, s, i, n, ok, preempted)) break;  // (ok false: a lazy one's block did not fit)
      add_item(r, s, r.running[i], i, n, decode);
      r.items.back().lazy_before = run;
      run = 0;
      budget -= n;
      if (!decode) ++prefills;
      ++i;
    }
    step_budget = budget;
    step_prefills = prefills;
    r.lazy_tail = run;
    r.lazy_count = lazy;
    if (lazy > 0) {
      r.batch.more_decodes = lazy;
      r.batch.more_decodes_longest_context = longest + tick + 1;
    }
    return !preempted;
  }

  // The head of the queue, if slots, budget and memory allow: admitted with its first chunk.
  bool admit_head(Replica& r, int& budget, int& prefills, bool whole) {
    if (r.waiting.empty() || static_cast<int>(r.running.size()) >= limits_.max_batch || budget <= 0 ||
        !prefill_slot(prefills))
      return false;
    const int id = r.waiting.front();
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    lookup_prefix(r, s);
    const int left = s.prompt_len - s.computed;
    const int n = whole ? left : std::min(left, budget);
    if ((whole && prefills > 0 && n > budget) || !reserve(r, s, n)) {
      release_all(r, s);
      return false;
    }
    admit(r, id);
    add_item(r, s, id, r.running.size() - 1, n, false);
    budget -= n;
    ++prefills;
    return true;
  }

  // The step's work item and its shape for the step model.
  void add_item(Replica& r, const Seq& s, int id, std::size_t index, int n, bool decode) {
    Item& it = r.items.emplace_back();  // field by field: no temporary through the stack
    it.seq = id;
    it.tokens = n;
    it.index = static_cast<int>(index);
    it.decode = decode;
    if (decode) r.batch.decode_contexts.push_back(s.computed + 1);
    else r.batch.prefills.push_back({n, s.computed, s.computed + n == s.prompt_len});
  }

  // The batch policy fills the step through the StepBuilder below.
  void schedule(Replica& r) {
    r.items.clear();
    r.batch.clear();
    r.loop_ran = false;
    r.loop_items = r.lazy_tail = r.lazy_count = r.light = 0;
    building_ = &r;
    step_budget_ = budget_tokens();
    step_prefills_ = 0;
    batch_policy_->next_batch(*this);
    building_ = nullptr;
  }

  // ---- what the batch policy sees (StepBuilder) -------------------------------------------
  bool continue_running(bool decodes_only) override {
    Replica& r = *building_;
    const bool ok = schedule_running(r, step_budget_, step_prefills_, decodes_only);
    r.loop_ran = true;
    r.loop_items = static_cast<int>(r.items.size());
    return ok;
  }

  bool admit_waiting(bool whole_prompt) override {
    return admit_head(*building_, step_budget_, step_prefills_, whole_prompt);
  }
  bool empty() const override { return building_->items.empty(); }

  void start_step(int ri, double t) {
    Replica& r = replicas_[static_cast<std::size_t>(ri)];
    schedule(r);
    if (r.items.empty() && r.lazy_count == 0) {
      r.busy = false;
      return;
    }
    r.step = model_.step(r.batch);
    r.busy = true;
    r.step_start = t;
    res_.max_running = std::max(res_.max_running, static_cast<int>(r.running.size()));
    res_.peak_kv_fraction = std::max(res_.peak_kv_fraction, r.held() / budget_);
    push(t + std::max(0.0, r.step.time_s), Ev::step_end, ri);
  }

  // ---- step results -------------------------------------------------------------------------
  // Hot per-token paths are noexcept and end_step keeps no local with a destructor: under
  // WebAssembly (JS-based exceptions) a call from a scope needing cleanup goes through a
  // JavaScript trampoline, which would dominate the page's time.
  void gap(double g, bool measured) noexcept {
    if (!measured) return;
    auto& v = res_.token_gaps;
    if (!v.empty() && v.back().first == g) ++v.back().second;
    else v.push_back({g, 1});
  }

  // s gains `n` tokens at t; true when it has them all.
  bool emit(Seq& s, int n, double t, double batch) noexcept {
    const int target = s.target;
    n = std::min(n, target - s.emitted);
    if (n <= 0) return s.emitted >= target;
    if (s.first_token_s < 0) {
      s.first_token_s = t;
    } else {
      const double g = t - s.last_token_s;
      gap(g, s.measured);
      // Every 16th token of a response, for the position series (its bins are >= 16 wide).
      if (s.measured && (s.emitted & (kPositionSample - 1)) == 0) {
        const double v[3] = {g, 1, batch};
        res_.positions.add_point(double(s.emitted), v);
      }
    }
    s.last_token_s = t;
    s.emitted += n;
    step_tokens_ += n;
    return s.emitted >= target;
  }

  // end_step's pass over the step's items (kLazy: with the lazy decode's books, see above).
  template <bool kLazy>
  void end_items(Replica& r, double t, double batch, double per_sequence, double lazy_gap, bool tick, int S,
                 std::size_t loop_items, std::vector<int>& done) {
    (void)lazy_gap, (void)tick, (void)S, (void)loop_items;  // (the lazy pass's)
    for (std::size_t k = 0; k < r.items.size(); ++k) {
      const Item& it = r.items[k];
      if constexpr (kLazy) {
        if (k == loop_items) gaps(lazy_gap, r.lazy_tail);
        gaps(lazy_gap, it.lazy_before);
        if (it.light) {  // a lazy sequence's sampled position (emit's, with the lazy gap)
          gaps(lazy_gap, 1);
          const double v[3] = {lazy_gap, 1, batch};
          res_.positions.add_point(double(it.tokens), v);
          continue;
        }
        if (k + kPrefetch < r.items.size() && !r.items[k + kPrefetch].light) prefetch(r.items[k + kPrefetch].seq);
      } else {
        if (k + kPrefetch < r.items.size()) prefetch(r.items[k + kPrefetch].seq);
      }
      Seq& s = seqs_[static_cast<std::size_t>(it.seq)];
      bool finished = false;
      if (!it.decode) {
        s.computed += it.tokens;
        res_.computed_prefill_tokens += it.tokens;
        insert_blocks(r, s);
        if (s.computed == s.prompt_len) finished = emit(s, 1, t, batch);
      } else {
        int n = 1;
        if (per_sequence != 1) {  // speculative decoding: the expected accepted tokens
          s.credit += per_sequence;
          n = static_cast<int>(std::floor(s.credit));
          s.credit -= n;
          if (n > 1 && !reserve(r, s, n)) n = 1;  // extras that find no memory are dropped
        }
        s.computed += std::max(n, 1);
        finished = emit(s, n, t, batch);
        if (!finished && s.output_blocks) insert_blocks(r, s);  // (not s.c->output_ns: a cache miss per token)
      }
      if (finished) done.push_back(it.seq);
      else if (kLazy && tick && per_sequence == 1 && s.last_token_s == t && s.computed >= s.prompt_len && s.measured &&
               !s.output_blocks)
        make_lazy(r, static_cast<std::size_t>(it.index), s, S);
    }
  }

  void end_step(int ri, double t) {
    Replica& r = replicas_[static_cast<std::size_t>(ri)];
    const StepTime& st = r.step;
    res_.steps++;
    res_.busy_s += t - r.step_start;
    res_.step_split += st.split;
    // The head of the queue is admitted next when a sequence finishes: fetched while the step's
    // tokens are counted (a trip to memory once per request otherwise).
    if (!r.waiting.empty()) prefetch(r.waiting.front());
    const double batch = double(r.items.size()) - double(r.light) + double(r.lazy_count);
    const double per_sequence = st.tokens_per_sequence;  // (a local: the loop's stores could alias st)
    // The lazy sequences' token gaps, where they stand in running order.
    const double lazy_gap = t - r.tick_s;
    const bool tick = lazy_ && r.loop_ran;
    const int S = r.tick + 1;
    const std::size_t loop_items = static_cast<std::size_t>(r.loop_items);
    std::vector<int>& done = done_;
    done.clear();
    if (lazy_) end_items<true>(r, t, batch, per_sequence, lazy_gap, tick, S, loop_items, done);
    else end_items<false>(r, t, batch, per_sequence, lazy_gap, tick, S, loop_items, done);
    if (loop_items >= r.items.size()) gaps(lazy_gap, r.lazy_tail);
    step_tokens_ += r.lazy_count;
    res_.lazy_tokens += r.lazy_count;
    if (tick) {
      r.tick = S;
      r.tick_s = t;
    }
    if (!done.empty() && !r.waiting.empty()) prefetch_call(r.waiting.front());
    for (int id : done) finish(r, id, t);
    res_.output_tokens += step_tokens_;
    const double tokens[5] = {0, 0, 0, 0, step_tokens_};
    res_.series.add_point(t - origin_, tokens);
    step_tokens_ = 0;
    start_step(ri, t);
  }

  void finish(Replica& r, int id, double t) {
    Seq& s = seqs_[static_cast<std::size_t>(id)];
    erase_running(r, static_cast<std::size_t>(std::find(r.running.begin(), r.running.end(), id) - r.running.begin()));
    const double e2e = t - s.arrival_s;
    res_.e2e_s_all += e2e;
    res_.queue_s_all += s.queue_s;
    res_.prompt_tokens += s.c->input_tokens;
    res_.cached_prompt_tokens += std::max(0, s.cached_at_admission);
    if (s.measured) {
      CallRecord rec;
      rec.chain = s.chain;
      rec.call = s.call;
      rec.turn = s.c->turn;
      rec.replica = s.replica;
      rec.session = s.session;
      rec.arrival_s = s.arrival_s;
      rec.first_token_s = s.first_token_s;
      rec.finish_s = t;
      rec.queue_s = s.queue_s;
      rec.input_tokens = s.c->input_tokens;
      rec.output_tokens = s.c->output_tokens;
      rec.cached_tokens = std::max(0, s.cached_at_admission);
      rec.preemptions = s.preemptions;
      rec.kv_bytes_final = kv(s.computed);
      res_.calls.push_back(rec);
    }
    ++calls_done_;
    if (cfg_.on_call_done) cfg_.on_call_done(calls_done_);
    insert_blocks(r, s);
    release_all(r, s);
    const std::int64_t chain = s.chain;
    const int call = s.call;
    const double pause = s.c->pause_after_s;
    free_seq(id);
    --in_system_;
    release_held(t);
    Chain& ch = chains_.at(chain).chain;
    if (static_cast<std::size_t>(call) + 1 < ch.calls.size()) push(t + pause, Ev::call_arrive, chain, call + 1);
    else chain_done(chain, t);
  }

  // The client sends its oldest held calls while the cap allows (SimConfig::max_in_flight); a
  // loop, not a recursion, when a sent call is rejected at once and frees its place again.
  void release_held(double t) {
    if (releasing_) return;
    releasing_ = true;
    while (!held_.empty() && (cfg_.max_in_flight <= 0 || in_system_ < cfg_.max_in_flight)) {
      const auto [held_chain, held_call] = held_.front();
      held_.pop_front();
      arrive(held_chain, held_call, t, true);
    }
    releasing_ = false;
  }

  void chain_done(std::int64_t chain, double t) {
    chains_.erase(chain);
    if (cfg_.closed_loop) pull(t);
  }

  // Asks for a sequence's first cache line ahead of its visit (the loops over a step's
  // sequences are bound by memory latency, not work).
  void prefetch(int id) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&seqs_[static_cast<std::size_t>(id)]);
#else
    (void)id;
#endif
  }

  // The same for a sequence's call (what admitting it reads: its prefix-cache segments).
  void prefetch_call(int id) const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    const Call* c = seqs_[static_cast<std::size_t>(id)].c;
    __builtin_prefetch(c);
    if (!c->segments.empty()) __builtin_prefetch(c->segments.data());
#else
    (void)id;
#endif
  }

  int new_seq() {
    if (!free_.empty()) {
      const int id = free_.back();
      free_.pop_back();
      seqs_[static_cast<std::size_t>(id)] = Seq();
      return id;
    }
    seqs_.emplace_back();
    return static_cast<int>(seqs_.size()) - 1;
  }
  void free_seq(int id) {
    seqs_[static_cast<std::size_t>(id)].refs = {};
    free_.push_back(id);
  }

  // What runs
  const StepModel& model_;
  Source& source_;
  SimConfig cfg_;
  Limits limits_;
  double overhead_s_ = 0, budget_ = 0;
  KvManager kv_;
  std::unique_ptr<Router> router_;
  std::vector<ReplicaLoad> loads_;  // the replicas as the router sees them (route())
  bool router_reads_loads_ = true;
  bool lazy_ = false;  // lazy decode (a step model pricing decodes by their longest context, no token budget)
  std::unique_ptr<BatchPolicy> batch_policy_;
  // The step a batch policy is filling (schedule())
  Replica* building_ = nullptr;
  int step_budget_ = 0, step_prefills_ = 0;
  // The server and the calls in it
  std::vector<Replica> replicas_;
  std::vector<Seq> seqs_;
  std::vector<int> free_;
  std::vector<int> done_;  // end_step's finished sequences (a member: see gap())
  std::deque<std::pair<std::int64_t, int>> held_;  // calls the client holds back (SimConfig::max_in_flight)
  bool releasing_ = false;                          // release_held() is running
  std::size_t calls_done_ = 0;  // calls finished (measured or not), for SimConfig::on_call_done
  std::unordered_map<std::int64_t, ActiveChain> chains_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::uint64_t order_ = 0;
  double now_ = 0, origin_ = 0, step_tokens_ = 0;
  std::int64_t in_system_ = 0, waiting_ = 0;
  SimResult res_;
};

}  // namespace

SimResult simulate(const StepModel& model, Source& source, const SimConfig& config) {
  return Simulator(model, source, config).run();
}

}  // namespace trnsim::serve
