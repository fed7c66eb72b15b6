// The capacity plan as JSON and text (capacity.h): per system the cheapest deployment meeting
// the targets, the Pareto front of price against TTFT and TPOT, and why each rejected family
// failed. outcome_from_json reads an outcome back (shards merged by the CLI).
#include <map>
#include <sstream>

#include "capacity/capacity.h"
#include "common/error.h"
#include "common/format.h"

namespace trnsim::capacity {

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

template <class T>
T field(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(std::string("outcome.") + key, "missing");
  try {
    return j.at(key).get<T>();
  } catch (const std::exception&) {
    throw InputError(std::string("outcome.") + key, "wrong type");
  }
}

std::string stack_text(const Family& f) { return f.stack + (f.scheduler.empty() ? "" : " " + f.scheduler); }

}  // namespace

std::string usd_text(double v) { return "$" + fmt::general(v, 4); }

std::string deployment_text(const Outcome& o) {
  return std::to_string(o.replicas) + " x (tp" + std::to_string(o.family.tp) + " ep" + std::to_string(o.family.ep) +
         " pp" + std::to_string(o.family.pp) + ")";
}

std::string percentile_text(const Result& r) { return "p" + fmt::general(100 * r.target_fraction, 3); }

Table best_table(const Result& R) {
  Table t;
  t.headers = {"system", "deployment", "chips", "weights", "KV cache", "slots", "stack", "$/h", "$/Mtok",
               "tokens/s per MW", "TTFT " + percentile_text(R), "TPOT " + percentile_text(R), "within targets",
               "serve it as"};
  for (const auto& b : R.best) {
    if (b.index < 0) {
      std::vector<std::string> row(t.headers.size(), "");
      row[0] = b.system;
      row[1] = "nothing in the space meets the targets";
      t.rows.push_back(row);
      continue;
    }
    const Outcome& o = R.outcomes[static_cast<std::size_t>(b.index)];
    t.rows.push_back({b.system, deployment_text(o), std::to_string(o.chips), o.family.weights, o.family.kv_cache,
                      std::to_string(o.family.batch_slots), stack_text(o.family), usd_text(o.price_per_hour_usd),
                      usd_text(o.usd_per_million_tokens), fmt::general(o.output_tokens_per_s_per_megawatt, 4),
                      fmt::time(o.ttft_s), fmt::time(o.tpot_s), fmt::percent(o.attainment, 1), o.deployment_system});
  }
  return t;
}

Table front_table(const Result& R) {
  Table t;
  t.headers = {"$/h", "TTFT " + percentile_text(R), "TPOT " + percentile_text(R), "configuration"};
  for (std::size_t i : R.front) {
    const Outcome& o = R.outcomes[i];
    t.rows.push_back({usd_text(o.price_per_hour_usd), fmt::time(o.ttft_s), fmt::time(o.tpot_s),
                      std::to_string(o.replicas) + " x " + o.family.label()});
  }
  return t;
}

Table rejected_table(const Result& R) {
  Table t;
  t.headers = {"family", "decided by", "why"};
  for (const auto& o : R.outcomes)
    if (!o.meets) t.rows.push_back({o.family.label(), o.rejected_by, o.reason});
  return t;
}

json outcome_to_json(const Outcome& o) {
  const Family& f = o.family;
  json j = {{"family",
             {{"system", f.system}, {"tp", f.tp}, {"ep", f.ep}, {"pp", f.pp}, {"weights", f.weights},
              {"kv_cache", f.kv_cache}, {"batch_slots", f.batch_slots}, {"stack", f.stack}, {"scheduler", f.scheduler}}},
            {"label", f.label()},
            {"meets", o.meets},
            {"rejected_by", o.rejected_by},
            {"reason", o.reason},
            {"replicas", o.replicas},
            {"chips_per_replica", o.chips_per_replica},
            {"chips", o.chips},
            {"deployment_system", o.deployment_system},
            {"price_per_hour_usd", o.price_per_hour_usd},
            {"usd_per_million_tokens", o.usd_per_million_tokens},
            {"output_tokens_per_s_per_megawatt", o.output_tokens_per_s_per_megawatt},
            {"ttft_s", o.ttft_s},
            {"tpot_s", o.tpot_s},
            {"attainment", o.attainment},
            {"output_tokens_per_s", o.output_tokens_per_s},
            {"zero_load_ttft_s", o.zero_load_ttft_s},
            {"zero_load_tpot_s", o.zero_load_tpot_s},
            {"ceiling_tokens_per_s_per_replica", o.ceiling_tokens_per_s},
            {"bound_replicas", o.bound_replicas},
            {"simulations", o.simulations}};
  return j;
}

