// `trnsim compare A.json B.json [--json]`: two scenarios side by side -- each evaluated on
// its own system -- with the ratio A/B of every headline figure. Typical use: the same
// model on two systems, each at its own best precision and placement
// (examples/gpt-oss-120b-trn3-gen2.json vs examples/gpt-oss-120b-trn2-ultraserver.json).
#include <cstdio>
#include <ostream>

#include "cli.h"
#include "hw/system.h"
#include "scenario/scenario.h"
#include "workload/workload.h"

namespace {

using trnsim::InputError;
using trnsim::json;
namespace wl = trnsim::workload;

struct Evaluated {
  std::string path;
  trnsim::Scenario scenario;
  trnsim::hw::System system;
  wl::Result result;
};

// Errors name the file first, then the field inside it.
[[noreturn]] void rethrow_for(const std::string& path, const InputError& e) {
  std::string what = e.what();
  if (what.rfind(path, 0) == 0) throw e;
  throw InputError(path, what);
}

Evaluated load(const std::string& path, trnsim::cli::Io& io) {
  Evaluated ev;
  ev.path = path;
  std::string text = trnsim::cli::read_file(path, io);
  try {
    ev.scenario = trnsim::parse_scenario(text, path);
    ev.system = trnsim::hw::load_system(ev.scenario.system);
    ev.result = wl::evaluate(ev.scenario.workload, ev.system);
  } catch (const InputError& e) {
    rethrow_for(path, e);
  }
  return ev;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string fmt_time(double s) {
  if (s >= 1.0) return fmt("%.3f s", s);
  if (s >= 1e-3) return fmt("%.3f ms", s * 1e3);
  return fmt("%.2f us", s * 1e6);
}

enum class Kind { time, rate, fraction, bytes, usd, watts };

std::string show(Kind k, double v) {
  switch (k) {
    case Kind::time: return fmt_time(v);
    case Kind::rate: return v >= 100 ? fmt("%.0f", v) : fmt("%.2f", v);
    case Kind::fraction: return fmt("%.1f%%", v * 100);
    case Kind::bytes: return fmt("%.1f GiB", v / (1024.0 * 1024.0 * 1024.0));
    case Kind::usd: return fmt("$%.3f", v);
    case Kind::watts: return fmt("%.0f W", v);
  }
  return "";
}

struct Row {
  std::string key, label;
  Kind kind;
  bool higher_is_better;
  bool has_a, has_b;
  double a, b;
};

std::vector<Row> rows(const wl::Result& A, const wl::Result& B) {
  std::vector<Row> out;
  auto add = [&](const std::string& key, const std::string& label, Kind k, bool hib, bool in_a, double a, bool in_b,
                 double b) { out.push_back({key, label, k, hib, in_a, in_b, a, b}); };
  const bool ia = A.kind == "inference", ib = B.kind == "inference";
  add("ttft_s", "time to first token", Kind::time, false, ia, A.ttft_s, ib, B.ttft_s);
  add("tpot_s", "time per output token", Kind::time, false, ia && A.tpot_s > 0, A.tpot_s, ib && B.tpot_s > 0, B.tpot_s);
  add("request_latency_s", "request latency", Kind::time, false, ia, A.request_latency_s, ib, B.request_latency_s);
  add("output_tokens_per_s_per_chip", "output tokens/s per chip", Kind::rate, true, ia, A.output_tokens_per_s_per_chip,
      ib, B.output_tokens_per_s_per_chip);
  add("output_tokens_per_s_per_server", "output tokens/s per server", Kind::rate, true, ia,
      A.output_tokens_per_s_per_server, ib, B.output_tokens_per_s_per_server);
  add("output_tokens_per_s_per_system", "output tokens/s per system", Kind::rate, true, ia,
      A.output_tokens_per_s_per_system, ib, B.output_tokens_per_s_per_system);
  add("step_time_s", "training step time", Kind::time, false, !ia, A.step_time_s, !ib, B.step_time_s);
  add("training_tokens_per_s", "training tokens/s", Kind::rate, true, !ia, A.training_tokens_per_s, !ib,
      B.training_tokens_per_s);
  add("training_tokens_per_s_per_chip", "training tokens/s per chip", Kind::rate, true, !ia,
      A.training_tokens_per_s_per_chip, !ib, B.training_tokens_per_s_per_chip);
  add("mfu", "MFU", Kind::fraction, true, !ia, A.mfu, !ib, B.mfu);
  add("hbm_used_bytes", "HBM used per chip", Kind::bytes, false, true, A.hbm_used_bytes, true, B.hbm_used_bytes);
  add("chip_power_watts", "chip power (assumption)", Kind::watts, false, true, A.chip_power_watts, true,
      B.chip_power_watts);
  add("tokens_per_s_per_megawatt", "tokens/s per MW", Kind::rate, true, true, A.tokens_per_s_per_megawatt, true,
      B.tokens_per_s_per_megawatt);
  add("usd_per_million_tokens", "USD per million tokens", Kind::usd, false, true, A.usd_per_million_tokens, true,
      B.usd_per_million_tokens);
  add("compute_share", "time in compute", Kind::fraction, true, true, A.compute_share, true, B.compute_share);
  add("hbm_share", "time in HBM", Kind::fraction, false, true, A.hbm_share, true, B.hbm_share);
  add("fabric_share", "time in fabric", Kind::fraction, false, true, A.fabric_share, true, B.fabric_share);
  add("overhead_share", "time in kernel overhead", Kind::fraction, false, true, A.overhead_share, true,
      B.overhead_share);
  return out;
}

std::string pad(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }

std::string describe(const Evaluated& e) {
  const auto& r = e.result;
  const auto& p = e.scenario.workload.parallelism;
  return r.model.name + " " + r.kind + " on " + r.system_display_name + ", tp " + std::to_string(p.tp) + " pp " +
         std::to_string(p.pp) + " dp " + std::to_string(p.dp) + " ep " + std::to_string(p.ep) + ", matmuls " +
         r.matmul_dtype + ", weights " + r.weights_dtype;
}

int run_compare(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {}, {"json"});
  args.expect_positional({"A.json", "B.json"});
  Evaluated A = load(args.positional()[0], io);
  Evaluated B = load(args.positional()[1], io);
  std::vector<Row> table = rows(A.result, B.result);

  if (args.flag("json")) {
    json j;
    auto side = [](const Evaluated& e) {
      return json{{"file", e.path},
                  {"scenario", trnsim::scenario_to_json(e.scenario)},
                  {"result", wl::result_to_json(e.result)}};
    };
    j["a"] = side(A);
    j["b"] = side(B);
    json ratios = json::object();
    for (const auto& r : table)
      ratios[r.key] = (r.has_a && r.has_b && r.a > 0 && r.b > 0) ? json(r.a / r.b) : json(nullptr);
    j["ratios"] = ratios;
    io.out << j.dump(2) << "\n";
    return 0;
  }

  io.out << "A: " << A.path << (A.scenario.name.empty() ? "" : " (" + A.scenario.name + ")") << "\n   "
         << describe(A) << "\n";
  io.out << "B: " << B.path << (B.scenario.name.empty() ? "" : " (" + B.scenario.name + ")") << "\n   "
         << describe(B) << "\n\n";
  io.out << pad("", 30) << pad("A", 18) << pad("B", 18) << pad("A/B", 10) << "better\n";
  for (const auto& r : table) {
    if (!r.has_a && !r.has_b) continue;
    std::string ratio = "-", better = "-";
    if (r.has_a && r.has_b && r.a > 0 && r.b > 0) {
      double q = r.a / r.b;
      ratio = fmt("%.2fx", q);
      if (r.kind != Kind::fraction && r.key != "chip_power_watts" && r.key != "hbm_used_bytes")
        better = q == 1.0 ? "=" : ((q > 1.0) == r.higher_is_better ? "A" : "B");
    }
    io.out << pad("  " + r.label, 30) << pad(r.has_a ? show(r.kind, r.a) : "-", 18)
           << pad(r.has_b ? show(r.kind, r.b) : "-", 18) << pad(ratio, 10) << better << "\n";
  }
  io.out << "\nAssumptions differ? Check each side's list with `trnsim run FILE` (power, price and "
            "efficiencies are explicit in workload.economics / workload.efficiency).\n";
  return 0;
}

}  // namespace

TRNSIM_COMMAND("compare", "two scenarios side by side, with ratios of every headline figure",
               "Usage: trnsim compare A.json B.json [--json]\n"
               "  Evaluates each scenario on its own system (its compare_system is ignored) and prints\n"
               "  TTFT, time per token, throughput per chip/server/system (or training step, tokens/s,\n"
               "  MFU), HBM use, tokens per MW, cost per million tokens and the time shares, with A/B.\n"
               "  --json   {a: {file, scenario, result}, b: {...}, ratios: {metric: A/B or null}}\n"
               "Exit codes: 0 ok, 2 bad input (the message names the file and the field).\n",
               run_compare);
