// Derived checks, schedules: how operator times compose into the headline figures.
//  - Training (1F1B): step = (m + pp - 1) slots of (the slowest stage forward + the slowest
//    backward + the boundary transfers of a micro-batch) + the data-parallel exchange not hidden behind
//    backward + the optimizer; bubble = (pp - 1) / (m + pp - 1); ZeRO exchange sizes from the
//    heaviest stage's parameters; MFU and HFU from 6 x active params + attention per token.
//  - Inference: TTFT = every stage's prefill + the boundary transfers; a decode step with
//    pp > 1 cycles min(batch, pp) micro-batches through the stages.
//  - Metamorphic relations: double the micro-batches, halve a bandwidth, add a pipeline
//    stage -- the result moves by exactly what the formula says.
// Serving (queueing: Little's law, zero-load equality with `trnsim run`) and video (linear
// in steps) are not part of the model yet; their builders add test_derived_serving.cpp and
// test_derived_video.cpp beside this file, with the same kind of relations.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "embedded.h"
#include "test_derived_reference.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_schedule {

using namespace derived;
using trnsim::json;

namespace {

struct Training {
  double seq = 8192, global = 144, micro = 1;
  int zero = 1;
  std::string recompute = "selective";
  double overlap = 0.8;
};

json training_workload(const std::string& model, const Placement& p, const Training& t) {
  // The plain stack: TP ranks are chips, as the derivation's collectives (the Neuron stacks'
  // logical cores are checked in test_derived_neuron.cpp).
  return {{"model", model},
          {"kind", "training"},
          {"stack", "plain"},
          {"precision", {{"weights", p.weights}, {"attention_weights", p.attn_weights}, {"activations", p.act}, {"kv_cache", p.kv}}},
          {"parallelism", {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"ep", p.ep}}},
          {"training",
           {{"sequence_length", t.seq}, {"global_batch", t.global}, {"micro_batch", t.micro}, {"zero_stage", t.zero},
            {"recompute", t.recompute}, {"overlap", t.overlap}}}};
}

// Backward of a forward operator: a matmul's data and weight gradients (twice the FLOPs,
// bytes and kernels), flash-attention backward (2.5x the forward FLOPs: recomputing the
// scores plus three gradient matmuls, twice the bytes, one kernel), memory kernels twice
// the bytes, collectives mirrored (all-gather <-> reduce-scatter; all-reduce, all-to-all and
// permute stay).
Op backward(const Op& f) {
  Op b = f;
  b.name = f.name + ".bwd";
  if (!f.coll.empty()) {
    if (f.coll == "all-gather") b.coll = "reduce-scatter";
    else if (f.coll == "reduce-scatter") b.coll = "all-gather";
  } else if (f.name == "attn.core") {
    b.flops = 2.5 * f.flops;
    b.hbm = 2 * f.hbm;
  } else if (f.flops > 0) {
    b.flops = 2 * f.flops, b.hbm = 2 * f.hbm, b.kernels = 2 * f.kernels;
  } else {
    b.hbm = 2 * f.hbm;
  }
  return b;
}

Pass training_pass(const Arch& a, const Training& t) {
  Pass s;
  s.seqs = t.micro;
  s.new_tokens = t.seq;
  s.pairs_full = causal_pairs(t.seq, 0);
  s.pairs_sliding = causal_pairs(t.seq, a.window);
  s.write_kv = false;
  return s;
}

// Layers of stage s: layer i runs on stage floor(i pp / L).
double stage_layers(const Arch& a, double pp, int s) {
  double n = 0;
  for (int i = 0; i < a.layers; ++i) n += static_cast<int>((static_cast<long long>(i) * static_cast<long long>(pp)) / static_cast<long long>(a.layers)) == s;
  return n;
}

struct Derived {
  double slowest = 0;      // one 1F1B slot: forward slot + backward slot
  double slowest_bwd = 0;  // backward work of the heaviest stage
  double dense_elems = 0, boundary = 0;
};

