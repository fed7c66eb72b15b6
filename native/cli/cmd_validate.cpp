// `trnsim validate [--json]`: the model against every public Trainium2/Trainium3 measurement
// and claim collected in PERF.md and FACTS.md, with the error of each. Measurements are
// Neuron documentation benchmarks on trn2.48xlarge (PERF rows 1-14); claims are AWS's
// Trn3-vs-Trn2 statements, which the model should explain, not be fitted to. Rows marked
// "cal" were used to calibrate the two software defaults (matmul efficiency, kernel
// overhead); the others are predictions. Rows the model cannot reproduce (speculative
// decoding, other clouds) say so instead of inventing a number.
#include <cmath>
#include <cstdio>
#include <ostream>

#include "cli.h"
#include "embedded.h"
#include "progress.h"
#include "hw/system.h"
#include "collective/collective.h"
#include "scenario/scenario.h"
#include "workload/workload.h"

namespace {

using trnsim::json;
namespace wl = trnsim::workload;
namespace hw = trnsim::hw;
namespace collective = trnsim::collective;

struct Row {
  std::string id;
  std::string source;
  std::string figure;
  std::string unit;  // "ms", "us", "tok/s", "x"
  double published = 0;
  bool modeled = true;
  double model = 0;
  bool calibration = false;
  std::string note;
};

const hw::System& sys(const std::string& name) {
  static std::map<std::string, hw::System> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, hw::load_system(name)).first;
  return it->second;
}

wl::Result infer(const std::string& model, int tp, int batch, int in, int out, const std::string& dtype = "bf16") {
  json spec = {{"model", model},
               {"precision", {{"weights", dtype}, {"attention_weights", dtype}, {"activations", dtype}, {"kv_cache", "bf16"}}},
               {"parallelism", {{"tp", tp}}},
               {"inference", {{"batch", batch}, {"input_tokens", in}, {"output_tokens", out}}}};
  return wl::evaluate(trnsim::parse_workload(spec), sys("trn2-48xlarge"));
}

wl::Result example(const std::string& file) {
  const std::string* text = trnsim::find_embedded("examples/" + file);
  if (!text) throw std::logic_error("examples/" + file + " is not embedded");
  trnsim::Scenario s = trnsim::parse_scenario(*text, file);
  return wl::evaluate(s.workload, sys(s.system));
}

// The example's service at the placement and batch that give the most output tokens/s per
// chip (tp 1-8, 1-256 streams, one replica), optionally under a time-per-token target.
wl::Result best_point(const std::string& file, double max_tpot_s) {
  const std::string* text = trnsim::find_embedded("examples/" + file);
  if (!text) throw std::logic_error("examples/" + file + " is not embedded");
  trnsim::Scenario s = trnsim::parse_scenario(*text, file);
  const hw::System& system = sys(s.system);
  wl::Result best;
  bool found = false;
  for (int tp : {1, 2, 4, 8})
    for (int batch = 1; batch <= 256; batch *= 2) {
      wl::Spec w = s.workload;
      w.parallelism = {tp, 1, 1, 1};
      w.inference.batch = batch;
      try {
        wl::Result r = wl::evaluate(w, system);
        if (r.tpot_s > max_tpot_s) continue;
        if (!found || r.output_tokens_per_s_per_chip > best.output_tokens_per_s_per_chip) best = r, found = true;
      } catch (const trnsim::InputError&) {
        // does not fit at this tp and batch
      }
    }
  if (!found) throw std::logic_error("no feasible point for " + file);
  return best;
}

std::string point_note(const wl::Result& a, const wl::Result& b) {
  auto one = [](const wl::Result& r) {
    return "TP" + std::to_string(r.spec.parallelism.tp) + " x " + std::to_string(r.spec.inference.batch);
  };
  return "Trn3 " + one(a) + " streams vs Trn2 " + one(b) + "; the model's best points";
}

double phase_part(const wl::Result& r, const std::string& phase, const std::string& what) {
  for (const auto& p : r.phases) {
    if (p.name != phase) continue;
    if (what == "compute") return p.compute_s + p.overhead_s;
    if (what == "fabric") return p.fabric_s;
    if (what == "hbm") return p.hbm_s;
    return p.time_s;
  }
  return 0;
}

double collective_us(const std::string& system, const std::string& op, double bytes, int ranks) {
  collective::Request req;
  req.op = op;
  req.bytes = bytes;
  req.ranks = ranks;
  return collective::run(sys(system), req).time_s * 1e6;
}

