// The workload layer: strict spec parsing and its canonical round trip, placement and fit
// errors that name the field, FLOP and KV-cache bookkeeping of the operator breakdown,
// training memory and MFU, and determinism of every output form.
#include <catch2/catch.hpp>

#include <cmath>

#include "hw/system.h"
#include "scenario/scenario.h"
#include "workload/workload.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_workload {

using namespace trnsim;
using namespace trnsim::workload;

namespace {

const hw::System& trn3() {
  static const hw::System s = hw::load_system("trn3-gen2-ultraserver");
  return s;
}
const hw::System& trn2() {
  static const hw::System s = hw::load_system("trn2-ultraserver");
  return s;
}

Spec spec_of(const json& j) { return trnsim::parse_workload(j); }

std::string parse_error(const json& j) {
  try {
    trnsim::parse_workload(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string eval_error(const Spec& s, const hw::System& sys) {
  try {
    evaluate(s, sys);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

const Phase& phase(const Result& r, const std::string& name) {
  for (const auto& p : r.phases)
    if (p.name == name) return p;
  throw std::logic_error("no phase " + name);
}

double sum_matmul_flops(const Phase& ph) {
  double f = 0;
  for (const auto& o : ph.ops)
    if (o.detail.find("matmul") != std::string::npos) f += o.count * o.flops;
  return f;
}

}  // namespace

TEST_CASE("spec: canonical JSON round trips and fills every field", "[workload]") {
  Spec d = trnsim::default_scenario().workload;
  CHECK(trnsim::parse_workload(trnsim::workload_to_json(d)) == d);
  Spec minimal = spec_of({{"model", "Llama-3.1-8B"}});
  json canon = trnsim::workload_to_json(minimal);
  for (const char* k : {"kind", "model", "precision", "parallelism", "inference", "training", "efficiency", "economics"})
    CHECK(canon.contains(k));
  CHECK(canon["economics"]["chip_power_watts"].is_null());
  CHECK(trnsim::parse_workload(canon) == minimal);
  // An inline Hugging Face config travels in the scenario and survives the round trip.
  json inline_spec = {{"model", trnsim::model::bundled_model_json("Qwen3-235B-A22B", "m")}, {"parallelism", {{"tp", 8}}}};
  Spec s = spec_of(inline_spec);
  CHECK(s.model_name.empty());
  CHECK(trnsim::parse_workload(trnsim::workload_to_json(s)) == s);
  Spec t = spec_of({{"model", "Llama-3.1-8B"}, {"kind", "training"}, {"economics", {{"chip_power_watts", 700}}}});
  CHECK(trnsim::parse_workload(trnsim::workload_to_json(t)) == t);
  CHECK(*t.economics.chip_power_watts == 700);
}

TEST_CASE("spec: strict errors name the field", "[workload]") {
  CHECK(parse_error({{"model", "gpt-oss-120b"}, {"paralelism", json::object()}}) ==
        "workload.paralelism: unknown key (did you mean 'parallelism'?)");
  CHECK(parse_error({{"model", "gpt-oss-120b"}, {"parallelism", {{"tp", 0}}}}) ==
        "workload.parallelism.tp: 0 is below 1 (a tensor-parallel group has at least one chip)");
  CHECK(starts_with(parse_error({{"model", "gpt-oss-120b"}, {"precision", {{"weights", "fp4"}}}}),
                    "workload.precision.weights: unknown value 'fp4' (did you mean 'fp8'?)"));
  CHECK(parse_error({{"model", "gpt-oss-120b"}, {"inference", {{"batch", -4}}}}) ==
        "workload.inference.batch: -4 is below 1 (a batch holds at least one sequence)");
  CHECK(parse_error({{"model", "gpt-oss-120b"}, {"inference", {{"output_tokens", 0}}}}) ==
        "workload.inference.output_tokens: 0 is below 1 (a request generates at least one token)");
  CHECK(starts_with(parse_error({{"model", "gpt-oss-12b"}}), "workload.model: unknown bundled model 'gpt-oss-12b' (did you mean 'gpt-oss-120b'?)"));
  CHECK(parse_error(json::object()) == "workload.model: missing (required)");
  CHECK(starts_with(parse_error({{"model", 3}}), "workload.model: expected a bundled model name or a Hugging Face"));
  json bad = trnsim::model::bundled_model_json("Llama-3.1-8B", "m");
  bad["num_attention_heads"] = "many";
  CHECK(starts_with(parse_error({{"model", bad}}), "workload.model.num_attention_heads: expected a whole number"));
  CHECK(starts_with(parse_error({{"model", "gpt-oss-120b"}, {"training", {{"recompute", "some"}}}}),
                    "workload.training.recompute: unknown value 'some'"));
  CHECK(parse_error({{"model", "gpt-oss-120b"}, {"efficiency", {{"hbm", 1.5}}}}) ==
        "workload.efficiency.hbm: 1.5 is above 1 (an efficiency is a share of the peak: nothing runs faster than it)");
}

TEST_CASE("placement errors: tp vs heads and domain, chips, ep, HBM fit", "[workload]") {
  Spec s = trnsim::default_scenario().workload;
  s.parallelism.tp = 5;  // heads are padded to tp (Neuron's way), but 5 chips do not divide 144
  CHECK(starts_with(eval_error(s, trn3()),
                    "workload.parallelism.tp: a tensor-parallel group must fit in (and divide) one scale-up domain of 144 chips"));
  s = trnsim::default_scenario().workload;
  s.parallelism.tp = 32;  // Trn2 UltraServer's domain is 64 chips: fine; trn2.48xlarge has 16.
  CHECK(starts_with(eval_error(s, hw::load_system("trn2-48xlarge")),
                    "workload.parallelism.tp: a tensor-parallel group must fit in (and divide) one scale-up domain of 16 chips"));
  s = trnsim::default_scenario().workload;
  s.parallelism.dp = 100;
  CHECK(eval_error(s, trn3()) == "workload.parallelism.dp: tp*pp*dp = 800 chips, but Trn3 Gen2 UltraServer has 144");
  s = trnsim::default_scenario().workload;
  s.parallelism.ep = 3;
  CHECK(eval_error(s, trn3()) == "workload.parallelism.ep: must divide the model's 128 experts, got 3");
  s = spec_of({{"model", "Llama-3.1-8B"}, {"parallelism", {{"ep", 2}}}});
  CHECK(eval_error(s, trn3()) == "workload.parallelism.ep: must be 1 for a dense model, got 2");
  // Llama-3.1-405B in BF16 on one Trainium2: 756 GiB of weights in 96 GiB.
  s = spec_of({{"model", "Llama-3.1-405B"}, {"inference", {{"batch", 1}, {"input_tokens", 128}, {"output_tokens", 16}}}});
  std::string e = eval_error(s, trn2());
  CHECK(starts_with(e, "workload.parallelism: does not fit in HBM: needs "));
  CHECK(e.find("Trainium2 has 96.0 GiB: over by ") != std::string::npos);
  s.parallelism.tp = 16;
  CHECK(eval_error(s, trn2()).empty());
  s = spec_of({{"model", "Llama-3.1-8B"}, {"kind", "training"}, {"parallelism", {{"dp", 8}}},
               {"training", {{"global_batch", 12}}}});
  CHECK(eval_error(s, trn3()) == "workload.training.global_batch: must be a multiple of dp * micro_batch (8), got 12");
}

TEST_CASE("inference: matmul FLOPs and KV cache add up", "[workload]") {
  // The plain stack: ranks are chips (no collective at tp = 1), nothing overlaps and no
  // request cost, so TTFT is exactly the prefill's operators (the Neuron stacks' 4 logical
  // cores per chip and overlap: test_derived_neuron.cpp).
  Spec s = spec_of({{"model", "Llama-3.1-8B"},
                    {"stack", "plain"},
                    {"inference", {{"batch", 4}, {"input_tokens", 1000}, {"output_tokens", 24}}}});
  Result r = evaluate(s, trn3());
  const double T = 1000;  // prefill is per request
  // Prefill: every layer weight multiplies every prompt token; the LM head only the last one.
  const double layer_weights = r.language_model()->params.active - r.language_model()->params.norms - r.language_model()->params.lm_head;
  CHECK(sum_matmul_flops(phase(r, "prefill")) == 2.0 * T * layer_weights + 2.0 * r.language_model()->params.lm_head);
  CHECK(sum_matmul_flops(phase(r, "decode")) == 2.0 * 4 * (layer_weights + r.language_model()->params.lm_head));
  // KV cache: 4 sequences x 1024 tokens x 128 KiB.
  double kv = 0;
  for (const auto& m : r.memory)
    if (m.name == "kv_cache") kv = m.bytes;
  CHECK(kv == 4.0 * 1024 * 131072);
  CHECK(r.language_model()->kv_bytes_per_token == 131072.0);
  // One stage: TTFT is the prefill's operators, TPOT a decode step's; a request waits for
  // the 4 prefills (its own and the other streams', each stalling decode) and 23 steps.
  const Phase& pre = phase(r, "prefill");
  const Phase& dec = phase(r, "decode");
  CHECK(r.inference().ttft_s == Approx(pre.time_s).epsilon(1e-12));
  CHECK(r.inference().tpot_s == Approx(dec.time_s).epsilon(1e-12));
  CHECK(r.inference().request_latency_s == Approx(4 * r.inference().ttft_s + 23 * r.inference().tpot_s).epsilon(1e-12));
  CHECK(r.inference().output_tokens_per_s_per_chip == Approx(4.0 * 24 / r.inference().request_latency_s).epsilon(1e-12));  // one chip
  // Time shares over a request: 4 prefills and 23 decode steps, each part where it is bound.
  const double total = 4 * pre.time_s + 23 * dec.time_s;
  CHECK(r.time_shares.compute == Approx((4 * pre.split.compute_s + 23 * dec.split.compute_s) / total).epsilon(1e-12));
  CHECK(r.time_shares.hbm == Approx((4 * pre.split.hbm_s + 23 * dec.split.hbm_s) / total).epsilon(1e-12));
  CHECK(r.time_shares.overhead == Approx((4 * pre.split.overhead_s + 23 * dec.split.overhead_s) / total).epsilon(1e-12));
  CHECK(r.time_shares.fabric == 0);  // one chip: no collectives
  // With tp = 2 each chip does half the layer FLOPs and adds two all-reduces per layer.
  s.parallelism.tp = 2;
  Result r2 = evaluate(s, trn3());
  CHECK(sum_matmul_flops(phase(r2, "prefill")) == Approx(sum_matmul_flops(phase(r, "prefill")) / 2));
  int all_reduces = 0;
  for (const auto& o : phase(r2, "decode").ops)
    if (o.name.find("all_reduce") != std::string::npos) all_reduces += static_cast<int>(o.count);
  CHECK(all_reduces == 64);
}

TEST_CASE("each kind's result holds only its own figures", "[workload]") {
  // The kind is parsed once, at the field; every name round-trips and a typo names the field.
  for (const auto& n : kind_names()) CHECK(kind_name(parse_kind(n)) == n);
  CHECK_THROWS_WITH(parse_kind("infrence"), Catch::Contains("workload.kind"));
  const Result inf = evaluate(spec_of({{"model", "Llama-3.1-8B"}}), trn3());
  const Result tr = evaluate(spec_of({{"model", "Llama-3.1-8B"}, {"kind", "training"}, {"parallelism", {{"pp", 2}, {"dp", 4}}},
                                      {"training", {{"global_batch", 32}, {"sequence_length", 4096}}}}),
                             trn3());
  CHECK(inf.kind() == Kind::inference);
  CHECK(tr.kind() == Kind::training);
  CHECK(std::get_if<TrainingResult>(&inf.figures) == nullptr);
  CHECK(std::get_if<InferenceResult>(&tr.figures) == nullptr);
  CHECK_THROWS_AS(tr.inference(), std::bad_variant_access);
  CHECK(tr.language_model() == static_cast<const LanguageModelResult*>(&tr.training()));
  CHECK(tr.model_name() == tr.training().model.name);
  // The report has the kind's section and no other kind's.
  const json j = result_to_json(tr);
  CHECK(j["kind"] == "training");
  CHECK(j.contains("training"));
  CHECK(!j.contains("inference"));
  CHECK(!j.contains("video"));
}

TEST_CASE("time splits: operators, phases and the headline add up", "[workload]") {
  const Result r = evaluate(spec_of({{"model", "Llama-3.1-8B"}, {"parallelism", {{"tp", 4}}}}), trn3());
  for (const auto& ph : r.phases) {
    INFO(ph.name);
    TimeSplit ops;
    for (const auto& o : ph.ops) {
      CHECK(o.split().total() == Approx(o.total_s()).epsilon(1e-12));
      ops += o.split();
    }
    CHECK(ops.total() == Approx(ph.time_s).epsilon(1e-12));
    CHECK(ph.split.compute_s == Approx(ops.compute_s).epsilon(1e-12));
    CHECK(ph.split.fabric_s == Approx(ops.fabric_s).epsilon(1e-12));
    CHECK(ph.split.shares_of(ph.time_s).sum() == Approx(1.0).epsilon(1e-12));
  }
  CHECK(phase(r, "decode").split.fabric_s > 0);  // tp 4: all-reduces
  CHECK(r.time_shares.sum() == Approx(1.0).epsilon(1e-12));
  // The arithmetic: scaling and adding act part by part; shares of nothing are zero.
  const TimeSplit& d = phase(r, "decode").split;
  TimeSplit twice = d;
  twice += d;
  CHECK(twice.total() == Approx((d * 2).total()).epsilon(1e-15));
  CHECK(twice.hbm_s == 2 * d.hbm_s);
  CHECK(d.shares().hbm == Approx(d.hbm_s / d.total()).epsilon(1e-15));
  CHECK(d.shares_of(0).sum() == 0);
  CHECK(d.toward(twice, 0.5).overhead_s == Approx(1.5 * d.overhead_s).epsilon(1e-15));
}

TEST_CASE("MoE decode reads only the experts the batch routes to", "[workload]") {
  // The plain stack's uniform routing (NxD's selective loading / all-experts strategy of the
  // Neuron stacks: test_derived_neuron.cpp).
  Spec s = spec_of({{"model", "gpt-oss-120b"},
                    {"stack", "plain"},
                    {"precision", {{"weights", "mxfp4"}, {"activations", "mxfp8"}}},
                    {"inference", {{"batch", 1}, {"input_tokens", 100}, {"output_tokens", 4}}}});
  Result r = evaluate(s, trn3());
  auto m = *spec_model(s);
  for (const auto& o : phase(r, "decode").ops) {
    if (o.name != "moe.experts") continue;
    // One token, top-4: exactly 4 experts' MXFP4 weights, and per expert the token's input
    // and output (hidden) and intermediate (written, read back) in MXFP8.
    const double weights = 4 * routed_expert_params(m) * bytes_per_element("mxfp4");
    CHECK(o.hbm_bytes == Approx(weights + 4 * (2.0 * m.hidden + 2.0 * m.moe_intermediate) * bytes_per_element("mxfp8"))
                             .epsilon(1e-12));
  }
  // 256 tokens reach 128 (1 - (1 - 4/128)^256) = 127.97 experts in expectation.
  s.inference.batch = 256;
  Result big = evaluate(s, trn3());
  const double reached = 128 * (1 - std::pow(1 - 4.0 / 128, 256));
  for (const auto& o : phase(big, "decode").ops)
    if (o.name == "moe.experts")
      CHECK(o.hbm_bytes == Approx(reached * routed_expert_params(m) * bytes_per_element("mxfp4") +
                                  256 * 4 * (2.0 * m.hidden + 2.0 * m.moe_intermediate) * bytes_per_element("mxfp8"))
                               .epsilon(1e-12));
}

TEST_CASE("precisions fall back to what the chip supports, with a warning", "[workload]") {
  Result r = evaluate(trnsim::default_scenario().workload, trn2());
  CHECK(r.weights_dtype == "bf16");
  CHECK(r.matmul_dtype == "fp8");
  bool warned = false;
  for (const auto& w : r.warnings) warned = warned || w.find("mxfp4 is not supported by Trainium2; modeled as bf16") != std::string::npos;
  CHECK(warned);
  Result t = evaluate(trnsim::default_scenario().workload, trn3());
  CHECK(t.weights_dtype == "mxfp4");
  CHECK(t.matmul_dtype == "mxfp8");
}

TEST_CASE("expert parallelism across replicas dispatches with all-to-all", "[workload]") {
  Spec s = spec_of({{"model", "DeepSeek-V3"},
                    {"precision", {{"weights", "mxfp8"}, {"attention_weights", "mxfp8"}, {"activations", "mxfp8"}}},
                    {"parallelism", {{"tp", 8}, {"dp", 8}, {"ep", 64}}},
                    {"inference", {{"batch", 32}, {"input_tokens", 2000}, {"output_tokens", 200}}}});
  Result r = evaluate(s, trn3());
  bool a2a = false;
  for (const auto& o : phase(r, "decode").ops) a2a = a2a || (o.name == "moe.dispatch" && o.detail.find("all-to-all, 256 ranks on 64 chips") == 0);
  CHECK(a2a);
  CHECK(r.chips_used == 64);
}

TEST_CASE("training: step, MFU, memory, ZeRO and recompute behave", "[workload]") {
  json base = {{"model", "Llama-3.1-70B"},
               {"kind", "training"},
               {"parallelism", {{"tp", 4}, {"pp", 4}, {"dp", 9}}},
               {"training", {{"sequence_length", 8192}, {"global_batch", 144}, {"micro_batch", 1}}}};
  Result r = evaluate(spec_of(base), trn3());
  CHECK(r.training().micro_batches == 16);
  CHECK(r.training().pipeline_bubble_fraction == Approx(3.0 / 19.0));
  CHECK(r.training().tokens_per_step == 144.0 * 8192);
  // Model FLOPs: 6 x active params per token plus causal attention, per step; MFU against
  // the BF16 peak of the 144 chips; HFU adds the selective recompute (the attention again).
  const double attn = 80 * 2.0 * 64 * 256 * (8192.0 * 8193 / 2) / 8192;
  CHECK(r.training().model_flops_per_step == Approx(3.0 * (2.0 * r.language_model()->params.active + attn) * r.training().tokens_per_step));
  const double peak = 144 * trn3().chip.peak("bf16");
  CHECK(r.training().mfu == Approx(r.training().model_flops_per_step / (r.training().step_time_s * peak)).epsilon(1e-12));
  CHECK(r.training().hfu == Approx((r.training().model_flops_per_step + attn * r.training().tokens_per_step) / (r.training().step_time_s * peak)).epsilon(1e-12));
  auto mem = [](const Result& x, const std::string& n) {
    for (const auto& m : x.memory)
      if (m.name == n) return m.bytes;
    return -1.0;
  };
  json z0 = base;
  z0["training"]["zero_stage"] = 0;
  Result r0 = evaluate(spec_of(z0), trn3());
  CHECK(mem(r0, "optimizer_states") == Approx(9 * mem(r, "optimizer_states")));
  json full = base;
  full["training"]["recompute"] = "full";
  Result rf = evaluate(spec_of(full), trn3());
  CHECK(mem(rf, "activations") < mem(r, "activations"));
  CHECK(rf.training().hfu > rf.training().mfu);
  CHECK(rf.training().step_time_s > r.training().step_time_s);
}

TEST_CASE("training across UltraServers scales over EFA", "[workload]") {
  Spec s = spec_of({{"model", "Llama-3.1-70B"},
                    {"kind", "training"},
                    {"parallelism", {{"tp", 4}, {"pp", 4}, {"dp", 36}}},
                    {"training", {{"global_batch", 576}}}});
  Result r = evaluate(s, hw::load_system("trn3-gen2-ultracluster:4"));
  CHECK(r.domains_used == 4);
  REQUIRE(r.training().scaling.size() == 3);  // 1, 2, 4 UltraServers
  CHECK(r.training().scaling[0].ultraservers == 1);
  CHECK(r.training().scaling[0].scaling_efficiency == 1.0);
  CHECK(r.training().scaling[2].chips == 576);
  // Weak scaling: the point at n UltraServers is the same training with n/4 of the replicas
  // and of the global batch on n UltraServers -- evaluated directly, it gives the same step
  // (n = 1: see the [!shouldfail] case below).
  for (int i = 1; i < 3; ++i) {
    const int n = 1 << i;
    Spec part = s;
    part.parallelism.dp = 9 * n;
    part.training.global_batch = 144 * n;
    Result direct = evaluate(part, hw::load_system("trn3-gen2-ultracluster:" + std::to_string(n)));
    INFO(n << " UltraServers");
    CHECK(r.training().scaling[i].ultraservers == n);
    CHECK(r.training().scaling[i].chips == 144 * n);
    CHECK(r.training().scaling[i].step_time_s == Approx(direct.training().step_time_s).epsilon(1e-12));
    CHECK(r.training().scaling[i].tokens_per_s == Approx(direct.training().tokens_per_s).epsilon(1e-12));
    CHECK(r.training().scaling[i].scaling_efficiency ==
          Approx(direct.training().tokens_per_s_per_chip / (r.training().scaling[0].tokens_per_s / 144)).epsilon(1e-12));
  }
  CHECK(r.training().scaling[2].step_time_s == r.training().step_time_s);
}

TEST_CASE("the one-UltraServer weak-scaling point is training on one UltraServer", "[workload]") {
  // Each point is the training evaluated at its size: at 1 UltraServer the stages sit tp x 9
  // chips apart inside it (the full placement's tp x 36 would cross UltraServers over EFA:
  // the bug this once was, 14.82 s instead of 14.62 s).
  Spec s = spec_of({{"model", "Llama-3.1-70B"},
                    {"kind", "training"},
                    {"parallelism", {{"tp", 4}, {"pp", 4}, {"dp", 36}}},
                    {"training", {{"global_batch", 576}}}});
  Result r = evaluate(s, hw::load_system("trn3-gen2-ultracluster:4"));
  Spec one = s;
  one.parallelism.dp = 9;
  one.training.global_batch = 144;
  CHECK(r.training().scaling[0].step_time_s == Approx(evaluate(one, trn3()).training().step_time_s).epsilon(1e-12));
}

TEST_CASE("outputs are deterministic and complete", "[workload]") {
  Spec s = trnsim::default_scenario().workload;
  Result a = evaluate(s, trn3());
  Result b = evaluate(trnsim::parse_workload(trnsim::workload_to_json(s)), trn3());
  CHECK(result_to_json(a).dump() == result_to_json(b).dump());
  CHECK(result_to_text(a) == result_to_text(b));
  CHECK(chrome_trace(a).dump() == chrome_trace(b).dump());
  std::string text = result_to_text(a);
  for (const char* k : {"TTFT", "time per token", "per chip", "HBM per chip", "time shares", "tokens per MW", "cost",
                        "Assumptions"})
    CHECK(text.find(k) != std::string::npos);
  json j = result_to_json(a);
  CHECK(j["memory_per_chip"]["fits"] == true);
  CHECK(j["phases"].size() == 2);
  json trace = chrome_trace(a);
  CHECK(trace["traceEvents"].size() > 100);
  bool lanes = false;
  for (const auto& e : trace["traceEvents"]) lanes = lanes || (e["ph"] == "M" && e["args"]["name"] == "fabric (collectives)");
  CHECK(lanes);
  Spec t = spec_of({{"model", "Llama-3.1-8B"}, {"kind", "training"}, {"parallelism", {{"pp", 2}, {"dp", 4}}},
                    {"training", {{"global_batch", 32}, {"sequence_length", 4096}}}});
  json tt = chrome_trace(evaluate(t, trn3()));
  int blocks = 0;
  for (const auto& e : tt["traceEvents"]) blocks += e["ph"] == "X" && e["cat"] == "forward";
  CHECK(blocks == 2 * 8);  // 8 micro-batches through 2 stages
}

TEST_CASE("pad_heads: a tp that does not divide the heads is padded, or an error when switched off", "[workload]") {
  json w = {{"model", "Llama-4-Scout-17B-16E-Instruct"},
            {"precision", {{"weights", "fp8"}, {"activations", "fp8"}}},
            {"parallelism", {{"tp", 16}}},
            {"inference", {{"batch", 1}, {"input_tokens", 128}, {"output_tokens", 8}}},
            {"stack", "plain"}};  // ranks are chips (the Neuron stacks pad to 64 TP ranks)
  Spec padded = trnsim::parse_workload(w);
  CHECK(padded.parallelism.pad_heads);
  Result r = evaluate(padded, trn3());
  bool warned = false;
  for (const auto& s : r.warnings) warned |= s.find("padded to 48") != std::string::npos;
  CHECK(warned);
  w["parallelism"]["pad_heads"] = false;
  CHECK(starts_with(eval_error(trnsim::parse_workload(w), trn3()), "workload.parallelism.tp: must divide the model's 40"));
}

}  // namespace unit_workload