// Checks every forward / backward / recompute / boundary operator of a dense training run
// against the derivation and composes the slowest stage from the checked operator times.
Derived check_training_ops(const Run& r, const Arch& a, const Placement& p, const Training& t) {
  const Pass s = training_pass(a, t);
  const json& fwd = phase(r.result, "forward");
  const json& bwd = phase(r.result, "backward");
  const double L = a.layers;
  double layer_f = 0, layer_b = 0;
  std::size_t nf = 0, nb = 0;
  auto time_of = [](const json& o) { return o.at("time_s").get<double>(); };
  for (const Op& f : layer_ops(a, p, s, false, false)) {
    const json& of = op(fwd, f.name, "dense/full");
    CHECK(of.at("count").get<double>() == L);
    check_op(of, f, r.system);
    layer_f += time_of(of), ++nf;
    const json& ob = op(bwd, f.name + ".bwd", "dense/full");
    check_op(ob, backward(f), r.system);
    layer_b += time_of(ob), ++nb;
    const bool again = t.recompute == "full" || (t.recompute == "selective" && f.name == "attn.core");
    if (again) {
      Op rc = f;
      rc.name = f.name + ".recompute";
      const json& orc = op(bwd, rc.name, "dense/full");
      check_op(orc, rc, r.system);
      layer_b += time_of(orc), ++nb;
    }
  }
  double first_f = 0, first_b = 0, last_f = 0, last_b = 0;
  for (const Op& f : first_stage_ops(a, s)) {
    first_f += time_of(op(fwd, f.name)), ++nf;
    check_op(op(fwd, f.name), f, r.system);
    check_op(op(bwd, f.name + ".bwd"), backward(f), r.system);
    first_b += time_of(op(bwd, f.name + ".bwd")), ++nb;
  }
  for (const Op& f : last_stage_ops(a, p, s.T())) {  // training: logits of every token
    check_op(op(fwd, f.name), f, r.system);
    last_f += time_of(op(fwd, f.name)), ++nf;
    check_op(op(bwd, f.name + ".bwd"), backward(f), r.system);
    last_b += time_of(op(bwd, f.name + ".bwd")), ++nb;
  }
  CHECK(fwd.at("ops").size() == nf);
  CHECK(bwd.at("ops").size() == nb);
  Derived d;
  if (p.pp > 1) {
    const json& pipe = phase(r.result, "pipeline");
    REQUIRE(pipe.at("ops").size() == 2);
    // One micro-batch's activations forward and gradients back: tokens x hidden, BF16, to the
    // next stage (pipeline neighbours are tp x dp chips apart).
    for (const char* name : {"pp.send_activations", "pp.send_gradients"}) {
      const json& o = op(pipe, name);
      CHECK(o.at("count").get<double>() == p.pp - 1);
      check_op(o, coll(name, "permute", s.T() * a.d * kResidualBytes, p.pp, p.tp * p.dp), r.system);
      d.boundary += time_of(o);
    }
  }
  // 1F1B paces every stage by the slowest: a forward slot is the slowest stage forward plus
  // the activation transfer, a backward slot the slowest backward plus the gradient one.
  double max_f = 0, max_b = 0, heaviest = 0;
  for (int st = 0; st < p.pp; ++st) {
    double f = stage_layers(a, p.pp, st) * layer_f, b = stage_layers(a, p.pp, st) * layer_b;
    if (st == 0) f += first_f, b += first_b;
    if (st == p.pp - 1) f += last_f, b += last_b;
    max_f = std::max(max_f, f), max_b = std::max(max_b, b);
    if (f + b > heaviest) heaviest = f + b, d.slowest_bwd = b;  // the stage whose backward hides the exchange
  }
  d.slowest = max_f + max_b + d.boundary;
  // Parameters on one chip of the heaviest stage (dense model: layers' shards, replicated
  // norms, the embedding shard on the first stage, the LM head shard on the last).
  for (int st = 0; st < p.pp; ++st) {
    double e = stage_layers(a, p.pp, st) * (attention_params_chip(a, p) + norm_params(a) + dense_mlp_params(a) / p.tp);
    if (st == 0) e += a.vocab * a.d / p.tp;
    if (st == p.pp - 1 && (!a.tied || p.pp > 1)) e += a.vocab * a.d / p.tp;
    d.dense_elems = std::max(d.dense_elems, e);
  }
  return d;
}