std::vector<Row> build_rows(trnsim::cli::Progress& progress) {
  std::vector<Row> rows;
  auto add = [&](Row r) { rows.push_back(std::move(r)), progress.update(rows.size()); };
  const std::string A = "PERF [A] ", C = "PERF [C] ";

  // Llama-3.3-70B (same shapes as 3.1-70B), trn2.48xlarge TP64 at LNC=2 = 16 chips.
  wl::Result r1 = infer("Llama-3.1-70B", 16, 1, 10000, 1500);
  add({"1", A + "llama70b_perf_comparison.csv", "Llama-3.3-70B BF16, TP64 (16 chips), 10000 in, TTFT", "ms", 814.2,
       true, r1.ttft_s * 1e3, true, "harness TTFT (LLMPerf) includes scheduling"});
  add({"1", A + "llama70b_perf_comparison.csv", "Llama-3.3-70B BF16, TP64 (16 chips), TPOT", "ms", 19.6, true,
       r1.tpot_s * 1e3, true, ""});
  add({"1", A + "llama70b_perf_comparison.csv", "Llama-3.3-70B BF16, TP64, output tok/s (concurrency 1)", "tok/s", 36,
       true, r1.output_tokens_per_s_per_replica, false,
       "the published tok/s disagrees with its own TTFT and TPOT (1500 / (0.81 + 1499 x 0.0196) = 50)"});
  add({"2", A + "llama70b_perf_comparison.csv", "same + fused speculation (1B draft, k=7), TPOT", "ms", 5.3, false, 0,
       false, "speculative decoding not modeled"});
  wl::Result r3 = infer("Llama-3.1-405B", 16, 1, 10000, 1500);
  add({"3", A + "llama405b_perf_comparison.csv", "Llama-3.1-405B BF16, TP64 (16 chips), TTFT", "ms", 2442, true,
       r3.ttft_s * 1e3, true, ""});
  add({"3", A + "llama405b_perf_comparison.csv", "Llama-3.1-405B BF16, TP64, TPOT", "ms", 37.9, true, r3.tpot_s * 1e3,
       true, ""});
  add({"3", A + "llama405b_perf_comparison.csv", "Llama-3.1-405B BF16, TP64, output tok/s", "tok/s", 25.5, true,
       r3.output_tokens_per_s_per_replica, false, ""});
  add({"4", A + "llama405b_perf_comparison.csv", "405B FP8 MLP weights + fused speculation, TPOT", "ms", 8.27, false, 0,
       false, "speculative decoding not modeled"});
  wl::Result r5 = infer("gpt-oss-120b", 4, 1, 512, 128);
  add({"5", A + "tutorial-eagle3 (gpt-oss)", "gpt-oss-120b BF16, TP16 (4 chips), 512/128, TPOT", "ms", 7.00, true,
       r5.tpot_s * 1e3, true, "published as illustrative"});
  add({"5", A + "tutorial-eagle3 (gpt-oss)", "gpt-oss-120b BF16, TP16, TTFT", "ms", 252.3, true, r5.ttft_s * 1e3, false,
       "vLLM TTFT includes request handling"});
  add({"5", A + "tutorial-eagle3 (gpt-oss)", "gpt-oss-120b BF16, TP16, output tok/s", "tok/s", 112.1, true,
       r5.output_tokens_per_s_per_replica, false, ""});
  wl::Result r6 = infer("Llama-3.1-8B", 2, 2, 512, 128);
  add({"6", A + "tutorial-eagle3 (llama-3.1)", "Llama-3.1-8B, TP8 (2 chips), 2 concurrent, TPOT", "ms", 10.52, true,
       r6.tpot_s * 1e3, true, ""});
  add({"6", A + "tutorial-eagle3 (llama-3.1)", "Llama-3.1-8B, TP8, TTFT", "ms", 51.1, true, r6.ttft_s * 1e3, false, ""});
  add({"6", A + "tutorial-eagle3 (llama-3.1)", "Llama-3.1-8B, TP8, output tok/s (2 streams)", "tok/s", 184.4, true,
       r6.output_tokens_per_s_per_replica, false, ""});
  wl::Result r7 = infer("DeepSeek-V3", 16, 1, 256, 256);
  add({"7", C + "DeepSeek-V3/README.md", "DeepSeek-V3 BF16, TP64 (16 chips), 256/256, TPOT", "ms", 20.5, true,
       r7.tpot_s * 1e3, true, ""});
  add({"7", C + "DeepSeek-V3/README.md", "DeepSeek-V3 BF16, TP64, TTFT", "ms", 1667, true, r7.ttft_s * 1e3, false,
       "community port; its prefill is far slower than any roofline"});
  add({"7", C + "DeepSeek-V3/README.md", "DeepSeek-V3 BF16, TP64, end to end", "ms", 7057, true,
       r7.request_latency_s * 1e3, false, ""});
  const int batches[] = {1, 2, 4, 8};
  const double itl[] = {22.2, 30.5, 37.1, 47.6};
  for (int i = 0; i < 4; ++i) {
    wl::Result r = infer("DeepSeek-V3", 16, batches[i], 200, 200);
    add({"8", C + "DeepSeek-V3/README.md", "DeepSeek-V3 ITL at batch " + std::to_string(batches[i]), "ms", itl[i], true,
         r.tpot_s * 1e3, false, i == 3 ? "the port's MoE cost grows faster with batch than uniform routing predicts" : ""});
  }
  wl::Result r9 = infer("DeepSeek-V3", 16, 1, 200, 200);
  add({"9", C + "DeepSeek-V3/README.md", "DeepSeek-V3 decode step (profiled)", "ms", 19, true,
       phase_part(r9, "decode", "all") * 1e3, false, ""});
  add({"9", C + "DeepSeek-V3/README.md", "  of which compute (+ kernel overhead)", "ms", 12, true,
       phase_part(r9, "decode", "compute") * 1e3, false, ""});
  add({"9", C + "DeepSeek-V3/README.md", "  of which collectives", "ms", 3, true, phase_part(r9, "decode", "fabric") * 1e3,
       false, ""});
  add({"9", C + "DeepSeek-V3/README.md", "  of which weight reads (HBM)", "ms", 3, true, phase_part(r9, "decode", "hbm") * 1e3,
       false, ""});

  // nccom-test examples: instance types are not stated; ranks are priced as chips of a trn2.48xlarge.
  const std::string N = "PERF [A] nccom-test.rst";
  const std::string rank_note = "ranks priced as Trainium2 chips; the run's instance and LNC are not stated";
  add({"10", N, "all-reduce, 2 ranks, 1 GiB", "us", 18930, true,
       collective_us("trn2-48xlarge", "all-reduce", 1024.0 * 1024 * 1024, 2), false, rank_note});
  add({"10", N, "all-reduce, 2 ranks, 1 KiB (latency floor)", "us", 58, true,
       collective_us("trn2-48xlarge", "all-reduce", 1024, 2), false, rank_note});
  add({"11", N, "all-reduce, 16 ranks, 2 MiB", "us", 686, true,
       collective_us("trn2-48xlarge", "all-reduce", 2.0 * 1024 * 1024, 16), false, rank_note});
  add({"11", N, "all-reduce, 16 ranks, 32 MiB", "us", 2754, true,
       collective_us("trn2-48xlarge", "all-reduce", 32.0 * 1024 * 1024, 16), false, rank_note});
  add({"11", N, "all-reduce, 16 ranks, 512 MiB", "us", 9690, true,
       collective_us("trn2-48xlarge", "all-reduce", 512.0 * 1024 * 1024, 16), false, rank_note});
  add({"12", N, "all-gather, 8 ranks, 512 KiB", "us", 14.8, true,
       collective_us("trn2-48xlarge", "all-gather", 512.0 * 1024, 8), false, rank_note});
  add({"13", N, "all-reduce, 64 ranks on 2 instances, 8 B", "us", 520, false, 0, false,
       "32 ranks per instance matches neither Trn2 LNC setting (likely Trn1); not modeled"});
  const hw::System& t2 = sys("trn2-48xlarge:2");
  add({"14", "PERF [A] internode-collective-comm.rst", "hop latency between nodes", "us", 15, true,
       (t2.fabric_spec.efa_latency_s + t2.fabric_spec.step_overhead_s) * 1e6, false, "hardware data (EFA latency + step)"});

  // Claims: Trn3 Gen2 UltraServer vs Trn2 UltraServer, from the bundled example pair.
  wl::Result g3 = example("gpt-oss-120b-trn3-gen2.json");
  wl::Result g2 = example("gpt-oss-120b-trn2-ultraserver.json");
  const std::string CL = "claim (AWS launch, press)";
  add({"C1", CL, "GPT-OSS throughput per chip, Trn3 / Trn2 UltraServer", "x", 3.0, true,
       g3.output_tokens_per_s_per_chip / g2.output_tokens_per_s_per_chip, false,
       "examples/gpt-oss-120b-trn{3-gen2,2-ultraserver}.json; see docs/workloads.md"});
  add({"C2", CL, "GPT-OSS 'faster responses' (request latency), Trn3 / Trn2", "x", 4.0, true,
       g2.request_latency_s / g3.request_latency_s, false, "which latency AWS means is not stated"});
  add({"C3", "claim (Amazon Bedrock benchmark data)", "output tokens per megawatt, Trn3 / Trn2", "x", 5.0, true,
       g3.tokens_per_s_per_megawatt / g2.tokens_per_s_per_megawatt, false,
       "driven by the unpublished chip powers (1000 W vs 500 W assumed)"});
  const hw::System& us3 = sys("trn3-gen2-ultraserver");
  const hw::System& us2 = sys("trn2-ultraserver");
  auto best_peak = [](const hw::System& s) { return std::max({s.peak_flops("fp8"), s.peak_flops("mxfp8"), s.peak_flops("mxfp4")}); };
  // The same service at each system's own best operating point, with and without a per-user
  // speed target (which point AWS measured is not published).
  wl::Result b3 = best_point("gpt-oss-120b-trn3-gen2.json", 1e9), b2 = best_point("gpt-oss-120b-trn2-ultraserver.json", 1e9);
  add({"C1b", CL, "GPT-OSS per chip, each system at its best throughput", "x", 3.0, true,
       b3.output_tokens_per_s_per_chip / b2.output_tokens_per_s_per_chip, false, point_note(b3, b2)});
  add({"C3b", "claim (Amazon Bedrock benchmark data)", "tokens per MW, each system at its best throughput", "x", 5.0,
       true, b3.tokens_per_s_per_megawatt / b2.tokens_per_s_per_megawatt, false, "chip powers 1000 W vs 500 W assumed"});
  wl::Result f3 = best_point("gpt-oss-120b-trn3-gen2.json", 0.010), f2 = best_point("gpt-oss-120b-trn2-ultraserver.json", 0.010);
  add({"C3c", "claim (Amazon Bedrock benchmark data)", "tokens per MW, best points with TPOT <= 10 ms", "x", 5.0, true,
       f3.tokens_per_s_per_megawatt / f2.tokens_per_s_per_megawatt, false, point_note(f3, f2)});
  add({"C4", CL, "UltraServer compute (dense FP8/MXFP8 peak), Gen2 / Trn2", "x", 4.4, true, best_peak(us3) / best_peak(us2),
       false, "hardware data"});
  add({"C5", CL, "UltraServer memory bandwidth, Gen2 / Trn2", "x", 3.9, true,
       us3.hbm_bandwidth_bytes_per_s() / us2.hbm_bandwidth_bytes_per_s(), false, "hardware data"});
  add({"C6", CL, "energy efficiency (peak FP8 FLOP/s per chip watt), Trn3 / Trn2", "x", 4.0, true,
       (best_peak(us3) / us3.chips / us3.chip.power_watts) / (best_peak(us2) / us2.chips / us2.chip.power_watts), false,
       "chip powers are assumptions (hardware data)"});
  add({"C7", "claim (AWS)", "Trainium3 'up to 3x faster' (chip FP8 peak), Trn3 / Trn2", "x", 3.0, true,
       best_peak(us3) / us3.chips / (best_peak(us2) / us2.chips), false, "peak only; see C1 for a workload"});
  add({"C8", "claim (AWS)", "Llama-3.1-405B on Bedrock (Trn2): 3x token throughput vs other clouds", "x", 3.0, false, 0,
       false, "other clouds are not modeled"});
  // Neuron documentation ratios (S1), chip level.
  const hw::Chip& c3 = us3.chip;
  const hw::Chip& c2 = us2.chip;
  const std::string S1 = "FACTS S1 (Neuron docs ratios)";
  add({"D1", S1, "FP8 peak, Trainium3 / Trainium2", "x", 2.0, true, best_peak(us3) / us3.chips / (c2.peak("fp8")), false, ""});
  add({"D2", S1, "BF16 peak, Trainium3 / Trainium2", "x", 1.0, true, c3.peak("bf16") / c2.peak("bf16"), false, ""});
  add({"D3", S1, "HBM capacity, Trainium3 / Trainium2", "x", 1.5, true, c3.hbm_capacity_bytes / c2.hbm_capacity_bytes,
       false, ""});
  add({"D4", S1, "HBM bandwidth, Trainium3 / Trainium2", "x", 1.7, true,
       c3.hbm_bandwidth_bytes_per_s / c2.hbm_bandwidth_bytes_per_s, false, ""});
  add({"D5", S1, "interconnect, Trainium3 / Trainium2", "x", 2.0, true,
       c3.link_bandwidth_bytes_per_s / c2.link_bandwidth_bytes_per_s, false, ""});
  return rows;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string show(double v, const std::string& unit) {
  if (unit == "x") return fmt("%.2f", v) + "x";
  if (v >= 1000) return fmt("%.0f", v) + " " + unit;
  if (v >= 100) return fmt("%.1f", v) + " " + unit;
  return fmt("%.2f", v) + " " + unit;
}

std::string pad(const std::string& s, std::size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); }
std::string lpad(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

int run_validate(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {}, {"json"});
  args.expect_positional({});
  trnsim::cli::Progress progress(io.err, "validate", "rows", 0, true);  // the row count is known only at the end
  std::vector<Row> rows = build_rows(progress);
  progress.finish();
  int modeled = 0, within25 = 0, far = 0, measured = 0, measured_within25 = 0;
  std::vector<std::string> far_rows;
  for (const auto& r : rows) {
    if (!r.modeled) continue;
    ++modeled;
    double err = (r.model - r.published) / r.published;
    double a = std::fabs(err);
    if (a <= 0.25) ++within25;
    if (a > 0.5) {
      ++far;
      far_rows.push_back(r.id + " " + r.figure);
    }
    bool is_measurement = !r.id.empty() && r.id[0] >= '0' && r.id[0] <= '9';
    if (is_measurement && !r.calibration) {
      ++measured;
      if (a <= 0.25) ++measured_within25;
    }
  }
  if (args.flag("json")) {
    json out;
    json arr = json::array();
    for (const auto& r : rows) {
      json j = {{"id", r.id}, {"source", r.source}, {"figure", r.figure}, {"unit", r.unit}, {"published", r.published}};
      j["model"] = r.modeled ? json(r.model) : json(nullptr);
      j["error"] = r.modeled ? json((r.model - r.published) / r.published) : json(nullptr);
      j["calibration"] = r.calibration;
      j["note"] = r.note;
      arr.push_back(j);
    }
    out["rows"] = arr;
    out["summary"] = {{"modeled", modeled},
                      {"within_25_percent", within25},
                      {"off_by_more_than_50_percent", far},
                      {"uncalibrated_measurements", measured},
                      {"uncalibrated_measurements_within_25_percent", measured_within25}};
    io.out << out.dump(2) << "\n";
    return 0;
  }
  io.out << "trnsim validate: the model against published Trainium2/Trainium3 figures (PERF.md, FACTS.md)\n"
            "Measurements are Neuron benchmarks on trn2.48xlarge (TP counts logical cores: TP64 = 16 chips at LNC=2).\n"
            "Rows marked cal calibrated the defaults efficiency.compute = 0.5 and kernel_overhead_s = 20 us;\n"
            "claims (C*) are explained, not fitted. Error = (model - published) / published.\n\n";
  io.out << pad("#", 5) << pad("figure", 64) << lpad("published", 12) << lpad("model", 12) << lpad("error", 9) << "  note\n";
  for (const auto& r : rows) {
    std::string model = r.modeled ? show(r.model, r.unit) : "n/a";
    std::string err = r.modeled ? fmt("%+.0f%%", 100.0 * (r.model - r.published) / r.published) : "-";
    std::string note = (r.calibration ? std::string("cal") + (r.note.empty() ? "" : "; ") : "") + r.note;
    io.out << pad(r.id, 5) << pad(r.figure, 64) << lpad(show(r.published, r.unit), 12) << lpad(model, 12)
           << lpad(err, 9) << "  " << note << "\n";
  }
  io.out << "\n" << modeled << " figures modeled: " << within25 << " within 25%, " << far
         << " off by more than 50%. Uncalibrated measurements within 25%: " << measured_within25 << " of " << measured
         << ".\n";
  if (!far_rows.empty()) {
    io.out << "Far off (>50%):\n";
    for (const auto& f : far_rows) io.out << "  - " << f << "\n";
  }
  return 0;
}

}  // namespace

TRNSIM_COMMAND("validate", "model vs every published Trainium measurement and AWS claim, with errors",
               "Usage: trnsim validate [--json]\n"
               "  Prices each published Trainium2 measurement (PERF.md rows 1-14) and each Trn3-vs-Trn2 claim\n"
               "  with the model and prints published, model and error. Rows the model does not cover\n"
               "  (speculative decoding, other clouds) say so.\n"
               "Exit codes: 0.\n",
               run_validate);