Outcome outcome_from_json(const json& j) {
  Outcome o;
  const json& f = j.contains("family") ? j.at("family") : json();
  o.family = Family{field<std::string>(f, "system"), field<int>(f, "tp"), field<int>(f, "ep"), field<int>(f, "pp"),
                    field<std::string>(f, "weights"), field<std::string>(f, "kv_cache"), field<int>(f, "batch_slots"),
                    field<std::string>(f, "stack"), field<std::string>(f, "scheduler")};
  o.meets = field<bool>(j, "meets");
  o.rejected_by = field<std::string>(j, "rejected_by");
  o.reason = field<std::string>(j, "reason");
  o.replicas = field<int>(j, "replicas");
  o.chips_per_replica = field<int>(j, "chips_per_replica");
  o.chips = field<int>(j, "chips");
  o.deployment_system = field<std::string>(j, "deployment_system");
  o.price_per_hour_usd = field<double>(j, "price_per_hour_usd");
  o.usd_per_million_tokens = field<double>(j, "usd_per_million_tokens");
  o.output_tokens_per_s_per_megawatt = field<double>(j, "output_tokens_per_s_per_megawatt");
  o.ttft_s = field<double>(j, "ttft_s");
  o.tpot_s = field<double>(j, "tpot_s");
  o.attainment = field<double>(j, "attainment");
  o.output_tokens_per_s = field<double>(j, "output_tokens_per_s");
  o.zero_load_ttft_s = field<double>(j, "zero_load_ttft_s");
  o.zero_load_tpot_s = field<double>(j, "zero_load_tpot_s");
  o.ceiling_tokens_per_s = field<double>(j, "ceiling_tokens_per_s_per_replica");
  o.bound_replicas = field<int>(j, "bound_replicas");
  o.simulations = field<int>(j, "simulations");
  return o;
}

json result_to_json(const Result& R) {
  json best = json::array();
  for (const auto& b : R.best)
    best.push_back({{"system", b.system},
                    {"meets", b.index >= 0},
                    {"configuration", b.index >= 0 ? outcome_to_json(R.outcomes[b.index]) : json(nullptr)}});
  json front = json::array();
  for (std::size_t i : R.front) front.push_back(outcome_to_json(R.outcomes[i]));
  json all = json::array();
  for (const auto& o : R.outcomes) all.push_back(outcome_to_json(o));
  json rejected = json::object();
  for (const auto& [why, n] : rejected_counts(R)) rejected[why] = n;
  return {{"name", R.name},
          {"model", R.model},
          {"traffic", R.traffic},
          {"offered_output_tokens_per_s", R.offered_output_tokens_per_s},
          {"targets", {{"ttft_s", opt(R.target_ttft_s)}, {"tpot_s", opt(R.target_tpot_s)}, {"fraction", R.target_fraction}}},
          {"max_chips", R.max_chips},
          {"families", R.outcomes.size()},
          {"configurations", R.configurations},
          {"simulations", R.simulations},
          {"rejected", rejected},
          {"best", best},
          {"front", front},
          {"outcomes", all}};
}

std::map<std::string, int> rejected_counts(const Result& R) {
  std::map<std::string, int> by;
  for (const auto& o : R.outcomes)
    if (!o.meets) ++by[o.rejected_by];
  return by;
}

std::string summary_text(const Result& R) {
  std::ostringstream s;
  s << "Capacity plan: " << R.model << ", " << R.traffic;
  if (R.offered_output_tokens_per_s > 0) s << ", " << fmt::general(R.offered_output_tokens_per_s, 6) << " output tokens/s offered";
  s << "\nTargets: " << fmt::percent(R.target_fraction, 0) << " of requests within";
  if (R.target_ttft_s) s << " TTFT " << fmt::time(*R.target_ttft_s);
  if (R.target_ttft_s && R.target_tpot_s) s << " and";
  if (R.target_tpot_s) s << " TPOT " << fmt::time(*R.target_tpot_s);
  s << "\nSearched " << R.outcomes.size() << " families (" << R.configurations << " configurations up to " << R.max_chips
    << " chips) with " << R.simulations << " simulations at the offered load\n";
  return s.str();
}

std::string result_to_text(const Result& R) {
  std::ostringstream s;
  if (!R.name.empty()) s << R.name << "\n\n";
  s << summary_text(R);
  const std::string pct = percentile_text(R);
  s << "\nCheapest per system (latency at " << pct << "):\n";
  const Table best = best_table(R);
  for (std::size_t k = 0; k < R.best.size(); ++k) {
    const auto& c = best.rows[k];
    if (R.best[k].index < 0) {
      s << "  " << c[0] << ": " << c[1] << "\n";
      continue;
    }
    s << "  " << c[0] << ": " << c[1] << " = " << c[2] << " chips, " << c[3] << " weights, " << c[4] << " KV, " << c[5]
      << " slots, " << c[6] << "\n      " << c[7] << "/h, " << c[8] << "/Mtok, " << c[9] << " tokens/s per MW; TTFT "
      << c[10] << ", TPOT " << c[11] << ", " << c[12] << " within targets; serve it as " << c[13] << "\n";
  }
  s << "\nPareto front (price vs TTFT and TPOT at " << pct << "):\n";
  for (const auto& c : front_table(R).rows) s << "  " << c[0] << "/h  TTFT " << c[1] << "  TPOT " << c[2] << "  " << c[3] << "\n";
  const std::map<std::string, int> by = rejected_counts(R);
  if (!by.empty()) {
    s << "\nRejected families:\n";
    for (const auto& [why, n] : by) s << "  " << why << ": " << n << "\n";
    for (const auto& c : rejected_table(R).rows) s << "  - " << c[0] << ": " << c[2] << "\n";
  }
  return s.str();
}

}  // namespace trnsim::capacity