double training(const json& result, const char* key) { return result.at("training").at(key).get<double>(); }

// The whole step of a dense training run, derived; returns the step time.
double check_training(const Arch& a, const Placement& p, const Training& t, const std::string& system) {
  Run r = evaluate(training_workload(a.name, p, t), system);
  INFO(a.name << " training tp" << p.tp << " pp" << p.pp << " dp" << p.dp << " zero" << t.zero << " " << t.recompute);
  const Derived d = check_training_ops(r, a, p, t);
  const double m = t.global / (p.dp * t.micro);
  CHECK(training(r.result, "micro_batches") == m);
  CHECK(training(r.result, "pipeline_bubble_fraction") == exact((p.pp - 1) / (m + p.pp - 1)));
  // ZeRO: stage 0 all-reduces the BF16 gradients; 1 and 2 reduce-scatter them and all-gather
  // the updated parameters (at the weight precision); 3 gathers the parameters for every
  // micro-batch's forward and backward. Groups: the dp replicas of a shard, tp chips apart.
  const json& dpx = phase(r.result, "data-parallel");
  const double grads = d.dense_elems * 2, params = d.dense_elems * bytes_of(p.weights);
  double comm = 0;
  auto dp_op = [&](const char* name, const char* coll_op, double bytes, double count) {
    const json& o = op(dpx, name);
    CHECK(o.at("count").get<double>() == count);
    check_op(o, coll(name, coll_op, bytes, p.dp, p.tp), r.system);
    comm += count * o.at("time_s").get<double>();
  };
  if (p.dp > 1) {
    if (t.zero == 0) {
      dp_op("dp.grad_all_reduce", "all-reduce", grads, 1);
    } else {
      dp_op("dp.grad_reduce_scatter", "reduce-scatter", grads, 1);
      dp_op("dp.param_all_gather", "all-gather", params, t.zero == 3 ? 2 * m : 1);
    }
    CHECK(dpx.at("ops").size() == (t.zero == 0 ? 1u : 2u));
  } else {
    CHECK(dpx.at("ops").empty());
  }
  // The optimizer reads and writes its FP32 master weights and Adam moments (12 bytes a
  // parameter, twice), reads the BF16 gradient and writes the new weight, for its shard.
  const double shard = t.zero >= 1 ? d.dense_elems / p.dp : d.dense_elems;
  const json& adam = op(phase(r.result, "optimizer"), "optimizer.adam_step");
  check_op(adam, kernel("optimizer.adam_step", shard * (2 * 12 + 2 + bytes_of(p.weights)), 1), r.system);
  // 1F1B: m + pp - 1 slots of the slowest stage; the data-parallel exchange hides behind
  // backward up to `overlap` of it and at most the backward time of the m micro-batches.
  const double pipeline = (m + p.pp - 1) * d.slowest;
  const double exposed = std::max((1 - t.overlap) * comm, comm - m * d.slowest_bwd);
  const double step = pipeline + exposed + adam.at("time_s").get<double>();
  CHECK(training(r.result, "step_time_s") == exact(step));
  CHECK(training(r.result, "pipeline_bubble_fraction") * pipeline == exact((p.pp - 1) * d.slowest));
  const double tokens = t.global * t.seq;
  CHECK(training(r.result, "tokens_per_step") == tokens);
  CHECK(training(r.result, "tokens_per_s_per_chip") == exact(tokens / step / (p.tp * p.pp * p.dp)));
  // MFU: 3 passes (forward, two backward matmuls) of 2 FLOPs per active parameter and the
  // causal attention's 2 x heads x (qk + v) per pair, per token; HFU adds the recompute.
  const double attn = a.layers * 2 * a.heads * (a.qk() + a.v()) * causal_pairs(t.seq, 0) / t.seq;
  const double fwd_per_token = 2 * params_of(a).active + attn;
  const double peak = r.system.chip.peak(p.act) * p.tp * p.pp * p.dp;
  CHECK(training(r.result, "mfu") == exact(3 * fwd_per_token * tokens / (step * peak)));
  const double again = t.recompute == "full" ? fwd_per_token : t.recompute == "selective" ? attn : 0;
  CHECK(training(r.result, "hfu") == exact((3 * fwd_per_token + again) * tokens / (step * peak)));
  // Memory per chip: the optimizer states of the shard, gradients (sharded from ZeRO-2),
  // weights (sharded at ZeRO-3).
  CHECK(memory_item(r.result, "optimizer_states") == exact(shard * 12));
  CHECK(memory_item(r.result, "gradients") == exact((t.zero >= 2 ? d.dense_elems / p.dp : d.dense_elems) * 2));
  const double weight_bytes = d.dense_elems * 2;  // BF16 weights in these cases (norms and embeddings too)
  CHECK(memory_item(r.result, "weights") == exact(t.zero == 3 ? weight_bytes / p.dp : weight_bytes));
  // Activations (BF16) the first stage keeps for its min(pp, m) micro-batches in flight, per
  // token and layer: the layer input only (full recompute); or the norms' and residual
  // inputs (4 d / tp), q, o, k, v and the MLP's gate and up (selective) plus its output
  // (none). Plus one layer's whole working set, which recompute rebuilds, and FP32 logits.
  const double T = t.micro * t.seq, dtp = a.d / p.tp, ff = a.f / p.tp;
  const double attn_w = 2 * a.heads / p.tp * a.head_dim + 2 * std::max(1.0, a.kv_heads / p.tp) * a.head_dim;
  const double kept = t.recompute == "full" ? dtp : t.recompute == "selective" ? 4 * dtp + attn_w + 2 * ff : 4 * dtp + attn_w + 3 * ff;
  const double acts = std::min(p.pp, m) * stage_layers(a, p.pp, 0) * T * kept * 2 + T * (4 * dtp + 3 * ff) * 2 +
                      T * a.vocab / p.tp * 4;
  CHECK(memory_item(r.result, "activations") == exact(acts));
  CHECK(memory_item(r.result, "reserve") == exact(field_default("workload.efficiency.hbm_reserve_fraction") * r.system.chip.hbm_capacity_bytes));
  return step;
}

}  // namespace

TEST_CASE("1F1B training step, bubble, ZeRO exchanges and MFU derived (Llama-3.1-70B)", "[derived]") {
  Arch a = arch_of("Llama-3.1-70B");
  Placement p;
  p.tp = 4, p.pp = 4, p.dp = 9;
  check_training(a, p, {}, "trn3-gen2-ultraserver");
  Training t;
  for (int z : {0, 2, 3}) {
    t.zero = z;
    check_training(a, p, t, "trn3-gen2-ultraserver");
  }
  t = {};
  t.recompute = "full";
  check_training(a, p, t, "trn3-gen2-ultraserver");
  t.recompute = "none";
  check_training(a, p, t, "trn3-gen2-ultraserver");
  Placement mx = p;
  mx.act = "mxfp8";
  check_training(a, mx, {}, "trn3-gen2-ultraserver");
}

TEST_CASE("training without a pipeline: step = m x (forward + backward) + exposed DP + optimizer", "[derived]") {
  Arch a = arch_of("Llama-3.1-8B");
  Placement p;
  p.tp = 2, p.dp = 8;
  Training t;
  t.seq = 4096, t.global = 64, t.micro = 2, t.overlap = 0;
  Run r = evaluate(training_workload(a.name, p, t), "trn3-gen2-ultraserver");
  const double m = 64 / (8 * 2);
  const double per_micro = phase(r.result, "forward").at("time_s").get<double>() + phase(r.result, "backward").at("time_s").get<double>();
  const double dp = phase(r.result, "data-parallel").at("time_s").get<double>();
  const double opt = phase(r.result, "optimizer").at("time_s").get<double>();
  CHECK(training(r.result, "step_time_s") == exact(m * per_micro + dp + opt));
  CHECK(training(r.result, "pipeline_bubble_fraction") == 0);
  check_training(a, p, t, "trn3-gen2-ultraserver");
}

TEST_CASE("metamorphic: doubling the micro-batches adds m slowest-stage slots, nothing else", "[derived]") {
  Arch a = arch_of("Llama-3.1-70B");
  Placement p;
  p.tp = 4, p.pp = 4, p.dp = 9;
  Training t;
  t.overlap = 0;  // the whole DP exchange exposed: it does not depend on m
  const double s16 = check_training(a, p, t, "trn3-gen2-ultraserver");
  Training t2 = t;
  t2.global = 2 * t.global;
  const double s32 = check_training(a, p, t2, "trn3-gen2-ultraserver");
  Run r = evaluate(training_workload(a.name, p, t), "trn3-gen2-ultraserver");
  const Derived d = check_training_ops(r, a, p, t);
  CHECK(s32 - s16 == Approx(16 * d.slowest).epsilon(1e-9));
  // The bubble shrinks from 3/19 to 3/35.
  Run r2 = evaluate(training_workload(a.name, p, t2), "trn3-gen2-ultraserver");
  CHECK(training(r.result, "pipeline_bubble_fraction") == exact(3.0 / 19));
  CHECK(training(r2.result, "pipeline_bubble_fraction") == exact(3.0 / 35));
}

TEST_CASE("metamorphic: a fifth pipeline stage re-slices the layers and the exchanges", "[derived]") {
  // 80 layers over 5 stages of 16: every operator is the same per layer, the slowest stage
  // holds 16 layers instead of 20, the step has m + 4 slots, and each chip's ZeRO shard
  // shrinks with its stage.
  Arch a = arch_of("Llama-3.1-70B");
  Placement p4, p5;
  p4.tp = p5.tp = 4;
  p4.pp = 4, p5.pp = 5;
  p4.dp = p5.dp = 7;
  Training t;
  t.global = 7 * 20;
  check_training(a, p4, t, "trn3-gen2-ultraserver");
  check_training(a, p5, t, "trn3-gen2-ultraserver");
  Run r4 = evaluate(training_workload(a.name, p4, t), "trn3-gen2-ultraserver");
  Run r5 = evaluate(training_workload(a.name, p5, t), "trn3-gen2-ultraserver");
  const Derived d4 = check_training_ops(r4, a, p4, t), d5 = check_training_ops(r5, a, p5, t);
  const double per_layer = (d4.dense_elems - a.vocab * a.d / 4) / 20;
  CHECK(d5.dense_elems - a.vocab * a.d / 4 == Approx(16 * per_layer).epsilon(1e-12));
  CHECK(training(r5.result, "pipeline_bubble_fraction") == exact(4.0 / 24));
}

TEST_CASE("inference with a pipeline: TTFT adds the boundary transfers, decode cycles the micro-batches", "[derived]") {
  Arch a = arch_of("Llama-3.1-8B");
  const Inference in{4, 1000, 25};
  Placement p1, p2;
  p1.tp = p2.tp = 2;
  p2.pp = 2;
  Run r1 = evaluate(inference_workload(a.name, p1, in), "trn3-gen2-ultraserver");
  Run r2 = evaluate(inference_workload(a.name, p2, in), "trn3-gen2-ultraserver");
  // The same operators split over two stages: TTFT grows by one activation transfer of the
  // prompt (tokens x hidden, BF16) from stage 0 to stage 1, tp x dp chips apart.
  trnsim::collective::Request send;
  send.op = "permute", send.bytes = 1000 * a.d * 2, send.ranks = 2, send.stride = 2;
  const double boundary = trnsim::collective::run(r2.system, send).time_s;
  CHECK(r2.result.at("inference").at("ttft_s").get<double>() ==
        exact(r1.result.at("inference").at("ttft_s").get<double>() + boundary));
  // Decode: batch 4 over 2 stages runs 2 micro-batches of 2 sequences; a step takes the
  // longer of one micro-batch through both stages and 2 slots of the slowest stage.
  const json& dec = phase(r2.result, "decode");
  Pass s = decode_pass(a, in, 2);
  double layer = 0;
  for (const Op& w : layer_ops(a, p2, s, false, false)) {
    const json& o = op(dec, w.name, "dense/full");
    check_op(o, w, r2.system);
    layer += o.at("time_s").get<double>();
  }
  double first = 0, last = 0;
  for (const Op& w : first_stage_ops(a, s)) first += op(dec, w.name).at("time_s").get<double>();
  for (const Op& w : last_stage_ops(a, p2, 2)) {
    check_op(op(dec, w.name), w, r2.system);
    last += op(dec, w.name).at("time_s").get<double>();
  }
  send.bytes = 2 * a.d * 2;
  const double hop = trnsim::collective::run(r2.system, send).time_s;
  const double stage0 = 16 * layer + first, stage1 = 16 * layer + last;
  const double tpot = std::max(stage0 + stage1 + hop, 2 * std::max(stage0, stage1));
  const json& inf = r2.result.at("inference");
  CHECK(inf.at("tpot_s").get<double>() == exact(tpot));
  CHECK(inf.at("request_latency_s").get<double>() == exact(4 * inf.at("ttft_s").get<double>() + 24 * tpot));
  CHECK(inf.at("output_tokens_per_s").at("per_chip").get<double>() ==
        exact(4 * 25 / inf.at("request_latency_s").get<double>() / 4));
}

TEST_CASE("metamorphic: half the HBM bandwidth doubles every memory time, from the data file or the efficiency", "[derived]") {
  // A Trainium3 with half the HBM bandwidth (a user chip file) at the default HBM efficiency
  // and the built-in chip at half that efficiency price every kernel identically: memory
  // time = bytes / (bandwidth x efficiency).
  json chip = json::parse(*trnsim::find_embedded("data/chips/trainium3.json"));
  chip["name"] = "trainium3-half-hbm";
  chip["hbm"]["bandwidth"]["value"] = chip["hbm"]["bandwidth"]["value"].get<double>() / 2;
  chip["hbm"]["bandwidth"].erase("alternatives");
#ifdef __EMSCRIPTEN__
  const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/test_derived_wasm_half_hbm.json";
#else
  const std::string path = std::string(TRNSIM_SOURCE_DIR) + "/build/test_derived_native_half_hbm.json";
#endif
  std::ofstream(path) << chip.dump();
  Placement mx;
  mx.weights = "mxfp4";
  mx.act = "mxfp8";
  json w = inference_workload("gpt-oss-120b", mx, {8, 2000, 65});
  Run half_data = evaluate(w, path);
  json slow = w;
  slow["efficiency"] = {{"hbm", field_default("workload.efficiency.hbm") / 2}};
  Run half_eff = evaluate(slow, "trainium3");
  Run full = evaluate(w, "trainium3");
  std::remove(path.c_str());
  for (const char* ph : {"prefill", "decode"}) {
    const json& a = phase(half_data.result, ph).at("ops");
    const json& b = phase(half_eff.result, ph).at("ops");
    const json& c = phase(full.result, ph).at("ops");
    REQUIRE(a.size() == c.size());
    REQUIRE(b.size() == c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
      INFO(ph << " " << c[i].at("name") << " " << c[i].at("layer_type").dump());
      const double mem = 2 * c[i].at("memory_s").get<double>(), comp = c[i].at("compute_s").get<double>();
      CHECK(a[i].at("memory_s").get<double>() == exact(mem));
      CHECK(b[i].at("memory_s").get<double>() == exact(mem));
      CHECK(a[i].at("compute_s").get<double>() == exact(comp));
      CHECK(a[i].at("time_s").get<double>() == exact(std::max(mem, comp) + c[i].at("overhead_s").get<double>()));
      CHECK(b[i].at("time_s").get<double>() == exact(a[i].at("time_s").get<double>()));
    }
  }
}

TEST_CASE("metamorphic: efficiencies scale only the kernels they name", "[derived]") {
  // efficiency.attention prices the attention cores, efficiency.compute every matmul, and
  // the kernel overhead is a fixed time per kernel: changing one moves only its operators.
  Arch a = arch_of("Llama-3.1-8B");
  Placement p;
  p.tp = 2;
  json w = inference_workload(a.name, p, {4, 3000, 9});
  Run base = evaluate(w, "trn3-gen2-ultraserver");
  json slow_attn = w, slow_mm = w, no_overhead = w;
  slow_attn["efficiency"] = {{"attention", field_default("workload.efficiency.attention") / 2}};
  slow_mm["efficiency"] = {{"compute", field_default("workload.efficiency.compute") / 2}};
  no_overhead["efficiency"] = {{"kernel_overhead_s", 0.0}};
  Run ra = evaluate(slow_attn, "trn3-gen2-ultraserver"), rm = evaluate(slow_mm, "trn3-gen2-ultraserver"),
      ro = evaluate(no_overhead, "trn3-gen2-ultraserver");
  for (const char* ph : {"prefill", "decode"}) {
    const json& b = phase(base.result, ph).at("ops");
    for (std::size_t i = 0; i < b.size(); ++i) {
      const std::string name = b[i].at("name");
      INFO(ph << " " << name);
      const double c = b[i].at("compute_s").get<double>();
      const bool attention = name == "attn.core", matmul = c > 0 && !attention;
      // Half the efficiency doubles a kernel's full-rate work; each kernel still starts cold
      // (the tensor engine's ramp, S15), so the time is the ramp's inverse of twice the work.
      const auto& te = base.system.chip.neuroncore->core.tensor;
      const double kernels = b[i].at("overhead_s").get<double>() / Efficiency{}.kernel_overhead_s;
      const double doubled = rescaled_compute(te, c, kernels, 2);
      if (c > 0) REQUIRE(doubled > 2 * c - kernels * te.warmup_ramp_s);  // the ramp is worth at most R per kernel
      CHECK(phase(ra.result, ph).at("ops")[i].at("compute_s").get<double>() == exact(attention ? doubled : c));
      CHECK(phase(rm.result, ph).at("ops")[i].at("compute_s").get<double>() == exact(matmul ? doubled : c));
      const json& o = phase(ro.result, ph).at("ops")[i];
      CHECK(o.at("overhead_s").get<double>() == 0);
      if (b[i].at("category") != "fabric")
        CHECK(o.at("time_s").get<double>() == exact(std::max(c, b[i].at("memory_s").get<double>())));
    }
  }
}

TEST_CASE("training on a torus and across UltraServers: strides and an exposed exchange derived", "[derived]") {
  // On the Trn2 UltraServer's 4x4x4 torus the data-parallel groups (tp chips apart) and the
  // pipeline neighbours (tp x dp apart) take other links than contiguous chips would.
  Arch a = arch_of("Llama-3.1-8B");
  Placement p;
  p.tp = 4, p.pp = 2, p.dp = 8;
  Training t;
  t.global = 32;
  check_training(a, p, t, "trn2-ultraserver");
  // One micro-batch of 16 tokens per replica and 144 replicas: the gradient exchange outlasts
  // the micro-batch's backward, so more than 1 - overlap of it shows.
  Placement wide;
  wide.dp = 144;
  Training one;
  one.seq = 16, one.global = 144;
  check_training(a, wide, one, "trn3-gen2-ultraserver");
  Run r = evaluate(training_workload(a.name, wide, one), "trn3-gen2-ultraserver");
  const Derived d = check_training_ops(r, a, wide, one);
  REQUIRE(phase(r.result, "data-parallel").at("time_s").get<double>() * one.overlap > d.slowest_bwd);  // m = 1
}

}  // namespace unit_derived_schedule
